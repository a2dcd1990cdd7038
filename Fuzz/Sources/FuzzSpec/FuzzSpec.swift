import FuzzDriver
import SegueFuzzOracles

/// libFuzzer target: every input goes through `FuzzOracles.spec(_:)`.
@main
enum FuzzSpecMain {
  static func main() { runFuzzer(FuzzOracles.spec) }
}
