import FlowEngine
import FlowFormat

/// A script's steps, written while its session is driven input by input: a tap by the label
/// it has on the screen it is sent to, an input the session rejects with its `expect_error`,
/// nothing after a `quit`. A value: a replay that resumes from a saved session resumes its
/// steps too (the covering set of `paths --emit` writes scripts in its own replay).
public struct ScriptSteps: Sendable {
  public let secrets: SecretPolicy
  public private(set) var values: [JSONWriter.Value] = []
  private var stepping = true

  public init(secrets: SecretPolicy) { self.secrets = secrets }

  /// How far the steps have got, to come back to with ``rewound(to:)``: a checkpoint of a
  /// replay keeps this instead of a copy of the steps (each copy grew the next step into a new
  /// array of every step so far).
  public struct Position: Sendable {
    let count: Int
    let stepping: Bool
  }

  public var position: Position { Position(count: values.count, stepping: stepping) }

  /// These steps as they were at `position`, a position they passed.
  public func rewound(to position: Position) -> ScriptSteps {
    var steps = self
    steps.values.removeLast(values.count - position.count)
    steps.stepping = position.stepping
    return steps
  }

  /// Sends `input` to `session` and writes its step; returns the session's outputs.
  public mutating func send(_ input: Input, to session: inout Session) -> [Output] {
    if case .quit = input { stepping = false }
    guard stepping, var value = ScriptWriter.step(for: input, on: session, secrets: secrets) else {
      return session.send(input)
    }
    if case .set(let field, let answer) = input, secrets.shown(answer, of: field) != answer {
      value = .object([
        (key: "fill", value: .object([(key: field, value: ScriptWriter.placeholder(field, answer, on: session))]))
      ])
    }
    let outputs = session.send(input)
    for output in outputs {
      if case .rejected(let message) = output, case .object(var members) = value {
        members.append((key: "expect_error", value: .string(message)))
        value = .object(members)
      }
    }
    values.append(value)
    return outputs
  }
}
