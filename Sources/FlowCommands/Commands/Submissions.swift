import ArgumentParser
import FlowRender
import FlowStore
import FlowSupport
import FlowTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Flowrun {
  /// `flowrun submissions URL`: the Submissions API's answer, from the store itself.
  struct Submissions: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "submissions",
      abstract: "List stored submissions as the Submissions API answers (JSON; a table on a terminal).",
      discussion: """
        Prints {"submissions": [...], "total": N} exactly as GET /submissions answers, newest \
        first (docs/submissions.md); on a terminal a table instead, unless --json. Exits 0, 1 \
        when the store cannot be opened or read, 64 on wrong usage.
        """
    )

    @Argument(help: ArgumentHelp("sqlite:PATH, a file path or postgres://….", valueName: "url"))
    var store: Checked<StoreLocation>

    @Option(
      name: .customLong("flow-id"), help: ArgumentHelp("Only this flow (its id or flow_id UUID).", valueName: "id"))
    var flowID: String?

    @Option(name: .customLong("user-id"), help: ArgumentHelp("Only this user.", valueName: "id"))
    var userID: String?

    @Flag(help: "Only completed submissions.")
    var completed = false

    @Flag(help: "Only incomplete submissions.")
    var incomplete = false

    @Option(help: ArgumentHelp("At most N rows, 1 to 1000 (default: 100).", valueName: "n"))
    var limit: String?

    @Option(help: ArgumentHelp("Skip the first N rows (default: 0).", valueName: "n"))
    var offset: String?

    @Flag(help: "Print the JSON on a terminal too.")
    var json = false

    func validate() throws {
      _ = try store.get()
      _ = try query()
    }

    /// The options as the API's query parameters, checked as the server checks them.
    func query() throws -> SubmissionQuery {
      var pairs: [(name: String, value: String)] = []
      if let flowID { pairs.append(("flow_id", flowID)) }
      if let userID { pairs.append(("user_id", userID)) }
      if completed { pairs.append(("completed", "true")) }
      if incomplete { pairs.append(("incomplete", "true")) }
      if let limit { pairs.append(("limit", limit)) }
      if let offset { pairs.append(("offset", offset)) }
      switch SubmissionQuery.parse(pairs, spelled: { "--" + $0.replacing("_", with: "-") }) {
      case .success(let query): return query
      case .failure(let problem): throw ValidationError(problem.message)
      }
    }

    func run() throws {
      let query = try query()
      let shared = try store.get().open(creates: false)
      let page: SubmissionPage
      do throws(StoreError) { page = try shared.page(query) } catch {
        Output.error.write("flowrun: \(error.message)\n")
        throw ExitCode(1)
      }
      if json || !TerminalInfo.isTTY(STDOUT_FILENO) {
        Output.standard.write(page.json + "\n")
      } else {
        Output.standard.write(terminalSafe(SubmissionTable.text(page)))
      }
    }
  }
}
