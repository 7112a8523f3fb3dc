import FlowSupport

/// Standard output and standard error of every command, through FlowSupport's `OutputChannel`:
/// a reader that goes away (`| head -1`) stops the writing quietly, so the command goes on to
/// write its files and keeps its exit code; any other failure (`> /dev/full`) is reported when
/// the command ends (`Flowrun.main()`), with exit code 1 at least.
struct Output: Sendable {
  let channel: OutputChannel

  static let standard = Output(channel: .standardOutput)
  static let error = Output(channel: .standardError)

  func write(_ text: String) {
    channel.write(text)
  }
}
