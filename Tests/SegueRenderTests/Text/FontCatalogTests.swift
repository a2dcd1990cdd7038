import Segue
import SegueRender
import Testing

/// Name resolution on a made-up catalog (no installed font involved), and on the installed one.
@Suite struct FontCatalogTests {
  static func face(
    _ families: [String], _ style: String, _ postScript: String, weight: FontWeight,
    italic: Bool = false, width: Int = 100, path: String
  ) -> InstalledFont {
    InstalledFont(
      families: families, style: style, postScriptName: postScript,
      fullName: "\(families[0]) \(style)", weight: weight, isItalic: italic, width: width,
      file: FontFile(path: path))
  }

  static let catalog = FontCatalog(fonts: [
    face(["Inter"], "Regular", "Inter-Regular", weight: .regular, path: "/f/inter-400"),
    face(["Inter"], "Bold", "Inter-Bold", weight: .bold, path: "/f/inter-700"),
    face(
      ["Inter"], "Italic", "Inter-Italic", weight: .regular, italic: true, path: "/f/inter-400i"),
    face(["Inter", "Inter Light"], "Light", "Inter-Light", weight: .light, path: "/f/inter-300"),
    face(["Inter", "Inter Black"], "Black", "Inter-Black", weight: .black, path: "/f/inter-900"),
    face(["DejaVu Sans"], "Book", "DejaVuSans", weight: .regular, path: "/f/dv-400"),
    face(
      ["DejaVu Sans", "DejaVu Sans Condensed"], "Condensed Bold", "DejaVuSansCondensed-Bold",
      weight: .bold, width: 75, path: "/f/dvc-700"),
    face(["DejaVu Sans"], "Bold", "DejaVuSans-Bold", weight: .bold, path: "/f/dv-700"),
    face(["Noto Serif"], "Regular", "NotoSerif", weight: .regular, path: "/f/noto"),
  ])

  func path(_ descriptor: FontDescriptor, in catalog: FontCatalog = catalog) throws -> String {
    try catalog.resolve(descriptor).path
  }

  @Test func namesMatchPostScriptFullAndFamilyNamesIgnoringCase() throws {
    #expect(try path(.name("Inter-Bold")) == "/f/inter-700")
    #expect(try path(.name("inter-bold")) == "/f/inter-700")
    #expect(try path(.name("Inter Bold")) == "/f/inter-700")
    #expect(try path(.name("Inter")) == "/f/inter-400")
    #expect(try path(.name("  DejaVu Sans ")) == "/f/dv-400")
    #expect(try path(.name("Inter Black")) == "/f/inter-900")
  }

  @Test func familyDashStyleNames() throws {
    #expect(try path(.name("DejaVuSans-Bold")) == "/f/dv-700")
    #expect(try path(.name("DejaVu Sans-BoldOblique")) == "/f/dv-700")
    #expect(try path(.name("Inter-SemiboldItalic")) == "/f/inter-400i")
    #expect(try path(.name("NotoSerif-Medium")) == "/f/noto")
  }

  @Test func appleSystemNamesDrawWithTheDefaultFamily() throws {
    #expect(try path(.name("Helvetica")) == "/f/inter-400")
    #expect(try path(.helvetica) == "/f/inter-400")
    #expect(try path(.name("Helvetica-Bold")) == "/f/inter-700")
    #expect(try path(.name("HelveticaNeue-Light")) == "/f/inter-300")
    #expect(try path(.name(".AppleSystemUIFont")) == "/f/inter-400")
    #expect(try path(.name("SFProText-Semibold")) == "/f/inter-700")
    #expect(try path(.family("SF Pro Display", weight: .heavy, isItalic: false)) == "/f/inter-900")
    let withoutInter = FontCatalog(fonts: Self.catalog.fonts.filter { $0.families[0] != "Inter" })
    #expect(try path(.helvetica, in: withoutInter) == "/f/dv-400")
    #expect(try path(.name("Helvetica-Bold"), in: withoutInter) == "/f/dv-700")
  }

