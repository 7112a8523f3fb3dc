import FlowExpression
import FlowFormat

/// Mock values for previewing screens without running them, derived from field names and
/// types the way an editor's preview fills its templates.
///
/// By name (the field name split into lower-case words at `_`, `-`, `.` and camelCase):
/// `email` → `alex@example.com`; `name`, `first_name`, `nickname` → `Alex`; `last_name`,
/// `surname` → `Morgan`; `full_name` → `Alex Morgan`; `username`, `handle` → `alex`;
/// `phone`, `mobile` → `+1 555 0100`; `url`, `website` → `https://example.com`; `company`,
/// `organization`, `workspace` → `Acme`; `city` → `Lisbon`; `country` → `Portugal`;
/// `password` → `preview-password`; `birthday`, `dob`, `date` → `1990-01-01`; `age` → 30.
///
/// By block: an input's `defaultValue`, else its name's value, else by `inputType` (email,
/// phone, url, password and date as above; number: the name's number when it is in range, else
/// the middle of `min...max`, else `min`, else `max`, else 5; text: the placeholder without
/// a leading "e.g.", else `Sample text`), cut to `maxLength`. A slider and a toggle take their
/// default; a single-select checklist its first item; a multi-select one its first
/// `max(1, minSelections)` items (at most `maxSelections`).
///
/// Template names no field collects get a value only when a name rule knows them; the others
/// stay literal, which shows the designer what is missing. `$user.id` is `preview-user`.
public enum PreviewData {
  /// The user id of preview sessions (`$user.id`).
  public static let userID = "preview-user"

  /// Values for every field of the document (first block wins), then for the template names
  /// the name rules know; in document order.
  public static func values(for document: FlowDocument) -> [(name: String, value: Value)] {
    var out: [(name: String, value: Value)] = []
    var seen: Set<String> = []
    for flow in document.flows {
      for screen in flow.screens {
        for block in screen.content.flatBlocks {
          guard let field = block.fieldName, !seen.contains(field), let value = value(for: block) else { continue }
          seen.insert(field)
          out.append((field, value))
        }
      }
    }
    for flow in document.flows {
      for screen in flow.screens {
        forEachTemplateName(of: screen) { name in
          guard !name.hasPrefix("$"), seen.insert(name).inserted, let value = value(forName: name) else { return }
          out.append((name, value))
        }
      }
    }
    return out
  }

  /// The mock value of a collecting block; nil for blocks that collect nothing.
  public static func value(for block: Block) -> Value? {
    switch block.content.field {
    case nil:
      return nil
    case .input(let input):
      if let value = input.defaultValue { return value }
      let name = block.fieldName ?? ""
      if input.kind == .number { return .number(number(for: input, name: name)) }
      var text: String
      if case .string(let byName)? = value(forName: name) {
        text = byName
      } else {
        switch input.kind {
        case .email: text = "alex@example.com"
        case .phone: text = "+1 555 0100"
        case .url: text = "https://example.com"
        case .password: text = "preview-password"
        case .date:
          let date = input.dateBounds?.clamp("1990-01-01") ?? "1990-01-01"
          text = input.storesISO ? date + "T00:00:00Z" : date
        case .location: return LocationResult.value(of: .string("New York"))
        case .range:
          return try? ValueShapes.range(
            .string(ValueShapes.sample(input) ?? ""), keys: input.rangeKeys, min: input.min, max: input.max
          ).get()
        case .time, .datetime, .color:
          let sample = ValueShapes.sample(input) ?? ""
          text = ValueShapes.stored(sample, kind: input.kind, iso: input.storesISO, today: "2026-01-01") ?? sample
        case .text, .number: text = placeholderSample(input.placeholder?.raw) ?? "Sample text"
        }
      }
      if let limit = input.maxLength, limit >= 0, text.count > limit { text = String(text.prefix(limit)) }
      return .string(text)
    case .choice(let choice):
      guard !choice.items.isEmpty else { return nil }
      if !choice.allowMultiple { return .string(choice.items[0].value) }
      var count = max(1, choice.minSelections ?? 1)
      if let high = choice.maxSelections, high >= 1 { count = min(count, high) }
      return .list(choice.items.prefix(count).map { .string($0.value) })
    case .slider(let slider):
      return .number(slider.defaultValue)
    case .toggle(let toggle):
      return .bool(toggle.defaultValue)
    }
  }

