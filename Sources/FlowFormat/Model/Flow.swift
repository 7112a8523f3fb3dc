import FlowExpression
import OrderedCollections

/// One flow: ordered screens plus flow-level settings.
public struct Flow: Hashable, Sendable {
  public var id: String
  public var name: String
  public var version: Int
  /// False when an AppDNA flow has no `version`: its `onboarding_flow_started` says null (iOS
  /// 1.0.70: the string "nil"), not `version`'s stand-in 1.
  public var versionGiven = true
  /// Screens sorted by `order` (stable: array order breaks ties). The loader never changes
  /// them once the flow is made; a change (tests, API users) makes the index again.
  public var screens: [Screen] {
    didSet { indexByID = ScreenIndex(screens) }
  }
  /// The first screen: `startScreen` when given, else the lowest `order`.
  public var startScreenID: String
  public var settings: FlowSettings
  public var progressIndicator: ProgressIndicator?
  /// Sequence's server-assigned experiment, attached to every event.
  public var assignedExperiment: AssignedExperiment?
  /// Local experiments (extension).
  public var experiments: [Experiment]
  /// Transitions of particular moves (`fromScreenId` → `toScreenId`).
  public var transitions: [TransitionRule]
  /// Values the session holds from its start (Nuxie's view-model defaults and instances).
  public var initialData: OrderedDictionary<String, Value> = [:]
  /// Runs as the session starts, before the first screen is shown (Nuxie's `start`
  /// interactions, an era E leg's entry step); a screen it navigates to is the first one.
  public var startAction: Action?
  /// The steps `Action.step` runs, by id (Nuxie era E legs).
  public var steps: [String: Action] = [:]
  public var location: SourceLocation
  @usableFromInline private(set) var indexByID: ScreenIndex

  public init(
    id: String,
    name: String,
    version: Int,
    screens: [Screen],
    startScreenID: String? = nil,
    settings: FlowSettings = FlowSettings(),
    progressIndicator: ProgressIndicator? = nil,
    assignedExperiment: AssignedExperiment? = nil,
    experiments: [Experiment] = [],
    transitions: [TransitionRule] = [],
    location: SourceLocation
  ) {
    self.id = id
    self.name = name
    self.version = version
    self.screens = screens
    self.startScreenID = startScreenID ?? screens.first?.id ?? ""
    self.settings = settings
    self.progressIndicator = progressIndicator
    self.assignedExperiment = assignedExperiment
    self.experiments = experiments
    self.transitions = transitions
    self.location = location
    self.indexByID = ScreenIndex(screens)
  }

  /// The position of a screen in order, or nil for an unknown id. Inlinable: a call from
  /// another module would copy the whole flow to ask (the engine asks on every move).
  @inlinable @inline(__always) public func index(of screenID: String) -> Int? { indexByID.position(of: screenID) }

  public func screen(_ id: String) -> Screen? {
    index(of: id).map { screens[$0] }
  }

  /// The transition of a move between two screens of this flow: a `transitions` entry for the
  /// move, else the destination's own `transition`; nil when the flow names none (the trace
  /// then says nothing about it).
  public func transition(from: String, to: String) -> (ScreenTransition, source: String)? {
    if let rule = transitions.first(where: { $0.fromScreenID == from && $0.toScreenID == to }) {
      return (rule.transition, "transitions entry \(from) → \(to)")
    }
    return screen(to)?.transition.map { ($0, "transition of \(to)") }
  }
}

/// Flow-level switches (extension).
public struct FlowSettings: Hashable, Sendable {
  public var allowBack: Bool
  public var showProgress: Bool
  public var dismissAllowed: Bool

  public init(allowBack: Bool = true, showProgress: Bool = true, dismissAllowed: Bool = true) {
    self.allowBack = allowBack
    self.showProgress = showProgress
    self.dismissAllowed = dismissAllowed
  }
}

/// Sequence's flow progress indicator.
public struct ProgressIndicator: Hashable, Sendable {
  public enum Variant: String, Hashable, Sendable, CaseIterable {
    case bar, dots, steps, minimal
  }

  public var enabled: Bool
  public var variant: Variant
  public var position: String
  /// 0-based screen indices bounding the counted range.
  public var startScreen: Int?
  public var endScreen: Int?
  public var skipScreens: [Int]

  public init(
    enabled: Bool,
    variant: Variant = .bar,
    position: String = "top",
    startScreen: Int? = nil,
    endScreen: Int? = nil,
    skipScreens: [Int] = []
  ) {
    self.enabled = enabled
    self.variant = variant
    self.position = position
    self.startScreen = startScreen
    self.endScreen = endScreen
    self.skipScreens = skipScreens
  }
}

/// A variant a server already assigned (Sequence's `experiment`, either shape).
public struct AssignedExperiment: Hashable, Sendable {
  public var id: String
  public var variantID: String
  public var variantName: String

  public init(id: String, variantID: String, variantName: String) {
    self.id = id
    self.variantID = variantID
    self.variantName = variantName
  }
}

/// A local experiment bucketed by user id (extension).
public struct Experiment: Hashable, Sendable {
  /// One arm of an experiment.
  public struct Variant: Hashable, Sendable {
    public var id: String
    public var weight: Double
    /// A flow of the bundle that replaces the entry flow for this variant.
    public var flow: String?

