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
  /// The variants of the start being resolved: one array for every start.
  private var assigned: [Session.Assigned] = []
  /// The last session started's context by its place among this starter's (0, 1, … in the
  /// order first needed): sessions of one place have the same variants, start flow and screen,
  /// but one set of variants may span several places, so a caller that groups sessions by
  /// variants (the simulator) maps each number to its variants' key and groups by that.
  public private(set) var contextNumber = 0

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
      tables: tables, variants: &assigned)
    let context: SessionContext
    if let known = contexts.firstIndex(where: { $0.serves(start, variants: assigned) }) {
      context = contexts[known]
      contextNumber = known
    } else {
      context = SessionContext(document: document, settings: config, start: start, variants: assigned, tables: tables)
      contextNumber = contexts.count
      contexts.append(context)
    }
    let user = SessionUser(
      id: userID, traits: traits, variantOverrides: variantOverrides, sessionID: config.sessionID, context: context)
    return Session(context: context, user: user, recycling: old, into: &outputs)
  }
}
