import FlowStore
import Foundation
import Testing
import _FlowTestSupport

/// #14 end to end on the built binary: `flowrun simulate` is deterministic, independent of
/// threads, and its shards merge to the single run; a model's errors are located.
@Suite(.timeLimit(.minutes(2))) struct SimulateCommandTests {
  static let goals = packageRoot().appendingPathComponent("sample-flows/goals.json").path

  func simulate(_ arguments: [String], directory: URL? = nil) throws -> ProcessOutput {
    try runFlowrun(["simulate", Self.goals, "--users", "3000", "--seed", "1"] + arguments, directory: directory)
  }

  @Test func theTextReportIsTheSameOnEveryRun() throws {
    let first = try simulate([])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.isEmpty)
    #expect(first.stdout.contains("== plan_copy=control: "))
    #expect(first.stdout.contains("== plan_copy=coach: "))
    #expect(first.stdout.contains("two-proportion z-test (pooled, two-sided)"))
    #expect(first.stdout.contains("Intervals: 95 % Wilson score."))
    #expect(try simulate([]).stdout == first.stdout)
  }

  @Test(arguments: ["json", "csv"])
  func threadsDoNotChangeTheResult(format: String) throws {
    let one = try simulate(["--format", format, "--jobs", "1"])
    let three = try simulate(["--format", format, "--jobs", "3"])
    #expect(one.status == 0 && three.status == 0)
    #expect(one.stdout == three.stdout)
    #expect(!one.stdout.isEmpty)
  }

  @Test func shardsMergeToTheSingleRun() throws {
    let directory = try TemporaryDirectory()
    var parts: [String] = []
    for index in 1...3 {
      let part = try simulate(["--shard", "\(index)/3"])
      #expect(part.status == 0, "\(part.stderr)")
      parts.append(directory.file("part\(index).json", contents: part.stdout))
    }
    let merged = try runFlowrun(["simulate", "merge"] + parts.reversed() + ["--format", "json"])
    #expect(merged.status == 0, "\(merged.stderr)")
    let single = try simulate(["--format", "json"])
    #expect(merged.stdout == single.stdout)
    let missing = try runFlowrun(["simulate", "merge", parts[0], parts[2]])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing slices: 2/3"))
  }

  @Test func aModelSteersTheUsers() throws {
    let directory = try TemporaryDirectory()
    let model = directory.file(
      "model.yaml",
      contents: """
        defaults: {drop_off: 0}
        fields:
          goal: {weights: {build: 1}}
        assignment:
          forced:
            plan_copy: {coach: 1}
        """)
    let output = try simulate(["--model", model, "--format", "json"])
    #expect(output.status == 0, "\(output.stderr)")
    let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let variants = try #require(report["variants"] as? [[String: Any]])
    #expect(variants.map { $0["variant"] as? String } == ["plan_copy=coach"])
    let answers = try #require(variants.first?["answers"] as? [String: [String: Int]])
    #expect(answers["goal"] == ["build": 3000])
  }

  @Test func modelErrorsAreLocated() throws {
    let directory = try TemporaryDirectory()
    let model = directory.file("model.yaml", contents: "screens:\n  intro: {drop_off: 2}\n")
    let output = try simulate(["--model", model])
    #expect(output.status == 2)
    #expect(output.stdout.isEmpty)
    #expect(output.stderr.contains("model.yaml:2:21: error: drop_off must be a probability from 0 to 1, not 2"))
  }
}

