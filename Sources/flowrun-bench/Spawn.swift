#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one child process did: how it ended, how long it took, its peak memory.
struct ChildRun {
  /// The exit status, or nil when a signal ended the child.
  var exitStatus: Int32?
  var signal: Int32?
  var seconds: Double
  /// User plus system CPU time (`ru_utime` + `ru_stime` from `wait4`).
  var cpuSeconds: Double
  /// Peak resident set size in bytes (`ru_maxrss` from `wait4`).
  var maxRSS: Int
  /// What the child wrote on its standard error when that was a terminal (`spawn(terminal:)`).
  var terminalOutput: [UInt8] = []
}

/// Monotonic time in seconds.
func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `argv` (argv[0] must be a path) with stdout on /dev/null, stdin read from `stdin` and
/// stderr on /dev/null, or on a pseudo-terminal whose output is kept when `terminal` is set
/// (`paths` shows its progress line only on a terminal); timed from just before `posix_spawn`
/// to just after `wait4`. Nil when the program cannot be started.
func spawn(_ argv: [String], stdin: String = "/dev/null", terminal: Bool = false) -> ChildRun? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  let pty = terminal ? PseudoTerminal() : nil
  if terminal && pty == nil { return nil }
  posix_spawn_file_actions_addopen(&actions, 2, pty?.follower ?? "/dev/null", O_WRONLY | O_NOCTTY, 0)
  let cArgs = argv.map { strdup($0) } + [nil]
  defer { for p in cArgs { free(p) } }
  var pid: pid_t = 0
  let start = now()
  let rc = cArgs.withUnsafeBufferPointer { args in
    posix_spawn(&pid, argv[0], &actions, nil, UnsafeMutablePointer(mutating: args.baseAddress!), environ)
  }
  guard rc == 0 else { return nil }
  var status: Int32 = 0
  var usage = rusage()
  var output: [UInt8] = []
  if let pty {
    // Drain the terminal while the child runs, so its writes never block on a full buffer.
    while true {
      let reaped = wait4(pid, &status, WNOHANG, &usage)
      pty.drain(into: &output, waitingMilliseconds: reaped == 0 ? 20 : 0)
      if reaped == pid || (reaped < 0 && errno != EINTR) { break }
    }
  } else {
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  }
  let seconds = now() - start
  let signal = status & 0x7F
  #if os(Linux)
    let rssUnit = 1024  // kilobytes on Linux
  #else
    let rssUnit = 1  // bytes on macOS
  #endif
  func time(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
  return ChildRun(
    exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
    seconds: seconds, cpuSeconds: time(usage.ru_utime) + time(usage.ru_stime), maxRSS: Int(usage.ru_maxrss) * rssUnit,
    terminalOutput: output)
}

/// A pseudo-terminal for a child's standard error. This process keeps the follower side open
/// too (close-on-exec), so reading the leader never reports a hang-up before the child opens
/// it or after it exits.
final class PseudoTerminal {
  let leader: Int32
  let follower: String
  private let followerFD: Int32

  /// Opens `/dev/ptmx` and unlocks and names its follower with the ioctls `posix_openpt`,
  /// `unlockpt` and `ptsname` use (Swift's Glibc module does not import those: they need
  /// `_XOPEN_SOURCE`). Linux only: elsewhere nil, and the progress target is not measured.
  init?() {
    #if os(Linux)
      let (lock, number) = (UInt(0x4004_5431), UInt(0x8004_5430))  // TIOCSPTLCK, TIOCGPTN
      leader = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      var unlocked: CInt = 0
      var index: CInt = -1
      guard leader >= 0 else { return nil }
      guard ioctl(leader, lock, &unlocked) == 0, ioctl(leader, number, &index) == 0 else {
        close(leader)
        return nil
      }
      follower = "/dev/pts/\(index)"
      followerFD = open(follower, O_RDWR | O_NOCTTY | O_CLOEXEC)
      _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
    #else
      return nil
    #endif
  }

  deinit {
    if followerFD >= 0 { close(followerFD) }
    close(leader)
  }

  /// Appends what is waiting to be read, after waiting up to `waitingMilliseconds` for some.
  func drain(into output: inout [UInt8], waitingMilliseconds: Int32) {
    var poller = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
    _ = poll(&poller, 1, waitingMilliseconds)
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
      guard n > 0 else { return }
      output += chunk[0..<n]
    }
  }
}

/// The first executable called `name` on PATH, or nil.
func which(_ name: String) -> String? {
  let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// Runs `argv` and returns its standard output (for `python3 -c 'print(sys.executable)'`).
func captureOutput(_ argv: [String]) -> String? {
  var pipeFDs: [Int32] = [0, 0]
  guard pipe(&pipeFDs) == 0 else { return nil }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
  posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let cArgs = argv.map { strdup($0) } + [nil]
  defer { for p in cArgs { free(p) } }
  var pid: pid_t = 0
  let rc = cArgs.withUnsafeBufferPointer { args in
    posix_spawn(&pid, argv[0], &actions, nil, UnsafeMutablePointer(mutating: args.baseAddress!), environ)
  }
  close(pipeFDs[1])
  defer { close(pipeFDs[0]) }
  guard rc == 0 else { return nil }
  var data: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { break }
    data += chunk[0..<n]
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  guard status == 0 else { return nil }
  return String(decoding: data, as: UTF8.self)
}

/// The smallest of `runs` peak resident sizes of `argv`, in bytes, each spawned from `python`
/// instead of this process. A child's `ru_maxrss` starts at its parent's resident size at the
/// exec (Linux keeps the larger of the old and new address spaces' peaks): spawned from here,
/// about 21 MB, more than a statically linked `flowrun --help` needs (about 17 MB), which
/// hid its real start-up. python3's own resident size stays below it. Nil on failure.
func ownPeakRSS(_ argv: [String], runs: Int, python: String) -> Int? {
  let script = """
    import os, sys
    null = [(os.POSIX_SPAWN_OPEN, fd, '/dev/null', os.O_WRONLY, 0) for fd in (1, 2)]
    peaks = []
    for _ in range(int(sys.argv[1])):
        pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ, file_actions=null)
        peaks.append(os.wait4(pid, 0)[2].ru_maxrss)
    print(min(peaks) * (1024 if sys.platform.startswith('linux') else 1))
    """
  guard let text = captureOutput([python, "-c", script, String(runs)] + argv) else { return nil }
  return Int(text.filter { !$0.isWhitespace })
}

/// The path of the running executable.
func executablePath() -> String {
  #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
  #endif
  return CommandLine.arguments[0]
}

/// Peak resident set size of this process so far, in bytes.
func selfMaxRSS() -> Int {
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  #if os(Linux)
    return Int(usage.ru_maxrss) * 1024
  #else
    return Int(usage.ru_maxrss)
  #endif
}
