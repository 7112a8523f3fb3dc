import FlowExpression

/// A `paywall_trigger` graph node → an awaited host action `paywall.<paywall_id>` whose three
/// outcomes route as the SDK's `presentPaywallTrigger` does: purchased → `on_success_target`
/// (default `continue`), payment failed → `on_fail_target` (default `stay`), dismissed →
/// `on_dismiss_target` (default: the legacy `on_dismiss`, `block`/`skip_to_end` completing).
extension DecodeContext {
  /// `subscribedSkip`: what a subscribed user gets instead (nil: the paywall is always shown).
  mutating func appdnaPaywall(
    _ nodeID: String, step: AppDNAStepContext, visiting: inout Set<String>, subscribedSkip: inout Action?,
    at location: SourceLocation
  ) -> Action {
    let node = step.graphNodes?.lookup(nodeID)?.objectValue
    // Empty strings count as unset (the SDK's `nonEmpty`).
    func text(_ key: String) -> String? {
      node?.lookup(key)?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
    guard let paywall = text("paywall_id") ?? text("paywallId") else {
      warning(
        .AppDNA.unknownTarget, "paywall node '\(nodeID)' has no 'paywall_id'; it completes the flow", at: location)
      return .complete
    }
    guard visiting.insert(nodeID).inserted else {
      warning(
        .AppDNA.unknownTarget, "paywall node '\(nodeID)' routes back to itself; that route completes", at: location)
      return .complete
    }
    let flowID = Value.string(step.flowID)
    let paywallID = Value.string(paywall)
    let nodeLocation = step.graphNodes?.lookup(nodeID)?.location ?? location
    func completes(_ reason: String) -> Action {
      .sequence([
        .emit(
          name: "onboarding_completed",
          properties: ["flow_id": flowID, "paywall_id": paywallID, "completed_via": .string(reason)]),
        .complete,
      ])
    }
    func target(_ id: String) -> Action {
      if step.stepIDs.contains(id) { return .screen(id) }
      let type = step.graphNodes?.lookup(id)?.objectValue?.lookup("type")?.stringValue
      if id.hasPrefix("end_") || type == "end" { return .complete }
      if id.hasPrefix("paywall_trigger_") || type == "paywall_trigger" {
        var chainedSkip: Action?  // a chained paywall is presented (F)
        return appdnaPaywall(id, step: step, visiting: &visiting, subscribedSkip: &chainedSkip, at: nodeLocation)
      }
      if let marker = Self.appdnaMarker(id) { return marker }
      // The SDK advances from the step; flowrun goes to the next step in order (or completes).
      let following = step.index + 1 < step.stepIDs.count ? step.stepIDs[step.index + 1] : nil
      report(
        .warning, .AppDNA.unknownTarget,
        "paywall node '\(nodeID)': no step or graph node '\(id)'; it goes on to \(following ?? "the end of the flow")",
        at: nodeLocation, notes: Self.didYouMean(id, step.stepIDs))
      return following.map(Action.screen) ?? .complete
    }
    func route(_ configured: String?, _ fallback: String, _ reason: String) -> Action {
      switch configured ?? fallback {
      case "stay":
        return .emit(
          name: "onboarding_paywall_stay",
          properties: ["flow_id": flowID, "paywall_id": paywallID, "reason": .string(reason)])
      case "complete_flow":
        return completes(reason)
      case "continue":
        return text("next_target").map(target) ?? completes(reason)
      case let chosen:
        return target(chosen)
      }
    }
    let legacy = text("on_dismiss") ?? "continue"
    let dismissDefault = legacy == "block" || legacy == "skip_to_end" ? "complete_flow" : "continue"
    let action = CustomAction(
      identifier: "paywall." + paywall, awaitResult: true,
      onSuccess: route(text("on_success_target"), "continue", "paywall_purchased"),
      onFailure: route(text("on_fail_target"), "stay", "paywall_payment_failed"),
      onCancel: route(text("on_dismiss_target"), dismissDefault, "paywall_dismissed"))
    // A subscribed user skips it (`skip_if_subscribed`, default true): `onboarding_paywall_skip`,
    // then `on_subscribed_skip_target`, else `on_success_target`, else `continue`.
    let skipsSubscribed = node?.lookup("skip_if_subscribed").map { $0.boolValue ?? ($0.stringValue != "false") } ?? true
    subscribedSkip =
      skipsSubscribed
      ? .sequence([
        .emit(
          name: "onboarding_paywall_skip",
          properties: ["flow_id": flowID, "paywall_id": paywallID, "reason": "user_already_subscribed"]),
        route(text("on_subscribed_skip_target") ?? text("on_success_target"), "continue", "user_already_subscribed"),
      ]) : nil
    visiting.remove(nodeID)
    return .custom(action)
  }
}
