import FlowExpression
import FlowFormat

/// Bounds that contradict each other on sliders, inputs and checklists.
public struct InvalidRangeRule: LintRule {
  public init() {}
  public let id = "check.invalid-range"
  public let summary = "a slider, input or checklist has contradictory bounds or a default outside them"
  public let severity = Severity.error
  public let details =
    "Reported: `min > max` (slider, number input), `minLength > maxLength`, `minSelections` above the number of items, `maxSelections < minSelections`, a slider `defaultValue` outside min...max or off its step, a non-positive slider step."
  public let triggeringExample = Example.flow([
    Example.screen(
      "hours", "question",
      [Example.block("hours_slider", "slider", #""fieldName": "hours", "min": 10, "max": 5"#), Example.button("go")])
  ])
  public let cleanExample = Example.flow([
    Example.screen(
      "hours", "question",
      [
        Example.block(
          "hours_slider", "slider", #""fieldName": "hours", "min": 0, "max": 8, "step": 2, "defaultValue": 4"#),
        Example.button("go"),
      ])
  ])

  public func check(_ context: CheckContext) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    /// At the first of `keys` the block's content has (the bound to fix), else at the block.
    func report(_ block: Block, _ message: String, at keys: String...) {
      let location = keys.lazy.compactMap { context.paths.location(of: ["content", $0], inObjectAt: block.location) }
        .first
      diagnostics.append(context.diagnostic(self, "block '\(block.id)': \(message)", at: location ?? block.location))
    }
    let f = NumberFormatting.javaScriptString
    for node in context.dense.nodes {  // the kept list: `graph.nodes` makes one, 0.2 MB on `lint-chain`
      for block in context.graph.screen(node).content.flatBlocks {
        switch block.content.field {
        case .slider(let slider):
          if slider.min > slider.max {
            report(block, "slider min \(f(slider.min)) is greater than max \(f(slider.max))", at: "min")
          } else if slider.step <= 0 {
            report(block, "slider step \(f(slider.step)) must be positive", at: "step")
          } else if slider.defaultValue < slider.min || slider.defaultValue > slider.max {
            report(
              block, "slider default \(f(slider.defaultValue)) is outside \(f(slider.min))...\(f(slider.max))",
              at: "defaultValue")
          } else {
            let steps = (slider.defaultValue - slider.min) / slider.step
            if abs(steps - steps.rounded()) > 1e-9 {
              report(
                block,
                "slider default \(f(slider.defaultValue)) is not on a step (\(f(slider.min)) + n × \(f(slider.step)))",
                at: "defaultValue")
            }
          }
        case .input(let input):
          if let lo = input.min, let hi = input.max, lo > hi {
            report(block, "input min \(f(lo)) is greater than max \(f(hi))", at: "min")
          }
          if let lo = input.minLength, let hi = input.maxLength, lo > hi {
            report(block, "input minLength \(lo) is greater than maxLength \(hi)", at: "minLength")
          }
        case .choice(let choice):
          if let lo = choice.minSelections, lo > choice.items.count {
            report(block, "minSelections \(lo) is more than the \(choice.items.count) items", at: "minSelections")
          }
          if let lo = choice.minSelections, let hi = choice.maxSelections, hi < lo {
            report(block, "maxSelections \(hi) is less than minSelections \(lo)", at: "maxSelections")
          }
        case .toggle, nil: break
        }
      }
    }
    return diagnostics
  }
}
