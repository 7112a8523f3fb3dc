import FlowSupport

/// The keys each kind of object may carry: the ones flowrun reads, and the Sequence SDK's
/// cosmetic and server keys that it accepts silently. Anything else earns an unknown-key warning.
enum KnownKeys {
  /// A server row's columns, snake_case as the database has them and camelCase as document
  /// 000's `Screen` type names them.
  static let serverColumns: KeySet = [
    "app_id", "flow_id", "created_at", "updated_at", "appId", "flowId", "createdAt", "updatedAt", "$schema",
    "description", "metadata",
  ]

  static let flow: KeySet =
    [
      "version", "id", "name", "screens", "startScreen", "settings", "progressIndicator",
      "transitions", "experiment", "experiments",
    ] + serverColumns

  static let bundle: KeySet =
    ["version", "id", "name", "flows", "activeFlow", "experiments"] + serverColumns

  static let settings: KeySet = ["allowBack", "showProgress", "dismissAllowed"]

  static let progressIndicator: KeySet = [
    "enabled", "variant", "position", "fillColor", "trackColor", "animated", "startScreen",
    "endScreen", "skipScreens",
  ]

  static let screen: KeySet =
    [
      "id", "name", "type", "order", "content", "rules", "next", "hideProgress", "hideBack",
      "flow", "autoAdvanceMs", "onEnter", "transition",
    ] + serverColumns

  static let content: KeySet = [
    "title", "subtitle", "body", "icon", "image", "buttonText", "buttonAction", "skipText",
    "skipAction", "slides", "permissionType", "identifier", "blocks", "useBlocks",
    "backgroundColor", "backgroundGradient", "backgroundImage", "backgroundOverlay",
    "fillerDuration", "fillerAnimation",
  ]

  static let slide: KeySet = ["title", "body", "icon", "image"]

  static let blockEnvelope: KeySet = [
    "id", "type", "order", "content", "visible", "visibleWhen", "position", "styling",
    "animation", "pinToBottom",
  ]

  /// Sequence decodes block content as one flat bag, so any of these may sit on any block.
  static let blockContent: KeySet = [
    "text", "variant", "align", "lineHeight", "letterSpacing", "richText", "src", "alt",
    "width", "height", "objectFit", "poster", "autoplay", "loop", "muted", "controls", "icon",
    "size", "action", "preset", "fullWidth", "iconPosition", "paddingHorizontal",
    "paddingVertical", "flex", "thickness", "style", "placeholder", "label", "fieldLabel",
    "inputType", "required", "fieldName", "items", "allowMultiple", "minSelections",
    "maxSelections", "autoAdvance", "columns", "itemPadding", "itemGap", "itemWidth",
    "showBorderWhenSelected", "borderWhenUnselected", "shadow", "hapticEnabled",
    "hapticIntensity", "min", "max", "step", "defaultValue", "showValue", "valuePrefix",
    "valueSuffix", "showMinMax", "showTicks", "tickCount", "thumbSize", "trackHeight",
    "strokeWidth", "showPercentage", "dotSize", "labels", "showLabels", "startScreen",
    "endScreen", "animated", "headline", "headlineRichText", "body", "bodyRichText",
    "glowingBorder", "glowIntensity", "headlineBodyGap", "children", "maxHeight", "gap",
    "showScrollIndicator", "scrollSnap", "identifier", "props", "pattern", "patternMessage",
    "minLength", "maxLength", "checked", "secret", "analytics",
  ]

  static let analytics: KeySet = ["category", "object", "verb", "params"]

  static let richTextSpan: KeySet = [
    "text", "bold", "italic", "underline", "color", "fontFamily", "fontSize",
  ]

  static let item: KeySet = ["id", "label", "value", "checked", "icon", "description"]

  static let action: KeySet = [
    "type", "screenId", "identifier", "awaitResult", "onSuccess", "onFailure", "onCancel", "url",
  ]

