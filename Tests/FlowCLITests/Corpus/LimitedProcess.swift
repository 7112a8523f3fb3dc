import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a program under the corpus's limits: a wall-clock deadline (the process is
/// killed when it passes) and an address-space limit (`prlimit --as`: an allocation past it
/// fails inside the child, which then ends by a signal or a fatal error, never taking the
/// machine). Address space bounds resident memory from above, so a run that ends cleanly
/// stayed under the limit.
///
/// The peak resident memory is sampled from `/proc/PID/status` (`VmHWM`, once the process is
/// the program itself) for the report. `wait4`'s `ru_maxrss` cannot serve: `posix_spawn`
/// starts the child in the parent's memory (vfork), and Linux carries that memory's peak,
/// the test runner's, into the child's `ru_maxrss` when it executes the program.
///
/// Spawned with `posix_spawn` through `env -C DIR`, `setpriv` (for another user) and
/// `prlimit`, which all replace themselves with the next program, so the process waited
/// for is the program itself.
struct LimitedProcess {
  enum Input: Sendable {
    /// `/dev/null`.
    case null
    /// A file, opened read-only as descriptor 0.
    case file(String)
    /// A pipe fed with these bytes, closed after them, or kept open until the process ends
    /// (so a run waits for more input, as a person at a keyboard would).
    case bytes([UInt8], keepOpen: Bool)
    /// A pipe fed with these bytes over and over until the process stops reading (`yes 1`).
    case endless([UInt8])
  }

  enum Output: Sendable {
    /// A pipe the runner reads (`Captured`).
    case capture
    /// Closed at start (`>&-`).
    case closed
    /// A file opened for writing (`> /dev/full`).
    case file(String)
    /// A pipe whose reader leaves after the first line (`| head -1`).
    case firstLineOnly
  }

  var executable: String
  var arguments: [String]
  var directory: String
  var environment: [String: String]
  var stdin: Input = .null
  var stdout: Output = .capture
  var stderr: Output = .capture
  /// Sent once the process has written something and then been quiet for a moment (it waits
  /// for input), or 0.3 s after the start when standard output is not captured: the signal
  /// cases of the issues.
  var signal: Int32?
  /// Run as this user and group (a file with mode 000 is readable by root).
  var user: (uid: UInt32, gid: UInt32)?
  var seconds: Double
  var memoryBytes: Int

  /// What a process wrote on one descriptor: the first 4 MiB and the last 2 MiB (where a
  /// run's closing words are), and how much in all.
  struct Captured {
    static let headLimit = 4 << 20
    static let tailLimit = 2 << 20

    var head: [UInt8] = []
    var tail: [UInt8] = []
    var count = 0

    mutating func append(_ chunk: ArraySlice<UInt8>) {
      count += chunk.count
      let room = Self.headLimit - head.count
      head += chunk.prefix(max(0, room))
      guard chunk.count > room else { return }
      tail += chunk.dropFirst(max(0, room))
      if tail.count > 2 * Self.tailLimit { tail.removeFirst(tail.count - Self.tailLimit) }
    }

    /// The bytes kept, the head then the tail.
    var bytes: [UInt8] { head + tail.suffix(Self.tailLimit) }
  }

  struct Result {
    var stdout = Captured()
    var stderr = Captured()
    /// The exit status, when the process exited.
    var exitCode: Int32?
    /// The signal that ended the process, when one did.
    var terminatingSignal: Int32?
    var seconds = 0.0
    /// The largest `VmHWM` sampled (every few milliseconds while the program ran).
    var peakResidentBytes = 0
    var timedOut = false
  }

  func run() throws -> Result {
    Glibc.signal(SIGPIPE, SIG_IGN)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var parentEnds: [Int32] = []
    defer { parentEnds.forEach { close($0) } }

    var feeder: InputFeeder?
    switch stdin {
    case .null:
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
    case .bytes(let bytes, let keepOpen):
      let (read, write) = try Self.pipe()
      posix_spawn_file_actions_adddup2(&actions, read, 0)
      parentEnds.append(read)
      feeder = InputFeeder(descriptor: write, bytes: bytes, repeats: false, keepOpen: keepOpen)
    case .endless(let bytes):
      let (read, write) = try Self.pipe()
      posix_spawn_file_actions_adddup2(&actions, read, 0)
      parentEnds.append(read)
      feeder = InputFeeder(descriptor: write, bytes: bytes, repeats: true, keepOpen: false)
    }
    var readers: [(descriptor: Int32, isStdout: Bool)] = []
    for (target, output) in [(Int32(1), stdout), (2, stderr)] {
      switch output {
      case .capture, .firstLineOnly:
        let (read, write) = try Self.pipe()
        posix_spawn_file_actions_adddup2(&actions, write, target)
        parentEnds.append(write)
        readers.append((read, target == 1))
      case .closed:
        posix_spawn_file_actions_addclose(&actions, target)
      case .file(let path):
        posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY, 0)
      }
    }

