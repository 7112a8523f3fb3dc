import FlowEngine
import FlowExpression
import FlowFormat

extension Session {
  /// `render(template)`; a text with no interpolation and no translation (nearly every text of
  /// a screen) is its one literal, without an environment made to render it.
  func text(of template: TextTemplate) -> String {
    guard template.translations.isEmpty else { return render(template) }
    // A plain text is its source as written; asking for `segments` would build an array.
    let source = template.template.source
    if template.template.isPlainText, source.utf8.count <= Limits.templateBytes { return source }
    return render(template)
  }
}
