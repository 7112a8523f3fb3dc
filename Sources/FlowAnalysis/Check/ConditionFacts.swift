import FlowExpression
import FlowFormat
import FlowPattern

/// A comparison of a collected field with literal values, found in a condition's tree.
struct FieldComparison: Sendable {
  enum Shape: Sendable {
    /// `field OP literal`
    case fieldFirst
    /// `literal OP field`
    case literalFirst
  }

  var field: String
  var op: BinaryOperator
  var literals: [Value]
  var shape: Shape
  /// Where the comparison is in `source`, the condition's text.
  var range: SourceRange
  var source: String
  /// The compiled pattern of a `matches` comparison.
  var pattern: Pattern?

  /// The comparison's text in the condition's source (cut out only for a diagnostic).
  var text: String { range.text(in: source) }

  /// The operator as if the field were on the left (`3 < x` is `x > 3`).
  var normalizedOp: BinaryOperator {
    guard shape == .literalFirst else { return op }
    switch op {
    case .less: return .greater
    case .lessOrEqual: return .greaterOrEqual
    case .greater: return .less
    case .greaterOrEqual: return .lessOrEqual
    default: return op
    }
  }
}

extension Expression {
  /// The literal values of a literal or a list of literals.
  var literalValues: [Value]? {
    switch kind {
    case .literal(.list(let items)): return items
    case .literal(let value): return [value]
    case .pattern(let pattern): return [.string(pattern.source)]
    case .list(let items):
      var values: [Value] = []
      for item in items {
        guard case .literal(let value) = item.kind else { return nil }
        values.append(value)
      }
      return values
    case .unary(.negate, let operand):
      if case .literal(.number(let n)) = operand.kind { return [.number(-n)] }
      return nil
    default: return nil
    }
  }

  /// Every field-versus-literal comparison in the tree.
  func fieldComparisons(in source: String) -> [FieldComparison] {
    var found: [FieldComparison] = []
    collectComparisons(into: &found, source: source)
    return found
  }

  /// Appends every field-versus-literal comparison in the tree to `found`.
  func appendFieldComparisons(to found: inout [FieldComparison], source: String) {
    collectComparisons(into: &found, source: source)
  }

  private func collectComparisons(into found: inout [FieldComparison], source: String) {
    switch kind {
    case .binary(let op, let lhs, let rhs):
      if op != .and && op != .or {
        if case .name(let name) = lhs.kind, !name.hasPrefix("$"), let values = rhs.literalValues {
          var pattern: Pattern?
          if case .pattern(let compiled) = rhs.kind { pattern = compiled }
          found.append(
            FieldComparison(
              field: name, op: op, literals: values, shape: .fieldFirst, range: range, source: source, pattern: pattern)
          )
        } else if case .name(let name) = rhs.kind, !name.hasPrefix("$"), let values = lhs.literalValues {
          found.append(
            FieldComparison(
              field: name, op: op, literals: values, shape: .literalFirst, range: range, source: source))
        }
      }
      lhs.collectComparisons(into: &found, source: source)
      rhs.collectComparisons(into: &found, source: source)
    case .unary(_, let operand), .test(_, let operand), .member(let operand, _):
      operand.collectComparisons(into: &found, source: source)
    case .index(let base, let index):
      base.collectComparisons(into: &found, source: source)
      index.collectComparisons(into: &found, source: source)
    case .call(_, let arguments):
      for argument in arguments { argument.collectComparisons(into: &found, source: source) }
    case .list(let items):
      for item in items { item.collectComparisons(into: &found, source: source) }
    case .literal, .name, .pattern:
      break
    }
  }

  /// Root names read outside `empty`/`is_set`-style tests (those handle a missing value).
  var namesNeedingValues: [String] {
    var names: [String] = []
    collectNeeded(into: &names)
    return names
  }

  private func collectNeeded(into names: inout [String]) {
    switch kind {
    case .test: break
    case .name(let name): if !names.contains(name) { names.append(name) }
    case .literal, .pattern: break
    case .list(let items): for item in items { item.collectNeeded(into: &names) }
    case .member(let base, _): base.collectNeeded(into: &names)
    case .index(let base, let index):
      base.collectNeeded(into: &names)
      index.collectNeeded(into: &names)
    case .unary(_, let operand): operand.collectNeeded(into: &names)
    case .binary(_, let lhs, let rhs):
      lhs.collectNeeded(into: &names)
      rhs.collectNeeded(into: &names)
    case .call(_, let arguments): for argument in arguments { argument.collectNeeded(into: &names) }
    }
  }

