// libFuzzer entry point: one input through FuzzOracles.json(_:); a violation traps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  if let problem = FuzzOracles.json(bytes) { fatalError(problem) }
  return 0
}
