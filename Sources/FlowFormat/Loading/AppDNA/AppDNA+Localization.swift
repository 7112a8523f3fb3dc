import FlowExpression

/// A block step's `localizations {lang: {key: text}}` and `default_locale` (the SDK's keys:
/// `block.<id>.text` for a text or a button, `.badge`, `.label` and `.description` for a
/// toggle, `.divider`, `.item.<i>` for a list's line i): each text gets its translations;
/// `default_locale`'s text replaces the authored one for other languages.
extension DecodeContext {
  mutating func appdnaLocalized(_ blocks: [Block], config: JSONObject) -> [Block] {
    guard let tables = config.lookup("localizations")?.objectValue, !tables.members.isEmpty else { return blocks }
    let fallback = config.lookup("default_locale")?.stringValue.map {
      $0.prefix { $0 != "_" && $0 != "-" }.lowercased()
    }
    /// Sets the translation of each language whose table gives `translate` something.
    func localize(_ text: TextTemplate, _ translate: (inout DecodeContext, JSONObject) -> Template?) -> TextTemplate {
      var out = text
      for table in tables.members {
        guard let entries = table.value.objectValue, let translated = translate(&self, entries) else { continue }
        let language = table.key.prefix { $0 != "_" && $0 != "-" }.lowercased()
        out.translations[language] = translated
        if language == fallback { out.template = translated }
      }
      return out
    }
    func localize(_ text: TextTemplate, _ key: String, wrap: (String) -> String = { $0 }) -> TextTemplate {
      localize(text) { context, entries in
        guard let value = entries.lookup(key), let string = value.stringValue else { return nil }
        return context.appdnaTemplate(wrap(string), at: value.location).template
      }
    }
    return blocks.map { block in
      var copy = block
      let key = "block.\(block.id)"
      switch block.content {
      case .text(var text):
        guard let template = text.text else { break }
        switch block.type {
        case "badge": text.text = localize(template, "\(key).badge")
        case "divider": text.text = localize(template, "\(key).divider", wrap: Self.dividerLine)
        case "toggle_description": text.text = localize(template, key)
        case "list": text.text = localize(template) { $0.appdnaListLines(template, key: key, entries: $1) }
        default: text.text = localize(template, "\(key).text")
        }
        copy.content = .text(text)
      case .button(var button):
        button.text = localize(button.text, "\(key).text")
        copy.content = .button(button)
      case .toggle(var toggle):
        toggle.label = toggle.label.map { localize($0, "\(key).label") }
        copy.content = .toggle(toggle)
      case .scrollContainer(let children):
        copy.content = .scrollContainer(appdnaLocalized(children, config: config))
      default:
        break
      }
      return copy
    }
  }

  /// A list's lines with `key.item.<i>` in place of line i where the table has it; nil when
  /// the table translates none of them. Each line keeps its mark (`• `, `1. `, `✓ `).
  private mutating func appdnaListLines(_ list: TextTemplate, key: String, entries: JSONObject) -> Template? {
    var translatedAny = false
    let lines = list.template.source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
      index, line in
      guard let value = entries.lookup("\(key).item.\(index)"), let string = value.stringValue else {
        return String(line)
      }
      translatedAny = true
      let mark = line.prefix { $0 != " " } + " "
      return mark + appdnaTemplate(Self.oneLine(string), at: value.location).template.source
    }
    return translatedAny ? Template(parsing: lines.joined(separator: "\n")) : nil
  }
}
