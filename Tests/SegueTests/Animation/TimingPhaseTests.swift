import Segue
import Testing

/// Every timing-function kind in every media-timing phase and fill mode, through the scalar path
/// (``CompiledAnimation`` and ``TransitionScene/sample(at:)``), against values worked by hand.
///
/// The animation: `position.x` of a layer with zero bounds (so the layer's `m41` is its
/// `position.x`), from 0 to 100, `beginTime` 0.5 s, `duration` 1 s; the model value is −7. Parent
/// times 0.25 (before), 0.5, 0.875 and 1.25 (active, progress 0, 0.375 and 0.75), 1.5 and 2
/// (after; the end-of-active rule gives progress 1). Expected: the before phase shows `f(0)` with
/// the before flag set (CSS Easing Level 2's `steps()`) for the backwards fills and the model
/// otherwise; the active phase shows `f(p)`; the after phase `f(1)` for the forwards fills and the
/// model otherwise; `f` is never clamped (a cubic bezier's `y` is unrestricted).
///
/// Hand values of `f` (CSS Easing's step algorithm with `n = 4`: `step = ⌊p·n⌋`, `+1` for
/// jump-start and jump-both, `−1` with the before flag when `p·n` is an integer, clamp to
/// `[0, jumps]`, divide by `jumps` = 4, 4, 3 and 5):
///
/// | function | before, p = 0 | p = 0 | 0.375 | 0.75 | 1 |
/// |---|---|---|---|---|---|
/// | cubic-bezier(0.34, 1.56, 0.64, 1) | 0 | 0 | 1.00628421… | 1.05964686… | 1 |
/// | steps(4, jump-start) | 0 (1 − 1) | 1/4 | (1 + 1)/4 | (3 + 1)/4 | 5 → 4: 1 |
/// | steps(4, jump-end) | 0 | 0 | 1/4 | 3/4 | 1 |
/// | steps(4, jump-none) | 0 | 0 | 1/3 | 3 → 3: 1 | 4 → 3: 1 |
/// | steps(4, jump-both) | 0 (1 − 1) | 1/5 | 2/5 | 4/5 | 5/5 |
/// | linear(0.1, 0.9 50%, 1.2) | 0.1 | 0.1 | 0.1 + 0.75·0.8 = 0.7 | 0.9 + 0.5·0.3 = 1.05 | 1.2 |
/// | spring m 1, k 100, c 10 | x(0) = 0 | 0 | 1.16186204… | 0.97415171… | 1.00217012… |
///
/// The Bézier values come from an mpmath computation at 40 digits (bisection of
/// `X(s) = 3(1−s)²s·x1 + 3(1−s)s²·x2 + s³` for `s*`, then `Y(s*)`); the spring's from mpmath of
/// the closed form `x(t) = 1 − e^(−5t)·(cos ωd·t + (5/ωd)·sin ωd·t)`, `ωd = 10·√(3/4)` (ζ = ½,
/// ω0 = 10), at `t = p·duration`.
@Suite("Timing functions in every phase (scalar)")
struct TimingPhaseTests {
  /// One timing-function kind and its hand values.
  struct Kind: Sendable, CustomStringConvertible {
    var name: String
    var timingFunction: TimingFunction?
    var spring: DampedSpring?
    /// `f(0)` with the before flag, then `f` at progress 0, 0.375, 0.75, 1.
    var before: Double
    var active: [Double]
    var description: String { name }
  }

  static let overshoot = try! TimingFunction.cubicBezier(0.34, 1.56, 0.64, 1)

