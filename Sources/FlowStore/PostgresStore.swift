import CLibPQ

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Submissions in PostgreSQL through libpq. Each save is one upsert statement (its own
/// transaction); the migration runs in a transaction under an advisory lock, so processes
/// starting together migrate once.
final class PostgresStore: SubmissionStore {
  /// libpq's functions, loaded when the first PostgreSQL store opens (CLibPQ.h says why).
  private let pq: flowrun_libpq
  private let connection: OpaquePointer
  /// The URL as messages show it (no password).
  private let shown: String
  /// `flowrun_simulated_sessions` is known to exist (this store created or found it).
  private var simulatedTableReady = false

  /// The advisory lock key of the migration (any constant: "flowrun" in ASCII).
  static let migrationLock = 0x666c_6f77_7275_6e

  init(uri: String, shown: String) throws(StoreError) {
    self.shown = shown
    self.pq = try Self.libpq(shown)
    // A server that does not answer fails after 10 s instead of the system's TCP timeout; a
    // connect_timeout in the URL wins (libpq expands `dbname` over the earlier keywords).
    let keywords = ["connect_timeout", "dbname"]
    let values = ["10", uri]
    let cKeywords = keywords.map { strdup($0) }
    let cValues = values.map { strdup($0) }
    defer { (cKeywords + cValues).forEach { free($0) } }
    var keywordPointers = cKeywords.map { UnsafePointer($0) } + [nil]
    var valuePointers = cValues.map { UnsafePointer($0) } + [nil]
    guard let connection = pq.connectdbParams(&keywordPointers, &valuePointers, 1) else {
      throw StoreError("\(shown): cannot connect: out of memory")
    }
    self.connection = connection
    // Notices ("relation already exists, skipping") are not for the user's terminal.
    _ = pq.setNoticeProcessor(connection, { _, _ in }, nil)
    // On a failure from here, deinit closes the connection.
    guard pq.status(connection) == FLOWRUN_PQ_CONNECTION_OK else { throw failure("cannot connect") }
    try migrate()
  }

  deinit { pq.finish(connection) }

  private static func libpq(_ shown: String) throws(StoreError) -> flowrun_libpq {
    var reason = [CChar](repeating: 0, count: 512)
    guard let table = flowrun_libpq_load(&reason, reason.count) else {
      let why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw StoreError(
        "\(shown): cannot open: the PostgreSQL client library libpq could not be loaded (\(why)); "
          + "install it (Debian/Ubuntu: apt-get install libpq5; macOS: brew install libpq) "
          + "or name its file in FLOWRUN_LIBPQ")
    }
    return table.pointee
  }

  private func migrate() throws(StoreError) {
    _ = try rows("BEGIN")
    do throws(StoreError) {
      _ = try rows("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
      _ = try rows(SubmissionSQL.versionTable)
      let version = SubmissionSQL.integer(try rows("SELECT COALESCE(MAX(version), 0) FROM flowrun_schema_version"))
      if version > submissionSchemaVersion {
        throw StoreError("\(shown) has schema version \(version); this flowrun knows up to \(submissionSchemaVersion)")
      }
      if version < 1 {
        for statement in SubmissionSQL.migration1(.postgres) { _ = try rows(statement) }
        _ = try rows("INSERT INTO flowrun_schema_version (version) VALUES (1)")
      }
      _ = try rows("COMMIT")
    } catch {
      _ = try? rows("ROLLBACK")
      throw error
    }
  }

  func save(_ row: Submission) throws(StoreError) {
    _ = try rows(SubmissionSQL.upsert(.postgres), SubmissionSQL.upsertValues(row))
  }

  func save(simulated sessions: [SimulatedSession]) throws(StoreError) {
    _ = try rows("BEGIN")
    do throws(StoreError) {
      if !simulatedTableReady {
        // Two sessions running CREATE TABLE IF NOT EXISTS at once can both find no table, and
        // the second then fails on the catalog (duplicate key in pg_type): under the
        // migration's lock they take turns, the first time this store writes simulated sessions.
        _ = try rows("SELECT pg_advisory_xact_lock(\(Self.migrationLock))")
        _ = try rows(SimulationSQL.table(.postgres))
      }
      for session in sessions {
        _ = try rows(SubmissionSQL.upsert(.postgres), SubmissionSQL.upsertValues(session.submission))
        _ = try rows(SimulationSQL.upsert(.postgres), SimulationSQL.values(session))
      }
      _ = try rows("COMMIT")
      simulatedTableReady = true
    } catch {
      _ = try? rows("ROLLBACK")
      throw error
    }
  }

  func page(_ query: SubmissionQuery) throws(StoreError) -> SubmissionPage {
    // One snapshot for the count and the page.
    _ = try rows("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    do throws(StoreError) {
      let count = SubmissionSQL.count(query, .postgres)
      let total = SubmissionSQL.integer(try rows(count.sql, count.values))
      let select = SubmissionSQL.select(query, .postgres)
      let page = SubmissionPage(
        submissions: try Submission.rows(from: rows(select.sql, select.values), of: shown), total: total)
      _ = try rows("COMMIT")
      return page
    } catch {
      _ = try? rows("ROLLBACK")
      throw error
    }
  }

  func submission(id: String) throws(StoreError) -> Submission? {
    guard NameUUID.isUUID(id) else { return nil }
    return try Submission.rows(from: rows(SubmissionSQL.byID(.postgres), [id.lowercased()]), of: shown).first
  }

  /// Runs one statement with text parameters (nil is NULL) and returns its rows as text.
  private func rows(_ sql: String, _ values: [String?] = []) throws(StoreError) -> [[String?]] {
    let cValues: [UnsafeMutablePointer<CChar>?] = values.map { value in value.flatMap { strdup($0) } }
    defer { cValues.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = cValues.map { $0.map { UnsafePointer($0) } }
    let result = pointers.withUnsafeBufferPointer { buffer in
      pq.execParams(connection, sql, Int32(values.count), nil, buffer.baseAddress, nil, nil, 0)
    }
    defer { pq.clear(result) }
    let status = pq.resultStatus(result)
    guard status == FLOWRUN_PQ_COMMAND_OK || status == FLOWRUN_PQ_TUPLES_OK else {
      if pq.status(connection) != FLOWRUN_PQ_CONNECTION_OK { throw failure("lost the connection") }
      let message = result.map { String(cString: pq.resultErrorMessage($0)) } ?? ""
      throw StoreError("\(shown): \(message.isEmpty ? String(cString: pq.errorMessage(connection)) : message)")
    }
    var table: [[String?]] = []
    for row in 0..<pq.ntuples(result) {
      table.append(
        (0..<pq.nfields(result)).map { column in
          pq.getisnull(result, row, column) != 0 ? nil : String(cString: pq.getvalue(result, row, column))
        })
    }
    return table
  }

  private func failure(_ what: String) -> StoreError {
    StoreError("\(shown): \(what): \(String(cString: pq.errorMessage(connection)))")
  }
}
