/// The transition's container view's own layer (`containerView.layer`) as its sublayers see it:
/// its bounds and its `sublayerTransform`, which Core Animation applies to every top-level layer
/// of the transition about the container's anchor point, its centre (UIKit leaves the container
/// layer's `anchorPoint` at `(0.5, 0.5)`).
///
///     C_container = T(−P) · sublayerTransform · T(P),   P = (midX, midY, 0) of bounds
///
/// A perspective `m34 = −1/d` there puts the vanishing point at the container's centre, shared by
/// every view of the transition. The container layer draws nothing itself.
public struct ContainerLayer: Hashable, Sendable {
  /// The container's bounds, `(0, 0, W, H)` in a ``TransitionScene`` (its presentation sets them
  /// from ``TransitionScene/containerSize``).
  public var bounds: Rect
  /// `containerView.layer.sublayerTransform`; default the identity.
  public var sublayerTransform: Transform3D

  /// A container layer; by default with no bounds and the identity.
  public init(bounds: Rect = .zero, sublayerTransform: Transform3D = .identity) {
    self.bounds = bounds
    self.sublayerTransform = sublayerTransform
  }

  /// The container as a plain ``Layer`` (anchor point at its centre), for the matrix rules the
  /// layers share.
  var layer: Layer {
    Layer(
      id: "", bounds: bounds, position: Point(x: bounds.midX, y: bounds.midY),
      sublayerTransform: sublayerTransform)
  }

  /// `C_container`: ``sublayerTransform`` about the container's centre; exactly the identity when
  /// ``sublayerTransform`` is.
  public var sublayerMatrix: Transform3D {
    sublayerTransform.isIdentity ? .identity : layer.sublayerMatrix
  }

  /// Throws ``ValidationError/Reason/notFinite`` on `"container.bounds"` (index 0…3) or
  /// `"container.sublayerTransform"` (index 0…15).
  public func validate() throws(ValidationError) {
    try Validate.finite(bounds, "container.bounds")
    let fields = sublayerTransform.fields
    for i in 0..<fields.count {
      try Validate.finite(fields[i], "container.sublayerTransform", index: i)
    }
  }

  /// The transform `value` written to `property` of the container's layer.
  ///
  /// - Throws: ``ValidationError``: `"keyPath"` ``ValidationError/Reason/invalidState(_:)`` for a
  ///   property other than ``LayerProperty/sublayerTransform`` or a value that is not a
  ///   transform; `"container.sublayerTransform"` ``ValidationError/Reason/notFinite`` (index
  ///   0…15) for a field that is not finite.
  public static func sublayerTransform(_ property: LayerProperty, _ value: AnimationValue)
    throws(ValidationError) -> Transform3D
  {
    guard property == .sublayerTransform else {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "the container's layer takes sublayerTransform only, not \(property.keyPath)"))
    }
    guard case .transform(let transform) = value else {
      throw ValidationError(
        field: "keyPath", reason: .invalidState("sublayerTransform holds a transform"))
    }
    try ContainerLayer(sublayerTransform: transform).validate()
    return transform
  }
}
