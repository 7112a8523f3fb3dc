import Foundation

/// What one run of the built `flowrun` binary produced.
public struct ProcessOutput: Sendable {
  public var stdout: String
  public var stderr: String
  public var status: Int32
}

/// The built `flowrun` executable: next to the test bundle, else in `.build/debug`.
public func flowrunExecutable() -> URL {
  let besideTests = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("flowrun")
  if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
  return packageRoot().appendingPathComponent(".build/debug/flowrun")
}

/// Runs `flowrun` with `arguments` in `directory` (default: the package root), feeding
/// `stdin`, and kills it after `timeout` seconds so a hang fails the test instead of CI.
public func runFlowrun(
  _ arguments: [String],
  stdin: String = "",
  directory: URL? = nil,
  environment: [String: String] = [:],
  timeout: TimeInterval = 60
) throws -> ProcessOutput {
  try runProgram(
    flowrunExecutable(), arguments, stdin: stdin, directory: directory, environment: environment, timeout: timeout)
}

/// Runs any program as `runFlowrun` runs flowrun (stdin fed, stdout and stderr captured,
/// killed after `timeout` seconds).
public func runProgram(
  _ executable: URL,
  _ arguments: [String],
  stdin: String = "",
  directory: URL? = nil,
  environment: [String: String] = [:],
  timeout: TimeInterval = 60
) throws -> ProcessOutput {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory ?? packageRoot()
  var env = ProcessInfo.processInfo.environment
  env["NO_COLOR"] = "1"
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let input = Pipe()
  let output = Pipe()
  let error = Pipe()
  process.standardInput = input
  process.standardOutput = output
  process.standardError = error
  // A command that does not read its input (`render`) may end before it is written: the write
  // then fails with EPIPE, which must not kill the test process with SIGPIPE.
  signal(SIGPIPE, SIG_IGN)
  try process.run()
  let writer = Thread {
    try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
    try? input.fileHandleForWriting.close()
  }
  writer.start()
  let deadline = DispatchTime.now() + timeout
  let timer = DispatchSource.makeTimerSource()
  timer.schedule(deadline: deadline)
  timer.setEventHandler { if process.isRunning { process.terminate() } }
  timer.resume()
  // Drain stderr on its own thread: a full pipe must never block the child.
  let errBox = DataBox()
  let errDone = DispatchSemaphore(value: 0)
  Thread {
    errBox.data = error.fileHandleForReading.readDataToEndOfFile()
    errDone.signal()
  }.start()
  let out = output.fileHandleForReading.readDataToEndOfFile()
  errDone.wait()
  let err = errBox.data
  process.waitUntilExit()
  timer.cancel()
  return ProcessOutput(
    stdout: String(decoding: out, as: UTF8.self),
    stderr: String(decoding: err, as: UTF8.self),
    status: process.terminationStatus)
}

private final class DataBox: @unchecked Sendable {
  var data = Data()
}

/// Runs `flowrun` with its standard output a pipe nobody reads (the read end is closed before
/// the child starts, as after `| head -1`): every write to stdout fails with EPIPE, or kills the
/// process with SIGPIPE (status 141 in a shell) unless flowrun ignores the signal. stderr is
/// captured; `status` is the exit status, or 128 + the signal number when a signal ended it.
public func runFlowrunWithClosedStdout(
  _ arguments: [String], directory: URL? = nil, timeout: TimeInterval = 120
) throws -> ProcessOutput {
  let process = Process()
  process.executableURL = flowrunExecutable()
  process.arguments = arguments
  process.currentDirectoryURL = directory ?? packageRoot()
  var env = ProcessInfo.processInfo.environment
  env["NO_COLOR"] = "1"
  process.environment = env
  let output = Pipe()
  let error = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = error
  try output.fileHandleForReading.close()
  try process.run()
  try? output.fileHandleForWriting.close()
  let timer = DispatchSource.makeTimerSource()
  timer.schedule(deadline: .now() + timeout)
  timer.setEventHandler { if process.isRunning { process.terminate() } }
  timer.resume()
  let err = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  timer.cancel()
  let status =
    process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  return ProcessOutput(stdout: "", stderr: String(decoding: err, as: UTF8.self), status: status)
}
