// libFuzzer target: every input goes through FuzzOracles.spec(_:); a violated oracle traps,
// so libFuzzer records the input as a crash.

#if canImport(Glibc)
  import Glibc
#endif

/// One input.
func fuzzSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  if let problem = FuzzOracles.spec(bytes) { fatalError(problem) }
  return 0
}

/// libFuzzer's driver (in the runtime linked by `-sanitize=fuzzer`).
@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point: hands the command line to libFuzzer (SwiftPM gives every executable its own
/// `main`, so the runtime's is not used).
@main
enum FuzzSpecMain {
  static func main() {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(llvmFuzzerRunDriver(&argc, &argv) { data, size in fuzzSpec(data, size) })
  }
}
