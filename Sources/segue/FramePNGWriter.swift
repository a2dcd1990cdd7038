import Dispatch
import Segue
import SegueRender

/// Writes rendered frames as PNG files, encoding several frames at once.
///
/// Each of ``slots`` slots holds a copy of a frame, its own ``PNGEncoder`` and its file bytes.
/// Frames are copied into the slots as they are rendered; when every slot is full (or at
/// ``flush(commit:)``) the waiting frames are encoded in parallel, one per thread, and added to
/// the commit in frame order. Every frame is encoded on its own by an encoder of the same level
/// and filters, so the files are byte for byte those of one thread. With one slot a frame is
/// encoded as it comes, without a copy. Once every slot has held a frame, a frame allocates
/// nothing here.
final class FramePNGWriter {
  /// The most bytes the slots hold at once (each frame's copy, its filtered rows and its
  /// compressed stream): 256 MiB.
  static let maximumSlotBytes = 1 << 28

  /// The frames encoded at once.
  let slots: Int
  private let argument: String
  private var images: [PixelBufferRGBA8?]
  private var paths: [String]
  private var files: [[UInt8]]
  private var failures: [Segue.ValidationError?]
  private let encoders: [PNGEncoder]
  private var waiting = 0

  /// A writer encoding up to `threads` frames of `width × height` pixels at once (fewer when
  /// that many would hold more than ``maximumSlotBytes``); `argument` is what a failure names.
  init(threads: Int, width: Int, height: Int, argument: String) throws(Segue.ValidationError) {
    let perSlot = Swift.max(1, 3 * 4 * width * height)
    slots = Swift.max(1, Swift.min(threads, Self.maximumSlotBytes / perSlot))
    self.argument = argument
    images = Array(repeating: nil, count: slots)
    paths = Array(repeating: "", count: slots)
    files = Array(repeating: [], count: slots)
    failures = Array(repeating: nil, count: slots)
    var encoders: [PNGEncoder] = []
    for _ in 0..<slots { encoders.append(try PNGEncoder()) }
    self.encoders = encoders
  }

  /// Queues `image` to be written to `path`; encodes and commits the queue when it is full.
  func add(_ image: PixelBufferRGBA8, to path: String, commit: FileCommit) throws(CLIError) {
    if slots == 1 {
      do throws(Segue.ValidationError) {
        try encoders[0].encode(image, into: &files[0])
      } catch {
        throw CLIError.data(argument, error)
      }
      try commit.add(files[0], to: path, argument: "--output-dir")
      return
    }
    copy(image, into: waiting)
    paths[waiting] = path
    waiting += 1
    if waiting == slots { try flush(commit: commit) }
  }

  /// Encodes every queued frame in parallel and adds the files to `commit` in order.
  func flush(commit: FileCommit) throws(CLIError) {
    guard waiting > 0 else { return }
    let count = waiting
    waiting = 0
    encodeInParallel(count)
    for k in 0..<count {
      if let failure = failures[k] { throw CLIError.data(argument, failure) }
      try commit.add(files[k], to: paths[k], argument: "--output-dir")
    }
  }

  /// Encodes slots `0..<count`, one per thread.
  private func encodeInParallel(_ count: Int) {
    images.withUnsafeBufferPointer { images in
      files.withUnsafeMutableBufferPointer { files in
        failures.withUnsafeMutableBufferPointer { failures in
          nonisolated(unsafe) let (images, files, failures) = (images, files, failures)
          nonisolated(unsafe) let encoders = encoders
          // Each iteration touches only its own slot.
          DispatchQueue.concurrentPerform(iterations: count) { k in
            do throws(Segue.ValidationError) {
              try encoders[k].encode(images[k]!, into: &files[k])
              failures[k] = nil
            } catch {
              failures[k] = error
            }
          }
        }
      }
    }
  }

  /// Copies `image` into slot `k`, in place when the slot already holds a frame of its layout.
  private func copy(_ image: PixelBufferRGBA8, into k: Int) {
    guard var kept = images[k], kept.stride == image.stride, kept.height == image.height,
      kept.width == image.width
    else {
      images[k] = image  // shared until the caller draws its next frame
      return
    }
    images[k] = nil  // the only reference: the update below writes in place
    kept.components.withUnsafeMutableBufferPointer { target in
      image.components.withUnsafeBufferPointer { source in
        target.baseAddress!.update(from: source.baseAddress!, count: source.count)
      }
    }
    images[k] = kept
  }
}
