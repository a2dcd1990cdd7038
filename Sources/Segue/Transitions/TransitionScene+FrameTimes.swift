extension TransitionScene {
  /// The last moment of a run: the duration, or with `interaction` the latest of the duration,
  /// its last event and the moment its completion fires (seconds).
  public func endTime(interaction: InteractionTimeline?) -> Double {
    guard let interaction, let last = interaction.events.last else { return duration }
    var end = Swift.max(duration, last.time)
    if let completion = try? interaction.state(at: last.time).completionTime {
      end = Swift.max(end, completion)
    }
    return end
  }

  /// The times `k/fps` for `k = 0, 1, …` up to `end`, and `end` itself when it is not one of
  /// them (`k/fps` is correctly rounded, so a frame that lands on the end equals it).
  ///
  /// - Throws: ``ValidationError`` naming `fps` when it is not finite or `≤ 0`, or
  ///   (`.invalidState`) when the run would have more than `maximum` frames.
  public static func frameTimes(fps: Double, end: Double, maximum: Int) throws(ValidationError)
    -> [Double]
  {
    try Validate.positive(fps, "fps")
    let frames = (Swift.max(end, 0) * fps).rounded(.down)
    guard frames < Double(maximum) else {
      throw ValidationError(
        field: "fps",
        reason: .invalidState(
          "\(fps) frames per second over \(end) s is more than \(maximum) frames"))
    }
    var last = Int(frames)
    if Double(last + 1) / fps <= end { last += 1 }
    while last > 0 && Double(last) / fps > end { last -= 1 }
    var result = (0...last).map { Double($0) / fps }
    if result[result.count - 1] < end { result.append(end) }
    return result
  }
}
