/// The size limits of one run, checked before any work is done, so that no request grows
/// without bound in time, memory or output (documented in ExitCodes.md, the DocC article "The
/// command line" and `--help`).
enum Budget {
  /// The most sample times one run takes (`--times`, `--fps`, a spec's `sampleTimes`): 10⁶.
  static let maximumSamples = 1_000_000

  /// The most scene evaluations one `sample` or `render` run makes, counted as samples × scene
  /// items (layers + animations + model changes + interaction events, ``LoadedTransition/
  /// sceneItems``): 2²² = 4194304. Every sample visits every item, and `sample` writes one
  /// record of about 560 bytes of JSON (about 380 of CSV) per layer and sample, so this bounds
  /// both the time (a few seconds in a release build) and the output (at most about 2.3 GB of
  /// JSON).
  static let maximumSceneSamples = 1 << 22

  /// The most pixels one `render` run draws, frames × pixels per frame: 2³² = 4294967296 (for
  /// example 13000 frames of the default 390 × 844 container at scale 1, or 1000 frames of
  /// 2048 × 2048). Each pixel is 16 supersamples per layer covering it and a PNG of 1–4 bytes.
  static let maximumFramePixels: Int = 1 << 32

  /// Throws unless `count` samples of `transition` stay within ``maximumSceneSamples``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument` (where the times came
  ///   from), stating the size of the request.
  static func checkSamples(_ count: Int, of transition: LoadedTransition, argument: String)
    throws(CLIError)
  {
    let items = transition.sceneItems
    let (product, overflow) = count.multipliedReportingOverflow(by: items)
    guard overflow || product > maximumSceneSamples else { return }
    throw CLIError(
      .dataError, argument,
      "\(count) samples of a scene of \(items) items (\(transition.sceneDescription)) is "
        + "\(overflow ? "too many" : "\(product)") scene samples, above the budget of "
        + "\(maximumSceneSamples); use fewer times (a lower --fps, or --times)")
  }

  /// Throws unless `frames` frames of `pixels` pixels each stay within ``maximumFramePixels``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument`, stating the size.
  static func checkFrames(
    _ frames: Int, width: Int, height: Int, scale: Double, argument: String
  ) throws(CLIError) {
    let (product, overflow) = frames.multipliedReportingOverflow(by: width * height)
    guard overflow || product > maximumFramePixels else { return }
    throw CLIError(
      .dataError, argument,
      "\(frames) frames of \(width)×\(height) px (scale \(decimal(scale))) is "
        + "\(overflow ? "too many" : "\(product)") pixels, above the budget of "
        + "\(maximumFramePixels) (2^32); use fewer frames (a lower --fps, or --times) or a "
        + "smaller --scale")
  }
}
