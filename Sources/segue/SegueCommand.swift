// segue: the command line face of the Segue library (presets, sampling, curve plots, profiling).
//
// Every subcommand checks its input and the size of its result first, then writes: to stdout,
// or to `--output` and the other output files through a `FileCommit` (temporary files renamed
// into place together), so an error never leaves a partial output file nor destroys an existing
// one. Errors go to stderr as `segue SUBCOMMAND: ARGUMENT: what is wrong` and end the process
// with one of the exit codes of `ExitStatus` (see ExitCodes.md beside this file).

import ArgumentParser
import Foundation
import Segue
import SegueSpec

/// The process exit codes (BSD sysexits.h values), documented in every command's help.
enum ExitStatus: Int32, CaseIterable {
  /// Success.
  case ok = 0
  /// `EX_USAGE`: the command line cannot be parsed (unknown subcommand, option or value name,
  /// a value of the wrong form, a missing or conflicting option). ArgumentParser's own errors.
  case usage = 64
  /// `EX_DATAERR`: values of the right form that are not acceptable (NaN, negative or
  /// out-of-range numbers, `--fps 0`) and any error in the content of an input file (malformed
  /// JSON, a wrong type, an unknown key, events out of order).
  case dataError = 65
  /// `EX_NOINPUT`: an input file is missing or cannot be read.
  case noInput = 66
  /// `EX_UNAVAILABLE`: a program the command needs is missing or failed (`ffmpeg` for
  /// `render --video`).
  case unavailable = 69
  /// `EX_SOFTWARE`: an internal error (a bug in segue or Segue).
  case internalError = 70
  /// `EX_CANTCREAT`: an output file or directory cannot be created or written.
  case cannotCreate = 73
}

/// The help text listing the exit codes.
let exitCodesHelp = """
  Exit codes:
    0   success
    1   snapshot verify: a snapshot is missing, unreadable or different
    64  usage: unknown subcommand, option or name; a value of the wrong form; missing or \
  conflicting options
    65  bad input data: NaN, negative or out-of-range values (e.g. --fps 0), a request above a \
  budget, a result that overflows (naming the option or the spec's JSON path behind it), or \
  an input file whose content is wrong (malformed JSON, wrong type, unknown key or key path, \
  missing or cyclic parent, duplicate id, events out of order) or that is larger than 32 MiB
    66  an input file is missing or unreadable
    69  a program the command needs is not on PATH or failed (ffmpeg for render --video)
    70  internal error
    73  an output cannot be created or written, standard output included (a full disk, a \
  closed pipe: SIGPIPE is ignored); nothing partial is left behind and earlier files are kept
    130, 143, 129  interrupted by SIGINT, SIGTERM, SIGHUP (temporary files are removed first)
  Errors are printed on stderr as 'segue SUBCOMMAND: ARGUMENT: what is wrong'. Input files may \
  be - for standard input.
  """

/// An error the tool reports: the argument (or `--option: JSON path`) at fault, what is wrong, and
/// the exit status.
struct CLIError: Error, CustomStringConvertible {
  /// The exit status.
  var status: ExitStatus
  /// The argument at fault, e.g. `--events` or `--times`.
  var argument: String
  /// What is wrong, e.g. `$[2].time: 0.1 is before the previous event (0.3)`.
  var message: String

  init(_ status: ExitStatus, _ argument: String, _ message: String) {
    self.status = status
    self.argument = argument
    self.message = message
  }

  var description: String { "\(argument): \(message)" }

  /// A library validation error on `argument`, as bad data; `prefix` precedes its text.
  static func data(_ argument: String, _ error: Segue.ValidationError, prefix: String = "")
    -> CLIError
  {
    CLIError(.dataError, argument, prefix + error.description)
  }

  /// A rejected input file (`--spec`, `--events`), as bad data: `malformed JSON: line L, column
  /// C: …` for a syntax error, else `JSONPATH: what is wrong`.
  /// A spec error: no input (66) for a file the spec names that cannot be read, else data
  /// error (65).
  static func spec(_ argument: String, _ error: SpecError) -> CLIError {
    let text = error.line != nil ? "malformed JSON: \(error)" : error.description
    return CLIError(error.category == .unreadableFile ? .noInput : .dataError, argument, text)
  }
}

/// Runs `body`; a ``CLIError`` is printed as `segue COMMAND: …` and ends the process with its
/// status; any other error is an internal error (70).
func reportingErrors(_ command: String, _ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as CLIError {
    Progress.endLine()
    printError("segue \(command): \(error)")
    throw ExitCode(error.status.rawValue)
  } catch let error as ExitCode {
    throw error
  } catch {
    Progress.endLine()
    printError("segue \(command): internal error: \(error)")
    throw ExitCode(ExitStatus.internalError.rawValue)
  }
}

