// FlowEngine: the session reducer. See Package.swift for this module's place in the layers and
// docs/semantics.md for the state machine, event orders and edge cases.
//
// A `Session` is a value: `send(_:)` maps (state, input) to (state, [Output]) without I/O, clocks,
// randomness or global state. The immutable document is shared by all copies of a session.
