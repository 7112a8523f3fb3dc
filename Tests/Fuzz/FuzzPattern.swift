// libFuzzer target: FlowPattern on any bytes. The first line is a pattern, the rest a subject:
// compiling, matching (both anchorings), the syntax tree, the backtracking analysis and the
// example builder must neither crash nor hang (a match ends within PatternLimits; -timeout
// catches anything slower). Built by .ci/fuzz (not a SwiftPM target).
import FlowPattern

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? size
  let source = String(decoding: bytes[..<split], as: UTF8.self)
  let subject = String(decoding: bytes[min(split + 1, size)...], as: UTF8.self)
  let scalars = source.unicodeScalars.count
  var whole: Pattern?
  for anchoring in [Pattern.Anchoring.wholeText, .anywhere] {
    do {
      let pattern = try Pattern(source, anchoring: anchoring)
      _ = pattern.match(subject)
      _ = pattern.match(source)
      if anchoring == .wholeText { whole = pattern }
    } catch {
      precondition(error.offset >= 0 && error.offset <= scalars, "error offset out of range: \(error)")
    }
  }
  if let syntax = PatternSyntax(source) {
    for node in syntax.nodes {
      precondition(node.start <= node.end && node.end <= scalars, "node range out of bounds: \(node)")
    }
    for risk in syntax.backtrackingRisks {
      precondition(risk.group.upperBound <= scalars && risk.part.upperBound <= scalars, "risk out of bounds: \(risk)")
      precondition(
        risk.group.lowerBound <= risk.part.lowerBound && risk.part.upperBound <= risk.group.upperBound,
        "the part is not inside its group: \(risk)")
    }
  }
  // Whatever the pattern, an example is a text it matches.
  if let whole, let example = whole.example(lengths: 0...64) {
    precondition(whole.match(example) == .matched, "example \(example) does not match \(source)")
  }
  return 0
}
