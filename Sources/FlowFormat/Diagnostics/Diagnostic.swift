/// How bad a diagnostic is.
public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
  case note, warning, error

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

  /// 0 for a note, 1 for a warning, 2 for an error.
  var rank: UInt8 {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }
}

/// A problem found in a file, as a value: a stable id, a severity, where it is and what to do.
///
/// Diagnostics are collected, never thrown: a loader or a check reports every problem it finds
/// in one pass.
public struct Diagnostic: Hashable, Sendable {
  /// A secondary message attached to a diagnostic ("did you mean 'welcome'?").
  public struct Note: Hashable, Sendable {
    public var message: String
    public var location: SourceLocation?

    public init(_ message: String, at location: SourceLocation? = nil) {
      self.message = message
      self.location = location
    }
  }

  /// Stable, dotted identifier such as `json.syntax.expected-comma` or `load.type-mismatch`.
  public var id: String
  public var severity: Severity
  /// Lowercase, no trailing period: `expected a number, found a string`.
  public var message: String
  /// The file the diagnostic is about, as the user named it.
  public var file: String?
  public var location: SourceLocation?
  /// The JSON path of the offending value, such as `screens[3].content.blocks[2].content.min`.
  public var path: String?
  public var notes: [Note]

  public init(
    id: String,
    severity: Severity,
    message: String,
    file: String? = nil,
    location: SourceLocation? = nil,
    path: String? = nil,
    notes: [Note] = []
  ) {
    self.id = id
    self.severity = severity
    self.message = message
    self.file = file
    self.location = location
    self.path = path
    self.notes = notes
  }
}

extension Sequence where Element == Diagnostic {
  /// True when at least one diagnostic is an error.
  public var hasErrors: Bool { contains { $0.severity == .error } }
}
