import Foundation
import Testing
import _FlowTestSupport

/// What a run left in its `--events` and `--data` files, checked the way a consumer reads them.
struct SessionFiles {
  /// Every line of the events file, each parsed as a JSON object.
  var events: [[String: Any]]
  /// The data file as a JSON object.
  var data: [String: Any]

  /// Reads `events` and `data` in `directory`; a file that is missing, a line that is not a
  /// JSON object or data that is not one is a recorded issue (and a throw).
  init(_ directory: TemporaryDirectory, events: String = "events.ndjson", data: String = "data.json") throws {
    let eventText = try #require(directory.text(events), "\(events) was not written")
    self.events = try eventText.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an event: \(line)")
    }
    let dataText = try #require(directory.text(data), "\(data) was not written")
    self.data = try #require(
      try JSONSerialization.jsonObject(with: Data(dataText.utf8)) as? [String: Any], "not a JSON object: \(dataText)")
  }

  /// The reason of the last event when it is `screen_dropped_off`, else nil.
  var dropOffReason: String? {
    guard let last = events.last, last["event_type"] as? String == "screen_dropped_off" else { return nil }
    return (last["properties"] as? [String: Any])?["reason"] as? String
  }
}

/// A one-screen flow whose button starts an awaited action that nobody answers; its failure
/// would route to another screen (so a replay that answers it by itself goes elsewhere).
let awaitingFlow = """
  {"version": 1, "screens": [
    {"id": "ask", "name": "Ask", "type": "permission", "content": {"blocks": [
      {"id": "t", "type": "text", "content": {"text": "Allow?"}},
      {"id": "go", "type": "button", "content": {"text": "Allow", "action": {
        "type": "custom", "identifier": "perm.x", "awaitResult": true,
        "onSuccess": {"type": "next"}, "onFailure": {"type": "screen", "screenId": "sorry"}}}}]}},
    {"id": "sorry", "name": "Sorry", "type": "feature", "content": {"blocks": [
      {"id": "b2", "type": "button", "content": {"text": "OK"}}]}},
    {"id": "done", "name": "Done", "type": "feature", "content": {"blocks": [
      {"id": "b3", "type": "button", "content": {"text": "OK"}}]}}
  ]}
  """

/// A filler screen: no buttons, no automatic advance; only `:` commands move it.
let fillerFlow = """
  {"version": 1, "screens": [
    {"id": "wait", "name": "Wait", "type": "feature", "content": {"blocks": [
      {"id": "t", "type": "text", "content": {"text": "Please wait"}}]}}
  ]}
  """
