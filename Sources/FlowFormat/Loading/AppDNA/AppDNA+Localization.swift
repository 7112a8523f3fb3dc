import FlowExpression

/// A block step's `localizations {lang: {key: text}}` and `default_locale` (the SDK's keys:
/// `block.<id>.text` for a text or a button, `.badge`, `.label` for a toggle): each text gets
/// its translations; `default_locale`'s text replaces the authored one for other languages.
extension DecodeContext {
  mutating func appdnaLocalized(_ blocks: [Block], config: JSONObject) -> [Block] {
    guard let tables = config.lookup("localizations")?.objectValue, !tables.members.isEmpty else { return blocks }
    let fallback = config.lookup("default_locale")?.stringValue.map {
      $0.prefix { $0 != "_" && $0 != "-" }.lowercased()
    }
    func localize(_ text: TextTemplate, _ key: String) -> TextTemplate {
      var out = text
      for table in tables.members {
        guard let value = table.value.objectValue?.lookup(key), let string = value.stringValue else { continue }
        let language = table.key.prefix { $0 != "_" && $0 != "-" }.lowercased()
        let translated = appdnaTemplate(string, at: value.location).template
        out.translations[language] = translated
        if language == fallback { out.template = translated }
      }
      return out
    }
    return blocks.map { block in
      var copy = block
      let key = "block.\(block.id)"
      switch block.content {
      case .text(var text):
        if let template = text.text {
          text.text = localize(template, block.type == "badge" ? "\(key).badge" : "\(key).text")
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
}
