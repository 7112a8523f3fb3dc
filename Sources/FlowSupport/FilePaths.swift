#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path arithmetic without Foundation: lexical, no file system access except the working
/// directory.
public enum FilePaths {
  /// `path` (relative to the working directory, or absolute) as seen from the directory of
  /// `file`: what a script written to `file` should call the flow. Absolute paths stay absolute.
  public static func relative(path: String, fromDirectoryOf file: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    let target = normalized(components(absolute(path)))
    let base = normalized(components(absolute(file)).dropLast())
    var shared = 0
    while shared < target.count, shared < base.count, target[shared] == base[shared] { shared += 1 }
    let ups = Array(repeating: "..", count: base.count - shared)
    let parts = ups + target[shared...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// `path` made absolute against the working directory, with `.` and `..` folded.
  public static func normalizedAbsolute(_ path: String) -> String {
    "/" + normalized(components(absolute(path))).joined(separator: "/")
  }

  /// The directory holding `path` (`.` for a bare name) and the last component.
  public static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    return (directory, String(path[path.index(after: slash)...]))
  }

  static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : currentDirectory() + "/" + path
  }

  static func components(_ path: String) -> [Substring] {
    path.split(separator: "/", omittingEmptySubsequences: true)
  }

  static func normalized(_ parts: some Sequence<Substring>) -> [String] {
    var out: [String] = []
    for part in parts {
      if part == "." { continue }
      if part == ".." {
        if !out.isEmpty { out.removeLast() }
        continue
      }
      out.append(String(part))
    }
    return out
  }

  static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
