import Foundation
import Segue

/// A parsed JSON value (for reading input files key by key, with exact type checks).
enum JSONValue: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: Key.self) {
      var pairs: [(String, JSONValue)] = []
      for key in object.allKeys {
        pairs.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
      }
      self = .object(pairs)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var items: [JSONValue] = []
      while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
      self = .array(items)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let b = try? single.decode(Bool.self) {
      self = .bool(b)
    } else if let d = try? single.decode(Double.self) {
      self = .number(d)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  /// The type's name in messages.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// An interactive script (`--events FILE`): the calls made on a percent-driven transition.
///
/// The file is either an array of events or an object
/// `{"events": [...], "wantsInteractiveStart": bool, "completionSpeed": s, "completionCurve": c}`.
/// Each event is `{"time": t, ACTION}` with exactly one action:
/// `"update": p`, `"pause": true`, `"finish": SETTINGS`, `"cancel": SETTINGS`, where SETTINGS is
/// `true`, `{}` or `{"completionSpeed": s, "completionCurve": c}` (set just before the call).
/// Times are wall-clock seconds, finite, `≥ 0` and non-decreasing.
struct EventsScript {
  /// One call.
  enum Action {
    case update(Double)
    case pause
    case finish(speed: Double?, curve: TimingFunction?)
    case cancel(speed: Double?, curve: TimingFunction?)
  }

  /// A call at a time.
  struct Event {
    var time: Double
    var action: Action
    /// The JSON path of the event (`$[2]` or `$.events[2]`).
    var path: String
  }

  var wantsInteractiveStart = true
  var completionSpeed: Double?
  var completionCurve: TimingFunction?
  var events: [Event] = []

  /// The argument errors are reported on.
  static let argument = "--events"

  private static func error(_ path: String, _ message: String) -> CLIError {
    CLIError(.dataError, argument, "\(path): \(message)")
  }

  /// Parses the file's bytes.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `--events` and the JSON path.
  init(json data: Data) throws(CLIError) {
    let root: JSONValue
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw Self.error("$", "malformed JSON: \(Self.describe(error, data: data))")
    }
    switch root {
    case .array(let items):
      try parseEvents(items, path: "$")
    case .object(let pairs):
      var sawEvents = false
      for (key, value) in pairs {
        let path = "$.\(key)"
        switch key {
        case "events":
          guard case .array(let items) = value else {
            throw Self.error(path, "must be an array, got \(value.typeName)")
          }
          try parseEvents(items, path: path)
          sawEvents = true
        case "wantsInteractiveStart":
          guard case .bool(let b) = value else {
            throw Self.error(path, "must be a boolean, got \(value.typeName)")
          }
          wantsInteractiveStart = b
        case "completionSpeed":
          completionSpeed = try Self.speed(value, path: path)
        case "completionCurve":
          completionCurve = try Self.curve(value, path: path)
        default:
          throw Self.error(
            path,
            "unknown key '\(key)'; expected events, wantsInteractiveStart, completionSpeed, "
              + "completionCurve")
        }
      }
      guard sawEvents else { throw Self.error("$", "missing key 'events'") }
    default:
      throw Self.error("$", "must be an array of events or an object, got \(root.typeName)")
    }
  }

  /// A decoding error in words: JSONDecoder says only "not valid JSON", so ask
  /// JSONSerialization where the parse failed ("Invalid value around character 8.").
  private static func describe(_ error: any Error, data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      if let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String {
        return text
      }
    }
    if let error = error as? DecodingError, case .dataCorrupted(let context) = error {
      return context.debugDescription
    }
    return "\(error)"
  }

  private mutating func parseEvents(_ items: [JSONValue], path base: String) throws(CLIError) {
    var previous: Double?
    for (i, item) in items.enumerated() {
      let path = "\(base)[\(i)]"
      guard case .object(let pairs) = item else {
        throw Self.error(path, "an event must be an object, got \(item.typeName)")
      }
      var time: Double?
      var action: Action?
      for (key, value) in pairs {
        let keyPath = "\(path).\(key)"
        if key == "time" {
          guard case .number(let t) = value else {
            throw Self.error(keyPath, "must be a number, got \(value.typeName)")
          }
          guard t.isFinite else { throw Self.error(keyPath, "\(t) is not finite") }
          guard t >= 0 else { throw Self.error(keyPath, "\(decimal(t)) is negative") }
          time = t
          continue
        }
        let parsed: Action
        switch key {
        case "update":
          guard case .number(let p) = value else {
            throw Self.error(keyPath, "must be a number (percentComplete), got \(value.typeName)")
          }
          guard p.isFinite else { throw Self.error(keyPath, "\(p) is not finite") }
          parsed = .update(p)
        case "pause":
          guard case .bool(true) = value else {
            throw Self.error(keyPath, "must be true, got \(Self.show(value))")
          }
          parsed = .pause
        case "finish", "cancel":
          let (speed, curve) = try Self.settings(value, path: keyPath)
          parsed =
            key == "finish"
            ? .finish(speed: speed, curve: curve) : .cancel(speed: speed, curve: curve)
        default:
          throw Self.error(
            keyPath, "unknown key '\(key)'; expected time and one of update, pause, finish, cancel")
        }
        guard action == nil else {
          throw Self.error(
            path, "has more than one action; give exactly one of update, pause, finish, cancel")
        }
        action = parsed
      }
      guard let time else { throw Self.error(path, "missing key 'time'") }
      guard let action else {
        throw Self.error(path, "missing an action: one of update, pause, finish, cancel")
      }
      if let previous, time < previous {
        throw Self.error(
          "\(path).time",
          "\(decimal(time)) is before the previous event (\(decimal(previous)))")
      }
      previous = time
      events.append(Event(time: time, action: action, path: path))
    }
  }

