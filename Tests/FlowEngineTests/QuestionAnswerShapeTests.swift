import FlowEngine
import FlowExpression
import FlowFormat
import OrderedCollections
import Testing

/// A legacy question step's answer in `onboarding_flow_completed.responses`: the step's value,
/// as document 001 reads it (`responses["fitness_goal"] as? String`); with `--ios-quirks`, in
/// `selection_data` too, `{selected: [option ids in option order], selection_mode}`, as the SDK
/// submits it (research §1.5).
@Suite struct QuestionAnswerShapeTests {
  @Test(arguments: [
    ("single", ["o2"], ["o2"], false),
    ("multi", ["o2", "o1"], ["o1", "o2"], false),
    ("single", ["o2"], ["o2"], true),
    ("multi", ["o2", "o1"], ["o1", "o2"], true),
  ])
  func answerShape(_ mode: String, _ picks: [String], _ selected: [String], _ iosQuirks: Bool) throws {
    let json = """
      {"id": "f", "steps": [
        {"id": "q", "type": "question", "config": {"title": "Pick", "selection_mode": "\(mode)",
         "options": [{"id": "o1", "label": "One"}, {"id": "o2", "label": "Two"}, {"id": "o3", "label": "Three"}]}},
        {"id": "end", "type": "welcome"}]}
      """
    let document = try #require(FlowLoader.load(bytes: Array(json.utf8), file: "f.json").document)
    var config = SessionConfig(now: 0)
    config.iosQuirks = iosQuirks
    var (session, _) = try Session.start(document: document, config: config)
    _ = session.send(.pick(field: "q", items: picks))
    _ = session.send(.next)
    _ = session.send(.next)
    let stored: Value = mode == "multi" ? .list(picks.map(Value.string)) : .string(picks[0])
    let sdkShape: Value = .object(["selected": .list(selected.map(Value.string)), "selection_mode": .string(mode)])
    let completed = session.events.first { $0.eventType == "onboarding_step_completed" }
    #expect(completed?.property("selection_data") == (iosQuirks ? sdkShape : .object(["q": stored])))
    let flowCompleted = session.events.last { $0.eventType == "onboarding_flow_completed" }
    #expect(flowCompleted?.property("responses") == .object(["q": iosQuirks ? sdkShape : stored]))
  }
}
