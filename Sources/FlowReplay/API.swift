import FlowEngine
import FlowExpression
import FlowFormat
import FlowStore
import OrderedCollections

/// What parsing one script produced: the script (nil when it cannot be run) and every problem,
/// as `script.*` diagnostics with file:line:col.
public struct ScriptParseResult: Sendable {
  public var script: ReplayScript?
  public var diagnostics: [Diagnostic]
  /// The script's bytes, for `DiagnosticFormatter(sources:)`.
  public var source: [UInt8]

  public init(script: ReplayScript?, diagnostics: [Diagnostic], source: [UInt8]) {
    self.script = script
    self.diagnostics = diagnostics
    self.source = source
  }
}

/// How scripts are replayed.
public struct ReplayOptions: Hashable, Sendable {
  /// Rewrite `snapshot:` files instead of comparing (`--update`).
  public var updateSnapshots: Bool
  /// Keep the decision trace in each outcome (`--trace`).
  public var trace: Bool
  /// Width of rendered screens in failure messages, snapshots and `text:` checks.
  public var width: Int
  /// `--show-secrets`: the collected data in failure messages shows secrets in clear (screens,
  /// steps, transcripts and snapshots never do).
  public var showSecrets: Bool
  /// The directories given to `flowrun test`: a script's snapshots stay inside the one that
  /// holds it, else inside the script's directory (`SnapshotFiles`).
  public var suiteRoots: [String]
  /// `--store`: every accepted input upserts the session's row there, and `expect: submission`
  /// reads it back from there (without a store it checks the row that would be written).
  public var store: SharedStore?

  /// Values collected before each script's first step (`--data-in`, `--set`), as `setVariable`
  /// inputs: the script's own steps come after them and override them.
  public var presetData: OrderedDictionary<String, Value>

  public init(
    updateSnapshots: Bool = false, trace: Bool = false, width: Int = 80, showSecrets: Bool = false,
    suiteRoots: [String] = [], store: SharedStore? = nil, presetData: OrderedDictionary<String, Value> = [:]
  ) {
    self.store = store
    self.updateSnapshots = updateSnapshots
    self.trace = trace
    self.width = width
    self.showSecrets = showSecrets
    self.suiteRoots = suiteRoots
    self.presetData = presetData
  }
}

/// How one script ended.
public struct ScriptOutcome: Hashable, Sendable {
  public enum Status: String, Hashable, Sendable {
    case passed, failed, skipped
    /// The script or its flow could not be read or parsed (exit code 2).
    case error
  }

  /// The script file as named on the command line (or found in a directory).
  public var file: String
  /// The script's `name:` (the file name when it has none or could not be parsed).
  public var name: String
  public var status: Status
  /// For `failed`: the whole explanation (location, expected, actual, diff, rendered screen).
  /// For `error`: the formatted diagnostics. Empty otherwise.
  public var message: String
  /// One line: `file:line:col: what failed`.
  public var summary: String
  /// Where it failed: the step (or expectation key) in the script, or the flow diagnostic.
  public var failureFile: String?
  public var failureLocation: SourceLocation?
  /// The diagnostics when the script or the flow could not be loaded.
  public var diagnostics: [Diagnostic]
  /// Steps run (a failing step counts).
  public var stepsRun: Int
  /// Wall-clock seconds (allowed to vary between runs).
  public var duration: Double
  /// With `ReplayOptions.trace`: every decision of the session, one line each.
  public var trace: [String]
  /// Snapshot files written with `updateSnapshots`.
  public var updatedSnapshots: [String]
  /// Every snapshot file the script compared or wrote: no report may be written over one.
  public var snapshots: [String]

  public init(
    file: String, name: String, status: Status, message: String = "", summary: String = "",
    failureFile: String? = nil, failureLocation: SourceLocation? = nil,
    diagnostics: [Diagnostic] = [], stepsRun: Int = 0, duration: Double = 0, trace: [String] = [],
    updatedSnapshots: [String] = [], snapshots: [String] = []
  ) {
    self.file = file
    self.name = name
    self.status = status
    self.message = message
    self.summary = summary
    self.failureFile = failureFile
    self.failureLocation = failureLocation
    self.diagnostics = diagnostics
    self.stepsRun = stepsRun
    self.duration = duration
    self.trace = trace
    self.updatedSnapshots = updatedSnapshots
    self.snapshots = snapshots
  }
}

/// A set of scripts to run and how: what `flowrun test` does, minus printing.
public struct TestSelection: Sendable {
  /// `--shard I/N` (1-based I).
  public var shard: (index: Int, count: Int)? {
    get { shardIndex.map { ($0, shardCount) } }
    set {
      shardIndex = newValue?.index
      shardCount = newValue?.count ?? 1
    }
  }
  var shardIndex: Int?
  var shardCount: Int = 1
  /// `--filter REGEX`, found anywhere in the script's name or its path.
  public var filter: String?

  public init(shard: (index: Int, count: Int)? = nil, filter: String? = nil) {
    self.filter = filter
    self.shard = shard
  }
}

/// `--filter` reached the pattern limits on a script's name or path, so whether it selects the
/// script is unknown (guessing either way would run the wrong tests).
public struct FilterTooComplex: Error, Hashable, Sendable, CustomStringConvertible {
  public let filter: String
  public let file: String

  public var description: String { "--filter \(filter) is too complex to check against \(file)" }
}
