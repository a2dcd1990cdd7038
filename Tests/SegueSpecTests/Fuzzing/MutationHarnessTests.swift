import Foundation
import Segue
import SegueBenchSupport
import SegueFuzzOracles
import SegueSpec
import Testing

/// A deterministic mutation fuzzer in the test suite, for what CI runs (the libFuzzer targets in
/// `Fuzz/` run far longer, by hand): for each target (JSON parser, spec decoder, interaction
/// events) it mutates the committed seed corpus (`Fuzz/Corpus/<target>/`, plus the example specs
/// for the spec target) with a fixed seed and checks every input against ``FuzzOracles``: no
/// crash, every rejection a located ``SpecError``, every accepted input round-trips (and a spec
/// samples to finite numbers). Each input gets 1–4 stacked mutations: a flipped bit, a byte
/// replaced by a structural or digit byte, an inserted token (brackets, quotes, keywords, extreme
/// numbers, escapes, spec keys), a deleted or duplicated range, a number replaced by an extreme
/// one, or a splice from another seed.
@Suite("Mutation fuzzing (seeded)")
struct MutationHarnessTests {
  /// Mutations per target.
  static let iterations = 2_000

  /// The files of `target`'s seeds: every file of `Fuzz/Corpus/<target>/` (libFuzzer names its
  /// files by hash, without an extension), and for `spec` also the example specs.
  static func corpusFiles(_ target: String) throws -> [URL] {
    var urls = try FileManager.default.contentsOfDirectory(
      at: SpecTestSupport.packageRoot.appendingPathComponent("Fuzz/Corpus/\(target)"),
      includingPropertiesForKeys: nil)
    if target == "spec" {
      urls += try FileManager.default.contentsOfDirectory(
        at: SpecTestSupport.examplesDirectory, includingPropertiesForKeys: nil
      ).filter { $0.pathExtension == "json" }
    }
    return urls.filter { !$0.hasDirectoryPath }.sorted { $0.path < $1.path }
  }

  static func corpus(_ target: String) throws -> [[UInt8]] {
    try corpusFiles(target).map { [UInt8](try Data(contentsOf: $0)) }
  }

  /// Every committed corpus file is a seed: 104 JSON seeds, 4 of events, the 2 spec seeds with
  /// the 10 examples, and 6 live batch scripts.
  @Test func corpusReadsEveryCommittedFile() throws {
    for (target, count) in [("json", 104), ("events", 4), ("spec", 12), ("live", 6)] {
      #expect(try Self.corpusFiles(target).count == count, "\(target)")
    }
  }

  static let tokens: [String] = [
    "[", "]", "{", "}", ",", ":", "\"", "\\", "null", "true", "false", "\"infinity\"", "0", "-0",
    "1e308", "-1e308", "1e400", "1e-320", "3.4028234663852886e38", "9007199254740993", "-1",
    "0.5", "2", "1e100", "-1e100", "NaN", "\\u0000", "\\ud800", "\\udc00", "é", "\u{7F}",
    #""parent": "a""#, #""id": "a""#, #""keyPath": "transform""#, #""type": "keyframe""#,
    #""timingFunction": {"steps": 2, "position": "jumpNone"}"#, #""values": []"#,
    #""keyTimes": [0, 0, 1]"#, #""calculationMode": "cubicPaced""#, #""speed": 0"#,
    #""repeatCount": "infinity""#, #""fillMode": "both""#, #""duration": 1e-300"#,
    #""finish": {}"#, #""cancel": true"#, #""update": 2"#, #""time": -1"#, #"{"time": 0}"#,
  ]
  static let numbers = [
    "0", "-0", "1e308", "-1e308", "1e-320", "5e-324", "1e100", "-1e100", "3.4028234663852886e38",
    "0.999999999999", "1.0000000001", "-1", "2", "1e15", "123456789012345678901234567890",
  ]

