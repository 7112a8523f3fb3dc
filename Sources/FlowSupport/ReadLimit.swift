/// The most flowrun reads of one kind of input (docs/loading.md, "Limits"). Checked while
/// reading, so a pipe or `/dev/urandom`-like stream stops at the limit instead of filling
/// memory, and a regular file over it is refused before it is read.
public struct ReadLimit: Sendable, Equatable {
  public var bytes: Int
  /// What is read, for messages: `a flow`.
  public var what: String

  public init(bytes: Int, what: String) {
    self.bytes = bytes
    self.what = what
  }

  /// Flow and bundle JSON files: 256 MiB (ten times the largest flow measured).
  public static let flow = ReadLimit(bytes: 256 << 20, what: "a flow")
  /// Replay scripts (`test`, `run --answers`, `paths --coverage`): 64 MiB.
  public static let script = ReadLimit(bytes: 64 << 20, what: "a replay script")
  /// Snapshot transcripts: 16 MiB.
  public static let snapshot = ReadLimit(bytes: 16 << 20, what: "a snapshot")
  /// `run --state` files (completion per user): 64 MiB.
  public static let state = ReadLimit(bytes: 64 << 20, what: "a state file")
  /// One answer line of `run`: 1 MiB. A longer line is rejected as one input.
  public static let answerLine = ReadLimit(bytes: 1 << 20, what: "an answer line")

  /// `256 MiB`.
  public var size: String { Self.size(bytes) }

  /// Whole mebibytes or kibibytes when exact, else bytes.
  public static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  /// `larger than 256 MiB, the limit for a flow`.
  public var exceededMessage: String { "larger than \(size), the limit for \(what)" }
}
