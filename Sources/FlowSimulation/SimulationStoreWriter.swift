import FlowEngine
import FlowExpression
import FlowFormat
import FlowStore
import FlowSupport

/// Writes each finished user of `simulate --store` into the store: its submission row (as the
/// SDK's last save would leave it, `created_at` the session's start) and its
/// `flowrun_simulated_sessions` row, in transactions of `batch` sessions.
public final class SimulationStoreWriter: Sendable {
  static let batch = 500

  let store: SharedStore
  let seed: String
  private let pending = Locked([SimulatedSession]())

  public init(store: SharedStore, seed: UInt64) {
    self.store = store
    self.seed = String(seed)
  }

  /// Queues `user`'s rows; writes a batch once it is full (from any thread).
  public func add(_ user: FinishedUser) {
    let session = user.session
    var recorder = SubmissionRecorder()
    var row = recorder.accept(session)
    row.createdAt = Timestamp.iso8601(milliseconds: session.startTime)
    let events = session.events.map { session.secrets.event($0).value.json }
    let simulated = SimulatedSession(
      submission: row, seed: seed, userIndex: user.index, variant: user.variant, outcome: user.outcome,
      pathJSON: JSONWriter.compact.string(.array(user.path.map(JSONWriter.Value.string))),
      eventsJSON: "[" + events.joined(separator: ",") + "]")
    let full = pending.withLock { pending -> [SimulatedSession]? in
      pending.append(simulated)
      guard pending.count >= Self.batch else { return nil }
      defer { pending = [] }
      return pending
    }
    if let full { store.save(simulated: full) }
  }

  /// Writes what is queued; the store's first failure, if any write failed.
  public func finish() -> StoreError? {
    let rest = pending.withLock { pending in
      defer { pending = [] }
      return pending
    }
    if !rest.isEmpty { store.save(simulated: rest) }
    return store.failure
  }
}
