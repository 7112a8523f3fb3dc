import FlowEngine

/// A session as it was driven: the options it started with and every input it received, in
/// order. `ScriptWriter` turns it into a replay script that reproduces the session exactly.
public struct Recording: Sendable {
  /// The flow file, as a path relative to where the script will be written, or absolute.
  public var flowPath: String
  public var config: SessionConfig
  public var inputs: [Input]

  public init(flowPath: String, config: SessionConfig, inputs: [Input]) {
    self.flowPath = flowPath
    self.config = config
    self.inputs = inputs
  }
}

/// Writes replay scripts (`*.flow-test.yaml`).
public enum ScriptWriter {
  /// The YAML text of a script replaying `recording` and expecting the state `final` reached.
  public static func yaml(for recording: Recording, final: Session) -> String {
    // Interim body: the full writer is being written (issue 5).
    "flow: \(recording.flowPath)\nsteps: []\n"
  }

  /// The same script as JSON (`*.flow-test.json`).
  public static func json(for recording: Recording, final: Session) -> String {
    "{\"flow\": \"\(recording.flowPath)\", \"steps\": []}\n"
  }
}
