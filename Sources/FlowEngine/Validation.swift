import FlowExpression
import FlowFormat
import FlowPattern
import OrderedCollections

extension Session {
  /// The failures of the current screen's visible collecting blocks, in reading order.
  public var validationFailures: [ValidationFailure] {
    var failures: [ValidationFailure] = []
    // The document's blocks, or its tables' list of them (an override changes none that
    // validates: see `documentBlocks`).
    if let tables = context.tables {
      let validated = tables.withScreen(flow: frame.flow, screen: frame.screen) { $0.pointee.validated }
      guard !validated.isEmpty else { return failures }
      validationFailures(validated, into: &failures)
      return failures
    }
    let blocks = documentBlocks
    guard !blocks.isEmpty else { return failures }
    blocks.withUnsafeBufferPointer { blocks in
      for index in blocks.indices {
        // The content is read in place: `content.field` would copy the block's content out.
        guard let field = blocks[index].fieldName, blocks[index].content.validates,
          isVisible(blockAt: index, of: blocks),
          let message = validationMessage(for: blocks[index].content, value: fields[field])
        else { continue }
        failures.append(ValidationFailure(field: field, message: message))
      }
    }
    return failures
  }

  /// `validationFailures` of the current screen's `validated` blocks (its tables'), read in place.
  private func validationFailures(
    _ validated: [DocumentTables.Validated], into failures: inout [ValidationFailure]
  ) {
    documentBlocks.withUnsafeBufferPointer { blocks in
      validated.withUnsafeBufferPointer { validated in
        for index in validated.indices where isVisible(blockAt: validated[index].block, of: blocks) {
          let field = validated[index].field
          let value = fields[field, print: validated[index].print]
          let message =
            switch validated[index].content {
            case .input(let input): validationMessage(for: input, value: value ?? input.defaultValue)
            case .choice(let choice): validationMessage(for: choice, value: value)
            }
          if let message { failures.append(ValidationFailure(field: field, message: message)) }
        }
      }
    }
  }

  /// Runs validation; on failure emits `validation_failed`, stores the messages and says so.
  mutating func validateCurrentScreen(via: Via) -> Bool {
    let failures = validationFailures
    guard !failures.isEmpty else { return true }
    validationErrors = [:]
    for failure in failures { validationErrors[failure.field] = failure.message }
    emit(
      .validationFailed,
      [
        "fields": .list(
          failures.map { .object(["field": .string($0.field), "message": .string($0.message)]) })
      ])
    outbox.append(.validationFailed(failures))
    if tracing {
      record(
        .validation, "validation blocked \(via) on \(currentScreenID)",
        details: failures.map { "\($0.field): \($0.message)" })
    }
    return false
  }

  /// The message for a collecting block's content holding `value` (its collected value, else
  /// its default); nil when it passes or the block collects nothing that can fail.
  func validationMessage(for content: BlockContent, value collected: Value?) -> String? {
    switch content {
    case .input(let input): validationMessage(for: input, value: collected ?? input.defaultValue)
    case .choice(let choice): validationMessage(for: choice, value: collected)
    case .slider, .toggle, .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard,
      .scrollContainer, .custom, .unsupported:
      nil
    }
  }

  func validationMessage(for input: InputBlock, value: Value?) -> String? {
    let text: String? =
      switch value {
      case .none, .null?: nil
      case .string(let s)?: s
      case let other?: other.displayString
      }
    guard let text, !text.isBlank else {
      return input.required ? Validators.requiredMessage : nil
    }
    if input.hasValueShape {
      if ValueShapes.stored(text, kind: input.kind, iso: false, today: "") == nil {
        return ValueShapes.expected(input.kind)
      }
    } else if input.kind == .number, case .number(let number)? = value, number.rounded() == number,
      abs(number) < 1e15
    {
      // A whole number's text is digits (with a sign): it passes the number format without
      // parsing it back.
    } else if let message = Validators.formatMessage(text, kind: input.kind) {
      return message
    }
    switch input.pattern?.match(text) {
    case .notMatched?: return input.patternMessage ?? "Invalid format"
    case .tooComplex?: return Validators.patternTooComplexMessage
    case .matched?, nil: break
    }
    if let problem = input.dateBounds?.problem(with: text, today: virtualDay) { return problem }
    // Counted only when a length is checked (counting walks every character).
    if input.minLength != nil || input.maxLength != nil {
      let length = text.count
      if let minLength = input.minLength, length < minLength { return "Must be at least \(minLength) characters" }
      if let maxLength = input.maxLength, length > maxLength { return "Must be at most \(maxLength) characters" }
    }
    if input.kind == .number, let number = value?.numericValue {
      if let min = input.min, number < min { return "Must be at least \(NumberFormatting.javaScriptString(min))" }
      if let max = input.max, number > max { return "Must be at most \(NumberFormatting.javaScriptString(max))" }
    }
    return nil
  }

