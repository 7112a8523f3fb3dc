// libFuzzer target: the replay-script parser (the YAML subset reader, its Yams fallback, the
// JSON reader and the typed script reader). Built by .ci/fuzz (not a SwiftPM target).
import FlowFormat
import FlowReplay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplay(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // The same bytes as a YAML script and as a JSON script (the file name picks the reader).
  for file in ["fuzz.flow-test.yaml", "fuzz.flow-test.json"] {
    let result = ScriptParser.parse(bytes: bytes, file: file)
    let hasErrors = result.diagnostics.contains { $0.severity == .error }
    precondition((result.script == nil) == hasErrors, "a script with errors, or none without: \(result.diagnostics)")
    for diagnostic in result.diagnostics {
      // `json.*` for the JSON reader's syntax errors, `script.*` for everything else.
      precondition(
        !diagnostic.message.isEmpty && (diagnostic.id.hasPrefix("script.") || diagnostic.id.hasPrefix("json.")),
        "bad diagnostic \(diagnostic)")
      guard let location = diagnostic.location else { continue }
      precondition(location.line >= 1 && location.column >= 1, "bad position \(location)")
      precondition(location.offset >= 0 && location.offset <= size, "offset \(location.offset) beyond \(size) bytes")
    }
    if let script = result.script {
      for step in script.steps { _ = step.location }
    }
  }
  return 0
}
