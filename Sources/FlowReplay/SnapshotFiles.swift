import FlowFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a script's snapshots may be, and which files `--update` may write (docs/security.md).
///
/// A script reads and writes snapshots only inside its suite: the directory given to
/// `flowrun test` that holds the script, else the script's own directory. A `snapshot:` path
/// that is absolute, climbs out with `..`, or reaches outside through a symbolic link is an
/// error at the step, before anything runs. `--update` writes only new files or files that
/// already hold a transcript, never a script or the flow the script runs.
enum SnapshotFiles {
  /// The suite directory of `script`: the longest of `roots` that holds it, else its directory.
  static func suiteRoot(of script: String, roots: [String]) -> String {
    let file = absolute(script)
    let holding = roots.map(absolute).filter { isInside(file, $0) }
    return holding.max { $0.utf8.count < $1.utf8.count } ?? directory(of: file)
  }

  /// The file `snapshot: relative` names for `script`, or why it is not allowed.
  static func resolve(_ relative: String, script: String, root: String) -> Result<String, SnapshotProblem> {
    func outside(_ how: String) -> SnapshotProblem {
      SnapshotProblem(
        "snapshot '\(relative)' \(how) the suite \(root): snapshots are read and written only inside the "
          + "directory given to `flowrun test` (or the script's directory); give a path relative to the script")
    }
    guard !relative.hasPrefix("/") else { return .failure(outside("is an absolute path, outside")) }
    let path = ScriptParser.resolve(relative, against: script)
    let root = absolute(root)
    guard isInside(absolute(path), root) else { return .failure(outside("is outside")) }
    // Symbolic links: the real place of the file (or of its deepest existing directory) must be
    // inside the real place of the suite.
    guard let realRoot = realPath(root), let reached = realPathOfExistingPart(absolute(path)),
      isInside(reached, realRoot)
    else { return .failure(outside("leads through a symbolic link outside")) }
    return .success(path)
  }

  /// Why `--update` may not write `path`, or nil when it may: new files and files that hold a
  /// transcript only; never a replay script, the script itself or the flow it runs.
  static func refusalToWrite(_ path: String, script: ReplayScript) -> String? {
    if TestSuite.scriptSuffixes.contains(where: path.hasSuffix) {
      return "\(path) is a replay script, not a snapshot"
    }
    if let real = realPath(absolute(path)) {
      for (other, what) in [(script.file, "the script itself"), (script.flowPath, "the flow the script runs")]
      where realPath(absolute(other)) == real {
        return "\(path) is \(what), not a snapshot"
      }
    }
    switch kind(of: path) {
    case .missing: return nil
    case .other: return "\(path) is not a regular file"
    case .regular:
      guard let head = leadingBytes(of: path, count: 3) else { return nil }  // the write says why
      return isTranscript(head) ? nil : notATranscript(path)
    }
  }

  /// Why an existing `path` cannot be compared (its content is never shown then), or nil.
  static func refusalToCompare(_ path: String, bytes: [UInt8]) -> String? {
    isTranscript(bytes) ? nil : notATranscript(path)
  }

  static func notATranscript(_ path: String) -> String {
    "\(path) is not a snapshot (it does not start with a transcript's screen header '──'); "
      + "its content is not shown: remove it or name another file"
  }

  /// Every transcript starts with the renderer's screen header `── …` (FlowRender `Transcript`);
  /// an empty file counts as one.
  static func isTranscript(_ bytes: [UInt8]) -> Bool {
    bytes.isEmpty || bytes.starts(with: "──".utf8)
  }

  /// The first `count` bytes of a file (fewer when it is shorter), or nil when it cannot be read.
  static func leadingBytes(of path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      filled += n
    }
    return Array(bytes[..<filled])
  }

  enum Kind { case missing, regular, other }

  /// What is at `path` (symbolic links followed).
  static func kind(of path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    return (info.st_mode & S_IFMT) == S_IFREG ? .regular : .other
  }

  // MARK: Paths

  static func absolute(_ path: String) -> String {
    ScriptParser.normalize(path.hasPrefix("/") ? path : currentDirectory() + "/" + path)
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" || path == root || path.hasPrefix(root + "/")
  }

  /// realpath(3), or nil when `path` does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The real path of `path`, or of its deepest existing ancestor followed by the rest.
  static func realPathOfExistingPart(_ path: String) -> String? {
    var head = path
    var tail: [Substring] = []
    while true {
      if let real = realPath(head) {
        return tail.isEmpty ? real : (real == "/" ? "" : real) + "/" + tail.reversed().joined(separator: "/")
      }
      // There but unresolvable: a dangling symbolic link, which a write would follow anywhere.
      var info = stat()
      if lstat(head, &info) == 0 { return nil }
      guard let slash = head.lastIndex(of: "/"), head != "/" else { return nil }
      tail.append(head[head.index(after: slash)...])
      head = slash == head.startIndex ? "/" : String(head[..<slash])
    }
  }

  static func currentDirectory() -> String {
    guard let cwd = getcwd(nil, 0) else { return "." }
    defer { free(cwd) }
    return String(cString: cwd)
  }
}

/// Why a `snapshot:` step may not use its file.
struct SnapshotProblem: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
