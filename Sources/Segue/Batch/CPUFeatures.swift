import SegueSIMDSupport

/// The SIMD features relevant to the batch kernel: what the running CPU supports and what the
/// Swift code of this module was compiled to use.
public struct CPUFeatures: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The feature bits (the `SEGUE_FEATURE_*` values of the C shim).
  public let rawValue: UInt32
  /// Creates a set from its bits (the `SEGUE_FEATURE_*` values of the C shim).
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// SSE 4.2 (x86).
  public static let sse42 = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_SSE4_2))
  /// AVX (x86).
  public static let avx = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_AVX))
  /// AVX2 (x86).
  public static let avx2 = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_AVX2))
  /// FMA3 (x86).
  public static let fma = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_FMA))
  /// AVX-512 Foundation (x86).
  public static let avx512f = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_AVX512F))
  /// AVX-512 Vector Length extensions (x86).
  public static let avx512vl = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_AVX512VL))
  /// Advanced SIMD (AArch64).
  public static let neon = CPUFeatures(rawValue: UInt32(SEGUE_FEATURE_NEON))

  /// What the run-time dispatch may use: what the running CPU supports
  /// (`__builtin_cpu_supports`, asked once), limited by the environment variable `SEGUE_CPU`
  /// (read once): `avx512` (no limit), `avx2` (no AVX-512), `baseline` (x86-64's SSE2: no SSE4.2,
  /// AVX, AVX2, FMA or AVX-512). Every kernel chosen at run time follows it, so a test can force
  /// each path the machine offers.
  public static let runtime = CPUFeatures(rawValue: segue_runtime_features())

  /// What the running CPU supports, whatever `SEGUE_CPU` says.
  public static let detected = CPUFeatures(rawValue: segue_detected_features())

  /// What the `Segue` module's Swift code was compiled for: the predefined target macros as the
  /// Clang importer sees them with this module's options, so `-Xswiftc -target-cpu -Xswiftc native`
  /// on an AVX-512 machine gives `[sse42, avx, avx2, fma, avx512f, avx512vl]` and a default x86-64
  /// build gives `[]` (SSE2 only).
  public static let compiled = CPUFeatures(rawValue: segue_compiled_features())

  /// The names of the features in the set, e.g. `"avx2 fma avx512f"`, or `"none"`.
  public var description: String {
    let names: [(CPUFeatures, String)] = [
      (.sse42, "sse4.2"), (.avx, "avx"), (.avx2, "avx2"), (.fma, "fma"),
      (.avx512f, "avx512f"), (.avx512vl, "avx512vl"), (.neon, "neon"),
    ]
    let present = names.filter { contains($0.0) }.map(\.1)
    return present.isEmpty ? "none" : present.joined(separator: " ")
  }
}
