import FlowExpression

/// A block's `bindings {property: dot-path}` (the SDK's ContentBlockRenderer): a path that
/// resolves replaces the property before the block renders; one that does not keeps the
/// authored value. flowrun binds the properties a block shows as text; the others are reported.
extension DecodeContext {
  /// The properties a binding may replace, by the block content that shows them.
  static let appdnaBindableProperties = [
    "text", "markdown_content", "badge_text", "divider_text", "field_label", "label", "field_placeholder",
    "toggle_label", "sublabel", "rating_label",
  ]

  mutating func appdnaBound(_ content: BlockContent, _ bindings: JSONObject, block object: JSONObject) -> BlockContent {
    var content = content
    for member in bindings.members {
      let property = member.key
      guard let path = member.value.stringValue else {
        warning(
          .AppDNA.unknownType, "binding '\(property)' is not a dot-path string; it is ignored",
          at: member.value.location)
        continue
      }
      let template = appdnaBinding(path, authored: object.lookup(property)?.stringValue, at: member.value.location)
      guard let bound = Self.binding(property, to: template, in: content) else {
        warning(
          .AppDNA.notRunYet,
          "binding of '\(property)' does not run; flowrun binds the properties shown as text "
            + "(\(Self.appdnaBindableProperties.joined(separator: ", ")))",
          at: member.keyLocation)
        continue
      }
      content = bound
    }
    return content
  }

  /// The template of a bound property: the path's value, else the authored text (whose own
  /// `{{…}}` then give their fallbacks: a fallback is one literal).
  mutating func appdnaBinding(_ path: String, authored: String?, at location: SourceLocation?) -> TextTemplate {
    let authoredText = appdnaTemplate(authored ?? "", at: location)
    // iOS 1.0.70 renders blocks with an empty binding context: nothing resolves.
    guard !options.iosQuirks, let name = Self.appdnaName(path.trimmingWhitespace) else { return authoredText }
    let fallback = Self.appdnaLiteral(authored ?? "")
    return TextTemplate(
      template: Template(parsing: "{\(name) | default: \(Self.quoted(fallback))}"), location: location)
  }

  /// AppDNA text with each `{{path | fallback}}` replaced by its fallback.
  static func appdnaLiteral(_ text: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
      out += rest[..<open.lowerBound]
      let token = rest[open.upperBound..<close.lowerBound]
      out += token.split(separator: "|", maxSplits: 1).dropFirst().first.map { String($0).trimmingWhitespace } ?? ""
      rest = rest[close.upperBound...]
    }
    return out + rest
  }

  /// `content` with `property` shown from `template`, or nil when the content shows no such text.
  private static func binding(_ property: String, to template: TextTemplate, in content: BlockContent) -> BlockContent?
  {
    switch (property, content) {
    case ("text", .text(var text)), ("markdown_content", .text(var text)), ("badge_text", .text(var text)),
      ("divider_text", .text(var text)), ("sublabel", .text(var text)):
      text.text = template
      text.richText = []
      return .text(text)
    case ("text", .button(var button)):
      button.text = template
      return .button(button)
    case ("field_label", .input(var input)), ("label", .input(var input)):
      input.label = template
      return .input(input)
    case ("field_placeholder", .input(var input)):
      input.placeholder = template
      return .input(input)
    case ("field_label", .choice(var choice)), ("label", .choice(var choice)):
      choice.label = template
      return .choice(choice)
    case ("field_label", .slider(var slider)), ("label", .slider(var slider)), ("rating_label", .slider(var slider)):
      slider.label = template
      return .slider(slider)
    case ("toggle_label", .toggle(var toggle)), ("field_label", .toggle(var toggle)):
      toggle.label = template
      return .toggle(toggle)
    default:
      return nil
    }
  }
}
