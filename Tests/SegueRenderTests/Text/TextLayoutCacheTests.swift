import PropertyBased
import Segue
import SegueRender
import Testing

/// The layout cache, and invariants of line breaking over random text.
@Suite struct TextLayoutCacheTests {
  @Test func layoutsAreComputedOnceAndShared() throws {
    let cache = TextLayoutCache(capacity: 2)
    #expect(cache.capacity == 2 && cache.count == 0)
    let request = TextLayoutRequest(string: "Settings", bounds: Size(width: 200, height: 44))
    let first = try cache.layout(for: request)
    #expect(cache.count == 1)
    #expect(try cache.layout(for: request) == first)
    #expect(cache.count == 1)
    #expect(first == (try TextTestFonts.layout(request, face: try TextTestFonts.inter())))
    _ = try cache.layout(for: with(request) { $0.string = "General" })
    #expect(cache.count == 2)
    _ = try cache.layout(for: with(request) { $0.string = "About" })
    #expect(cache.count == 1)  // full: started afresh
    #expect(TextLayoutCache(capacity: 0).capacity == 1)
  }

  @Test func errorsSayWhetherTheFontOrTheRequestWasWrong() {
    let cache = TextLayoutCache(library: FontLibrary(catalog: FontCatalog(fonts: [])))
    let missing = TextLayoutRequest(
      string: "x", font: .name("Nope"), bounds: Size(width: 1, height: 1))
    #expect(
      throws: TextLayoutError.font(.familyNotFound(name: "Nope", installed: []))
    ) { try cache.layout(for: missing) }
    let bad = TextLayoutRequest(string: "x", fontSize: -2, bounds: Size(width: 1, height: 1))
    #expect(
      throws: TextLayoutError.font(.noDefaultFont(tried: FontCatalog.defaultFamilies))
    ) { try cache.layout(for: bad) }
    let shared = TextLayoutCache()
    #expect(
      throws: TextLayoutError.invalidRequest(ValidationError(field: "fontSize", reason: .negative))
    ) { try shared.layout(for: bad) }
    #expect(
      TextLayoutError.invalidRequest(ValidationError(field: "fontSize", reason: .negative))
        .description == "fontSize must not be negative")
    #expect(TextLayoutError.font(.emptyName).description == "font name is empty")
  }

  @Test func concurrentLayoutsAgree() async throws {
    let library = FontLibrary()
    let request = TextLayoutRequest(
      string: "Wi-Fi, Bluetooth and Cellular settings", font: .name("DejaVu Sans"), fontSize: 17,
      bounds: Size(width: 120, height: 200), isWrapped: true)
    let reference = try TextTestFonts.layout(request, face: try TextTestFonts.dejaVuSans())
    let results = try await withThrowingTaskGroup(of: TextLayout.self) { group in
      for _ in 0..<8 {
        group.addTask { try TextLayoutCache(library: library).layout(for: request) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8 && results.allSatisfy { $0 == reference })
  }

  /// Wrapped lines cover the text in order without gaps, and fit the width unless they hold
  /// one cluster; every point is finite.
  @Test func wrappedLinesPartitionTheTextAndFit() async throws {
    let face = try TextTestFonts.dejaVuSans()
    let letters = Array("aimW  -fi\u{05D0}\u{4E00}")
    await propertyCheck(
      count: 40, input: Gen.int(in: 0...(letters.count - 1)).array(of: 0...40),
      Gen.double(in: 0...200)
    ) { picks, width in
      let text = String(picks.map { letters[$0] })
      let request = TextLayoutRequest(
        string: text, fontSize: 17, bounds: Size(width: width, height: 1000), isWrapped: true)
      let result = try TextTestFonts.layout(request, face: face)
      var next = 0
      for line in result.lines {
        #expect(line.characterRange.lowerBound == next)
        next = line.characterRange.upperBound
        #expect(line.width <= width + 1e-9 || line.glyphRange.count <= 2)
      }
      #expect(next == text.unicodeScalars.count)
      for element in result.path.elements {
        if case .move(let p) = element { #expect(p.x.isFinite && p.y.isFinite) }
      }
    }
  }
}
