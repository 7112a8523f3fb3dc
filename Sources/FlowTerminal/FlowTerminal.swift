// FlowTerminal: the only module that touches libedit and the TTY (see Package.swift).
//
// - `LineSource` / `ReadResult` (defined in FlowDriver, re-exported): what the driver reads from.
// - `LineEditor`: libedit (prompt, history, Tab completion, Ctrl-C cancels the line).
// - `PlainLineSource`: stdin without libedit, for pipes and TERM=dumb.
// - `LineSources.standardInput(...)`: picks one of the two.
// - `Completion`: the pure word/prefix logic behind Tab.
// - `TerminalInfo`, `ColorMode`, `OutputChannel`: TTY checks, width, colour, stdout setup.
// - `Interrupts`: SIGINT as a flag, for runs on a pipe that end cleanly on Ctrl-C.
@_exported import FlowDriver
import CLibEditShim

/// SIGINT recorded as a flag instead of killing the process.
public enum Interrupts {
  /// Installs the recording handler (also done by `LineEditor` and by a `PlainLineSource` made
  /// with `cancelsOnInterrupt`); pair with `stopCatching()`.
  public static func startCatching() { flowrun_signals_install() }
  /// Restores the handler `startCatching()` replaced.
  public static func stopCatching() { flowrun_signals_restore() }
  /// True, once, when SIGINT arrived since the last call.
  public static func take() -> Bool { flowrun_take_interrupt() != 0 }
}