  /// Names a condition requires to be present to hold: the names of its top-level `&&` clauses
  /// that are not negations (`!`, `!=`, `not_set`, `empty`, `not in`).
  var guardedNames: Set<String> {
    switch kind {
    case .binary(.and, let lhs, let rhs): return lhs.guardedNames.union(rhs.guardedNames)
    case .binary(.notEqual, _, _), .unary(.not, _), .binary(.or, _, _): return []
    case .test(.notSet, _), .test(.empty, _): return []
    default: return Set(variableNames)
    }
  }

  /// The explorer's atoms: maximal boolean sub-expressions that read exactly one field (and
  /// no context name), by field, such as `nps >= 9`, `len(tools) > 0`, `lower(role) != 'x'`.
  /// Fields read together with another name in one comparison go to `raw`.
  func collectAtoms(into atoms: inout [String: [Expression]], raw: inout Set<String>) {
    let names = variableNames
    let fields = names.filter { !$0.hasPrefix("$") }
    if fields.count == 1 && names.count == 1 {
      atoms[fields[0], default: []].append(self)
      return
    }
    switch kind {
    case .binary(.and, let lhs, let rhs), .binary(.or, let lhs, let rhs):
      lhs.collectAtoms(into: &atoms, raw: &raw)
      rhs.collectAtoms(into: &atoms, raw: &raw)
    case .unary(.not, let operand):
      operand.collectAtoms(into: &atoms, raw: &raw)
    default:
      raw.formUnion(fields)
    }
  }

  /// Appends the UTF-8 of a canonical rendering of the tree without source ranges (to compare
  /// conditions) to `text`: bytes, as appending to a `String` cost ~250 instructions an append,
  /// ~4,900 a condition of the rule-heavy flows.
  func writeCanonical(to text: inout [UInt8]) {
    func put(_ piece: String) { text.append(contentsOf: piece.utf8) }
    func list(_ items: [Expression]) {
      for (index, item) in items.enumerated() {
        if index > 0 { put(",") }
        item.writeCanonical(to: &text)
      }
    }
    /// `name(operand)`.
    func applied(_ name: String, to operand: Expression) {
      put(name)
      put("(")
      operand.writeCanonical(to: &text)
      put(")")
    }
    switch kind {
    case .literal(let value):
      put("lit(")
      put(value.description)
      put(")")
    case .pattern(let pattern):
      put("pattern(")
      put(Value.string(pattern.source).description)
      put(")")
    case .list(let items):
      put("[")
      list(items)
      put("]")
    case .name(let name):
      put("name(")
      put(name)
      put(")")
    case .member(let base, let name):
      base.writeCanonical(to: &text)
      put(".")
      put(name)
    case .index(let base, let index):
      base.writeCanonical(to: &text)
      put("[")
      index.writeCanonical(to: &text)
      put("]")
    case .unary(let op, let operand): applied(op.rawValue, to: operand)
    case .binary(let op, let lhs, let rhs):
      put("(")
      lhs.writeCanonical(to: &text)
      put(" ")
      put(op.rawValue)
      put(" ")
      rhs.writeCanonical(to: &text)
      put(")")
    case .call(let function, let arguments):
      put(function.rawValue)
      put("(")
      list(arguments)
      put(")")
    case .test(let test, let operand): applied(test.rawValue, to: operand)
    }
  }
}

