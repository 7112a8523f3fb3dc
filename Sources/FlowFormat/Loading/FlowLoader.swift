import FlowExpression

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What loading one file produced: the document (when it could be built) and every diagnostic.
public struct LoadResult: Sendable {
  public var file: String
  public var document: FlowDocument?
  public var diagnostics: [Diagnostic]
  /// The file's bytes, kept so diagnostics can quote the source line.
  public var source: [UInt8]
  /// The parsed JSON, kept only when asked for (`keepSyntax`): `check` finds the JSON paths of
  /// its lint diagnostics in it instead of parsing the file again, and freeing a tree of a big
  /// file value by value costs as much as a tenth of loading it.
  public var syntax: JSONValue?
  /// Every regular expression of the document, compiled, with where its string literal is.
  public var patterns: [PatternSite] = []

  /// True when the document can be run: references to unknown screens (`ref.*`) only warn
  /// at run time, where they are no-ops, as the spec says.
  public var isRunnable: Bool {
    document != nil
      && !diagnostics.contains { $0.severity == .error && !$0.id.hasPrefix("ref.") }
  }
}

/// Loads flow documents: located JSON → model, reporting every problem in one pass.
public enum FlowLoader {
  /// Reads and loads the file at `path`. An unreadable file is one `load.io` error.
  /// `keepSyntax`: keep the parsed JSON in `LoadResult.syntax` (see there).
  public static func load(path: String, keepSyntax: Bool = false) -> LoadResult {
    guard let bytes = readFile(path) else {
      let reason = String(cString: strerror(errno))
      return LoadResult(
        file: path, document: nil,
        diagnostics: [
          Diagnostic(
            id: "load.io", severity: .error, message: "cannot read file: \(reason)", file: path)
        ], source: [])
    }
    return load(bytes: bytes, file: path, keepSyntax: keepSyntax)
  }

  /// Loads a document from memory; `file` names it in diagnostics and gives the default flow id.
  /// `keepSyntax`: keep the parsed JSON in `LoadResult.syntax` (see there).
  public static func load(bytes: [UInt8], file: String, keepSyntax: Bool = false) -> LoadResult {
    // Positions are stored in 32 bits (`SourceLocation`): past 4 GiB they would be wrong.
    guard bytes.count <= Int(UInt32.max) else {
      return LoadResult(
        file: file, document: nil,
        diagnostics: [
          Diagnostic(
            id: "load.io", severity: .error,
            message: "file too large: \(bytes.count) bytes; flowrun reads flow files of up to 4 GiB", file: file)
        ], source: [])
    }
    let (root, syntax) = JSONParser.parse(bytes, file: file)
    var context = DecodeContext(file: file)
    for diagnostic in syntax { context.append(diagnostic) }
    var document: FlowDocument?
    if let root {
      document = context.decodeDocument(root, defaultID: fileStem(file))
    }
    return LoadResult(
      file: file, document: document, diagnostics: context.diagnostics.sortedForDisplay(), source: bytes,
      syntax: keepSyntax ? root : nil, patterns: context.patternSites)
  }

  /// `flows/fitness.json` → `fitness`.
  static func fileStem(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// Reads a whole file, or nil with `errno` set.
  public static func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      errno = EISDIR
      return nil
    }
    // Straight into the array for the size `fstat` gives (no chunk copies), then in chunks
    // for anything beyond it (pipes report 0, a growing file more).
    let size = max(0, Int(info.st_size))
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      while count < size {
        let n = read(fd, buffer.baseAddress! + count, size - count)
        if n < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        if n == 0 { return }
        count += n
      }
    }
    if failed { return nil }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
  }
}
