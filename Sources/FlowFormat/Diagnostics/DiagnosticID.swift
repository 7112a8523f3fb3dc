/// A diagnostic's stable id with the severity it is reported with and what it means: one entry
/// of the catalogue, written where it is reported as `DiagnosticID.Load.typeMismatch` (or
/// `.Load.typeMismatch`). Each module keeps its own namespace: FlowFormat `JSON`, `Load` and
/// `Ref` (below), FlowReplay `Script`; FlowAnalysis's `check.*` ids are its lint rules
/// (`LintRule`). docs/loading.md's id table is generated from the catalogue, docs/checks.md
/// from the rules, and tests fail when either drifts.
public struct DiagnosticID: Hashable, Sendable, CustomStringConvertible {
  /// The dotted id: `load.type-mismatch`.
  public let id: String
  /// The severity it is reported with; the summary names the cases that differ.
  public let severity: Severity
  /// One line, lowercase, no trailing period.
  public let summary: String

  public init(_ id: String, _ severity: Severity, _ summary: String) {
    self.id = id
    self.severity = severity
    self.summary = summary
  }

  public var description: String { id }
}

extension Diagnostic {
  /// A diagnostic of a catalogued id, with the id's severity unless `severity` says otherwise.
  public init(
    _ id: DiagnosticID,
    severity: Severity? = nil,
    message: String,
    file: String? = nil,
    location: SourceLocation? = nil,
    path: String? = nil,
    notes: [Note] = []
  ) {
    self.init(
      id: id.id, severity: severity ?? id.severity, message: message, file: file, location: location, path: path,
      notes: notes)
  }
}

extension DiagnosticID {
  /// `json.*`: the text is not valid JSON (`JSONParser`).
  public enum JSON {
    /// Every id of this namespace starts with it.
    public static let prefix = "json."

    public static let empty = DiagnosticID("json.empty", .error, "the file is empty or only white space")
    public static let notJSON = DiagnosticID(
      "json.not-json", .error, "the text is not JSON at all (an HTML error page, YAML, plain text)")
    public static let utf16 = DiagnosticID("json.encoding.utf16", .error, "the text is UTF-16, not UTF-8")
    public static let invalidUTF8 = DiagnosticID("json.encoding.invalid-utf8", .error, "a byte that is not UTF-8")
    public static let unexpectedCharacter = DiagnosticID(
      "json.syntax.unexpected-character", .error, "a character that cannot start or continue a value")
    public static let expectedValue = DiagnosticID("json.syntax.expected-value", .error, "a value is missing")
    public static let expectedKey = DiagnosticID(
      "json.syntax.expected-key", .error, "an object member does not start with a string key")
    public static let expectedColon = DiagnosticID(
      "json.syntax.expected-colon", .error, "an object key is not followed by ':'")
    public static let expectedComma = DiagnosticID(
      "json.syntax.expected-comma", .error, "two members or elements without a ',' between them")
    public static let trailingComma = DiagnosticID(
      "json.syntax.trailing-comma", .error, "a ',' before the closing bracket or brace")
    public static let singleQuotes = DiagnosticID(
      "json.syntax.single-quotes", .error, "a string in single quotes")
    public static let comment = DiagnosticID("json.syntax.comment", .error, "a comment (JSON has none)")
    public static let unexpectedEOF = DiagnosticID(
      "json.syntax.unexpected-eof", .error, "the text ends inside a value")
    public static let unterminatedString = DiagnosticID(
      "json.syntax.unterminated-string", .error, "a string without its closing quote")
    public static let controlCharacter = DiagnosticID(
      "json.syntax.control-character", .error, "a raw control character (a tab, a line break) inside a string")
    public static let invalidEscape = DiagnosticID(
      "json.syntax.invalid-escape", .error, "a backslash escape JSON does not have")
    public static let invalidUnicodeEscape = DiagnosticID(
      "json.syntax.invalid-unicode-escape", .error, "a `\\u` escape without four hex digits")
    public static let unpairedSurrogate = DiagnosticID(
      "json.syntax.unpaired-surrogate", .error, "a `\\u` escape of half a surrogate pair")
    public static let invalidNumber = DiagnosticID(
      "json.syntax.invalid-number", .error, "a number JSON does not allow (`1.`, `.5`, `+1`, `1e`)")
    public static let leadingZero = DiagnosticID(
      "json.syntax.leading-zero", .error, "a number with a leading zero (`007`)")
    public static let nonFiniteNumber = DiagnosticID(
      "json.syntax.non-finite-number", .error, "`NaN` or `Infinity`, which JSON lacks")
    public static let invalidLiteral = DiagnosticID(
      "json.syntax.invalid-literal", .error, "a misspelt `true`, `false` or `null`")
    public static let tooDeep = DiagnosticID(
      "json.syntax.too-deep", .error, "arrays and objects nested deeper than 512 levels")
    public static let extraContent = DiagnosticID(
      "json.syntax.extra-content", .error, "text after the root value")
    public static let numberOutOfRange = DiagnosticID(
      "json.number-out-of-range", .error, "a number too large for a double")
    public static let duplicateKey = DiagnosticID(
      "json.duplicate-key", .warning, "a key twice in one object (the last one wins, as `JSON.parse` does)")

