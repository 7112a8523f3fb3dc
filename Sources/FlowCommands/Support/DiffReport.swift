import FlowAnalysis
import FlowFormat

/// What `flowrun diff` found, and its text, JSON and Markdown forms.
struct DiffReport {
  var oldPath: String
  var newPath: String
  var changes: [FlowChange]
  var behaviour: BehaviourDiff
  /// Scripts of `--scripts` that pass on the old version and fail on the new, with the failure.
  var brokenScripts: [(file: String, message: String)] = []
  var scriptsRun = 0

  var isIdentical: Bool {
    changes.isEmpty && behaviour.paths.isEmpty && behaviour.eventsOnlyOld.isEmpty
      && behaviour.eventsOnlyNew.isEmpty && brokenScripts.isEmpty
  }

  private var eventLines: [String] {
    behaviour.eventsOnlyOld.map { "only in old: \($0)" } + behaviour.eventsOnlyNew.map { "only in new: \($0)" }
  }

  private var summary: String {
    if isIdentical {
      return "no behavioural difference (\(behaviour.tried) transitions replayed on both)"
        + (behaviour.incomplete ? "; exploration stopped at a bound, paths past it not compared" : "")
    }
    var parts = [
      "\(changes.count) model change\(changes.count == 1 ? "" : "s")",
      "\(behaviour.paths.count) path\(behaviour.paths.count == 1 ? "" : "s") changed",
      "\(eventLines.count) event change\(eventLines.count == 1 ? "" : "s")",
    ]
    if scriptsRun > 0 { parts.append("\(brokenScripts.count) of \(scriptsRun) scripts broken") }
    return parts.joined(separator: ", ")
  }

  /// The report's sections in order: a title (text, Markdown) and its lines, or, for the
  /// paths, nil lines (each format draws them its own way).
  private var sections: [(text: String, markdown: String, lines: [String]?)] {
    [
      ("changes:", "Changes", changes.map(\.line)),
      ("paths that change (shortest inputs that show it):", "Paths that change", nil),
      ("events:", "Events", eventLines),
      (
        "scripts that pass on old and fail on new:", "Scripts that pass on old and fail on new",
        brokenScripts.map { "\($0.file): \($0.message)" }
      ),
    ]
  }

  func text() -> String {
    var out = "diff \(oldPath) → \(newPath): \(summary)\n"
    for section in sections {
      let lines =
        section.lines
        ?? behaviour.paths.enumerated().map { index, path in
          let variants = path.variants.isEmpty ? "" : " [variants \(BehaviourDiff.variantText(path.variants))]"
          let steps = path.steps.isEmpty ? "at the start" : path.steps.joined(separator: ", ")
          let data = path.data.map { "\n     data \($0)" }.joined()
          return "\(index + 1).\(variants) \(steps)\n     old: \(path.old)\n     new: \(path.new)" + data
        }
      guard !lines.isEmpty else { continue }
      out += "\n\(section.text)\n" + lines.map { "  \($0)\n" }.joined()
    }
    return out
  }

  func markdown() -> String {
    var out = "### flowrun diff `\(oldPath)` → `\(newPath)`\n\n\(summary)\n"
    for section in sections {
      if let lines = section.lines {
        guard !lines.isEmpty else { continue }
        out += "\n#### \(section.markdown)\n\n" + lines.map { "- \(Self.cell($0))\n" }.joined()
        continue
      }
      guard !behaviour.paths.isEmpty else { continue }
      out += "\n#### \(section.markdown)\n\n| # | inputs | old | new | data |\n|---|---|---|---|---|\n"
      for (index, path) in behaviour.paths.enumerated() {
        let variants = path.variants.isEmpty ? "" : "variants \(BehaviourDiff.variantText(path.variants)): "
        let inputs = variants + (path.steps.isEmpty ? "(start)" : path.steps.map { "`\($0)`" }.joined(separator: " "))
        let cells = [inputs, path.old, path.new, path.data.joined(separator: "<br>")].map(Self.cell)
        out += "| \(index + 1) | " + cells.joined(separator: " | ") + " |\n"
      }
    }
    return out
  }

  /// A table cell: pipes escaped, line breaks as `<br>`.
  private static func cell(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>").split(
      separator: "|", omittingEmptySubsequences: false
    ).joined(separator: "\\|")
  }

  func json() -> String {
    let paths: [JSONWriter.Value] = behaviour.paths.map { path in
      [
        "variants": .sortedObject(path.variants.mapValues { .string($0) }),
        "steps": .array(path.steps.map { .string($0) }), "old": .string(path.old), "new": .string(path.new),
        "data": .array(path.data.map { .string($0) }),
      ]
    }
    let value: JSONWriter.Value = [
      "old": .string(oldPath), "new": .string(newPath), "identical": .bool(isIdentical),
      "changes": .array(
        changes.map {
          ["flow": .string($0.flow), "screen": $0.screen.map { .string($0) } ?? nil, "change": .string($0.text)]
        }
      ),
      "paths": .array(paths), "pathsTried": .int(behaviour.tried), "explorationComplete": .bool(!behaviour.incomplete),
      "events": [
        "onlyOld": .array(behaviour.eventsOnlyOld.map { .string($0) }),
        "onlyNew": .array(behaviour.eventsOnlyNew.map { .string($0) }),
      ],
      "brokenScripts": .array(brokenScripts.map { ["file": .string($0.file), "message": .string($0.message)] }),
    ]
    return JSONWriter.pretty.string(value) + "\n"
  }
}
