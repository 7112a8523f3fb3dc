import FlowExpression
import FlowPattern
import OrderedCollections

/// The state of one load: where in the document we are, and every diagnostic found so far.
///
/// Decoding never stops at the first problem: a bad value is reported and replaced by its
/// default, so one pass reports everything.
struct DecodeContext {
  let file: String
  let options: LoadOptions
  private(set) var diagnostics: [Diagnostic] = []
  private var path: [PathComponent] = []
  /// Screen ids named by actions and rules of the flow being decoded, resolved at its end.
  var screenReferences: [Reference] = []
  /// Sub-flows named by `flow` screens, resolved once every flow of the document is known.
  var flowReferences: [Reference] = []
  /// Segments named by campaign conditions, checked against the payload's segments.
  var segmentReads: [Reference] = []
  /// Templates compiled so far that interpolate (a block whose content adds none is marked
  /// `Block.hasOnlyPlainTexts`).
  var interpolatingTemplates = 0
  /// The templates' compiled pieces so far, shared with the templates that follow (`template(_:at:)`).
  var templateSharing = Template.Sharing()
  /// Every pattern of the document with its string literal, in document order (`check` lints them).
  private(set) var patternSites: [PatternSite] = []
  /// The patterns compiled so far by source: a pattern repeated on many inputs is compiled once.
  private var compiledPatterns: [String: Result<Pattern, PatternError>] = [:]
  /// Screens decoded while the file was parsed (`ScreenSplit`, `ScreenPipeline`), by the offset of their
  /// `screens` array's `[`: `decodeFlow` takes them instead of decoding the array.
  var decodedScreens: [Int: [DecodedRun]] = [:]
  /// The fields collected by secret blocks of the flow `decodeFlow` made last.
  var secretFields: Set<String> = []

  /// A reference to an id, remembered with where it was written.
  struct Reference: Sendable {
    var target: String
    var what: String
    var location: SourceLocation?
    /// Where it was written: the path of its object, and its key there (nil: the object).
    /// Rendered only for a diagnostic: rendering every reference's path cost ~2,900
    /// instructions each, for the few that name an unknown screen.
    fileprivate var object: [PathComponent]
    fileprivate var key: String?

    var path: String { key.map { object.rendered + "." + $0 } ?? object.rendered }
  }

  /// A reference to `target` written under `key` of the object being decoded (nil: the object).
  func reference(to target: String, what: String, location: SourceLocation?, key: String?) -> Reference {
    Reference(target: target, what: what, location: location, object: path, key: key)
  }

  init(file: String, options: LoadOptions = LoadOptions()) {
    self.file = file
    self.options = options
  }

  var currentPath: String { path.rendered }

  /// Decodes one screen handed off by the parser on its own, at its path in the document. What
  /// its decoding adds to the context goes with the screen (`DecodedScreen.reports`), for
  /// `merge` to add in document order. The subtree is freed here unless the caller keeps a copy.
  mutating func decodeScreen(_ value: consuming JSONValue, at site: ScreenSite) -> DecodedScreen {
    let value = value
    let screen = decodeModel(value, at: site)
    return DecodedScreen(
      screen: screen, idLocation: screen == nil ? nil : value.objectValue?.lookup("id")?.location,
      reports: takeReports(), fields: screen.map(CollectedField.list) ?? [])
  }

  /// The same for a run of screens (a split flow's half): the screen goes to the end of `run`,
  /// and what its decoding adds stays in this context, after what the screens decoded here
  /// before added (one set of arrays for the run, taken at its end with `takeReports`).
  mutating func decodeScreen(_ value: consuming JSONValue, at site: ScreenSite, into run: inout BuiltScreens) {
    let value = value
    run.count += 1
    guard let screen = decodeModel(value, at: site) else { return }
    run.idLocations.append(value.objectValue?.lookup("id")?.location)
    run.fields.append(fieldsOf: screen)
    run.screens.append(screen)
  }

  private mutating func decodeModel(_ value: JSONValue, at site: ScreenSite) -> Screen? {
    path = site.flow.map { [.key("flows"), $0, .key("screens")] } ?? [.key("screens")]
    return at(.index(site.index)) { $0.decodeScreen(value, index: site.index) }
  }

  /// What decoding added to the context so far, taken out of it.
  mutating func takeReports() -> DecodeReports {
    defer {
      diagnostics = []
      screenReferences = []
      flowReferences = []
      patternSites = []
    }
    return DecodeReports(
      diagnostics: diagnostics, screenReferences: screenReferences, flowReferences: flowReferences,
      patternSites: patternSites)
  }

