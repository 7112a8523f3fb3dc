#if canImport(Glibc)
  import Glibc

  /// Runs a program on a real pseudo-terminal, for tests of interactive behaviour
  /// (libedit prompts, Tab completion, Ctrl-C, Ctrl-D).
  ///
  /// The child gets the pty's slave side as stdin, stdout and stderr, in a new session
  /// (`setsid`) whose controlling terminal is that pty, so the line discipline works as in a
  /// real terminal: typed text is echoed, `"\u{3}"` (Ctrl-C) sends SIGINT to the child's
  /// process group, `"\u{4}"` (Ctrl-D) ends a line in canonical mode, and libedit sees a TTY.
  /// Output is read from the master side. Every wait has a timeout; on a timeout the child is
  /// killed (SIGKILL) and the call throws, so a test never hangs. `deinit` kills a child that
  /// is still running.
  ///
  /// A libedit test of `flowrun run` will look like:
  ///
  ///     let home = try makeTemporaryDirectory()
  ///     let term = try PseudoTerminal(
  ///       executable: flowrunPath, arguments: ["run", "Fixtures/welcome.json"],
  ///       environment: ["HOME": home, "TERM": "xterm", "PATH": "/usr/bin:/bin"])
  ///     try term.waitFor(substring: "> ")
  ///     term.send("sta\t")                 // Tab completes "start"
  ///     term.send("\r")                    // Enter is CR on a terminal
  ///     try term.waitFor(substring: "Start") // what flowrun printed for the answer
  ///     term.send("\u{4}")                 // Ctrl-D ends the session
  ///     #expect(try term.waitForExit() == .exited(1))
  ///
  /// Output contains what the terminal would show, escape sequences included, with `\r\n`
  /// line ends. libedit redraws a completed word with cursor moves (`"sto\r\u{1b}[12Gp"`
  /// for "stop"), so wait for what the program prints after Enter rather than for the echo.
  /// A Ctrl-C sent in the same `send` as text discards that text (the tty flushes its input
  /// queue on SIGINT). Not `Sendable`: use one instance from one test.
  public final class PseudoTerminal {
    /// How the child ended.
    public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
      case exited(Int32)
      case signaled(Int32)

      public var description: String {
        switch self {
        case .exited(let code): "exited(\(code))"
        case .signaled(let signal): "signaled(\(signal))"
        }
      }
    }

    public struct Failure: Error, CustomStringConvertible {
      public var description: String
    }

    /// The child's process id.
    public let processID: pid_t
    /// Everything read from the terminal so far, decoded as UTF-8.
    public var output: String { String(decoding: outputBytes, as: UTF8.self) }
    /// The output after the end of the last `waitFor(substring:)` match.
    public var unconsumedOutput: String {
      String(decoding: outputBytes[consumed...], as: UTF8.self)
    }

    private let master: Int32
    private var outputBytes: [UInt8] = []
    private var consumed = 0
    private var exitStatus: ExitStatus?
    private var masterAtEnd = false

    /// Starts `executable` (an absolute path) with `arguments` and exactly `environment`
    /// (nothing is inherited) on a new pty of `rows` x `columns`.
    public init(
      executable: String,
      arguments: [String] = [],
      environment: [String: String] = ["TERM": "xterm", "PATH": "/usr/bin:/bin"],
      rows: UInt16 = 24,
      columns: UInt16 = 80
    ) throws {
      // posix_openpt/grantpt/unlockpt/ptsname are not visible through Swift's Glibc module,
      // so do what they do on Linux: open /dev/ptmx, unlock, and ask for the pts number.
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard master >= 0 else { throw Failure(description: "open /dev/ptmx: \(Self.errorText())") }
      var unlock: Int32 = 0
      var number: UInt32 = 0
      guard ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
        let message = Self.errorText()
        close(master)
        throw Failure(description: "unlocking the pty: \(message)")
      }
      let slavePath = "/dev/pts/\(number)"
      var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(master, UInt(TIOCSWINSZ), &size)

      // posix_spawn, not fork: the test process has many threads. With POSIX_SPAWN_SETSID
      // glibc calls setsid() before the file actions, so opening the slave (without
      // O_NOCTTY) as fd 0 makes it the child's controlling terminal (Linux does this on open
      // for a session leader without one, which spares us TIOCSCTTY).
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
      posix_spawn_file_actions_adddup2(&actions, 0, 1)
      posix_spawn_file_actions_adddup2(&actions, 0, 2)

      let setsidFlag: Int16 = 0x80  // POSIX_SPAWN_SETSID (glibc >= 2.26)
      var pid: pid_t = 0
      let result = spawnWithDefaultSignals(
        &pid, executable, arguments, environment: environment, actions: &actions, flags: setsidFlag)
      guard result == 0 else {
        close(master)
        throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
      }
      self.master = master
      self.processID = pid
    }

    deinit {
      if exitStatus == nil {
        kill(processID, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(processID, &status, 0)
      }
      close(master)
    }

    /// Types `text` as keystrokes: `"\r"` is Enter, `"\t"` Tab, `"\u{3}"` Ctrl-C,
    /// `"\u{4}"` Ctrl-D, `"\u{1b}[A"` the Up arrow.
    public func send(_ text: String) {
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        if written < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return  // the child is gone; waitForExit reports how
        }
        bytes = bytes.dropFirst(written)
      }
    }

    /// Changes the terminal size; the kernel sends SIGWINCH to the child.
    public func resize(rows: UInt16, columns: UInt16) {
      var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Reads until `substring` appears in the output after the previous match, and returns
    /// the output up to and including it (which then counts as consumed). Throws, after
    /// killing the child, when `timeout` passes first or the child closed the terminal.
    @discardableResult
    public func waitFor(substring: String, timeout: Duration = .seconds(10)) throws -> String {
      let needle = Array(substring.utf8)
      let deadline = ContinuousClock.now + timeout
      while true {
        if let range = Self.firstRange(of: needle, in: outputBytes, from: consumed) {
          let text = String(decoding: outputBytes[consumed..<range.upperBound], as: UTF8.self)
          consumed = range.upperBound
          return text
        }
        if masterAtEnd {
          throw Failure(
            description:
              "terminal closed before \(String(reflecting: substring)) appeared; output: \(String(reflecting: unconsumedOutput))"
          )
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
          killAfterTimeout()
          throw Failure(
            description:
              "timed out after \(timeout) waiting for \(String(reflecting: substring)); output: \(String(reflecting: unconsumedOutput))"
          )
        }
        readAvailable(waitingAtMost: remaining)
      }
    }

    /// Waits for the child to exit while draining its output (so it never blocks on a full
    /// terminal buffer). Throws, after killing the child, when `timeout` passes first.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) throws -> ExitStatus {
      let deadline = ContinuousClock.now + timeout
      while true {
        if let exitStatus { return exitStatus }
        if reap(blocking: false) != nil {
          readAvailable(waitingAtMost: .zero)  // what it wrote last
          return exitStatus!
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
          killAfterTimeout()
          throw Failure(
            description: "timed out after \(timeout) waiting for exit; output: \(String(reflecting: unconsumedOutput))")
        }
        // Poll in short steps: the master may stay open (and silent) after the child exits.
        readAvailable(waitingAtMost: min(remaining, .milliseconds(20)))
      }
    }

    /// Kills the child with `signal` (SIGKILL by default) and waits for it.
    @discardableResult
    public func terminate(signal: Int32 = SIGKILL) -> ExitStatus {
      if let exitStatus { return exitStatus }
      kill(processID, signal)
      return reap(blocking: true)!
    }

    // MARK: - Private

    private func killAfterTimeout() {
      if exitStatus == nil { terminate() }
    }

    private func reap(blocking: Bool) -> ExitStatus? {
      if let exitStatus { return exitStatus }
      var status: Int32 = 0
      var result: pid_t
      repeat {
        result = waitpid(processID, &status, blocking ? 0 : WNOHANG)
      } while result < 0 && errno == EINTR
      guard result == processID else { return nil }
      // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
      let signal = status & 0x7f
      exitStatus = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
      return exitStatus
    }

    /// Waits up to `timeout` for output, then reads all that is available.
    private func readAvailable(waitingAtMost timeout: Duration) {
      guard !masterAtEnd else { return }
      let (seconds, attoseconds) = timeout.components
      let milliseconds = max(0, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      var waitFor = milliseconds
      var buffer = [UInt8](repeating: 0, count: 4096)
      while poll(&descriptor, 1, waitFor) > 0 {
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 {
          outputBytes.append(contentsOf: buffer[..<count])
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          masterAtEnd = true  // EIO: every slave descriptor is closed
          return
        }
        waitFor = 0
      }
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Range<Int>? {
      guard !needle.isEmpty else { return start..<start }
      guard haystack.count - start >= needle.count else { return nil }
      for index in start...(haystack.count - needle.count)
      where haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index..<(index + needle.count)
      }
      return nil
    }

    // _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int): macros Swift cannot import.
    private static let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
    private static let getNumber: UInt = 0x8004_5430  // TIOCGPTN

    private static func errorText() -> String {
      String(cString: strerror(errno))
    }
  }
#endif
