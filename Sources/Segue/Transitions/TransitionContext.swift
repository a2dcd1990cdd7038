/// The two views a transition moves between, in the container (UIKit's
/// `UIViewControllerContextTransitioning`).
///
/// Each view is a layer tree whose first layer is the view's own layer (id `from` or `to` for
/// the presets) with its sublayers under it. ``completeTransition(_:)`` must be called exactly
/// once.
public struct TransitionContext: Sendable {
  /// What the transition does.
  public let operation: TransitionOperation
  /// Container size in points (default 390 × 844).
  public let containerSize: Size
  /// The view being left, as a layer tree (its root first).
  public let fromView: LayerTree
  /// The view being shown, as a layer tree (its root first).
  public let toView: LayerTree
  /// How the transition ended, once ``completeTransition(_:)`` was called.
  public private(set) var completion: TransitionCompletion?

  /// Creates a context.
  ///
  /// - Throws: ``ValidationError`` when the container size is not finite and positive
  ///   (`containerSize.width`, `containerSize.height`), or a view is empty (`fromView`,
  ///   `toView`, `.tooFew`).
  public init(
    operation: TransitionOperation, containerSize: Size = Size(width: 390, height: 844),
    fromView: LayerTree, toView: LayerTree
  ) throws(ValidationError) {
    try Validate.positive(containerSize.width, "containerSize.width")
    try Validate.positive(containerSize.height, "containerSize.height")
    guard fromView.count > 0 else {
      throw ValidationError(field: "fromView", reason: .tooFew(minimum: 1, actual: 0))
    }
    guard toView.count > 0 else {
      throw ValidationError(field: "toView", reason: .tooFew(minimum: 1, actual: 0))
    }
    self.operation = operation
    self.containerSize = containerSize
    self.fromView = fromView
    self.toView = toView
  }

  /// The id of the view being left (its root layer).
  public var fromID: String { fromView.layers[0].id }
  /// The id of the view being shown (its root layer).
  public var toID: String { toView.layers[0].id }

  /// `transitionWasCancelled`: true once completed with `false`.
  public var transitionWasCancelled: Bool { completion == .cancelled }

  /// The container's bounds, `(0, 0, W, H)`: every view's frame before and after the
  /// transition (`initialFrame(for:)`, `finalFrame(for:)`) for the operations here.
  public var containerBounds: Rect {
    Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height)
  }

  /// `completeTransition(_:)`: records how the transition ended.
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"completeTransition"` when
  ///   it was already called.
  public mutating func completeTransition(_ didComplete: Bool) throws(ValidationError) {
    guard completion == nil else {
      throw ValidationError(
        field: "completeTransition", reason: .invalidState("was already called"))
    }
    completion = didComplete ? .finished : .cancelled
  }

  /// A full-container view layer named `id` whose frame origin x is `x` (points):
  /// bounds `(0, 0, W, H)`, position `(x + W/2, H/2)`.
  public static func viewLayer(
    _ id: String, containerSize: Size, x: Double = 0, color: Color = .white
  ) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height),
      position: Point(x: x + containerSize.width / 2, y: containerSize.height / 2),
      backgroundColor: color)
  }
}

/// A custom transition's animator (`UIViewControllerAnimatedTransitioning`): its duration and
/// the animations it sets up, as data both the scalar evaluator and the batch kernel read.
public protocol TransitionAnimator: Sendable {
  /// `transitionDuration(using:)`, in seconds (> 0).
  func transitionDuration(using context: TransitionContext) -> Double
  /// `animateTransition(using:)`: the layers, animations and completion changes.
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
}
