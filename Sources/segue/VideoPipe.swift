import Foundation
import Segue
import SegueRender
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `render --video FILE.mp4`: the frames piped to an `ffmpeg` process as raw RGBA, which writes
/// an MP4 (H.264 when `ffmpeg` has it, `yuv420p`, sides padded to even) into the temporary file
/// of a ``FileCommit``, so the video joins the commit like every other output.
///
/// `ffmpeg` is found on `PATH`; without it the run fails with ``ExitStatus/unavailable`` (69)
/// before any frame is drawn. `ffmpeg` writes to its standard output, which is the temporary
/// file, opened again by name (`/dev/stdout`) so the MP4 muxer can seek in it. A frame rate is
/// needed, so the sample times must be equally spaced (``frameRate(for:)``).
final class VideoPipe {
  /// The argument named in errors.
  static let argument = "--video"

  private let process: Process
  private let input: FileHandle
  private let output: OutputWriter
  /// `ffmpeg`'s standard error, read to its end on a thread of its own (so a chatty `ffmpeg`
  /// never blocks on a full pipe).
  private let errors = CollectedOutput()
  private var row: [UInt8] = []

  /// Bytes read by another thread, and a signal when the reading ended.
  private final class CollectedOutput: Sendable {
    let data = Mutex(Data())
    let done = DispatchSemaphore(value: 0)
  }

  /// The `ffmpeg` executable on `PATH`.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/unavailable`` naming `--video` when there is none.
  static func locateFFmpeg() throws(CLIError) -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
      let candidate = String(directory) + "/ffmpeg"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    throw CLIError(
      .unavailable, argument,
      "writing a video needs 'ffmpeg', which is not on PATH; install ffmpeg, or write an "
        + "animation with --animation FILE.png (APNG) or FILE.gif instead")
  }

  /// The frame rate of frames sampled at `times` as `numerator/denominator` frames per second:
  /// the inverse of the spacing `Δ = times[1] − times[0]` (``APNGEncoder/delayFraction(_:)``
  /// of `Δ`, inverted), or 10/1 for a single frame.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `timesArgument` unless every spacing
  ///   is within `10⁻⁹·max(1, Δ)` of the first (a video has one frame rate).
  static func frameRate(for times: [Double], timesArgument: String) throws(CLIError) -> String {
    guard times.count > 1 else { return "10/1" }
    let step = times[1] - times[0]
    let tolerance = 1e-9 * max(1, step)
    for k in 1..<times.count where !(abs(times[k] - times[k - 1] - step) <= tolerance) {
      throw CLIError(
        .dataError, timesArgument,
        "a video needs equally spaced sample times (one frame rate); time \(k) is "
          + "\(decimal(times[k])), \(decimal(times[k] - times[k - 1])) s after the one before, "
          + "while the first two are \(decimal(step)) s apart: use --fps")
    }
    guard step > 0 else {
      throw CLIError(.dataError, timesArgument, "a video needs increasing sample times")
    }
    let fraction = APNGEncoder.delayFraction(step)
    return "\(fraction.denominator)/\(fraction.numerator)"
  }

  /// Starts `ffmpeg` writing `path` (through `commit`) from `width × height` frames at `rate`.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` when the temporary file cannot be
  ///   created, ``ExitStatus/unavailable`` when `ffmpeg` cannot be started.
  init(
    ffmpeg: String, path: String, width: Int, height: Int, rate: String, commit: FileCommit
  ) throws(CLIError) {
    output = try commit.open(path, argument: Self.argument)
    process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = [
      "-hide_banner", "-nostats", "-loglevel", "error",
      "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate", rate,
      "-i", "pipe:0",
      "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p",
      "-f", "mp4", "-y", "/dev/stdout",
    ]
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle(fileDescriptor: output.fd, closeOnDealloc: false)
    process.standardError = stderr
    input = stdin.fileHandleForWriting
    do {
      try process.run()
    } catch {
      output.abandon()
      throw CLIError(
        .unavailable, Self.argument, "cannot start '\(ffmpeg)': \(error.localizedDescription)")
    }
    let reading = stderr.fileHandleForReading
    let errors = errors
    Thread {
      let bytes = reading.readDataToEndOfFile()
      errors.data.withLock { $0 = bytes }
      errors.done.signal()
    }.start()
    row.reserveCapacity(4 * width)
  }

  /// Sends one frame (straight RGBA: the frames are opaque over the renderer's background).
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/unavailable`` with `ffmpeg`'s message when it stopped
  ///   reading.
  func add(_ image: PixelBufferRGBA8) throws(CLIError) {
    let fd = input.fileDescriptor
    do throws(CLIError) {
      if image.stride == 4 * image.width {
        try OutputWriter.writeAll(fd, image.components, argument: Self.argument, name: "ffmpeg")
      } else {
        for y in 0..<image.height {
          row.removeAll(keepingCapacity: true)
          let start = y * image.stride
          row.append(contentsOf: image.components[start..<(start + 4 * image.width)])
          try OutputWriter.writeAll(fd, row, argument: Self.argument, name: "ffmpeg")
        }
      }
    } catch {
      throw failure(status: wait())
    }
  }

  /// Closes `ffmpeg`'s input, waits for it and adds the file to the commit.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/unavailable`` when `ffmpeg` failed (with its message),
  ///   ``ExitStatus/cannotCreate`` when the file cannot be closed.
  func finish(commit: FileCommit) throws(CLIError) {
    let status = wait()
    guard status == 0 else { throw failure(status: status) }
    try commit.close(output)
  }

  /// After a failure elsewhere: stops `ffmpeg` and removes the temporary file.
  func cancel() {
    if process.isRunning { process.terminate() }
    _ = wait()
    output.abandon()
  }

  /// Closes `ffmpeg`'s input (once) and waits for it; returns its exit status.
  private func wait() -> Int32 {
    try? input.close()
    process.waitUntilExit()
    errors.done.wait()
    errors.done.signal()
    return process.terminationStatus
  }

  /// The error for an `ffmpeg` that exited with `status`: its last line of output.
  private func failure(status: Int32) -> CLIError {
    output.abandon()
    let text = errors.data.withLock { String(decoding: $0, as: UTF8.self) }
    let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
    return CLIError(
      .unavailable, Self.argument, "ffmpeg failed (exit status \(status)): \(last)")
  }
}
