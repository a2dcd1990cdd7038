import Segue

/// Asserts that a transition runs without an undeclared jump: frame by frame at `fps`, no
/// presented value (each layer's corners, opacity, appearance, presence) and no velocity
/// changes abruptly beyond `tolerance`, except where the scene declares it — discrete
/// keyframes, `steps()` timing, model changes, the completion, and for an interactive run its
/// updates and its finish or cancel (``/Segue/TransitionScene/discontinuities(after:through:)``).
///
/// This catches the transitions that jump or get stuck: an animation whose end value is not
/// the model value it leaves behind, a completion run that does not start where the finger
/// left the transition, an interruption that restarts a curve from elsewhere.
///
/// ```swift
/// @Test func cancelAtAnyProgressIsContinuous() throws {
///   let scene = try animator.animateTransition(using: context)
///   for progress in stride(from: 0.1, through: 0.9, by: 0.2) {
///     let run = try InteractionTimeline(
///       duration: scene.duration,
///       events: [.update(time: 0.1, percent: progress), .cancel(time: 0.2)])
///     assertContinuous(scene, interaction: run, fps: 60)
///   }
/// }
/// ```
///
/// - Parameters:
///   - scene: the transition.
///   - interaction: its percent-driven run, if any (then frames run in wall-clock time to the
///     completion).
///   - fps: frames per second, `> 0`.
///   - tolerance: the smallest jump that counts (``/SegueSnapshot/ContinuityTolerance``).
///   - fileID: the test file's ID, for the failure's location.
///   - filePath: the test file's path, for the failure's location.
///   - line: the line, for the failure's location.
///   - column: the column, for the failure's location.
public func assertContinuous(
  _ scene: TransitionScene,
  interaction: InteractionTimeline? = nil,
  fps: Double = 60,
  tolerance: ContinuityTolerance = ContinuityTolerance(),
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let check = ContinuityCheck(
    scene: scene, interaction: interaction, fps: fps, tolerance: tolerance)
  let message: String?
  do { message = try check.run().failureMessage } catch {
    message = "Cannot check the continuity: \(error)"
  }
  guard let message else { return }
  recordFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
}
