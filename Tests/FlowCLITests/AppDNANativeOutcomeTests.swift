import Foundation
import Testing
import _FlowTestSupport

/// AppDNA's native moments on the built binary (docs/dialects/appdna.md, "Paywalls and
/// permissions"): a paywall trigger parks for purchased / restored / failed / dismissed and
/// routes as the SDK does; a permission step parks for granted / denied; the `permission_`,
/// `screen_`, `flow_` markers complete the flow with their key.
@Suite struct AppDNANativeOutcomeTests {
  /// s1 → paywall `pw` (success → s3, fail → stay, dismiss → the legacy default), s2, s3.
  static func flow(dismiss: String = "") -> String {
    """
    {"id": "f", "graph_nodes": {"pw": {"type": "paywall_trigger", "paywall_id": "pro",
      "on_success_target": "s3"\(dismiss)}},
     "steps": [
      {"id": "s1", "type": "welcome", "config": {"title": "One", "next_step_rules": [{"target_step_id": "pw"}]}},
      {"id": "s2", "type": "welcome", "config": {"title": "Two"}},
      {"id": "s3", "type": "welcome", "config": {"title": "Three"}}]}
    """
  }

  /// The events of an NDJSON text: type and properties as compact JSON, in order.
  static func events(_ text: String) -> [String] {
    let lines = text.split(separator: "\n").compactMap { line -> String? in
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let type = object["event_type"] as? String,
        let properties = try? JSONSerialization.data(
          withJSONObject: object["properties"] ?? [:], options: [.sortedKeys])
      else { return nil }
      return type + " " + String(decoding: properties, as: UTF8.self)
    }
    return lines
  }

  /// The events from the first `onboarding_step_completed` on.
  static func eventsFromCompletion(_ text: String) -> [String] {
    Array(events(text).drop { !$0.hasPrefix("onboarding_step_completed") })
  }

