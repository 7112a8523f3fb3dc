import FlowExpression

/// The Sequence dialect's objects for `flowrun schema` (docs/flow-format.md, document 000):
/// the keys are the loader's tables (`KnownKeys`), the shapes those the decoders read.
enum SequenceSchema {
  static let serverColumns: [String: KeyDoc] = [
    "$schema": KeyDoc(.string, "The JSON Schema this document follows (`flowrun schema > flow.schema.json`)."),
    "description": KeyDoc(.any, "Free text; not read."),
    "metadata": KeyDoc(.any, "Free data; not read."),
  ]

  static let objects: [ObjectDoc] = [
    ObjectDoc(
      name: "flow", summary: "A flow: screens shown one after another, with rules that branch.",
      known: KnownKeys.flow,
      docs: serverColumns.merging([
        "version": KeyDoc(.integer(KeyShape.magnitudes), "The format version (Sequence requires it; 1 is assumed)."),
        "id": KeyDoc(.string, "The flow's id (default: the file name)."),
        "name": KeyDoc(.string, "The flow's name (default: its id)."),
        "screens": KeyDoc(.array(.object("screen"), minItems: 1), "The screens, in order (`order` sorts them)."),
        "startScreen": KeyDoc(.string, "The id of the first screen (default: the first in order)."),
        "settings": KeyDoc(.object("settings"), "Back, progress and dismiss settings."),
        "progressIndicator": KeyDoc(.object("progressIndicator"), "The progress indicator."),
        "transitions": KeyDoc(.array(.object("transitionRule")), "Animations between two screens."),
        "experiment": KeyDoc(.object("assignedExperiment"), "The experiment and variant the server assigned."),
        "experiments": KeyDoc(.array(.object("experiment")), "Experiments this flow declares."),
      ]) { a, _ in a },
      required: ["screens"]),
    ObjectDoc(
      name: "bundle", summary: "A bundle: flows by id (or an array of flows with ids), one of them active.",
      known: KnownKeys.bundle,
      docs: serverColumns.merging([
        "version": KeyDoc(.integer(KeyShape.magnitudes), "The format version."),
        "id": KeyDoc(.string, "The bundle's id."),
        "name": KeyDoc(.string, "The bundle's name."),
        "flows": KeyDoc(
          .anyOf([.object("flowsByID"), .array(.object("flowWithID"), minItems: 1)]),
          "The flows: an object of flows by id, or an array of flows that each have an `id`."),
        "activeFlow": KeyDoc(.string, "The id of the flow that runs first (default: the first)."),
        "experiments": KeyDoc(.array(.object("experiment")), "Experiments across the bundle's flows."),
      ]) { a, _ in a },
      required: ["flows"]),
    ObjectDoc(
      name: "settings", summary: "Flow settings.", known: KnownKeys.settings,
      docs: [
        "allowBack": KeyDoc(.boolean, "Whether the user may go back (default true)."),
        "showProgress": KeyDoc(.boolean, "Whether progress is shown (default true)."),
        "dismissAllowed": KeyDoc(.boolean, "Whether the user may dismiss the flow (default true)."),
      ]),
    ObjectDoc(
      name: "progressIndicator", summary: "The progress indicator.", known: KnownKeys.progressIndicator,
      docs: [
        "enabled": KeyDoc(.boolean, "Whether it shows (Sequence requires the key; true is assumed)."),
        "variant": KeyDoc(.known(ProgressIndicator.Variant.allCases.map(\.rawValue)), "How it is drawn."),
        "position": KeyDoc(.string, "Where it is drawn (default top)."),
        "startScreen": KeyDoc(.integer(KeyShape.magnitudes), "The first screen index it counts."),
        "endScreen": KeyDoc(.integer(KeyShape.magnitudes), "The last screen index it counts."),
        "skipScreens": KeyDoc(.array(.integer(0...1e9 - 1)), "Screen indexes it leaves out."),
      ]),
    ObjectDoc(
      name: "screen", summary: "A screen.", known: KnownKeys.screen,
      docs: serverColumns.merging([
        "id": KeyDoc(.string, "The screen's id, unique in the flow; actions and rules name it."),
        "name": KeyDoc(.string, "The screen's name (default: its id)."),
        "type": KeyDoc(
          .known(Screen.Kind.allCases.filter { $0 != .unknown }.map(\.rawValue)),
          "The screen type (default feature; an unknown type behaves like feature)."),
        "order": KeyDoc(.integer(KeyShape.magnitudes), "The screen's place (default: its array index)."),
        "content": KeyDoc(.object("content"), "What the screen shows."),
        "rules": KeyDoc(.array(.object("rule")), "Where to go after the screen: the first rule whose `when` holds."),
        "next": KeyDoc(.string, "The screen after this one when no rule applies (`$complete` ends the flow)."),
        "hideProgress": KeyDoc(.boolean, "Hide the progress indicator on this screen."),
        "hideBack": KeyDoc(.boolean, "Hide the back button on this screen."),
        "flow": KeyDoc(.string, "For a `flow` screen: the id of the bundle's flow it runs."),
        "autoAdvanceMs": KeyDoc(.number(KeyShape.durations), "Milliseconds after which the screen moves on."),
        "onEnter": KeyDoc(.object("action"), "An action run when the screen is entered."),
        "transition": KeyDoc(.known(ScreenTransition.allCases.map(\.rawValue)), "The animation into the screen."),
      ]) { a, _ in a },
      required: ["id", "content"],
      requiredWhen: [RequiredWhen(key: "type", values: ["flow"], required: ["flow"])]),
    ObjectDoc(
      name: "content", summary: "A screen's content: blocks, or the legacy title/subtitle/button.",
      known: KnownKeys.content,
      docs: [
        "title": KeyDoc(.text, "The title (legacy layout)."),
        "subtitle": KeyDoc(.text, "The subtitle (legacy layout)."),
        "body": KeyDoc(.text, "The body, when there is no subtitle (legacy layout)."),
        "icon": KeyDoc(.string, "An icon name."),
        "image": KeyDoc(.string, "An image URL."),
        "buttonText": KeyDoc(.text, "The main button's text (default Continue)."),
        "buttonAction": KeyDoc(.object("action"), "The main button's action (default next)."),
        "skipText": KeyDoc(.text, "The skip link's text."),
        "skipAction": KeyDoc(.object("action"), "The skip link's action."),
        "slides": KeyDoc(.array(.object("slide")), "A carousel's slides."),
        "permissionType": KeyDoc(.string, "A permission screen's permission (notifications, location, …)."),
        "identifier": KeyDoc(.string, "A native or custom screen's identifier."),
        "blocks": KeyDoc(.array(.object("block")), "The blocks, top to bottom."),
        "useBlocks": KeyDoc(.boolean, "Draw the blocks, not the legacy layout (default: whether there are blocks)."),
      ]),
    ObjectDoc(
      name: "slide", summary: "A carousel slide.", known: KnownKeys.slide,
      docs: [
        "title": KeyDoc(.text, "The slide's title."), "body": KeyDoc(.text, "The slide's text."),
        "icon": KeyDoc(.string, "An icon name."),
      ]),
    ObjectDoc(
      name: "block", summary: "A block of a screen.", known: KnownKeys.blockEnvelope,
      docs: [
        "id": KeyDoc(.string, "The block's id; a collecting block without `fieldName` collects under it."),
        "type": KeyDoc(
          .known(DecodeContext.knownBlockTypes), "The block type (an unknown type is shown as unsupported)."),
        "order": KeyDoc(.integer(KeyShape.magnitudes), "The block's place (default: its array index)."),
        "content": KeyDoc(.object("blockContent"), "The block's settings (one flat set of keys for every type)."),
        "visible": KeyDoc(.boolean, "Whether the block shows (default true)."),
        "visibleWhen": KeyDoc(.condition, "Show the block only while this condition holds."),
      ],
      required: ["id", "type"]),
    ObjectDoc(
      name: "blockContent", summary: "A block's content: Sequence reads one flat set of keys for every type.",
      known: KnownKeys.blockContent,
      docs: [
        "text": KeyDoc(.text, "A text or button block's text; a feature card's headline when it has none."),
        "variant": KeyDoc(.string, "A text block's style (h1, body, …), a button's or a progress block's variant."),
        "richText": KeyDoc(.array(.object("richTextSpan")), "A text block's styled spans."),
        "src": KeyDoc(.string, "A media block's URL."),
        "alt": KeyDoc(.string, "A media block's description."),
        "icon": KeyDoc(.string, "An icon block's icon."),
        "action": KeyDoc(.object("action"), "A button's or a choice's action (default next)."),
        "preset": KeyDoc(.string, "A button's preset."),
        "placeholder": KeyDoc(.text, "An input's placeholder."),
        "label": KeyDoc(.text, "A collecting block's label."),
        "fieldLabel": KeyDoc(.text, "The label (and the field name when `fieldName` is missing, as the SDK does)."),
        "inputType": KeyDoc(.known(InputBlock.Kind.sequenceKinds.map(\.rawValue)), "An input's kind (default text)."),
        "required": KeyDoc(.boolean, "Whether an answer is required."),
        "fieldName": KeyDoc(.string, "The key the answer is collected under (snake_case)."),
        "items": KeyDoc(.array(.object("item")), "A choice block's items."),
        "allowMultiple": KeyDoc(.boolean, "Whether several items may be chosen."),
        "minSelections": KeyDoc(.integer(KeyShape.counts), "The fewest items to choose."),
        "maxSelections": KeyDoc(.integer(KeyShape.counts), "The most items to choose."),
        "autoAdvance": KeyDoc(.boolean, "A single choice moves on when tapped (default true)."),
        "min": KeyDoc(.number(KeyShape.magnitudes), "A slider's or number input's least value."),
        "max": KeyDoc(.number(KeyShape.magnitudes), "A slider's or number input's greatest value."),
        "step": KeyDoc(.number(KeyShape.magnitudes), "A slider's step (positive)."),
        "defaultValue": KeyDoc(.any, "The value before an answer (a number, a boolean for a toggle)."),
        "valuePrefix": KeyDoc(.string, "Text before a slider's value."),
        "valueSuffix": KeyDoc(.string, "Text after a slider's value."),
        "headline": KeyDoc(.text, "A feature card's headline."),
        "body": KeyDoc(.text, "A feature card's text."),
        "children": KeyDoc(.array(.object("block")), "A scroll container's blocks."),
        "identifier": KeyDoc(.string, "A custom block's identifier."),
        "props": KeyDoc(.any, "A custom block's properties."),
        "pattern": KeyDoc(.string, "A regular expression the answer must match."),
        "patternMessage": KeyDoc(.string, "The message when the pattern does not match."),
        "minLength": KeyDoc(.integer(KeyShape.counts), "The shortest answer."),
        "maxLength": KeyDoc(.integer(KeyShape.counts), "The longest answer."),
        "secret": KeyDoc(.boolean, "Mask the answer in output (a password input is secret already)."),
        "analytics": KeyDoc(.object("analytics"), "A button's analytics event."),
      ]),
    ObjectDoc(
      name: "analytics", summary: "A button's analytics (document 003's EventButton).", known: KnownKeys.analytics,
      docs: [
        "category": KeyDoc(.string, "The event's category."), "object": KeyDoc(.string, "The event's object."),
        "verb": KeyDoc(.string, "The event's verb."), "params": KeyDoc(.any, "The event's parameters (an object)."),
      ]),
    ObjectDoc(
      name: "richTextSpan", summary: "A span of styled text.", known: KnownKeys.richTextSpan,
      docs: [
        "text": KeyDoc(.text, "The span's text."), "bold": KeyDoc(.boolean, "Bold."),
        "italic": KeyDoc(.boolean, "Italic."),
      ],
      required: ["text"]),
    ObjectDoc(
      name: "item", summary: "An item of a choice block.", known: KnownKeys.item,
      docs: [
        "id": KeyDoc(.string, "The item's id (collected when it has no `value`)."),
        "label": KeyDoc(.text, "The item's label."),
        "value": KeyDoc(.anyOf([.string, .number(), .boolean]), "The value collected when the item is chosen."),
      ],
      required: ["id", "label"]),
    ObjectDoc(
      name: "action", summary: "An action: where a button, a choice or an outcome leads.", known: KnownKeys.action,
      docs: [
        "type": KeyDoc(
          .known(DecodeContext.knownActionTypes), "The action type (an unknown type runs as next)."),
        "screenId": KeyDoc(.string, "For `screen`/`goto`: the screen to go to."),
        "identifier": KeyDoc(.string, "For `custom`: what the host app is asked to do (auth.apple, …)."),
        "awaitResult": KeyDoc(.boolean, "For `custom`: wait for the host's result."),
        "onSuccess": KeyDoc(.object("action"), "For an awaited `custom`: the action on success."),
        "onFailure": KeyDoc(.object("action"), "For an awaited `custom`: the action on failure."),
        "onCancel": KeyDoc(.object("action"), "For an awaited `custom`: the action on cancel."),
        "url": KeyDoc(.string, "For `openUrl`: the URL."),
      ],
      required: ["type"],
      requiredWhen: [
        RequiredWhen(key: "type", values: ["screen", "goto"], required: ["screenId"]),
        RequiredWhen(key: "type", values: ["openUrl"], required: ["url"]),
        RequiredWhen(key: "type", values: ["custom"], required: ["identifier"]),
      ]),
    ObjectDoc(
      name: "rule", summary: "A branch: go to `goto` when `when` holds (always without `when`).",
      known: KnownKeys.rule,
      docs: [
        "when": KeyDoc(.condition, "The condition (an expression or a {field, op, value} object)."),
        "goto": KeyDoc(.string, "The screen to go to (`$complete` ends the flow)."),
      ],
      required: ["goto"]),
    ObjectDoc(
      name: "transitionRule", summary: "The animation from one screen to another.", known: KnownKeys.transitionRule,
      docs: [
        "fromScreenId": KeyDoc(.string, "The screen left."), "toScreenId": KeyDoc(.string, "The screen entered."),
        "transition": KeyDoc(.known(ScreenTransition.allCases.map(\.rawValue)), "The animation."),
      ],
      required: ["fromScreenId", "toScreenId", "transition"]),
    ObjectDoc(
      name: "experiment", summary: "An experiment: variants drawn by weight.", known: KnownKeys.experiment,
      docs: [
        "id": KeyDoc(.string, "The experiment's id."), "salt": KeyDoc(.string, "The salt of the assignment hash."),
        "variants": KeyDoc(.array(.object("variant"), minItems: 1), "The variants."),
        "default": KeyDoc(.string, "The variant to use when none is drawn."),
        "name": KeyDoc(.any, "A name; not read."),
      ],
      required: ["id"]),
    ObjectDoc(
      name: "variant", summary: "A variant of an experiment.", known: KnownKeys.variant,
      docs: [
        "id": KeyDoc(.string, "The variant's id."),
        "weight": KeyDoc(.number(0...Limits.magnitude), "Its share of the draw (default 1)."),
        "flow": KeyDoc(.string, "The bundle's flow this variant runs."),
        "name": KeyDoc(.any, "A name; not read."),
      ],
      required: ["id"]),
    ObjectDoc(
      name: "assignedExperiment", summary: "The variant the server assigned: {id, variantId} or {id, variant}.",
      known: KnownKeys.assignedExperiment,
      docs: [
        "id": KeyDoc(.string, "The experiment's id."), "variantId": KeyDoc(.string, "The variant's id."),
        "variantName": KeyDoc(.string, "The variant's name."), "variant": KeyDoc(.string, "The variant's id."),
      ]),
  ]
}
