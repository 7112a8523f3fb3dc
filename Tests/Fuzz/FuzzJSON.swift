// libFuzzer target: the located JSON parser, the loader (with the patterns it compiles) and the
// diagnostic formatter. Built by .ci/fuzz (not a SwiftPM target). Crashes here are findings: a
// trap, an out-of-bounds read (AddressSanitizer), or one of the invariants below failing.
import FlowFormat
import FlowPattern

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let (root, diagnostics) = JSONParser.parse(bytes, file: "fuzz.json")
  checkLocations(diagnostics, size: size)
  if root == nil {
    precondition(diagnostics.hasErrors, "no root value but no error")
  } else if let root, !diagnostics.hasErrors {
    // Round trip: what the writer prints must parse back to the same tree.
    let text = JSONWriter.compact.string(root)
    let (again, problems) = JSONParser.parse(Array(text.utf8), file: "again.json")
    precondition(!problems.hasErrors, "the writer's output does not parse: \(text)")
    precondition(again.map { sameTree(root, $0) } ?? false, "round trip changed the value: \(text)")
  }
  let result = FlowLoader.load(bytes: bytes, file: "fuzz.json")
  checkLocations(result.diagnostics, size: size)
  for site in result.patterns { checkPattern(site, in: bytes) }
  _ = DiagnosticFormatter(sources: ["fuzz.json": bytes]).text(result.diagnostics)
  _ = DiagnosticFormatter.json(result.diagnostics)
  return 0
}

/// What `check` and `paths` do with a pattern: positions of its risky groups inside its string
/// literal, and an example that it matches.
func checkPattern(_ site: PatternSite, in bytes: [UInt8]) {
  for risk in PatternSyntax(site.pattern.source)?.backtrackingRisks ?? [] {
    let location = site.location(ofScalar: risk.group.lowerBound, in: bytes)
    precondition(
      location.line == site.location.line && location.offset > site.location.offset && location.offset <= bytes.count,
      "risk of \(site.pattern.source) placed at \(location), outside its literal at \(site.location)")
  }
  if let example = site.pattern.example(lengths: 0...32) {
    precondition(site.pattern.match(example) == .matched, "example \(example) does not match \(site.pattern.source)")
  }
}

func checkLocations(_ diagnostics: [Diagnostic], size: Int) {
  for d in diagnostics {
    for location in [d.location].compactMap({ $0 }) + d.notes.compactMap(\.location) {
      precondition(location.line >= 1 && location.column >= 1, "bad location \(location) in \(d)")
      precondition(location.offset >= 0 && location.offset <= size, "offset out of range in \(d)")
    }
  }
}

func sameTree(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a.kind, b.kind) {
  case (.null, .null): true
  case (.bool(let x), .bool(let y)): x == y
  case (.number(let x, _), .number(let y, _)): x == y
  case (.string(let x), .string(let y)): x == y
  case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy(sameTree)
  case (.object(let x), .object(let y)):
    x.members.count == y.members.count
      && zip(x.members, y.members).allSatisfy { $0.key == $1.key && sameTree($0.value, $1.value) }
  default: false
  }
}
