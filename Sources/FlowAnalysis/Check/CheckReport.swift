import FlowFormat

/// A file's diagnostics in display order, the lint rules' among them. A rule's diagnostics
/// whose texts wait (`RuleFindings.add(_:text:at:_:)`) stay numbers until one is asked for
/// (`diagnostic(at:)`): a text report shows a thousand of `lint-chain`'s 21,714, and a JSON
/// report makes one at a time; as `Diagnostic`s all together they were 2 MB after lint.
public struct CheckReport: Sendable {
  /// The diagnostics made whole: the loader's, then the rules' that did not wait.
  private var whole: [Diagnostic]
  /// The rules' diagnostics that wait, a group per rule.
  private var waiting: [WaitingDiagnostics]
  /// The display order: `whole[n]` for n >= 0, else the waiting diagnostic number `~n` (the
  /// groups' in a row); nil when it is `whole`'s own.
  private var order: [Int32]?
  /// Whether warnings are errors (`raiseWarnings()`).
  private var strict = false

  /// A report of diagnostics that are in display order and all have their text.
  public init(_ diagnostics: [Diagnostic]) {
    self.init(diagnostics, waiting: [], joined: nil)
  }

  /// `whole` and `waiting` in the order `joined` lists them (as `order` tells them), put in
  /// display order (equal ones keep their joined order); nil `joined`: `whole` in its order.
  init(_ whole: [Diagnostic], waiting: [WaitingDiagnostics], joined: [Int32]?) {
    self.whole = whole
    self.waiting = waiting
    guard let joined else { return }
    var positions = Diagnostic.displayPositions(count: joined.count) { index in
      let entry = joined[index]
      if entry >= 0 {
        let diagnostic = whole[Int(entry)]
        return (diagnostic.file, diagnostic.location?.offset, diagnostic.severity, diagnostic.id)
      }
      let (group, record) = Self.find(~Int(entry), in: waiting)
      let made = waiting[group].made
      return (made.file, waiting[group].records[record].location.offset, made.id.severity, made.id.id)
    }
    // Each position replaced by its entry, in place: no third array of them.
    for index in positions.indices { positions[index] = joined[Int(positions[index])] }
    order = positions
  }

  /// How many diagnostics the report holds.
  public var count: Int { whole.count + waiting.reduce(0) { $0 + $1.records.count } }

  /// How many diagnostics of `severity` the report holds, none made for it.
  public func count(_ severity: Severity) -> Int {
    whole.count { $0.severity == severity }
      + waiting.reduce(0) { $0 + (self.severity($1.made.id.severity) == severity ? $1.records.count : 0) }
  }

  /// Makes every warning an error (`check --strict`).
  public mutating func raiseWarnings() {
    strict = true
    for index in whole.indices where whole[index].severity == .warning { whole[index].severity = .error }
  }

  private func severity(_ severity: Severity) -> Severity {
    strict && severity == .warning ? .error : severity
  }

  /// The diagnostic at `position` in display order, with its text.
  public func diagnostic(at position: Int) -> Diagnostic {
    let entry = order.map { Int($0[position]) } ?? position
    if entry >= 0 { return whole[entry] }
    let (group, record) = Self.find(~entry, in: waiting)
    var diagnostic = waiting[group].diagnostic(record)
    diagnostic.severity = severity(diagnostic.severity)
    return diagnostic
  }

  /// The diagnostics in display order with their texts, each made when reached.
  public var completed: LazyMapSequence<Range<Int>, Diagnostic> {
    (0..<count).lazy.map(diagnostic(at:))
  }

  /// How many diagnostics wait for their texts (for tests).
  var waitingCount: Int { waiting.reduce(0) { $0 + $1.records.count } }

  /// The group and the record in it of the waiting diagnostic number `number`.
  private static func find(_ number: Int, in waiting: [WaitingDiagnostics]) -> (group: Int, record: Int) {
    var record = number
    for (group, diagnostics) in waiting.enumerated() {
      if record < diagnostics.records.count { return (group, record) }
      record -= diagnostics.records.count
    }
    preconditionFailure("no waiting diagnostic \(number)")
  }

  /// The diagnostics of `reports` in order, as `DiagnosticFormatter.writeJSON(count:diagnostic:)`
  /// asks for them: by position, each with its text.
  public static func diagnostics(of reports: [CheckReport]) -> (count: Int, diagnostic: @Sendable (Int) -> Diagnostic) {
    var ends: [Int] = []
    for report in reports { ends.append((ends.last ?? 0) + report.count) }
    return (
      ends.last ?? 0,
      { [ends] index in
        // The first report whose end is past `index`.
        var low = 0
        var high = ends.count - 1
        while low < high {
          let mid = (low + high) / 2
          if ends[mid] > index { high = mid } else { low = mid + 1 }
        }
        let start = low == 0 ? 0 : ends[low - 1]
        return reports[low].diagnostic(at: index - start)
      }
    )
  }
}

/// One rule's diagnostics whose texts wait: 16 bytes each (with JSON paths, 32), the rest
/// shared.
struct WaitingDiagnostics: Sendable {
  /// The rule's id, and the file.
  let made: (id: DiagnosticID, file: String)
  /// Each diagnostic's location and its text's number in `texts`.
  let records: [(location: SourceLocation, text: Int32)]
  /// Each diagnostic's JSON path, when the report has them (else empty).
  var paths: [String?] = []
  let texts: any DeferredTexts

  /// Record `index` as a diagnostic with its text.
  func diagnostic(_ index: Int) -> Diagnostic {
    let (location, text) = records[index]
    var diagnostic = Diagnostic(
      made.id, message: "", file: made.file, location: location, path: paths.isEmpty ? nil : paths[index])
    texts.complete(&diagnostic, Int(text))
    return diagnostic
  }
}
