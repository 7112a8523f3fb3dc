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
  /// Peak resident set size in bytes (`ru_maxrss` from `wait4`).
  var maxRSS: Int
}

/// Monotonic time in seconds.
func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Runs `argv` (argv[0] must be a path) with stdin, stdout and stderr on /dev/null, timed from
/// just before `posix_spawn` to just after `wait4`. Nil when the program cannot be started.
func spawn(_ argv: [String]) -> ChildRun? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
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
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  let seconds = now() - start
  let signal = status & 0x7F
  #if os(Linux)
    let rssUnit = 1024  // kilobytes on Linux
  #else
    let rssUnit = 1  // bytes on macOS
  #endif
  return ChildRun(
    exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
    seconds: seconds, maxRSS: Int(usage.ru_maxrss) * rssUnit)
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
