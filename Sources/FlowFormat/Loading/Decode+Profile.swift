import FlowExpression
import OrderedCollections

/// flowrun's profile file and the lines of a campaign timeline.
extension DecodeContext {
  mutating func decodeProfile(_ root: JSONValue) -> Profile? {
    guard let object = object(root) else { return nil }
    var profile = Profile(distinctID: string(object, "distinctId") ?? "user")
    if let properties = object.lookup("userProperties") {
      guard let members = at("userProperties", { $0.object(properties) }) else { return nil }
      for member in members.members { profile.userProperties[FactKey(member.key)] = Value(member.value) }
    }
    profile.factsComplete = bool(object, "factsComplete") ?? true
    if let experiments = object.lookup("experiments")?.objectValue {
      for member in experiments.members {
        guard let assignment = member.value.objectValue else { continue }
        profile.experiments[member.key] = Profile.Assignment(
          experimentKey: string(assignment, "experimentKey") ?? member.key,
          variantKey: string(assignment, "variantKey"),
          status: string(assignment, "status") ?? "running", isHoldout: bool(assignment, "isHoldout") ?? false)
      }
    }
    if let segments = object.lookup("segments")?.objectValue, let list = array(segments, "memberships") {
      var memberships: [FactKey: Facts.Membership] = [:]
      for item in list {
        guard let membership = item.objectValue, let id = membership.lookup("segmentId")?.stringValue else {
          error(.Campaign.badProfile, "a membership needs 'segmentId'", at: item.location)
          continue
        }
        memberships[FactKey(id)] = Facts.Membership(isMember: true, enteredAt: instant(membership, "enteredAt"))
      }
      profile.memberships = memberships
    }
    for item in array(object, "features") ?? [] {
      guard let feature = item.objectValue, let id = feature.lookup("id")?.stringValue else {
        error(.Campaign.badProfile, "a feature needs 'id'", at: item.location)
        continue
      }
      profile.features[id] = Facts.Feature(
        type: string(feature, "type") ?? "boolean", balance: number(feature, "balance"),
        unlimited: bool(feature, "unlimited") ?? false)
    }
    for item in array(object, "completions") ?? [] {
      guard let completion = item.objectValue, let campaign = completion.lookup("campaignId")?.stringValue,
        let at = instant(completion, "completedAt")
      else {
        error(.Campaign.badProfile, "a completion needs 'campaignId' and an ISO-8601 'completedAt'", at: item.location)
        continue
      }
      profile.completions.append(
        Profile.Completion(
          campaignID: campaign, completedAt: at, exitReason: string(completion, "exitReason") ?? "completed"))
    }
    profile.historyCoverageStart = instant(object, "historyCoverageStart")
    return profile
  }

  /// An instant under `key`: an ISO-8601 string or epoch seconds; reported when neither.
  mutating func instant(_ object: JSONObject, _ key: String) -> Int64? {
    guard let value = object.lookup(key) else { return nil }
    switch value.kind {
    case .null: return nil
    case .number(let seconds, _)
    where (Double(Limits.clockMs.lowerBound)...Double(Limits.clockMs.upperBound)).contains(seconds * 1000):
      return CivilTime.milliseconds(seconds: seconds)
    case .string(let text):
      if let instant = CivilTime.instant(iso8601: text) { return instant.milliseconds }
    default: break
    }
    at(key) {
      $0.error(
        .Campaign.badProfile,
        "\(key) must be an ISO-8601 time (2026-01-01T09:30:00Z) or epoch seconds within the years 0000-9999",
        at: value.location)
    }
    return nil
  }

  /// `{"event": name, "timestamp": ISO, "properties": {…}}` (flowrun envelopes' `event_type`
  /// too), `{"dismiss": reason, "timestamp": …}` or `{"profile": {…}, "timestamp": …}`.
  mutating func decodeTimelineEntry(_ value: JSONValue, line: Int) -> TimelineEntry? {
    guard let object = value.objectValue else {
      error(.Campaign.badTimeline, "line \(line) is \(value.typeDescription), not an event object", at: value.location)
      return nil
    }
    guard let raw = object.lookup("timestamp"), let text = raw.stringValue,
      let time = CivilTime.instant(iso8601: text)?.milliseconds
    else {
      error(
        .Campaign.badTimeline, "line \(line) needs 'timestamp': an ISO-8601 time such as 2026-01-01T09:30:00Z",
        at: object.lookup("timestamp")?.location ?? value.location)
      return nil
    }
    if let reason = object.lookup("dismiss") {
      return TimelineEntry(.dismiss(reason: reason.stringValue ?? "user", at: time), line: line)
    }
    if let update = object.lookup("profile") {
      guard let fields = update.objectValue else {
        error(
          .Campaign.badTimeline, "line \(line): 'profile' must be an object of user properties", at: update.location)
        return nil
      }
      var properties: [String: Value] = [:]
      for member in fields.members { properties[member.key] = Value(member.value) }
      return TimelineEntry(.profile(properties, at: time), line: line)
    }
    if let raw = object.lookup("memberships") {
      // `null` makes no claim (the line is skipped); a list replaces the memberships.
      if case .null = raw.kind { return nil }
      guard let items = raw.arrayValue else {
        error(.Campaign.badTimeline, "line \(line): 'memberships' must be a list of segment ids", at: raw.location)
        return nil
      }
      let ids = items.compactMap { $0.stringValue ?? $0.objectValue?.lookup("segmentId")?.stringValue }
      return TimelineEntry(.memberships(ids, at: time), line: line)
    }
    guard let name = (object.lookup("event") ?? object.lookup("event_type"))?.stringValue, !name.isEmpty else {
      error(
        .Campaign.badTimeline, "line \(line) needs 'event' (the event's name), 'dismiss', 'profile' or 'memberships'",
        at: value.location)
      return nil
    }
    var properties: OrderedDictionary<String, Value> = [:]
    if let raw = object.lookup("properties") {
      guard case .object(let fields) = Value(raw) else {
        error(.Campaign.badTimeline, "line \(line): 'properties' must be an object", at: raw.location)
        return nil
      }
      properties = fields
    }
    let event = HistoryEvent(
      name: name, time: time, properties: properties,
      distinctID: (object.lookup("distinct_id") ?? object.lookup("user_id"))?.stringValue)
    return TimelineEntry(.event(event), line: line)
  }
}
