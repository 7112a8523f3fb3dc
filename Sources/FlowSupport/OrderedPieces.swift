import Dispatch

/// Makes the parts of an output on two threads and hands their bytes to `write` in order, on
/// the calling thread (`render`'s screens, the diagnostics of `check --format json`): no part
/// may depend on another.
///
/// Parts are made in pieces of `partsPerPiece` consecutive parts. Both threads take the next
/// piece not yet taken; the calling thread writes every finished piece whose turn has come,
/// makes a piece when none is ready, and waits only when the other thread is still making the
/// next one to write. A piece never splits a part, and the bytes are the one thread's, byte for
/// byte. With a `window`, no piece is taken `window` or more pieces past the next to write, so
/// no more are held besides the one being written, however slowly `write` goes.
public enum OrderedPieces {
  /// Makes parts `0..<count` with `draw(index, &bytes)` (which appends the part's bytes) and
  /// hands each piece, after `finish` (on the thread that made it), to `write`. With `threads`
  /// 1, or a single piece, no thread is started.
  public static func run(
    count: Int, threads: Int = 2, partsPerPiece: Int, window: Int = .max,
    draw: @escaping @Sendable (Int, inout [UInt8]) -> Void,
    finish: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }, write: ([UInt8]) -> Void
  ) {
    let pieces = Pieces(
      count: count, partsPerPiece: max(1, partsPerPiece), window: max(1, window), finish: finish)
    let finished = DispatchGroup()
    if threads > 1, pieces.count > 1 {
      DispatchQueue.global().async(group: finished) {
        var room = 0
        while let piece = pieces.take(waiting: true) {
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
      } else if let piece = pieces.take(waiting: false) {
        pieces.finish(piece, pieces.draw(piece, room: &room, draw))
      } else {
        pieces.waitForAnother()
      }
    }
    finished.wait()
  }
}

/// The pieces' state, shared by the two threads: the next piece to take, the next to write,
/// and the pieces made and not yet written.
private final class Pieces: Sendable {
  private struct State {
    var nextToTake = 0
    var nextToWrite = 0
    var drawn: [Int: [UInt8]] = [:]
  }

  let count: Int
  private let partCount: Int
  private let partsPerPiece: Int
  private let window: Int
  private let finish: @Sendable ([UInt8]) -> [UInt8]
  private let state = Locked(State())
  /// Signalled once per piece finished, so a wait ends when another piece is there.
  private let finishedOne = DispatchSemaphore(value: 0)
  /// Signalled once per piece written, so a wait for the window ends when it moved.
  private let wroteOne = DispatchSemaphore(value: 0)

  init(count partCount: Int, partsPerPiece: Int, window: Int, finish: @escaping @Sendable ([UInt8]) -> [UInt8]) {
    self.partCount = partCount
    self.partsPerPiece = partsPerPiece
    self.window = window
    self.finish = finish
    count = (partCount + partsPerPiece - 1) / partsPerPiece
  }

  private enum Taken {
    case piece(Int)
    case none
    case outsideTheWindow
  }

  /// The next piece, or nil when every piece is taken or (without `waiting`) the next is
  /// outside the window; with `waiting`, waits for the window to reach it.
  func take(waiting: Bool) -> Int? {
    while true {
      let taken = state.withLock { state -> Taken in
        guard state.nextToTake < count else { return .none }
        // Compared as a difference: `nextToWrite + window` may overflow.
        guard state.nextToTake - state.nextToWrite < window else { return .outsideTheWindow }
        defer { state.nextToTake += 1 }
        return .piece(state.nextToTake)
      }
      switch taken {
      case .piece(let piece): return piece
      case .none: return nil
      case .outsideTheWindow:
        guard waiting else { return nil }
        wroteOne.wait()
      }
    }
  }

  /// The piece's parts made into one buffer, finished. The buffer starts with `room`, the
  /// largest piece this thread made so far (grown from empty, copying it as it doubled was 2 %
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

  /// The piece's bytes, taken out, once made; the window then moves past it.
  func written(_ piece: Int) -> [UInt8]? {
    let bytes = state.withLock { state -> [UInt8]? in
      guard let bytes = state.drawn.removeValue(forKey: piece) else { return nil }
      state.nextToWrite = piece + 1
      return bytes
    }
    if bytes != nil, window < .max { wroteOne.signal() }
    return bytes
  }

  func waitForAnother() {
    finishedOne.wait()
  }
}
