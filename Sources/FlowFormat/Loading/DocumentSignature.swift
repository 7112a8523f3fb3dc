/// The systems whose flow documents flowrun loads (`--dialect` forces one).
public enum Dialect: String, Hashable, Sendable, CaseIterable {
  case sequence
  case appdna
  case nuxie
}

/// What a document is, told by the keys only one system writes (issue #22, part 5), checked
/// before any decoding: a document of another system is named for what it is instead of being
/// misread (a Nuxie flow's `screens` read as Sequence screens gave "missing required key
/// 'content'").
///
/// | signature (in this order) | document |
/// |---|---|
/// | `campaigns` array | Nuxie campaigns / profile payload |
/// | `distinctId` or `userProperties` (and none of `screens`, `steps`, `flows`) | flowrun's Nuxie user profile (`campaign --profile`) |
/// | `schemaVersion` `nuxie.journey-release.v2` / `nuxie.experience-planes.v1` | Nuxie era E release, leg (runs) |
/// | `schemaVersion` `nuxie.experience-release.v1` | Nuxie era D experience release |
/// | `envelope.mediaType` `application/vnd.nuxie.journey+json` | signed Nuxie release |
/// | `start_screen_id`, or `screens[].screen_id` | AppDNA screens-module document |
/// | `screens` with `interactions`, `viewModels`, `viewModelInstances`, `converters`, `bundle` or `targets` | Nuxie `RemoteFlow` (runs) |
/// | `screens` with `handlers`, `events` (object), `scripts`, `flowArtifact` or `viewModelValues` | Nuxie era C flow description (runs) |
/// | `steps` | AppDNA onboarding flow |
/// | `onboarding` holding `flows` | AppDNA remote-config bundle |
/// | `flows` whose first flow has `steps`, or `active_flow_id` | AppDNA flows document |
/// | `screens` | Sequence flow |
/// | `flows` | Sequence bundle |
enum DocumentSignature: Equatable {
  case sequenceFlow
  case sequenceBundle
  case appdnaFlow
  case appdnaFlows
  case appdnaBundle
  case nuxieRemoteFlow
  case nuxieFlowDescription
  case nuxieRelease
  /// Recognised, but not a document flowrun runs: what it is, the key that tells, and the
  /// command that reads it when there is one.
  case foreign(what: String, evidence: String, reader: String? = nil)
  case unknown

  /// The `campaigns` array that makes a document a Nuxie campaigns payload.
  static func campaignsMember(_ object: JSONObject) -> JSONObject.Member? {
    guard let campaigns = object.member("campaigns"), campaigns.value.arrayValue != nil else { return nil }
    return campaigns
  }

  /// The key that makes a document (not a campaigns payload) flowrun's Nuxie user profile:
  /// `distinctId` or `userProperties`, with none of the flow keys.
  static func profileMember(_ object: JSONObject) -> JSONObject.Member? {
    guard object.member("screens") == nil, object.member("steps") == nil, object.member("flows") == nil else {
      return nil
    }
    return object.member("distinctId") ?? object.member("userProperties")
  }

  static func of(_ object: JSONObject) -> (signature: DocumentSignature, evidence: JSONObject.Member?) {
    if let campaigns = campaignsMember(object) {
      return (
        .foreign(
          what: "a Nuxie campaigns document", evidence: "'campaigns'",
          reader: "`flowrun campaign FILE` decides who sees which flow; `flowrun check FILE` lints it"), campaigns
      )
    }
    if let key = profileMember(object) {
      return (
        .foreign(
          what: "a Nuxie user profile", evidence: "'\(key.key)'",
          reader: "`flowrun campaign CAMPAIGNS --profile FILE` reads it; `flowrun check FILE` lints it"), key
      )
    }
    if let schema = object.member("schemaVersion"), let version = schema.value.stringValue,
      runnableNuxieSchemas.contains(version)
    {
      return (.nuxieRelease, schema)
    }
    if let schema = object.member("schemaVersion"), let version = schema.value.stringValue,
      let what = nuxieSchemas[version]
    {
      return (.foreign(what: what, evidence: "schemaVersion '\(version)'"), schema)
    }
    if let envelope = object.member("envelope"),
      envelope.value.objectValue?["mediaType"]?.stringValue == "application/vnd.nuxie.journey+json"
    {
      return (.foreign(what: "a signed Nuxie journey release document", evidence: "'envelope.mediaType'"), envelope)
    }
    let screens = object.member("screens")
    if let start = object.member("start_screen_id") {
      return (.foreign(what: "an AppDNA screens-module document", evidence: "'start_screen_id'"), start)
    }
    if let screens, screens.value.arrayValue?.contains(where: { $0.objectValue?["screen_id"] != nil }) == true {
      return (.foreign(what: "an AppDNA screens-module document", evidence: "'screens[].screen_id'"), screens)
    }
    if screens != nil {
      if let key = object.members.first(where: { remoteFlowKeys.contains($0.key) }) {
        return (.nuxieRemoteFlow, key)
      }
      if let key = object.members.first(where: {
        flowDescriptionKeys.contains($0.key) && ($0.key != "events" || $0.value.objectValue != nil)
      }) {
        return (.nuxieFlowDescription, key)
      }
    }
    if let steps = object.member("steps") { return (.appdnaFlow, steps) }
    if let onboarding = object.member("onboarding"), onboarding.value.objectValue?["flows"] != nil {
      return (.appdnaBundle, onboarding)
    }
    if let flows = object.member("flows") {
      if let active = object.member("active_flow_id") { return (.appdnaFlows, active) }
      let first: JSONValue? =
        switch flows.value.kind {
        case .object(let byID): byID.members.first?.value
        case .array(let items): items.first
        default: nil
        }
      if first?.objectValue?["steps"] != nil { return (.appdnaFlows, flows) }
    }
    if let screens { return (.sequenceFlow, screens) }
    if let flows = object.member("flows") { return (.sequenceBundle, flows) }
    return (.unknown, nil)
  }

  /// The dialect of a runnable signature.
  var dialect: Dialect? {
    switch self {
    case .sequenceFlow, .sequenceBundle: .sequence
    case .appdnaFlow, .appdnaFlows, .appdnaBundle: .appdna
    case .nuxieRemoteFlow, .nuxieFlowDescription, .nuxieRelease: .nuxie
    case .foreign, .unknown: nil
    }
  }

  /// What flowrun runs, for "supported: …".
  static let supported =
    "Sequence ('screens', 'flows'), AppDNA ('steps', 'active_flow_id', 'onboarding.flows'), "
    + "Nuxie flows ('interactions', 'viewModels', 'handlers') and releases "
    + "(schemaVersion nuxie.journey-release.v2, nuxie.experience-planes.v1)"

  /// Era E: a journey release and a bare leg run.
  static let runnableNuxieSchemas: Set<String> = ["nuxie.journey-release.v2", "nuxie.experience-planes.v1"]

  private static let nuxieSchemas = [
    "nuxie.experience-release.v1": "a Nuxie experience release (v1) document"
  ]

  private static let remoteFlowKeys: Set<String> = [
    "interactions", "viewModels", "viewModelInstances", "converters", "bundle", "targets",
  ]

  private static let flowDescriptionKeys: Set<String> = [
    "handlers", "events", "scripts", "flowArtifact", "viewModelValues",
  ]
}
