import Segue
import Testing

@Suite("FillRule")
struct FillRuleTests {
  @Test("non-zero counts any winding, even-odd only odd ones", arguments: -3...3)
  func windingRules(winding: Int) {
    #expect(FillRule.nonZero.contains(winding: winding) == (winding != 0))
    #expect(FillRule.evenOdd.contains(winding: winding) == (abs(winding) % 2 == 1))
  }

  @Test("raw values are Core Animation's names without the prefix")
  func rawValues() {
    #expect(FillRule(rawValue: "nonZero") == .nonZero)
    #expect(FillRule(rawValue: "evenOdd") == .evenOdd)
    #expect(FillRule(rawValue: "winding") == nil)
  }
}
