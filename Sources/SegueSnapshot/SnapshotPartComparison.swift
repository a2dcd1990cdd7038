import Segue
import SegueRender

/// The result of comparing one snapshot file with what a test produced now.
public enum SnapshotPartComparison: Sendable {
  /// Equal within the tolerance.
  case match
  /// The recorded file cannot be read: not a PNG, corrupt, an unsupported format, a curves file
  /// with NaN…
  case unreadable(String)
  /// The file was read and differs: a one-line summary (several lines for curves), the
  /// recorded images when there are any (for a report), and the diff (a PNG or APNG) when the
  /// content is an image.
  case mismatch(summary: String, expected: [UInt8]?, diff: [UInt8]?)
}

extension SnapshotPart {
  /// Compares this part with the recorded file's `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: the recorded file.
  ///   - tolerance: how closely an image (or each frame of an animation) must match.
  ///   - curves: how closely a curves table must match.
  public func compare(
    toRecorded bytes: [UInt8], images tolerance: ImageTolerance, curves: CurvesTolerance
  ) -> SnapshotPartComparison {
    var scratch = PixelBufferRGBA8.empty
    return compare(toRecorded: bytes, images: tolerance, curves: curves, scratch: &scratch)
  }

  /// ``compare(toRecorded:images:curves:)``, decoding an image into `scratch` (its storage
  /// reused).
  func compare(
    toRecorded bytes: [UInt8], images tolerance: ImageTolerance, curves: CurvesTolerance,
    scratch: inout PixelBufferRGBA8
  ) -> SnapshotPartComparison {
    switch content {
    case .curves(let table):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .unreadable("a curves file must be UTF-8 text")
      }
      let recorded: CurvesTable
      do { recorded = try CurvesTable(parsing: text) } catch {
        return .unreadable("curves file \(error)")
      }
      let difference = curves.compare(recorded, table)
      return difference.matches
        ? .match : .mismatch(summary: difference.message(), expected: nil, diff: nil)
    case .image(let image):
      do { try SnapshotImageDecoder.decode(bytes, into: &scratch) } catch {
        return .unreadable("\(error)")
      }
      let recorded = scratch
      let difference = tolerance.compare(recorded, image)
      guard !difference.matches else { return .match }
      let diff = try? PNG.encode(
        DiffImage.make(expected: recorded, actual: image, tolerance: tolerance))
      return .mismatch(summary: difference.summary, expected: bytes, diff: diff)
    case .animation(let animation):
      let recorded: SnapshotAnimation
      do { recorded = try SnapshotImageDecoder.decodeAnimation(bytes) } catch {
        return .unreadable("\(error)")
      }
      return Self.compare(recorded, animation, tolerance, bytes)
    }
  }

  /// Frame by frame: the count, then the delays, then each frame's pixels.
  private static func compare(
    _ recorded: SnapshotAnimation, _ actual: SnapshotAnimation, _ tolerance: ImageTolerance,
    _ bytes: [UInt8]
  ) -> SnapshotPartComparison {
    guard recorded.frames.count == actual.frames.count else {
      return .mismatch(
        summary: "the snapshot has \(recorded.frames.count) frames, the animation "
          + "\(actual.frames.count)", expected: bytes, diff: nil)
    }
    if let k = actual.delays.indices.first(where: {
      abs(recorded.delays[$0] - actual.delays[$0]) > 1e-9
    }) {
      return .mismatch(
        summary: "frame \(k) shows for \(actual.delays[k]) s, \(recorded.delays[k]) s in the "
          + "snapshot", expected: bytes, diff: nil)
    }
    var failing: [(Int, ImageDifference)] = []
    for k in recorded.frames.indices {
      let difference = tolerance.compare(recorded.frames[k], actual.frames[k])
      if !difference.matches { failing.append((k, difference)) }
    }
    guard let (first, difference) = failing.first else { return .match }
    let frames = zip(recorded.frames, actual.frames).map { e, a in
      (try? DiffImage.make(expected: e, actual: a, tolerance: tolerance)) ?? a
    }
    let diff = try? SnapshotPart.apng(SnapshotAnimation(frames: frames, delays: actual.delays))
    let summary =
      "\(failing.count) of \(recorded.frames.count) frames differ; frame \(first): "
      + difference.summary
    return .mismatch(summary: summary, expected: bytes, diff: diff)
  }
}
