import FlowFormat
import FlowSupport

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
    let file = FilePaths.normalizedAbsolute(script)
    let holding = roots.map(FilePaths.normalizedAbsolute).filter { isInside(file, $0) }
    return holding.max { $0.utf8.count < $1.utf8.count } ?? FilePaths.split(file).directory
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
    let root = FilePaths.normalizedAbsolute(root)
    guard isInside(FilePaths.normalizedAbsolute(path), root) else { return .failure(outside("is outside")) }
    // Symbolic links: the real place of the file (or of its deepest existing directory) must be
    // inside the real place of the suite.
    guard let realRoot = TextFile.resolvedPath(root),
      let reached = TextFile.resolvedPathOfExistingPart(FilePaths.normalizedAbsolute(path)), isInside(reached, realRoot)
    else { return .failure(outside("leads through a symbolic link outside")) }
    return .success(path)
  }

  /// Why `--update` may not write `path`, or nil when it may: new files and files that hold a
  /// transcript only; never a replay script, the script itself or the flow it runs.
  static func refusalToWrite(_ path: String, script: ReplayScript) -> String? {
    if TestSuite.scriptSuffixes.contains(where: path.hasSuffix) {
      return "\(path) is a replay script, not a snapshot"
    }
    if let real = TextFile.resolvedPath(FilePaths.normalizedAbsolute(path)) {
      for (other, what) in [(script.file, "the script itself"), (script.flowPath, "the flow the script runs")]
      where TextFile.resolvedPath(FilePaths.normalizedAbsolute(other)) == real {
        return "\(path) is \(what), not a snapshot"
      }
    }
    switch TextFile.kind(of: path) {
    case .missing: return nil
    case .other: return "\(path) is not a regular file"
    case .regular:
      guard let head = TextFile.leadingBytes(of: path, count: 3) else { return nil }  // the write says why
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

  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" || path == root || path.hasPrefix(root + "/")
  }
}

/// Why a `snapshot:` step may not use its file.
struct SnapshotProblem: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
