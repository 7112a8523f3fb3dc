import FlowFormat
import FlowGenerator

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

/// Seeded randomness for property tests, so failures reproduce.
typealias SeededGenerator = SplitMix64
