import Foundation
import Segue
import SegueFuzzOracles
import SegueSpec
import Testing

/// Inputs that broke an oracle, one test each (found by the seeded harness or by libFuzzer, as
/// noted), kept so the fix stays: each now passes its target's oracle, and the test says what
/// the input must give.
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
  /// Seeded harness, events input 337: a cancel with `completionSpeed` 5e-324 was accepted and
  /// its completion time was infinite, so the default sample times of a spec carrying it were
  /// `[NaN, ∞, …]` and sampling failed. Now the cancel is rejected at its path.
  @Test func completionSpeedTooSlowForAFiniteEnd() throws {
    let text =
      #"{"completionSpeed": 2, "events": [{"time": 0, "update": 0.1}, {"time": 0.05, "update": 0.7}, {"time": 0.1, "cancel": {"completionSpeed": 5e-324, "completionCurve": "easeOut"}}]}"#
    #expect(FuzzOracles.events(Array(text.utf8)) == nil)
    #expect {
      try SpecFile.decodeInteraction(text: text, duration: 0.5)
    } throws: { error in
      let e = error as? SpecError
      return e?.path == "$.events[2]"
        && e?.message.contains("the completion run would end at infinity") == true
    }
  }

  /// libFuzzer, `FuzzLive`: a percent-driven instance's completion at 1.53 s was delivered (an
  /// `advance` to 1e300), then an update at 1.5 s, after its latest call but before that
  /// completion, was accepted, and the same run completed again at 1.547 s. Now a delivered
  /// completion counts as the instance's latest call, and the update is rejected.
  @Test func callBeforeADeliveredCompletion() throws {
    let script =
      "VKuoUBd+J6aNCQsmqKuoUBd+J6aNCQsmqiM6VOAuRn0MCUVFRUVFRUVFzFUe9r7RlHzVmdJfUollIHBUgLHpuqxpnhQ7"
      + "F4Uo////DPLIbGRitAxkvh72YfodQ1JCoO7zP619LJ7R+E+sB4vViNz/////////////////////////////////"
      + "////////////////BS/sMwZ1lk04WCJtqE3AqyHbAAAAAJdlcFewcxWaWHoMqNb1Oqb8PyAfMO2OwpPWGn5tHRYO"
      + "lAKHaQ0="
    try Self.expectLiveScriptPasses(script, byteCount: 206)
  }

  /// libFuzzer, `FuzzLive`: a retarget of a position to x = 1e300, finite in `Double`, was
  /// accepted, and the batch's `Float` matrix rows held infinities and NaN. Now a target (or its
  /// offset) outside `Float`'s range is rejected on `"toValue"`, as a template's values are.
  @Test func retargetOutsideFloat() throws {
    let script =
      "4fx5LLyuD3BkpZC3VvnTuzHXKX0A////B1x6/LT0roDc3heeTao1GkNrXE3SIQ8+C5VrQborhYZomHMABwAAk9G2uHa7"
      + "SeDX3Kcgs03SIQ8q2QIgukDMeOT3Kt5/AAAACcIlHOrVQgLbg0AUaJ3rJIsLpNE="
    try Self.expectLiveScriptPasses(script, byteCount: 116)
  }

  /// The live batch oracle passes on a script of `byteCount` bytes, given in base64.
  static func expectLiveScriptPasses(
    _ base64: String, byteCount: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let bytes = try #require(Data(base64Encoded: base64), sourceLocation: sourceLocation)
    #expect(bytes.count == byteCount, sourceLocation: sourceLocation)
    #expect(FuzzOracles.liveBatch([UInt8](bytes)) == nil, sourceLocation: sourceLocation)
  }

  /// A last interaction event near the largest `Double`: its default sample times stay finite.
  @Test func defaultSampleTimesStayFinite() throws {
    let text =
      #"{"version": 1, "duration": 1e308, "layers": [{"id": "a"}], "interaction": [{"time": 1.7e308, "update": 0.5}]}"#
    let document = try loadSpec(text)
    #expect(document.sampleTimes.allSatisfy { $0.isFinite })
    #expect(FuzzOracles.spec(Array(text.utf8)) == nil)
  }
}
