import FlowStore
import FlowSupport
import FlyingFox
import FlyingSocks
import Foundation

/// `flowrun serve`: the Submissions API over HTTP/1.1 on 127.0.0.1 (FlyingFox), answering from
/// `SubmissionAPI`. Requests are served one store call at a time (`SharedStore`); a connection
/// idle for `timeout` seconds is closed.
public enum SubmissionServer {
  /// Serves until `shouldStop` says so (polled every 100 ms), then stops accepting, lets the
  /// requests in progress finish, and returns. `onListening` gets the bound port first (the
  /// one the system chose for port 0).
  public static func serve(
    store: SharedStore, port: UInt16, timeout: TimeInterval = 10, onListening: @escaping @Sendable (UInt16) -> Void,
    shouldStop: @escaping @Sendable () -> Bool
  ) async throws {
    let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: timeout, logger: .disabled)
    await server.appendRoute("*") { request in
      let answer = SubmissionAPI.respond(
        method: request.method.rawValue, path: request.path, query: request.query.map { ($0.name, $0.value) },
        store: store)
      return HTTPResponse(
        statusCode: HTTPStatusCode(answer.status, phrase: answer.reason),
        headers: [.contentType: "application/json; charset=utf-8"],
        body: request.method == .HEAD ? Data() : Data(answer.body.utf8))
    }
    let ended = Locked(false)
    let running = Task {
      defer { ended.withLock { $0 = true } }
      try await server.run()
    }
    do { try await server.waitUntilListening() } catch {
      try await running.value  // the reason it could not listen (the port is taken, ...)
      throw error
    }
    if case .ip4(_, let bound) = await server.listeningAddress { onListening(bound) }
    while !shouldStop() && !ended.withLock({ $0 }) {
      try? await Task.sleep(nanoseconds: 100_000_000)
    }
    let stopped = shouldStop()
    await server.stop(timeout: 0)  // after the connections completed their requests
    // Stopping makes `run` end with a disconnection: an error only when nobody asked to stop.
    if stopped { _ = await running.result } else { try await running.value }
  }
}
