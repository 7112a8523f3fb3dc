#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread that runs one closure, then is joined (`join`, once) or left to run alone
/// (`detach`). Its stack is set to `stackBytes` rather than left to the environment (glibc's
/// default follows `ulimit -s`): the loader's threads decode and free values by recursion, once
/// per nesting level, at most `Limits.nesting` (512).
///
/// `pthread_t` is an integer on Linux and a non-null pointer on Darwin, where `pthread_create`
/// writes through a `pthread_t?`: the handle is declared per platform below, and the entry
/// point takes its argument as optional, which reads Darwin's non-optional one as well.
public final class JoinableThread {
  public static let stackBytes = 8 << 20

  private let handle: pthread_t
  /// Joined or detached: a second `pthread_join` or `pthread_detach` of one handle is undefined
  /// behaviour, and a thread neither joined nor detached keeps its resources after it ends.
  private var released = false

  private init(_ handle: pthread_t) {
    self.handle = handle
  }

  deinit {
    if !released { pthread_detach(handle) }
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// The started thread, or nil when it could not be started (the caller then does the work).
  public static func start(_ run: @escaping @Sendable () -> Void) -> JoinableThread? {
    let body = Unmanaged.passRetained(Body(run)).toOpaque()
    let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
    pthread_attr_init(attributes)
    defer {
      pthread_attr_destroy(attributes)
      attributes.deallocate()
    }
    pthread_attr_setstacksize(attributes, stackBytes)
    #if canImport(Darwin)
      var handle: pthread_t?
    #else
      var handle = pthread_t()
    #endif
    let started = pthread_create(&handle, attributes, { argument in JoinableThread.enter(argument) }, body)
    guard started == 0 else {
      Unmanaged<Body>.fromOpaque(body).release()
      return nil
    }
    #if canImport(Darwin)
      return JoinableThread(handle!)
    #else
      return JoinableThread(handle)
    #endif
  }

  private static func enter(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
    return nil
  }

  /// Waits for the closure to return; after the first `join` or `detach`, does nothing.
  /// Called by the thread that started it.
  public func join() {
    guard !released else { return }
    released = true
    pthread_join(handle, nil)
  }

  /// Lets the thread run to its end without being joined (its resources go when it ends); after
  /// the first `join` or `detach`, does nothing.
  public func detach() {
    guard !released else { return }
    released = true
    pthread_detach(handle)
  }
}
