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
      return "no behavioural difference (\(behaviour.tried) paths replayed on both)"
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

  func text() -> String {
    var out = "diff \(oldPath) → \(newPath): \(summary)\n"
    if !changes.isEmpty {
      out += "\nchanges:\n"
      for change in changes { out += "  \(change.line)\n" }
    }
    if !behaviour.paths.isEmpty {
      out += "\npaths that change (shortest inputs that show it):\n"
      for (index, path) in behaviour.paths.enumerated() {
        let variants = path.variants.isEmpty ? "" : " [variants \(BehaviourDiff.variantText(path.variants))]"
        out +=
          "  \(index + 1).\(variants) \(path.steps.isEmpty ? "at the start" : path.steps.joined(separator: ", "))\n"
        out += "     old: \(path.old)\n     new: \(path.new)\n"
        for line in path.data { out += "     data \(line)\n" }
      }
    }
    if !eventLines.isEmpty {
      out += "\nevents:\n"
      for line in eventLines { out += "  \(line)\n" }
    }
    if !brokenScripts.isEmpty {
      out += "\nscripts that pass on old and fail on new:\n"
      for script in brokenScripts { out += "  \(script.file): \(script.message)\n" }
    }
    return out
  }

  func markdown() -> String {
    var out = "### flowrun diff `\(oldPath)` → `\(newPath)`\n\n\(summary)\n"
    if !changes.isEmpty {
      out += "\n#### Changes\n\n"
      for change in changes { out += "- \(change.line)\n" }
    }
    if !behaviour.paths.isEmpty {
      out += "\n#### Paths that change\n\n| # | inputs | old | new | data |\n|---|---|---|---|---|\n"
      for (index, path) in behaviour.paths.enumerated() {
        let variants = path.variants.isEmpty ? "" : "variants \(BehaviourDiff.variantText(path.variants)): "
        let inputs = variants + (path.steps.isEmpty ? "(start)" : path.steps.map { "`\($0)`" }.joined(separator: " "))
        let cells = [inputs, path.old, path.new, path.data.joined(separator: "<br>")].map(Self.cell)
        out += "| \(index + 1) | " + cells.joined(separator: " | ") + " |\n"
      }
    }
    if !eventLines.isEmpty {
      out += "\n#### Events\n\n"
      for line in eventLines { out += "- \(line)\n" }
    }
    if !brokenScripts.isEmpty {
      out += "\n#### Scripts that pass on old and fail on new\n\n"
      for script in brokenScripts { out += "- `\(script.file)`: \(Self.cell(script.message))\n" }
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
