// The libFuzzer driver shared by the fuzz targets: each target's @main calls runFuzzer(_:) with
// its oracle.

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's driver (in the runtime `Fuzz/build.sh` links).
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The oracle of this process (set once, before libFuzzer starts; libFuzzer calls back on the
/// thread that runs it).
nonisolated(unsafe) private var currentOracle: ([UInt8]) -> String? = { _ in nil }

/// Hands the command line to libFuzzer, which calls `oracle` with every input; a violation
/// (a non-nil description) traps, so libFuzzer records the input as a crash. SwiftPM gives every
/// executable its own `main`, so the runtime's is not linked.
public func runFuzzer(_ oracle: @escaping ([UInt8]) -> String?) -> Never {
  currentOracle = oracle
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(
    llvmFuzzerRunDriver(&argc, &argv) { data, size in
      let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
      if let problem = currentOracle(bytes) { fatalError(problem) }
      return 0
    })
}
