import FlowEngine
import FlowExpression
import FlowFormat

extension ScriptStep {
  /// The engine inputs this step sends to `session`, in order: the one mapping from script
  /// steps to inputs, used by `flowrun test` and by `flowrun run --answers`. `set` of a field
  /// that is not on the current screen sets a variable; `expect` and `snapshot` send nothing.
  /// A secret field given a placeholder (a recorded secret) gets a stand-in (`SecretStandIn`).
  public func inputs(on session: Session) -> [Input] {
    func value(_ item: FieldValue) -> Value {
      guard session.secrets.isSecret(item.field), let outcome = SecretStandIn.outcome(of: item.value) else {
        return item.value
      }
      return SecretStandIn.value(for: item.field, outcome: outcome, on: session)
    }
    switch kind {
    case .tap(let selector): return [.tap(selector)]
    case .fill(let fields): return fields.map { .set(field: $0.field, value: value($0)) }
    case .set(let fields):
      let screenFields = Set(session.currentScreen.content.flatBlocks.compactMap(\.fieldName))
      return fields.map {
        screenFields.contains($0.field)
          ? .set(field: $0.field, value: value($0)) : .setVariable(name: $0.field, value: value($0))
      }
    case .select(let picks): return picks.map { .pick(field: $0.field, items: $0.items) }
    case .result(let result): return [.result(result)]
    case .next: return [.next]
    case .back: return [.back]
    case .skip: return [.skip]
    case .dismiss: return [.dismiss]
    case .complete: return [.complete]
    case .wait(let ms): return [.wait(ms: ms)]
    case .goto(let screen): return [.goto(screenID: screen)]
    case .expect, .snapshot: return []
    }
  }
}
