import FlowExpression
import OrderedCollections

/// The campaigns payload (`campaigns`, `segments`, `flows`), the profile and timeline lines.
extension DecodeContext {
  mutating func decodeCampaignSet(_ root: JSONValue, knownFlows: [String]?) -> CampaignSet? {
    guard let object = root.objectValue, let list = object.lookup("campaigns")?.arrayValue else {
      error(
        .Campaign.notCampaigns,
        "expected a Nuxie campaigns payload: an object with a 'campaigns' array (and 'segments', 'flows')",
        at: root.location)
      return nil
    }
    var segments: [Segment] = []
    var segmentIDs: [String: SourceLocation] = [:]
    for (index, item) in (array(object, "segments") ?? []).enumerated() {
      at("segments") {
        $0.at(.index(index)) { context in
          guard let segment = context.decodeSegment(item) else { return }
          context.checkUnique("segment", segment.id, at: item.location, among: &segmentIDs)
          segments.append(segment)
        }
      }
    }
    var flowIDs = knownFlows
    if let flows = array(object, "flows") {
      flowIDs = (flowIDs ?? []) + flows.compactMap { $0.objectValue?.lookup("id")?.stringValue }
    }
    var campaigns: [Campaign] = []
    var campaignIDs: [String: SourceLocation] = [:]
    for (index, item) in list.enumerated() {
      at("campaigns") {
        $0.at(.index(index)) { context in
          guard let campaign = context.decodeCampaign(item, flowIDs: flowIDs) else { return }
          context.checkUnique("campaign", campaign.id, at: item.location, among: &campaignIDs)
          campaigns.append(campaign)
        }
      }
    }
    let known = segments.map(\.id)
    for read in segmentReads where !known.contains(where: { $0.utf8.elementsEqual(read.target.utf8) }) {
      append(
        Diagnostic(
          .Campaign.unknownSegment,
          message: "\(read.what) names segment '\(read.target)', which the payload does not define "
            + "(it is a member only if the profile's memberships say so)",
          file: file, location: read.location, path: read.path, notes: Self.didYouMean(read.target, known)))
    }
    segmentReads.removeAll()
    return CampaignSet(campaigns: campaigns, segments: segments, flowIDs: flowIDs)
  }

  /// Reports an id seen before (with where it was first used), and remembers it.
  mutating func checkUnique(
    _ what: String, _ id: String, at location: SourceLocation, among seen: inout [String: SourceLocation]
  ) {
    if let first = seen[id] {
      report(
        .error, .Campaign.duplicateID, "\(what) id '\(id)' is used twice", at: location,
        notes: [Diagnostic.Note("first used here", at: first)])
    }
    seen[id] = seen[id] ?? location
  }

  mutating func decodeSegment(_ value: JSONValue) -> Segment? {
    guard let object = object(value),
      let id = requiredString(object, "id", in: "a segment", at: value.location),
      let raw = object.lookup("condition")
    else {
      if let object = value.objectValue, object.lookup("condition") == nil {
        error(.Load.missingKey, "a segment is missing required key 'condition'", at: value.location)
      }
      return nil
    }
    guard let condition = at("condition", { $0.irEnvelope(raw) }) else { return nil }
    return Segment(id: id, name: string(object, "name"), condition: condition)
  }