  func validationMessage(for choice: ChoiceBlock, value: Value?) -> String? {
    let count: Int =
      switch value {
      case .string?: 1
      case .list(let items)?: items.count
      default: 0
      }
    if count == 0, choice.required { return Validators.requiredMessage }
    if let min = choice.minSelections, count < min { return "Select at least \(min)" }
    if let max = choice.maxSelections, count > max { return "Select at most \(max)" }
    return nil
  }
}

extension BlockContent {
  /// Whether an answer can fail validation (see `validationMessage(for:value:)`): a slider or
  /// a toggle cannot hold a bad value, a block that collects nothing holds none.
  var validates: Bool {
    switch self {
    case .input, .choice: true
    case .slider, .toggle, .text, .media, .icon, .button, .progress, .spacer, .divider, .featureCard,
      .scrollContainer, .custom, .unsupported:
      false
    }
  }
}

/// The format checks of `inputType` (documented in docs/semantics.md).
public enum Validators {
  public static let requiredMessage = "This field is required"
  /// An answer the input's `pattern` could not be checked against within `PatternLimits`.
  public static let patternTooComplexMessage = "pattern too complex to check"

  /// The default message for a malformed value of this input type, or nil when it is fine.
  public static func formatMessage(_ text: String, kind: InputBlock.Kind) -> String? {
    // Trimmed only for a kind with a format (`text`, the common kind, has none).
    switch kind {
    case .email: return isEmail(text.trimmingWhitespace) ? nil : "Enter a valid email address"
    case .phone: return isPhone(text.trimmingWhitespace) ? nil : "Enter a valid phone number"
    case .url: return isURL(text.trimmingWhitespace) ? nil : "Enter a valid URL"
    case .number: return Value.string(text.trimmingWhitespace).numericValue != nil ? nil : "Enter a valid number"
    case .date: return isDate(text.trimmingWhitespace) ? nil : "Enter a valid date"
    case .time, .datetime, .color:
      return ValueShapes.stored(text.trimmingWhitespace, kind: kind, iso: false, today: "") == nil
        ? ValueShapes.expected(kind) : nil
    case .text, .password, .location, .range: return nil
    }
  }

  /// `local@domain.tld`: one `@`, no whitespace, a non-empty local part, a domain of at least two
  /// non-empty dot-separated labels.
  public static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
    return isHost(parts[1])
  }

  static func isHost(_ host: Substring) -> Bool {
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return false }
    return labels.allSatisfy { label in
      !label.isEmpty && label.first != "-" && label.last != "-"
        && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
  }

  /// Digits with optional spaces, dashes, dots and parentheses, an optional leading `+`, and 7 to
  /// 15 digits in all (E.164's maximum).
  public static func isPhone(_ text: String) -> Bool {
    var digits = 0
    for (offset, character) in text.enumerated() {
      if character.isASCII, character.isNumber {
        digits += 1
      } else if character == "+" {
        guard offset == 0 else { return false }
      } else if !" -.()".contains(character) {
        return false
      }
    }
    return (7...15).contains(digits)
  }

  /// An optional `http://` or `https://`, then a host of dot-separated labels with an optional
  /// `:port`, then anything without whitespace.
  public static func isURL(_ text: String) -> Bool {
    guard !text.contains(where: \.isWhitespace) else { return false }
    var rest = Substring(text)
    let lowered = text.lowercased()
    if lowered.hasPrefix("https://") {
      rest = rest.dropFirst(8)
    } else if lowered.hasPrefix("http://") {
      rest = rest.dropFirst(7)
    } else if rest.contains("://") {
      return false
    }
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let hostAndPort = authority.split(separator: ":", omittingEmptySubsequences: false)
    guard hostAndPort.count <= 2 else { return false }
    if hostAndPort.count == 2 {
      guard !hostAndPort[1].isEmpty, hostAndPort[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
    }
    return isHost(hostAndPort[0])
  }

  /// A calendar date `YYYY-MM-DD`.
  public static func isDate(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month)
    else { return false }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return (1...lengths[month - 1]).contains(day)
  }
}

extension String {
  /// `trimmingWhitespace.isEmpty` without building the trimmed text: a text that starts with a
  /// visible ASCII character (most answers) is not blank.
  var isBlank: Bool {
    if let first = utf8.first, (0x21...0x7E).contains(first) { return false }
    return allSatisfy(\.isWhitespace)
  }
}

extension Session {
  /// The virtual clock's day, `YYYY-MM-DD` (UTC): "today" for AppDNA dates and times.
  var virtualDay: String { String(CivilTime.iso8601(milliseconds: virtualNow).prefix(10)) }

  /// The message validation gives `block` (an input or checklist) when it holds `value`, or nil
  /// when that value passes (what a replay asks before typing a stand-in for a masked secret).
  public func validationMessage(of block: Block, holding value: Value) -> String? {
    validationMessage(for: block.content, value: value)
  }
}