  @Test func familyWeightFollowsCSSMatching() throws {
    func weight(_ raw: Int, italic: Bool = false) throws -> String {
      try path(.family("Inter", weight: FontWeight(rawValue: raw)!, isItalic: italic))
    }
    #expect(try weight(400) == "/f/inter-400")
    // 450 and 500: nothing heavier up to 500, so lighter first (400), not 700.
    #expect(try weight(450) == "/f/inter-400")
    #expect(try weight(500) == "/f/inter-400")
    // Above 500: heavier first.
    #expect(try weight(600) == "/f/inter-700")
    #expect(try weight(800) == "/f/inter-900")
    // Below 400: lighter first, then heavier.
    #expect(try weight(350) == "/f/inter-300")
    #expect(try weight(200) == "/f/inter-300")
    #expect(try weight(950) == "/f/inter-900")
    // Italic when the family has it; upright faces otherwise.
    #expect(try weight(400, italic: true) == "/f/inter-400i")
    #expect(try weight(700, italic: true) == "/f/inter-400i")
    #expect(try path(.family("DejaVu Sans", weight: .regular, isItalic: true)) == "/f/dv-400")
    // The normal width wins a tie of weight and slant.
    #expect(try path(.family("DejaVu Sans", weight: .bold, isItalic: false)) == "/f/dv-700")
  }

  @Test func filesAreTakenAsGiven() throws {
    let file = try Self.catalog.resolve(.file(path: "/x/y.otf", faceIndex: 2))
    #expect(file == FontFile(path: "/x/y.otf", faceIndex: 2))
    #expect(file.description == "/x/y.otf#2")
  }

  @Test func unknownNamesListTheNearestInstalledFamilies() {
    #expect {
      try Self.catalog.resolve(.name("Intr"))
    } throws: { error in
      guard case .familyNotFound(let name, let installed) = error as? FontError else {
        return false
      }
      return name == "Intr" && installed.first == "Inter" && installed.count == 5
    }
    #expect {
      try Self.catalog.resolve(.family("Arial", weight: .bold, isItalic: false))
    } throws: { error in
      guard case .familyNotFound(let name, let installed) = error as? FontError else {
        return false
      }
      return name == "Arial" && installed.count == 5
    }
    #expect(throws: FontError.familyNotFound(name: "Helvetica Bold Oblique X", installed: [])) {
      try FontCatalog(fonts: []).resolve(.name("Helvetica Bold Oblique X"))
    }
  }

  @Test func emptyNamesAndMissingDefaultsAreRejected() {
    #expect(throws: FontError.emptyName) { try Self.catalog.resolve(.name("")) }
    #expect(throws: FontError.emptyName) { try Self.catalog.resolve(.name(" \t")) }
    #expect(throws: FontError.emptyName) {
      try Self.catalog.resolve(.family(" ", weight: .regular, isItalic: false))
    }
    #expect(throws: FontError.noDefaultFont(tried: FontCatalog.defaultFamilies)) {
      try FontCatalog(fonts: []).resolve(.helvetica)
    }
  }

  @Test func fontWeightRange() {
    #expect(FontWeight(rawValue: 0) == nil)
    #expect(FontWeight(rawValue: 1001) == nil)
    #expect(FontWeight(rawValue: 1)?.rawValue == 1)
    #expect(FontWeight.ultraLight < .thin && .thin < .light && .semibold < .bold)
    #expect(FontWeight.black.description == "900")
  }

  @Test func installedCatalogHasTheFontsEnsureDepsInstalls() throws {
    let catalog = try FontCatalog.installed()
    let inter = try catalog.resolve(.name("Inter-Bold"))
    #expect(inter.path.hasSuffix("Inter-Bold.otf"))
    #expect(try catalog.resolve(.helvetica).path.hasSuffix("Inter-Regular.otf"))
    #expect(try catalog.resolve(.name("DejaVu Sans")).path.hasSuffix("DejaVuSans.ttf"))
    #expect(
      try catalog.resolve(.family("DejaVu Sans", weight: .bold, isItalic: true)).path.hasSuffix(
        "DejaVuSans-BoldOblique.ttf"))
  }
}
