import ArgumentParser
import FlowTerminal

/// The `flowrun` command: a thin shell over the Flow* libraries, one subcommand per file.
@main
struct Flowrun: ParsableCommand {
  static let version = "0.1.0"

  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Run, test and analyse server-driven onboarding flows in the terminal.",
    discussion: """
      Exit codes: 0 success; 1 a test or expectation failed, check found an error, or a run \
      ended blocked; 2 a flow or script could not be read or parsed; 64 wrong usage.
      """,
    version: "flowrun \(version)",
    subcommands: [Run.self, Test.self, Check.self, Graph.self, Paths.self, Render.self]
  )

  /// The one entry point of every command: standard output is prepared first (SIGPIPE
  /// ignored, so `flowrun … | head -1` ends writing quietly instead of killing the process
  /// before report files are written), then the arguments are parsed and the command runs.
  static func main() {
    TerminalInfo.prepareStandardOutput()
    if CommandLine.arguments.count <= 1 {
      // No command at all is wrong usage (64, the spec), not a request for help (0).
      Output.error.write("Error: missing command\n\n" + helpMessage() + "\n")
      exit(withError: ExitCode(64))
    }
    main(nil)
  }
}
