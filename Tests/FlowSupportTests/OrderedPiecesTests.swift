import FlowSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `OrderedPieces` hands the parts' bytes to `write` in order, whole, on the calling thread,
/// whichever thread made them, however they are cut into pieces and whatever the window.
@Suite struct OrderedPiecesTests {
  /// A part's text: its number, and more text for some, so the threads finish out of turn.
  static func text(of part: Int) -> String {
    "part \(part)" + String(repeating: ".", count: (part * 7919) % 97) + "\n"
  }

  @Test(arguments: [0, 1, 2, 15, 16, 17, 100, 1_000], [1, 3, 16])
  func partsComeInOrder(count: Int, partsPerPiece: Int) {
    for threads in [1, 2] {
      for window in [1, 2, Int.max] {
        var pieces: [[UInt8]] = []
        OrderedPieces.run(
          count: count, threads: threads, partsPerPiece: partsPerPiece, window: window,
          draw: { part, bytes in bytes += Self.text(of: part).utf8 },
          write: { pieces.append($0) })
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == (0..<count).map(Self.text(of:)).joined())
        // Whole parts per piece: each piece ends where a part does.
        #expect(pieces.count == (count + partsPerPiece - 1) / partsPerPiece)
        #expect(pieces.allSatisfy { $0.last == 0x0A })
      }
    }
  }

  /// With a window, the other thread starts no piece `window` or more past the one being
  /// written, however slowly `write` goes (here: it sleeps, so a thread without a window makes
  /// every piece ahead of it).
  @Test(arguments: [1, 2, 3])
  func theWindowBoundsWhatIsHeld(window: Int) {
    let started = Locked(0)
    var written = 0
    var mostAhead = 0
    OrderedPieces.run(
      count: 100, partsPerPiece: 1, window: window,
      draw: { part, bytes in
        started.withLock { $0 = max($0, part + 1) }
        bytes += Self.text(of: part).utf8
      },
      write: { _ in
        usleep(200)
        // Pieces started past the one being written (`written`).
        mostAhead = max(mostAhead, started.withLock { $0 } - written - 1)
        written += 1
      })
    #expect(written == 100)
    #expect(mostAhead <= window)
  }
}
