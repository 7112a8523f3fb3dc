import FlowSupport
import Foundation
import Testing

/// Golden-file assertions: compares `actual` with `<directory>/<name>` next to the test file.
///
/// A missing golden file is recorded and the test fails with "recorded new baseline"; set
/// `RECORD_SNAPSHOTS=1` to rewrite every golden file after an intended change.
public func assertSnapshot(
  _ actual: String,
  named name: String,
  directory: String = "Snapshots",
  filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let testDirectory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
  let url = testDirectory.appendingPathComponent(directory).appendingPathComponent(name)
  let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty } ?? false
  let expected = try? String(contentsOf: url, encoding: .utf8)
  if record || expected == nil {
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    do {
      try actual.write(to: url, atomically: true, encoding: .utf8)
    } catch {
      Issue.record("cannot write snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
      return
    }
    if expected == nil {
      Issue.record("recorded new baseline \(url.path)", sourceLocation: sourceLocation)
    }
    return
  }
  if actual != expected {
    Issue.record(
      "snapshot \(name) differs (RECORD_SNAPSHOTS=1 rewrites it):\n\(lineDiff(expected ?? "", actual))",
      sourceLocation: sourceLocation)
  }
}

/// The lines that differ, for failure messages (FlowSupport's `LineDiff`).
public func lineDiff(_ expected: String, _ actual: String) -> String {
  LineDiff.lines(expected: expected, actual: actual).joined(separator: "\n")
}

/// The repository's root directory, found from a test file's path.
public func packageRoot(filePath: String = #filePath) -> URL {
  var url = URL(fileURLWithPath: filePath)
  while url.path != "/" {
    url.deleteLastPathComponent()
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
      return url
    }
  }
  return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}
