import FlowEngine
import FlowReplay

/// The exit codes the command line decides from what the libraries report (README: 0
/// success, 1 a test or check failed or a run did not finish, 2 a flow or script could not be
/// read or parsed, 64 wrong usage).
enum ExitStatus {
  /// `run`: 0 when the session completed or was dismissed; 1 when it ended otherwise (quit,
  /// end of input, blocked on an awaited action, failed).
  static func of(_ status: SessionStatus) -> Int32 {
    switch status {
    case .completed, .dismissed: 0
    case .running, .awaiting, .quit, .failed: 1
    }
  }

  /// `test`: 2 when a script or flow could not be read or parsed, else 1 when a script failed,
  /// else 0.
  static func of(_ outcomes: [ScriptOutcome]) -> Int32 {
    if outcomes.contains(where: { $0.status == .error }) { return 2 }
    if outcomes.contains(where: { $0.status == .failed }) { return 1 }
    return 0
  }
}
