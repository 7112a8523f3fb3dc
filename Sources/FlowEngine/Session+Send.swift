import FlowExpression
import FlowFormat

extension Session {
  /// Applies one input and returns what happened, in order. A rejected input returns exactly
  /// `[.rejected(message)]` and leaves the session unchanged.
  public mutating func send(_ input: Input) -> [Output] {
    outbox = []
    handle(input)
    let outputs = outbox
    outbox = []
    return outputs
  }

  mutating func handle(_ input: Input) {}
  mutating func begin() {}
}
