import FlowExpression
import FlowStore
import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

extension TestDatabase {
  /// The store, opened (and migrated) as the commands open it.
  func open(in directory: TemporaryDirectory) throws -> SharedStore {
    try SharedStore(StoreURL.parse(url(in: directory)).get())
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
