import ArgumentParser
import FlowEngine
import FlowFormat

/// `--platform`: the two platforms document 000 says every screen renders on.
enum Platform: String, ExpressibleByArgument, CaseIterable {
  case ios, android
}

/// The session options `run` and `test` share: which flow, who, when, and canned results.
/// Malformed values are usage errors (exit 64).
struct SessionOptions: ParsableArguments {
  @Option(
    name: .customLong("flow"), help: ArgumentHelp("Run this flow of a bundle.", valueName: "id"),
    completion: FlowCompletions.flowIDs)
  var flowID: String?

  @Option(
    help: ArgumentHelp("Start on this screen instead of the flow's start screen.", valueName: "screen"),
    completion: FlowCompletions.screenIDs)
  var start: String?

  @Option(help: ArgumentHelp("The user id (events, $user.id, experiment bucketing).", valueName: "id"))
  var user: String = "anonymous"

  @Option(
    name: .customLong("trait"),
    help: ArgumentHelp("A $user trait; true/false/null/numbers stay typed (repeatable).", valueName: "key=value"))
  var traits: [Checked<Trait>] = []

  @Option(
    name: .customLong("variant"),
    help: ArgumentHelp("Force an experiment's variant (repeatable).", valueName: "exp=variant"),
    completion: FlowCompletions.variants)
  var variants: [Checked<VariantChoice>] = []

  @Option(
    name: .customLong("mock"),
    help: ArgumentHelp(
      "Answer an awaited action or native screen at once: success[:JSON], failure[:TEXT] or cancelled; hook[.STEP]=proceed|block TEXT|stay|skipTo STEP|JSON answers onBeforeStepAdvance; webhook[.STEP]=STATUS [BODY]|timeout|network [TEXT] answers a server webhook without calling it; chat[.STEP[.TURN]]=the same answers a chat step's webhook, every call or the one of turn TURN (repeatable).",
      valueName: "identifier=result"))
  var mocks: [Checked<Mock>] = []

  @Flag(
    help: "A host delegate answers onBeforeStepAdvance on every submitted step (run asks for the answer).")
  var delegate = false

  @Flag(help: "AppDNA: behave as the iOS SDK's code does where it differs from its documentation.")
  var iosQuirks = false

  @Option(
    help: ArgumentHelp(
      "An AppDNA OnboardingContext JSON file: userProperties as traits, experimentOverrides as variants.",
      valueName: "file"))
  var context: String?

  @Option(help: ArgumentHelp("The user's locale: $locale and translated texts (default en_US).", valueName: "locale"))
  var locale: String = "en_US"

  @Option(help: ArgumentHelp("The virtual clock's start, ISO-8601 UTC (default: now).", valueName: "time"))
  var now: Checked<Instant>?

  @Option(name: .customLong("session-id"), help: ArgumentHelp("The events' session id.", valueName: "id"))
  var sessionID: String?

  @Option(
    help: ArgumentHelp("ios or android: $platform, and onboarding_started's platform (default: ios).", valueName: "os"))
  var platform: Platform?

  @Option(
    name: .customLong("flag-unavailable"),
    help: ArgumentHelp(
      "The experiment's feature flag did not arrive: its users keep its default variant (repeatable).",
      valueName: "experiment"))
  var unavailableFlags: [String] = []

  mutating func validate() throws {
    _ = try makeConfig(defaultNow: 0)
  }

  /// The engine configuration; `defaultNow` (epoch ms) is used when `--now` is absent.
  func makeConfig(defaultNow: Int64) throws -> SessionConfig {
    var config = SessionConfig(userID: user, now: defaultNow, sessionID: sessionID, startScreen: start, flowID: flowID)
    guard !user.isEmpty else { throw ValidationError("--user needs a non-empty id") }
    guard !locale.isEmpty, locale.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" }) else {
      throw ValidationError("--locale must be a locale such as fr_FR or fr, not '\(locale)'")
    }
    config.locale = locale
    if let context {
      let loaded = try ContextFile.load(context)
      // iOS 1.0.70 takes the OnboardingContext and ignores it (research §8): read, not applied.
      for (key, value) in loaded.userProperties where !iosQuirks { config.traits[key] = value }
      for (experiment, variant) in loaded.experimentOverrides where !iosQuirks {
        config.variantOverrides[experiment] = variant
      }
    }
    for trait in traits {
      let trait = try trait.get()
      config.traits[trait.key] = trait.value
    }
    for variant in variants {
      let variant = try variant.get()
      config.variantOverrides[variant.experiment] = variant.variant
    }
    for mock in mocks {
      let mock = try mock.get()
      switch mock.answer {
      case .action(let result): config.mocks[mock.identifier] = result
      case .hook(let step, let answer):
        config.hookMocks[step] = answer
        config.asksHooks = true
      case .render(let step, let answer):
        config.renderMocks[step] = answer
        config.asksRenderHooks = true
      case .webhook(let step, let response): config.webhookMocks[step] = response
      case .chat(let step, let response): config.chatMocks[step] = response
      }
    }
    if let now {
      config.now = try now.get().milliseconds
    }
    if let platform {
      config.platform = platform.rawValue
      config.reportsPlatform = true
    }
    config.unavailableFlags = Set(unavailableFlags)
    if delegate { config.asksHooks = true }
    config.iosQuirks = iosQuirks
    return config
  }
}
