import Segue

/// A seeded generator of random scenes whose presented matrices and opacities are smooth away
/// from the breakpoints ``TransitionVelocityTests/breakpoints(_:)`` lists: a three-layer tree
/// (a parent with a perspective `sublayerTransform`, a child, a grandchild, an ordinary or a
/// transform layer in the middle) and up to six animations of every geometry property.
/// Opacity animations stay inside `(0, 1)` (the presented clamp has kinks at 0 and 1).
struct RandomScene {
  private var state: UInt64

  init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

  /// SplitMix64.
  private mutating func next() -> UInt64 {
    state = state &+ 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func double(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53)
      * (range.upperBound - range.lowerBound)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func transform(perspective: Bool) -> Transform3D {
    var m = Transform3D.makeRotation(
      by: double(-2...2), x: double(-1...1), y: double(-1...1), z: double(0.2...1))
    m = m.scaled(x: double(0.5...1.5), y: double(0.5...1.5), z: double(0.5...1.5))
    m = m.concatenating(
      .makeTranslation(x: double(-50...50), y: double(-50...50), z: double(-20...20)))
    if perspective { m.m34 = -1 / double(400...900) }
    return m
  }

  mutating func affine() -> Transform3D {
    Transform3D.makeRotation(by: double(-3...3), x: 0, y: 0, z: 1)
      .scaled(x: double(0.5...1.5), y: double(-1.5...(-0.5)), z: 1)
      .concatenating(.makeTranslation(x: double(-50...50), y: double(-50...50), z: 0))
  }

  mutating func curve() throws -> TimingFunction? {
    switch int(0...5) {
    case 0: return nil
    case 1: return .easeInEaseOut
    case 2:
      return try .cubicBezier(double(0...1), double(-0.5...1.5), double(0...1), double(-0.5...1.5))
    case 3: return .systemDefault
    case 4:
      return .linearPoints(try LinearEasing([.init(0), .init(double(0...1), at: 0.4), .init(1)]))
    default: return .easeOut
    }
  }

  mutating func timing() -> MediaTiming {
    MediaTiming(
      beginTime: double(0...0.3), duration: double(0.2...0.6), speed: double(0.5...2),
      repeatCount: Double(int(0...2)), autoreverses: int(0...1) == 1, fillMode: .both)
  }

  mutating func value(for property: LayerProperty) -> AnimationValue {
    switch property {
    case .opacity: .number(double(0.1...0.9))
    case .position: .point(Point(x: double(-100...400), y: double(-100...400)))
    case .zPosition, .positionX: .number(double(-100...100))
    case .bounds:
      .rect(
        Rect(
          x: double(-10...10), y: double(-10...10), width: double(20...200),
          height: double(20...200)))
    case .anchorPoint: .point(Point(x: double(0...1), y: double(0...1)))
    case .transform:
      .transform(int(0...1) == 0 ? affine() : transform(perspective: int(0...1) == 0))
    case .sublayerTransform: .transform(transform(perspective: true))
    case .transformComponent(.rotationZ): .number(double(-3...3))
    case .transformComponent(.scale): .number(double(0.5...1.5))
    default: .number(double(-50...50))
    }
  }

  mutating func animation(of property: LayerProperty) throws -> LayerAnimation {
    let from = value(for: property)
    let to = value(for: property)
    let opacity = property == .opacity
    switch opacity ? 0 : int(0...3) {
    case 1:
      let spring = try DampedSpring(
        mass: 1, stiffness: double(100...400), damping: double(10...30),
        initialVelocity: double(-2...2))
      return try LayerAnimation(
        property: property, content: .spring(spring, from: from, to: to), timing: timing())
    case 2
    where property.valueKind == .point || property.valueKind == .transform
      || property.valueKind == .number:
      return try LayerAnimation(
        property: property, content: .keyframes(try keyframes(from, to, property)),
        timing: timing())
    default:
      let curve: TimingFunction? = opacity ? .easeInEaseOut : try self.curve()
      return try LayerAnimation(
        property: property, content: .basic(from: from, to: to), timing: timing(),
        timingFunction: curve)
    }
  }

  mutating func keyframes(_ a: AnimationValue, _ b: AnimationValue, _ property: LayerProperty)
    throws -> KeyframeValues
  {
    let mode: CalculationMode = [.linear, .cubic, .paced][int(0...2)]
    let middle = value(for: property)
    let times: [Double]? = mode == .paced ? nil : [0, double(0.2...0.8), 1]
    let segments: [TimingFunction]? = mode == .paced ? nil : [.easeIn, .easeOut]
    switch (a, middle, b) {
    case (.point(let x), .point(let y), .point(let z)):
      return .points(
        try KeyframeTrack(
          values: [x, y, z], keyTimes: times, calculationMode: mode, timingFunctions: segments))
    case (.transform(let x), .transform(let y), .transform(let z)):
      return .transforms(
        try KeyframeTrack(
          values: [x, y, z], keyTimes: times, calculationMode: mode, timingFunctions: segments))
    case (.number(let x), .number(let y), .number(let z)):
      return .numbers(
        try KeyframeTrack(
          values: [x, y, z], keyTimes: times, calculationMode: mode, timingFunctions: segments))
    default:
      throw ValidationError(field: "values", reason: .invalidState("unexpected kind"))
    }
  }

  mutating func scene() throws -> TransitionScene {
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "root", bounds: Rect(x: 0, y: 0, width: 320, height: 480),
        position: Point(x: 160, y: 240), sublayerTransform: transform(perspective: true)))
    try tree.add(
      Layer(
        id: "child", bounds: Rect(x: 0, y: 0, width: 200, height: 100),
        position: Point(x: 100, y: 200), transform: transform(perspective: false),
        opacity: double(0.2...0.9), isTransformLayer: int(0...1) == 1),
      parent: "root")
    try tree.add(
      Layer(
        id: "leaf", bounds: Rect(x: 0, y: 0, width: 50, height: 50),
        position: Point(x: 20, y: 30), transform: affine()),
      parent: "child")
    let properties: [LayerProperty] = [
      .opacity, .position, .positionX, .zPosition, .bounds, .anchorPoint, .transform,
      .sublayerTransform, .transformComponent(.rotationZ), .transformComponent(.scale),
    ]
    var animations = AnimationSet()
    var transformed: Set<String> = []
    for _ in 0..<int(1...6) {
      let layer = ["root", "child", "leaf"][int(0...2)]
      let property = properties[int(0...properties.count - 1)]
      // A transform sub-path over an animated transform has no computed velocity.
      if case .transformComponent = property {
        guard !transformed.contains(layer) else { continue }
        transformed.insert(layer)
      }
      if property == .transform { transformed.insert(layer) }
      animations.add(try animation(of: property), to: layer)
    }
    return try TransitionScene(
      duration: 2, containerSize: Size(width: 320, height: 480), model: tree,
      animations: animations)
  }
}

extension KeyframeValues {
  /// The effective key times of the track.
  var keyTimes: [Double] {
    switch self {
    case .numbers(let track): track.compiled.keyTimes
    case .points(let track): track.compiled.keyTimes
    case .sizes(let track): track.compiled.keyTimes
    case .rects(let track): track.compiled.keyTimes
    case .transforms(let track): track.compiled.keyTimes
    case .colors(let track): track.compiled.keyTimes
    case .paths(let track): track.compiled.keyTimes
    case .colorLists(let track): track.compiled.keyTimes
    case .numberLists(let track): track.compiled.keyTimes
    }
  }
}
