import FlowExpression
import OrderedCollections

/// Nuxie's era C flow description (`screens` with `handlers`, research §1.3) read into the
/// era B compiler's terms: handlers are event interactions (the journey host `__journey__` is
/// `__global__`), the events a screen declares (but `$…` system events) are its controls, and `viewModelValues` are the
/// values the session starts with.
extension DecodeContext {
  /// The era C parts the RemoteFlow compiler reads.
  struct NuxieDescription {
    var interactions: [String: [NuxieInteraction]]
    var declared: (events: [String: Set<String>], journeyStrict: Bool)
    var controls: [String: [NuxieComponent]]
    var initialData: OrderedDictionary<String, Value>
  }

  static let journeyHost = "__journey__"

  mutating func nuxieDescription(_ object: JSONObject) -> NuxieDescription {
    let interactions = at("handlers") { $0.nuxieHandlers(object) }
    var events: [String: Set<String>] = [:]
    var controls: [String: [NuxieComponent]] = [:]
    at("events") { context in
      guard let value = object.lookup("events"), let byHost = context.object(value) else { return }
      for member in byHost.members {
        context.at(member.key) { context in
          let host = member.key == Self.journeyHost ? "__global__" : member.key
          events[host, default: []].formUnion([])  // declared, even when empty
          for (index, item) in (member.value.arrayValue ?? []).enumerated() {
            context.at(.index(index)) { context in
              guard let event = context.object(item),
                let name = context.requiredString(event, "eventName", in: "a declared event", at: item.location)
              else { return }
              events[host, default: []].insert(name)
              // System events (`$purchase_completed`, …) are declared to be received, not sent.
              if host != "__global__", !name.hasPrefix("$"),
                controls[host]?.contains(where: { $0.id == name }) != true
              {
                controls[host, default: []].append(NuxieComponent(id: name, label: name, location: item.location))
              }
            }
          }
        }
      }
    }
    let journeyStrict = object.lookup("events")?.objectValue?[Self.journeyHost] != nil
    if let scripts = object.member("scripts"), scripts.value.objectValue?.members.isEmpty == false {
      warning(.Nuxie.notRunYet, "screen scripts (Luau) are accepted and not run", at: scripts.keyLocation)
    }
    return NuxieDescription(
      interactions: interactions, declared: (events, journeyStrict), controls: controls,
      initialData: at("viewModelValues") { $0.nuxieViewModelValues(object) })
  }

  /// `handlers {host: [{id, eventName, enabled?, order?, actions}]}`, each host's sorted by
  /// `order` (else position; ties by position).
  private mutating func nuxieHandlers(_ object: JSONObject) -> [String: [NuxieInteraction]] {
    guard let value = object.lookup("handlers"), let byHost = self.object(value) else { return [:] }
    var result: [String: [NuxieInteraction]] = [:]
    for member in byHost.members {
      at(member.key) { context in
        guard let list = member.value.arrayValue else {
          context.mismatch(member.value, expected: "an array of handlers")
          return
        }
        var handlers: [(order: Double, position: Int, handler: NuxieInteraction)] = []
        for (index, item) in list.enumerated() {
          context.at(.index(index)) { context in
            guard let handler = context.object(item) else { return }
            if context.bool(handler, "enabled") == false { return }
            guard let name = context.requiredString(handler, "eventName", in: "a handler", at: item.location) else {
              return
            }
            handlers.append(
              (
                handler.numberValue("order") ?? Double(index), index,
                NuxieInteraction(
                  id: context.string(handler, "id") ?? "\(member.key).\(index)", trigger: "event", eventName: name,
                  actions: context.array(handler, "actions") ?? [], location: item.location)
              ))
          }
        }
        let host = member.key == Self.journeyHost ? "__global__" : member.key
        result[host] = handlers.sorted { ($0.order, $0.position) < ($1.order, $1.position) }.map(\.handler)
      }
    }
    return result
  }

  /// `viewModelValues [{viewModelName, path "a.b", value}]`: each value at its path under the
  /// view model's name (a nested instance link `{vmInstanceId}` is kept as written).
  private mutating func nuxieViewModelValues(_ object: JSONObject) -> OrderedDictionary<String, Value> {
    var data: Value = .object([:])
    for (index, item) in (array(object, "viewModelValues") ?? []).enumerated() {
      at(.index(index)) { context in
        guard let entry = context.object(item),
          let model = context.requiredString(entry, "viewModelName", in: "a view-model value", at: item.location),
          let path = context.requiredString(entry, "path", in: "a view-model value", at: item.location)
        else { return }
        let keys = [model] + path.split(separator: ".").map(String.init)
        data = Self.setting(data, keys[...], to: entry.lookup("value").map(Value.init) ?? .null)
      }
    }
    if case .object(let values) = data { return values }
    return [:]
  }

  /// `root` with `value` at `path`, making the objects on the way (a non-object on the way is
  /// replaced).
  private static func setting(_ root: Value, _ path: ArraySlice<String>, to value: Value) -> Value {
    guard let key = path.first else { return value }
    var object: OrderedDictionary<String, Value> = [:]
    if case .object(let existing) = root { object = existing }
    object[key] = setting(object[key] ?? .null, path.dropFirst(), to: value)
    return .object(object)
  }

  /// The entry (research §1.3): the journey handlers of `$app_opened` when there are any,
  /// else those of the first journey handler's event — among the events the journey may take
  /// (`eventHosts`), and not `$screen_shown`/`$screen_dismissed`, which run as screens change.
  static func nuxieEntryHandlers(_ interactions: [String: [NuxieInteraction]], scope: NuxieScope) -> [NuxieInteraction]
  {
    let journey = (interactions["__global__"] ?? []).filter {
      guard let name = $0.eventName else { return false }
      return !lifecycleEvents.contains(name) && scope.eventHosts(name) == ["__global__"]
    }
    guard
      let name = journey.contains(where: { $0.eventName == "$app_opened" }) ? "$app_opened" : journey.first?.eventName
    else { return [] }
    return journey.filter { $0.eventName == name }
  }

  static let lifecycleEvents: Set<String> = ["$screen_shown", "$screen_dismissed"]
}
