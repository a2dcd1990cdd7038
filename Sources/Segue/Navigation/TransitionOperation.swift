/// What a transition does to the navigation state.
public enum TransitionOperation: String, Hashable, Sendable, CaseIterable {
  case push
  case pop
  case present
  case dismiss
  case tabSwitch = "tab-switch"
}