  static let kinds: [Kind] = [
    Kind(
      name: "cubic-bezier(0.34, 1.56, 0.64, 1)", timingFunction: overshoot, before: 0,
      active: [0, 1.006284212918949319, 1.059646859964033176, 1]),
    Kind(
      name: "steps(4, jump-start)",
      timingFunction: .steps(try! StepsEasing(steps: 4, position: .jumpStart)), before: 0,
      active: [0.25, 0.5, 1, 1]),
    Kind(
      name: "steps(4, jump-end)",
      timingFunction: .steps(try! StepsEasing(steps: 4, position: .jumpEnd)), before: 0,
      active: [0, 0.25, 0.75, 1]),
    Kind(
      name: "steps(4, jump-none)",
      timingFunction: .steps(try! StepsEasing(steps: 4, position: .jumpNone)), before: 0,
      active: [0, 1.0 / 3, 1, 1]),
    Kind(
      name: "steps(4, jump-both)",
      timingFunction: .steps(try! StepsEasing(steps: 4, position: .jumpBoth)), before: 0,
      active: [0.2, 0.4, 0.8, 1]),
    Kind(
      name: "linear(0.1, 0.9 50%, 1.2)",
      timingFunction: .linearPoints(
        try! LinearEasing([.init(0.1), .init(0.9, at: 0.5), .init(1.2)])),
      before: 0.1, active: [0.1, 0.7, 1.05, 1.2]),
    Kind(
      name: "spring m 1, k 100, c 10", spring: try! DampedSpring(), before: 0,
      active: [0, 1.161862037386834106, 0.974151707660414498, 1.002170116739326209]),
  ]

  /// Parent times and what they are: -1 before, 0…3 the index into `Kind.active`.
  static let times: [(t: Double, slot: Int)] = [
    (0.25, -1), (0.5, 0), (0.875, 1), (1.25, 2), (1.5, 3), (2, 3),
  ]

  static let model = -7.0

  /// The expected `position.x` at `times[i]`, or the model value where the animation has no
  /// effect.
  static func expected(_ kind: Kind, _ fill: MediaTiming.FillMode, _ i: Int) -> Double {
    let (t, slot) = times[i]
    if slot < 0 { return fill.fillsBackwards ? 100 * kind.before : model }
    if t >= 1.5 { return fill.fillsForwards ? 100 * kind.active[3] : model }
    return 100 * kind.active[slot]
  }

  static func animation(_ kind: Kind, _ fill: MediaTiming.FillMode) throws -> LayerAnimation {
    let timing = MediaTiming(beginTime: 0.5, duration: 1, fillMode: fill)
    if let spring = kind.spring {
      return try LayerAnimation(
        property: .positionX, content: .spring(spring, from: .number(0), to: .number(100)),
        timing: timing)
    }
    return try LayerAnimation(
      property: .positionX, content: .basic(from: .number(0), to: .number(100)), timing: timing,
      timingFunction: kind.timingFunction)
  }

  /// A one-layer scene (duration 3 s, so every sample time runs) with `animations` on "a".
  static func scene(_ animations: LayerAnimation...) throws -> TransitionScene {
    var tree = LayerTree()
    try tree.add(Layer(id: "a", position: Point(x: model, y: 0)))
    var set = AnimationSet()
    for animation in animations { set.add(animation, to: "a") }
    return try TransitionScene(
      duration: 3, containerSize: Size(width: 390, height: 844), model: tree, animations: set)
  }

  @Test(arguments: kinds)
  func everyPhaseAndFillMode(kind: Kind) throws {
    for fill in MediaTiming.FillMode.allCases {
      let animation = try Self.animation(kind, fill)
      let compiled = CompiledAnimation(animation)
      let scene = try Self.scene(animation)
      for i in Self.times.indices {
        let t = Self.times[i].t
        let want = Self.expected(kind, fill, i)
        let got: Double
        if case .number(let x)? = compiled.value(atParentTime: t) {
          got = x
        } else {
          got = Self.model
        }
        #expect(abs(got - want) <= 1e-12 * 100, "\(kind) \(fill) t = \(t): \(got) vs \(want)")
        let sampled = try #require(try scene.sample(at: t)["a"]).matrix.m41
        #expect(abs(sampled - want) <= 1e-12 * 100, "\(kind) \(fill) t = \(t) (scene)")
      }
    }
  }

