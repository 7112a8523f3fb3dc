import CSQLite
import Foundation

/// The databases the store tests use: SQLite files they create, and the PostgreSQL server
/// `FLOWRUN_TEST_POSTGRES` names (`.ci/postgres start`, which `.ci/run` runs).
public enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
  case sqlite, postgres

  public var description: String { rawValue }

  /// The PostgreSQL URL, when there is a server to test against.
  public static let postgresURL = ProcessInfo.processInfo.environment["FLOWRUN_TEST_POSTGRES"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// SQLite always; PostgreSQL with FLOWRUN_TEST_POSTGRES (without it, under CI=true,
  /// `PostgresAvailabilityTests` fails).
  public static var available: [TestDatabase] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

  /// The store URL: a new SQLite file in `directory`, or the PostgreSQL database (tests there
  /// keep apart by their own ids).
  public func url(in directory: TemporaryDirectory) -> String {
    switch self {
    case .sqlite: "sqlite:" + directory.path + "/submissions.db"
    case .postgres: TestDatabase.postgresURL ?? ""
    }
  }

  /// An id unique to one test, for the rows it writes.
  public static func uniqueTag() -> String { "t" + UUID().uuidString.prefix(8).lowercased() }
}

/// Runs SQL on a SQLite file through the sqlite3 library, as another program would.
public func sqliteExecute(_ path: String, _ sql: String) throws {
  struct SQLiteFailure: Error { var message: String }
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open(path, &db) == SQLITE_OK, sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
    throw SQLiteFailure(message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
  }
}

/// The rows of one query on a SQLite file, every column as text (NULL as nil).
public func sqliteRows(_ path: String, _ sql: String) throws -> [[String?]] {
  struct SQLiteFailure: Error { var message: String }
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  var statement: OpaquePointer?
  defer { sqlite3_finalize(statement) }
  guard sqlite3_open(path, &db) == SQLITE_OK, sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
    throw SQLiteFailure(message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
  }
  var rows: [[String?]] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    rows.append(
      (0..<sqlite3_column_count(statement)).map { sqlite3_column_text(statement, $0).map { String(cString: $0) } })
  }
  return rows
}
