import Dispatch
import FlowSupport

/// Draws the parts of a preview (flow titles and screens) on two threads and hands their text
/// to `write` in order, on the calling thread: each screen is drawn from a session of its own
/// over the shared document, so no part depends on another.
///
/// Parts are drawn in pieces of `partsPerPiece` consecutive parts. Both threads take the next
/// piece not yet taken; the calling thread writes every finished piece whose turn has come,
/// draws a piece when none is ready, and waits only when the other thread is still drawing
/// the next one to write. A piece never splits a part, and the text is the one thread's, byte
/// for byte.
enum PreviewSchedule {
  /// Parts per piece: the padded bundle's 6,315 screens are about 400 pieces of about a
  /// millisecond each, so neither thread waits long for the other at the end.
  static let partsPerPiece = 16

  /// Draws parts `0..<count` with `draw(index, &bytes)` (which appends the part's text) and
  /// hands each piece, after `finish` (on the thread that drew it), to `write`. With `threads`
  /// 1, or a single piece, no thread is started.
  static func run(
    count: Int, threads: Int = 2, partsPerPiece: Int = partsPerPiece,
    draw: @escaping @Sendable (Int, inout [UInt8]) -> Void,
    finish: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }, write: ([UInt8]) -> Void
  ) {
    let pieces = Pieces(count: count, partsPerPiece: max(1, partsPerPiece), finish: finish)
    let finished = DispatchGroup()
    if threads > 1, pieces.count > 1 {
      DispatchQueue.global().async(group: finished) {
        var room = 0
        while let piece = pieces.take() {
          pieces.finish(piece, pieces.draw(piece, room: &room, draw))
        }
      }
    }
    var next = 0
    var room = 0
    while next < pieces.count {
      if let bytes = pieces.written(next) {
        write(bytes)
        next += 1
      } else if let piece = pieces.take() {
        pieces.finish(piece, pieces.draw(piece, room: &room, draw))
      } else {
        pieces.waitForAnother()
      }
    }
    finished.wait()
  }
}

/// The pieces' state, shared by the two threads: the next piece to take and the pieces drawn
/// and not yet written.
private final class Pieces: Sendable {
  private struct State {
    var nextToTake = 0
    var drawn: [Int: [UInt8]] = [:]
  }

  let count: Int
  private let partCount: Int
  private let partsPerPiece: Int
  private let finish: @Sendable ([UInt8]) -> [UInt8]
  private let state = Locked(State())
  /// Signalled once per piece finished, so a wait ends when another piece is there.
  private let finishedOne = DispatchSemaphore(value: 0)

  init(count partCount: Int, partsPerPiece: Int, finish: @escaping @Sendable ([UInt8]) -> [UInt8]) {
    self.partCount = partCount
    self.partsPerPiece = partsPerPiece
    self.finish = finish
    count = (partCount + partsPerPiece - 1) / partsPerPiece
  }

  func take() -> Int? {
    state.withLock { state in
      guard state.nextToTake < count else { return nil }
      defer { state.nextToTake += 1 }
      return state.nextToTake
    }
  }

  /// The piece's parts drawn into one buffer, finished. The buffer starts with `room`, the
  /// largest piece this thread drew so far (grown from empty, copying it as it doubled was 2 %
  /// of drawing the padded bundle).
  func draw(_ piece: Int, room: inout Int, _ draw: (Int, inout [UInt8]) -> Void) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(room)
    for part in piece * partsPerPiece..<min(partCount, (piece + 1) * partsPerPiece) {
      draw(part, &bytes)
    }
    room = max(room, bytes.count)
    return finish(bytes)
  }

  func finish(_ piece: Int, _ bytes: [UInt8]) {
    state.withLock { $0.drawn[piece] = bytes }
    finishedOne.signal()
  }

  /// The piece's text, taken out, once drawn.
  func written(_ piece: Int) -> [UInt8]? {
    state.withLock { $0.drawn.removeValue(forKey: piece) }
  }

  func waitForAnother() {
    finishedOne.wait()
  }
}
