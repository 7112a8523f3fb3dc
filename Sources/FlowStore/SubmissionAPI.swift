import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

/// The Submissions API (`GET /submissions`) as a function from a request to a response, so the
/// HTTP server only moves bytes (docs/submissions.md). Every body is JSON and a newline.
public enum SubmissionAPI {
  public typealias Response = LoopbackHTTPServer.Response

  /// The answer to a request (its path and query already percent-decoded).
  public static func respond(to request: LoopbackHTTPServer.Request, store: SharedStore) -> Response {
    let (method, path, query) = (request.method, request.path, request.query)
    guard path == "/submissions" || path == "/submissions/" else {
      return error(404, "Not Found", "no such resource: \(path) (the API is GET /submissions)")
    }
    guard method == "GET" || method == "HEAD" else {
      return error(405, "Method Not Allowed", "\(method) is not allowed on /submissions (use GET)")
    }
    let parsed: SubmissionQuery
    switch SubmissionQuery.parse(query) {
    case .success(let query): parsed = query
    case .failure(let problem): return error(400, "Bad Request", problem.message)
    }
    do throws(StoreError) {
      return Response(status: 200, reason: "OK", body: try store.page(parsed).json + "\n")
    } catch {
      return Self.error(500, "Internal Server Error", error.message)
    }
  }

  static func error(_ status: Int, _ reason: String, _ message: String) -> Response {
    Response(status: status, reason: reason, body: Value.object(["error": .string(message)]).json + "\n")
  }
}
