// swift-tools-version: 6.1
import PackageDescription

// Products by what they need from the system:
// * `Segue` (the engine) and `SegueSpec` (spec files): the Swift toolchain only. With the `BLAS`
//   trait (on by default) `Segue` also links Debian's CBLAS (`libblas-dev`) for the BLAS paths of
//   its matrix-product jobs; a consumer without BLAS depends on Segue with `traits: []`.
// * `SegueRender` (rasteriser, PNG/APNG/GIF/SVG writers, images, text): libdeflate
//   (`libdeflate-dev`) for the PNG and APNG writers' compression and checksums; for images libpng
//   (`libpng-dev`, which brings zlib) and libjpeg-turbo (`libjpeg62-turbo-dev`); for text
//   FreeType (`libfreetype-dev`), HarfBuzz (`libharfbuzz-dev`), fontconfig (`libfontconfig-dev`).
// * `SegueTesting` (snapshot and continuity assertions for Swift Testing and XCTest): what
//   `SegueRender` needs; its engine `SegueSnapshot` (which also serves `segue snapshot`) reads
//   PNG and APNG files with libdeflate's decompressor.
// * `SegueBenchSupport`: the benchmark workloads, for segue-bench and the Benchmarks suite.
// * `segue`, `segue-bench`: the command-line tools.
let package = Package(
  name: "Segue",
  products: [
    .library(name: "Segue", targets: ["Segue"]),
    .library(name: "SegueSpec", targets: ["SegueSpec"]),
    .library(name: "SegueRender", targets: ["SegueRender"]),
    .library(name: "SegueTesting", targets: ["SegueTesting"]),
    // The benchmark workloads (the `stack` workload, its naive and reference implementations and
    // its kernel), shared by segue-bench, the tests and the package-benchmark suite; not for apps.
    .library(name: "SegueBenchSupport", targets: ["SegueBenchSupport"]),
    // The fuzzing oracles (what must hold for every input of the spec and JSON readers), shared
    // by the test suite's mutation harness and the libFuzzer targets in Fuzz/; not for apps.
    .library(name: "SegueFuzzOracles", targets: ["SegueFuzzOracles"]),
    .executable(name: "segue-bench", targets: ["segue-bench"]),
    .executable(name: "segue", targets: ["segue"]),
  ],
  traits: [
    .trait(
      name: "BLAS",
      description:
        "Link the system CBLAS (Debian: libblas-dev) for BatchPath.blas; without it every batch job runs its SIMD path."
    ),
    .default(enabledTraits: ["BLAS"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    // `swift package generate-documentation` (make docs). A command plugin: nothing of it is
    // linked into any product, and a consumer of `Segue` builds none of it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CBLAS",
      path: "Sources/CBLAS",
      pkgConfig: "blas",
      providers: [.apt(["libblas-dev"])]
    ),
    .systemLibrary(
      name: "CPNG",
      path: "Sources/CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    .systemLibrary(
      name: "CJPEG",
      path: "Sources/CJPEG",
      pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg62-turbo-dev"])]
    ),
    // The C side of image decoding: libpng's and libjpeg's error jumps stay in C frames.
    .target(
      name: "SegueImageCodecs",
      dependencies: ["CPNG", "CJPEG"],
      path: "Sources/SegueImageCodecs"
    ),
    .systemLibrary(
      name: "CFreeType",
      path: "Sources/CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"])]
    ),
    .systemLibrary(
      name: "CHarfBuzz",
      path: "Sources/CHarfBuzz",
      pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"])]
    ),
    .systemLibrary(
      name: "CFontconfig",
      path: "Sources/CFontconfig",
      pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"])]
    ),
    .systemLibrary(
      name: "CDeflate",
      path: "Sources/CDeflate",
      pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]
    ),
    .target(
      name: "SegueSIMDSupport",
      path: "Sources/SegueSIMDSupport"
    ),
    .target(
      name: "SegueMallocCounter",
      path: "Sources/SegueMallocCounter"
    ),
    // What the two command-line tools share: the size arithmetic of their budgets (checked
    // products, the physical-memory budget), the monotonic clock; not a product.
    .target(
      name: "SegueToolSupport",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "Segue",
      dependencies: [
        .target(name: "CBLAS", condition: .when(traits: ["BLAS"])),
        "SegueSIMDSupport",
        .product(name: "RealModule", package: "swift-numerics"),
      ],
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .define("SEGUE_BLAS", .when(traits: ["BLAS"])),
      ]
    ),
    .target(
      name: "SegueRender",
      dependencies: [
        "Segue", "SegueSIMDSupport", "CDeflate", "SegueImageCodecs", "CFreeType", "CHarfBuzz",
        "CFontconfig",
        .product(name: "RealModule", package: "swift-numerics"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueSnapshot",
      dependencies: ["Segue", "SegueSpec", "SegueRender", "CDeflate"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueTesting",
      dependencies: ["Segue", "SegueSnapshot"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueSpec",
      dependencies: ["Segue"],
      exclude: ["Schema", "Examples"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueBenchSupport",
      dependencies: ["Segue", "SegueSIMDSupport", "SegueToolSupport"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueFuzzOracles",
      dependencies: ["Segue", "SegueSpec"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
      name: "segue-bench",
      dependencies: [
        "Segue",
        "SegueRender",
        "SegueSnapshot",
        "SegueSIMDSupport",
        "SegueBenchSupport",
        "SegueMallocCounter",
        "SegueToolSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
      name: "segue",
      dependencies: [
        "Segue",
        "SegueSpec",
        "SegueRender",
        "SegueSnapshot",
        "SegueBenchSupport",
        "SegueToolSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/segue",
      exclude: ["ExitCodes.md"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueTestSupport",
      path: "Tests/SegueTestSupport",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueCLITests",
      dependencies: [
        "segue", "segue-bench", "Segue", "SegueSpec", "SegueRender", "SegueSnapshot",
        "SegueBenchSupport", "SegueTestSupport", "SegueToolSupport",
      ],
      path: "Tests/SegueCLITests",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueTests",
      dependencies: [
        "Segue",
        "SegueBenchSupport",
        "SegueMallocCounter",
        .target(name: "CBLAS", condition: .when(traits: ["BLAS"])),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .define("SEGUE_BLAS", .when(traits: ["BLAS"])),
      ]
    ),
    .testTarget(
      name: "SegueRenderTests",
      dependencies: [
        "Segue",
        "SegueRender",
        "SegueSpec",
        "SegueMallocCounter",
        "SegueTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueSnapshotTests",
      dependencies: [
        "Segue", "SegueRender", "SegueSnapshot", "SegueTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueTestingTests",
      dependencies: [
        "Segue", "SegueRender", "SegueSnapshot", "SegueTesting", "SegueTestSupport",
      ],
      exclude: ["__Snapshots__"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueBenchSupportTests",
      dependencies: [
        "Segue",
        "SegueBenchSupport",
        "SegueToolSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueSpecTests",
      dependencies: [
        "Segue",
        "SegueSpec",
        "SegueBenchSupport",
        "SegueFuzzOracles",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ]
)
