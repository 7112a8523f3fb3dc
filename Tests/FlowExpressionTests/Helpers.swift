import FlowExpression
import FlowPattern

/// Renders a tree as a fully parenthesized S-expression so precedence is visible in tests.
func sexp(_ e: Expression) -> String {
  switch e.kind {
  case .literal(let v): v.description
  case .pattern(let p): Value.string(p.source).description
  case .list(let items): "[" + items.map(sexp).joined(separator: " ") + "]"
  case .name(let n): n
  case .member(let base, let name): "(. \(sexp(base)) \(name))"
  case .index(let base, let index): "([] \(sexp(base)) \(sexp(index)))"
  case .unary(let op, let operand): "(\(op.rawValue) \(sexp(operand)))"
  case .binary(let op, let l, let r): "(\(op.rawValue) \(sexp(l)) \(sexp(r)))"
  case .call(let f, let args): "(\(f.rawValue)" + args.map { " " + sexp($0) }.joined() + ")"
  case .test(let t, let operand): "(\(t.rawValue) \(sexp(operand)))"
  }
}

/// Parses or fails the test with the parse error's message.
func parsed(_ text: String) throws -> Expression {
  try Expression.parse(text)
}

/// The sample data most tests evaluate against.
let sampleData: [String: Value] = [
  "goal": "build",
  "age": 30,
  "age_text": "30",
  "hours_per_day": 2,
  "minutes_saved": 30,
  "value": 1_234_567,
  "name": "sam",
  "empty_text": "",
  "nothing": nil,
  "tags": ["a", "b"],
  "no_tags": [],
  "zero": 0,
  "flag": true,
  "$user": ["id": "u1", "plan": "pro"],
  "$variant": ["onb_length": "short"],
  "$platform": "ios",
]

/// Evaluates in strict (template) mode, returning the error's description on failure.
func evaluate(
  _ text: String, _ data: [String: Value] = sampleData
) throws -> Result<
  Value, EvaluationError
> {
  let expression = try parsed(text)
  do throws(EvaluationError) {
    return .success(try expression.evaluate(in: data))
  } catch {
    return .failure(error)
  }
}
