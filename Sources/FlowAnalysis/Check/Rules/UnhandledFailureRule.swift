import FlowExpression
import FlowFormat

/// Awaited actions whose failure leaves the user on a screen with no other way forward.
public struct UnhandledFailureRule: LintRule {
  public init() {}
  public let id = "check.unhandled-failure"
  public let summary = "an awaited action has no onFailure and its screen has no other way forward"
  public let severity = Severity.warning
  public let details =
    "A failed action result stays on the screen showing the error. Without `onFailure` and without another forward control (a second button, a skip control), a user whose action keeps failing is stuck."
  public let triggeringExample = Example.flow([
    Example.screen(
      "signin", "welcome",
      [
        Example.button(
          "apple", "Sign in with Apple", action: #"{"type": "custom", "identifier": "auth.apple", "awaitResult": true}"#
        )
      ]),
    Example.screen("done", "celebration", [Example.button("go")]),
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "signin", "welcome",
      [
        Example.button(
          "apple", "Sign in with Apple",
          action:
            #"{"type": "custom", "identifier": "auth.apple", "awaitResult": true, "onFailure": {"type": "screen", "screenId": "done"}}"#
        )
      ]),
    Example.screen("done", "celebration", [Example.button("go")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    // Controls are made when asked for: only for the screens whose controls await.
    for node in context.dense.nodes where context.graph.awaitingScreens.contains(node) {
      let screen = context.graph.screen(node)
      let controls = context.graph.controls[node] ?? []
      for (index, control) in controls.enumerated() {
        guard case .custom(let custom) = control.action, custom.awaitResult, custom.onFailure == nil else { continue }
        let others = controls.enumerated().contains { other in
          other.offset != index && Self.leaves(other.element.action)
        }
        guard !others else { continue }
        diagnostics.append(
          context.diagnostic(
            self,
            "action '\(custom.identifier)' on screen '\(screen.id)' has no onFailure and the screen has no other way forward",
            at: control.location,
            notes: [Diagnostic.Note("after a failure the screen stays; add onFailure or a skip control")]))
      }
    }
    return diagnostics
  }

  /// Whether an action leaves the screen without depending on an action result.
  static func leaves(_ action: Action) -> Bool {
    switch action {
    case .next, .screen, .complete, .skip, .dismiss, .unknown: true
    case .previous, .openURL, .custom, .back, .set, .emit, .branch, .experiment, .wait, .step: false
    case .sequence(let actions): actions.contains(where: leaves)
    }
  }
}
