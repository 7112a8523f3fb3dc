import FlowExpression
import FlowFormat
import Testing

@testable import FlowReplay

/// Bounds on what a script may ask of its reader: nesting, YAML alias expansion, numbers; a
/// byte order mark is no content.
@Suite struct ScriptLimitsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// `id@line:col` of the first diagnostic, or nil when the script must parse.
    var first: String?
    var message: String? = nil
    var testDescription: String { name }
  }

  static func laughs(levels: Int, width: Int = 10) -> String {
    var lines = ["a0: &a0 [" + Array(repeating: "x", count: width).joined(separator: ", ") + "]"]
    for level in 1...levels {
      lines.append(
        "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: width).joined(separator: ", ") + "]")
    }
    return "flow: a.json\ntraits:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\nsteps: []\n"
  }

  static let deep = 10_000

  static let cases: [Case] = [
    Case(
      name: "10,000 nested [",
      text: "flow: a.json\nsteps: " + String(repeating: "[", count: deep) + String(repeating: "]", count: deep) + "\n",
      first: "script.too-deep@2:519", message: "nesting deeper than 512 levels"),
    Case(
      name: "nested flow mappings, unclosed",
      text: "flow: a.json\nsteps: " + String(repeating: "[{a: ", count: deep) + "\n",
      first: "script.too-deep@2:1284"),
    Case(
      name: "nested block sequences", text: "flow: a.json\nsteps:\n" + String(repeating: "- ", count: deep) + "x\n",
      first: "script.too-deep@3:1023"),
    Case(
      name: "nested block mappings",
      text: "flow: a.json\nsteps:\n"
        + (0..<600).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " x\n",
      first: "script.too-deep@515:513"),
    Case(
      name: "512 levels are fine",
      text: "flow: a.json\ntraits:\n  x: " + String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        + "\n"),
    Case(
      name: "nested JSON", text: "{\"flow\": \"a.json\", \"x\": " + String(repeating: "[", count: deep) + "}",
      first: "json.syntax.too-deep@1:536"),
    Case(
      name: "billion laughs, 8 levels", text: laughs(levels: 8), first: "script.alias-expansion@7:47",
      message: "the alias *a3 expands the script past 100,000 nodes (aliases may add at most 100,000 in all)"),
    Case(name: "aliases within the budget", text: laughs(levels: 3)),
    Case(
      name: "a chain of aliases",
      text: "flow: a.json\ntraits:\n  a0: &a0 x\n"
        + (1...1000).map { "  a\($0): &a\($0) [*a\($0 - 1)]" }.joined(separator: "\n") + "\n",
      first: "script.alias-expansion@450:16"),
    Case(
      name: "an alias nested too deeply",
      text: "flow: a.json\ntraits:\n  a0: &a0 x\n"
        + (1...100).map { "  a\($0): &a\($0) [*a\($0 - 1)]" }.joined(separator: "\n") + "\n"
        + "  deep: " + String(repeating: "[", count: 450) + "*a100" + String(repeating: "]", count: 450) + "\n",
      first: "script.too-deep@104:459", message: "the alias *a100 nests the script deeper than 512 levels"),
    Case(
      name: "an aliased key", text: laughs(levels: 4, width: 9).replacing("steps: []", with: "y:\n  ? *a4\n  : 1\n"),
      first: "script.alias-expansion@9:5"),
    Case(name: "a byte order mark", text: "\u{FEFF}flow: a.json\nsteps: [next]\n"),
    Case(name: "a byte order mark before JSON", text: "\u{FEFF}{\"flow\": \"a.json\", \"steps\": [\"next\"]}"),
    Case(
      name: "a byte order mark before Yams' YAML", text: "\u{FEFF}flow: a.json\nsteps: [\"next\\u0020\"]\n",
      first: "script.unknown-step@2:9"),
    Case(name: "wait at the bound", text: "flow: a.json\nsteps:\n  - wait: 1000000000000\n"),
    Case(
      name: "wait past the bound", text: "flow: a.json\nsteps:\n  - wait: 1000000000001\n",
      first: "script.invalid-value@3:11",
      message: "steps[0].wait: wait must be between 0 and 1,000,000,000,000 milliseconds, found 1000000000001"),
    Case(name: "now in year 0", text: "flow: a.json\nnow: 0000-01-01\n"),
    Case(
      name: "now before year 0", text: "flow: a.json\nnow: 0000-01-01T00:00:00+01:00\n",
      first: "script.invalid-value@2:6",
      message:
        "now: '0000-01-01T00:00:00+01:00': the virtual clock runs from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"
    ),
    Case(
      name: "now as epoch milliseconds past year 9999", text: "flow: a.json\nnow: 253402300800000\n",
      first: "script.invalid-value@2:6"),
  ]

  @Test(arguments: cases)
  func scriptWithinOrPastABound(_ test: Case) {
    let file = test.name.contains("JSON") ? "t/case.flow-test.json" : "t/case.flow-test.yaml"
    let result = parseScript(test.text, file: file)
    guard let first = test.first else {
      #expect(result.script != nil, "\(formatted(result, file: file))")
      #expect(result.diagnostics.isEmpty, "\(formatted(result, file: file))")
      return
    }
    #expect(result.script == nil)
    let diagnostic = result.diagnostics.first
    let position = diagnostic.flatMap { d in d.location.map { "\(d.id)@\($0.line):\($0.column)" } }
    #expect(position == first, "\(formatted(result, file: file))")
    if let message = test.message { #expect(diagnostic?.message == message) }
  }

  /// A UTF-16 script, with or without its byte order mark, either byte order, YAML or JSON, is
  /// said to be UTF-16 (not "control characters" at some column); other bytes are not.
  @Test(arguments: [
    (
      "little-endian with a mark", [0xFF, 0xFE] + utf16("flow: a.json\n", bigEndian: false), "t/a.flow-test.yaml", true
    ),
    ("big-endian with a mark", [0xFE, 0xFF] + utf16("flow: a.json\n", bigEndian: true), "t/a.flow-test.yaml", true),
    ("little-endian, no mark", utf16("flow: a.json\n", bigEndian: false), "t/a.flow-test.yaml", true),
    ("big-endian JSON, no mark", utf16("{\"flow\": \"a.json\"}", bigEndian: true), "t/a.flow-test.json", true),
    ("a zero byte beside a control byte", [0x00, 0x01, 0x41], "t/a.flow-test.yaml", false),
  ])
  func utf16ScriptsAreNamed(_ name: String, _ bytes: [UInt8], _ file: String, _ isUTF16: Bool) {
    let result = ScriptParser.parse(bytes: bytes, file: file)
    #expect(result.script == nil, "\(name)")
    let said = result.diagnostics.first?.message == "this file is UTF-16 encoded (replay scripts must be UTF-8)"
    #expect(said == isUTF16, "\(name): \(result.diagnostics.map(\.message))")
  }

  static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
    text.utf16.flatMap { unit in
      let high = UInt8(unit >> 8)
      let low = UInt8(unit & 0xFF)
      return bigEndian ? [high, low] : [low, high]
    }
  }

  /// What the subset reader and Yams' path give for a script within the bounds is the same tree
  /// whether or not the text starts with a byte order mark.
  @Test func byteOrderMarkChangesNoPosition() {
    let text = "flow: a.json\nsteps:\n  - tapp: Go\n"
    let plain = parseScript(text).diagnostics.map { "\($0.id)@\($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
    let marked = parseScript("\u{FEFF}" + text).diagnostics.map {
      "\($0.id)@\($0.location?.line ?? 0):\($0.location?.column ?? 0)"
    }
    #expect(plain == ["script.unknown-key@3:5"])
    #expect(marked == plain)
  }
}
