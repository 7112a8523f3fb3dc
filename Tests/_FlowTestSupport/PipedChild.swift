#if canImport(Glibc)
  import Glibc

  /// Runs a program with pipes for stdin, stdout and stderr, for tests that act on a child
  /// while it runs: wait until it printed something, send it a signal, keep its input open.
  ///
  /// The child starts with every signal at its default action and none blocked (a test
  /// process may block or ignore some; flowrun must see SIGTERM as a shell would send it).
  /// Every wait has a timeout; on a timeout the child is killed (SIGKILL) and the call throws,
  /// so a test never hangs. `deinit` kills a child that is still running. Not `Sendable`.
  public final class PipedChild {
    public struct Failure: Error, CustomStringConvertible {
      public var description: String
    }

    /// How the child ended: its exit code, or 128 + the signal that killed it (as a shell says).
    public private(set) var status: Int32?
    public let processID: pid_t
    /// Everything the child wrote so far.
    public var stdout: String { String(decoding: outputs[0], as: UTF8.self) }
    public var stderr: String { String(decoding: outputs[1], as: UTF8.self) }

    private var input: Int32
    private var readers: [Int32]
    private var outputs: [[UInt8]] = [[], []]

    /// Starts `executable` (an absolute path) with `arguments`; the environment is this
    /// process's plus `environment`.
    public init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
      var stdinPipe: [Int32] = [0, 0]
      var stdoutPipe: [Int32] = [0, 0]
      var stderrPipe: [Int32] = [0, 0]
      guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
        throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
      }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
      posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
      posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
      for fd in stdinPipe + stdoutPipe + stderrPipe { posix_spawn_file_actions_addclose(&actions, fd) }
      var variables: [String: String] = [:]
      var cursor = environ
      while let entry = cursor.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
          variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        cursor += 1
      }
      variables["NO_COLOR"] = "1"
      for (key, value) in environment { variables[key] = value }
      var pid: pid_t = 0
      let result = spawnWithDefaultSignals(&pid, executable, arguments, environment: variables, actions: &actions)
      close(stdinPipe[0])
      close(stdoutPipe[1])
      close(stderrPipe[1])
      guard result == 0 else {
        for fd in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] { close(fd) }
        throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
      }
      processID = pid
      input = stdinPipe[1]
      readers = [stdoutPipe[0], stderrPipe[0]]
    }

    deinit {
      if status == nil {
        kill(processID, SIGKILL)
        var raw: Int32 = 0
        _ = waitpid(processID, &raw, 0)
      }
      closeInput()
      for fd in readers where fd >= 0 { close(fd) }
    }

    /// Writes `text` to the child's stdin (a child that is gone is not an error here).
    public func send(_ text: String) {
      guard input >= 0 else { return }
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        bytes = bytes.dropFirst(written)
      }
    }

    /// Closes the child's stdin (its end of input).
    public func closeInput() {
      if input >= 0 { close(input) }
      input = -1
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
      kill(processID, signal)
    }

    /// Reads until `substring` is in stdout; throws (after killing the child) after `timeout`
    /// or when stdout ended first.
    public func waitFor(substring: String, timeout: Duration = .seconds(20)) throws {
      let deadline = ContinuousClock.now + timeout
      while !stdout.contains(substring) {
        guard readers[0] >= 0 else {
          throw Failure(description: "stdout ended before \(String(reflecting: substring)): \(stdout.suffix(500))")
        }
        guard ContinuousClock.now < deadline else {
          kill(processID, SIGKILL)
          throw Failure(description: "timed out waiting for \(String(reflecting: substring)): \(stdout.suffix(500))")
        }
        readAvailable(waitingAtMost: 50)
      }
    }

    /// Waits for the child to exit, reading all it writes; returns `status`. Throws (after
    /// killing the child) when `timeout` passes first.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32 {
      let deadline = ContinuousClock.now + timeout
      while true {
        if let status = exitStatus() { return status }
        guard ContinuousClock.now < deadline else {
          kill(processID, SIGKILL)
          throw Failure(description: "the child did not exit within \(timeout); stdout: \(stdout.suffix(500))")
        }
        readAvailable(waitingAtMost: 20)
      }
    }

    /// The child's `status` once it has exited (then with all it wrote read), else nil at once.
    public func exitStatus() -> Int32? {
      if let status { return status }
      var raw: Int32 = 0
      guard waitpid(processID, &raw, WNOHANG) == processID else { return nil }
      while readers.contains(where: { $0 >= 0 }) { readAvailable(waitingAtMost: 50) }
      let signal = raw & 0x7f
      status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
      return status
    }

    /// Reads what stdout and stderr hold, waiting up to `milliseconds` for something.
    private func readAvailable(waitingAtMost milliseconds: Int32) {
      var descriptors = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 65536)
      for index in readers.indices where readers[index] >= 0 && descriptors[index].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(readers[index], $0.baseAddress, $0.count) }
        if count > 0 {
          outputs[index] += buffer[..<count]
        } else if count == 0 || errno != EINTR {
          close(readers[index])
          readers[index] = -1
        }
      }
    }
  }

  /// posix_spawn with `arguments` and exactly `environment`, every signal at its default
  /// action and none blocked (a test process may block or ignore some; the child must see them
  /// as a shell would send them), plus `flags`. Returns posix_spawn's result.
  func spawnWithDefaultSignals(
    _ pid: inout pid_t, _ executable: String, _ arguments: [String], environment: [String: String],
    actions: inout posix_spawn_file_actions_t, flags: Int16 = 0
  ) -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)  // unblock everything
    posix_spawnattr_setsigdefault(&attributes, &allSignals)  // no inherited SIG_IGN
    posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    return posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
  }
#endif
