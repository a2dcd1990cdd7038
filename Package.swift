// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Segue",
  products: [
    .library(name: "Segue", targets: ["Segue"]),
    .library(name: "SegueSpec", targets: ["SegueSpec"]),
    .executable(name: "segue-bench", targets: ["segue-bench"]),
    .executable(name: "segue", targets: ["segue"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CBLAS",
      path: "Sources/CBLAS",
      pkgConfig: "blas",
      providers: [.apt(["libblas-dev"])]
    ),
    .target(
      name: "SegueSIMDSupport",
      path: "Sources/SegueSIMDSupport"
    ),
    .target(
      name: "SegueBenchSupport",
      path: "Sources/SegueBenchSupport"
    ),
    .target(
      name: "Segue",
      dependencies: [
        "CBLAS",
        "SegueSIMDSupport",
        .product(name: "RealModule", package: "swift-numerics"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .target(
      name: "SegueSpec",
      dependencies: ["Segue"],
      exclude: ["Schema", "Examples"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
      name: "segue-bench",
      dependencies: [
        "Segue",
        "SegueSIMDSupport",
        "SegueBenchSupport",
        "CBLAS",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
      name: "segue",
      dependencies: [
        "Segue",
        "SegueSpec",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/segue",
      exclude: ["ExitCodes.md"],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueCLITests",
      dependencies: ["segue", "Segue", "SegueSpec"],
      path: "Tests/SegueCLITests",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueTests",
      dependencies: [
        "Segue",
        "CBLAS",
        "SegueBenchSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "SegueSpecTests",
      dependencies: [
        "Segue",
        "SegueSpec",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ]
)
