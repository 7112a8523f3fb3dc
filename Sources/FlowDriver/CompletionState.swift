import FlowEngine
import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `run --state FILE`: who completed onboarding, kept between runs as the SDK keeps
/// `isOnboardingCompleted` across app restarts (document 000). One JSON object:
/// `{"users": {"alex": {"onboarding_completed": true, "completed_at": "…", "flow_id": "…"}}}`.
/// A missing file is an empty state; the file is replaced atomically (`TextFile.write`).
public struct CompletionState: Sendable {
  public var users: OrderedDictionary<String, Value> = [:]

  public init(users: OrderedDictionary<String, Value> = [:]) { self.users = users }

  /// Why a state file cannot be used.
  public struct Problem: Error, Sendable {
    public var message: String
  }

  /// The state in `path`, or why it cannot be read (a missing file is no error).
  public static func load(_ path: String) -> Result<CompletionState, Problem> {
    switch TextFile.read(path, limit: .state) {
    case .failure(let failure) where failure.code == ENOENT:
      return .success(CompletionState())
    case .failure(let failure):
      return .failure(Problem(message: "cannot read --state file \(path): \(failure.message)"))
    case .success(let bytes):
      guard case .success(.object(let root)) = JSONBridge.parse(String(decoding: bytes, as: UTF8.self)) else {
        return .failure(Problem(message: "--state file \(path) is not a JSON object of the form {\"users\": {...}}"))
      }
      guard let users = root["users"] else { return .success(CompletionState()) }
      guard case .object(let entries) = users else {
        return .failure(Problem(message: "--state file \(path): 'users' is not an object"))
      }
      return .success(CompletionState(users: entries))
    }
  }

  /// When `user` completed onboarding, or nil when they did not (or were reset).
  public func completion(of user: String) -> (at: String, flow: String)? {
    guard case .object(let entry)? = users[user], entry["onboarding_completed"] == .bool(true) else { return nil }
    let text = { (key: String) -> String in
      if case .string(let value)? = entry[key] { return value }
      return "?"
    }
    return (text("completed_at"), text("flow_id"))
  }

  public mutating func markCompleted(_ user: String, at milliseconds: Int64, flow: String) {
    users[user] = .object([
      "onboarding_completed": .bool(true), "completed_at": .string(Timestamp.iso8601(milliseconds: milliseconds)),
      "flow_id": .string(flow),
    ])
  }

  /// `Sequence.shared.resetOnboarding()` for one user.
  public mutating func reset(_ user: String) { users.removeValue(forKey: user) }

  /// Writes the state atomically; nil, or why it failed.
  public func save(_ path: String) -> String? {
    TextFile.write(Value.object(["users": .object(users)]).prettyJSON + "\n", to: path)
  }
}
