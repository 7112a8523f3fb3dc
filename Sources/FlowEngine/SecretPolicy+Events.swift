import FlowExpression
import FlowFormat
import OrderedCollections

extension SecretPolicy {
  /// The event as it may be shown or stored: the collected data of `onboarding_completed` and
  /// the result data of `action_result` (merged into the collected data) with secrets masked.
  /// Other events carry no field values (labels are rendered with secrets masked already).
  public func event(_ event: Event) -> Event {
    guard masks else { return event }
    let key: String
    switch event.type {
    case .onboardingCompleted: key = "collected_data"
    case .actionResult: key = "data"
    default: return event
    }
    guard let value = event.property(key) else { return event }
    let masked = data(value)
    guard masked != value else { return event }
    var copy = event
    copy.properties[key] = masked
    return copy
  }
}
