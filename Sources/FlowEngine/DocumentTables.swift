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
    var defaults: Defaults
    /// The flat blocks that collect a field and validate, in order (empty: `validationFailures`
    /// has no work).
    var validated: [Validated]
    /// The flat blocks that collect a field, in order (what `set` and `pick` look for).
    var collectors: [Collector]
  }

  /// A flat block that collects `field` (whose `FieldStore` fingerprint is `print`).
  struct Collector: Sendable {
    var block: Int
    var field: String
    var print: UInt64
  }

  /// A flat block that collects `field` and validates: its index and its content (an input or
  /// a choice: one reference each, their fields boxed in the model).
  struct Validated: Sendable {
    var block: Int
    var field: String
    var print: UInt64
    var content: Content

    enum Content: Sendable {
      case input(InputBlock)
      case choice(ChoiceBlock)
    }
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
          validated: Self.validated(blocks),
          collectors: Self.collectors(blocks))
      }
    }
  }

  /// A block that collects `field` and has a default: its index among the screen's flat blocks.
  struct DefaultCarrier: Sendable {
    var block: Int
    var field: String
    var print: UInt64
    var value: Value
  }

  /// A screen's blocks with a default that can show (`visible` not false), in order, and
  /// whether one of them shows only while a condition holds (then every visibility is decided
  /// before any default is stored: a condition may read a field another default fills).
  struct Defaults: Sendable {
    var carriers: [DefaultCarrier]
    var conditional: Bool
  }

  /// The blocks of `blocks` with a default that can show, in order. Read in place: a loop over
  /// the array copied each block's content to ask.
  static func defaults(of blocks: [Block]) -> Defaults {
    var conditional = false
    let carriers = blocks.withUnsafeBufferPointer { blocks in
      blocks.indices.compactMap { index -> DefaultCarrier? in
        guard blocks[index].visible, let value = blocks[index].content.fieldDefault,
          let field = blocks[index].fieldName
        else { return nil }
        if blocks[index].visibleWhen != nil { conditional = true }
        return DefaultCarrier(block: index, field: field, print: FieldStore.fingerprint(field), value: value)
      }
    }
    return Defaults(carriers: carriers, conditional: conditional)
  }

  /// The blocks of `blocks` that collect a field and validate, in order.
  static func validated(_ blocks: [Block]) -> [Validated] {
    // `BlockContent.validates`: inputs and choices.
    blocks.indices.compactMap { index in
      guard let field = blocks[index].fieldName else { return nil }
      let print = FieldStore.fingerprint(field)
      switch blocks[index].content {
      case .input(let input): return Validated(block: index, field: field, print: print, content: .input(input))
      case .choice(let choice): return Validated(block: index, field: field, print: print, content: .choice(choice))
      default: return nil
      }
    }
  }

  /// The blocks of `blocks` that collect a field, in order.
  static func collectors(_ blocks: [Block]) -> [Collector] {
    blocks.indices.compactMap { index in
      blocks[index].fieldName.map { Collector(block: index, field: $0, print: FieldStore.fingerprint($0)) }
    }
  }

  /// A screen's table, read in place: an `Array` subscript copied the whole table (each of its
  /// arrays retained and released) to read one of them.
  func withScreen<Result>(flow: Int, screen: Int, _ body: (UnsafePointer<Screen>) -> Result) -> Result {
    screens.withUnsafeBufferPointer { flows in
      flows[flow].withUnsafeBufferPointer { body($0.baseAddress! + screen) }
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
