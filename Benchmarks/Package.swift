// swift-tools-version: 6.1
// The package-benchmark suite for Segue (a nested package so that the library itself does not
// depend on package-benchmark). Run from this folder: `swift package benchmark`.
import PackageDescription

let package = Package(
  name: "SegueBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Segue", path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "SegueBenchmarks",
      dependencies: [
        .product(name: "Segue", package: "Segue"),
        .product(name: "SegueBenchSupport", package: "Segue"),
        .product(name: "Benchmark", package: "package-benchmark"),
      ],
      path: "SegueBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
  ]
)