  /// One mutated input from the seeds.
  static func mutate(_ seeds: [[UInt8]], _ rng: inout SplitMix64) -> [UInt8] {
    var data = seeds[rng.below(seeds.count)]
    for _ in 0..<(1 + rng.below(4)) {
      let n = data.count
      switch rng.below(8) {
      case 0 where n > 0:
        data[rng.below(n)] ^= UInt8(1) << UInt8(rng.below(8))
      case 1 where n > 0:
        let bytes = Array("{}[]\",:0123456789-+.eE\\ntfu \n".utf8)
        data[rng.below(n)] = bytes[rng.below(bytes.count)]
      case 2:
        data.insert(contentsOf: Array(tokens[rng.below(tokens.count)].utf8), at: rng.below(n + 1))
      case 3 where n > 0:
        let start = rng.below(n)
        data.removeSubrange(start..<min(n, start + 1 + rng.below(16)))
      case 4 where n > 0:
        let start = rng.below(n)
        let slice = data[start..<min(n, start + 1 + rng.below(64))]
        data.insert(contentsOf: slice, at: rng.below(n + 1))
      case 5, 6:
        // A number (a run of digits, signs, dots, exponents) replaced by an extreme one.
        let isNumeric: (UInt8) -> Bool = { b in
          (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x65 || b == 0x45
            || b == 0x2B
        }
        let starts = data.indices.filter {
          isNumeric(data[$0]) && ($0 == 0 || !isNumeric(data[$0 - 1]))
        }
        guard !starts.isEmpty else { break }
        let start = starts[rng.below(starts.count)]
        var end = start
        while end < n, isNumeric(data[end]) { end += 1 }
        data.replaceSubrange(start..<end, with: Array(numbers[rng.below(numbers.count)].utf8))
      default:
        let other = seeds[rng.below(seeds.count)]
        guard !other.isEmpty else { break }
        let start = rng.below(other.count)
        let slice = other[start..<min(other.count, start + 1 + rng.below(128))]
        data.insert(contentsOf: slice, at: rng.below(n + 1))
      }
    }
    return data
  }

  /// Runs `iterations` mutations of `target`'s seeds through `oracle` (the seeds first), and
  /// records each violation with the input that caused it.
  static func run(
    _ target: String, seed: UInt64, iterations: Int = iterations,
    _ oracle: ([UInt8]) -> String?
  ) throws -> (accepted: Int, rejected: Int) {
    let seeds = try corpus(target)
    #expect(!seeds.isEmpty)
    var rng = SplitMix64(state: seed)
    var accepted = 0
    var violations = 0
    for i in 0..<(seeds.count + iterations) {
      let input = i < seeds.count ? seeds[i] : mutate(seeds, &rng)
      if let problem = oracle(input) {
        violations += 1
        if violations <= 5 {
          Issue.record(
            "\(target) input \(i): \(problem)\n\(String(decoding: input, as: UTF8.self))")
        }
      } else if i < seeds.count {
        accepted += 1
      }
    }
    #expect(violations == 0)
    return (accepted, seeds.count + iterations - accepted)
  }

  @Test func jsonParser() throws {
    _ = try Self.run("json", seed: 0x4A53_4F4E, FuzzOracles.json)
  }

  /// Every committed spec seed (the examples and the corpus) is accepted; mutants are checked.
  @Test func specDecoder() throws {
    let seeds = try Self.corpus("spec")
    for (i, seed) in seeds.enumerated() {
      #expect(
        (try? loadSpec(String(decoding: seed, as: UTF8.self))) != nil, "spec seed \(i) rejected")
    }
    _ = try Self.run("spec", seed: 0x5350_4543, FuzzOracles.spec)
  }

  @Test func eventsDecoder() throws {
    let seeds = try Self.corpus("events")
    for (i, seed) in seeds.enumerated() {
      #expect(
        (try? SpecFile.decodeInteraction(
          text: String(decoding: seed, as: UTF8.self), duration: FuzzOracles.eventsDuration))
          != nil, "events seed \(i) rejected")
    }
    _ = try Self.run("events", seed: 0x4556_454E, FuzzOracles.events)
  }

  /// Live batch control: mutated scripts (every byte string is one; see
  /// `FuzzOracles.liveBatch`), fewer than for the readers since each call evaluates the batch
  /// twice in a debug build.
  @Test func liveBatchScripts() throws {
    _ = try Self.run("live", seed: 0x4C49_5645, iterations: 300, FuzzOracles.liveBatch)
  }

  /// The oracles themselves catch what they should: a syntax error without a location would be
  /// reported, and a mutant of a valid spec is still decoded or located.
  @Test func oraclesRejectUnlocatedErrors() {
    #expect(
      FuzzOracles.checkRejection(SpecError(path: "$", message: "x"), syntax: true) != nil)
    #expect(FuzzOracles.checkRejection(SpecError(path: "", message: "x"), syntax: false) != nil)
    #expect(FuzzOracles.checkRejection(SpecError(path: "$.a", message: ""), syntax: false) != nil)
    #expect(
      FuzzOracles.checkRejection(SpecError(line: 1, column: 2, message: "x"), syntax: true) == nil)
  }
}

extension SplitMix64 {
  /// A value in `0 ..< bound` (`bound ≥ 1`).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