@main
struct SegueCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "segue",
    abstract:
      "Sample, render, plot and profile Segue's headless Core Animation / UIKit transitions.",
    discussion: """
      Shell completion: 'segue --generate-completion-script bash' (or zsh, fish) prints a \
      completion script, to be saved where the shell loads completions from.
      """ + "\n\n" + exitCodesHelp,
    version: segueVersion,
    subcommands: [
      PresetsCommand.self, SampleCommand.self, RenderCommand.self, PreviewCommand.self,
      CurveCommand.self, ProfileCommand.self, SnapshotCommand.self,
    ])

  /// The entry point: sets up signal handling, parses, runs, and reports every error (the
  /// command's own and ArgumentParser's) as `segue SUBCOMMAND: ARGUMENT: what is wrong`; help,
  /// `--version` and completion scripts go to stdout. A failed write to stdout exits 73.
  static func main() {
    Interruption.install()
    let arguments = Array(CommandLine.arguments.dropFirst())
    var status: Int32 = 0
    do {
      if let help = helpText(arguments) {
        try OutputTarget.standardOutput.write(help)
      } else {
        var command = try parseAsRoot(arguments)
        try command.run()
      }
    } catch let error as ExitCode {
      status = error.rawValue
    } catch let error as CLIError {
      printError("segue \(subcommandName(arguments).map { $0 + ": " } ?? "")\(error)")
      status = error.status.rawValue
    } catch {
      let code = exitCode(for: error).rawValue
      if code == 0 {
        var text = fullMessage(for: error)
        if !text.hasSuffix("\n") { text += "\n" }
        do { try OutputTarget.standardOutput.write(text) } catch let failure {
          printError("segue: \(failure)")
          status = ExitStatus.cannotCreate.rawValue
        }
      } else {
        let command = subcommandName(arguments)
        printError(usageErrorLine(message(for: error), command: command))
        let usage =
          command.flatMap { name in
            configuration.subcommands.first { $0._commandName == name }
          }.map { usageString(for: $0) } ?? usageString(for: Self.self)
        printError("Usage: " + usage.replacingOccurrences(of: "Usage: ", with: ""))
        printError("See 'segue help\(command.map { " " + $0 } ?? "")' for the options.")
        status = code == 1 ? ExitStatus.usage.rawValue : code
      }
    }
    // Nothing is printed through C's stdio (`help` is answered above); flush it anyway.
    if fflush(nil) != 0 {
      printError("segue: standard output: cannot write: \(errorText())")
      if status == 0 { status = ExitStatus.cannotCreate.rawValue }
    }
    Foundation.exit(status)
  }

  /// The text of `segue help [SUBCOMMAND]` (which ArgumentParser would print through C's stdio,
  /// whose write errors cannot be seen), or `nil` for any other command line.
  static func helpText(_ arguments: [String]) -> String? {
    guard arguments.first == "help", arguments.count <= 2 else { return nil }
    if arguments.count == 1 { return helpMessage(for: Self.self) }
    guard
      let command = configuration.subcommands.first(where: {
        $0._commandName == arguments[1]
      })
    else { return nil }
    return helpMessage(for: command)
  }

  /// The subcommand named by the first argument, if any.
  static func subcommandName(_ arguments: [String]) -> String? {
    guard let first = arguments.first else { return nil }
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    return names.contains(first) ? first : nil
  }

  /// An ArgumentParser error message in the tool's style: `segue SUBCOMMAND: ARGUMENT: what is
  /// wrong`, the argument being the first quoted option (`'--preset <name>'` → `--preset`) or
  /// argument of the message, and a list of choices folded onto the line.
  static func usageErrorLine(_ message: String, command: String?) -> String {
    var lines = message.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    var text = lines.isEmpty ? "invalid command line" : lines.removeFirst()
    let choices = lines.compactMap { line -> String? in
      let trimmed = line.drop { $0 == " " }
      return trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : nil
    }
    if !choices.isEmpty {
      if text.hasSuffix(". Please provide one of the following:") {
        text.removeLast(" Please provide one of the following:".count)
      }
      text += " Choose one of: " + choices.joined(separator: ", ") + "."
    }
    // The quoted items of the message; an option (starting with '-') is preferred.
    var quoted: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "'") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "'") else { break }
      quoted.append(String(after[..<close]))
      rest = after[after.index(after: close)...]
    }
    let chosen = quoted.first { $0.hasPrefix("-") } ?? quoted.first
    let argument = chosen.map { String($0.prefix { $0 != " " && $0 != "=" }) }
    if let first = text.first, first.isUppercase, !text.hasPrefix("--") {
      text = first.lowercased() + text.dropFirst()
    }
    let prefix = "segue" + (command.map { " " + $0 } ?? "") + ": "
    return prefix + (argument.map { $0 + ": " } ?? "") + text
  }
}

extension TransitionPreset: ExpressibleByArgument {}
extension TransitionOperation: ExpressibleByArgument {}
extension TransitionSubtype: ExpressibleByArgument {}
extension DefaultViewContent: ExpressibleByArgument {}

/// Output formats of the data commands.
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
  case json, csv
}

/// Output formats of the report commands.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}
