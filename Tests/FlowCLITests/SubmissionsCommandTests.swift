import FlowStore
import Foundation
import Testing
import _FlowTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// #16 end to end on the built binary: `run --store`, `test --store`, `flowrun submissions`,
/// `flowrun serve`, against a SQLite file in a temporary directory and the PostgreSQL server of
/// FLOWRUN_TEST_POSTGRES (`.ci/postgres start`; skipped without it, see
/// PostgresAvailabilityTests).
@Suite(.timeLimit(.minutes(2))) struct SubmissionsCommandTests {
  static let fitness = packageRoot().appendingPathComponent("sample-flows/fitness.json").path

  /// The row a piped run that dropped off on `hours` (the third screen) leaves.
  static func partialRow(session: String, user: String) -> String {
    #"{"id":"\#(NameUUID.submission(flowID: "fitness", sessionID: session))","flow_id":"\#(NameUUID.flow("fitness"))","#
      + #""user_id":"\#(user)","session_id":"\#(session)","data":{"name":"Alex"},"last_screen_id":"hours","#
      + #""last_screen_index":2,"completed_at":null,"created_at":"2026-01-01T00:00:00.000Z"}"#
  }

  func dropOff(_ url: String, tag: String, data: String? = nil) throws -> ProcessOutput {
    try runFlowrun(
      [
        "run", Self.fitness, "--store", url, "--now", "2026-01-01T00:00:00Z", "--user", tag, "--session-id", tag,
      ] + (data.map { ["--data", $0] } ?? []), stdin: "Get Started\nAlex\nContinue\n")
  }

  @Test(arguments: TestDatabase.available)
  func aRunThatDropsOffOnTheThirdScreenLeavesThePartialRow(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let url = backend.url(in: directory)
    let tag = TestDatabase.uniqueTag()
    let run = try dropOff(url, tag: tag)
    #expect(run.status == 1, "\(run.stderr)")  // end of input: a drop-off
    #expect(run.stderr == "")
    let row = Self.partialRow(session: tag, user: tag)
    let cases: [([String], String)] = [
      (["--user-id", tag], #"{"submissions":[\#(row)],"total":1}"#),
      (["--user-id", tag, "--incomplete"], #"{"submissions":[\#(row)],"total":1}"#),
      (["--user-id", tag, "--completed"], #"{"submissions":[],"total":0}"#),
      (["--user-id", tag, "--flow-id", "fitness"], #"{"submissions":[\#(row)],"total":1}"#),
      (
        ["--user-id", tag, "--flow-id", NameUUID.flow("fitness").uppercased()], #"{"submissions":[\#(row)],"total":1}"#
      ),
      (["--user-id", tag, "--flow-id", "goals"], #"{"submissions":[],"total":0}"#),
      (["--user-id", tag, "--limit", "1", "--offset", "1"], #"{"submissions":[],"total":1}"#),
      (["--user-id", "\(tag)-nobody"], #"{"submissions":[],"total":0}"#),
    ]
    for (options, expected) in cases {
      let listed = try runFlowrun(["submissions", url] + options)
      #expect(listed.status == 0, "\(options): \(listed.stderr)")
      #expect(listed.stdout == expected + "\n", "\(options)")
    }
  }

  @Test(arguments: TestDatabase.available)
  func aCompletedReplaySetsCompletedAt(_ backend: TestDatabase) throws {
    let directory = try TemporaryDirectory()
    let url = backend.url(in: directory)
    let tag = TestDatabase.uniqueTag()
    let script = directory.file(
      "done.flow-test.yaml",
      contents: """
        flow: \(Self.fitness)
        user: \(tag)
        now: 2026-03-01T08:00:00Z
        mocks:
          permission.notifications: {status: success, data: {granted: true}}
        steps:
          - tap: Get Started
          - expect: {submission: {data: {}, last_screen_id: name, completed: false}}
          - fill: {name: Alex}
          - tap: Continue
          - set: {hours_daily: 2}
          - tap: Continue
          - tap: Show me how
          - select: {interests: [cardio]}
          - tap: Continue
          - expect: {submission: {last_screen_id: notifications, last_screen_index: 5}}
          - tap: Enable notifications
          - wait: 2000
          - tap: Start my first workout
        expect:
          completed: true
          submission:
            data: {name: Alex, hours_daily: 2, interests: [cardio], granted: true}
            last_screen_id: done
            completed: true

        """)
    // Without a store the expectation checks the row that would be written; with one, the row
    // read back from the store.
    for arguments in [["test", script], ["test", script, "--store", url]] {
      let replay = try runFlowrun(arguments)
      #expect(replay.status == 0, "\(arguments): \(replay.stdout)\(replay.stderr)")
    }
    let listed = try runFlowrun(["submissions", url, "--user-id", tag, "--completed"])
    #expect(
      listed.stdout.contains(
        #""last_screen_id":"done","last_screen_index":6,"completed_at":"2026-03-01T08:00:02.000Z""#))
    #expect(
      listed.stdout.hasSuffix(#""created_at":"2026-03-01T08:00:00.000Z"}],"total":1}"# + "\n"), "\(listed.stdout)")
  }

  @Test func aSubmissionThatDiffersFailsTheScriptWithTheRow() throws {
    let directory = try TemporaryDirectory()
    let script = directory.file(
      "wrong.flow-test.yaml",
      contents: """
        flow: \(Self.fitness)
        steps:
          - tap: Get Started
          - fill: {name: Alex}
          - tap: Continue
        expect:
          submission: {data: {name: Sam}, last_screen_id: done, completed: true}

        """)
    let replay = try runFlowrun(["test", script])
    #expect(replay.status == 1)
    for line in [
      "the submission does not match", #"data: name: expected "Sam", actual "Alex""#,
      "last_screen_id: expected 'done', actual 'hours'", "completed: expected true, actual false",
      #"actual submission: {"id":"#,
    ] {
      #expect(replay.stdout.contains(line), "\(line)\n\(replay.stdout)")
    }
  }

  /// A store that fails in the middle of a session: said once, the session goes on, `--data`
  /// is written whole, exit 1.
  @Test func aStoreThatFailsMidSessionLosesNothingElse() throws {
    let directory = try TemporaryDirectory()
    let database = directory.path + "/submissions.db"
    let tag = TestDatabase.uniqueTag()
    // The first input creates the row; the trigger then refuses every update of it.
    _ = try dropOff("sqlite:" + database, tag: "\(tag)-first")
    try sqliteExecute(
      database,
      "CREATE TRIGGER refuse BEFORE UPDATE ON onboarding_submissions BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    )
    let run = try dropOff("sqlite:" + database, tag: "\(tag)-first", data: directory.path + "/data.json")
    #expect(run.status == 1)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix(
        "flowrun: sqlite:\(database): cannot save the submission: refused by the test; the session goes on"),
      "\(run.stderr)")
    #expect(run.stdout.contains("── Session ended (end_of_input) on hours"))
    #expect(directory.text("data.json") == "{\n  \"name\": \"Alex\"\n}\n")
  }

  /// Secret fields are stored masked, as `--data` writes them, unless `run --show-secrets`.
  @Test(arguments: [([String](), #""password":"••••""#), (["--show-secrets"], #""password":"hunter2hunter2""#)])
  func secretsAreStoredAsDataWritesThem(_ options: [String], _ stored: String) throws {
    let directory = try TemporaryDirectory()
    let database = directory.path + "/submissions.db"
    let flow = packageRoot().appendingPathComponent("Tests/FlowCLITests/BadInputs/fixtures/secret.json").path
    let run = try runFlowrun(
      ["run", flow, "--store", database] + options, stdin: "alex@example.com\nhunter2hunter2\n1\n")
    #expect(run.stderr == "")  // the flow goes on after the password: the run ends as a drop-off
    let listed = try runFlowrun(["submissions", database])
    #expect(listed.stdout.contains(stored), "\(listed.stdout)")
  }

  @Test(arguments: [
    (["run", "FLOW", "--store", "mysql://h/db"], 64, "unsupported store 'mysql:'"),
    (["test", "FLOW", "--store", ""], 64, "the store URL is empty"),
    (["submissions", "sqlite:"], 64, "names no file"),
    (["submissions", "DIR/missing/x.db"], 1, "no such store (run or test --store creates it)"),
    (["run", "FLOW", "--store", "DIR/missing/x.db"], 1, "cannot open: unable to open database file"),
    (["run", "FLOW", "--store", "DIR"], 1, "cannot"),
    (["submissions", "DIR/s.db", "--limit", "0"], 64, "--limit must be a whole number from 1 to 1000, not '0'"),
    (
      ["submissions", "DIR/s.db", "--completed", "--incomplete"], 64, "--completed and --incomplete exclude each other"
    ),
    (["serve", "--store", "DIR/s.db", "--port", "70000"], 64, "--port must be"),
  ])
  func badStoresAndParametersSayWhat(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let directory = try TemporaryDirectory()
    let resolved = arguments.map {
      $0 == "FLOW" ? Self.fitness : $0.replacingOccurrences(of: "DIR", with: directory.path)
    }
    let result = try runFlowrun(resolved, stdin: "Get Started\n")
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  /// libpq is loaded when a PostgreSQL store first opens; a missing one is said (what, how to
  /// install it) before any connection is tried, with exit 1. FLOWRUN_LIBPQ names the file, so a
  /// path that does not exist stands for a system without libpq.
  @Test(arguments: [
    ["run", "FLOW", "--store", "postgres://me@127.0.0.1:1/db"],
    ["test", "sample-flows/tests/fitness", "--store", "postgres://me@127.0.0.1:1/db"],
    ["submissions", "postgres://me:secret@127.0.0.1:1/db"],
  ])
  func aMissingLibpqSaysHowToInstallIt(_ arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let missing = directory.url.appendingPathComponent("libpq.so.5").path
    let result = try runFlowrun(
      arguments.map { $0 == "FLOW" ? Self.fitness : $0 }, stdin: "Get Started\n",
      environment: ["FLOWRUN_LIBPQ": missing])
    let shown = arguments.last!.replacingOccurrences(of: ":secret@", with: ":…@")
    #expect(result.status == 1, "\(result.stderr)")
    // Between the two parts: the dynamic linker's own words (Linux and macOS differ).
    #expect(
      result.stderr.contains(
        "flowrun: \(shown): cannot open: the PostgreSQL client library libpq could not be loaded (\(missing)"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "); install it (Debian/Ubuntu: apt-get install libpq5; macOS: brew install libpq) or name its file in "
          + "FLOWRUN_LIBPQ\n"), "\(result.stderr)")
  }

  #if canImport(Glibc)
    /// The HTTP API on loopback: the same JSON as `flowrun submissions`, 400 and 404 as JSON,
    /// and a clean exit on SIGTERM.
    @Test func serveAnswersTheAPIOnLoopback() throws {
      let directory = try TemporaryDirectory()
      let url = "sqlite:" + directory.path + "/submissions.db"
      let tag = TestDatabase.uniqueTag()
      _ = try dropOff(url, tag: tag)
      let server = try PipedChild(
        executable: flowrunExecutable().path, arguments: ["serve", "--store", url, "--port", "0"])
      try server.waitFor(substring: "/submissions\n")
      let port = try #require(
        server.stdout.split(separator: ":").last?.split(separator: "/").first.flatMap { UInt16($0) })
      let listed = try runFlowrun(["submissions", url, "--user-id", tag])
      let ok = try httpGet(port: port, target: "/submissions?user_id=\(tag)")
      #expect(ok.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(ok.contains("Content-Type: application/json"))
      #expect(ok.hasSuffix("\r\n\r\n" + listed.stdout), "\(ok)")
      let filtered = try httpGet(port: port, target: "/submissions?user_id=\(tag)&completed=true&limit=5&offset=0")
      #expect(filtered.hasSuffix("\r\n\r\n" + #"{"submissions":[],"total":0}"# + "\n"))
      let bad = try httpGet(port: port, target: "/submissions?limit=abc")
      #expect(bad.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
      #expect(bad.hasSuffix(#"{"error":"parameter 'limit' must be a whole number from 1 to 1000, not 'abc'"}"# + "\n"))
      let negative = try httpGet(port: port, target: "/submissions?offset=-5")
      #expect(negative.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
      let missing = try httpGet(port: port, target: "/other")
      #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
      #expect(missing.contains(#"{"error":"no such resource: /other"#))
      // Percent-decoding: `+` and %20 are spaces in a query.
      let decoded = try httpGet(port: port, target: "/submissions?user_id=no+such%20user")
      #expect(decoded.hasSuffix(#"{"submissions":[],"total":0}"# + "\n"))
      // Limits: a head over 16 KiB, a request that is not HTTP, a bad escape.
      let huge = try httpRequest(
        port: port, "GET /submissions HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n")
      #expect(huge.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
      #expect(try httpRequest(port: port, "HELLO\r\n\r\n").hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
      #expect(try httpGet(port: port, target: "/submissions?user_id=%zz").hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
      // The port is taken: exit 1 with the system's words.
      let second = try runFlowrun(["serve", "--store", url, "--port", String(port)])
      #expect(second.status == 1)
      #expect(second.stderr == "flowrun: cannot serve on 127.0.0.1:\(port): Address already in use\n")
      server.signal(SIGTERM)
      #expect(try server.waitForExit() == 0, "\(server.stderr)")
      #expect(server.stderr == "")
    }

    /// SIGTERM while a run waits for input: the run ends as `terminated` and the store holds the
    /// row of the last accepted input, intact.
    @Test func aSignalDuringARunLeavesTheStoreConsistent() throws {
      let directory = try TemporaryDirectory()
      let database = directory.path + "/submissions.db"
      let child = try PipedChild(
        executable: flowrunExecutable().path,
        arguments: ["run", Self.fitness, "--store", database, "--now", "2026-01-01T00:00:00Z", "--user", "sig"])
      child.send("1\nAlex\n1\n")
      try child.waitFor(substring: "(hours) · question")
      child.signal(SIGTERM)
      #expect(try child.waitForExit() == 1)
      let listed = try runFlowrun(["submissions", database, "--user-id", "sig"])
      #expect(listed.stdout.contains(#""data":{"name":"Alex"},"last_screen_id":"hours","last_screen_index":2"#))
      #expect(listed.stdout.hasSuffix(#""total":1}"# + "\n"))
      try sqliteExecute(database, "PRAGMA integrity_check")
    }

    /// On a terminal, a table; `--json` keeps the JSON.
    @Test func aTerminalGetsATable() throws {
      let directory = try TemporaryDirectory()
      let database = directory.path + "/submissions.db"
      _ = try dropOff(database, tag: "tty")
      let table = try PseudoTerminal(
        executable: flowrunExecutable().path, arguments: ["submissions", database],
        environment: ["TERM": "xterm", "NO_COLOR": "1"])
      let shown = try table.waitFor(substring: "1 of 1 submission")
      #expect(shown.contains("CREATED"))
      #expect(shown.contains(#"hours #2"#))
      #expect(shown.contains(#"{"name":"Alex"}"#))
      #expect(try table.waitForExit() == .exited(0))
      let json = try PseudoTerminal(
        executable: flowrunExecutable().path, arguments: ["submissions", database, "--json"],
        environment: ["TERM": "xterm", "NO_COLOR": "1"])
      #expect(try json.waitFor(substring: #""total":1}"#).contains(#"{"submissions":[{"id":""#))
      #expect(try json.waitForExit() == .exited(0))
    }

    /// One HTTP/1.1 GET over a plain socket; the whole response (the server closes).
    func httpGet(port: UInt16, target: String) throws -> String {
      try httpRequest(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }

    /// Sends `text` over a plain socket and reads until the server closes.
    func httpRequest(port: UInt16, _ text: String) throws -> String {
      struct Failure: Error { var what: String }
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw Failure(what: "socket") }
      defer { close(fd) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw Failure(what: "connect") }
      let request = Array(text.utf8)
      guard write(fd, request, request.count) == request.count else { throw Failure(what: "write") }
      var response: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        response += buffer[0..<count]
      }
      return String(decoding: response, as: UTF8.self)
    }
  #endif
}
