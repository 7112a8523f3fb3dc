import ArgumentParser
import FlowStore
import FlowSupport

extension Flowrun {
  /// `flowrun serve --store URL [--port N]`: the Submissions API on 127.0.0.1.
  struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Answer the Submissions API (GET /submissions) over HTTP on 127.0.0.1.",
      discussion: """
        Prints `listening on http://127.0.0.1:PORT/submissions` once it accepts connections, \
        then serves until SIGINT, SIGTERM or SIGHUP (the request in progress finishes; exit 0). \
        Exits 1 when the store cannot be opened or the port cannot be bound, 64 on wrong usage. \
        See docs/submissions.md.
        """
    )

    @Option(help: ArgumentHelp("sqlite:PATH, a file path or postgres://….", valueName: "url"))
    var store: Checked<StoreLocation>

    @Option(help: ArgumentHelp("The TCP port, 0 to 65535 (default: 8787; 0: one the system chooses).", valueName: "n"))
    var port: Checked<Port> = Checked(Port(value: 8787))

    func validate() throws {
      _ = try store.get()
      _ = try port.get()
    }

    func run() throws {
      let submissions = try store.get().open(creates: true)
      let port = try port.get().value
      StopSignals.startCatching()
      defer { StopSignals.stopCatching() }
      let server: LoopbackHTTPServer
      do throws(LoopbackHTTPServer.Failure) { server = try LoopbackHTTPServer(port: UInt16(port)) } catch {
        Output.error.write("flowrun: cannot serve on 127.0.0.1:\(port): \(error.message)\n")
        throw ExitCode(1)
      }
      Output.standard.write("listening on http://127.0.0.1:\(server.port)/submissions\n")
      server.serve(shouldStop: { StopSignals.pending != nil }) { request in
        SubmissionAPI.respond(to: request, store: submissions)
      }
    }
  }
}
