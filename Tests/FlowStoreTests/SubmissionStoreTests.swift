import FlowExpression
import FlowStore
import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

/// The stores against real databases: the upsert, the filters, pages and migrations.
@Suite struct SubmissionStoreTests {
  @Test(arguments: TestDatabase.available)
  func anUpsertMergesDataAndFollowsTheUser(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let store = try backend.open(in: directory)
    let tag = TestDatabase.uniqueTag()
    let first = row(tag, data: ["name": "Alex"], screen: "name", index: 1, created: "2026-01-01T00:00:00.000Z")
    #expect(store.save(first))
    var second = row(
      tag, data: ["hours": 2], screen: "hours", index: 2, created: "2026-01-01T00:00:05.000Z",
      updated: "2026-01-01T00:00:05.000Z")
    second.createdAt = "2026-01-01T00:00:09.000Z"  // a later writer's created_at never replaces the first
    #expect(store.save(second))
    var query = SubmissionQuery()
    query.userID = "\(tag)-u"
    let page = try store.page(query)
    #expect(page.total == 1)
    let stored = try #require(page.submissions.first)
    #expect(stored.data["name"] == "Alex")
    #expect(stored.data["hours"] == 2)
    #expect(stored.lastScreenID == "hours")
    #expect(stored.lastScreenIndex == 2)
    #expect(stored.completedAt == nil)
    #expect(stored.createdAt == "2026-01-01T00:00:00.000Z")
    #expect(stored.updatedAt == "2026-01-01T00:00:05.000Z")
    #expect(try store.submission(id: first.id) == stored)
    #expect(store.failure == nil)
  }

  @Test(arguments: TestDatabase.available)
  func completionIsSetOnceAndFiltersSeeIt(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let store = try backend.open(in: directory)
    let tag = TestDatabase.uniqueTag()
    let done = "2026-01-01T00:01:00.000Z"
    store.save(row(tag, session: "a", data: ["x": 1], completed: done, created: "2026-01-01T00:00:00.000Z"))
    store.save(
      row(
        tag, session: "a", data: [:], completed: "2026-01-01T00:09:00.000Z", created: "2026-01-01T00:00:00.000Z",
        updated: "2026-01-01T00:09:00.000Z"))
    store.save(row(tag, session: "b", data: ["x": 2], created: "2026-01-01T00:00:01.000Z"))
    store.save(row(tag, session: "c", flow: "other", user: "v", data: [:], created: "2026-01-01T00:00:02.000Z"))

    func ids(_ edit: (inout SubmissionQuery) -> Void) throws -> [String] {
      var query = SubmissionQuery()
      query.flowID = "\(tag)-f"
      edit(&query)
      return try store.page(query).submissions.map(\.sessionID)
    }
    #expect(try ids { _ in } == ["\(tag)-b", "\(tag)-a"])
    #expect(try ids { $0.completed = true } == ["\(tag)-a"])
    #expect(try ids { $0.incomplete = true } == ["\(tag)-b"])
    #expect(try ids { $0.flowID = "\(tag)-other" } == ["\(tag)-c"])
    #expect(try ids { $0.flowID = NameUUID.flow("\(tag)-other") } == ["\(tag)-c"])
    #expect(
      try ids {
        $0.flowID = nil
        $0.userID = "\(tag)-v"
      } == ["\(tag)-c"])
    var completed = SubmissionQuery()
    completed.flowID = "\(tag)-f"
    completed.completed = true
    #expect(try store.page(completed).submissions.first?.completedAt == done)
  }

  @Test(arguments: TestDatabase.available)
  func pagesAreNewestFirstAndCountEveryMatch(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let store = try backend.open(in: directory)
    let tag = TestDatabase.uniqueTag()
    for (session, second) in [("a", 1), ("b", 3), ("c", 2)] {
      store.save(row(tag, session: session, data: [:], created: "2026-01-01T00:00:0\(second).000Z"))
    }
    var query = SubmissionQuery()
    query.userID = "\(tag)-u"
    query.limit = 2
    #expect(try store.page(query).submissions.map(\.sessionID) == ["\(tag)-b", "\(tag)-c"])
    query.offset = 2
    let last = try store.page(query)
    #expect(last.submissions.map(\.sessionID) == ["\(tag)-a"])
    #expect(last.total == 3)
    query.offset = 5
    #expect(try store.page(query) == SubmissionPage(submissions: [], total: 3))
  }

  @Test(arguments: TestDatabase.available)
  func openingAgainKeepsTheRowsAndTheSchemaVersion(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let tag = TestDatabase.uniqueTag()
    let saved = row(tag, data: ["k": "v"], created: "2026-01-01T00:00:00.000Z")
    #expect(try backend.open(in: directory).save(saved))
    let reopened = try backend.open(in: directory)
    #expect(try reopened.submission(id: saved.id)?.data == ["k": "v"])
  }

  @Test func aNewerSchemaIsRefused() throws {
    let directory = try TemporaryDirectory()
    _ = try TestDatabase.sqlite.open(in: directory)
    try sqliteExecute(directory.path + "/submissions.db", "INSERT INTO flowrun_schema_version (version) VALUES (7)")
    #expect(throws: StoreError.self) { try TestDatabase.sqlite.open(in: directory) }
    do {
      _ = try TestDatabase.sqlite.open(in: directory)
    } catch let error as StoreError {
      #expect(error.message.contains("has schema version 7; this flowrun knows up to 1"))
    }
  }

  @Test func aFailedWriteIsKeptAndStopsLaterWrites() throws {
    let directory = try TemporaryDirectory()
    let store = try TestDatabase.sqlite.open(in: directory)
    let tag = TestDatabase.uniqueTag()
    #expect(store.save(row(tag, data: [:], created: "2026-01-01T00:00:00.000Z")))
    try sqliteExecute(
      directory.path + "/submissions.db",
      "CREATE TRIGGER refuse BEFORE UPDATE ON onboarding_submissions BEGIN SELECT RAISE(ABORT, 'refused'); END")
    #expect(!store.save(row(tag, data: ["a": 1], created: "2026-01-01T00:00:00.000Z")))
    #expect(store.failure?.message.contains("refused") == true)
    #expect(!store.save(row(tag, session: "other", data: [:], created: "2026-01-01T00:00:00.000Z")))
    var query = SubmissionQuery()
    query.userID = "\(tag)-u"
    #expect(try store.page(query).total == 1)
  }

  @Test func storesThatCannotOpenSayWhyInOneLine() throws {
    let directory = try TemporaryDirectory()
    let cases: [(StoreURL, String)] = [
      (.sqlite(path: directory.path + "/missing/dir/x.db"), "cannot open"),
      (.sqlite(path: directory.path), "cannot"),
      (.postgres(uri: "postgres://nobody@127.0.0.1:1/none?connect_timeout=2"), "cannot connect"),
    ]
    for (url, expected) in cases {
      do {
        _ = try SharedStore(url)
        Issue.record("\(url) opened")
      } catch {
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.message.contains("\n"))
      }
    }
  }
}
