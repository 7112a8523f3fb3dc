import FlowSupport

/// One open store used by every session of a command (`run`, `test --jobs N`): writes are
/// serialised, and the first failure is kept, after which nothing more is written, so the
/// command can say it once and exit 1 (the sessions themselves go on; `run` still writes
/// `--data`).
public final class SharedStore: Sendable, Hashable {
  public let url: StoreURL
  private let state: Locked<(store: any SubmissionStore, failure: StoreError?)>

  /// Opens (and migrates) the store; a missing SQLite file is created when `creates`.
  public init(_ url: StoreURL, creates: Bool = true) throws(StoreError) {
    self.url = url
    state = Locked((try openSubmissionStore(url, creates: creates), nil))
  }

  /// The first write that failed, if any.
  public var failure: StoreError? { state.withLock { $0.failure } }

  /// Upserts `row` unless a write failed before; false when it was not written.
  @discardableResult
  public func save(_ row: Submission) -> Bool {
    state.withLock { state in
      guard state.failure == nil else { return false }
      do throws(StoreError) {
        try state.store.save(row)
        return true
      } catch {
        state.failure = error
        return false
      }
    }
  }

  /// Saves simulated sessions in one transaction unless a write failed before; false when
  /// they were not written.
  @discardableResult
  public func save(simulated sessions: [SimulatedSession]) -> Bool {
    state.withLock { state in
      guard state.failure == nil else { return false }
      do throws(StoreError) {
        try state.store.save(simulated: sessions)
        return true
      } catch {
        state.failure = error
        return false
      }
    }
  }

  public func submission(id: String) throws(StoreError) -> Submission? {
    try state.withLock { state in Result { () throws(StoreError) in try state.store.submission(id: id) } }.get()
  }

  public func page(_ query: SubmissionQuery) throws(StoreError) -> SubmissionPage {
    try state.withLock { state in Result { () throws(StoreError) in try state.store.page(query) } }.get()
  }

  public static func == (lhs: SharedStore, rhs: SharedStore) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
