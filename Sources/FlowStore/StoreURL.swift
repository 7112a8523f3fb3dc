import FlowExpression

/// Where submissions are stored, as `--store` and `flowrun submissions` name it:
/// `sqlite:PATH`, a bare file path (SQLite), or `postgres://…` / `postgresql://…` (libpq's URI).
public enum StoreURL: Hashable, Sendable, CustomStringConvertible {
  case sqlite(path: String)
  case postgres(uri: String)

  /// Parses `text`; a message that says what is wrong and which forms work otherwise.
  public static func parse(_ text: String) -> Result<StoreURL, StoreError> {
    let forms = "use sqlite:PATH, a file path, or postgres://USER@HOST:PORT/DB"
    guard !text.isEmpty else { return .failure(StoreError("the store URL is empty (\(forms))")) }
    if text.utf8.contains(0) || text.contains("\n") {
      return .failure(StoreError("the store URL contains a control character (\(forms))"))
    }
    if text.hasPrefix("sqlite:") {
      var path = String(text.dropFirst("sqlite:".count))
      // `sqlite:///abs/path` and `sqlite://rel` are accepted as the same file paths.
      if path.hasPrefix("//") { path.removeFirst(2) }
      guard !path.isEmpty else { return .failure(StoreError("'\(text)' names no file (\(forms))")) }
      return .success(.sqlite(path: path))
    }
    if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
      guard text.split(separator: ":", maxSplits: 1)[1].count > 2 else {
        return .failure(StoreError("'\(text)' names no server (\(forms))"))
      }
      return .success(.postgres(uri: text))
    }
    if let scheme = scheme(of: text) {
      return .failure(StoreError("unsupported store '\(scheme):' in '\(text)' (\(forms))"))
    }
    return .success(.sqlite(path: text))
  }

  /// The SQLite file, which no other output of the command may be.
  public var sqlitePath: String? {
    if case .sqlite(let path) = self { path } else { nil }
  }

  /// The URL as messages show it: a PostgreSQL password is left out.
  public var description: String {
    switch self {
    case .sqlite(let path): return "sqlite:\(path)"
    case .postgres(let uri):
      // postgres://user:secret@host/db → postgres://user:…@host/db
      let scheme = uri.hasPrefix("postgres://") ? "postgres://" : "postgresql://"
      let rest = uri.dropFirst(scheme.count)
      guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return uri }
      return scheme + rest[..<colon] + ":…" + rest[at...]
    }
  }

  /// `name` of `name://…` or `name:…` when it looks like a URL scheme (letters first, then
  /// letters, digits, `+`, `-`, `.`; two letters at least, so `C:\x` stays a path).
  private static func scheme(of text: String) -> String? {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let name = text[..<colon]
    guard name.count >= 2, let first = name.first, first.isASCII, first.isLetter,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    return String(name)
  }
}

/// A store that could not be opened, read or written: one line, without a password.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) {
    // Drivers' messages may span lines (libpq's do): one line, always.
    self.message = message.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }
      .filter { !$0.isEmpty }.joined(separator: "; ")
  }
  public var description: String { message }
}