  mutating func decodeCampaign(_ value: JSONValue, flowIDs: [String]?) -> Campaign? {
    guard let object = object(value), let id = requiredString(object, "id", in: "a campaign", at: value.location)
    else { return nil }
    let owner = "campaign '\(id)'"
    let flowID = string(object, "flowId")
    if let flowID, let flowIDs, !flowIDs.contains(flowID) {
      at("flowId") {
        $0.report(
          .error, .Campaign.unknownFlow, "\(owner) presents flow '\(flowID)', which is not among the flows given",
          at: object.lookup("flowId")?.location, notes: Self.didYouMean(flowID, flowIDs))
      }
    }
    guard let trigger = at("trigger", { $0.decodeTrigger(object.lookup("trigger"), owner: owner, at: value.location) })
    else { return nil }
    var campaign = Campaign(
      id: id, name: string(object, "name"), flowID: flowID, trigger: trigger, location: value.location)
    if let reentry = object.lookup("reentry") {
      campaign.reentry = at("reentry") { $0.decodeReentry(reentry) } ?? .everyTime
    }
    if let goal = object.lookup("goal"), goal.objectValue != nil {
      campaign.goal = at("goal") { $0.decodeGoal(goal) }
    }
    if let policy = object.lookup("exitPolicy")?.objectValue, let mode = string(policy, "mode") {
      campaign.exitPolicy =
        known(Campaign.ExitPolicy(rawValue: mode), mode, "exit policy mode", policy.lookup("mode"))
        ?? .never
    }
    if let anchor = string(object, "conversionAnchor") {
      campaign.conversionAnchor =
        known(
          Campaign.ConversionAnchor(rawValue: anchor), anchor, "conversion anchor", object.lookup("conversionAnchor"))
        ?? .lastFlowShown
    }
    campaign.holdoutExperiment = string(object, "holdoutExperiment")
    if let limit = number(object, "timeLimitSeconds") {
      campaign.timeLimitSeconds = nonNegative(limit, "timeLimitSeconds", object.lookup("timeLimitSeconds"))
    }
    if let window = object.lookup("timeWindow")?.objectValue {
      at("timeWindow") { context in
        let start = context.clockTime(window, "start")
        let end = context.clockTime(window, "end")
        var days: Set<Int> = []
        for day in context.array(window, "daysOfWeek") ?? [] {
          guard let n = day.numberValue, n.rounded() == n, (0...6).contains(n) else {
            context.error(.Campaign.malformedTime, "daysOfWeek holds 0 (Sunday) to 6 (Saturday)", at: day.location)
            continue
          }
          days.insert(Int(n))
        }
        if let start, let end { campaign.timeWindow = TimeWindow(start: start, end: end, days: days) }
        campaign.timeWindowZone = context.string(window, "timezone")
      }
    }
    return campaign
  }

  private mutating func clockTime(_ object: JSONObject, _ key: String) -> Int? {
    guard let value = object.lookup(key) else {
      error(.Load.missingKey, "a time window is missing required key '\(key)'", at: nil)
      return nil
    }
    guard let text = string(value, key) else { return nil }
    guard let minutes = TimeWindow.minutes(text) else {
      at(key) {
        $0.error(
          .Campaign.malformedTime, "'\(text)' is not a time of day: write HH:MM, 00:00 to 23:59 (e.g. 09:30)",
          at: value.location)
      }
      return nil
    }
    return minutes
  }

  private mutating func known<T>(_ parsed: T?, _ text: String, _ what: String, _ value: JSONValue?) -> T? {
    if parsed == nil {
      warning(.Campaign.unknownValue, "unknown \(what) '\(text)'; the default is used", at: value?.location)
    }
    return parsed
  }

  /// The longest duration flowrun reads, in seconds (`Limits.durationMs`, about 31 years).
  static let maxSeconds = Double(Limits.durationMs.upperBound / 1000)

  private mutating func nonNegative(_ number: Double, _ key: String, _ value: JSONValue?) -> Int64? {
    guard number <= Self.maxSeconds else {
      at(key) {
        $0.error(
          .Load.outOfRange, "\(key) must be \(Limits.text(0...Self.maxSeconds)) seconds, found \(Value.number(number))",
          at: value?.location)
      }
      return nil
    }
    guard number >= 0 else {
      at(key) {
        $0.error(
          .Campaign.negativeDuration, "\(key) must not be negative, found \(Value.number(number))", at: value?.location)
      }
      return nil
    }
    return Int64(number.rounded())
  }

  private mutating func decodeTrigger(
    _ value: JSONValue?, owner: String, at location: SourceLocation
  ) -> Campaign.Trigger? {
    guard let value else {
      error(.Load.missingKey, "\(owner) is missing required key 'trigger'", at: location)
      return nil
    }
    guard let object = object(value), let type = requiredString(object, "type", in: "a trigger", at: value.location)
    else { return nil }
    let config = object.lookup("config")?.objectValue ?? JSONObject(members: [])
    var condition: IREnvelope?
    if let raw = config.lookup("condition") {
      guard let parsed = at("config", { $0.at("condition") { $0.irEnvelope(raw) } }) else { return nil }
      condition = parsed
    }
    switch type {
    case "event":
      guard let name = requiredString(config, "eventName", in: "an event trigger's config", at: value.location) else {
        return nil
      }
      return .event(name: name, condition: condition)
    case "segment":
      guard let condition else {
        error(.Load.missingKey, "a segment trigger's config is missing required key 'condition'", at: value.location)
        return nil
      }
      return .segment(condition: condition)
    default:
      report(
        .error, .Campaign.unknownTrigger, "unknown trigger type '\(type)'", at: object.lookup("type")?.location,
        notes: Self.didYouMean(type, ["event", "segment"]))
      return nil
    }
  }

