import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// Bounded reading: what is read, what is refused by kind, and limits checked while reading.
@Suite struct TextFileReadTests {
  @Test func readsARegularFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("a.txt", contents: "hello\n")
    #expect(try TextFile.read(path, limit: .flow).get() == Array("hello\n".utf8))
  }

  /// A file over the limit is refused from its size, before a byte is read.
  @Test func refusesARegularFileOverTheLimit() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("big.txt", contents: String(repeating: "x", count: 2049))
    let limit = ReadLimit(bytes: 2048, what: "a test file")
    #expect(TextFile.read(path, limit: limit) == .failure(.init("larger than 2 KiB, the limit for a test file")))
    #expect(try TextFile.read(path, limit: ReadLimit(bytes: 2049, what: "a test file")).get().count == 2049)
  }

  @Test(arguments: [
    PathCase(path: "/dev/zero", message: "is a character device (such as /dev/zero or a terminal), not a file"),
    PathCase(path: "/dev/urandom", message: "is a character device (such as /dev/zero or a terminal), not a file"),
    PathCase(path: "/tmp", message: "is a directory"),
    PathCase(path: "/nonexistent/flowrun/missing.json", message: "No such file or directory"),
  ])
  func refusesByKindBeforeReading(_ example: PathCase) {
    guard case .failure(let failure) = TextFile.read(example.path, limit: .flow) else {
      Issue.record("\(example.path) was read")
      return
    }
    #expect(failure.message == example.message)
  }

  @Test func aMissingFileKeepsItsErrno() {
    guard case .failure(let failure) = TextFile.read("/nonexistent/flowrun/x", limit: .snapshot) else {
      Issue.record("read")
      return
    }
    #expect(failure.code == ENOENT)
  }

  /// A FIFO is read like a file; one that streams past the limit stops there instead of
  /// filling memory (the writer is left with a closed pipe).
  @Test(arguments: [1000, 5000])
  func readsAFIFOUpToTheLimit(_ size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.fifo("fifo", writing: String(repeating: "y", count: size))
    let limit = ReadLimit(bytes: 4096, what: "a test stream")
    let result = TextFile.read(path, limit: limit)
    if size <= 4096 {
      #expect(try result.get().count == size)
    } else {
      #expect(result == .failure(.init("larger than 4 KiB, the limit for a test stream")))
    }
  }

  @Test func limitsAreTheDocumentedOnes() {
    #expect([ReadLimit.flow, .script, .snapshot, .answerLine].map(\.size) == ["256 MiB", "64 MiB", "16 MiB", "1 MiB"])
  }
}

/// Atomic writes: old file or new file, never a part; devices written in place.
@Suite struct TextFileWriteTests {
  @Test func writesAndReplacesWithoutLeavingTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/out.json"
    #expect(TextFile.write("first\n", to: path) == nil)
    #expect(TextFile.write("second\n", to: path) == nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
    #expect(try directory.names() == ["out.json"])
  }

  @Test func aReplacedFileKeepsItsMode() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("script.sh", contents: "old")
    #expect(chmod(path, 0o751) == 0)
    #expect(TextFile.write("new", to: path) == nil)
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o751)
  }

  /// A symbolic link stays a link; the file it names gets the new text.
  @Test func writesThroughASymbolicLink() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("target.json", contents: "old")
    let link = directory.path + "/link.json"
    #expect(symlink(target, link) == 0)
    #expect(TextFile.write("new", to: link) == nil)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
  }

  @Test func writesDevicesInPlace() {
    #expect(TextFile.write("discarded", to: "/dev/null") == nil)
    var info = stat()
    #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
  }

  @Test(arguments: [
    PathCase(path: "/dev/full", message: "No space left on device"),
    PathCase(path: "/tmp", message: "Is a directory"),
    PathCase(path: "/nonexistent/flowrun/out.json", message: "No such file or directory"),
  ])
  func failuresAreTheSystemsWords(_ example: PathCase) {
    #expect(TextFile.write("text", to: example.path) == example.message)
  }

  @Test func createsMissingDirectoriesWhenAsked() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/a/b/c.txt"
    #expect(TextFile.write("x", to: path) == "No such file or directory")
    #expect(TextFile.write("x", to: path, createDirectories: true) == nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "x")
  }
}

/// A path and the message flowrun gives for it.
struct PathCase: CustomTestStringConvertible, Sendable {
  var path: String
  var message: String
  var testDescription: String { path }
}
