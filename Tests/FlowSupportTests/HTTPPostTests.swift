import FlowSupport
import Testing
import _FlowTestSupport

/// `HTTPPost` (libcurl loaded on first use) against the loopback server in this process: the
/// request arrives as sent, every status and body comes back, a slow server times out, a closed
/// port fails.
@Suite struct HTTPPostTests {
  @Test(arguments: [(200, #"{"action":"proceed"}"#), (500, "boom"), (404, ""), (201, "é ✓")])
  func postsAndReadsTheAnswer(_ status: Int, _ body: String) throws {
    let server = try LoopbackTestServer { _, _ in .init(status: status, body: body) }
    defer { server.stop() }
    let outcome = HTTPPost.post(
      url: server.url + "/hook?x=1", headers: [("Content-Type", "application/json"), ("X-Flow", "f 1")],
      body: #"{"step_id":"s1"}"#, timeoutMs: 5000)
    #expect(outcome == .response(status: status, body: body))
    let request = try #require(server.requests.first)
    #expect(request.method == "POST" && request.path == "/hook")
    #expect(request.header("content-type") == "application/json" && request.header("X-Flow") == "f 1")
    #expect(request.body == #"{"step_id":"s1"}"#)
  }

  @Test func aLargeBodyArrivesWhole() throws {
    let server = try LoopbackTestServer { request, _ in .init(body: String(request.body.count)) }
    defer { server.stop() }
    let body = String(repeating: "x", count: 200_000)
    #expect(
      HTTPPost.post(url: server.url, headers: [], body: body, timeoutMs: 5000) == .response(status: 200, body: "200000")
    )
  }

  @Test func aSlowServerTimesOut() throws {
    let server = try LoopbackTestServer { _, _ in .init(body: "late", delayMs: 600) }
    defer { server.stop() }
    #expect(HTTPPost.post(url: server.url, headers: [], body: "{}", timeoutMs: 150) == .timedOut)
  }

  @Test func aClosedPortFails() throws {
    // A port that was just free: bound, then closed with its server at the end of the scope.
    let port = try { try LoopbackHTTPServer(port: 0).port }()
    guard
      case .failed(let message) = HTTPPost.post(
        url: "http://127.0.0.1:\(port)/", headers: [], body: "{}", timeoutMs: 2000)
    else {
      Issue.record("a closed port answered")
      return
    }
    #expect(!message.isEmpty)
  }
}
