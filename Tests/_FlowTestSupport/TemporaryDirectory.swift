import FlowSupport
import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
public final class TemporaryDirectory {
  public let path: String
  public var url: URL { URL(fileURLWithPath: path) }

  public init() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Creates `name` holding `contents`; returns its path.
  @discardableResult
  public func file(_ name: String, contents: String) -> String {
    let file = path + "/" + name
    _ = FileManager.default.createFile(atPath: file, contents: Data(contents.utf8))
    return file
  }

  /// The text of `name`, or nil when it does not exist.
  public func text(_ name: String) -> String? {
    try? String(contentsOfFile: path + "/" + name, encoding: .utf8)
  }

  /// Creates the FIFO `name` and a thread that writes `text` into it once a reader opens it;
  /// returns its path.
  public func fifo(_ name: String, writing text: String) -> String {
    let fifo = path + "/" + name
    guard mkfifo(fifo, 0o600) == 0 else { return fifo }
    let writer = Thread {
      let fd = open(fifo, O_WRONLY)
      guard fd >= 0 else { return }
      _ = Descriptor.write(text, to: fd)
      close(fd)
    }
    writer.start()
    return fifo
  }

  /// The names in the directory, sorted.
  public func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }
}