/// `simulate --store`: every session in the store, and docs/simulate.md's SQL reproduces the
/// JSON funnel.
@Suite(.timeLimit(.minutes(2))) struct SimulateStoreTests {
  @Test func theDocumentedSQLReproducesTheFunnel() throws {
    let directory = try TemporaryDirectory()
    let database = directory.path + "/sim.db"
    let arguments = ["simulate", SimulateCommandTests.goals, "--users", "1500", "--seed", "1", "--format", "json"]
    let stored = try runFlowrun(arguments + ["--store", database])
    #expect(stored.status == 0, "\(stored.stderr)")
    #expect(stored.stdout == (try runFlowrun(arguments)).stdout)
    #expect(try sqliteRows(database, "SELECT COUNT(*) FROM onboarding_submissions") == [["1500"]])
    #expect(try sqliteRows(database, "SELECT COUNT(*) FROM flowrun_simulated_sessions") == [["1500"]])
    try Self.expectFunnel(try sqliteRows(database, try Self.documentedQuery(0)), as: stored.stdout)
  }

  /// The PostgreSQL query of docs/simulate.md on the server `FLOWRUN_TEST_POSTGRES` names, through
  /// `psql` as a user would run it; the run has a seed of its own (the server is shared).
  @Test(.enabled(if: TestDatabase.postgresURL != nil))
  func theDocumentedPostgreSQLReproducesTheFunnel() throws {
    let url = try #require(TestDatabase.postgresURL)
    let seed = String(UInt64.random(in: 1_000_000...UInt64.max))
    let stored = try runFlowrun(
      ["simulate", SimulateCommandTests.goals, "--users", "1500", "--seed", seed, "--format", "json", "--store", url])
    #expect(stored.status == 0, "\(stored.stderr)")
    let query = try Self.documentedQuery(1).replacingOccurrences(of: "s.seed = '1'", with: "s.seed = '\(seed)'")
    #expect(query.contains(seed))
    let psql = try runProgram(
      URL(fileURLWithPath: "/usr/bin/env"), ["psql", url, "--no-psqlrc", "-At", "-F", "\t", "-c", query])
    #expect(psql.status == 0, "\(psql.stderr)")
    let rows = psql.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    try Self.expectFunnel(rows.map { $0.map { String($0) } }, as: stored.stdout)
  }

  /// The `number`th SQL block of docs/simulate.md's "The store" (0: SQLite, 1: PostgreSQL).
  static func documentedQuery(_ number: Int) throws -> String {
    let doc = try String(contentsOf: packageRoot().appendingPathComponent("docs/simulate.md"), encoding: .utf8)
    var rest = doc[try #require(doc.range(of: "## The store")).upperBound...]
    for _ in 0..<number {
      let skipped = try #require(rest.range(of: "```sql\n"))
      rest = rest[try #require(rest[skipped.upperBound...].range(of: "```\n")).upperBound...]
    }
    let open = try #require(rest.range(of: "```sql\n"))
    let close = try #require(rest[open.upperBound...].range(of: "```\n"))
    return String(rest[open.upperBound..<close.lowerBound])
  }

  /// The rows (variant, screen, reached, ended here) are the JSON report's funnel, screen by screen.
  static func expectFunnel(_ rows: [[String?]], as json: String) throws {
    var fromSQL: [String: (reached: Int, ended: Int)] = [:]
    for row in rows where row.count == 4 {
      fromSQL["\(row[0] ?? "") \(row[1] ?? "")"] = (Int(row[2] ?? "") ?? -1, Int(row[3] ?? "") ?? -1)
    }
    let report = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    var fromJSON: [String: (reached: Int, ended: Int)] = [:]
    for variant in try #require(report["variants"] as? [[String: Any]]) {
      for step in try #require(variant["funnel"] as? [[String: Any]]) {
        let reached = try #require((step["reached"] as? [String: Any])?["count"] as? Int)
        guard reached > 0 else { continue }
        fromJSON["\(variant["variant"] ?? "") \(step["screen"] ?? "")"] = (
          reached, try #require(step["ended_here"] as? Int)
        )
      }
    }
    #expect(fromSQL.count == fromJSON.count)
    #expect(fromSQL.count > 10)
    for (key, value) in fromJSON {
      #expect(fromSQL[key]?.reached == value.reached, "\(key)")
      #expect(fromSQL[key]?.ended == value.ended, "\(key)")
    }
  }

  /// Every session lands in each store flowrun writes (SQLite, and PostgreSQL when the CI
  /// server is up): its row, completed or not as the simulated session ended.
  @Test(arguments: TestDatabase.available)
  func everySessionIsStored(database: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let url = database.url(in: directory)
    // A seed of its own keeps this run's rows (user ids sim-SEED-i) apart in a shared server.
    let seed = String(UInt64.random(in: 1_000_000...UInt64.max))
    let output = try runFlowrun(
      ["simulate", SimulateCommandTests.goals, "--users", "300", "--seed", seed, "--format", "json", "--store", url])
    #expect(output.status == 0, "\(output.stderr)")
    let store = try SharedStore(try StoreURL.parse(url).get(), creates: false)
    var completed = 0
    for user in 0..<300 {
      var query = SubmissionQuery()
      query.userID = "sim-\(seed)-\(user)"
      let page = try store.page(query)
      #expect(page.total == 1, "sim-\(seed)-\(user)")
      if page.submissions.first?.completedAt != nil { completed += 1 }
    }
    let report = try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let variants = try #require(report["variants"] as? [[String: Any]])
    let reported = variants.compactMap { ($0["completed"] as? [String: Any])?["count"] as? Int }.reduce(0, +)
    #expect(completed == reported)
  }

  @Test func theStoreMayNotBeAnInput() throws {
    let output = try runFlowrun(["simulate", SimulateCommandTests.goals, "--store", SimulateCommandTests.goals])
    #expect(output.status == 2)
    #expect(output.stderr.contains("must not overwrite an input"))
  }
}

