import FlowDriver
import CLibEditShim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines from a file descriptor without libedit: for pipes, files and `TERM=dumb`.
///
/// Accepts `\n` and `\r\n` endings; a last line without a terminator is still returned
/// before `.endOfFile`. With `cancelsOnInterrupt`, SIGINT only interrupts the read (as in
/// `LineEditor`): the partial line is dropped and `.interrupted` returned.
public final class PlainLineSource: LineSource {
  public let fileDescriptor: Int32
  /// Whether prompts are written to stdout (yes for a dumb terminal, no for a pipe).
  public let showsPrompt: Bool
  private let cancelsOnInterrupt: Bool
  private var buffer: [UInt8] = []
  private var reachedEnd = false
  private var isShutDown = false

  public init(
    fileDescriptor: Int32 = STDIN_FILENO, showsPrompt: Bool = false, cancelsOnInterrupt: Bool = false
  ) {
    self.fileDescriptor = fileDescriptor
    self.showsPrompt = showsPrompt
    self.cancelsOnInterrupt = cancelsOnInterrupt
    if cancelsOnInterrupt { flowrun_signals_install() }
  }

  deinit {
    shutdown()
  }

  public func readLine(prompt: String) -> ReadResult {
    guard !isShutDown else { return .endOfFile }
    if showsPrompt, !prompt.isEmpty { flowrun_stdout_write(prompt) }
    if cancelsOnInterrupt { _ = flowrun_take_interrupt() }
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        var lineBytes = buffer[..<newline]
        if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
        let line = String(decoding: lineBytes, as: UTF8.self)
        buffer.removeSubrange(...newline)
        return .line(line)
      }
      if reachedEnd {
        guard !buffer.isEmpty else { return .endOfFile }
        defer { buffer.removeAll() }
        return .line(String(decoding: buffer, as: UTF8.self))
      }
      let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        buffer.append(contentsOf: chunk[..<count])
      } else if count == 0 {
        reachedEnd = true
      } else if errno == EINTR {
        if cancelsOnInterrupt, flowrun_take_interrupt() != 0 {
          buffer.removeAll()
          if showsPrompt { flowrun_stdout_write("\n") }
          return .interrupted
        }
      } else {
        reachedEnd = true  // EIO, EBADF…: treat as the end of input
      }
    }
  }

  public func shutdown() {
    guard !isShutDown else { return }
    isShutDown = true
    if cancelsOnInterrupt { flowrun_signals_restore() }
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

/// Picks the line source for the process's stdin.
public enum LineSources {
  /// `LineEditor` when stdin and stdout are terminals and TERM is usable; otherwise a
  /// `PlainLineSource` that shows prompts on a (dumb) terminal and stays silent on a pipe.
  public static func standardInput(
    programName: String = "flowrun", historyFile: String? = LineEditor.defaultHistoryFile
  ) -> any LineSource {
    if TerminalInfo.wantsLineEditor(),
      let editor = LineEditor(programName: programName, historyFile: historyFile)
    {
      return editor
    }
    let onTerminal = TerminalInfo.isTTY(STDIN_FILENO)
    return PlainLineSource(showsPrompt: onTerminal, cancelsOnInterrupt: onTerminal)
  }
}
