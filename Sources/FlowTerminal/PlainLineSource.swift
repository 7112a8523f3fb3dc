import FlowDriver
import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines from a file descriptor without libedit: for pipes, files and `TERM=dumb`.
///
/// Accepts `\n` and `\r\n` endings; a last line without a terminator is still returned
/// before `.endOfFile`. A line longer than `lineLimit` bytes is skipped as it arrives (never
/// held whole) and returned as one `.overlong`; a line still going after `giveUpAfter` bytes
/// (`< /dev/zero`) is returned as `.overlong` and ends the input, since no answer can follow.
/// Reading is linear in the input whatever the line lengths, and memory stays within one line
/// limit plus one chunk.
///
/// With `cancelsOnInterrupt`, SIGINT only interrupts the read (as in `LineEditor`): the partial
/// line is dropped and `.interrupted` returned. SIGTERM and SIGHUP (when `StopSignals` catches
/// them) end a wait with `.interrupted` too; the caller asks `StopSignals` why.
public final class PlainLineSource: LineSource {
  public let fileDescriptor: Int32
  /// Whether prompts are written to stdout (yes for a dumb terminal, no for a pipe).
  public let showsPrompt: Bool
  /// The longest line returned as `.line`, in bytes.
  public let lineLimit: Int
  /// The longest line skipped before the input is given up, in bytes.
  public let giveUpAfter: Int
  private let cancelsOnInterrupt: Bool
  /// Bytes read and not returned yet start at `head`; `scanned` is where the search for the
  /// next line end resumes (everything between `head` and it holds no line end).
  private var buffer: [UInt8] = []
  private var chunk: [UInt8] = []
  private var head = 0
  private var scanned = 0
  /// While skipping an overlong line: how many of its bytes were dropped so far.
  private var skipped: Int?
  private var reachedEnd = false
  private var isShutDown = false

  public init(
    fileDescriptor: Int32 = STDIN_FILENO, showsPrompt: Bool = false, cancelsOnInterrupt: Bool = false,
    lineLimit: Int = ReadLimit.answerLine.bytes, giveUpAfter: Int = PlainLineSource.defaultGiveUpAfter
  ) {
    self.fileDescriptor = fileDescriptor
    self.showsPrompt = showsPrompt
    self.cancelsOnInterrupt = cancelsOnInterrupt
    self.lineLimit = lineLimit
    self.giveUpAfter = giveUpAfter
    if cancelsOnInterrupt { StopSignals.startCatching() }
  }

  /// 64 MiB (docs/cli.md): as much as a whole replay script.
  public static let defaultGiveUpAfter = ReadLimit.script.bytes

  deinit {
    shutdown()
  }

  public func readLine(prompt: String) -> ReadResult {
    guard !isShutDown else { return .endOfFile }
    if showsPrompt, !prompt.isEmpty { StandardStreams.writeThroughStdio(prompt) }
    if cancelsOnInterrupt { _ = StopSignals.takeInterrupt() }  // a Ctrl-C between reads cancels nothing
    while true {
      if let result = nextBufferedLine() { return result }
      if reachedEnd {
        if let skipped {
          self.skipped = nil
          return .overlong(bytes: skipped)
        }
        guard head < buffer.count else { return .endOfFile }
        defer { consume(upTo: buffer.count) }
        return .line(String(decoding: buffer[head...], as: UTF8.self))
      }
      if StopSignals.termination != nil { return .interrupted }
      guard StopSignals.waitReadable(fileDescriptor) else {
        if StopSignals.takeWake() { return .interrupted }  // `run --watch`: the flow changed
        if cancelsOnInterrupt, StopSignals.takeInterrupt() {
          consume(upTo: buffer.count)
          skipped = nil
          if showsPrompt { StandardStreams.writeThroughStdio("\n") }
          return .interrupted
        }
        continue  // the loop's top checks SIGTERM and SIGHUP
      }
      // One read buffer for the source's life: zeroing 64 KiB for every line was most of
      // the cost of reading a piped walk.
      if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 1 << 16) }
      let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        compact()
        buffer.append(contentsOf: chunk[..<count])
      } else if count == 0 || errno != EINTR {
        reachedEnd = true  // EIO, EBADF…: treat as the end of input
      }
    }
  }

  /// The next complete line in the buffer, or nil when more input is needed. Past the limit
  /// without a line end, the partial line is dropped and counted in `skipped`.
  private func nextBufferedLine() -> ReadResult? {
    guard let newline = nextLineEnd() else {
      scanned = buffer.count
      if skipped != nil || buffer.count - head > lineLimit {
        skipped = (skipped ?? 0) + buffer.count - head
        consume(upTo: buffer.count)
        if let skipped, skipped > giveUpAfter { reachedEnd = true }
      }
      return nil
    }
    defer { consume(upTo: newline + 1) }
    var line = buffer[head..<newline]
    if let skipped {
      self.skipped = nil
      return .overlong(bytes: skipped + line.count)
    }
    if line.count > lineLimit { return .overlong(bytes: line.count) }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    return .line(String(decoding: line, as: UTF8.self))
  }

  /// The index of the first `\n` at or after `scanned` (memchr: this scan is the whole cost of
  /// skipping a long line).
  private func nextLineEnd() -> Int? {
    buffer.withUnsafeBufferPointer { bytes in
      guard scanned < bytes.count, let base = bytes.baseAddress,
        let found = memchr(base + scanned, Int32(UInt8(ascii: "\n")), bytes.count - scanned)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// Forgets the bytes before `end` (the buffer empties when nothing is left after it).
  private func consume(upTo end: Int) {
    if end >= buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 4 * lineLimit)
      head = 0
      scanned = 0
    } else {
      head = end
      scanned = max(scanned, head)
    }
  }

  /// Moves the unconsumed bytes to the front before more are read: at most once per line,
  /// and what moves is less than one line limit.
  private func compact() {
    guard head > 0 else { return }
    buffer.removeSubrange(..<head)
    scanned -= head
    head = 0
  }

  public func shutdown() {
    guard !isShutDown else { return }
    isShutDown = true
    if cancelsOnInterrupt { StopSignals.stopCatching() }
  }

  /// On a terminal, the line is read with the terminal's echo off but for the Enter (`ECHONL`),
  /// and the settings are restored afterwards, also after Ctrl-C.
  public func readSecretLine(prompt: String) -> ReadResult {
    var saved = termios()
    guard !isShutDown, tcgetattr(fileDescriptor, &saved) == 0 else { return readLine(prompt: prompt) }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ECHONL)
    // TCSADRAIN, not TCSAFLUSH: a line typed ahead is kept (it was echoed already, but is
    // still the answer).
    _ = tcsetattr(fileDescriptor, TCSADRAIN, &quiet)
    let result = readLine(prompt: prompt)
    _ = tcsetattr(fileDescriptor, TCSADRAIN, &saved)
    return result
  }
}