  static let windowUnits: [String: Int64] = ["second": 1, "minute": 60, "hour": 3600, "day": 86_400, "week": 604_800]

  private mutating func decodeReentry(_ value: JSONValue) -> Campaign.Reentry? {
    guard let object = object(value), let type = requiredString(object, "type", in: "a reentry", at: value.location)
    else { return nil }
    switch type {
    case "one_time": return .oneTime
    case "every_time": return .everyTime
    case "once_per_window":
      var seconds: Double?
      var site = object.lookup("windowSeconds")
      if let direct = number(object, "windowSeconds") {
        seconds = direct
      } else if let window = object.lookup("window")?.objectValue {
        site = window.lookup("amount") ?? object.lookup("window")
        let amount = number(window, "amount") ?? 0
        let unit = string(window, "unit") ?? "day"
        guard let unitSeconds = Self.windowUnits[unit] else {
          report(
            .error, .Campaign.badReentry, "unknown window unit '\(unit)'", at: window.lookup("unit")?.location,
            notes: Self.didYouMean(unit, Array(Self.windowUnits.keys).sorted()))
          return nil
        }
        seconds = amount * Double(unitSeconds)
      }
      guard let seconds else {
        error(
          .Campaign.badReentry, "once_per_window needs 'window' {amount, unit} or 'windowSeconds'", at: value.location)
        return nil
      }
      guard seconds <= Self.maxSeconds else {
        error(
          .Load.outOfRange, "the reentry window must be \(Limits.text(0...Self.maxSeconds)) seconds",
          at: site?.location)
        return nil
      }
      guard seconds > 0 else {
        if seconds < 0 {
          error(.Campaign.negativeDuration, "the reentry window must not be negative", at: site?.location)
        } else {
          error(
            .Campaign.zeroReentryWindow,
            "a once_per_window reentry with a zero window; use every_time to allow every match", at: site?.location)
        }
        return nil
      }
      return .oncePerWindow(seconds: Int64(seconds.rounded()))
    default:
      report(
        .error, .Campaign.badReentry, "unknown reentry type '\(type)'", at: object.lookup("type")?.location,
        notes: Self.didYouMean(type, ["one_time", "every_time", "once_per_window"]))
      return nil
    }
  }

  private mutating func decodeGoal(_ value: JSONValue) -> Campaign.Goal? {
    guard let object = object(value), let kind = requiredString(object, "kind", in: "a goal", at: value.location)
    else { return nil }
    var window = Campaign.Goal.defaultWindowSeconds
    if let seconds = number(object, "window") {
      window = nonNegative(seconds, "window", object.lookup("window")) ?? window
    }
    func envelope(_ key: String) -> IREnvelope?? {
      guard let raw = object.lookup(key) else { return .some(nil) }
      guard let parsed = at(key, { $0.irEnvelope(raw) }) else { return nil }
      return .some(parsed)
    }
    func needs(_ key: String) -> Campaign.Goal? {
      error(.Campaign.badGoal, "a '\(kind)' goal needs '\(key)'", at: value.location)
      return nil
    }
    switch kind {
    case "event":
      guard let name = string(object, "eventName") else { return needs("eventName") }
      guard let filter = envelope("eventFilter") else { return nil }
      return Campaign.Goal(kind: .event(name: name, filter: filter), windowSeconds: window)
    case "segment_enter", "segment_leave":
      guard let segment = string(object, "segmentId") else { return needs("segmentId") }
      return Campaign.Goal(
        kind: kind == "segment_enter" ? .segmentEnter(segment) : .segmentLeave(segment), windowSeconds: window)
    case "attribute":
      guard let parsed = envelope("attributeExpr"), let expression = parsed else { return needs("attributeExpr") }
      return Campaign.Goal(kind: .attribute(expression), windowSeconds: window)
    default:
      report(
        .error, .Campaign.badGoal, "unknown goal kind '\(kind)'", at: object.lookup("kind")?.location,
        notes: Self.didYouMean(kind, ["event", "segment_enter", "segment_leave", "attribute"]))
      return nil
    }
  }
}
