import FlowEngine
import FlowExpression
import FlowFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--hook-command CMD`: a program that answers `onBeforeStepAdvance`. It reads the request as
/// one JSON object on stdin and prints the result JSON on stdout (docs/dialects/appdna.md,
/// "Hooks"). It runs without a shell, in its own process group, killed with the group when it
/// outlives `timeoutMs`. Whatever goes wrong (it cannot start, exits non-zero, prints no JSON
/// or no result, times out) answers `.failed`, which proceeds normally (document 001).
public struct HookCommand: Hashable, Sendable {
  /// The program and its arguments.
  public var argv: [String]
  public var timeoutMs: Int

  public static let defaultTimeoutMs = 5000
  /// More output than any result needs: the rest is not read and the answer fails.
  static let outputLimit = 1 << 20

  public init(argv: [String], timeoutMs: Int = HookCommand.defaultTimeoutMs) {
    self.argv = argv
    self.timeoutMs = timeoutMs
  }

  /// Splits a command line into words at unquoted blanks; '…' and "…" quote (no escapes, no
  /// variables, no globbing). Nil for an empty command or an unclosed quote.
  public static func split(_ text: String) -> [String]? {
    var words: [String] = []
    var word: String?
    var quote: Character?
    for c in text {
      if let open = quote {
        if c == open { quote = nil } else { word!.append(c) }
      } else if c == "'" || c == "\"" {
        quote = c
        word = word ?? ""
      } else if c.isWhitespace {
        if let done = word { words.append(done) }
        word = nil
      } else {
        word = (word ?? "") + String(c)
      }
    }
    guard quote == nil else { return nil }
    if let done = word { words.append(done) }
    return words.isEmpty ? nil : words
  }

  /// Runs the command for `request` and reads its answer.
  public func answer(_ request: HookRequest) -> HookAnswer {
    let name = argv[0]
    switch run(input: request.value.json + "\n") {
    case .failure(let reason):
      return .failed(reason: "\(name) \(reason)")
    case .success(let output):
      let text = output.trimmingWhitespace
      guard !text.isEmpty else { return .failed(reason: "\(name) printed no result") }
      guard let value = JSONBridge.value(parsing: text) else {
        return .failed(reason: "\(name) printed no JSON: \(text.prefix(80))")
      }
      switch HookAnswer.parse(value) {
      case .success(let answer): return answer
      case .failure(let error): return .failed(reason: "\(name): \(error.message)")
      }
    }
  }

  /// The command's stdout when it exits 0 within the timeout.
  private func run(input: String) -> Result<String, HookAnswerError> {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { return .failure(HookAnswerError("could not start: no pipe")) }
    guard pipe(&fromChild) == 0 else {
      close(toChild[0])
      close(toChild[1])
      return .failure(HookAnswerError("could not start: no pipe"))
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    var pid: pid_t = 0
    let rc = cArgs.withUnsafeBufferPointer { args in
      posix_spawnp(&pid, argv[0], &actions, &attributes, UnsafeMutablePointer(mutating: args.baseAddress!), environ)
    }
    close(toChild[0])
    close(fromChild[1])
    guard rc == 0 else {
      close(toChild[1])
      close(fromChild[0])
      return .failure(HookAnswerError("could not start: \(String(cString: strerror(rc)))"))
    }
    let (writeEnd, readEnd) = (toChild[1], fromChild[0])
    for fd in [writeEnd, readEnd] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    let outcome = exchange(pid: pid, input: Array(input.utf8), writeEnd: writeEnd, readEnd: readEnd)
    close(readEnd)
    if case .failure = outcome {
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
    }
    return outcome
  }

  /// Feeds the input, reads stdout to its end, then waits for the exit, all before the deadline.
  private func exchange(pid: pid_t, input: [UInt8], writeEnd: Int32, readEnd: Int32) -> Result<String, HookAnswerError>
  {
    let deadline = Self.milliseconds() + Int64(timeoutMs)
    var writeFD: Int32? = writeEnd
    var written = 0
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var outputOpen = true
    func closeInput() {
      if let fd = writeFD { close(fd) }
      writeFD = nil
    }
    defer { closeInput() }
    while outputOpen {
      let left = deadline - Self.milliseconds()
      guard left > 0 else { return .failure(HookAnswerError("timed out after \(timeoutMs) ms")) }
      var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
      if let fd = writeFD { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
      guard poll(&fds, nfds_t(fds.count), Int32(min(left, 1000))) >= 0 || errno == EINTR else {
        return .failure(HookAnswerError("could not be read"))
      }
      if fds.count > 1, fds[1].revents != 0 {
        let n = input[written...].withUnsafeBytes { write(writeFD!, $0.baseAddress, $0.count) }
        if n > 0 { written += n }
        // A command that does not read its input (or closed it) is not an error.
        if n < 0 && errno != EAGAIN || written == input.count { closeInput() }
      }
      if fds[0].revents != 0 {
        let n = read(readEnd, &buffer, buffer.count)
        if n > 0 {
          output += buffer[..<n]
          guard output.count <= Self.outputLimit else {
            return .failure(HookAnswerError("printed more than \(Self.outputLimit) bytes"))
          }
        } else if n == 0 || errno != EAGAIN && errno != EINTR {
          outputOpen = false
        }
      }
    }
    closeInput()
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      guard Self.milliseconds() < deadline else { return .failure(HookAnswerError("timed out after \(timeoutMs) ms")) }
      usleep(2000)
    }
    let exited = status & 0x7f == 0
    guard exited else { return .failure(HookAnswerError("was killed by signal \(status & 0x7f)")) }
    let code = (status >> 8) & 0xff
    guard code == 0 else { return .failure(HookAnswerError("exited with status \(code)")) }
    return .success(String(decoding: output, as: UTF8.self))
  }

  private static func milliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }
}
