extension CompiledAnimation {
  /// The time derivative of the presented value at parent time `t`: a value of the property's
  /// kind whose channels are rates per second of parent time (points per second, per second for
  /// opacity and scales, radians per second, matrix entries per second), or `nil` where the
  /// animation has no effect.
  ///
  /// The chain rule through the stages of ``presented(atParentTime:)``:
  ///
  ///     dv/dt = dv/de · de/dp · dp/dt
  ///
  /// with `dp/dt` = ``MediaTiming/progressRate(atParent:)`` (0 in a fill),
  /// `de/dp` = ``TimingFunction/slope(at:)`` (1 without a timing function) and `dv/de`: `to − from`
  /// for a basic animation (``TransformInterpolator/derivative(at:)`` for transforms),
  /// ``KeyframeValues/rate(at:beforeFlag:)`` for keyframes, and
  /// `(to − from)·x′(e·d)·d` for a spring (``DampedSpring/velocity(at:)``, `d` the duration).
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"path"` for a path animation
  ///   (``LayerAnimation/Content/path(_:)``), whose velocity is not computed.
  public func rate(atParentTime t: Double) throws(ValidationError) -> AnimationValue? {
    guard let state = animation.timing.iterationProgress(atParent: t) else { return nil }
    let before = state.phase == .before
    let p = state.progress
    var eased = p
    var easedRate = animation.timing.progressRate(atParent: t)
    if let tf = animation.timingFunction {
      eased = tf.transform(p, beforeFlag: before)
      easedRate *= tf.slope(at: p)
    }
    switch animation.content {
    case .basic:
      return interpolatedRate(at: eased).scaled(by: easedRate)
    case .keyframes(let values):
      return values.rate(at: eased, beforeFlag: before).scaled(by: easedRate)
    case .spring(let spring, _, _):
      let d = animation.timing.duration
      let x = spring.value(at: eased * d)
      return interpolatedRate(at: x).scaled(by: spring.velocity(at: eased * d) * d * easedRate)
    case .path:
      throw ValidationError(
        field: "path", reason: .invalidState("velocities of path animations are not computed"))
    }
  }

  /// `d interpolated(f) / df`: `to − from` channel by channel, the transform interpolator's
  /// derivative for transforms.
  private func interpolatedRate(at f: Double) -> AnimationValue {
    switch pair {
    case .transforms(let interpolator):
      return .transform(interpolator.derivative(at: f))
    case .values(let a, let b):
      return AnimationValue.difference(b, a)
    case nil:
      return AnimationValue.difference(
        animation.content.firstValue, animation.content.firstValue)
    }
  }
}

extension AnimationValue {
  /// `a − b` channel by channel for two values of the same kind (colours unclamped component by
  /// component are not representable and give `a`); different kinds give `a` minus itself.
  static func difference(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue {
    switch (a, b) {
    case (.number(let x), .number(let y)): .number(x - y)
    case (.point(let x), .point(let y)): .point(Point(x: x.x - y.x, y: x.y - y.y))
    case (.size(let x), .size(let y)):
      .size(Size(width: x.width - y.width, height: x.height - y.height))
    case (.rect(let x), .rect(let y)):
      .rect(
        Rect(
          x: x.origin.x - y.origin.x, y: x.origin.y - y.origin.y,
          width: x.size.width - y.size.width, height: x.size.height - y.size.height))
    case (.transform(let x), .transform(let y)): .transform(x.adding(y.multiplied(by: -1)))
    default: a.scaled(by: 0)
    }
  }

  /// Every channel multiplied by `k` (a rate times a chain-rule factor). Colours (components
  /// clamped on creation), the content values (paths, colour and number lists) and the discrete
  /// booleans and corner masks are returned unchanged: their rates are not computed (they move
  /// no geometry).
  func scaled(by k: Double) -> AnimationValue {
    switch self {
    case .number(let v): .number(v * k)
    case .point(let p): .point(Point(x: p.x * k, y: p.y * k))
    case .size(let s): .size(Size(width: s.width * k, height: s.height * k))
    case .rect(let r):
      .rect(
        Rect(
          x: r.origin.x * k, y: r.origin.y * k, width: r.size.width * k,
          height: r.size.height * k))
    case .transform(let t): .transform(t.multiplied(by: k))
    case .color, .boolean, .cornerMask, .path, .colorList, .numberList: self
    }
  }
}
