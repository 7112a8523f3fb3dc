extension String {
  /// The longest diagnostic message kept whole, in Unicode scalars.
  static let maxDiagnosticMessage = 300

  /// The text with its middle elided when it is longer than ``maxDiagnosticMessage``: a 2 MB
  /// key or number quoted in a message must not put megabytes on the terminal.
  var elidedForDiagnostic: String {
    let scalars = unicodeScalars
    guard scalars.count > Self.maxDiagnosticMessage else { return self }
    let head = Self.maxDiagnosticMessage * 2 / 3
    let tail = Self.maxDiagnosticMessage - head
    var result = String(String.UnicodeScalarView(scalars.prefix(head)))
    result += "…(\(scalars.count - head - tail) characters)…"
    result += String(String.UnicodeScalarView(scalars.suffix(tail)))
    return result
  }
}
