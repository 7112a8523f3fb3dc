import FlowGenerator
import Foundation

/// Seeded edits of a generated flow or bundle that make the lint rules speak: jumps that skip
/// collecting screens, renamed fields (typos), reads of fields from anywhere, of result data
/// and behind `default`, awaited actions that may supply result data. The generator's own
/// flows are lint-clean on purpose; these are not.
struct FlowMutator {
  struct Rates {
    var jump = 0.1
    var rename = 0.05
    var read = 0.15
    var await = 0.05
  }

  private var random: SplitMix64
  let rates: Rates

  init(seed: UInt64, rates: Rates = Rates()) {
    random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
    self.rates = rates
  }

  private mutating func next() -> UInt64 { random.next() }

  private mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) < p * 1_000_000 }

  private mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

  /// The edited JSON text.
  mutating func mutate(_ json: [UInt8]) throws -> [UInt8] {
    guard var root = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return json }
    var fields: [String] = []
    func collectFields(_ flow: [String: Any]) {
      for screen in flow["screens"] as? [[String: Any]] ?? [] {
        let blocks = (screen["content"] as? [String: Any])?["blocks"] as? [[String: Any]] ?? []
        for block in blocks {
          if let field = (block["content"] as? [String: Any])?["fieldName"] as? String { fields.append(field) }
        }
      }
    }
    if var flows = root["flows"] as? [String: Any] {
      for key in flows.keys.sorted() { collectFields(flows[key] as? [String: Any] ?? [:]) }
      for key in flows.keys.sorted() { flows[key] = mutate(flow: flows[key] as? [String: Any] ?? [:], fields: fields) }
      root["flows"] = flows
    } else {
      collectFields(root)
      root = mutate(flow: root, fields: fields)
    }
    return Array(try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]))
  }

  private mutating func mutate(flow: [String: Any], fields: [String]) -> [String: Any] {
    var flow = flow
    var screens = flow["screens"] as? [[String: Any]] ?? []
    let ids = screens.compactMap { $0["id"] as? String }
    for index in screens.indices {
      var screen = screens[index]
      if chance(rates.jump), screen["next"] == nil, index + 2 < ids.count {
        screen["next"] = ids[min(ids.count - 1, index + 2 + Int(next() % 5))]
      }
      if chance(rates.await) {
        screen["onEnter"] = [
          "type": "custom", "identifier": "auth.\(index)", "awaitResult": true, "onFailure": ["type": "next"],
        ]
      }
      var content = screen["content"] as? [String: Any] ?? [:]
      var blocks = content["blocks"] as? [[String: Any]] ?? []
      for b in blocks.indices {
        var block = blocks[b]
        var body = block["content"] as? [String: Any] ?? [:]
        if let field = body["fieldName"] as? String, chance(rates.rename) {
          body["fieldName"] = chance(0.5) ? field + "x" : "other_\(next() % 1000)"
        }
        if block["type"] as? String == "text", chance(rates.read), !fields.isEmpty {
          let name = pick(fields)
          let read =
            switch next() % 5 {
            case 0: "{\(name) | default: 'you'}"
            case 1: "{result_\(next() % 4)}"
            case 2: "{\(name.dropLast())}"
            default: "{\(name)}"
            }
          body["text"] = ((body["text"] as? String) ?? "") + " " + read
          if chance(0.2) { block["visibleWhen"] = "is_set(\(name))" }
        }
        block["content"] = body
        blocks[b] = block
      }
      if !blocks.isEmpty { content["blocks"] = blocks }
      screen["content"] = content
      screens[index] = screen
    }
    flow["screens"] = screens
    return flow
  }
}