    var argv = ["/usr/bin/env", "-C", directory]
    if let user {
      argv += ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups"]
    }
    argv += ["/usr/bin/prlimit", "--as=\(memoryBytes)", "--core=0", "--", executable] + arguments
    let environmentLines = environment.map { "\($0.key)=\($0.value)" }.sorted()
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = environmentLines.map { strdup($0) } + [nil]
    defer { (cArguments + cEnvironment).forEach { free($0) } }

    var result = Result()
    let start = DispatchTime.now()
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
    parentEnds.forEach { close($0) }
    parentEnds = []
    guard spawned == 0 else {
      readers.forEach { close($0.descriptor) }
      throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
    }
    feeder?.start()

    let deadline = start.uptimeNanoseconds + UInt64(seconds * 1e9)
    var lastOutput: UInt64?
    var signalled = signal == nil
    var status: Int32 = 0
    var usage = rusage()
    var open = readers
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      // Read what is there; stop reading standard output after its first line when asked.
      var polls = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
      _ = poll(&polls, nfds_t(polls.count), 5)
      for (index, poll) in polls.enumerated().reversed() where poll.revents != 0 {
        let reader = open[index]
        let count = read(reader.descriptor, &buffer, buffer.count)
        if count <= 0 {
          close(reader.descriptor)
          open.remove(at: index)
          continue
        }
        lastOutput = DispatchTime.now().uptimeNanoseconds
        let chunk = buffer[0..<count]
        if reader.isStdout {
          result.stdout.append(chunk)
          if case .firstLineOnly = stdout, chunk.contains(UInt8(ascii: "\n")) {
            close(reader.descriptor)
            open.remove(at: index)
          }
        } else {
          result.stderr.append(chunk)
        }
      }
      let now = DispatchTime.now().uptimeNanoseconds
      // With standard output not captured there is nothing to wait for: a moment after start.
      let quietSince = lastOutput ?? (readers.contains(where: \.isStdout) ? nil : start.uptimeNanoseconds + 150_000_000)
      if !signalled, let quietSince, now > quietSince + 150_000_000, let signal {
        kill(pid, signal)
        signalled = true
      }
      if let sample = Self.peakResident(pid: pid, executable: executable) {
        result.peakResidentBytes = max(result.peakResidentBytes, sample)
      }
      let waited = wait4(pid, &status, WNOHANG, &usage)
      if waited == pid { break }
      if now > deadline {
        kill(pid, SIGKILL)
        result.timedOut = true
        wait4(pid, &status, 0, &usage)
        break
      }
    }
    result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    feeder?.stop()
    // The process is gone: what is left in the pipes ends at end of file.
    for reader in open {
      while case let count = read(reader.descriptor, &buffer, buffer.count), count > 0 {
        if reader.isStdout { result.stdout.append(buffer[0..<count]) } else { result.stderr.append(buffer[0..<count]) }
      }
      close(reader.descriptor)
    }
    if status & 0x7F == 0 {
      result.exitCode = (status >> 8) & 0xFF
    } else {
      result.terminatingSignal = status & 0x7F
    }
    return result
  }

  /// `VmHWM` of process `pid` once it runs `executable` (before, it is still the runner's
  /// memory or a wrapper's), in bytes.
  static func peakResident(pid: pid_t, executable: String) -> Int? {
    var target = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/\(pid)/exe", &target, target.count - 1)
    guard length > 0, String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == executable,
      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
  }

  /// A pipe whose two ends are closed on exec (the child gets its end through dup2). The
  /// corpus spawns one process at a time, so no other spawn can inherit an end in between.
  static func pipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard Glibc.pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }
}

/// Writes a process's standard input on its own thread, so a child that does not read never
/// blocks the runner. Ends when the reader leaves (EPIPE), or at `stop()`.
final class InputFeeder: @unchecked Sendable {
  private let descriptor: Int32
  private let bytes: [UInt8]
  private let repeats: Bool
  private let keepOpen: Bool
  private let stopped = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  init(descriptor: Int32, bytes: [UInt8], repeats: Bool, keepOpen: Bool) {
    self.descriptor = descriptor
    self.bytes = bytes
    self.repeats = repeats
    self.keepOpen = keepOpen
  }

  func start() {
    Thread { [self] in
      let chunk = repeats ? Array(repeatElement(bytes, count: max(1, 65_536 / max(1, bytes.count))).joined()) : bytes
      repeat {
        guard Self.writeAll(chunk, to: descriptor) else { break }
      } while repeats
      if keepOpen { stopped.wait() }
      close(descriptor)
      finished.signal()
    }.start()
  }

  /// Called once the process ended (its end of the pipe is closed, so a write in progress
  /// fails with EPIPE and the thread ends).
  func stop() {
    stopped.signal()
    finished.wait()
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
