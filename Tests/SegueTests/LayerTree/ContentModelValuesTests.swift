import Segue
import Testing

@Suite("Content model values: Core Animation's names")
struct ContentModelValuesTests {
  @Test("raw values are Core Animation's constant names")
  func names() {
    #expect(
      ContentsGravity.allCases.map(\.rawValue) == [
        "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft",
        "bottomRight", "resize", "resizeAspect", "resizeAspectFill",
      ])
    #expect(ContentsFilter.allCases.map(\.rawValue) == ["nearest", "linear", "trilinear"])
    #expect(LineCap.allCases.map(\.rawValue) == ["butt", "round", "square"])
    #expect(LineJoin.allCases.map(\.rawValue) == ["miter", "round", "bevel"])
    #expect(GradientType.allCases.map(\.rawValue) == ["axial", "radial", "conic"])
  }

  @Test("resizing gravities and alignments (top is the smallest y)")
  func gravity() {
    #expect(
      ContentsGravity.allCases.filter(\.isResizing) == [.resize, .resizeAspect, .resizeAspectFill])
    #expect(ContentsGravity.top.alignment == (0.5, 0))
    #expect(ContentsGravity.bottomRight.alignment == (1, 1))
    #expect(ContentsGravity.left.alignment == (0, 0.5))
  }
}
