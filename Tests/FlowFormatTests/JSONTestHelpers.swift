import FlowFormat

typealias Location = FlowFormat.SourceLocation

/// Parses `text` as the file `test.json`.
func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> (JSONValue?, [Diagnostic]) {
  JSONParser.parse(Array(text.utf8), file: "test.json", maxDepth: maxDepth)
}

/// The line and column of `offset` computed the slow way, for checking the parser.
func referencePosition(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
  var line = 1
  var lineStart = 0
  var i = 0
  if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
    i = 3
    lineStart = 3
  }
  while i < offset {
    if bytes[i] == 0x0A {
      line += 1
      lineStart = i + 1
    } else if bytes[i] == 0x0D {
      line += 1
      if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
      lineStart = i + 1
    }
    i += 1
  }
  let prefix = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
  return (line, prefix.unicodeScalars.count + 1)
}

/// Every value and key location in `value`, in document order.
func allLocations(_ value: JSONValue) -> [(SourceLocation, isKey: Bool)] {
  var result: [(SourceLocation, isKey: Bool)] = [(value.location, false)]
  switch value.kind {
  case .array(let elements):
    for e in elements { result += allLocations(e) }
  case .object(let object):
    for m in object.members {
      result.append((m.keyLocation, true))
      result += allLocations(m.value)
    }
  default: break
  }
  return result
}

/// A small deterministic random number generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
