import FlowExpression
import FlowFormat

/// Starts many sessions of one document and configuration whose users differ only in their id,
/// traits and forced variants (the simulator's users). Each session is the one
/// `Session.start` gives for the configuration with the user's parts; what the users of one
/// start (flow, screen and variants) share is built once (a handful of contexts), and a session
/// done with can hand its storage to the next.
public struct SessionStarter: Sendable {
  public let document: FlowDocument
  /// The configuration of every session; its `userID`, `traits` and `variantOverrides` are not
  /// read (each start gives its own).
  public let config: SessionConfig
  let tables: DocumentTables?
  /// The contexts built so far, one per start (flow, screen, variants).
  private var contexts: [SessionContext] = []

  public init(document: FlowDocument, config: SessionConfig, tables: DocumentTables? = nil) {
    self.document = document
    self.config = config
    self.tables = tables
  }

  /// Starts user `userID`'s session: `Session.start(document:config:tables:)` with the
  /// configuration's user parts replaced by these, its outputs in `outputs` (emptied first).
  /// `recycling`: a session done with, whose storage the new one keeps (see `Session.init`).
  public mutating func start(
    userID: String, traits: [String: Value] = [:], variantOverrides: [String: String] = [:],
    recycling old: consuming Session? = nil, into outputs: inout [Output]
  ) throws(SessionStartError) -> Session {
    let start = try Session.resolve(
      document: document, config: config, userID: userID, traits: traits, overrides: variantOverrides,
      tables: tables)
    let context: SessionContext
    if let known = contexts.first(where: { $0.serves(start) }) {
      context = known
    } else {
      context = SessionContext(document: document, settings: config, start: start, tables: tables)
      contexts.append(context)
    }
    let user = SessionUser(
      id: userID, traits: traits, variantOverrides: variantOverrides, sessionID: config.sessionID, context: context)
    return Session(context: context, user: user, recycling: old, into: &outputs)
  }
}
