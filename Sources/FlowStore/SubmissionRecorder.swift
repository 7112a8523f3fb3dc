import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections

/// Turns a session into the row the backend would hold after each input the session accepted
/// (the SDK saves after each input, debounced; flowrun saves after every accepted input, as if
/// every debounce ran out). Pure: the caller writes `row` to a store.
public struct SubmissionRecorder: Sendable {
  /// The row as of the last accepted input (nil before the first).
  public private(set) var row: Submission?

  public init() {}

  /// The row after `session` accepted an input: data merged over the row's, the shown screen,
  /// `completed_at` once the session completed, `updated_at` the virtual clock now. A session
  /// with another id (`:restart`) starts a new row. Secret fields are masked as in `--data`
  /// unless `revealsSecrets` (`run --show-secrets`).
  public mutating func accept(_ session: Session, revealsSecrets: Bool = false) -> Submission {
    let now = Timestamp.iso8601(milliseconds: session.virtualNow)
    var next: Submission
    if let row, row.sessionID == session.sessionID {
      next = row
    } else {
      // The flow the session started in (its first event's), not a sub-flow it is in now.
      let flow = session.events.first?.flowID ?? session.currentFlow.id
      next = Submission(
        id: NameUUID.submission(flowID: flow, sessionID: session.sessionID), appID: NameUUID.app,
        flowID: NameUUID.flow(flow), userID: session.config.userID, sessionID: session.sessionID, data: [:],
        lastScreenID: nil, lastScreenIndex: nil, completedAt: nil, createdAt: now, updatedAt: now)
    }
    next.data = Submission.merge(next.data, revealsSecrets ? session.data : session.secrets.data(session.data))
    next.lastScreenID = session.currentScreen.id
    next.lastScreenIndex = session.currentScreenIndex
    if next.completedAt == nil, session.status == .completed { next.completedAt = now }
    next.updatedAt = now
    row = next
    return next
  }
}
