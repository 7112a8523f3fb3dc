import FlowExpression
import FlowStore
import FlowSupport
import OrderedCollections
import Testing
import _FlowTestSupport

/// The API's answers, from a real SQLite store (the HTTP tests in FlowCLITests go through
/// `flowrun serve`).
@Suite struct SubmissionAPITests {
  @Test(arguments: [
    ("GET", "/submissions", [("user_id", "T-u")], 200, #"{"submissions":[{"id":"#),
    ("GET", "/submissions/", [("user_id", "T-u"), ("completed", "true")], 200, #"{"submissions":[],"total":0}"#),
    ("GET", "/submissions", [("limit", "0")], 400, #"{"error":"parameter 'limit' must be a whole number"#),
    ("GET", "/submissions", [("offset", "x")], 400, #"{"error":"parameter 'offset'"#),
    ("POST", "/submissions", [], 405, #"{"error":"POST is not allowed on /submissions (use GET)"}"#),
    ("GET", "/", [], 404, #"{"error":"no such resource: / (the API is GET /submissions)"}"#),
  ])
  func answers(_ method: String, _ path: String, _ query: [(String, String)], _ status: Int, _ body: String) throws {
    let directory = try TemporaryDirectory()
    let store = try TestDatabase.sqlite.open(in: directory)
    store.save(row("T", data: ["a": 1], created: "2026-01-01T00:00:00.000Z"))
    let request = LoopbackHTTPServer.Request(method: method, path: path, query: query.map { (name: $0.0, value: $0.1) })
    let answer = SubmissionAPI.respond(to: request, store: store)
    #expect(answer.status == status)
    #expect(answer.body.hasPrefix(body), "\(answer.body)")
    #expect(answer.body.hasSuffix("\n"))
  }

  @Test func theJSONKeepsTheDocumentedKeyOrder() throws {
    let directory = try TemporaryDirectory()
    let store = try TestDatabase.sqlite.open(in: directory)
    let saved = row(
      "T", data: ["name": "Alex", "goals": ["a", "b"]], screen: "s3", index: 3, created: "2026-01-15T10:25:00.000Z")
    store.save(saved)
    let json = try store.page(SubmissionQuery()).json
    #expect(
      json
        == #"{"submissions":[{"id":"\#(saved.id)","flow_id":"\#(NameUUID.flow("T-f"))","user_id":"T-u","session_id":"T-s1","#
        + #""data":{"name":"Alex","goals":["a","b"]},"last_screen_id":"s3","last_screen_index":3,"completed_at":null,"#
        + #""created_at":"2026-01-15T10:25:00.000Z"}],"total":1}"#)
  }
}
