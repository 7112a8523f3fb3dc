import Foundation

/// Runs `script` with `bash -c` in `directory` (default: the package root), `$FLOWRUN` set to
/// the built binary: for the pipelines of the issues as a user types them
/// (`yes 1 | "$FLOWRUN" run F | head -1`, `>&- 2>&-`, `<(…)`). GNU `timeout` ends the whole
/// pipeline after `timeout` seconds (it signals its process group; status 124), so a hang
/// fails the test instead of stalling CI.
public func runPipeline(_ script: String, directory: URL? = nil, timeout: Int = 30) throws -> ProcessOutput {
  try runProgram(
    URL(fileURLWithPath: "/usr/bin/timeout"), ["--kill-after=5", String(timeout), "/bin/bash", "-c", script],
    directory: directory, environment: ["FLOWRUN": flowrunExecutable().path], timeout: TimeInterval(timeout + 20))
}
