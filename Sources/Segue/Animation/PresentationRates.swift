/// The time derivatives of the geometry properties of one presented layer: what moves its matrix
/// and its opacity. Units per second: points for `position`, `zPosition`, `bounds`; anchor units
/// for `anchorPoint`; opacity units; matrix entries for the transforms.
public struct LayerPropertyRates: Hashable, Sendable {
  /// `d opacity / dt` (the layer's own, before clamping).
  public var opacity = 0.0
  /// `d position / dt`.
  public var position = Point.zero
  /// `d zPosition / dt`.
  public var zPosition = 0.0
  /// `d bounds / dt`: origin and size rates.
  public var bounds = Rect(x: 0, y: 0, width: 0, height: 0)
  /// `d anchorPoint / dt`.
  public var anchorPoint = Point.zero
  /// `d transform / dt`, field by field.
  public var transform = Transform3D.zero
  /// `d sublayerTransform / dt`, field by field.
  public var sublayerTransform = Transform3D.zero

  /// All rates 0: a layer nothing animates.
  public init() {}
}

/// The rates of every layer of a presentation tree, by layer index, and the first animation
/// whose velocity is not computed (a path animation), if any.
struct PresentationRates {
  var layers: [LayerPropertyRates]
  var unsupported: ValidationError?

  init(count: Int) {
    layers = Array(repeating: LayerPropertyRates(), count: count)
  }

  mutating func markUnsupported(_ number: Int, _ what: String) {
    guard unsupported == nil else { return }
    unsupported = ValidationError(
      field: "animations", index: number,
      reason: .invalidState("velocities of \(what) are not computed"))
  }

  /// Records the rate of `animation` at parent time `t`, written over `base` (the layer before
  /// the animation's value was written) at layer `index`.
  mutating func record(
    _ animation: CompiledAnimation, number: Int, of base: Layer, at index: Int, time t: Double
  ) {
    let rate: AnimationValue?
    do { rate = try animation.rate(atParentTime: t) } catch {
      markUnsupported(number, "path animations")
      return
    }
    guard let rate else { return }
    let property = animation.animation.property
    switch (property, rate) {
    case (.opacity, .number(let v)): layers[index].opacity = v
    case (.position, .point(let p)): layers[index].position = p
    case (.positionX, .number(let v)): layers[index].position.x = v
    case (.positionY, .number(let v)): layers[index].position.y = v
    case (.zPosition, .number(let v)): layers[index].zPosition = v
    case (.bounds, .rect(let r)): layers[index].bounds = r
    case (.boundsSize, .size(let s)): layers[index].bounds.size = s
    case (.anchorPoint, .point(let p)): layers[index].anchorPoint = p
    case (.transform, .transform(let m)): layers[index].transform = m
    case (.sublayerTransform, .transform(let m)): layers[index].sublayerTransform = m
    case (.transformComponent(let component), .number(let v)):
      recordComponent(component, animation, rate: v, of: base, at: index, number: number, time: t)
    default: break  // appearance properties do not move geometry
    }
  }

  private mutating func recordComponent(
    _ component: TransformKeyPath, _ animation: CompiledAnimation, rate: Double, of base: Layer,
    at index: Int, number: Int, time t: Double
  ) {
    guard case .number(let value)? = animation.value(atParentTime: t) else { return }
    let baseRate = layers[index].transform
    switch component {
    case .translationX, .translationY, .translationZ:
      var m = baseRate
      switch component {
      case .translationX: m.m41 = rate
      case .translationY: m.m42 = rate
      default: m.m43 = rate
      }
      layers[index].transform = m
    default:
      guard baseRate == .zero else {
        markUnsupported(number, "\(component.rawValue) written over an animated transform")
        return
      }
      layers[index].transform =
        (try? component.rate(writing: value, rate: rate, to: base.transform)) ?? .zero
    }
  }
}

extension PresentationRates {
  /// Adds the rate of additive animation `animation` at parent time `t` to layer `index`'s
  /// rates: `d(base + offset)/dt` channel by channel, and for transforms
  /// `d(offset · base)/dt = offset′ · base + offset · base′` (`base′` the rate recorded so far).
  mutating func recordAdditive(
    _ animation: CompiledAnimation, number: Int, offset: AnimationValue, base: AnimationValue,
    at index: Int, time t: Double
  ) {
    let rate: AnimationValue?
    do { rate = try animation.rate(atParentTime: t) } catch {
      markUnsupported(number, "path animations")
      return
    }
    guard let rate else { return }
    var r = layers[index]
    switch (animation.animation.property, rate) {
    case (.opacity, .number(let v)): r.opacity += v
    case (.position, .point(let p)):
      r.position = Point(x: r.position.x + p.x, y: r.position.y + p.y)
    case (.positionX, .number(let v)): r.position.x += v
    case (.positionY, .number(let v)): r.position.y += v
    case (.zPosition, .number(let v)): r.zPosition += v
    case (.bounds, .rect(let d)):
      r.bounds = Rect(
        x: r.bounds.origin.x + d.origin.x, y: r.bounds.origin.y + d.origin.y,
        width: r.bounds.size.width + d.size.width, height: r.bounds.size.height + d.size.height)
    case (.boundsSize, .size(let d)):
      r.bounds.size = Size(
        width: r.bounds.size.width + d.width, height: r.bounds.size.height + d.height)
    case (.anchorPoint, .point(let p)):
      r.anchorPoint = Point(x: r.anchorPoint.x + p.x, y: r.anchorPoint.y + p.y)
    case (.transform, .transform(let d)):
      r.transform = Self.productRate(d, offset, base, r.transform)
    case (.sublayerTransform, .transform(let d)):
      r.sublayerTransform = Self.productRate(d, offset, base, r.sublayerTransform)
    case (.transformComponent(.translationX), .number(let v)): r.transform.m41 += v
    case (.transformComponent(.translationY), .number(let v)): r.transform.m42 += v
    case (.transformComponent(.translationZ), .number(let v)): r.transform.m43 += v
    case (.transformComponent(let component), _):
      markUnsupported(number, "an additive \(component.rawValue)")
    default: break  // appearance properties do not move geometry
    }
    layers[index] = r
  }

  /// `offset′ · base + offset · base′` for transform values (any other pair gives `base′`).
  private static func productRate(
    _ offsetRate: Transform3D, _ offset: AnimationValue, _ base: AnimationValue,
    _ baseRate: Transform3D
  ) -> Transform3D {
    guard case .transform(let o) = offset, case .transform(let b) = base else { return baseRate }
    return offsetRate.concatenating(b).adding(o.concatenating(baseRate))
  }
}
