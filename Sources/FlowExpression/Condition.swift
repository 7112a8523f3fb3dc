/// A `when` / `visibleWhen` condition: an expression tree plus the source text it is shown as.
///
/// Text conditions keep their original text; structured ones (`{field, op, value}`, `all`,
/// `any`, `not`) are rendered to text first (`goal equals 'build'`) and their tree's ranges
/// point into that rendering, so traces can quote any clause of either form the same way.
public struct Condition: Hashable, Sendable {
  /// Which form the condition was written in.
  public enum Form: Hashable, Sendable {
    /// An expression string.
    case text
    /// A structured object or a combination of conditions.
    case structured
  }

  /// The compiled tree.
  public let expression: Expression
  /// The text shown in traces; the tree's ranges are offsets into it.
  public let source: String
  /// Which form the condition came from.
  public let form: Form

  /// Creates a condition from a tree and the source text its ranges refer to.
  public init(expression: Expression, source: String, form: Form) {
    self.expression = expression
    self.source = source
    self.form = form
  }

  /// The root names the condition reads (for the linter).
  public var variableNames: [String] { expression.variableNames }

  /// Parses an expression-string condition.
  public static func parse(_ text: String) throws(ExpressionError) -> Condition {
    Condition(expression: try Expression.parse(text), source: text, form: .text)
  }

  /// A condition that always holds (a rule without `when`, or `all` of nothing).
  public static let always = Condition(
    expression: Expression(.literal(.bool(true)), range: SourceRange(offset: 0, length: 4)),
    source: "true", form: .structured)

  /// A condition that never holds (`any` of nothing).
  public static let never = Condition(
    expression: Expression(.literal(.bool(false)), range: SourceRange(offset: 0, length: 5)),
    source: "false", form: .structured)

  /// `{"all": [...]}`: holds when every condition holds (rendered joined by `&&`).
  public static func all(_ conditions: [Condition]) -> Condition {
    combine(conditions, with: .and) ?? .always
  }

  /// `{"any": [...]}`: holds when some condition holds (rendered joined by `||`).
  public static func any(_ conditions: [Condition]) -> Condition {
    combine(conditions, with: .or) ?? .never
  }

  /// `{"not": C}`: holds when `condition` does not (rendered `not (…)`).
  public static func not(_ condition: Condition) -> Condition {
    let prefix = "not ("
    let source = prefix + condition.source + ")"
    let inner = condition.expression.shifted(by: prefix.utf8.count)
    return Condition(
      expression: Expression(
        .unary(.not, inner), range: SourceRange(offset: 0, length: source.utf8.count)),
      source: source, form: .structured)
  }

  private static func combine(_ conditions: [Condition], with op: BinaryOperator) -> Condition? {
    guard var combined = conditions.first.map({ parenthesized($0, inside: op) }) else { return nil }
    if conditions.count == 1 { return conditions[0] }
    let separator = op == .and ? " && " : " || "
    for next in conditions.dropFirst() {
      let right = parenthesized(next, inside: op)
      let offset = combined.source.utf8.count + separator.utf8.count
      let source = combined.source + separator + right.source
      let rhs = right.expression.shifted(by: offset)
      combined = Condition(
        expression: Expression(
          .binary(op, combined.expression, rhs),
          range: combined.expression.range.union(rhs.range)),
        source: source, form: .structured)
    }
    return combined
  }

  /// Wraps an `||` condition in parentheses when it becomes a clause of an `&&`.
  private static func parenthesized(_ condition: Condition, inside op: BinaryOperator) -> Condition {
    guard op == .and, case .binary(.or, _, _) = condition.expression.kind else { return condition }
    return Condition(
      expression: condition.expression.shifted(by: 1), source: "(" + condition.source + ")",
      form: condition.form)
  }
}
