import FlowRender
import FlowSupport

/// Standard output and standard error of every command, through FlowSupport's `OutputChannel`:
/// a reader that goes away (`| head -1`) stops the writing quietly, so the command goes on to
/// write its files and keeps its exit code; any other failure (`> /dev/full`) is reported when
/// the command ends (`Flowrun.main()`), with exit code 1 at least.
struct Output: Sendable {
  let channel: OutputChannel

  static let standard = Output(channel: .standardOutput)
  static let error = Output(channel: .standardError)

  /// Writes `text` with every terminal control made visible (`terminalSafe`): flows, scripts and
  /// answers are quoted in messages and must not drive the reader's terminal. `styled` text
  /// (a screen rendered in colour) keeps its SGR sequences.
  func write(_ text: String, styled: Bool = false) {
    channel.write(terminalSafe(text, keepingStyles: styled))
  }

  /// `write` for UTF-8 text (a rendered screen), made safe the same way.
  func write(_ bytes: [UInt8], styled: Bool = false) {
    write(safe: terminalSafe(bytes, keepingStyles: styled))
  }

  /// UTF-8 text made safe already (`terminalSafe`), written as it is.
  func write(safe bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { _ = channel.write($0) }
  }
}