extension SourceRange {
  /// The text this range covers in `source` (UTF-8 offsets).
  func text(in source: String) -> String {
    let bytes = Array(source.utf8)
    let start = min(max(offset, 0), bytes.count)
    let end = min(start + max(length, 0), bytes.count)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// Every place of a screen that reads names: rule conditions, visibility conditions, templates.
struct NameRead: Sendable {
  /// Where on the screen the read is: a block by its number in the screen's
  /// `ScreenContent.flatBlocks`, not its id (a `String` made a read 40 bytes, not 24).
  enum Site: Sendable {
    /// Rule `n` (1-based).
    case rule(Int32)
    /// The `visibleWhen` of the block with this number.
    case visibleWhen(block: Int32)
    /// A template of the block with this number.
    case block(Int32)
    /// A screen-level text.
    case text(ScreenText)
  }

  enum ScreenText: String, Sendable {
    case title, subtitle, buttonText, slide, skipText
  }

  var location: SourceLocation
  /// The name read, by its number (`ScreenFacts.names`), not its text: `ScreenFacts` keeps
  /// every screen's reads to the end of a check.
  private var storedNumber: Int32
  var site: Site
  /// The read handles a missing value (a `visibleWhen`, an `is_set`/`empty` test, a `default`
  /// filter): it matters only when the name is collected nowhere (then it is a typo).
  var handlesMissing = false

  init(number: Int, location: SourceLocation, site: Site, handlesMissing: Bool = false) {
    storedNumber = Int32(truncatingIfNeeded: number)
    self.location = location
    self.site = site
    self.handlesMissing = handlesMissing
  }

  /// The name's number in the check's `ScreenFacts.names`.
  var number: Int { Int(storedNumber) }

  /// `rule 2`, `block 'title'`, ... of a read of `screen`, for diagnostics: made only when one
  /// is reported.
  func what(on screen: Screen) -> String { Self.what(site, on: screen) }

  static func what(_ site: Site, on screen: Screen) -> String {
    switch site {
    case .rule(let number): "rule \(number)"
    case .visibleWhen(let block): "visibleWhen of block '\(screen.content.flatBlocks[Int(block)].id)'"
    case .block(let block): "block '\(screen.content.flatBlocks[Int(block)].id)'"
    case .text(let text): text.rawValue
    }
  }

  var isRule: Bool {
    if case .rule = site { true } else { false }
  }
}

extension Screen {
  /// The names the screen reads, each with its read (numbered in the order met). Reads that
  /// handle a missing value (templates with a `default` filter, `empty`/`is_set` tests,
  /// `visibleWhen` conditions and the templates they guard) are marked `handlesMissing`.
  /// Context names (`$user`) are left out.
  var nameReads: [(name: String, read: NameRead)] {
    var names: [String] = []
    var reads: [NameRead] = []
    appendNameReads(to: &reads) { name in
      names.append(name)
      return names.count - 1
    }
    return Array(zip(names, reads))
  }

  /// Appends `nameReads`' reads to `reads`, each name numbered by `number` (`ScreenFacts`
  /// keeps every screen's in one array).
  func appendNameReads(to reads: inout [NameRead], numbering number: (String) -> Int) {
    var guarded = Set<String>()
    // Names are appended as they are met; a context name is left out here rather than by
    // filtering the whole list afterwards.
    func add(_ name: String, _ location: SourceLocation, _ site: NameRead.Site, handlesMissing: Bool = false) {
      if name.utf8.first == UInt8(ascii: "$") && name.hasPrefix("$") { return }
      reads.append(NameRead(number: number(name), location: location, site: site, handlesMissing: handlesMissing))
    }
    func template(_ template: TextTemplate?, _ site: NameRead.Site, _ location: SourceLocation) {
      // Most texts have no braces (checked without copying the template's value).
      guard let template, !template.template.isPlainText else { return }
      template.template.forEachInterpolation { interpolation in
        let defaulted = interpolation.filters.contains(where: { $0.name == .default })
        for name in interpolation.expression.variableNames {
          add(name, template.location ?? location, site, handlesMissing: defaulted || guarded.contains(name))
        }
      }
    }
    for (index, rule) in rules.enumerated() {
      guard let when = rule.when else { continue }
      let needed = when.expression.namesNeedingValues
      for name in needed {
        add(name, rule.location, .rule(Int32(truncatingIfNeeded: index + 1)))
      }
      for name in when.variableNames where !needed.contains(name) {
        add(name, rule.location, .rule(Int32(truncatingIfNeeded: index + 1)), handlesMissing: true)
      }
    }
    let content = self.content
    if content.usesBlocks {
      // Blocks are read in place: copying each (a large value) was half of this getter.
      content.flatBlocks.withUnsafeBufferPointer { blocks in
        for index in blocks.indices {
          let at = blocks[index].location
          // `visibleWhen` is how a flow shows data only when it is there (a missing field makes
          // comparisons false): not a read to report, and it guards the block's own templates.
          guarded = blocks[index].visibleWhen?.expression.guardedNames ?? []
          for name in blocks[index].visibleWhen?.variableNames ?? [] {
            add(name, at, .visibleWhen(block: Int32(truncatingIfNeeded: index)), handlesMissing: true)
          }
          // Most blocks' texts are plain (the loader marks them): their content is not walked.
          guard !blocks[index].hasOnlyPlainTexts else { continue }
          blocks[index].forEachTemplate { template($0, .block(Int32(truncatingIfNeeded: index)), at) }
        }
      }
      guarded = []
    } else {
      template(content.title, .text(.title), location)
      template(content.subtitle, .text(.subtitle), location)
      template(content.buttonText, .text(.buttonText), location)
      for slide in content.slides {
        template(slide.title, .text(.slide), location)
        template(slide.body, .text(.slide), location)
      }
    }
    template(content.skipText, .text(.skipText), location)
  }

  /// The fields the screen's blocks collect.
  var collectedFields: Set<String> {
    Set(content.flatBlocks.compactMap(\.fieldName))
  }
}
