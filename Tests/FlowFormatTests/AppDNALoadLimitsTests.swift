import FlowFormat
import Testing

/// AppDNA numbers outside flowrun's limits (`Limits`) are `load.out-of-range` errors at the
/// value, with its JSON path, as Sequence's are; the bound itself loads.
@Suite struct AppDNALoadLimitsTests {
  /// A form field of `type` with `config`, and a block-based step holding `block`.
  static func flow(
    field: String = #"{"id": "f", "type": "text"}"#, block: String = #"{"id": "b", "type": "button"}"#
  )
    -> String
  {
    """
    {"id": "x", "steps": [
      {"id": "s1", "type": "form", "config": {"fields": [\(field)]}},
      {"id": "s2", "type": "custom", "config": {"content_blocks": [\(block), {"id": "go", "type": "button"}]}}]}
    """
  }

  @Test(arguments: [
    (
      flow(field: #"{"id": "f", "type": "text", "config": {"max_length": 1e300}}"#),
      "steps[0].config.fields[0].config.max_length", "max_length must be between 0 and 100,000, found 1e+300"
    ),
    (
      flow(field: #"{"id": "f", "type": "textarea", "config": {"max_length": -5}}"#),
      "steps[0].config.fields[0].config.max_length", "max_length must be between 0 and 100,000, found -5"
    ),
    (
      flow(field: #"{"id": "f", "type": "number", "config": {"min_value": -1e308}}"#),
      "steps[0].config.fields[0].config.min_value",
      "min_value must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found -1e+308"
    ),
    (
      flow(field: #"{"id": "f", "type": "slider", "config": {"max_value": 1e300}}"#),
      "steps[0].config.fields[0].config.max_value",
      "max_value must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+300"
    ),
    (
      flow(field: #"{"id": "f", "type": "chips", "config": {"max_chips": 1e20}}"#),
      "steps[0].config.fields[0].config.max_chips",
      "max_chips must be between 0 and 100,000, found 100000000000000000000"
    ),
    (
      flow(block: #"{"id": "s", "type": "input_slider", "field_id": "s", "step_value": 1e300}"#),
      "steps[1].config.content_blocks[0].step_value",
      "step_value must be between -1,000,000,000,000,000 and 1,000,000,000,000,000, found 1e+300"
    ),
    (
      flow(block: #"{"id": "t", "type": "input_text", "field_config": {"max_length": 1e19}}"#),
      "steps[1].config.content_blocks[0].field_config.max_length",
      "max_length must be between 0 and 100,000, found 10000000000000000000"
    ),
    (
      flow(block: #"{"id": "t", "type": "countdown_timer", "duration_seconds": 1e300}"#),
      "steps[1].config.content_blocks[0].duration_seconds",
      "duration_seconds must be between 0 and 1,000,000,000 s, found 1e+300"
    ),
    (
      flow(block: #"{"id": "l", "type": "animated_loading", "loading_items": [{"duration_ms": -1}]}"#),
      "steps[1].config.content_blocks[0].loading_items[0].duration_ms",
      "duration_ms must be between 0 and 1,000,000,000,000 ms, found -1"
    ),
  ])
  func outOfRangeIsAnErrorAtTheValue(_ json: String, _ path: String, _ message: String) throws {
    let result = FlowLoader.load(bytes: Array(json.utf8), file: "x.json")
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.count == 1, "\(errors.map(\.message))")
    let error = try #require(errors.first)
    #expect(error.id == "load.out-of-range" && error.message == message)
    #expect(error.path == path)
    #expect(error.location != nil)
  }

  @Test(arguments: [
    flow(field: #"{"id": "f", "type": "text", "config": {"max_length": 100000}}"#),
    flow(field: #"{"id": "f", "type": "slider", "config": {"min_value": -1e15, "max_value": 1e15, "step": 1e-300}}"#),
    flow(
      block: #"{"id": "t", "type": "countdown_timer", "duration_seconds": 1e9, "on_expire_action": "auto_advance"}"#),
  ])
  func theBoundsLoad(_ json: String) {
    let result = FlowLoader.load(bytes: Array(json.utf8), file: "x.json")
    #expect(!result.diagnostics.contains { $0.severity == .error }, "\(result.diagnostics.map(\.message))")
  }
}
