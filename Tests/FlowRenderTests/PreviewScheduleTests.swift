import Testing

@testable import FlowRender

/// `PreviewSchedule` hands the parts' text to `write` in order, whole, on the calling thread,
/// whichever thread drew them and however they are cut into pieces.
@Suite struct PreviewScheduleTests {
  /// A part's text: its number, and more text for some, so the threads finish out of turn.
  static func text(of part: Int) -> String {
    "part \(part)" + String(repeating: ".", count: (part * 7919) % 97) + "\n"
  }

  @Test(arguments: [0, 1, 2, 15, 16, 17, 100, 1_000], [1, 3, 16])
  func partsComeInOrder(count: Int, partsPerPiece: Int) {
    for threads in [1, 2] {
      var pieces: [[UInt8]] = []
      PreviewSchedule.run(
        count: count, threads: threads, partsPerPiece: partsPerPiece,
        draw: { part, bytes in bytes += Self.text(of: part).utf8 },
        write: { pieces.append($0) })
      #expect(String(decoding: pieces.joined(), as: UTF8.self) == (0..<count).map(Self.text(of:)).joined())
      // Whole parts per piece: each piece ends where a part does.
      #expect(pieces.count == (count + partsPerPiece - 1) / partsPerPiece)
      #expect(pieces.allSatisfy { $0.last == 0x0A })
    }
  }
}
