import FlowEngine
import FlowExpression
import FlowFormat
import FlowStore
import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

/// What a session leaves in its row, input by input, on the sample fitness flow.
@Suite struct SubmissionRecorderTests {
  static func start(now: Int64 = 1_767_225_600_000) throws -> Session {
    let path = packageRoot().appendingPathComponent("sample-flows/fitness.json").path
    let document = try #require(FlowLoader.load(path: path).document)
    return try Session.start(document: document, config: SessionConfig(userID: "u1", now: now)).0
  }

  @Test func theRowFollowsTheSessionAndKeepsItsFirstTime() throws {
    var session = try Self.start()
    var recorder = SubmissionRecorder()
    _ = session.send(.tap(.label("Get Started")))
    let first = recorder.accept(session)
    #expect(first.lastScreenID == "name")
    #expect(first.lastScreenIndex == 1)
    #expect(first.data == [:])
    #expect(first.createdAt == "2026-01-01T00:00:00.000Z")
    _ = session.send(.set(field: "name", value: "Alex"))
    _ = session.send(.wait(ms: 1500))
    _ = session.send(.tap(.label("Continue")))
    let second = recorder.accept(session)
    #expect(second.id == first.id)
    #expect(second.data == ["name": "Alex"])
    #expect(second.lastScreenID == "hours")
    #expect(second.createdAt == first.createdAt)
    #expect(second.updatedAt == "2026-01-01T00:00:01.500Z")
    #expect(second.completedAt == nil)
    #expect(second.flowID == NameUUID.flow("fitness"))
    #expect(second.id == NameUUID.submission(flowID: "fitness", sessionID: session.sessionID))
  }

  @Test func anotherSessionStartsAnotherRow() throws {
    var recorder = SubmissionRecorder()
    var first = try Self.start()
    _ = first.send(.tap(.label("Get Started")))
    let a = recorder.accept(first)
    var second = try Self.start(now: 1_767_225_700_000)
    _ = second.send(.tap(.label("Get Started")))
    let b = recorder.accept(second)
    #expect(a.id != b.id)
    #expect(b.createdAt == "2026-01-01T00:01:40.000Z")
  }
}
