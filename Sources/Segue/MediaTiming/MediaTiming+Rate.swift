extension MediaTiming {
  /// The rate of the iteration progress at parent time `t`: `dp/dt`, per second of parent time
  /// (the derivative of ``iterationProgress(atParent:)``'s `progress`).
  ///
  /// * Active phase: `speed / duration`, negated on a pass that plays backwards
  ///   (``IterationProgress/isReversed``, autoreverses).
  /// * Before and after phases (a fill holds one value), and where the timing has no effect: 0.
  ///
  /// At a point where `p(t)` is not differentiable (the start or end of the active interval, the
  /// start of a repeat, an autoreverse turn) this is the derivative of the branch
  /// ``iterationProgress(atParent:)`` picks at `t`, which for `speed > 0` is the derivative from
  /// the right: the side time is moving to.
  public func progressRate(atParent t: Double) -> Double {
    guard let state = iterationProgress(atParent: t), state.phase == .active, duration > 0
    else { return 0 }
    let rate = speed / duration
    return state.isReversed ? -rate : rate
  }
}
