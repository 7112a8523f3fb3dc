import FlowExpression
import FlowFormat
import OrderedCollections

extension Input {
  /// `:track NAME` / a script's `track:`: an event type by its wire or Swift name, else an
  /// event of the flow's own vocabulary under `name` (refused outside Nuxie flows).
  public static func track(named name: String, properties: OrderedDictionary<String, Value>) -> Input {
    guard let type = EventType.named(name) else { return .track(.flowEvent, properties: properties, name: name) }
    return .track(type, properties: properties)
  }
}

extension EventType {
  /// The event type a host names in `track` (document 000: `track(_ eventType:screenId:properties:)`):
  /// the wire name (`screen_completed`) or the Swift SDK's case name (`screenCompleted`).
  public static func named(_ name: String) -> EventType? {
    let trimmed = name.hasPrefix(".") ? String(name.dropFirst()) : name
    return EventType(rawValue: trimmed) ?? allCases.first { $0.caseName == trimmed }
  }

  /// `screenCompleted` for `screen_completed`.
  public var caseName: String {
    let words = rawValue.split(separator: "_")
    return words.enumerated().map {
      $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
    }
    .joined()
  }

  /// Why `name` is no event type, with the closest one: for `:track` and a script's `track:`.
  public static func unknownMessage(_ name: String) -> String {
    var message = "unknown event type '\(name)'"
    if let guess = closestMatch(to: name, in: allCases.map(\.rawValue) + allCases.map(\.caseName), maxDistance: 4) {
      message += " (did you mean '\(EventType.named(guess)?.rawValue ?? guess)'?)"
    }
    return message + "; event types: " + allCases.map(\.rawValue).joined(separator: ", ")
  }
}