  /// The value the name rules give `name`, if any.
  public static func value(forName name: String) -> Value? {
    let words = Self.words(name)
    // Most names hold no word a rule knows (`field_12`): no rule is asked (each `has` made a
    // list of its words, and the field names of a big flow cost more than drawing it).
    guard words.contains(where: ruleWords.contains) else { return nil }
    let set = Set(words)
    func has(_ candidates: String...) -> Bool { candidates.contains { set.contains($0) } }
    if has("email", "mail") { return "alex@example.com" }
    if has("password", "passcode") { return "preview-password" }
    if has("phone", "mobile", "tel", "telephone") { return "+1 555 0100" }
    if has("url", "website", "homepage", "link") { return "https://example.com" }
    if has("username", "handle") || (has("user") && has("name")) { return "alex" }
    if has("surname", "lastname", "familyname") || (has("name") && has("last", "family")) { return "Morgan" }
    if has("fullname") || (has("name") && has("full", "display")) { return "Alex Morgan" }
    if has("company", "organization", "organisation", "org", "workspace", "business", "employer") {
      return "Acme"
    }
    if has("city", "town") { return "Lisbon" }
    if has("country") { return "Portugal" }
    if has("birthday", "dob", "birthdate", "date") || (has("birth")) { return "1990-01-01" }
    if has("age") { return 30 }
    if has("name", "firstname", "nickname", "givenname") || (has("first") && words.count == 1) { return "Alex" }
    return nil
  }

  /// Every word the rules of `value(forName:)` look for.
  private static let ruleWords: Set<String> = [
    "email", "mail", "password", "passcode", "phone", "mobile", "tel", "telephone", "url", "website", "homepage",
    "link", "username", "handle", "user", "name", "surname", "lastname", "familyname", "last", "family", "fullname",
    "full", "display", "company", "organization", "organisation", "org", "workspace", "business", "employer", "city",
    "town", "country", "birthday", "dob", "birthdate", "date", "birth", "age", "firstname", "nickname", "givenname",
    "first",
  ]

  static func number(for input: InputBlock, name: String) -> Double {
    if let byName = self.value(forName: name)?.numericValue,
      byName >= (input.min ?? -.infinity), byName <= (input.max ?? .infinity)
    {
      return byName
    }
    var value: Double
    switch (input.min, input.max) {
    case (let low?, let high?): value = ((low + high) / 2).rounded(.down)
    case (let low?, nil): value = low
    case (nil, let high?): value = high
    case (nil, nil): value = self.value(forName: name)?.numericValue ?? 5
    }
    if let low = input.min { value = max(value, low) }
    if let high = input.max { value = min(value, high) }
    return value
  }

  /// `e.g. Alex` → `Alex`.
  static func placeholderSample(_ placeholder: String?) -> String? {
    guard var text = placeholder?.trimmingWhitespace, !text.isEmpty, !text.contains("{") else { return nil }
    for lead in ["e.g.,", "e.g.", "eg.", "ex.", "example:"] where text.lowercased().hasPrefix(lead) {
      text = String(text.dropFirst(lead.count)).trimmingWhitespace
      break
    }
    if text.hasSuffix("…") || text.hasSuffix("...") { return nil }
    return text.isEmpty ? nil : text
  }

  /// `firstName`, `first_name`, `First-Name` → `["first", "name"]`; a joined form like
  /// `firstname` stays one word.
  static func words(_ name: String) -> [String] {
    asciiWords(name) ?? characterWords(name)
  }

  /// `words`, character by character (any name).
  static func characterWords(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousLower = false
    for character in name {
      if !(character.isLetter || character.isNumber) {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousLower = false
        continue
      }
      if character.isUppercase && previousLower, !current.isEmpty {
        words.append(current)
        current = ""
      }
      current += character.lowercased()
      previousLower = character.isLowercase || character.isNumber
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `words` of an ASCII name, cut and lowered as bytes (the character properties cost a
  /// thousand instructions a name); nil for other names.
  static func asciiWords(_ name: String) -> [String]? {
    var copy = name
    return copy.withUTF8 { bytes -> [String]? in
      var words: [String] = []
      var current: [UInt8] = []
      var previousLower = false
      for byte in bytes {
        guard byte < 0x80 else { return nil }
        let upper = byte >= 0x41 && byte <= 0x5A
        let lower = byte >= 0x61 && byte <= 0x7A
        let digit = byte >= 0x30 && byte <= 0x39
        if !(upper || lower || digit) {
          if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
          current.removeAll(keepingCapacity: true)
          previousLower = false
          continue
        }
        if upper && previousLower, !current.isEmpty {
          words.append(String(decoding: current, as: UTF8.self))
          current.removeAll(keepingCapacity: true)
        }
        current.append(upper ? byte + 0x20 : byte)
        previousLower = lower || digit
      }
      if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
      return words
    }
  }

  /// Root names read by every template of a screen, in order, handed over one at a time (a
  /// list of the screen's templates, each copied into it, cost 21,000 instructions a screen).
  static func forEachTemplateName(of screen: Screen, _ body: (String) -> Void) {
    func names(_ template: TextTemplate?) {
      guard let template else { return }
      for name in template.template.variableNames { body(name) }
    }
    let content = screen.content
    names(content.title)
    names(content.subtitle)
    names(content.buttonText)
    names(content.skipText)
    for slide in content.slides {
      names(slide.title)
      names(slide.body)
    }
    for block in content.flatBlocks { block.forEachTemplate(names) }
  }
}
