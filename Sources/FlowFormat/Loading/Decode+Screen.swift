import FlowExpression

extension DecodeContext {
  /// `Screen.Kind(rawValue:)` by a key set: the enum's own init compared the type with each
  /// case's name in turn (~760 instructions a screen).
  static let screenKindCases = Screen.Kind.allCases
  static let screenKinds = KeySet(screenKindCases.map(\.rawValue))

  mutating func decodeScreen(_ value: JSONValue, index: Int) -> Screen? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.screen, owner: "a screen")
    guard let id = requiredString(object, "id", in: "screen \(index + 1)", at: value.location) else {
      return nil
    }
    let name = string(object, "name") ?? id
    if object.lookup("name") == nil {
      warning(.Load.missingName, "screen '\(id)' has no 'name'; using its id", at: value.location)
    }
    let type = string(object, "type") ?? "feature"
    var kind = Self.screenKinds.index(of: type).map { Self.screenKindCases[$0] } ?? .unknown
    if object.lookup("type") == nil {
      warning(.Load.missingKey, "screen '\(id)' has no 'type'; treated as 'feature'", at: value.location)
      kind = .feature
    } else if kind == .unknown {
      at("type") {
        $0.report(
          .warning, .Load.unknownScreenType,
          "unknown screen type '\(type)'; it behaves like 'feature'", at: object.lookup("type")?.location,
          notes: Self.didYouMean(type, Screen.Kind.allCases.map(\.rawValue)))
      }
    }
    var content = ScreenContent(usesBlocks: false, blocks: [], buttonText: Self.defaultButtonText)
    if let contentValue = object.lookup("content") {
      content = at("content") { $0.decodeContent(contentValue) } ?? content
    } else {
      error(.Load.missingKey, "screen '\(id)' is missing required key 'content'", at: value.location)
    }
    var subflow: String?
    if kind == .flow {
      subflow = string(object, "flow")
      if let subflow {
        flowReferences.append(
          reference(to: subflow, what: "screen '\(id)'", location: object.lookup("flow")?.location, key: "flow"))
      } else if object.lookup("flow") == nil {
        error(.Load.missingKey, "screen '\(id)' of type 'flow' is missing required key 'flow'", at: value.location)
      }
    }
    let rules = at("rules") { $0.decodeRules(object.lookup("rules")) }
    var next: Target?
    if let raw = string(object, "next") {
      next = Target(raw)
      if case .screen(let target) = next {
        screenReferences.append(
          reference(
            to: target, what: "'next' of screen '\(id)'", location: object.lookup("next")?.location, key: "next"))
      }
    }
    let autoAdvance = number(
      object, "autoAdvanceMs", within: Double(Limits.durationMs.lowerBound)...Double(Limits.durationMs.upperBound),
      unit: " ms")
    return Screen(
      id: id, name: name, kind: kind, type: type,
      order: integer(object, "order") ?? index,
      content: content, rules: rules, next: next,
      hideProgress: bool(object, "hideProgress") ?? false,
      hideBack: bool(object, "hideBack") ?? false,
      subflow: subflow, autoAdvanceMs: autoAdvance,
      onEnter: object.lookup("onEnter").flatMap { v in at("onEnter") { $0.decodeAction(v) } },
      transition: transition(object),
      location: value.location)
  }

  mutating func decodeContent(_ value: JSONValue) -> ScreenContent? {
    guard let object = object(value) else { return nil }
    checkKeys(object, known: KnownKeys.content, owner: "screen content")
    var blocks: [Block] = []
    if let blockValues = array(object, "blocks") {
      blocks = at("blocks") { $0.decodeBlocks(blockValues) }
    }
    let usesBlocks = bool(object, "useBlocks") ?? !blocks.isEmpty
    var slides: [ScreenContent.Slide] = []
    if let slideValues = array(object, "slides") {
      at("slides") { context in
        for (index, slideValue) in slideValues.enumerated() {
          context.at(.index(index)) { context in
            guard let slide = context.object(slideValue) else { return }
            context.checkKeys(slide, known: KnownKeys.slide, owner: "a slide")
            slides.append(
              ScreenContent.Slide(
                title: context.templateField(slide, "title") ?? context.template("", at: nil),
                body: context.templateField(slide, "body") ?? context.template("", at: nil),
                icon: context.string(slide, "icon")))
          }
        }
      }
    }
    return ScreenContent(
      usesBlocks: usesBlocks, blocks: blocks,
      title: templateField(object, "title"),
      subtitle: templateField(object, "subtitle") ?? templateField(object, "body"),
      icon: string(object, "icon"), image: string(object, "image"),
      buttonText: templateField(object, "buttonText") ?? Self.defaultButtonText,
      buttonAction: object.lookup("buttonAction").flatMap { v in at("buttonAction") { $0.decodeAction(v) } } ?? .next,
      skipText: templateField(object, "skipText"),
      skipAction: object.lookup("skipAction").flatMap { v in at("skipAction") { $0.decodeAction(v) } },
      slides: slides, permissionType: string(object, "permissionType"),
      identifier: string(object, "identifier"))
  }

  /// Decodes blocks and puts them in reading order: `position.y` when every block has one,
  /// else `order`; array order breaks ties.
  mutating func decodeBlocks(_ values: [JSONValue]) -> [Block] {
    // The sort keys apart from the blocks: sorting and copying whole blocks showed in profiles,
    // and blocks are usually in order already.
    var blocks: [Block] = []
    var keys: [(y: Double?, order: Int, index: Int)] = []
    blocks.reserveCapacity(values.count)
    keys.reserveCapacity(values.count)
    for (index, value) in values.enumerated() {
      at(.index(index)) { context in
        if let (block, y) = context.decodeBlock(value, index: index) {
          keys.append((y, block.order, index))
          blocks.append(block)
        }
      }
    }
    let byPosition = !keys.isEmpty && keys.allSatisfy { $0.y != nil }
    return blocks.inOrder(of: keys) { a, b in
      if byPosition, let ay = a.y, let by = b.y, ay != by { return ay < by }
      return (a.order, a.index) < (b.order, b.index)
    }
  }
}
