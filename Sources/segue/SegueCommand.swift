// segue: the command line face of the Segue library (presets, sampling, curve plots, profiling).
//
// Every subcommand computes its whole result in memory first and writes it last (to stdout, or
// to `--output` through a temporary file renamed into place), so an error never leaves a partial
// output file. Errors go to stderr as `segue SUBCOMMAND: ARGUMENT: what is wrong` and end the
// process with one of the exit codes of `ExitStatus` (see ExitCodes.md beside this file).

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
  /// `EX_SOFTWARE`: an internal error (a bug in segue or Segue).
  case internalError = 70
  /// `EX_CANTCREAT`: an output file or directory cannot be created or written.
  case cannotCreate = 73
}

/// The help text listing the exit codes.
let exitCodesHelp = """
  Exit codes:
    0   success
    64  usage: unknown subcommand, option or name; a value of the wrong form; missing or \
  conflicting options
    65  bad input data: NaN, negative or out-of-range values (e.g. --fps 0), or an input file \
  whose content is wrong (malformed JSON, wrong type, unknown key or key path, missing or \
  cyclic parent, duplicate id, events out of order)
    66  an input file is missing or unreadable
    70  internal error
    73  an output file or directory cannot be created or written (nothing is left behind)
  Errors are printed on stderr as 'segue SUBCOMMAND: ARGUMENT: what is wrong'.
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
  static func spec(_ argument: String, _ error: SpecError) -> CLIError {
    let text = error.line != nil ? "malformed JSON: \(error)" : error.description
    return CLIError(.dataError, argument, text)
  }
}

/// Writes `text` and a newline to stderr.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Runs `body`; a ``CLIError`` is printed as `segue COMMAND: …` and ends the process with its
/// status; any other error is an internal error (70).
func reportingErrors(_ command: String, _ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as CLIError {
    printError("segue \(command): \(error)")
    throw ExitCode(error.status.rawValue)
  } catch let error as ExitCode {
    throw error
  } catch {
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
    discussion: exitCodesHelp,
    subcommands: [
      PresetsCommand.self, SampleCommand.self, RenderCommand.self, CurveCommand.self,
      ProfileCommand.self,
    ])
}

extension TransitionPreset: ExpressibleByArgument {}
extension TransitionOperation: ExpressibleByArgument {}
extension TransitionSubtype: ExpressibleByArgument {}

/// Output formats of the data commands.
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
  case json, csv
}

/// Output formats of the report commands.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}
