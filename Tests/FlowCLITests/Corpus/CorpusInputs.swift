import Foundation

/// Inputs made at run time (`make:` in cases.yaml): too big to commit, or not files at all
/// (FIFOs, unreadable files, directories, links, endless streams).
enum GeneratedInput: Sendable {
  case bytes([UInt8])
  /// A FIFO whose writer opens it once flowrun does and writes these bytes (over and over
  /// with `endless`, until flowrun stops reading).
  case fifo([UInt8], endless: Bool)
  /// A file of mode 000 (flowrun then runs as `nobody` when the runner is root, who reads
  /// everything).
  case unreadable([UInt8])
  case directory
  case symlink(to: String)
  /// Standard input only: these bytes over and over (`yes 1`).
  case endless([UInt8])
}

enum CorpusInputs {
  typealias Generator = @Sendable (_ argument: String) -> GeneratedInput

  /// `make: "NAME ARGUMENT"`: the generator and its argument (a count, or a fixture's name).
  static func generator(_ make: String) -> (Generator, String)? {
    let parts = make.split(separator: " ", maxSplits: 1).map(String.init)
    guard let generator = generator(named: parts[0]) else { return nil }
    return (generator, parts.count > 1 ? parts[1] : "")
  }

  static func count(_ argument: String) -> Int { Int(argument.replacingOccurrences(of: "_", with: "")) ?? 1 }

