// FlowTerminal: the only module that touches libedit and the TTY (see Package.swift).
//
// - `LineSource` / `ReadResult` (defined in FlowDriver, re-exported): what the driver reads from.
// - `LineEditor`: libedit (prompt, history, Tab completion, Ctrl-C cancels the line).
// - `PlainLineSource`: stdin without libedit, for pipes and TERM=dumb.
// - `Completion`: the pure word/prefix logic behind Tab.
// - `TerminalInfo`, `ColorMode`: TTY checks, width, colour.
//
// Signals, standard output and files are FlowSupport's (`StopSignals`, `OutputChannel`).
@_exported import FlowDriver
