#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Looking at a file without reading it whole: what it is, its first bytes, where a path
/// really leads (snapshots that `--update` may write must stay inside their suite).
extension TextFile {
  public enum Kind: Sendable { case missing, regular, other }

  /// What is at `path` (symbolic links followed).
  public static func kind(of path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    return (info.st_mode & S_IFMT) == S_IFREG ? .regular : .other
  }

  /// The first `count` bytes of a file (fewer when it is shorter), or nil when it cannot be read.
  public static func leadingBytes(of path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + filled, count - filled) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      filled += n
    }
    return Array(bytes[..<filled])
  }

  /// The real path of `path`, or of its deepest existing ancestor followed by the rest; nil
  /// when a part is there but cannot be resolved (a dangling symbolic link, which a write
  /// would follow anywhere).
  public static func resolvedPathOfExistingPart(_ path: String) -> String? {
    var head = path
    var tail: [Substring] = []
    while true {
      if let real = resolvedPath(head) {
        return tail.isEmpty ? real : (real == "/" ? "" : real) + "/" + tail.reversed().joined(separator: "/")
      }
      var info = stat()
      if lstat(head, &info) == 0 { return nil }
      guard let slash = head.lastIndex(of: "/"), head != "/" else { return nil }
      tail.append(head[head.index(after: slash)...])
      head = slash == head.startIndex ? "/" : String(head[..<slash])
    }
  }
}