/// `simulate --html` loaded in a real headless browser: the bars Chromium builds from the page
/// match the JSON funnel of the same run.
@Suite(
  .timeLimit(.minutes(2)),
  .enabled(
    if: HeadlessBrowser.path != nil,
    "no chromium, chromium-browser or google-chrome on PATH (.ci/deps installs chromium on Debian/Ubuntu)"))
struct SimulateHTMLTests {
  @Test func theBrowsersBarsMatchTheJSON() throws {
    let browser = try #require(HeadlessBrowser.path)
    let directory = try TemporaryDirectory()
    let page = directory.path + "/report.html"
    let run = try runFlowrun([
      "simulate", SimulateCommandTests.goals, "--users", "2000", "--seed", "4", "--format", "json", "--html", page,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let dom = try runProgram(
      browser,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory.path)/profile", "--dump-dom",
        URL(fileURLWithPath: page).absoluteString,
      ], timeout: 90)
    #expect(dom.status == 0, "\(dom.stderr)")
    // Self-contained: nothing the page would fetch.
    let html = try String(contentsOfFile: page, encoding: .utf8)
    for fetching in ["<script", "src=", "href=", "url(", "@import", "<link"] {
      #expect(!html.contains(fetching), "\(fetching)")
    }

    // Every bar as the browser parsed it: variant, screen, reached, users and width.
    let pattern = try NSRegularExpression(
      pattern:
        #"<rect class="bar"[^>]* width="([0-9.]+)"[^>]* data-variant="([^"]*)" data-screen="([^"]*)" data-reached="(\d+)" data-users="(\d+)""#
    )
    let text = dom.stdout as NSString
    var bars: [String: (width: Double, reached: Int, users: Int)] = [:]
    for match in pattern.matches(in: dom.stdout, range: NSRange(location: 0, length: text.length)) {
      let field = { (i: Int) in text.substring(with: match.range(at: i)) }
      bars["\(field(2)) \(field(3))"] = (Double(field(1)) ?? -1, Int(field(4)) ?? -1, Int(field(5)) ?? -1)
    }
    let report = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    var steps = 0
    for variant in try #require(report["variants"] as? [[String: Any]]) {
      let users = try #require(variant["users"] as? Int)
      for step in try #require(variant["funnel"] as? [[String: Any]]) {
        let reached = try #require((step["reached"] as? [String: Any])?["count"] as? Int)
        let key = "\(variant["variant"] ?? "") \(step["screen"] ?? "")"
        let bar = try #require(bars[key], "no bar for \(key)")
        #expect(bar.reached == reached && bar.users == users, "\(key)")
        #expect(abs(bar.width - 500 * Double(reached) / Double(users)) < 0.01, "\(key)")
        steps += 1
      }
    }
    #expect(steps == bars.count)
    #expect(steps > 10)
  }
}

/// A Chromium-family browser on PATH, for the HTML tests.
enum HeadlessBrowser {
  static let path: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      }
    }
    return nil
  }()
}
