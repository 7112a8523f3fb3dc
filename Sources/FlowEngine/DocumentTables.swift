import FlowExpression
import FlowFormat

/// What every session of one document would otherwise work out again on each step, worked out
/// once: each screen's rule and `next` targets resolved to screen indices (a lookup hashes the
/// id), a screen's blocks with a default, whether one of them validates. A caller that
/// starts many sessions of one document (the simulator, a session per user) builds it once and
/// passes it to `Session.start(document:config:tables:)`; a session without it looks everything
/// up as it goes. The tables hold the same answers the lookups give: nothing else changes.
public final class DocumentTables: Sendable {
  /// By flow, then screen.
  let screens: [[Screen]]
  /// The document's entry flow and its index (what a start looks up first).
  let entryFlowID: String
  let entryFlowIndex: Int?

  struct Screen: Sendable {
    /// Each rule's target as a screen index of its flow (`unresolved` when the rule goes
    /// elsewhere: completion, an id the flow does not hold).
    var ruleTargets: [Int32]
    /// `next`'s target, then the following screen's, the same way.
    var next: Int32
    var following: Int32
    /// The flat blocks with a default (what `commitDefaults` stores when they are untouched).
    var defaults: [DefaultCarrier]
    /// The flat blocks that collect a field and validate, in order (empty: `validationFailures`
    /// has no work), their content held boxed:
    /// binding an `InputBlock` or a `ChoiceBlock` out of a block's content copied every field.
    var validated: [Validated]
  }

  /// A flat block that collects `field` and validates: its index and its content.
  struct Validated: Sendable {
    var block: Int
    var field: String
    var content: Content

    enum Content: Sendable {
      case input(Box<InputBlock>)
      case choice(Box<ChoiceBlock>)
    }
  }

  /// A model value held by reference: reading it retains one object.
  final class Box<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  static let unresolved: Int32 = -1

  public init(_ document: FlowDocument) {
    entryFlowID = document.entryFlowID
    entryFlowIndex = document.flowIndex(document.entryFlowID)
    screens = document.flows.map { flow in
      func resolve(_ target: Target?) -> Int32 {
        guard case .screen(let id)? = target, let index = flow.index(of: id) else { return Self.unresolved }
        return Int32(index)
      }
      return flow.screens.indices.map { at in
        let screen = flow.screens[at]
        let blocks = screen.content.usesBlocks ? screen.content.flatBlocks : []
        return Screen(
          ruleTargets: screen.rules.map { resolve($0.goto) },
          next: resolve(screen.next),
          following: at + 1 < flow.screens.count ? resolve(.screen(flow.screens[at + 1].id)) : Self.unresolved,
          defaults: Self.defaults(of: blocks),
          validated: Self.validated(blocks))
      }
    }
  }

  /// A block that collects `field` and has a default: its index among the screen's flat blocks.
  struct DefaultCarrier: Sendable {
    var block: Int
    var field: String
    var value: Value
  }

  /// The blocks of `blocks` with a default, in order. Read in place: a loop over the array
  /// copied each block's content to ask.
  static func defaults(of blocks: [Block]) -> [DefaultCarrier] {
    blocks.withUnsafeBufferPointer { blocks in
      blocks.indices.compactMap { index in
        guard let value = blocks[index].content.fieldDefault, let field = blocks[index].fieldName else { return nil }
        return DefaultCarrier(block: index, field: field, value: value)
      }
    }
  }

  /// The blocks of `blocks` that collect a field and validate, in order.
  static func validated(_ blocks: [Block]) -> [Validated] {
    // `BlockContent.validates`: inputs and choices.
    blocks.indices.compactMap { index in
      guard let field = blocks[index].fieldName else { return nil }
      switch blocks[index].content {
      case .input(let input): return Validated(block: index, field: field, content: .input(Box(input)))
      case .choice(let choice): return Validated(block: index, field: field, content: .choice(Box(choice)))
      default: return nil
      }
    }
  }

  /// `document.flowIndex(id)`, without hashing the id when it is the entry flow's.
  func flowIndex(_ id: String, in document: FlowDocument) -> Int? {
    id == entryFlowID ? entryFlowIndex : document.flowIndex(id)
  }

  /// A screen's rule target, resolved (nil: none, look the id up). Read in place: copying the
  /// screen's table retained its arrays.
  func index(ofRule rule: Int, flow: Int, screen: Int) -> Int? {
    let resolved = screens[flow][screen].ruleTargets[rule]
    return resolved == Self.unresolved ? nil : Int(resolved)
  }

  /// A screen's `next` (or, `next` false, the following screen), resolved (nil: none, look
  /// the id up).
  func index(next: Bool, flow: Int, screen: Int) -> Int? {
    let resolved = next ? screens[flow][screen].next : screens[flow][screen].following
    return resolved == Self.unresolved ? nil : Int(resolved)
  }
}
