import Segue
import SegueRender

/// How a transition becomes a snapshot and how closely it must match it: a strategy value in
/// the shape of swift-snapshot-testing's `Snapshotting` (`.curves(times:)`, `.frames(times:scale:)`,
/// `.filmstrip(times:scale:columns:)`, `.animation(fps:scale:)`).
///
/// Every frame is a pure function of time, rendered by ``/SegueRender/SceneRenderer`` (white
/// background, `scale` pixels per point), so a snapshot does not flake mid-animation. Times are
/// seconds from the start of the transition, wall-clock times for an interactive run.
public struct TransitionSnapshotting: Hashable, Sendable {
  /// What is recorded.
  public enum Format: Hashable, Sendable {
    /// The curves as text (``CurvesTable``), one `.txt` file.
    case curves(times: [Double], tolerance: CurvesTolerance)
    /// One PNG per time, `frame-<k>.png`.
    case frames(times: [Double], renderer: SceneRenderer, tolerance: ImageTolerance)
    /// One PNG contact sheet of the frames (``/SegueRender/Filmstrip`` with its default gaps
    /// and captions), times as captions.
    case filmstrip(
      times: [Double], renderer: SceneRenderer, columns: Int, tolerance: ImageTolerance)
    /// The whole transition (or the scripted interaction, to its completion) as one APNG at
    /// `fps` frames per second from 0, the last frame at the end; compared frame by frame.
    case animation(fps: Double, renderer: SceneRenderer, tolerance: ImageTolerance)
  }

  /// What is recorded and compared.
  public var format: Format

  /// A strategy of `format`.
  public init(format: Format) { self.format = format }

  /// The curves at `times`: a text snapshot (``CurvesTable``) compared with `tolerance`.
  public static func curves(times: [Double], tolerance: CurvesTolerance = CurvesTolerance())
    -> Self
  {
    Self(format: .curves(times: times, tolerance: tolerance))
  }

  /// A PNG of the frame at each time, `scale` pixels per point, compared pixel by pixel with
  /// `precision` and `perceptualPrecision` (``ImageTolerance``).
  public static func frames(
    times: [Double], scale: Double = 0.5, precision: Double = 1, perceptualPrecision: Double = 1
  ) -> Self {
    frames(
      times: times, renderer: SceneRenderer(scale: scale),
      tolerance: ImageTolerance(precision: precision, perceptualPrecision: perceptualPrecision))
  }

  /// A PNG of the frame at each time drawn by `renderer` (gradients, a background, images).
  public static func frames(
    times: [Double], renderer: SceneRenderer, tolerance: ImageTolerance = .exact
  ) -> Self {
    Self(format: .frames(times: times, renderer: renderer, tolerance: tolerance))
  }

  /// One PNG contact sheet of the frames at `times`, `columns` per row, each captioned with
  /// its time.
  public static func filmstrip(
    times: [Double], scale: Double = 0.5, columns: Int = 6, precision: Double = 1,
    perceptualPrecision: Double = 1
  ) -> Self {
    filmstrip(
      times: times, renderer: SceneRenderer(scale: scale), columns: columns,
      tolerance: ImageTolerance(precision: precision, perceptualPrecision: perceptualPrecision))
  }

  /// One PNG contact sheet of the frames drawn by `renderer`.
  public static func filmstrip(
    times: [Double], renderer: SceneRenderer, columns: Int = 6,
    tolerance: ImageTolerance = .exact
  ) -> Self {
    Self(
      format: .filmstrip(times: times, renderer: renderer, columns: columns, tolerance: tolerance))
  }

  /// An APNG of the whole transition at `fps` frames per second, compared frame by frame.
  public static func animation(
    fps: Double = 30, scale: Double = 0.5, precision: Double = 1, perceptualPrecision: Double = 1
  ) -> Self {
    animation(
      fps: fps, renderer: SceneRenderer(scale: scale),
      tolerance: ImageTolerance(precision: precision, perceptualPrecision: perceptualPrecision))
  }

  /// An APNG of the whole transition drawn by `renderer`.
  public static func animation(
    fps: Double, renderer: SceneRenderer, tolerance: ImageTolerance = .exact
  ) -> Self {
    Self(format: .animation(fps: fps, renderer: renderer, tolerance: tolerance))
  }

  /// The most frames a strategy may ask for (times, or `fps` × the run's length).
  public static let maximumFrames = 10_000

  /// Throws unless the strategy is usable.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `times` (none, more than ``maximumFrames``,
  ///   or with the index of one that is not finite or negative), `columns` (below 1), `fps`
  ///   (not finite or `≤ 0`), and the errors of the renderer's and the tolerance's
  ///   `validate()` (`scale` not finite or `≤ 0`, a precision outside `[0, 1]`).
  public func validate() throws(ValidationError) {
    switch format {
    case .curves(let times, let tolerance):
      try Self.check(times)
      try tolerance.validate()
    case .frames(let times, let renderer, let tolerance):
      try Self.check(times)
      try renderer.validate()
      try tolerance.validate()
    case .filmstrip(let times, let renderer, let columns, let tolerance):
      try Self.check(times)
      try renderer.validate()
      guard columns >= 1 else {
        throw ValidationError(field: "columns", reason: .outOfRange(lower: 1, upper: 1e9))
      }
      try tolerance.validate()
    case .animation(let fps, let renderer, let tolerance):
      try Validate.positive(fps, "fps")
      try renderer.validate()
      try tolerance.validate()
    }
  }

  private static func check(_ times: [Double]) throws(ValidationError) {
    guard !times.isEmpty else {
      throw ValidationError(field: "times", reason: .tooFew(minimum: 1, actual: 0))
    }
    guard times.count <= maximumFrames else {
      throw ValidationError(
        field: "times", reason: .outOfRange(lower: 1, upper: Double(maximumFrames)))
    }
    for (i, t) in times.enumerated() { try Validate.nonNegative(t, "times", index: i) }
  }

  /// The tolerance images are compared with (`nil` for curves).
  var imageTolerance: ImageTolerance? {
    switch format {
    case .curves: nil
    case .frames(_, _, let t), .filmstrip(_, _, _, let t), .animation(_, _, let t): t
    }
  }
}