  static let rule: KeySet = ["when", "goto"]

  static let transitionRule: KeySet = ["fromScreenId", "toScreenId", "transition"]

  static let experiment: KeySet = ["id", "salt", "variants", "default", "name", "description"]

  static let variant: KeySet = ["id", "weight", "flow", "name", "description"]

  static let assignedExperiment: KeySet = ["id", "variantId", "variantName", "variant"]

  static let structuredCondition: KeySet = ["field", "op", "value"]
  static let all: KeySet = ["all"]
  static let any: KeySet = ["any"]
  static let not: KeySet = ["not"]

  /// Colours, fonts, spacing and the like: cosmetic in the SDK, meaningless in a terminal.
  static func isCosmetic(_ key: String) -> Bool {
    cosmeticSuffixes.contains { key.hasSuffix($0) } || cosmeticKeys.contains(key)
  }

  private static let cosmeticSuffixes = [
    "Color", "Colour", "FontSize", "FontWeight", "FontFamily", "Radius", "Gradient",
  ]

  private static let cosmeticKeys: Set<String> = [
    "color", "fontSize", "fontWeight", "fontFamily", "padding", "paddingTop", "paddingBottom",
    "paddingLeft", "paddingRight", "margin", "marginTop", "marginBottom", "marginLeft",
    "marginRight", "borderWidth", "opacity", "glowColor",
  ]
}

/// A small set of keys, looked up without hashing: the keys are bucketed by UTF-8 length and
/// a lookup compares only the few keys of the same length (small strings compare as two
/// words). Profiles of big files showed the `Set<String>` lookup (SipHash) of every member.
struct KeySet: ExpressibleByArrayLiteral, Sendable {
  /// The keys as given, without repeats.
  private var keys: [String] = []
  /// `buckets[n]`: the keys of `n` UTF-8 bytes, and `indices[n]` their places in `keys`.
  private var buckets: [[String]] = []
  private var indices: [[Int]] = []
  /// The keys, sorted, for "did you mean" (ties go to the first in that order): made when first
  /// asked, at an unknown key. Made with the set, the loader's key sets' indexes cost ~5.4 M
  /// instructions at every start, for flows that mostly have no unknown key.
  private let spellingIndex: MadeOnce<SpellingIndex>
  var spelling: SpellingIndex { spellingIndex.value() }

  init(_ keys: some Sequence<String>) {
    for key in keys {
      let length = key.utf8.count
      if buckets.count <= length {
        buckets += Array(repeating: [], count: length + 1 - buckets.count)
        indices += Array(repeating: [], count: length + 1 - indices.count)
      }
      guard !buckets[length].contains(key) else { continue }
      buckets[length].append(key)
      indices[length].append(self.keys.count)
      self.keys.append(key)
    }
    let sorted = self.keys.sorted()
    spellingIndex = MadeOnce { SpellingIndex(sorted) }
  }

  init(arrayLiteral keys: String...) {
    self.init(keys)
  }

  /// The key's place among the keys the set was made from (repeats left out), or nil.
  @inline(__always) func index(of key: String) -> Int? {
    let length = key.utf8.count
    guard length < buckets.count else { return nil }
    for (slot, candidate) in buckets[length].enumerated() where candidate.isSameKey(key) {
      return indices[length][slot]
    }
    return nil
  }

  /// Its own loop, not `index(of:) != nil`: `checkKeys` asks it of every member of a flow, and
  /// through `index(of:)` that cost 1.2 M more instructions on a 2,500-screen flow.
  @inline(__always) func contains(_ key: String) -> Bool {
    let length = key.utf8.count
    guard length < buckets.count else { return false }
    for candidate in buckets[length] where candidate.isSameKey(key) { return true }
    return false
  }

  static func + (lhs: KeySet, rhs: KeySet) -> KeySet {
    KeySet(lhs.keys + rhs.keys)
  }
}
