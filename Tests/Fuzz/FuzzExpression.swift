// libFuzzer target: the expression, condition and template parsers, and evaluation of what
// parses. Built by .ci/fuzz (not a SwiftPM target).
import FlowExpression

let environment: [String: Value] = [
  "goal": "build", "age": 30, "age_text": "30", "hours_daily": 2, "value": 1_234_567,
  "name": "sam", "empty_text": "", "nothing": nil, "tags": ["a", "b"], "zero": 0, "flag": true,
  "big": 1e300, "tiny": .number(.leastNonzeroMagnitude), "negative": -2.5,
  "$user": ["id": "u1", "plan": "pro"], "$variant": ["onb_length": "short"], "$platform": "ios",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let length = text.utf8.count
  do {
    let expression = try Expression.parse(text)
    _ = expression.variableNames
    _ = try? expression.evaluate(in: environment)
  } catch {
    precondition(error.offset >= 0 && error.offset + error.length <= length, "error range out of bounds: \(error)")
  }
  if let condition = try? Condition.parse(text) {
    _ = condition.evaluate(in: environment)
  }
  let template = Template(parsing: text)
  _ = template.syntaxIssues
  _ = template.variableNames
  _ = template.render(in: environment)
  return 0
}
