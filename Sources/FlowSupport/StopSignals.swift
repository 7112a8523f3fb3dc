import CFlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP as flags, for the commands that end cleanly on them (`run`
/// writes its data and recording, `test` its reports) instead of dying with their work.
///
/// While caught, a signal only sets a flag and wakes `waitReadable`; blocked reads return.
/// A command catches them only when it checks the flags: elsewhere they keep their default
/// action (end the process), which atomic file writes make safe.
public enum StopSignals {
  /// Installs the recording handlers (nested; pair with `stopCatching()`) and unblocks the
  /// three signals on the calling thread: a parent may start us with them blocked
  /// (Foundation's `Process` does) and they would then never arrive. A signal ignored at
  /// start (`nohup`, `cmd &`) stays ignored.
  public static func startCatching() {
    flowrun_stop_signals_install()
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Restores the handlers `startCatching()` replaced.
  public static func stopCatching() { flowrun_stop_signals_restore() }

  /// True, once, when SIGINT arrived since the last call.
  public static func takeInterrupt() -> Bool { flowrun_take_interrupt() != 0 }

  /// The SIGTERM or SIGHUP received, if any (it stays: it ends the command).
  public static var termination: Int32? {
    let signal = flowrun_termination_signal()
    return signal == 0 ? nil : signal
  }

  /// The signal that asked to stop, without taking it: SIGTERM or SIGHUP first, else SIGINT.
  /// For code that polls from several threads (`test`).
  public static var pending: Int32? {
    termination ?? (flowrun_interrupt_pending() != 0 ? SIGINT : nil)
  }

  /// Waits until `fd` can be read (data, its end, or an error the read will report): true; or
  /// until a signal arrives: false. Delivery to another thread wakes it too, and a signal that
  /// arrived just before the call ends it at once.
  public static func waitReadable(_ fd: Int32) -> Bool {
    flowrun_wait_readable(fd) != 0
  }

  /// Waits until `fd` can be read: true; or until a stop signal (SIGINT, SIGTERM, SIGHUP)
  /// arrived, on whatever thread: false. It asks `pending` every 100 ms, since another thread
  /// waiting at the same time may have taken the wake-up a signal sends.
  public static func waitReadableOrStop(_ fd: Int32) -> Bool {
    while pending == nil {
      if flowrun_wait_readable_for(fd, 100) == 1 { return true }
    }
    return false
  }

  /// Ends a `waitReadable` (and the line being read) from another thread without a signal:
  /// `run --watch` calls it when the flow file changes. `takeWake()` tells it from a Ctrl-C.
  public static func wake() { flowrun_wake() }

  /// True, once, when `wake()` was called since the last call.
  public static func takeWake() -> Bool { flowrun_take_wake() != 0 }

  /// `SIGTERM` → "SIGTERM".
  public static func name(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }
}
