import CLibEdit
import CLibEditShim
import FlowDriver
import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Interactive line input through libedit: emacs keys, history, Tab completion.
///
/// - Ctrl-C cancels the line being typed and returns `.interrupted` (the process lives on):
///   while the editor exists, SIGINT only interrupts the read. The previous handler comes
///   back on `shutdown()`.
/// - Ctrl-D on an empty line returns `.endOfFile`.
/// - SIGTERM and SIGHUP end the read with `.interrupted` (the caller asks `StopSignals` why).
/// - A line longer than `ReadLimit.answerLine` returns `.overlong` (and stays out of history).
/// - Non-empty lines go to the history, which is loaded from and saved to `historyFile`
///   (at most `historyLimit` entries, no consecutive duplicates).
/// - Terminal resizes are handled by libedit (EL_SIGNAL) and by the shim's read function.
/// - The user's `~/.editrc` is read after the default bindings.
/// - Secrets: `remembers` keeps a line out of the history; `readSecretLine` reads without
///   libedit, with the terminal's echo off, and never touches the history.
///
/// Use one editor at a time, from one thread. It is not `Sendable`.
public final class LineEditor: LineSource {
  /// `~/.flowrun_history`, or nil when HOME is unset.
  public static var defaultHistoryFile: String? {
    guard let home = getenv("HOME"), home.pointee != 0 else { return nil }
    return String(cString: home) + "/.flowrun_history"
  }

  public static let historyLimit: Int32 = 1000

  /// Candidates for Tab. Receives the line up to the cursor and returns the words that may
  /// replace the word at the cursor (`Completion.wordAtCursor(in:)`); the editor keeps those
  /// that start with it, inserts their longest common prefix, and lists them when several
  /// remain.
  public var completions: (_ linePrefix: String) -> [String] = { _ in [] }

  /// Whether a line may be kept in the history (the driver refuses lines that carry a secret,
  /// such as `:set password …`).
  public var remembers: (_ line: String) -> Bool = { _ in true }

  public let historyFile: String?
  private var editLine: OpaquePointer?
  private var history: OpaquePointer?
  private var isShutDown = false
  /// Reads secret answers (made at the first one): the terminal in its own line mode with the
  /// echo off.
  private var secretSource: PlainLineSource?

  /// Returns nil when libedit cannot be set up (then use `PlainLineSource`).
  public init?(programName: String = "flowrun", historyFile: String? = LineEditor.defaultHistoryFile) {
    self.historyFile = historyFile
    guard let history = flowrun_history_open(Self.historyLimit, 1) else { return nil }
    self.history = history
    let owner = Unmanaged.passUnretained(self).toOpaque()
    guard
      let editLine = flowrun_el_open(
        programName, owner,
        { owner, editLine in
          guard let owner, let editLine else { return UInt8(CC_ERROR) }
          return Unmanaged<LineEditor>.fromOpaque(owner).takeUnretainedValue().complete(editLine)
        })
    else {
      flowrun_history_close(history)
      self.history = nil
      return nil
    }
    self.editLine = editLine
    flowrun_signals_install()
    if let historyFile { _ = flowrun_history_load(history, historyFile) }
    _ = flowrun_el_attach_history(editLine, history)
    _ = flowrun_el_source_editrc(editLine)
  }

  deinit {
    shutdown()
  }

  public func readLine(prompt: String) -> ReadResult {
    read(prompt: prompt, timeoutMilliseconds: -1)
  }

  /// Gives up after the timeout only while the line is empty: a line being typed is finished.
  public func readLine(prompt: String, timeoutMilliseconds: Int64) -> ReadResult {
    read(prompt: prompt, timeoutMilliseconds: Int32(clamping: max(0, timeoutMilliseconds)))
  }

  private func read(prompt: String, timeoutMilliseconds: Int32) -> ReadResult {
    guard let editLine, !isShutDown else { return .endOfFile }
    _ = flowrun_el_set_prompt(editLine, prompt)
    _ = StopSignals.takeInterrupt()  // a Ctrl-C pressed between reads cancels nothing
    var count: Int32 = 0
    flowrun_el_set_timeout(timeoutMilliseconds)
    let text = el_gets(editLine, &count)
    let readError = errno
    flowrun_el_set_timeout(-1)
    if text == nil, readError == ETIMEDOUT {
      StandardStreams.writeThroughStdio("\n")  // leave the prompt's line for the next screen
      return .timedOut
    }
    if StopSignals.termination != nil || StopSignals.takeWake() {
      StandardStreams.writeThroughStdio("\n")
      return .interrupted
    }
    if StopSignals.takeInterrupt() || (count < 0 && readError == EINTR) {
      StandardStreams.writeThroughStdio("^C\n")  // the cursor is still on the cancelled line
      return .interrupted
    }
    guard let text, count > 0 else {
      StandardStreams.writeThroughStdio("\n")  // libedit echoed "^D"; leave the cursor on a fresh line
      return .endOfFile
    }
    if Int(count) > ReadLimit.answerLine.bytes { return .overlong(bytes: Int(count)) }
    var line = String(cString: text)
    while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
    if let history, line.contains(where: { !$0.isWhitespace }), remembers(line) {
      _ = flowrun_history_enter(history, line)
    }
    return .line(line)
  }

  public func readSecretLine(prompt: String) -> ReadResult {
    guard !isShutDown else { return .endOfFile }
    let source = secretSource ?? PlainLineSource(showsPrompt: true, cancelsOnInterrupt: true)
    secretSource = source
    return source.readSecretLine(prompt: prompt)
  }

  /// Saves the history, restores the terminal and the previous signal handlers. Idempotent;
  /// also called from `deinit`.
  public func shutdown() {
    guard !isShutDown else { return }
    isShutDown = true
    secretSource?.shutdown()
    if let history, let historyFile { _ = flowrun_history_save(history, historyFile) }
    if let editLine {
      flowrun_el_close(editLine)  // el_end puts the terminal back as it found it
      flowrun_signals_restore()
    }
    flowrun_history_close(history)
    editLine = nil
    history = nil
  }

  /// Tab: complete the word at the cursor, or list the candidates.
  private func complete(_ editLine: OpaquePointer) -> UInt8 {
    guard let info = el_line(editLine)?.pointee, let start = info.buffer, let cursor = info.cursor
    else { return UInt8(CC_ERROR) }
    let prefixBytes = UnsafeRawBufferPointer(start: start, count: cursor - start)
    let linePrefix = String(decoding: prefixBytes, as: UTF8.self)
    let word = Completion.wordAtCursor(in: linePrefix)
    switch Completion.resolve(word: word, candidates: completions(linePrefix)) {
    case .noMatch:
      return UInt8(CC_REFRESH_BEEP)
    case .insert(let text):
      if !text.isEmpty, el_insertstr(editLine, text) != 0 { return UInt8(CC_ERROR) }
      return UInt8(CC_REFRESH)
    case .ambiguous(let text, let candidates):
      if !text.isEmpty { _ = el_insertstr(editLine, text) }
      let rows = Completion.columns(candidates, width: TerminalInfo.width())
      StandardStreams.writeThroughStdio("\n" + rows.joined(separator: "\n") + "\n")
      return UInt8(CC_REDISPLAY)  // libedit redraws the prompt and the line below the list
    }
  }
}
