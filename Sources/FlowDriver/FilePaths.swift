import FlowReplay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small file helpers for `:save` and the run's output files (no Foundation).
public enum FilePaths {
  /// Writes `text` to `path` (created or truncated, mode 0644); returns nil, or the reason
  /// it failed. The one file writer is FlowReplay's `TextFile`.
  public static func write(_ text: String, to path: String) -> String? {
    TextFile.write(text, to: path)
  }

  /// Writes all of `text` to `fd`; nil, or the reason it failed.
  public static func writeAll(_ text: String, to fd: Int32) -> String? {
    TextFile.writeAll(text, to: fd)
  }

  /// `path` (relative to the working directory, or absolute) as seen from the directory of
  /// `file`: what a script written to `file` should call the flow. Absolute paths stay absolute.
  public static func relative(path: String, fromDirectoryOf file: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    let cwd = currentDirectory()
    let target = normalized(components(absolute(path, cwd)))
    let base = normalized(components(absolute(file, cwd)).dropLast())
    var shared = 0
    while shared < target.count, shared < base.count, target[shared] == base[shared] { shared += 1 }
    let ups = Array(repeating: "..", count: base.count - shared)
    let parts = ups + target[shared...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  static func absolute(_ path: String, _ cwd: String) -> String {
    path.hasPrefix("/") ? path : cwd + "/" + path
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
