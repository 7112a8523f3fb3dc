import CLibEditShim
import FlowExpression

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--color auto|always|never`.
public enum ColorMode: String, Sendable, CaseIterable {
  case auto, always, never
}

/// Facts about the terminal, decided once at the edge of the program.
public enum TerminalInfo {
  /// Reads one environment variable; tests pass a dictionary lookup instead.
  public typealias Environment = @Sendable (String) -> String?

  /// The process environment, read with getenv(3).
  public static let processEnvironment: Environment = { name in
    getenv(name).map { String(cString: $0) }
  }

  /// Whether `fd` refers to a terminal.
  public static func isTTY(_ fd: Int32) -> Bool {
    isatty(fd) == 1
  }

  /// The width to render for: the terminal's columns (TIOCGWINSZ on `fd`), else `COLUMNS`,
  /// else 80; clamped into `Limits.width` (a 10-column terminal gets 20, `COLUMNS=1000000000`
  /// gets 1000).
  public static func width(
    of fd: Int32 = STDOUT_FILENO, environment: Environment = processEnvironment
  ) -> Int {
    let columns = Int(flowrun_terminal_columns(fd))
    return resolveWidth(terminalColumns: columns > 0 ? columns : nil, environment: environment)
  }

  /// The pure part of `width(of:environment:)`.
  public static func resolveWidth(terminalColumns: Int?, environment: Environment) -> Int {
    if let terminalColumns, terminalColumns > 0 { return Limits.clamp(terminalColumns, to: Limits.width) }
    if let text = environment("COLUMNS"), let columns = Int(text), columns > 0 {
      return Limits.clamp(columns, to: Limits.width)
    }
    return 80
  }

  /// Whether to colour output. `auto` means stdout is a terminal, `NO_COLOR` is unset or
  /// empty, and `TERM` is not `dumb`.
  public static func colorEnabled(
    mode: ColorMode,
    stdoutIsTTY: Bool = isTTY(STDOUT_FILENO),
    environment: Environment = processEnvironment
  ) -> Bool {
    switch mode {
    case .always: return true
    case .never: return false
    case .auto:
      return stdoutIsTTY && (environment("NO_COLOR") ?? "").isEmpty
        && environment("TERM") != "dumb"
    }
  }

  /// Whether interactive input should go through libedit: stdin and stdout are terminals
  /// and `TERM` is set and not `dumb`.
  public static func wantsLineEditor(
    stdinIsTTY: Bool = isTTY(STDIN_FILENO),
    stdoutIsTTY: Bool = isTTY(STDOUT_FILENO),
    environment: Environment = processEnvironment
  ) -> Bool {
    guard stdinIsTTY, stdoutIsTTY, let term = environment("TERM") else { return false }
    return !term.isEmpty && term != "dumb"
  }
}