    public init(id: String, weight: Double, flow: String? = nil) {
      self.id = id
      self.weight = weight
      self.flow = flow
    }
  }

  public var id: String
  public var salt: String?
  public var variants: [Variant]
  /// `default`: the variant a user keeps while the experiment's flag is unavailable (document
  /// 003's `"variant-base"`); nil means the first variant.
  public var defaultVariant: String?
  public var location: SourceLocation
  /// Only a session presenting this flow takes part (extension: AppDNA's control `config_ref`);
  /// nil: every session.
  public var appliesToFlow: String?

  public init(id: String, salt: String?, variants: [Variant], defaultVariant: String? = nil, location: SourceLocation) {
    self.id = id
    self.salt = salt
    self.variants = variants
    self.defaultVariant = defaultVariant
    self.location = location
  }

  /// The variant of a user whose flag is unavailable: `default`, else the first.
  public var fallbackVariant: String? { defaultVariant ?? variants.first?.id }
}

/// Who sees a flow (extension): a condition on `$user`, and its priority among the others.
public struct FlowAudience: Hashable, Sendable {
  public var flowID: String
  public var condition: Condition
  public var priority: Int

  public init(flowID: String, condition: Condition, priority: Int) {
    self.flowID = flowID
    self.condition = condition
    self.priority = priority
  }
}

/// Everything one file holds: one flow, or a bundle of flows with an entry flow.
public struct FlowDocument: Hashable, Sendable {
  public enum Shape: String, Hashable, Sendable {
    case flow, bundle
  }

  public var shape: Shape
  /// The system the file was written for: it decides the events' names (`EventVocabulary`).
  public var dialect: Dialect = .sequence
  /// Nuxie era E: the experience a leg belongs to (`identity.experienceId`, else the flow id).
  /// Its sessions send the era D/E names (`$experience_shown`, `$journey_exited`, …).
  public var experienceID: String?
  /// Flows shown only to the users their audience chooses (AppDNA's targeting), highest
  /// priority first: without `--flow`, the first whose audience holds is the session's flow.
  public var audiences: [FlowAudience] = []
  /// Flows in file order.
  public var flows: [Flow] {
    didSet {
      secretFields = Self.secretFields(of: flows)
      indexByID = Self.index(flows)
      (screenOffsets, screenCount) = Self.offsets(flows)
    }
  }
  /// The entry flow: `activeFlow`, else the first.
  public var entryFlowID: String
  /// Bundle-level experiments, followed by the entry flow's own.
  public var experiments: [Experiment]
  /// The fields collected by a secret block in any flow (collected data is one map across the
  /// flows of a session, so a field secret in one flow is secret everywhere).
  public private(set) var secretFields: Set<String>

  public init(shape: Shape, flows: [Flow], entryFlowID: String, experiments: [Experiment]) {
    self.init(
      shape: shape, flows: flows, entryFlowID: entryFlowID, experiments: experiments,
      secretFields: Self.secretFields(of: flows))
  }

  /// The same, with the secret fields already found (the loader finds them while it decodes
  /// the screens: walking every block again after a big flow's two halves join cost 4 ms).
  init(shape: Shape, flows: [Flow], entryFlowID: String, experiments: [Experiment], secretFields: Set<String>) {
    self.shape = shape
    self.flows = flows
    self.entryFlowID = entryFlowID
    self.experiments = experiments
    self.secretFields = secretFields
    indexByID = Self.index(flows)
    (screenOffsets, screenCount) = Self.offsets(flows)
  }

  /// Where each flow's screens start in one numbering of all the document's screens, and how
  /// many there are: kept with the flows, so that starting a session (once per screen in
  /// `flowrun render`) does not walk a bundle's 10,000 flows.
  public private(set) var screenOffsets: [Int]
  public private(set) var screenCount: Int

  private static func offsets(_ flows: [Flow]) -> ([Int], Int) {
    var offsets: [Int] = []
    offsets.reserveCapacity(flows.count)
    var count = 0
    for index in flows.indices {
      offsets.append(count)
      count += flows[index].screens.count
    }
    return (offsets, count)
  }

  static func secretFields(of flows: [Flow]) -> Set<String> {
    var fields: Set<String> = []
    for flow in flows {
      for screen in flow.screens where screen.content.usesBlocks {
        for block in screen.content.flatBlocks where block.isSecret {
          if let field = block.fieldName { fields.insert(field) }
        }
      }
    }
    return fields
  }

  /// The first flow of each id: a bundle may run 100,000 sub-flows, each looked up by id.
  private var indexByID: [String: Int]

  private static func index(_ flows: [Flow]) -> [String: Int] {
    var index: [String: Int] = [:]
    for (i, flow) in flows.enumerated() where index[flow.id] == nil { index[flow.id] = i }
    return index
  }

  public func flow(_ id: String) -> Flow? {
    indexByID[id].map { flows[$0] }
  }

  /// The position in `flows` of the first flow with this id.
  public func flowIndex(_ id: String) -> Int? { indexByID[id] }

  public var entryFlow: Flow? { flow(entryFlowID) }
}