  /// The generator called `name`, nil when there is none.
  static func generator(named name: String) -> Generator? {
    switch name {
    // Nesting.
    case "deep-arrays": return { .bytes(nested(count($0), open: "[", close: "]")) }
    case "deep-objects": return { .bytes(nested(count($0), open: #"{"a":"#, close: "}")) }
    case "deep-unclosed": return { .bytes(Array(String(repeating: #"[{"k":"#, count: count($0)).utf8)) }
    case "deep-in-flow":
      return {
        .bytes(
          Array(
            #"{"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "content": {}, "metadata": "#.utf8)
            + nested(count($0), open: "[", close: "]") + Array("}]}".utf8))
      }
    case "deep-condition":
      return {
        .bytes(
          flow(text: "hi", rules: #"[{"when": ""# + String(repeating: "(", count: count($0)) + #"1", "goto": "a"}]"#))
      }
    case "deep-template": return { .bytes(flow(text: "{" + String(repeating: "-", count: count($0)) + "1}")) }
    case "long-operator-chain":
      return {
        .bytes(
          flow(
            text: "hi", rules: #"[{"when": ""# + String(repeating: "a || ", count: count($0)) + #"a", "goto": "a"}]"#))
      }
    case "deep-visible-when":
      return {
        .bytes(
          flow(
            text: "hi",
            visibleWhen: String(repeating: #"{"not": "#, count: count($0)) + #"{"field": "x", "op": "is_set"}"#
              + String(repeating: "}", count: count($0))))
      }
    case "subflow-chain": return { .bytes(subflowChain(count($0))) }
    case "subflow-chain-cycle": return { .bytes(subflowChain(count($0), cycle: true)) }
    case "deep-script":
      return {
        .bytes(
          Array(
            "flow: ok.json\nsteps: \(String(repeating: "[", count: count($0)))\(String(repeating: "]", count: count($0)))\n"
              .utf8))
      }
    case "deep-script-unclosed":
      return { .bytes(Array("flow: ok.json\nsteps: \(String(repeating: "[{a: ", count: count($0)))\n".utf8)) }
    case "deep-json-script":
      return {
        .bytes(
          Array(#"{"flow": "ok.json", "steps": "#.utf8) + nested(count($0), open: "[", close: "]") + Array("}".utf8))
      }
    case "deep-ok-payload":
      return {
        .bytes(
          Array(
            (":ok " + String(repeating: "[", count: count($0)) + String(repeating: "]", count: count($0)) + "\n").utf8))
      }
    case "laughs": return { .bytes(Array(laughs(levels: count($0)).utf8)) }
    // Sizes.
    case "huge-text": return { .bytes(flow(text: String(repeating: "All work and no play. ", count: count($0)))) }
    case "huge-escapes": return { .bytes(flow(text: String(repeating: #"\u00e9\n\"\\"#, count: count($0)))) }
    case "huge-unterminated-string":
      return {
        .bytes(
          Array(#"{"version": 1, "screens": [{"id": ""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: count($0)))
      }
    case "huge-key":
      return {
        var bytes = flow(text: "hi")
        bytes.removeLast()  // the closing brace
        return .bytes(
          bytes + Array(#", ""#.utf8) + Array(repeating: UInt8(ascii: "k"), count: count($0)) + Array(#"": 1}"#.utf8))
      }
    case "huge-number":
      return {
        var bytes = flow(text: "hi")
        bytes.removeLast()
        return .bytes(
          bytes + Array(#", "metadata": 1"#.utf8) + Array(repeating: UInt8(ascii: "9"), count: count($0))
            + Array("}".utf8))
      }
    case "error-at-end-of-long-line":
      return {
        .bytes(Array("[".utf8) + Array(String(repeating: "1,", count: count($0)).utf8) + Array("1 2]".utf8))
      }
    case "many-screens-missing-content":
      return {
        let screens = (0..<count($0)).map { #"{"id": "s\#($0)", "name": "S", "type": "feature"}"# }
        return .bytes(
          Array(#"{"version": 1, "screens": ["#.utf8) + Array(screens.joined(separator: ",\n").utf8) + Array("]}".utf8))
      }
    case "many-screens": return { .bytes(Array(manyScreens(count($0)).utf8)) }
    case "many-items": return { .bytes(Array(checklist(items: count($0)).utf8)) }
    case "bundle": return { .bytes(Array(bundle(flows: count($0)).utf8)) }
    case "many-typos": return { .bytes(Array(typos(count($0)).utf8)) }
    case "huge-script":
      return {
        .bytes(
          Array(
            ("flow: ok.json\nsteps:\n" + String(repeating: "  - expect: {screen: welcome}\n", count: count($0))).utf8))
      }
    case "over-script-limit":
      return { _ in
        .bytes(Array("flow: ok.json\nsteps: []\n# ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 64 << 20))
      }
    // Answer streams.
    case "repeat":
      return {
        let parts = $0.split(separator: " ", maxSplits: 1)
        let line = parts.count > 1 ? String(parts[1]) : ""
        return .bytes(Array(String(repeating: line + "\n", count: count(String(parts[0]))).utf8))
      }
    case "endless": return { .endless(Array(($0 + "\n").utf8)) }
    case "endless-zeros": return { _ in .endless([UInt8](repeating: 0, count: 65_536)) }
    case "long-line": return { .bytes([UInt8](repeating: UInt8(ascii: "a"), count: count($0)) + Array("\n1\n".utf8)) }
    // Files that are not plain files.
    case "fifo": return { .fifo(fixture($0), endless: false) }
    case "fifo-zeros": return { _ in .fifo([UInt8](repeating: 0, count: 65_536), endless: true) }
    case "unreadable": return { .unreadable(fixture($0)) }
    case "directory": return { _ in .directory }
    case "symlink": return { .symlink(to: $0) }
    default: return nil
    }
  }

  static func fixture(_ name: String) -> [UInt8] {
    let url = CorpusCase.directory.appendingPathComponent("fixtures").appendingPathComponent(name)
    return (try? [UInt8](Data(contentsOf: url))) ?? []
  }

  static func nested(_ depth: Int, open: String, close: String) -> [UInt8] {
    Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8)
  }

  /// A one-screen flow whose text block holds `text` (already JSON), with `rules` (JSON) and a
  /// `visibleWhen` condition (JSON) on the text block.
  static func flow(text: String, rules: String = "[]", visibleWhen: String? = nil) -> [UInt8] {
    let condition = visibleWhen.map { #", "visibleWhen": \#($0)"# } ?? ""
    return Array(
      #"{"version": 1, "screens": [{"id": "a", "name": "A", "type": "feature", "rules": "#.utf8) + Array(rules.utf8)
      + Array(#", "content": {"blocks": [{"id": "t", "type": "text"\#(condition), "content": {"text": ""#.utf8)
      + Array(text.utf8) + Array(#""}}, {"id": "go", "type": "button", "content": {"text": "Done"}}]}}]}"#.utf8)
  }

  /// A bundle of `count` flows, each running the next; with `cycle`, the last runs the first.
  static func subflowChain(_ count: Int, cycle: Bool = false) -> [UInt8] {
    let flows = (0..<count).map { i in
      let next = i + 1 < count ? "f\(i + 1)" : (cycle ? "f0" : nil)
      let runs = next.map { #"{"id": "s", "name": "S", "type": "flow", "flow": "\#($0)", "content": {}}, "# } ?? ""
      return
        #""f\#(i)": {"version": 1, "screens": [\#(runs){"id": "e", "name": "E", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "content": {"text": "Go"}}]}}]}"#
    }
    return Array(#"{"activeFlow": "f0", "flows": {\#(flows.joined(separator: ",\n"))}}"#.utf8)
  }

  /// The "billion laughs": each level an anchored list of ten aliases of the level below.
  static func laughs(levels: Int) -> String {
    var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in 1...max(1, levels) {
      lines.append(
        "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
    }
    return "flow: ok.json\nname: laughs\n" + lines.joined(separator: "\n") + "\nsteps: []\n"
  }

  /// `count` screens in a row, each with an input (the first collects `name`, which every
  /// text reads) and a button, the last completing.
  static func manyScreens(_ count: Int) -> String {
    let screens = (0..<count).map { i in
      #"{"id": "s\#(i)", "name": "Screen \#(i)", "type": "feature", "content": {"blocks": [{"id": "t", "type": "text", "content": {"text": "Step \#(i) of \#(count), {name | default: 'friend'}"}}, {"id": "in", "type": "input", "content": {"fieldName": "\#(i == 0 ? "name" : "f\(i)")", "label": "Field \#(i)"}}, {"id": "go", "type": "button", "content": {"text": "Next"}}]}}"#
    }
    return #"{"version": 1, "id": "many", "screens": [\#(screens.joined(separator: ",\n"))]}"#
  }

  /// One multiple-choice checklist of `items` options, then an end screen.
  static func checklist(items: Int) -> String {
    let options = (0..<items).map { #"{"id": "o\#($0)", "label": "Option \#($0)"}"# }.joined(separator: ", ")
    return #"""
      {"version": 1, "id": "checklist", "screens": [
      {"id": "pick", "name": "Pick", "type": "feature", "content": {"blocks": [{"id": "c", "type": "checklist", "content": {"fieldName": "picked", "allowMultiple": true, "items": [\#(options)]}}, {"id": "go", "type": "button", "content": {"text": "Next"}}]}},
      {"id": "end", "name": "End", "type": "feature", "content": {"blocks": [{"id": "done", "type": "button", "content": {"text": "Done", "action": {"type": "complete"}}}]}}]}
      """#
  }

  /// A bundle of `flows` flows of seven screens each (an input, a checklist with rules, a
  /// slider, an awaited action, a screen running the next flow), the shape of an editor's
  /// export.
  static func bundle(flows: Int) -> String {
    let bodies = (0..<flows).map { f in
      let next =
        f + 1 < flows
        ? #"{"id": "sub", "name": "Next flow", "type": "flow", "flow": "flow\#(f + 1)", "content": {}},"# : ""
      return #"""
        "flow\#(f)": {"version": 1, "id": "flow\#(f)", "name": "Flow \#(f)", "screens": [
          {"id": "intro", "name": "Intro", "type": "welcome", "content": {"title": "Flow \#(f)", "subtitle": "Hello {name\#(f) | default: 'friend'}"}},
          {"id": "ask", "name": "Ask", "type": "form", "content": {"blocks": [{"id": "n", "type": "input", "content": {"fieldName": "name\#(f)", "label": "Name", "required": true}}, {"id": "go", "type": "button", "content": {"text": "Next"}}]}},
          {"id": "pick", "name": "Pick", "type": "question", "content": {"blocks": [{"id": "c", "type": "checklist", "content": {"fieldName": "pick\#(f)", "items": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}]}}]},
           "rules": [{"when": "pick\#(f) == 'a'", "goto": "slide"}, {"when": "pick\#(f) == 'b'", "goto": "allow"}, {"goto": "done"}]},
          {"id": "slide", "name": "Slide", "type": "feature", "content": {"blocks": [{"id": "s", "type": "slider", "content": {"fieldName": "hours\#(f)", "min": 0, "max": 8}}, {"id": "go", "type": "button", "content": {"text": "Next"}}]}},
          {"id": "allow", "name": "Allow", "type": "permission", "content": {"blocks": [{"id": "a", "type": "button", "content": {"text": "Allow", "action": {"type": "custom", "identifier": "permission.notifications", "awaitResult": true}}}]}},
          \#(next)
          {"id": "done", "name": "Done", "type": "celebration", "content": {"title": "Done {name\#(f)}", "buttonText": "Finish", "buttonAction": {"type": "complete"}}}]}
        """#
    }
    return #"{"activeFlow": "flow0", "flows": {"# + bodies.joined(separator: ",\n") + "}}"
  }

  /// `count` screens whose buttons go to misspelt screen ids and whose blocks carry misspelt
  /// keys: every one a did-you-mean.
  static func typos(_ count: Int) -> String {
    let screens = (0..<count).map { i in
      #"{"id": "screen_\#(i)", "name": "S\#(i)", "type": "feature", "content": {"blocks": [{"id": "go", "type": "button", "contnet": {}, "content": {"text": "Go", "action": {"type": "screen", "screenId": "screen_\#(i)x"}}}]}}"#
    }
    return #"{"version": 1, "id": "typos", "screens": [\#(screens.joined(separator: ",\n"))]}"#
  }
}
