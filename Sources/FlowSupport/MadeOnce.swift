import Dispatch

/// A value worked out once, by the first thread that asks for it (`value()`), or by a thread
/// of the global queue after `startInBackground()`; a thread that asks while another works it
/// out waits for that one. Whoever asks first for work nobody has started does it, so nothing
/// waits on work that has not begun, however the threads are run.
public final class MadeOnce<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    /// The work, until a thread takes it.
    var make: (@Sendable () -> Value)?
  }
  private let state: Locked<State>
  /// Entered when a thread takes the work, left when the value is there.
  private let done = DispatchGroup()

  public init(_ make: @escaping @Sendable () -> Value) {
    state = Locked(State(make: make))
  }

  /// Starts the work on another thread while the caller goes on.
  public func startInBackground() {
    DispatchQueue.global().async { _ = self.value() }
  }

  private enum Step {
    case have(Value)
    case wait
    case work(@Sendable () -> Value)
  }

  public func value() -> Value {
    let step = state.withLock { state -> Step in
      if let value = state.value { return .have(value) }
      guard let make = state.make else { return .wait }
      state.make = nil
      done.enter()
      return .work(make)
    }
    switch step {
    case .have(let value):
      return value
    case .wait:
      done.wait()
      // Left only once the value is stored.
      return state.withLock { $0.value! }
    case .work(let make):
      let value = make()
      state.withLock { $0.value = value }
      done.leave()
      return value
    }
  }
}
