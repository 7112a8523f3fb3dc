// FlowTerminal: the only module that touches libedit and the TTY (see Package.swift).
//
// - `LineSource` / `ReadResult`: what the driver reads answers from.
// - `LineEditor`: libedit (prompt, history, Tab completion, Ctrl-C cancels the line).
// - `PlainLineSource`: stdin without libedit, for pipes and TERM=dumb.
// - `LineSources.standardInput(...)`: picks one of the two.
// - `Completion`: the pure word/prefix logic behind Tab.
// - `TerminalInfo`, `ColorMode`, `OutputChannel`: TTY checks, width, colour, stdout setup.
