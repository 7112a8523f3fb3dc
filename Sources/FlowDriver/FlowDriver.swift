// FlowDriver: the line protocol shared by interactive runs and pipes (see Package.swift).
//
// - `InputLanguage`: one typed line → `InputLine` (answers and `:` commands), with errors.
// - `Driver`: asks a session's screens over a `LineSource` and writes to an output sink.
// - `LineSource` / `ReadResult`: where lines come from (libedit and stdin live in FlowTerminal).
// - `JSONBridge`: JSON typed in the line protocol as FlowExpression values.
//
// No libedit, no ArgumentParser, no clock: time comes in through `DriverOptions`.
