import ArgumentParser

/// `flowrun-bench`: a development tool, not part of the product. `generate` writes seeded
/// flows; `run` (the default) measures loading, checking and start-up (docs/performance.md).
@main
struct FlowrunBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowrun-bench",
    abstract: "Generate synthetic flows and benchmark flowrun.",
    discussion: "Build with `swift build -c release` and run `.build/release/flowrun-bench run`.",
    subcommands: [Run.self, Generate.self],
    defaultSubcommand: Run.self
  )
}
