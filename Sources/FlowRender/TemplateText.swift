import FlowEngine
import FlowExpression
import FlowFormat

extension Session {
  /// `render(template)`; a text with no interpolation and no translation (nearly every text of
  /// a screen) is its one literal, without an environment made to render it.
  func text(of template: TextTemplate) -> String {
    guard template.translations.isEmpty else { return render(template) }
    switch template.template.segments.first {
    case nil: return ""
    case .text(let literal) where template.template.segments.count == 1 && literal.utf8.count <= Limits.templateBytes:
      return literal
    default: return render(template)
    }
  }
}
