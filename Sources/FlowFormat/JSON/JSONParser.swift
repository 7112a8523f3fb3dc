/// Parses JSON text into located ``JSONValue``s.
///
/// Placeholder signature for the parser work in progress; see issue 2.
public enum JSONParser {
  /// Parses `bytes`; returns the root value (nil when the text is not JSON) and every
  /// diagnostic found. `file` is only copied into the diagnostics.
  public static func parse(_ bytes: [UInt8], file: String? = nil) -> (JSONValue?, [Diagnostic]) {
    fatalError("not yet implemented")
  }
}
