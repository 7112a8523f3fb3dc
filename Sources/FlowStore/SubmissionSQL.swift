/// The SQL both stores share, in each database's dialect (docs/submissions.md has the schema).
enum SubmissionSQL {
  enum Dialect {
    case sqlite, postgres

    /// The n-th (1-based) parameter placeholder.
    func parameter(_ n: Int, cast: String? = nil) -> String {
      switch self {
      case .sqlite: "?\(n)"
      case .postgres: "$\(n)" + (cast.map { "::" + $0 } ?? "")
      }
    }

    /// A timestamp column as ISO-8601 UTC text with milliseconds (SQLite stores that text).
    func timestamp(_ column: String) -> String {
      switch self {
      case .sqlite: column
      case .postgres: "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
      }
    }

    func text(_ column: String) -> String {
      switch self {
      case .sqlite: column
      case .postgres: "\(column)::text"
      }
    }
  }

  /// The first column of the first row, when there is one and it is not NULL.
  static func cell(_ rows: [[String?]]) -> String? {
    guard let row = rows.first, let cell = row.first else { return nil }
    return cell
  }

  /// `cell` as a whole number (COUNT, MAX), 0 when there is none.
  static func integer(_ rows: [[String?]]) -> Int {
    cell(rows).flatMap { Int($0) } ?? 0
  }

  static let versionTable = "CREATE TABLE IF NOT EXISTS flowrun_schema_version (version INTEGER NOT NULL)"

  /// Migration 1: the product's table and indexes. PostgreSQL as the product's migration, less
  /// the references to `apps` and `flows` (flowrun has neither); SQLite with text for UUIDs,
  /// JSON and timestamps.
  static func migration1(_ dialect: Dialect) -> [String] {
    let table: String
    switch dialect {
    case .postgres:
      table = """
        CREATE TABLE IF NOT EXISTS onboarding_submissions (
          id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
          app_id UUID NOT NULL,
          flow_id UUID NOT NULL,
          user_id TEXT NOT NULL,
          device_id TEXT,
          session_id TEXT NOT NULL,
          data JSONB NOT NULL DEFAULT '{}',
          last_screen_id TEXT,
          last_screen_index INT,
          completed_at TIMESTAMPTZ,
          created_at TIMESTAMPTZ DEFAULT NOW(),
          updated_at TIMESTAMPTZ DEFAULT NOW()
        )
        """
    case .sqlite:
      table = """
        CREATE TABLE IF NOT EXISTS onboarding_submissions (
          id TEXT PRIMARY KEY NOT NULL,
          app_id TEXT NOT NULL,
          flow_id TEXT NOT NULL,
          user_id TEXT NOT NULL,
          device_id TEXT,
          session_id TEXT NOT NULL,
          data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
          last_screen_id TEXT,
          last_screen_index INTEGER,
          completed_at TEXT,
          created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        )
        """
    }
    return [
      table,
      "CREATE INDEX IF NOT EXISTS idx_onboarding_submissions_app_user ON onboarding_submissions(app_id, user_id)",
      "CREATE INDEX IF NOT EXISTS idx_onboarding_submissions_flow ON onboarding_submissions(flow_id)",
      "CREATE INDEX IF NOT EXISTS idx_onboarding_submissions_session ON onboarding_submissions(session_id)",
    ]
  }

  /// The upsert of `SubmissionStore.save`; parameters in `upsertValues` order. SQLite gets the
  /// merged data from the caller (it has no top-level JSON merge that keeps nulls).
  static func upsert(_ d: Dialect) -> String {
    let data =
      d == .postgres ? "onboarding_submissions.data || EXCLUDED.data" : "EXCLUDED.data"
    return """
      INSERT INTO onboarding_submissions (id, app_id, flow_id, user_id, device_id, session_id, data, \
      last_screen_id, last_screen_index, completed_at, created_at, updated_at)
      VALUES (\(d.parameter(1, cast: "uuid")), \(d.parameter(2, cast: "uuid")), \(d.parameter(3, cast: "uuid")), \
      \(d.parameter(4)), \(d.parameter(5)), \(d.parameter(6)), \(d.parameter(7, cast: "jsonb")), \(d.parameter(8)), \
      \(d.parameter(9, cast: "int")), \(d.parameter(10, cast: "timestamptz")), \(d.parameter(11, cast: "timestamptz")), \
      \(d.parameter(12, cast: "timestamptz")))
      ON CONFLICT (id) DO UPDATE SET data = \(data), last_screen_id = EXCLUDED.last_screen_id, \
      last_screen_index = EXCLUDED.last_screen_index, \
      completed_at = COALESCE(onboarding_submissions.completed_at, EXCLUDED.completed_at), \
      updated_at = EXCLUDED.updated_at
      """
  }

  static func upsertValues(_ row: Submission) -> [String?] {
    [
      row.id, row.appID, row.flowID, row.userID, row.deviceID, row.sessionID, Submission.dataJSON(row.data),
      row.lastScreenID, row.lastScreenIndex.map(String.init), row.completedAt, row.createdAt, row.updatedAt,
    ]
  }

  /// The columns a `Submission` is read from, in `Submission(columns:)` order.
  static func columns(_ d: Dialect) -> String {
    [
      d.text("id"), d.text("app_id"), d.text("flow_id"), "user_id", "device_id", "session_id", d.text("data"),
      "last_screen_id", "last_screen_index", d.timestamp("completed_at"), d.timestamp("created_at"),
      d.timestamp("updated_at"),
    ].joined(separator: ", ")
  }

  /// `WHERE …` of a query and its parameters (numbered from 1).
  static func filter(_ query: SubmissionQuery, _ d: Dialect) -> (sql: String, values: [String]) {
    var conditions: [String] = []
    var values: [String] = []
    if let flow = query.flowUUID {
      values.append(flow)
      conditions.append("flow_id = \(d.parameter(values.count, cast: "uuid"))")
    }
    if let user = query.userID {
      values.append(user)
      conditions.append("user_id = \(d.parameter(values.count))")
    }
    if query.completed { conditions.append("completed_at IS NOT NULL") }
    if query.incomplete { conditions.append("completed_at IS NULL") }
    return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
  }

  /// The page's rows: newest first, then by id, so pages never overlap or skip.
  static func select(_ query: SubmissionQuery, _ d: Dialect) -> (sql: String, values: [String]) {
    let (whereClause, values) = filter(query, d)
    let sql =
      "SELECT \(columns(d)) FROM onboarding_submissions\(whereClause) ORDER BY created_at DESC, id ASC "
      + "LIMIT \(query.limit) OFFSET \(query.offset)"
    return (sql, values)
  }

  static func count(_ query: SubmissionQuery, _ d: Dialect) -> (sql: String, values: [String]) {
    let (whereClause, values) = filter(query, d)
    return ("SELECT COUNT(*) FROM onboarding_submissions\(whereClause)", values)
  }

  static func byID(_ d: Dialect) -> String {
    "SELECT \(columns(d)) FROM onboarding_submissions WHERE id = \(d.parameter(1, cast: "uuid"))"
  }
}
