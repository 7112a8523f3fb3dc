import FlowExpression
import FlowFormat

/// Texts that read a field their own screen asks for, with nothing to show before the answer.
public struct TemplateBeforeAnswerRule: LintRule {
  public init() {}
  public let id = "check.template-before-answer"
  public let summary = "a text reads a field its own screen asks for and no screen collects earlier: it shows raw"
  public let severity = Severity.warning
  public let details =
    "The screen is drawn before its fields are answered, so a template reading such a field shows as written (`{target_loss_kg * 2}`) until the answer arrives. Not reported when the field has a default (a slider, a toggle, an input's `defaultValue`: `run` shows templates with the default), when another screen collects the field too, or when the template handles a missing value (a `default` filter, a guarding `visibleWhen`). Give the field a default, or show the text on a later screen."
  public let triggeringExample = Example.flow([
    Example.screen(
      "name_screen", "form",
      [
        Example.block("name_input", "input", #""fieldName": "name""#), Example.text("hello", "Hi {name}!"),
        Example.button("go"),
      ])
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "name_screen", "form", [Example.block("name_input", "input", #""fieldName": "name""#), Example.button("go")]),
    Example.screen("hello_screen", "feature", [Example.text("hello", "Hi {name}!"), Example.button("go")]),
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    // How many screens of the document collect each field (by name number): one means only
    // the reading screen.
    let facts = context.facts
    var collectors = [Int](repeating: 0, count: facts.names.count)
    for field in facts.collectedFields.values { collectors[field] += 1 }
    var diagnostics: [Diagnostic] = []
    for (number, node) in context.dense.nodes.enumerated() {
      // Only reads that need a value, outside rules, of a field only this screen collects; the
      // blocks are looked at only for a screen that has one.
      let candidates = facts.nameReads[number].filter { read in
        !read.handlesMissing && !read.isRule && collectors[read.number] == 1
          && facts.collectedFields[number].contains(read.number)
      }
      guard !candidates.isEmpty else { continue }
      let screen = context.graph.screen(node)
      let unanswered = Set(
        screen.content.flatBlocks.compactMap { block -> String? in
          guard let field = block.fieldName, block.content.fieldDefault == nil else { return nil }
          return field
        })
      var reported: Set<String> = []
      for read in candidates {
        let name = facts.names[read.number]
        guard unanswered.contains(name) && reported.insert(read.what(on: screen) + "\u{1}" + name).inserted else {
          continue
        }
        diagnostics.append(
          context.diagnostic(
            self,
            "\(read.what(on: screen)) of screen '\(screen.id)' reads '\(name)', which that screen asks for: "
              + "it shows raw until answered",
            at: read.location,
            notes: [Diagnostic.Note("give '\(name)' a defaultValue, or show the text on a later screen")]))
      }
    }
    return diagnostics
  }
}
