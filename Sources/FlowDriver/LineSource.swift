// The line protocol's input side: the driver reads answers from any `LineSource` (libedit,
// a pipe, or a scripted list in tests).

/// What one attempt to read a line produced.
public enum ReadResult: Equatable, Sendable {
  /// A line, without its line terminator.
  case line(String)
  /// End of input: Ctrl-D on an empty line, or the end of a pipe.
  case endOfFile
  /// Ctrl-C: the line being typed was cancelled (or a signal ended the wait). The caller
  /// usually asks again.
  case interrupted
  /// A line longer than the limit for an answer line (`ReadLimit.answerLine`), skipped whole
  /// without being kept in memory: one rejected input. `bytes` is its length.
  case overlong(bytes: Int)
  /// Nothing was typed before the timeout of `readLine(prompt:timeoutMilliseconds:)`.
  case timedOut
}

/// Something the driver reads answers from, one line at a time.
public protocol LineSource: AnyObject {
  /// Reads one line. `prompt` is shown when the source shows prompts.
  func readLine(prompt: String) -> ReadResult
  /// Reads one line, or gives up with `.timedOut` when nothing is typed for
  /// `timeoutMilliseconds` (a filler screen that advances by itself). Sources that cannot
  /// wait so (pipes, plain terminals) read as `readLine(prompt:)`.
  func readLine(prompt: String, timeoutMilliseconds: Int64) -> ReadResult
  /// Reads the answer to a secret field: on a terminal without echo and never into the
  /// history (docs/security.md). Sources that echo nothing anyway read it as any line.
  func readSecretLine(prompt: String) -> ReadResult
  /// Releases the terminal and saves state. Idempotent.
  func shutdown()
  /// Whether prompts are shown: the driver makes none for a source that shows none (a pipe).
  var showsPrompt: Bool { get }
}

extension LineSource {
  public var showsPrompt: Bool { true }
  public func readSecretLine(prompt: String) -> ReadResult { readLine(prompt: prompt) }
  public func readLine(prompt: String, timeoutMilliseconds: Int64) -> ReadResult { readLine(prompt: prompt) }
}
