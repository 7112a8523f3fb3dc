import CFlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP POST (AppDNA server webhooks), made by the system's libcurl loaded on first use, so
/// commands that never call out pay nothing at start-up (docs/dialects/appdna.md, "Server
/// webhooks"). Blocking: it returns when the answer is in or the timeout has passed.
public enum HTTPPost {
  /// How the call ended.
  public enum Outcome: Hashable, Sendable {
    /// Any status; the body decoded as UTF-8 (invalid bytes replaced).
    case response(status: Int, body: String)
    case timedOut
    /// No answer: the connection failed, the answer was too long, or there is no libcurl.
    case failed(String)
  }

  /// An answer longer than this is a failure (no webhook result needs it).
  public static let responseLimit = 1 << 20

  public static func post(
    url: String, headers: [(name: String, value: String)], body: String, timeoutMs: Int64
  )
    -> Outcome
  {
    let lines = headers.map { strdup("\($0.name): \($0.value)") } + [nil]
    defer { for line in lines { free(line) } }
    var status = 0
    var response: UnsafeMutablePointer<CChar>?
    var length = 0
    var error = [CChar](repeating: 0, count: 512)
    // NUL-ended, so the pointer exists for an empty body too; the length excludes it.
    let bytes = body.utf8CString
    let errorCount = error.count
    let code = lines.withUnsafeBufferPointer { headerList in
      headerList.withMemoryRebound(to: UnsafePointer<CChar>?.self) { headerPointers in
        bytes.withUnsafeBufferPointer { bodyChars in
          flowrun_http_post(
            url, headerPointers.baseAddress, bodyChars.baseAddress, bytes.count - 1, Int(min(timeoutMs, 3_600_000)),
            responseLimit, &status, &response, &length, &error, errorCount)
        }
      }
    }
    defer { free(response) }
    switch Int(code) {
    case Int(FLOWRUN_HTTP_OK):
      let text = response.map { pointer in
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
      }
      return .response(status: status, body: text ?? "")
    case Int(FLOWRUN_HTTP_TIMED_OUT):
      return .timedOut
    default:
      return .failed(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
  }
}
