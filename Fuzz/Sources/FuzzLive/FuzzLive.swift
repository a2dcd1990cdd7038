import FuzzDriver
import SegueFuzzOracles

/// libFuzzer target: every input goes through `FuzzOracles.liveBatch(_:)`.
@main
enum FuzzLiveMain {
  static func main() { runFuzzer(FuzzOracles.liveBatch) }
}
