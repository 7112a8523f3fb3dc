import FlowExpression

/// AppDNA's `OnboardingContext` (document 001), read from a JSON file (`--context FILE`):
/// `userProperties` are the user's traits, `experimentOverrides` force variants; `source`,
/// `campaign` and `referrer` are accepted and have no behaviour (the document gives them none).
public struct OnboardingContext: Sendable {
  public var userProperties: [(key: String, value: Value)] = []
  public var experimentOverrides: [(experiment: String, variant: String)] = []

  /// What is wrong with a context file, with its line:col.
  public struct Problem: Error, Sendable {
    public var message: String
  }

  static let keys = ["source", "campaign", "referrer", "userProperties", "experimentOverrides"]

  /// The context in `bytes`, or what is wrong with it (with line:col): a key that is not one of
  /// the five, or a value of the wrong type.
  public static func parse(_ bytes: [UInt8], file: String) -> Result<OnboardingContext, Problem> {
    let (root, syntax) = JSONParser.parse(bytes, file: file)
    if let first = syntax.first(where: { $0.severity == .error }) {
      let at = first.location.map { "\($0): " } ?? ""
      return .failure(Problem(message: at + first.message))
    }
    guard let object = root?.objectValue else {
      return .failure(Problem(message: "expected a JSON object (an OnboardingContext)"))
    }
    var context = OnboardingContext()
    for member in object.members {
      let at = "\(member.keyLocation): "
      switch (member.key, member.value.kind) {
      case ("source", .string), ("campaign", .string), ("referrer", .string), ("source", .null), ("campaign", .null),
        ("referrer", .null):
        break
      case ("userProperties", .object(let properties)):
        context.userProperties = properties.members.map { ($0.key, Value($0.value)) }
      case ("experimentOverrides", .object(let overrides)):
        for override in overrides.members {
          guard let variant = override.value.stringValue else {
            return .failure(
              Problem(message: "\(override.value.location): experimentOverrides.\(override.key) must be a variant id"))
          }
          context.experimentOverrides.append((override.key, variant))
        }
      default:
        guard !keys.contains(member.key) else {
          return .failure(Problem(message: "\(at)'\(member.key)' has the wrong type (\(member.value.typeDescription))"))
        }
        let guess = closestMatch(to: member.key, in: keys).map { "; did you mean '\($0)'?" } ?? ""
        return .failure(Problem(message: "\(at)'\(member.key)' is not an OnboardingContext key\(guess)"))
      }
    }
    return .success(context)
  }
}
