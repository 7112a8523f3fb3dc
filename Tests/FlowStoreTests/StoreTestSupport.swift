import FlowExpression
import FlowStore
import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

/// The stores the store tests run against: a SQLite file in a temporary directory, and the
/// PostgreSQL server `FLOWRUN_TEST_POSTGRES` names (`.ci/postgres start`; CI always has one).
enum Backend: String, CaseIterable, CustomTestStringConvertible {
  case sqlite, postgres

  var testDescription: String { rawValue }

  static let postgresURL = ProcessInfo.processInfo.environment["FLOWRUN_TEST_POSTGRES"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// The backends available here: PostgreSQL only with FLOWRUN_TEST_POSTGRES
  /// (`PostgresAvailabilityTests` fails in CI without it).
  static var available: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

  /// A fresh store: a new SQLite file, or the PostgreSQL database (tests there keep apart by
  /// their own ids).
  func open(in directory: TemporaryDirectory) throws -> SharedStore {
    switch self {
    case .sqlite: try SharedStore(.sqlite(path: directory.path + "/submissions.db"))
    case .postgres: try SharedStore(.postgres(uri: Backend.postgresURL ?? ""))
    }
  }
}

/// A row of one test, its ids unique to the test so PostgreSQL tests never see each other's.
func row(
  _ tag: String, session: String = "s1", flow: String = "f", user: String = "u", data: OrderedDictionary<String, Value>,
  screen: String? = "a", index: Int? = 0, completed: String? = nil, created: String, updated: String? = nil
) -> Submission {
  let flowID = "\(tag)-\(flow)"
  let sessionID = "\(tag)-\(session)"
  return Submission(
    id: NameUUID.submission(flowID: flowID, sessionID: sessionID), appID: NameUUID.app, flowID: NameUUID.flow(flowID),
    userID: "\(tag)-\(user)", sessionID: sessionID, data: data, lastScreenID: screen, lastScreenIndex: index,
    completedAt: completed, createdAt: created, updatedAt: updated ?? created)
}

/// A tag unique to one test run.
func uniqueTag() -> String { "t" + UUID().uuidString.prefix(8).lowercased() }
