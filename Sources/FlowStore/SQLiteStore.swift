import CSQLite
import OrderedCollections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Submissions in a SQLite file (the system's libsqlite3). WAL journal and a busy timeout, so
/// several processes (`flowrun test --jobs`, parallel runs) can write one file: each write
/// waits its turn instead of failing.
final class SQLiteStore: SubmissionStore {
  private var db: OpaquePointer?
  private let path: String

  /// How long a write waits for another process's transaction (ms) before it fails.
  static let busyTimeout: Int32 = 30_000

  /// `creates`: a missing file is created (`--store`, `serve`); else it is an error (`submissions`:
  /// a mistyped path should not answer with an empty new store).
  init(path: String, creates: Bool) throws(StoreError) {
    self.path = path
    // A device, a directory or a FIFO is no database: refused before SQLite creates a journal
    // beside it (`/dev/null-journal`).
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      throw StoreError("sqlite:\(path): cannot open: not a regular file")
    }
    if !creates, access(path, F_OK) != 0 {
      throw StoreError("sqlite:\(path): no such store (run or test --store creates it)")
    }
    let flags = SQLITE_OPEN_READWRITE | (creates ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &db, flags, nil)
    guard status == SQLITE_OK else {
      let error = failure("cannot open")
      sqlite3_close_v2(db)
      db = nil
      throw error
    }
    sqlite3_busy_timeout(db, Self.busyTimeout)
    // Switching a new file to WAL and migrating it take an exclusive lock, which SQLite may
    // refuse at once (SQLITE_BUSY without waiting) while another process does the same: then
    // this is tried again, for as long as the busy timeout.
    var waited: Int32 = 0
    while true {
      do throws(StoreError) {
        try execute("PRAGMA journal_mode=WAL", what: "cannot open")
        try execute("PRAGMA synchronous=NORMAL", what: "cannot open")
        try migrate()
        return
      } catch {
        guard sqlite3_errcode(db) & 0xFF == SQLITE_BUSY, waited < Self.busyTimeout else {
          sqlite3_close_v2(db)
          db = nil
          throw error
        }
        usleep(20_000)
        waited += 20
      }
    }
  }

  deinit { sqlite3_close_v2(db) }

  private func migrate() throws(StoreError) {
    try transaction { () throws(StoreError) in
      try execute(SubmissionSQL.versionTable)
      let version = SubmissionSQL.integer(try rows("SELECT COALESCE(MAX(version), 0) FROM flowrun_schema_version"))
      if version > submissionSchemaVersion {
        throw StoreError(
          "sqlite:\(path) has schema version \(version); this flowrun knows up to \(submissionSchemaVersion)")
      }
      if version < 1 {
        for statement in SubmissionSQL.migration1(.sqlite) { try execute(statement) }
        try execute("INSERT INTO flowrun_schema_version (version) VALUES (1)")
      }
    }
  }

  func save(_ row: Submission) throws(StoreError) {
    try transaction { () throws(StoreError) in try upsert(row) }
  }

  func save(simulated sessions: [SimulatedSession]) throws(StoreError) {
    try transaction { () throws(StoreError) in
      try execute(SimulationSQL.table(.sqlite))
      for session in sessions {
        try upsert(session.submission)
        _ = try rows(SimulationSQL.upsert(.sqlite), SimulationSQL.values(session), what: "cannot save the session")
      }
    }
  }

  /// The upsert of one row, inside the caller's transaction: SQLite merges the data here.
  private func upsert(_ row: Submission) throws(StoreError) {
    var merged = row
    if let stored = SubmissionSQL.cell(try rows("SELECT data FROM onboarding_submissions WHERE id = ?1", [row.id]))
      .flatMap(Submission.data(json:))
    {
      merged.data = Submission.merge(stored, row.data)
    }
    _ = try rows(SubmissionSQL.upsert(.sqlite), SubmissionSQL.upsertValues(merged), what: "cannot save the submission")
  }

  func page(_ query: SubmissionQuery) throws(StoreError) -> SubmissionPage {
    try transaction(writes: false) { () throws(StoreError) in
      let count = SubmissionSQL.count(query, .sqlite)
      let total = SubmissionSQL.integer(try rows(count.sql, count.values))
      let select = SubmissionSQL.select(query, .sqlite)
      return SubmissionPage(
        submissions: try Submission.rows(from: rows(select.sql, select.values), of: "sqlite:\(path)"), total: total)
    }
  }

  func submission(id: String) throws(StoreError) -> Submission? {
    try Submission.rows(from: rows(SubmissionSQL.byID(.sqlite), [id.lowercased()]), of: "sqlite:\(path)").first
  }

  // MARK: SQLite calls

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`: the write lock is taken first,
  /// so two writers never deadlock upgrading read locks); rolled back when it throws.
  /// A reader (`writes: false`) takes a snapshot instead, so the count and the page agree.
  private func transaction<T>(writes: Bool = true, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try execute(writes ? "BEGIN IMMEDIATE" : "BEGIN")
    do throws(StoreError) {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  private func execute(_ sql: String, what: String = "cannot write") throws(StoreError) {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(what) }
  }

  /// Runs one statement with text parameters (nil is NULL) and returns its rows as text.
  private func rows(
    _ sql: String, _ values: [String?] = [], what: String = "cannot read submissions"
  ) throws(StoreError) -> [[String?]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(what) }
    defer { sqlite3_finalize(statement) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      let status =
        value.map { sqlite3_bind_text(statement, position, $0, -1, transient) }
        ?? sqlite3_bind_null(statement, position)
      guard status == SQLITE_OK else { throw failure(what) }
    }
    var result: [[String?]] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { return result }
      guard step == SQLITE_ROW else { throw failure(what) }
      let columns = sqlite3_column_count(statement)
      result.append(
        (0..<columns).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) }
        })
    }
  }

  private func failure(_ what: String) -> StoreError {
    let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    return StoreError("sqlite:\(path): \(what): \(message)")
  }
}