    public static let all = [
      empty, notJSON, utf16, invalidUTF8, unexpectedCharacter, expectedValue, expectedKey, expectedColon,
      expectedComma, trailingComma, singleQuotes, comment, unexpectedEOF, unterminatedString, controlCharacter,
      invalidEscape, invalidUnicodeEscape, unpairedSurrogate, invalidNumber, leadingZero, nonFiniteNumber,
      invalidLiteral, tooDeep, extraContent, numberOutOfRange, duplicateKey,
    ]
  }

  /// `load.*`: the JSON is not a valid flow (`FlowLoader`).
  public enum Load {
    public static let io = DiagnosticID(
      "load.io", .error,
      "the file cannot be read: missing, unreadable, a directory or a device, or over the size limit (Limits)")
    public static let notAFlow = DiagnosticID(
      "load.not-a-flow", .error, "the JSON is neither a flow (`screens`) nor a bundle (`flows`)")
    public static let unsupportedDialect = DiagnosticID(
      "load.unsupported-dialect", .error,
      "a document of a system or shape flowrun cannot run yet (Nuxie campaigns, releases and flows, AppDNA screens module)"
    )
    public static let typeMismatch = DiagnosticID("load.type-mismatch", .error, "a value of the wrong JSON type")
    public static let missingKey = DiagnosticID(
      "load.missing-key", .error,
      "a required key is missing; a warning where a default is assumed (a screen's `type`, "
        + "`progressIndicator.enabled`, a choice block's `items`)")
    public static let unknownKey = DiagnosticID(
      "load.unknown-key", .warning, "a key flowrun does not read (cosmetic keys pass silently), with a \"did you mean\""
    )
    public static let unknownBlockType = DiagnosticID(
      "load.unknown-block-type", .warning, "an unknown block type, shown as unsupported")
    public static let unknownScreenType = DiagnosticID(
      "load.unknown-screen-type", .warning, "an unknown screen type, which behaves like `feature`")
    public static let unknownActionType = DiagnosticID(
      "load.unknown-action-type", .warning, "an unknown action type, which runs as `next`")
    public static let unknownValue = DiagnosticID(
      "load.unknown-value", .warning,
      "an unknown `inputType`, progress `variant` or screen `transition`, replaced by the default")
    public static let unknownBuiltInAction = DiagnosticID(
      "load.unknown-built-in-action", .warning,
      "a custom action identifier one or two letters away from a built-in one (`auth.emial`)")
    public static let fieldFromBlockID = DiagnosticID(
      "load.field-from-block-id", .note,
      "a collecting block without `fieldName`: its id is the key of its value (document 000)")
    public static let fieldNameCase = DiagnosticID(
      "load.field-name-case", .warning,
      "a field name that is not snake_case (document 000), with the snake_case name to use")
    public static let badExpression = DiagnosticID(
      "load.bad-expression", .error, "a condition that does not parse, at the column of the problem")
    public static let badCondition = DiagnosticID(
      "load.bad-condition", .error, "a structured condition (`field`, `op`, `value`) that is not valid")
    public static let templateSyntax = DiagnosticID(
      "load.template-syntax", .warning, "template text in braces that is not an expression and stays literal")
    public static let invalidRegex = DiagnosticID(
      "load.invalid-regex", .error, "an input `pattern` or a `matches` operand that does not compile")
    public static let duplicateScreenID = DiagnosticID(
      "load.duplicate-screen-id", .error, "two screens of a flow share an id")
    public static let duplicateFlowID = DiagnosticID(
      "load.duplicate-flow-id", .error, "two flows of a bundle share an id")
    public static let duplicateVariant = DiagnosticID(
      "load.duplicate-variant", .error, "two variants of an experiment share an id")
    public static let emptyFlow = DiagnosticID("load.empty-flow", .error, "a flow without screens")
    public static let emptyBundle = DiagnosticID("load.empty-bundle", .error, "a bundle without flows")
    public static let emptyExperiment = DiagnosticID("load.empty-experiment", .error, "an experiment without variants")
    public static let badWeight = DiagnosticID(
      "load.bad-weight", .error, "a variant weight out of range, or no variant with a positive weight")
    public static let experimentShape = DiagnosticID(
      "load.experiment-shape", .error, "a screen's `experiment` in neither of Sequence's shapes")
    public static let unknownFlow = DiagnosticID(
      "load.unknown-flow", .error, "`activeFlow`, a sub-flow screen or a variant names a flow the bundle lacks")
    public static let subflowCycle = DiagnosticID("load.subflow-cycle", .error, "sub-flows that run each other")
    public static let outOfRange = DiagnosticID(
      "load.out-of-range", .error, "a number outside the range flowrun reads (Limits)")
    public static let missingVersion = DiagnosticID(
      "load.missing-version", .warning, "a flow without `version` (Sequence requires it); 1 is assumed")
    public static let missingName = DiagnosticID(
      "load.missing-name", .warning, "a screen without `name`; its id is used")
    public static let flowIDMismatch = DiagnosticID(
      "load.flow-id-mismatch", .warning, "a bundle's flow whose `id` differs from its key; the key is used")

