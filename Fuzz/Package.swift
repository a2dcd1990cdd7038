// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Segue's parsers and live batch control, outside the main package so that its build is not
// affected. Build with `Fuzz/build.sh` (AddressSanitizer, libFuzzer's coverage instrumentation,
// the toolchain's libFuzzer without its main), then run, from the repository root:
//
//     mkdir -p .fuzz/json && Fuzz/.build/release/FuzzJSON .fuzz/json Fuzz/Corpus/json
//
// See "Fuzzing" in CONTRIBUTING.md and the DocC article "Robustness" for every target and the
// options used.
//
// Each target is one @main that hands its oracle to FuzzDriver's runFuzzer (libFuzzer's driver);
// the oracles are the main package's SegueFuzzOracles, which the test suite's seeded mutation
// harness runs too: a violated oracle traps, so libFuzzer records the input as a crash.
let package = Package(
  name: "SegueFuzz",
  dependencies: [.package(name: "Segue", path: "..")],
  targets: [
    .target(name: "FuzzDriver", swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "FuzzJSON",
      dependencies: ["FuzzDriver", .product(name: "SegueFuzzOracles", package: "Segue")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "FuzzSpec",
      dependencies: ["FuzzDriver", .product(name: "SegueFuzzOracles", package: "Segue")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "FuzzEvents",
      dependencies: ["FuzzDriver", .product(name: "SegueFuzzOracles", package: "Segue")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "FuzzLive",
      dependencies: ["FuzzDriver", .product(name: "SegueFuzzOracles", package: "Segue")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
  ]
)
