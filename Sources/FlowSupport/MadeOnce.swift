import Dispatch

/// A value worked out once, by the first thread that asks for it (`value()`), or by a thread
/// of the global queue after `startInBackground()`; a thread that asks while another works it
/// out waits for that one. Whoever asks first for work nobody has started does it, so nothing
/// waits on work that has not begun, however the threads are run.
///
/// Inlinable, so that callers get it specialized: the lint rules ask `CheckContext.facts` on
/// every screen, and the generic calls cost 5.8 M instructions of runtime metadata look-ups on
/// `check --format json` of the 2 MB `lint-chain` shape.
public final class MadeOnce<Value: Sendable>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var value: Value?
    /// The work, until a thread takes it.
    @usableFromInline var make: (@Sendable () -> Value)?

    @inlinable init(make: @escaping @Sendable () -> Value) { self.make = make }
  }
  @usableFromInline let state: Locked<State>
  /// Entered when a thread takes the work, left when the value is there.
  @usableFromInline let done = DispatchGroup()

  @inlinable public init(_ make: @escaping @Sendable () -> Value) {
    state = Locked(State(make: make))
  }

  /// Starts the work on another thread while the caller goes on.
  public func startInBackground() {
    DispatchQueue.global().async { _ = self.value() }
  }

  @usableFromInline enum Step {
    case have(Value)
    case wait
    case work(@Sendable () -> Value)
  }

  @inlinable public func value() -> Value {
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
