import FlowExpression
import FlowFormat

/// Screens with no way forward that do not complete the flow.
public struct DeadEndRule: LintRule {
  public init() {}
  public let id = "check.dead-end"
  public let summary = "a screen has no way forward and does not complete the flow"
  public let severity = Severity.error
  public let details =
    "A screen whose controls only go back, open URLs or fire actions that never route anywhere (an awaited action whose onSuccess goes back, a block screen without buttons) traps the user; only dismissing the whole run is left."
  public let triggeringExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen("stuck", "feature", [Example.button("back", "Back", action: #"{"type": "previous"}"#)]),
  ])
  public let cleanExample = Example.flow([
    Example.screen("welcome", "welcome", [Example.button("go")]),
    Example.screen(
      "last", "feature",
      [Example.button("back", "Back", action: #"{"type": "previous"}"#), Example.button("done", "Done")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    let graph = context.graph
    return context.dense.nodes.filter { !graph.hasExit($0) }.map { node in
      let screen = graph.screen(node)
      let controls = graph.controls[node] ?? []
      let note: String
      if controls.isEmpty {
        note = "it has no buttons, no auto-advancing checklist, no skip control and no onEnter"
      } else {
        let described = controls.map { control -> String in
          switch control.kind {
          case .button(let id, _): "button '\(id)' (\(control.action.typeName))"
          case .checklist(let field): "checklist '\(field)' (\(control.action.typeName))"
          case .skip: "skip (\(control.action.typeName))"
          case .onEnter: "onEnter (\(control.action.typeName))"
          default: "\(control.kind)"
          }
        }
        note = "its controls do not leave it: " + described.joined(separator: ", ")
      }
      return context.diagnostic(
        self, "screen '\(screen.id)' has no way forward and does not complete the flow", at: screen.location,
        notes: [Diagnostic.Note(note)])
    }
  }
}
