import FlowExpression
import FlowFormat
import OrderedCollections

/// One row of `onboarding_submissions` (docs/submissions.md): what the product backend keeps of
/// one session. Times are ISO-8601 UTC with milliseconds, on the session's virtual clock.
public struct Submission: Hashable, Sendable {
  public var id: String
  public var appID: String
  public var flowID: String
  public var userID: String
  public var deviceID: String?
  public var sessionID: String
  public var data: OrderedDictionary<String, Value>
  public var lastScreenID: String?
  public var lastScreenIndex: Int?
  public var completedAt: String?
  public var createdAt: String
  public var updatedAt: String

  public init(
    id: String, appID: String, flowID: String, userID: String, deviceID: String? = nil, sessionID: String,
    data: OrderedDictionary<String, Value>, lastScreenID: String?, lastScreenIndex: Int?, completedAt: String?,
    createdAt: String, updatedAt: String
  ) {
    self.id = id
    self.appID = appID
    self.flowID = flowID
    self.userID = userID
    self.deviceID = deviceID
    self.sessionID = sessionID
    self.data = data
    self.lastScreenID = lastScreenID
    self.lastScreenIndex = lastScreenIndex
    self.completedAt = completedAt
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// The API's object for this row, keys in the documented order.
  public var apiValue: Value {
    .object([
      "id": .string(id),
      "flow_id": .string(flowID),
      "user_id": .string(userID),
      "session_id": .string(sessionID),
      "data": .object(data),
      "last_screen_id": lastScreenID.map(Value.string) ?? .null,
      "last_screen_index": lastScreenIndex.map { .number(Double($0)) } ?? .null,
      "completed_at": completedAt.map(Value.string) ?? .null,
      "created_at": .string(createdAt),
    ])
  }

  /// `data` merged as the upsert merges it: top-level keys of `newer` replace or extend `older`'s
  /// (older keys keep their place, new ones are appended).
  public static func merge(
    _ older: OrderedDictionary<String, Value>, _ newer: OrderedDictionary<String, Value>
  ) -> OrderedDictionary<String, Value> {
    older.merging(newer) { _, new in new }
  }
}

/// One page of the API's answer: `{"submissions": [...], "total": N}`.
public struct SubmissionPage: Hashable, Sendable {
  public var submissions: [Submission]
  /// Every row the filters match, regardless of `limit` and `offset`.
  public var total: Int

  public init(submissions: [Submission], total: Int) {
    self.submissions = submissions
    self.total = total
  }

  /// The API's JSON (compact, no newline).
  public var json: String {
    Value.object(["submissions": .list(submissions.map(\.apiValue)), "total": .number(Double(total))]).json
  }
}

extension Submission {
  /// Builds a row from the text of `SubmissionSQL.columns` (NULL is nil); nil when a column
  /// does not hold what flowrun writes.
  init?(columns c: [String?]) {
    guard c.count == 12, let id = c[0], let app = c[1], let flow = c[2], let user = c[3], let session = c[5],
      let dataText = c[6], let data = Submission.data(json: dataText), let created = c[10], let updated = c[11]
    else { return nil }
    self.init(
      id: id, appID: app, flowID: flow, userID: user, deviceID: c[4], sessionID: session, data: data,
      lastScreenID: c[7], lastScreenIndex: c[8].flatMap { Int($0) }, completedAt: c[9], createdAt: created,
      updatedAt: updated)
  }

  /// The rows of a `SubmissionSQL.columns` query; a row flowrun did not write is an error of
  /// `store` (the URL as messages show it).
  static func rows(from table: [[String?]], of store: String) throws(StoreError) -> [Submission] {
    var result: [Submission] = []
    for columns in table {
      guard let row = Submission(columns: columns) else {
        throw StoreError("\(store): a row of onboarding_submissions is not as flowrun writes it")
      }
      result.append(row)
    }
    return result
  }

  static func dataJSON(_ data: OrderedDictionary<String, Value>) -> String { Value.object(data).json }

  static func data(json: String) -> OrderedDictionary<String, Value>? {
    let (parsed, _) = JSONParser.parse(Array(json.utf8))
    guard let parsed, case .object(let object) = Value(parsed) else { return nil }
    return object
  }
}
