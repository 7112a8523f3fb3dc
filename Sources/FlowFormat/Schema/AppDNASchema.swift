/// The AppDNA dialect's objects for `flowrun schema` (docs/dialects/appdna.md): the keys are
/// the compiler's tables (`AppDNAKeys`). Shapes are given for the keys that structure a flow;
/// the SDK reads many others loosely ("true" strings as booleans), so the schema leaves them open.
enum AppDNASchema {
  static let objects: [ObjectDoc] = [
    ObjectDoc(
      name: "bundle", summary: "A remote-config bundle: the flows under `onboarding`.", known: AppDNAKeys.bundle,
      docs: ["onboarding": KeyDoc(.object("flows"), "The onboarding flows document.")], required: ["onboarding"]),
    ObjectDoc(
      name: "flows", summary: "A flows document: flows by id (or an array), one of them active.",
      known: AppDNAKeys.flows,
      docs: [
        "active_flow_id": KeyDoc(.string, "The flow that runs (default: the first that is not a draft)."),
        "flows": KeyDoc(
          .anyOf([.object("flowsByID"), .array(.object("flow"), minItems: 1)]),
          "The flows: an object by id, or an array."),
      ],
      required: ["flows"]),
    ObjectDoc(
      name: "flow", summary: "An AppDNA flow: steps and the rules between them.", known: AppDNAKeys.flow,
      docs: [
        "id": KeyDoc(.string, "The flow's id (generated when missing)."),
        "name": KeyDoc(.string, "The flow's name."),
        "version": KeyDoc(.integer(KeyShape.magnitudes), "The flow's version."),
        "status": KeyDoc(.known(["draft", "published"]), "A draft is never chosen from a bundle."),
        "steps": KeyDoc(.array(.object("step"), minItems: 1), "The steps, in order."),
        "settings": KeyDoc(.object("settings"), "Progress, back and dismiss settings."),
      ],
      required: ["steps"]),
    ObjectDoc(
      name: "settings", summary: "Flow settings (most are cosmetic).", known: AppDNAKeys.settings,
      docs: [
        "allow_back": KeyDoc(.flag, "Whether the user may go back (default true)."),
        "dismiss_allowed": KeyDoc(.flag, "Whether the user may dismiss the flow (default true)."),
        "show_progress": KeyDoc(.flag, "Whether progress is shown (default true)."),
      ]),
    ObjectDoc(
      name: "step", summary: "A step: one screen.", known: AppDNAKeys.step,
      docs: [
        "id": KeyDoc(.string, "The step's id; rules name it."),
        "type": KeyDoc(.known(DecodeContext.appdnaStepTypes), "The step type (an unknown type shows as custom)."),
        "name": KeyDoc(.string, "The step's name."),
        "config": KeyDoc(.object("stepConfig"), "What the step shows (wins over `layout`)."),
        "content_blocks": KeyDoc(.array(.object("block")), "Blocks, when the config has none."),
        "next_step_rules": KeyDoc(.array(.object("rule")), "Where to go after the step."),
        "hook": KeyDoc(.object("hook"), "The server webhook called before the step advances."),
      ]),
    ObjectDoc(
      name: "hook", summary: "A server step webhook (POSTed before the step advances).", known: AppDNAKeys.hook,
      docs: [
        "enabled": KeyDoc(.flag, "Whether the webhook is called."),
        "webhook_url": KeyDoc(.string, "The http(s) URL the step's data is POSTed to."),
        "timeout_ms": KeyDoc(.integer(KeyShape.whole(DecodeContext.appdnaWebhookTimeouts)), "Each attempt's timeout."),
        "retry_count": KeyDoc(
          .integer(KeyShape.whole(DecodeContext.appdnaWebhookRetries)), "Retries after a failed attempt."),
        "headers": KeyDoc(.object("headers"), "Request headers; values are templates."),
      ]),
    ObjectDoc(
      name: "stepConfig", summary: "A step's configuration.", known: AppDNAKeys.stepConfig,
      docs: [
        "title": KeyDoc(.string, "The title."), "subtitle": KeyDoc(.string, "The subtitle."),
        "cta_text": KeyDoc(.string, "The main button's text."),
        "content_blocks": KeyDoc(.array(.object("block")), "The step's blocks."),
        "fields": KeyDoc(.array(.object("field")), "A form step's fields."),
        "next_step_rules": KeyDoc(.array(.object("rule")), "Where to go after the step."),
      ]),
    ObjectDoc(
      name: "block", summary: "A content block.", known: AppDNAKeys.block,
      docs: [
        "id": KeyDoc(.string, "The block's id (generated when missing)."),
        "type": KeyDoc(.known(DecodeContext.appdnaBlockTypes.sorted()), "The block type."),
        "field_id": KeyDoc(.string, "The key the answer is collected under (default: the block's id)."),
        "children": KeyDoc(.array(.object("block")), "A container's blocks."),
        "stack_children": KeyDoc(.array(.object("block")), "A stack's blocks."),
        "fields": KeyDoc(.array(.object("field")), "A form block's fields."),
        "field_config": KeyDoc(.object("fieldConfig"), "An input block's limits."),
        "min_value": KeyDoc(.number(KeyShape.magnitudes), "The lowest value."),
        "max_value": KeyDoc(.number(KeyShape.magnitudes), "The highest value."),
        "max_value_picker": KeyDoc(.number(KeyShape.magnitudes), "The highest value of a picker."),
        "step_value": KeyDoc(.number(KeyShape.magnitudes), "The step between values."),
        "duration_seconds": KeyDoc(.number(DecodeContext.appdnaSeconds), "A countdown's length in seconds."),
        "total_duration_ms": KeyDoc(.number(DecodeContext.appdnaMilliseconds), "A loader's length in milliseconds."),
      ]),
    ObjectDoc(
      name: "field", summary: "A form field.", known: AppDNAKeys.field,
      docs: [
        "id": KeyDoc(.string, "The field's id: the key its answer is collected under."),
        "type": KeyDoc(.known(DecodeContext.appdnaFieldTypes.sorted()), "The field type (default text)."),
        "config": KeyDoc(.object("fieldConfig"), "The field's limits."),
      ]),
    ObjectDoc(
      name: "fieldConfig", summary: "A field's limits (other keys are read loosely).",
      known: AppDNAKeys.fieldLimits,
      docs: [
        "max_length": KeyDoc(.integer(KeyShape.counts), "The longest answer."),
        "max_chips": KeyDoc(.integer(KeyShape.counts), "The most chips."),
        "max_selections": KeyDoc(.integer(KeyShape.counts), "The most options chosen."),
        "min_value": KeyDoc(.number(KeyShape.magnitudes), "The lowest value."),
        "max_value": KeyDoc(.number(KeyShape.magnitudes), "The highest value."),
        "max_stars": KeyDoc(.number(KeyShape.magnitudes), "A rating's highest value."),
        "step": KeyDoc(.number(KeyShape.magnitudes), "The step between values."),
      ]),
    ObjectDoc(
      name: "rule", summary: "A branch to `target_step_id` when its conditions hold.", known: AppDNAKeys.rule,
      docs: [
        "target_step_id": KeyDoc(.string, "The step (or graph node) to go to; the SDK drops a flow without it."),
        "logic": KeyDoc(.string, "`and` (default) or `or` between the conditions."),
      ],
      required: ["target_step_id"]),
  ]

  static let extras: [(key: String, value: JSONWriter.Value)] = [
    (
      key: "headers",
      value: [
        "description": "Header names and their template values.", "type": "object",
        "additionalProperties": ["type": "string"],
      ]
    ),
    (
      key: "flowsByID",
      value: [
        "description": "Flows by id (the key is the flow's id).", "type": "object", "minProperties": 1,
        "additionalProperties": ["$ref": "#/$defs/flow"],
      ]
    ),
  ]
}
