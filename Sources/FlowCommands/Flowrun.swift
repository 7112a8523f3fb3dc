import ArgumentParser
import FlowSupport

/// What the `flowrun` executable runs (Sources/flowrun/main.swift). The command line is a
/// library so that its tests link it without the executable's release-only linker settings
/// (Package.swift: the static Swift runtime, which has no static swift-testing to link with).
public enum CommandLineTool {
  public static func main() { Flowrun.main() }
}

/// The `flowrun` command: a thin shell over the Flow* libraries, one subcommand per file.
struct Flowrun: ParsableCommand {
  static let version = "0.1.0"
  /// What `--version` prints.
  static let versionLine = "flowrun \(version)"

  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Run, test and analyse server-driven onboarding flows in the terminal.",
    discussion: """
      Exit codes: 0 success; 1 a test or expectation failed, check found an error, or a run \
      ended blocked; 2 a flow or script could not be read or parsed; 64 wrong usage.
      """,
    version: versionLine,
    // Each subcommand names itself (`commandName`): ArgumentParser's default spells the type
    // with `String(describing:)`, whose protocol look-ups cost 0.5 M instructions a command
    // (17 M, a third of a small `check`) at every start.
    subcommands: [
      Run.self, Test.self, Check.self, Graph.self, Paths.self, Render.self, Campaign.self, Submissions.self, Serve.self,
      Schema.self, Diff.self, Simulate.self,
    ]
  )

  /// The one entry point of every command: the standard descriptors are prepared first
  /// (closed ones reopened on /dev/null so no output file inherits them; SIGPIPE ignored, so
  /// `flowrun … | head -1` ends writing quietly instead of killing the process before report
  /// files are written), then the arguments are parsed and the command runs. Standard output
  /// that failed for another reason than its reader leaving (`> /dev/full`) is said on stderr
  /// and makes the exit code 1 at least.
  static func main() {
    StandardStreams.prepare()
    if CommandLine.arguments.count <= 1 {
      // No command at all is wrong usage (64, the spec), not a request for help (0).
      Output.error.write("Error: missing command\n\n" + helpMessage() + "\n")
      exit(withError: ExitCode(64))
    }
    if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
      // Said before ArgumentParser runs: its first parse scans the runtime's protocol
      // conformances (more than half of start-up's instructions), which the version needs not.
      Output.standard.write(versionLine + "\n")
      finish(nil)
    }
    do {
      var command = try parseAsRoot()
      try command.run()
      finish(nil)
    } catch {
      finish(error)
    }
  }

  /// Ends the process as `failure` says (nil: success), unless standard output lost text
  /// (`> /dev/full`): that is said on stderr and the exit code is 1 at least.
  static func finish(_ failure: (any Error)?) -> Never {
    if Output.standard.channel.lostOutput, let code = Output.standard.channel.failure {
      Output.error.write("flowrun: cannot write to standard output: \(systemMessage(code))\n")
      let status = failure.map { exitCode(for: $0).rawValue } ?? 0
      exit(withError: ExitCode(max(1, status)))
    }
    exit(withError: failure)
  }
}
