/// A database that holds `onboarding_submissions` (docs/submissions.md): SQLite or PostgreSQL.
/// Opening applies the migrations the database lacks. Not thread-safe: `SharedStore` serialises
/// a store used from several threads.
public protocol SubmissionStore: AnyObject {
  /// Upserts `row` in one transaction: a new row is inserted; an existing one gets its data
  /// merged (top-level keys of `row.data` replace or extend the stored ones), its last screen
  /// and `updated_at` replaced, and `completed_at` set unless it already was.
  func save(_ row: Submission) throws(StoreError)
  /// The rows `query` selects, newest first, and how many match in all.
  func page(_ query: SubmissionQuery) throws(StoreError) -> SubmissionPage
  /// The row with this id (the row of a session: `NameUUID.submission`).
  func submission(id: String) throws(StoreError) -> Submission?
  /// Saves simulated sessions in one transaction: each one's row as `save` does, and its
  /// `flowrun_simulated_sessions` row (the table is created when missing).
  func save(simulated sessions: [SimulatedSession]) throws(StoreError)
}

/// The schema version this flowrun writes (`flowrun_schema_version`).
public let submissionSchemaVersion = 1

/// Opens the store `url` names and migrates it; a missing SQLite file is created when `creates`.
public func openSubmissionStore(_ url: StoreURL, creates: Bool = true) throws(StoreError) -> any SubmissionStore {
  switch url {
  case .sqlite(let path): try SQLiteStore(path: path, creates: creates)
  case .postgres(let uri): try PostgresStore(uri: uri, shown: url.description)
  }
}
