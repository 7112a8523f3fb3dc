/// The API's query parameters (`GET /submissions?…`, `flowrun submissions --…`), validated.
public struct SubmissionQuery: Hashable, Sendable {
  /// A flow id as flowrun names it, or a `flow_id` UUID.
  public var flowID: String?
  public var userID: String?
  /// Only rows with `completed_at` set.
  public var completed = false
  /// Only rows without `completed_at`.
  public var incomplete = false
  public var limit = SubmissionQuery.defaultLimit
  public var offset = 0

  public static let defaultLimit = 100
  public static let maxLimit = 1000
  public static let maxOffset = 1_000_000_000

  public init() {}

  /// The `flow_id` column value `flowID` selects: a UUID as is (lowercased), else the UUID
  /// flowrun derives from a flow id.
  public var flowUUID: String? {
    flowID.map { NameUUID.isUUID($0) ? $0.lowercased() : NameUUID.flow($0) }
  }

  /// Reads the parameters of a query string's pairs (already percent-decoded); an unknown
  /// parameter, a repeated one, a bad number or boolean is an error naming it as `spelled`
  /// spells it (`parameter 'limit'`; the command line says `--limit`).
  public static func parse(
    _ pairs: [(name: String, value: String)], spelled: (String) -> String = { "parameter '\($0)'" }
  ) -> Result<SubmissionQuery, StoreError> {
    var query = SubmissionQuery()
    var seen: Set<String> = []
    for (name, value) in pairs {
      guard seen.insert(name).inserted else { return .failure(StoreError("\(spelled(name)) is given twice")) }
      switch name {
      case "flow_id": query.flowID = value
      case "user_id": query.userID = value
      case "completed", "incomplete":
        guard let flag = boolean(value) else {
          return .failure(StoreError("\(spelled(name)) must be true or false, not '\(value)'"))
        }
        if name == "completed" { query.completed = flag } else { query.incomplete = flag }
      case "limit":
        guard let number = Int(value), (1...maxLimit).contains(number) else {
          return .failure(StoreError("\(spelled(name)) must be a whole number from 1 to \(maxLimit), not '\(value)'"))
        }
        query.limit = number
      case "offset":
        guard let number = Int(value), (0...maxOffset).contains(number) else {
          return .failure(StoreError("\(spelled(name)) must be a whole number from 0 to \(maxOffset), not '\(value)'"))
        }
        query.offset = number
      default:
        return .failure(
          StoreError(
            "unknown parameter '\(name)' (known: flow_id, user_id, completed, incomplete, limit, offset)"))
      }
    }
    if query.completed && query.incomplete {
      return .failure(
        StoreError("\(spelled("completed")) and \(spelled("incomplete")) exclude each other: give one"))
    }
    return .success(query)
  }

  private static func boolean(_ text: String) -> Bool? {
    switch text {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }
}
