import FlowFormat

/// JUnit XML and JSON reports of a test run.
public enum ReplayReport {
  /// JUnit XML: `testsuites` › `testsuite` › one `testcase` per script, with `failure`
  /// (expectation failed), `error` (script or flow unreadable) or `skipped`. Times in seconds.
  public static func junit(_ outcomes: [ScriptOutcome], suiteName: String = "flowrun") -> String {
    let failures = outcomes.count { $0.status == .failed }
    let errors = outcomes.count { $0.status == .error }
    let skipped = outcomes.count { $0.status == .skipped }
    let time = seconds(outcomes.reduce(0) { $0 + $1.duration })
    let counts =
      "tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\""
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"\(escape(suiteName))\" \(counts)>\n"
    xml += "  <testsuite name=\"\(escape(suiteName))\" \(counts)>\n"
    for outcome in outcomes {
      let open =
        "    <testcase name=\"\(escape(outcome.name))\" classname=\"\(escape(className(outcome.file)))\" "
        + "file=\"\(escape(outcome.file))\" time=\"\(seconds(outcome.duration))\""
      switch outcome.status {
      case .passed:
        xml += open + "/>\n"
      case .skipped:
        xml +=
          open + ">\n      <skipped message=\"not run after an earlier failure (--fail-fast)\"/>\n    </testcase>\n"
      case .failed, .error:
        let element = outcome.status == .failed ? "failure" : "error"
        let type = outcome.status == .failed ? "expectation" : "load"
        xml += open + ">\n"
        xml += "      <\(element) message=\"\(escape(outcome.summary))\" type=\"\(type)\">"
        xml += escape(outcome.message, attribute: false)
        xml += "</\(element)>\n    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// A JSON report: the summary and one entry per script, in run order (durations vary).
  public static func json(_ outcomes: [ScriptOutcome]) -> String {
    let summary: JSONWriter.Value = .object([
      (key: "passed", value: .int(outcomes.count { $0.status == .passed })),
      (key: "failed", value: .int(outcomes.count { $0.status == .failed })),
      (key: "errors", value: .int(outcomes.count { $0.status == .error })),
      (key: "skipped", value: .int(outcomes.count { $0.status == .skipped })),
      (key: "total", value: .int(outcomes.count)),
    ])
    let scripts: [JSONWriter.Value] = outcomes.map { outcome in
      var members: [(key: String, value: JSONWriter.Value)] = [
        (key: "file", value: .string(outcome.file)),
        (key: "name", value: .string(outcome.name)),
        (key: "status", value: .string(outcome.status.rawValue)),
        (key: "steps_run", value: .int(outcome.stepsRun)),
        (key: "duration_ms", value: .double((outcome.duration * 1_000_000).rounded() / 1000)),
      ]
      if outcome.status == .failed || outcome.status == .error {
        var failure: [(key: String, value: JSONWriter.Value)] = [
          (key: "file", value: outcome.failureFile.map(JSONWriter.Value.string) ?? .null)
        ]
        if let location = outcome.failureLocation {
          failure.append((key: "line", value: .int(location.line)))
          failure.append((key: "column", value: .int(location.column)))
        }
        failure.append((key: "summary", value: .string(outcome.summary)))
        failure.append((key: "message", value: .string(outcome.message)))
        if !outcome.diagnostics.isEmpty {
          failure.append((key: "diagnostics", value: .array(outcome.diagnostics.map(DiagnosticFormatter.jsonValue))))
        }
        members.append((key: "failure", value: .object(failure)))
      }
      if !outcome.trace.isEmpty {
        members.append((key: "trace", value: .array(outcome.trace.map(JSONWriter.Value.string))))
      }
      return .object(members)
    }
    return JSONWriter.pretty.string(
      .object([(key: "summary", value: summary), (key: "scripts", value: .array(scripts))]))
      + "\n"
  }

  /// `sample-flows/tests/fitness/happy.flow-test.yaml` → `sample-flows.tests.fitness`.
  static func className(_ file: String) -> String {
    let parts = file.split(separator: "/").filter { $0 != "." && $0 != ".." }
    return parts.dropLast().joined(separator: ".").isEmpty ? "flowrun" : parts.dropLast().joined(separator: ".")
  }

  static func seconds(_ value: Double) -> String {
    let ms = Int((value * 1000).rounded())
    let fraction = String(ms % 1000)
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// XML-escaped text; characters XML 1.0 cannot hold are dropped, ANSI escapes too (also the
  /// HTML of `simulate --html`).
  public static func escape(_ text: String, attribute: Bool = true) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += attribute ? "&quot;" : "\""
      case "'": out += attribute ? "&apos;" : "'"
      case "\n": out += attribute ? "&#10;" : "\n"
      case "\t": out += attribute ? "&#9;" : "\t"
      case "\r": out += "&#13;"
      default:
        let v = scalar.value
        if v < 0x20 || (0xD800...0xDFFF).contains(v) || v == 0xFFFE || v == 0xFFFF { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
