import FuzzDriver
import SegueFuzzOracles

/// libFuzzer target: every input goes through `FuzzOracles.json(_:)`.
@main
enum FuzzJSONMain {
  static func main() { runFuzzer(FuzzOracles.json) }
}
