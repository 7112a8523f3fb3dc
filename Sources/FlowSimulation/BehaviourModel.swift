import FlowExpression

/// How simulated users behave (docs/simulate.md). Everything is optional: what the model leaves
/// out takes the documented default (`BehaviourModel()` is the model of a run without
/// `--model`).
public struct BehaviourModel: Sendable {
  /// Default drop-off: the chance a user leaves (the app is closed) on each screen shown.
  public static let defaultDropOff = 0.03
  /// Default chance an optional field is left empty.
  public static let defaultOptionalSkip = 0.2
  /// Default time on a screen before the user acts.
  public static let defaultDwell = Dwell.uniform(min: 1_000, max: 6_000)
  /// The virtual clock's start of every simulated session: 2026-01-01T00:00:00Z.
  public static let defaultStart: Int64 = 1_767_225_600_000

  /// Milliseconds on a screen (virtual clock).
  public enum Dwell: Sendable {
    case fixed(Int64)
    case uniform(min: Int64, max: Int64)
    /// Normal, cut below at `min` (never negative).
    case normal(mean: Double, sd: Double, min: Int64)
    /// Log-normal: `exp(N(mu, sigma))` milliseconds.
    case logNormal(mu: Double, sigma: Double)
  }

  /// A number distribution (numeric inputs, sliders, numeric traits).
  public enum Numbers: Sendable {
    case uniform(min: Double, max: Double)
    case normal(mean: Double, sd: Double)
  }

  /// Answers to one field (by field name).
  public struct FieldModel: Sendable {
    /// Chance the field is left empty (not answered).
    public var skip: Double?
    /// Weights over answers: an option's value or id, `true`/`false`, a literal text.
    public var weights: [(answer: String, weight: Double)] = []
    public var numbers: Numbers?
    /// Round numbers to whole numbers (default true for `uniform`/`normal` of inputs).
    public var integer: Bool = true
    /// Texts drawn uniformly.
    public var pool: [String] = []
    public init() {}
  }

  /// Behaviour on one screen (by screen id).
  public struct ScreenModel: Sendable {
    public var dropOff: Double?
    /// Chance the user dismisses the flow here (when the flow allows it; else it is a drop-off).
    public var dismiss: Double?
    public var dwell: Dwell?
    /// Weights over the screen's controls, by label or block id (`skip` for the skip control);
    /// controls not named keep weight 1, except the skip control (weight 0).
    public var controls: [String: Double] = [:]
    public init() {}
  }

  /// Outcomes of an awaited custom action or a native screen (by identifier).
  public struct Outcomes: Sendable {
    public var success: Double = 1
    public var failure: Double = 0
    public var cancelled: Double = 0
    /// The success payload (an object merged into the session's data), if any.
    public var data: Value?
    /// Per variant id: outcomes that replace these for users in that variant.
    public var variants: [String: Outcomes] = [:]
    public init(success: Double = 1, failure: Double = 0, cancelled: Double = 0) {
      self.success = success
      self.failure = failure
      self.cancelled = cancelled
    }
  }

  /// A user trait (`$user.<name>`).
  public enum Trait: Sendable {
    case weights([String], [Double])
    case numbers(Numbers, integer: Bool)
  }

  /// How users fall into experiment variants.
  public enum Assignment: Sendable {
    /// The engine's bucketing over the generated user ids (`sim-SEED-INDEX`).
    case bucketed
    /// Experiment id → weights over its variants, drawn per user (forced splits).
    case forced([String: [(variant: String, weight: Double)]])
  }

  public var dropOff = defaultDropOff
  public var dismiss = 0.0
  public var optionalSkip = defaultOptionalSkip
  public var dwell = defaultDwell
  public var start = defaultStart
  public var platform = "ios"
  public var locale = "en_US"
  public var screens: [String: ScreenModel] = [:]
  public var fields: [String: FieldModel] = [:]
  public var actions: [String: Outcomes] = [:]
  public var traits: [(name: String, trait: Trait)] = []
  public var assignment = Assignment.bucketed

  public init() {}
}
