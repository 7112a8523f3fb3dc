#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compiled input `pattern`s, shared by every session of the process and compiled on first use:
/// compiling a regex costs far more than a whole session step, so it must not happen per
/// `Session.start` (nor per validation).
final class PatternCache: @unchecked Sendable {
  static let shared = PatternCache()

  /// A compiled whole-string pattern (nil when the pattern does not compile: then it never fails).
  private struct Entry {
    let regex: Regex<AnyRegexOutput>?
  }

  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private var entries: [String: Entry] = [:]

  private init() {
    lock = .allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
  }

  /// The compiled pattern, or nil when it does not compile.
  func regex(_ source: String) -> Regex<AnyRegexOutput>? {
    pthread_mutex_lock(lock)
    if let entry = entries[source] {
      pthread_mutex_unlock(lock)
      return entry.regex
    }
    pthread_mutex_unlock(lock)
    // Compiled outside the lock; a race compiles twice and keeps one, which is harmless.
    let entry = Entry(regex: try? Regex(source))
    pthread_mutex_lock(lock)
    entries[source] = entry
    pthread_mutex_unlock(lock)
    return entry.regex
  }
}
