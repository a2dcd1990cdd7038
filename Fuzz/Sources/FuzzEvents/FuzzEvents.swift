import FuzzDriver

/// libFuzzer target: every input goes through `FuzzOracles.events(_:)`.
@main
enum FuzzEventsMain {
  static func main() { runFuzzer(FuzzOracles.events) }
}
