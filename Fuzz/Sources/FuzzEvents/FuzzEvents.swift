import FuzzDriver
import SegueFuzzOracles

/// libFuzzer target: every input goes through `FuzzOracles.events(_:)`.
@main
enum FuzzEventsMain {
  static func main() { runFuzzer(FuzzOracles.events) }
}
