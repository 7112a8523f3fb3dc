/// Where a navigation goes: a screen of the same flow, or the end of the flow (`$complete`).
public enum Target: Hashable, Sendable, CustomStringConvertible {
  case screen(String)
  case complete

  public init(_ raw: String) {
    self = raw == "$complete" ? .complete : .screen(raw)
  }

  public var description: String {
    switch self {
    case .screen(let id): id
    case .complete: "$complete"
    }
  }
}

/// What a button, checklist, skip control, `onEnter` or action outcome does.
public indirect enum Action: Hashable, Sendable {
  case next
  case previous
  case screen(String)
  case complete
  case skip
  case dismiss
  case openURL(String)
  case custom(CustomAction)
  /// An action type flowrun does not know; it runs as `next` (the Sequence Swift SDK's rule).
  case unknown(type: String)

  /// The action type as written in JSON, for events and traces.
  public var typeName: String {
    switch self {
    case .next: "next"
    case .previous: "previous"
    case .screen: "screen"
    case .complete: "complete"
    case .skip: "skip"
    case .dismiss: "dismiss"
    case .openURL: "openUrl"
    case .custom: "custom"
    case .unknown(let type): type
    }
  }
}

/// A `custom` action: work the host app does (sign-in, a permission prompt, a purchase).
public struct CustomAction: Hashable, Sendable {
  public var identifier: String
  public var awaitResult: Bool
  /// Routing once a result arrives; nil means the spec's default for that outcome.
  public var onSuccess: Action?
  public var onFailure: Action?
  public var onCancel: Action?

  public init(
    identifier: String,
    awaitResult: Bool = false,
    onSuccess: Action? = nil,
    onFailure: Action? = nil,
    onCancel: Action? = nil
  ) {
    self.identifier = identifier
    self.awaitResult = awaitResult
    self.onSuccess = onSuccess
    self.onFailure = onFailure
    self.onCancel = onCancel
  }

  /// Identifiers the Sequence documents define; any other identifier is host-defined.
  public static let builtInIdentifiers: Set<String> = [
    "auth.apple", "auth.google", "auth.email",
    "permission.notifications", "permission.location", "permission.locationAlways",
    "permission.camera", "permission.photos", "permission.tracking",
    "system.review", "system.openSettings",
  ]
}