    public static let all = [
      io, notAFlow, unsupportedDialect, typeMismatch, missingKey, unknownKey, unknownBlockType, unknownScreenType,
      unknownActionType, unknownValue, unknownBuiltInAction, fieldFromBlockID, fieldNameCase, badExpression,
      badCondition, templateSyntax, invalidRegex, duplicateScreenID,
      duplicateFlowID, duplicateVariant, emptyFlow, emptyBundle, emptyExperiment, badWeight, experimentShape,
      unknownFlow, subflowCycle, outOfRange, missingVersion, missingName, flowIDMismatch,
    ]
  }

  /// `ref.*`: a reference problem the engine survives: `check` fails on it, `run` does not
  /// stop (such a navigation is a no-op, and the trace says why).
  public enum Ref {
    /// Every id of this namespace starts with it.
    public static let prefix = "ref."

    public static let unknownScreen = DiagnosticID(
      "ref.unknown-screen", .error, "an action, a rule, `next` or `startScreen` names a screen the flow lacks")
    public static let duplicateField = DiagnosticID(
      "ref.duplicate-field", .error,
      "a field collected by two blocks of a flow (document 000: names are unique across the flow)")

    public static let unknownVariant = DiagnosticID(
      "ref.unknown-variant", .error, "an experiment's `default` names a variant it does not have")

    public static let all = [unknownScreen, duplicateField, unknownVariant]
  }

  /// `appdna.*`: what the AppDNA compiler tolerates as the SDK does, or cannot run yet
  /// (docs/dialects/appdna.md).
  public enum AppDNA {
    /// Every id of this namespace starts with it.
    public static let prefix = "appdna."

    public static let generatedID = DiagnosticID(
      "appdna.generated-id", .warning, "a flow, step, block or field without an id gets a deterministic one")
    public static let sanitizedBool = DiagnosticID(
      "appdna.sanitized-bool", .warning, "a \"true\"/\"false\" string where a boolean belongs, read as the boolean")
    public static let unknownType = DiagnosticID(
      "appdna.unknown-type", .warning,
      "an unknown step, block, field, condition or operator type, degraded as the SDK does")
    public static let draftFlow = DiagnosticID(
      "appdna.draft-flow", .warning, "a flow with status 'draft': never chosen from a bundle")
    public static let unknownTarget = DiagnosticID(
      "appdna.unknown-target", .warning, "a rule's `target_step_id` names no step or graph node; the rule is skipped")
    public static let missingTarget = DiagnosticID(
      "appdna.missing-target", .error, "a rule without `target_step_id` (the SDK drops the whole flow)")
    public static let invalidWebhook = DiagnosticID(
      "appdna.invalid-webhook", .warning,
      "an enabled step hook without an http(s) `webhook_url`: the SDK blocks the step without calling anything")
    public static let notRunYet = DiagnosticID(
      "appdna.not-run-yet", .warning,
      "a feature flowrun loads but does not run yet (hooks, chat, paywalls, permissions, targeting, experiments)")

    public static let all = [
      generatedID, sanitizedBool, unknownType, draftFlow, unknownTarget, missingTarget, invalidWebhook, notRunYet,
    ]
  }
}