  /// Adds what decoding apart reported, as if it had been decoded here. Into empty arrays (the
  /// first run of a split flow's screens) the arrays are taken whole, not copied element by element.
  mutating func merge(_ reports: DecodeReports) {
    Self.append(reports.diagnostics, to: &diagnostics)
    Self.append(reports.screenReferences, to: &screenReferences)
    Self.append(reports.flowReferences, to: &flowReferences)
    Self.append(reports.patternSites, to: &patternSites)
  }

  private static func append<Element>(_ elements: [Element], to array: inout [Element]) {
    if array.isEmpty {
      array = elements
    } else if !elements.isEmpty {
      array += elements
    }
  }

  /// Drops the diagnostics reported since `start` that repeat an earlier one exactly (a
  /// compiler that reads one part of a document once per place it is used).
  mutating func dropRepeatedDiagnostics(since start: Int) {
    var seen = Set(diagnostics[..<start])
    diagnostics = Array(diagnostics[..<start]) + diagnostics[start...].filter { seen.insert($0).inserted }
  }

  /// Runs `body` one step deeper into the document.
  mutating func at<T>(_ component: PathComponent, _ body: (inout DecodeContext) -> T) -> T {
    path.append(component)
    defer { path.removeLast() }
    return body(&self)
  }

  mutating func at<T>(_ key: String, _ body: (inout DecodeContext) -> T) -> T {
    at(.key(key), body)
  }

  mutating func report(
    _ severity: Severity,
    _ id: DiagnosticID,
    _ message: String,
    at location: SourceLocation?,
    notes: [Diagnostic.Note] = []
  ) {
    diagnostics.append(
      Diagnostic(
        id,
        severity: severity,
        message: message.elidedForDiagnostic,
        file: file,
        location: location,
        path: path.isEmpty ? nil : path.rendered.elidedForDiagnostic,
        notes: notes.map { Diagnostic.Note($0.message.elidedForDiagnostic, at: $0.location) }
      ))
  }

  mutating func error(_ id: DiagnosticID, _ message: String, at location: SourceLocation?) {
    report(.error, id, message, at: location)
  }

  mutating func warning(_ id: DiagnosticID, _ message: String, at location: SourceLocation?) {
    report(.warning, id, message, at: location)
  }

  mutating func append(_ diagnostic: Diagnostic) {
    var diagnostic = diagnostic
    diagnostic.message = diagnostic.message.elidedForDiagnostic
    diagnostic.path = diagnostic.path?.elidedForDiagnostic
    diagnostic.notes = diagnostic.notes.map { Diagnostic.Note($0.message.elidedForDiagnostic, at: $0.location) }
    diagnostics.append(diagnostic)
  }

  /// The compiled whole-text pattern of the string literal at `location`, or the reason it does
  /// not compile; a pattern that compiles is remembered as a site.
  mutating func pattern(_ source: String, at location: SourceLocation?) -> Result<Pattern, PatternError> {
    let compiled: Result<Pattern, PatternError>
    if let known = compiledPatterns[source] {
      compiled = known
    } else {
      compiled = Result { () throws(PatternError) in try Pattern(source) }
      compiledPatterns[source] = compiled
    }
    if case .success(let pattern) = compiled, let location {
      patternSites.append(PatternSite(pattern: pattern, location: location))
    }
    return compiled
  }

  // MARK: - Typed reads

  /// Reports a type mismatch for `value`, which sits at the current path.
  mutating func mismatch(_ value: JSONValue, expected: String) {
    let prefix = path.isEmpty ? "" : "\(path.rendered): "
    error(
      .Load.typeMismatch, "\(prefix)expected \(expected), found \(value.typeDescription)",
      at: value.location)
  }

  /// The object at `value`, or nil after reporting a mismatch.
  mutating func object(_ value: JSONValue) -> JSONObject? {
    guard let object = value.objectValue else {
      mismatch(value, expected: "an object")
      return nil
    }
    return object
  }

  mutating func string(_ object: JSONObject, _ key: String) -> String? {
    guard let value = object.lookup(key) else { return nil }
    return string(value, key)
  }

  /// The string in `value`, found under `key`: nil when null, reported when of another type.
  mutating func string(_ value: JSONValue, _ key: String) -> String? {
    if case .string(let s) = value.kind { return s }
    if case .null = value.kind { return nil }
    at(key) { $0.mismatch(value, expected: "a string") }
    return nil
  }

  mutating func bool(_ object: JSONObject, _ key: String) -> Bool? {
    guard let value = object.lookup(key) else { return nil }
    if case .bool(let b) = value.kind { return b }
    if case .null = value.kind { return nil }
    at(key) { $0.mismatch(value, expected: "a boolean") }
    return nil
  }

  mutating func number(_ object: JSONObject, _ key: String) -> Double? {
    guard let value = object.lookup(key) else { return nil }
    if case .number(let d, _) = value.kind { return d }
    if case .null = value.kind { return nil }
    at(key) { $0.mismatch(value, expected: "a number") }
    return nil
  }

