import FlowExpression
import FlowFormat
import OrderedCollections

extension Session {
  /// The flow a session without `--flow` presents: the first flow whose audience holds for the
  /// user (highest priority first), else the entry flow, unless the entry flow's own audience
  /// excludes the user: then no flow is presented (AppDNA's document 001: targeting rules
  /// control which users see a flow).
  static func targetedEntry(
    _ document: FlowDocument, flowID: String?, userID: String, traits: [String: Value]
  ) throws(SessionStartError) -> String {
    guard flowID == nil, !document.audiences.isEmpty else { return document.entryFlowID }
    var user: [String: Value] = traits
    user["id"] = .string(userID)
    let environment: [String: Value] = ["$user": .object(.init(uniqueKeysWithValues: user.sorted { $0.key < $1.key }))]
    if let chosen = document.audiences.first(where: { $0.condition.holds(in: environment) }) {
      return chosen.flowID
    }
    if let own = document.audiences.first(where: { $0.flowID == document.entryFlowID }) {
      throw SessionStartError(
        "no flow presented: the audience of flow '\(own.flowID)' (\(own.condition.source)) excludes this user")
    }
    return document.entryFlowID
  }
}
