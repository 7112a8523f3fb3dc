import FlowFormat
import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// A big file's bytes are let go once loaded and its excerpts read back (`HeldFile`): they must
/// be the excerpts of the bytes in memory, and a file changed, replaced or deleted after
/// loading gets `DiagnosticFormatter.changedFileNote` instead, never another file's line.
@Suite struct HeldFileExcerptTests {
  /// A text of long and short lines, wide characters and runs of bare UTF-8 continuation bytes
  /// longer than an excerpt's window, over several of `HeldFile`'s chunks.
  static func mixedBytes(seed: UInt64, count: Int) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces: [[UInt8]] = ["a", "é", "中", "\t", "\n", "\r\n", "x y", "😀"].map { Array($0.utf8) }
    var bytes: [UInt8] = next(2) == 0 ? [0xEF, 0xBB, 0xBF] : []
    while bytes.count < count {
      switch next(40) {
      case 0: bytes += repeatElement(0x80, count: 1 + next(3_000))
      case 1: bytes += repeatElement(UInt8(ascii: "z"), count: next(5_000))
      default: bytes += pieces[next(pieces.count)]
      }
    }
    return bytes
  }

  @Test(arguments: [1, 7, 99])
  func heldExcerptsAreTheInMemoryOnes(seed: UInt64) throws {
    let directory = try TemporaryDirectory()
    let bytes = Self.mixedBytes(seed: seed, count: 300_000)
    let path = directory.path + "/mixed.txt"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let (read, held) = try TextFile.read(path, limit: .flow, holdingFrom: 0).get()
    #expect(read == bytes)
    let file = try #require(held)
    let offsets =
      stride(from: 0, through: bytes.count, by: 997).map { $0 } + [1, 2, 3, bytes.count - 1, bytes.count + 5]
    for width in [20, 120] {
      let inMemory = DiagnosticFormatter(sources: [path: bytes], maxLineWidth: width)
      let readBack = DiagnosticFormatter(files: [path: file], maxLineWidth: width)
      for offset in offsets {
        let diagnostic = Diagnostic(
          id: "test.here", severity: .warning, message: "here", file: path,
          location: .init(line: 1, column: 1 + offset % 50, offset: offset))
        #expect(readBack.text(diagnostic) == inMemory.text(diagnostic), "offset \(offset) width \(width)")
      }
    }
  }

  /// A flow past `FlowLoader`'s holding size, with warnings at its start and end.
  static func bigFlow() -> String {
    let padding = String(repeating: " ", count: 199) + "\n"
    return """
      {
        "version": 1, "id": "big", "unknownAtTheStart": 1,
        "screens": [
          { "id": "intro", "type": "welcome", "content": { "useBlocks": true, "blocks": [
            { "id": "t", "type": "text", "content": { "text": "Hello" } } ] } }
        ],
      \(String(repeating: padding, count: 5_500))  "unknownAtTheEnd": 2
      }

      """
  }

  /// What happens to the file between loading and the report.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case none, truncated, rewritten, sameSizeNewTime, replaced, deleted
    var testDescription: String { rawValue }

    func apply(to path: String, _ text: String) throws {
      switch self {
      case .none: return
      case .truncated: #expect(truncate(path, 100) == 0)
      case .rewritten:
        // In place, as an editor that does not rename saves.
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(Descriptor.write("[1, 2]\n", to: fd) == nil)
        close(fd)
      case .sameSizeNewTime:
        // The same bytes with another modification time: nothing tells what else changed.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      case .replaced:
        let other = path + ".new"
        #expect(FileManager.default.createFile(atPath: other, contents: Data(text.utf8)))
        #expect(rename(other, path) == 0)
      case .deleted: #expect(unlink(path) == 0)
      }
    }
  }

  @Test(arguments: Change.allCases)
  func aChangedFileGetsANoteInsteadOfAnExcerpt(_ change: Change) throws {
    let directory = try TemporaryDirectory()
    let text = Self.bigFlow()
    let path = directory.file("big.json", contents: text)
    let result = FlowLoader.load(path: path, holding: true)
    let expected = FlowLoader.load(bytes: Array(text.utf8), file: path)
    #expect(result.held != nil)
    #expect(result.source.isEmpty)
    #expect(result.sourceCount == text.utf8.count)
    #expect(result.diagnostics == expected.diagnostics)
    #expect(result.diagnostics.count { $0.location != nil } >= 2)
    try change.apply(to: path, text)
    let report = DiagnosticFormatter(result).text(result.diagnostics)
    let note = DiagnosticFormatter.changedFileNote
    if change == .none {
      #expect(report == DiagnosticFormatter(expected).text(expected.diagnostics))
      #expect(result.sourceBytes == Array(text.utf8))
    } else {
      #expect(report.components(separatedBy: note).count - 1 == result.diagnostics.count { $0.location != nil })
      #expect(!report.contains("\"unknownAt"))
      #expect(result.sourceBytes.isEmpty)
    }
  }

  /// A stream (a FIFO, a pipe) is never held: its bytes stay.
  @Test func aStreamKeepsItsBytes() throws {
    let directory = try TemporaryDirectory()
    let path = directory.fifo("fifo", writing: Self.bigFlow())
    let result = FlowLoader.load(path: path, holding: true)
    #expect(result.held == nil)
    #expect(result.source == Array(Self.bigFlow().utf8))
  }
}
