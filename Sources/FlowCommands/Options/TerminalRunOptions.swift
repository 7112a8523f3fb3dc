import ArgumentParser

/// `run`'s options for walking a flow at a terminal (docs/cli.md, "Terminal and pipe").
struct TerminalRunOptions: ParsableArguments {
  @Flag(
    name: .customLong("no-auto-advance"),
    help: "On a terminal, keep a screen with autoAdvanceMs until a line or :wait moves it on.")
  var noAutoAdvance = false
}