  /// The brief's case: `beginTime` 0.5, fill backwards, `steps(4, jump-start)` from 0 to 1 on
  /// opacity. At t = 0.25 (before phase) the before flag takes the jump back: 0, not 0.25; at
  /// t = 0.5 (active, progress 0) the first jump has happened: 0.25.
  @Test func stepsJumpStartFillingBackwardsShowsZeroBeforeItBegins() throws {
    let timing = MediaTiming(beginTime: 0.5, duration: 1, fillMode: .backwards)
    let a = CompiledAnimation(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: timing,
        timingFunction: .steps(try StepsEasing(steps: 4, position: .jumpStart))))
    #expect(a.value(atParentTime: 0.25) == .number(0))
    #expect(a.value(atParentTime: 0.5) == .number(0.25))
    #expect(a.presented(atParentTime: 0.25)?.phase == .before)
  }

  /// `TimingFunction.transform(_:beforeFlag:)` passes the flag to steps only.
  @Test func beforeFlagReachesStepsOnly() throws {
    let start = TimingFunction.steps(try StepsEasing(steps: 4, position: .jumpStart))
    #expect(start.transform(0) == 0.25)
    #expect(start.transform(0, beforeFlag: true) == 0)
    #expect(start.transform(0.5, beforeFlag: true) == 0.5)  // 2 + 1 − 1 = 2 → 2/4
    #expect(Self.overshoot.transform(0.5, beforeFlag: true) == Self.overshoot.transform(0.5))
    let points = TimingFunction.linearPoints(try LinearEasing(outputs: [0.1, 1]))
    #expect(points.transform(0, beforeFlag: true) == 0.1)
  }

  /// A keyframe animation of the same kinds per segment: values [0, 100, 40] at [0, 0.5, 1],
  /// both segments with the kind's function, linear and cubic modes. The value at progress `p`
  /// is `interp(vᵢ, vᵢ₊₁, f(s))` with `s` the segment-local progress, unclamped.
  /// The times are chosen so that `s` hits the table's points: t = 0.25 (before: segment 0,
  /// s = 0, before flag), 0.5 (p = 0: segment 0, s = 0), 0.6875 (p = 0.1875: segment 0,
  /// s = 0.375), 1 (p = 0.5: segment 1, s = 0), 1.375 (p = 0.875: segment 1, s = 0.75), 1.5
  /// (after: segment 1, s = 1). Linear: `vᵢ + (vᵢ₊₁ − vᵢ)·f`; cubic: the Hermite segment with
  /// Catmull–Rom tangents by index and duplicated ends, worked by hand: DD₀ = 50,
  /// DS₁ = DD₁ = (100 − 0)/2 + (40 − 100)/2 = 20, DS₂ = −30.
  @Test(arguments: kinds.filter { $0.spring == nil })
  func perSegmentFunctionsInEveryPhase(kind: Kind) throws {
    let f = try #require(kind.timingFunction)
    let values = [0.0, 100, 40]
    let dd = [50.0, 20, -30]
    let ds = [0.0, 20, -30]
    func hermite(_ i: Int, _ s: Double) -> Double {
      let h00 = 2 * s * s * s - 3 * s * s + 1
      let h10 = s * s * s - 2 * s * s + s
      let h01 = -2 * s * s * s + 3 * s * s
      let h11 = s * s * s - s * s
      return h00 * values[i] + h10 * dd[i] + h01 * values[i + 1] + h11 * ds[i + 1]
    }
    for mode in [CalculationMode.linear, .cubic] {
      func value(_ i: Int, _ eased: Double) -> Double {
        mode == .linear ? values[i] + (values[i + 1] - values[i]) * eased : hermite(i, eased)
      }
      for fill in MediaTiming.FillMode.allCases {
        let track = try KeyframeTrack(
          values: values, keyTimes: [0, 0.5, 1], calculationMode: mode, timingFunctions: [f, f])
        let timing = MediaTiming(beginTime: 0.5, duration: 1, fillMode: fill)
        let a = CompiledAnimation(
          try LayerAnimation(
            property: .positionX, content: .keyframes(.numbers(track)), timing: timing))
        let cases: [(t: Double, want: Double?)] = [
          (0.25, fill.fillsBackwards ? value(0, kind.before) : nil),
          (0.5, value(0, kind.active[0])),
          (0.6875, value(0, kind.active[1])),
          (1, value(1, kind.active[0])),
          (1.375, value(1, kind.active[2])),
          (1.5, fill.fillsForwards ? value(1, kind.active[3]) : nil),
        ]
        for (t, want) in cases {
          let got: Double?
          if case .number(let x)? = a.value(atParentTime: t) { got = x } else { got = nil }
          if let want, let got {
            #expect(abs(got - want) <= 1e-9, "\(kind) \(mode) \(fill) t = \(t): \(got) vs \(want)")
          } else {
            #expect(got == nil && want == nil, "\(kind) \(mode) \(fill) t = \(t)")
          }
        }
      }
    }
  }
}
