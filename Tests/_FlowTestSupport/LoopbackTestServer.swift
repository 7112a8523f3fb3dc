import FlowSupport
import Foundation

/// The project's loopback HTTP server running on a thread of the test process: it records each
/// request and answers with `answer` (given the request and its 0-based number), after
/// `delayMs` when the answer asks for one (a client's timeout then passes first).
public final class LoopbackTestServer: @unchecked Sendable {
  public struct Answer: Sendable {
    public var status: Int
    public var body: String
    public var delayMs: Int

    public init(status: Int = 200, body: String, delayMs: Int = 0) {
      self.status = status
      self.body = body
      self.delayMs = delayMs
    }
  }

  public let port: UInt16
  private let state = Locked((stop: false, stopped: false, requests: [LoopbackHTTPServer.Request]()))

  public var url: String { "http://127.0.0.1:\(port)" }
  public var requests: [LoopbackHTTPServer.Request] { state.withLock { $0.requests } }

  public init(answer: @escaping @Sendable (LoopbackHTTPServer.Request, Int) -> Answer) throws {
    // Used by the serving thread only, from here on.
    nonisolated(unsafe) let server = try LoopbackHTTPServer(port: 0)
    port = server.port
    let state = self.state
    let thread = Thread {
      server.serve(shouldStop: { state.withLock { $0.stop } }) { request in
        let number = state.withLock { shared in
          shared.requests.append(request)
          return shared.requests.count - 1
        }
        let reply = answer(request, number)
        if reply.delayMs > 0 { usleep(useconds_t(reply.delayMs * 1000)) }
        return LoopbackHTTPServer.Response(status: reply.status, reason: "Answer", body: reply.body)
      }
      state.withLock { $0.stopped = true }
    }
    thread.start()
  }

  /// Stops serving and waits until the thread has left `serve`.
  public func stop() {
    state.withLock { $0.stop = true }
    while !state.withLock({ $0.stopped }) { usleep(10_000) }
  }
}