  private static func show(_ value: JSONValue) -> String {
    if case .bool(let b) = value { return "\(b)" }
    return value.typeName
  }

  private static func speed(_ value: JSONValue, path: String) throws(CLIError) -> Double {
    guard case .number(let s) = value else {
      throw error(path, "must be a number, got \(value.typeName)")
    }
    guard s.isFinite && s > 0 else {
      throw error(path, "must be finite and greater than 0 (got \(decimal(s)))")
    }
    return s
  }

  private static func curve(_ value: JSONValue, path: String) throws(CLIError) -> TimingFunction {
    let text: String
    switch value {
    case .string(let s): text = s
    case .array(let items):
      var numbers: [Double] = []
      for item in items {
        guard case .number(let n) = item else {
          throw error(path, "a control point list must hold 4 numbers")
        }
        numbers.append(n)
      }
      guard numbers.count == 4 else {
        throw error(path, "a control point list must hold 4 numbers, got \(numbers.count)")
      }
      text = numbers.map(decimal).joined(separator: ",")
    default:
      throw error(
        path,
        "must be a timing function name, cubic-bezier(…) string or [x1, y1, x2, y2], got "
          + value.typeName)
    }
    do {
      return try parseTimingFunction(text)
    } catch {
      switch error {
      case .malformed(let message): throw Self.error(path, message)
      case .invalid(let e): throw Self.error(path, e.description)
      }
    }
  }

  private static func settings(_ value: JSONValue, path: String) throws(CLIError) -> (
    Double?, TimingFunction?
  ) {
    switch value {
    case .bool(true): return (nil, nil)
    case .object(let pairs):
      var speed: Double?
      var curve: TimingFunction?
      for (key, v) in pairs {
        switch key {
        case "completionSpeed": speed = try Self.speed(v, path: "\(path).\(key)")
        case "completionCurve": curve = try Self.curve(v, path: "\(path).\(key)")
        default:
          throw error(
            "\(path).\(key)",
            "unknown key '\(key)'; expected completionSpeed, completionCurve")
        }
      }
      return (speed, curve)
    default:
      throw error(path, "must be true or an object of completion settings, got \(show(value))")
    }
  }

  /// The library timeline for a transition of `duration` seconds.
  ///
  /// - Throws: ``CLIError`` naming `--events` and the event's path for what the library rejects
  ///   (an update after a finish, a second finish or cancel, …).
  func timeline(duration: Double) throws(CLIError) -> InteractionTimeline {
    var timeline: InteractionTimeline
    do {
      timeline = try InteractionTimeline(
        duration: duration, completionSpeed: completionSpeed ?? 1,
        completionCurve: completionCurve ?? .easeInEaseOut,
        wantsInteractiveStart: wantsInteractiveStart)
    } catch {
      throw Self.error("$", error.description)
    }
    for event in events {
      do {
        switch event.action {
        case .update(let p): try timeline.append(.update(time: event.time, percent: p))
        case .pause: try timeline.append(.pause(time: event.time))
        case .finish(let speed, let curve), .cancel(let speed, let curve):
          if let speed { try timeline.setCompletionSpeed(speed) }
          if let curve { try timeline.setCompletionCurve(curve) }
          if case .finish = event.action {
            try timeline.append(.finish(time: event.time))
          } else {
            try timeline.append(.cancel(time: event.time))
          }
        }
      } catch {
        if case .invalidState(let text) = error.reason {
          throw Self.error(event.path, text)
        }
        var unindexed = error
        unindexed.index = nil
        throw Self.error(event.path, unindexed.description)
      }
    }
    return timeline
  }
}
