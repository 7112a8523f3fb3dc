#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's words for an errno value (`No space left on device`), as every message of
/// flowrun says them.
public func systemMessage(_ code: Int32) -> String {
  String(cString: strerror(code))
}
