import FlowEngine
import FlowFormat
import FlowSupport

/// Makes a step's server webhook call over HTTP (`HTTPPost`) and tells the engine how it ended.
enum WebhookClient {
  static func response(to call: WebhookCall) -> WebhookResponse {
    let headers = call.headers.map { (name: $0.key, value: $0.value) }
    switch HTTPPost.post(url: call.url, headers: headers, body: call.body.json, timeoutMs: call.timeoutMs) {
    case .response(let status, let body): return .response(status: status, body: body)
    case .timedOut: return .timeout
    case .failed(let message): return .network(message)
    }
  }
}
