/// The keys each kind of object may carry: the ones flowrun reads, and the Sequence SDK's
/// cosmetic and server keys that it accepts silently. Anything else earns an unknown-key warning.
enum KnownKeys {
  static let serverColumns: Set<String> = [
    "app_id", "flow_id", "created_at", "updated_at", "$schema", "description", "metadata",
  ]

  static let flow: Set<String> =
    [
      "version", "id", "name", "screens", "startScreen", "settings", "progressIndicator",
      "transitions", "experiment", "experiments",
    ] + serverColumns

  static let bundle: Set<String> =
    ["version", "id", "name", "flows", "activeFlow", "experiments"] + serverColumns

  static let settings: Set<String> = ["allowBack", "showProgress", "dismissAllowed"]

  static let progressIndicator: Set<String> = [
    "enabled", "variant", "position", "fillColor", "trackColor", "animated", "startScreen",
    "endScreen", "skipScreens",
  ]

  static let screen: Set<String> =
    [
      "id", "name", "type", "order", "content", "rules", "next", "hideProgress", "hideBack",
      "flow", "autoAdvanceMs", "onEnter", "transition",
    ] + serverColumns

  static let content: Set<String> = [
    "title", "subtitle", "body", "icon", "image", "buttonText", "buttonAction", "skipText",
    "skipAction", "slides", "permissionType", "identifier", "blocks", "useBlocks",
    "backgroundColor", "backgroundGradient", "backgroundImage", "backgroundOverlay",
    "fillerDuration", "fillerAnimation",
  ]

  static let slide: Set<String> = ["title", "body", "icon", "image"]

  static let blockEnvelope: Set<String> = [
    "id", "type", "order", "content", "visible", "visibleWhen", "position", "styling",
    "animation", "pinToBottom",
  ]

  /// Sequence decodes block content as one flat bag, so any of these may sit on any block.
  static let blockContent: Set<String> = [
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
    "minLength", "maxLength", "checked",
  ]

  static let richTextSpan: Set<String> = [
    "text", "bold", "italic", "underline", "color", "fontFamily", "fontSize",
  ]

  static let item: Set<String> = ["id", "label", "value", "checked", "icon", "description"]

  static let action: Set<String> = [
    "type", "screenId", "identifier", "awaitResult", "onSuccess", "onFailure", "onCancel", "url",
  ]

  static let rule: Set<String> = ["when", "goto"]

  static let experiment: Set<String> = ["id", "salt", "variants", "name", "description"]

  static let variant: Set<String> = ["id", "weight", "flow", "name", "description"]

  static let assignedExperiment: Set<String> = ["id", "variantId", "variantName", "variant"]

  static let structuredCondition: Set<String> = ["field", "op", "value"]

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

extension Set {
  fileprivate static func + (lhs: Set, rhs: Set) -> Set { lhs.union(rhs) }
}