  @Test(arguments: [
    (
      "purchased", "",
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_step_viewed {"flow_id":"f","step_id":"s3","step_index":2,"step_type":"welcome"}"#,
      ]
    ),
    (
      "restored", "",
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_step_viewed {"flow_id":"f","step_id":"s3","step_index":2,"step_type":"welcome"}"#,
      ]
    ),
    (
      "failed", "",
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_paywall_stay {"flow_id":"f","paywall_id":"pro","reason":"paywall_payment_failed"}"#,
      ]
    ),
    (
      "dismissed", "",
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_completed {"completed_via":"paywall_dismissed","flow_id":"f","paywall_id":"pro"}"#,
        #"onboarding_flow_completed {"flow_id":"f","responses":{},"total_duration_ms":0,"total_steps":3}"#,
      ]
    ),
    (
      "dismissed", #", "on_dismiss_target": "stay""#,
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_paywall_stay {"flow_id":"f","paywall_id":"pro","reason":"paywall_dismissed"}"#,
      ]
    ),
    (
      "dismissed", #", "on_dismiss_target": "s2""#,
      [
        #"onboarding_step_completed {"flow_id":"f","selection_data":{},"step_id":"s1","step_index":0}"#,
        #"onboarding_step_viewed {"flow_id":"f","step_id":"s2","step_index":1,"step_type":"welcome"}"#,
      ]
    ),
  ])
  func aMockedPaywallRoutesAsTheSDK(_ outcome: String, _ dismiss: String, _ expected: [String]) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.flow(dismiss: dismiss))
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(
      ["run", flow, "--events", events, "--mock", "paywall.pro=" + outcome], stdin: "1\n")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(Self.eventsFromCompletion(directory.text("events.ndjson") ?? "") == expected)
  }

  @Test(arguments: [
    ([String](), #"onboarding_paywall_skip {"flow_id":"f","paywall_id":"pro","reason":"user_already_subscribed"}"#),
    ([#", "skip_if_subscribed": false"#], ""),
  ])
  func aSubscribedUserSkipsThePaywall(_ node: [String], _ skip: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.flow(dismiss: node.joined()))
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", flow, "--events", events, "--trait", "subscribed=true"], stdin: "1\n")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let seen = Self.eventsFromCompletion(directory.text("events.ndjson") ?? "")
    if skip.isEmpty {
      #expect(result.stdout.contains("Waiting for paywall.pro"))
      #expect(!seen.contains { $0.hasPrefix("onboarding_paywall_skip") })
    } else {
      #expect(seen.dropFirst().first == skip)
      #expect(seen.last?.hasPrefix(#"onboarding_step_viewed {"flow_id":"f","step_id":"s3""#) == true)
    }
  }

  @Test(arguments: [
    (":purchased\n", "Three"),
    (":dismissed\n", "Flow completed"),
    (":decline\n", "Flow completed"),
    (":failed\n1\n:ok\n", "Three"),
  ])
  func theRunPromptAnswersAPaywall(_ answers: String, _ shown: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("f.json", contents: Self.flow())
    let result = try runFlowrun(["run", flow], stdin: "1\n" + answers)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(result.stdout.contains("Waiting for paywall.pro: :purchased | :restored | :failed | :dismissed"))
    #expect(result.stdout.contains(shown), "\(result.stdout)")
  }

  static let permissionFlow = """
    {"id": "p", "steps": [
      {"id": "cam", "type": "custom", "config": {"permission_type": "Camera", "content_blocks": [
        {"id": "t", "type": "title", "text": "Scan meals"}, {"id": "go", "type": "button", "text": "Allow"}]}},
      {"id": "mic", "type": "custom", "config": {"content_blocks": [
        {"id": "m", "type": "button", "text": "Talk", "action": "permission", "action_value": "microphone"}]}}]}
    """

  @Test(arguments: [
    (
      "1\n:granted\n1\n:denied\n",
      [
        #"permission_prompted {"flow_id":"p","permission_type":"camera","step_id":"cam"}"#,
        #"permission_granted {"flow_id":"p","permission_type":"camera","step_id":"cam"}"#,
        #"onboarding_step_completed {"flow_id":"p","selection_data":{"action":"permission","action_value":"camera","permission_camera":"granted"},"step_id":"cam","step_index":0}"#,
        #"permission_prompted {"flow_id":"p","permission_type":"microphone","step_id":"mic"}"#,
        #"permission_denied {"flow_id":"p","permission_type":"microphone","step_id":"mic"}"#,
        #"onboarding_step_completed {"flow_id":"p","selection_data":{"action":"permission","action_value":"microphone","permission_microphone":"denied"},"step_id":"mic","step_index":1}"#,
      ]
    )
  ])
  func aPermissionStepParksForGrantedOrDenied(_ answers: String, _ expected: [String]) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("p.json", contents: Self.permissionFlow)
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", flow, "--events", events], stdin: answers)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Waiting for permission.camera: :granted | :denied"))
    let seen = Self.events(directory.text("events.ndjson") ?? "").filter {
      $0.hasPrefix("permission_") || $0.hasPrefix("onboarding_step_completed")
    }
    #expect(seen == expected)
  }

  @Test(arguments: [
    ("permission_camera", #""__permission_request":"camera""#),
    ("screen_paywall_intro", #""__screen_present":"paywall_intro""#),
    ("flow_upsell", #""__sub_flow":"upsell""#),
  ])
  func aMarkerCompletesWithItsKey(_ target: String, _ marker: String) throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file(
      "m.json",
      contents: """
        {"id": "m", "steps": [
          {"id": "s1", "type": "welcome", "config": {"next_step_rules": [{"target_step_id": "\(target)"}]}},
          {"id": "s2", "type": "welcome"}]}
        """)
    let events = directory.path + "/events.ndjson"
    let result = try runFlowrun(["run", flow, "--events", events], stdin: "1\n")
    #expect(result.status == 0, "\(result.stderr)")
    let completed = (directory.text("events.ndjson") ?? "").split(separator: "\n").last ?? ""
    #expect(completed.contains(#""event_type":"onboarding_flow_completed""#))
    #expect(completed.contains(#""responses":{"# + marker + "}"), "\(completed)")
  }

  @Test func pathsAndGraphFollowEveryOutcome() throws {
    let flow = "sample-flows/appdna/premium-upgrade.json"
    let paths = try runFlowrun(["paths", flow])
    #expect(paths.status == 0, "\(paths.stderr)")
    #expect(paths.stdout.contains("paths to completion: 3"))
    #expect(paths.stdout.contains("intro → notify → plan → offer → ready → $complete"))
    #expect(paths.stdout.contains("intro → notify → plan → offer → $complete"))
    let graph = try runFlowrun(["graph", flow])
    // The paywall's outcomes are labelled as outcomes (a dismissal dashed), through the rule.
    #expect(
      graph.stdout.contains(
        #""premium_v1/plan" -> "premium_v1/offer" [label="paywall.premium: cancelled · rule 2: (always)", style=dashed]"#
      ))
    #expect(
      graph.stdout.contains(
        #""premium_v1/plan" -> "premium_v1/ready" [label="paywall.premium: success · rule 2: (always)"]"#))
    // Rule 1 is the subscribed user's skip (`skip_if_subscribed`).
    #expect(
      graph.stdout.contains(#""premium_v1/plan" -> "premium_v1/ready" [label="rule 1: $user.subscribed equals true"]"#))
  }
}
