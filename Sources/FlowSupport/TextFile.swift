#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files by path: every file flowrun reads (flows, scripts, snapshots) and writes (data,
/// recordings, reports, snapshots, emitted scripts). Failures are the system's words
/// (`No such file or directory`), never a Foundation error.
public enum TextFile {
  /// Why a file could not be read: `is a directory`, `No such file or directory`,
  /// `larger than 256 MiB, the limit for a flow`.
  public struct ReadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The errno behind it; nil for a refused kind or a limit.
    public var code: Int32?
    public var description: String { message }

    public init(_ message: String) { self.message = message }

    public init(errno code: Int32) {
      message = systemMessage(code)
      self.code = code
    }
  }

  // MARK: Reading

  /// Reads the whole file at `path`, at most `limit.bytes` of it.
  ///
  /// Regular files, pipes and FIFOs (`<(…)`, `/dev/stdin`) are read; directories, character
  /// and block devices (`/dev/zero`, `/dev/urandom`, a terminal) and sockets are refused by
  /// kind before anything is read. The limit is checked while reading: a regular file whose
  /// size is over it is refused at once, a stream as soon as it passes it.
  public static func read(_ path: String, limit: ReadLimit) -> Result<[UInt8], ReadFailure> {
    read(path, limit: limit, holdingFrom: nil).map(\.bytes)
  }

  /// `read(_:limit:)`, and a regular file of at least `holdingFrom` bytes (nil: none) kept
  /// open (`HeldFile`) so that the caller may let the bytes go and read parts back. A file
  /// that changed while it was read, a stream, or one past `HeldFile.maximumHeld` is not held.
  public static func read(
    _ path: String, limit: ReadLimit, holdingFrom minimumBytes: Int?
  ) -> Result<(bytes: [UInt8], held: HeldFile?), ReadFailure> {
    var info = stat()
    // Refuse by kind before opening: opening some devices has effects or blocks.
    guard stat(path, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
    if let refused = refusedKind(info.st_mode) { return .failure(ReadFailure(refused)) }
    let isFIFO = (info.st_mode & S_IFMT) == S_IFIFO
    var fd: Int32
    repeat {
      // A FIFO is opened without waiting for its writer (a blocking open would ignore a stop
      // signal delivered to another thread); `waitForWriter` waits instead.
      fd = open(path, O_RDONLY | O_CLOEXEC | (isFIFO ? O_NONBLOCK : 0))
    } while fd < 0 && errno == EINTR && StopSignals.pending == nil
    guard fd >= 0 else { return .failure(ReadFailure(errno: errno)) }
    var held: HeldFile?
    defer { if held == nil { close(fd) } }
    if isFIFO, let failure = waitForWriter(fd) { return .failure(failure) }
    guard fstat(fd, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
    if let refused = refusedKind(info.st_mode) { return .failure(ReadFailure(refused)) }
    let isRegular = (info.st_mode & S_IFMT) == S_IFREG
    if isRegular, Int(info.st_size) > limit.bytes { return .failure(ReadFailure(limit.exceededMessage)) }
    return readAll(fd, expected: isRegular ? Int(info.st_size) : 0, limit: limit).map { bytes in
      var after = stat()
      if isRegular, let minimumBytes, bytes.count >= minimumBytes, bytes.count == Int(info.st_size),
        fstat(fd, &after) == 0, HeldFile.Identity(after) == HeldFile.Identity(info)
      {
        held = HeldFile(descriptor: fd, path: path, info: info)
      }
      return (bytes, held)
    }
  }

  /// Waits until the FIFO opened without blocking on `fd` has something to read (or its
  /// writer came and went), then makes the reads block again; nil, or the failure when a stop
  /// signal arrived first.
  static func waitForWriter(_ fd: Int32) -> ReadFailure? {
    guard StopSignals.waitReadableOrStop(fd) else { return ReadFailure(errno: EINTR) }
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { return ReadFailure(errno: errno) }
    return nil
  }

  /// Why a file of mode `mode` is not read, or nil for regular files, pipes and FIFOs.
  static func refusedKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG, S_IFIFO: nil
    case S_IFDIR: "is a directory"
    case S_IFCHR: "is a character device (such as /dev/zero or a terminal), not a file"
    case S_IFBLK: "is a block device, not a file"
    case S_IFSOCK: "is a socket, not a file"
    default: "is not a regular file"
    }
  }

  /// Reads `fd` to its end: `expected` bytes straight into the array (the size `fstat` gave,
  /// no chunk copies), then chunks for anything beyond (a pipe reports 0, a growing file more),
  /// failing as soon as more than `limit.bytes` arrived. A read interrupted by a stop signal
  /// (`StopSignals`) fails; other interruptions are retried.
  static func readAll(_ fd: Int32, expected: Int, limit: ReadLimit) -> Result<[UInt8], ReadFailure> {
    var failure: Int32?
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
      count = 0
      while count < expected {
        let n = systemRead(fd, buffer.baseAddress! + count, expected - count)
        if n < 0 {
          if errno == EINTR, StopSignals.pending == nil { continue }
          failure = errno
          return
        }
        if n == 0 { return }
        count += n
      }
    }
    if let failure { return .failure(ReadFailure(errno: failure)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR, StopSignals.pending == nil { continue }
        return .failure(ReadFailure(errno: errno))
      }
      if count == 0 { return .success(bytes) }
      guard bytes.count + count <= limit.bytes else { return .failure(ReadFailure(limit.exceededMessage)) }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  // MARK: Writing

  /// Writes `text` to `path` atomically: into a new file in the same directory, flushed to
  /// the disk (`fsync`), then renamed over `path`. A kill at any instant leaves the old file
  /// or the new one, never a part. Missing parent directories are created first when
  /// `createDirectories` is set. A new file gets mode 0644 (less the umask), a replaced one
  /// keeps its mode; a symbolic link is followed (the file it names is replaced).
  ///
  /// A path that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO, a
  /// terminal) is written in place: it cannot be replaced, and only a stream reads it.
  /// Returns nil, or the reason it failed: a short write, a failed `fsync` or `close` (a full
  /// disk may only show there) are failures too.
  public static func write(_ text: String, to path: String, createDirectories: Bool = false) -> String? {
    if createDirectories, let problem = makeParentDirectories(of: path) { return problem }
    var info = stat()
    let exists = stat(path, &info) == 0
    if exists, (info.st_mode & S_IFMT) == S_IFDIR { return systemMessage(EISDIR) }
    if exists, (info.st_mode & S_IFMT) != S_IFREG { return writeInPlace(text, to: path) }
    let target = exists ? (resolvedPath(path) ?? path) : path
    let (directory, name) = FilePaths.split(target)
    guard let (fd, temporary) = createTemporary(in: directory, near: name) else { return systemMessage(errno) }
    func fail(_ reason: String) -> String {
      close(fd)
      unlink(temporary)
      return reason
    }
    if exists, fchmod(fd, info.st_mode & 0o7777) != 0 { return fail(systemMessage(errno)) }
    if let problem = Descriptor.write(text, to: fd) { return fail(problem.message) }
    if fsync(fd) != 0, errno != EINVAL { return fail(systemMessage(errno)) }
    guard close(fd) == 0 else {
      let reason = systemMessage(errno)
      unlink(temporary)
      return reason
    }
    guard rename(temporary, target) == 0 else {
      let reason = systemMessage(errno)
      unlink(temporary)
      return reason
    }
    return nil
  }

  /// Writes into an existing file that is not a regular file (a device, a FIFO).
  static func writeInPlace(_ text: String, to path: String) -> String? {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return systemMessage(errno) }
    if let problem = Descriptor.write(text, to: fd) {
      close(fd)
      return problem.message
    }
    return close(fd) == 0 ? nil : systemMessage(errno)
  }

  /// A new, empty file `.NAME.flowrun-XXXXXXXX` in `directory` (mode 0644 less the umask,
  /// created exclusively) and its path; nil with errno set.
  static func createTemporary(in directory: String, near name: String) -> (Int32, String)? {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<16 {
      let suffix = String(generator.next() as UInt32, radix: 16)
      let path = directory + "/." + name + ".flowrun-" + suffix
      let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd >= 0 { return (fd, path) }
      if errno != EEXIST { return nil }
    }
    return nil
  }

  /// The path with every symbolic link resolved (the file must exist), or nil.
  public static func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `mkdir -p` of the directory holding `path`; nil, or the reason it failed.
  static func makeParentDirectories(of path: String) -> String? {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast()
    var current = path.hasPrefix("/") ? "" : "."
    for part in parts where !part.isEmpty && part != "." {
      current += "/" + part
      if mkdir(current, 0o755) != 0 && errno != EEXIST { return systemMessage(errno) }
    }
    return nil
  }

  /// `mkdir -p` of `directory` itself; nil, or the reason it failed.
  public static func makeDirectories(_ directory: String) -> String? {
    makeParentDirectories(of: directory + "/x")
  }
}

#if canImport(Glibc)
  let systemRead = Glibc.read
#elseif canImport(Darwin)
  let systemRead = Darwin.read
#endif