  /// A whole number within `range`: a fraction is reported (Sequence decodes these as Int and
  /// fails on it), and so is a number outside the range (the nearest end is used).
  mutating func integer(_ object: JSONObject, _ key: String, within range: ClosedRange<Int> = wholeNumbers) -> Int? {
    guard let value = object.lookup(key) else { return nil }
    if case .null = value.kind { return nil }
    guard case .number(let d, _) = value.kind, d.rounded() == d else {
      at(key) { $0.mismatch(value, expected: "a whole number") }
      return nil
    }
    let bounds = Double(range.lowerBound)...Double(range.upperBound)
    guard bounds.contains(d) else {
      outOfRange(object, key, found: NumberFormatting.javaScriptString(d), range: bounds)
      return d < bounds.lowerBound ? range.lowerBound : range.upperBound
    }
    return Int(d)
  }

  /// Whole numbers without a range of their own (`order`, `version`, indicator positions).
  static let wholeNumbers = -Int(Limits.magnitude)...Int(Limits.magnitude)

  /// A number within `range` (`Limits`): outside it, a `load.out-of-range` error naming the
  /// range, and the nearest end of the range instead (the flow does not run with an error).
  mutating func number(
    _ object: JSONObject, _ key: String, within range: ClosedRange<Double>, unit: String = ""
  ) -> Double? {
    guard let value = number(object, key) else { return nil }
    guard !range.contains(value) else { return value }
    outOfRange(object, key, found: NumberFormatting.javaScriptString(value), range: range, unit: unit)
    return Limits.clamp(value, to: range)
  }

  private mutating func outOfRange(
    _ object: JSONObject, _ key: String, found: String, range: ClosedRange<Double>, unit: String = ""
  ) {
    at(key) {
      $0.error(
        .Load.outOfRange, "\(key) must be \(Limits.text(range))\(unit), found \(found)",
        at: object.lookup(key)?.location)
    }
  }

  mutating func array(_ object: JSONObject, _ key: String) -> [JSONValue]? {
    guard let value = object.lookup(key) else { return nil }
    if case .array(let a) = value.kind { return a }
    if case .null = value.kind { return nil }
    at(key) { $0.mismatch(value, expected: "an array") }
    return nil
  }

  /// A required string: reports a missing key at the object's location. `owner` is built only
  /// then: most are interpolated (`block 3`), and every block and screen names one.
  mutating func requiredString(
    _ object: JSONObject,
    _ key: String,
    in owner: @autoclosure () -> String,
    at location: SourceLocation
  ) -> String? {
    guard let value = object.lookup(key) else {
      error(.Load.missingKey, "\(owner()) is missing required key '\(key)'", at: location)
      return nil
    }
    return string(value, key)
  }

  /// Warns about keys that are neither used nor known cosmetic keys, with a "did you mean".
  mutating func checkKeys(_ object: JSONObject, known: KeySet, owner: String) {
    // By index, reading the keys in place: `for member in` copied each member and its value
    // (a retain and a release each), for every object of the document.
    let members = object.members
    for i in members.indices where !known.contains(members[i].key) {
      let key = members[i].key
      if KnownKeys.isCosmetic(key) { continue }
      var notes: [Diagnostic.Note] = []
      if let guess = known.spelling.closest(to: key) {
        notes.append(Diagnostic.Note("did you mean '\(guess)'?"))
      }
      let keyLocation = members[i].keyLocation
      at(key) {
        $0.report(.warning, .Load.unknownKey, "unknown key '\(key)' in \(owner)", at: keyLocation, notes: notes)
      }
    }
  }
}

extension JSONObject {
  /// The number at `key`, when the member is a number. Not inlined: Swift 6.3.1's release build
  /// crashed (SIL ownership verifier) on `lookup(key)?.numberValue` chains inlined into the
  /// AppDNA decoders.
  @inline(never) func numberValue(_ key: String) -> Double? {
    lookup(key)?.numberValue
  }

  /// The whole number at `key`: a number rounded toward zero, nil when it is not finite or past
  /// ±10^15 (a conversion that would trap), so a hostile `max_length: 1e300` is ignored, not a crash.
  @inline(never) func integerValue(_ key: String) -> Int? {
    guard let number = lookup(key)?.numberValue, number.isFinite, abs(number) < 1e15 else { return nil }
    return Int(number)
  }

  /// The value of the last member named `key` — the subscript's semantics (the last duplicate
  /// wins) without copying each member while searching, which showed in profiles of big files.
  @inline(__always) func lookup(_ key: String) -> JSONValue? {
    var i = members.count - 1
    while i >= 0 {
      if members[i].key.isSameKey(key) { return members[i].value }
      i -= 1
    }
    return nil
  }
}
