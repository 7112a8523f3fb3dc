// FlowSupport: the bottom of the product, all of flowrun's contact with the operating system
// that is not the terminal, and the text measures every layer above shares (see Package.swift).
// No dependencies but CFlowSupport.
//
// - `TextFile`: files by path: bounded reading (`ReadLimit`, refused kinds), atomic writes.
// - `Descriptor`: the one descriptor write loop (EINTR and EAGAIN retried, no spin).
// - `OutputChannel`: standard output and event streams that stop at the first failed write.
// - `FileIdentity`: "is this output one of the inputs or another output?".
// - `StopSignals`: SIGINT, SIGTERM and SIGHUP as flags a command checks.
// - `StandardStreams`: closed descriptors reopened on /dev/null, SIGPIPE ignored.
// - `Locked`: the one lock.
// - `FilePaths`: path arithmetic (relative paths for scripts, lexical normalisation).
// - `DisplayWidth`: the terminal columns text takes (screens, diagnostic carets).
// - `LineDiff`: the lines two texts differ in, aligned (snapshots, generated docs).
//
// Not swift-system: its `FileDescriptor` (1.8) covers open, read, write and close, but not
// rename, fsync, poll, mkfifo-safe kind checks or signal handlers, so this target would still
// call Glibc for the parts that matter here, and a fresh clone would resolve one more package
// for a thin typed layer over a dozen calls.
