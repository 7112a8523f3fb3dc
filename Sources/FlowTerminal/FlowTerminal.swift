import CLibEditShim
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

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT recorded as a flag instead of killing the process.
public enum Interrupts {
  /// Installs the recording handler (also done by `LineEditor` and by a `PlainLineSource` made
  /// with `cancelsOnInterrupt`); pair with `stopCatching()`.
  public static func startCatching() { flowrun_signals_install() }
  /// Restores the handler `startCatching()` replaced.
  public static func stopCatching() { flowrun_signals_restore() }
  /// True, once, when SIGINT arrived since the last call.
  public static func take() -> Bool { flowrun_take_interrupt() != 0 }

  /// Unblocks SIGINT for the calling thread (call it on the main thread, which does the
  /// reads). A parent may start us with SIGINT blocked (Foundation's `Process` does); the
  /// signal would then stay pending and a blocked read would never return.
  public static func unblock() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}
