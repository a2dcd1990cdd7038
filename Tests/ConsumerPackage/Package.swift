// swift-tools-version: 6.1
// A tiny package that depends on Segue the way an app or a CI job would, with the `BLAS` trait off:
// `.ci/run` builds and runs it on a machine without libblas-dev to prove that the `Segue` and
// `SegueSpec` products need nothing but the Swift toolchain. Not part of the Segue package.
import PackageDescription

let package = Package(
  name: "SegueConsumer",
  dependencies: [
    .package(name: "Segue", path: "../..", traits: [])
  ],
  targets: [
    .executableTarget(
      name: "SegueConsumer",
      dependencies: [
        .product(name: "Segue", package: "Segue"),
        .product(name: "SegueSpec", package: "Segue"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
