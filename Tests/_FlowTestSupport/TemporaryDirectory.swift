import Foundation

/// A new empty directory under the system's temporary directory, named `<prefix>-<UUID>`; the
/// caller removes it (`defer { try? FileManager.default.removeItem(at: url) }`).
public func makeTemporaryDirectory(_ prefix: String = "flowrun") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
