/// The Nuxie dialect's objects for `flowrun schema` (docs/dialects/nuxie.md): a `RemoteFlow`'s
/// keys are the compiler's tables (`NuxieKeys`). Interactions are keyed by screen and component
/// and carry the action vocabulary, so their trigger and action types are offered as completions;
/// an era E release or leg (`schemaVersion`) is accepted as it is.
enum NuxieSchema {
  static let objects: [ObjectDoc] = [
    ObjectDoc(
      name: "remoteFlow", summary: "A Nuxie RemoteFlow: screens and the interactions between them.",
      known: NuxieKeys.remoteFlow,
      docs: [
        "id": KeyDoc(.string, "The flow's id."),
        "name": KeyDoc(.string, "The flow's name."),
        "screens": KeyDoc(.array(.object("screen"), minItems: 1), "The screens, the first one shown first."),
        "interactions": KeyDoc(.object("interactions"), "Interactions by screen (or component) id."),
        "components": KeyDoc(.any, "flowrun's extension: the controls of each screen, `{screenId: [{id, label}]}`."),
      ],
      required: ["screens"]),
    ObjectDoc(
      name: "screen", summary: "A screen.", known: NuxieKeys.screen,
      docs: [
        "id": KeyDoc(.string, "The screen's id; actions navigate to it."),
        "name": KeyDoc(.string, "The screen's name."),
      ],
      required: ["id"]),
    ObjectDoc(
      name: "interaction", summary: "What a trigger on a screen or component does.",
      known: ["id", "trigger", "actions"],
      docs: [
        "trigger": KeyDoc(.object("trigger"), "What starts the interaction."),
        "actions": KeyDoc(.array(.object("action")), "The actions, run in order."),
      ],
      required: ["trigger"]),
    ObjectDoc(
      name: "trigger", summary: "A trigger.", known: ["type", "eventName", "path"],
      docs: ["type": KeyDoc(.known(NuxieKeys.triggers.sorted()), "The trigger type.")], required: ["type"]),
    ObjectDoc(
      name: "action", summary: "An action of Nuxie's vocabulary.", known: ["type", "screenId", "steps"],
      docs: ["type": KeyDoc(.known(NuxieKeys.actions), "The action type.")], required: ["type"]),
  ]

  static let extras: [(key: String, value: JSONWriter.Value)] = [
    (
      key: "interactions",
      value: [
        "description": "Interactions by screen or component id.", "type": "object",
        "additionalProperties": ["type": "array", "items": ["$ref": "#/$defs/interaction"]],
      ]
    ),
    (
      key: "release",
      value: [
        "description":
          "A Nuxie era E journey release (the leg under `leg`) or a bare leg, told by its `schemaVersion`.",
        "type": "object",
        "properties": [
          "schemaVersion": ["enum": ["nuxie.journey-release.v2", "nuxie.experience-planes.v1"]],
          "leg": ["$ref": "#/$defs/leg"],
        ],
        "required": ["schemaVersion"],
        "if": ["required": ["leg"]], "then": [:], "else": ["$ref": "#/$defs/leg"],
      ]
    ),
    (
      key: "leg",
      value: [
        "description": "A leg: its steps from `entryStepId`, or its screens.", "type": "object",
        "anyOf": [["required": ["screens"]], ["required": ["entryStepId"]]],
      ]
    ),
  ]
}
