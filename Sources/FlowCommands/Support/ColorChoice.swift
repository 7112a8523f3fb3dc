import ArgumentParser
import FlowTerminal

extension ColorMode: ExpressibleByArgument {}

extension ColorMode {
  /// Whether to style standard output: `always`, `never`, or (`auto`) stdout is a terminal,
  /// `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
  var enabledForStandardOutput: Bool {
    TerminalInfo.colorEnabled(mode: self)
  }
}
