import ArgumentParser
import FlowGenerator
import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FlowrunBench {
  /// `flowrun-bench generate`: a valid flow or bundle, byte-identical for the same arguments.
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a valid, seeded flow or bundle (same arguments, same bytes).")

    @Option(help: "Seed of the SplitMix64 generator.")
    var seed: UInt64 = 1

    @Option(help: "Screens of the entry flow (before padding).")
    var screens: Int = 20

    @Option(help: "Rules on each screen that has rules.")
    var branching: Int = 2

    @Option(help: "Fraction of screens with rules (0...1).")
    var ruleDensity: Double = 0.3

    @Option(help: "Block weights, e.g. inputs=2,checklists=2,sliders=1,toggles=1,texts=3,buttons=1.")
    var mix: String?

    @Option(help: "Local experiments.")
    var experiments: Int = 0

    @Option(help: "Sub-flows (makes a bundle).")
    var subflows: Int = 0

    @Option(help: "Screens of each sub-flow.")
    var subflowScreens: Int = 4

    @Flag(help: "Write a bundle even without sub-flows.")
    var bundle = false

    @Option(help: "Pad the entry flow with informational screens up to about this size (bytes; k, M suffixes).")
    var targetBytes: String?

    @Option(
      help:
        "Write a large-input shape instead (\(LargeShape.allCases.map(\.rawValue).joined(separator: ", "))), sized by --target-bytes."
    )
    var shape: String?

    @Option(help: "Fraction of texts that hold a template once a field is collected (0...1).")
    var templateShare: Double?

    @Option(help: "Layout of the JSON: as-written, minified or indent=N (every container spread, N spaces).")
    var layout = "as-written"

    @Option(name: [.short, .long], help: "Output file (default: standard output).")
    var output: String?

    func validate() throws {
      guard screens >= 1 else { throw ValidationError("--screens must be at least 1") }
      guard branching >= 0, experiments >= 0, subflows >= 0, subflowScreens >= 1 else {
        throw ValidationError("counts must not be negative")
      }
      guard (0...1).contains(ruleDensity) else { throw ValidationError("--rule-density must be in 0...1") }
      if let mix, FlowGenerator.BlockMix(parsing: mix) == nil {
        throw ValidationError(
          "--mix: expected name=weight pairs (inputs, checklists, sliders, toggles, texts, buttons)")
      }
      if let targetBytes, Self.parseSize(targetBytes) == nil {
        throw ValidationError("--target-bytes: expected a size such as 20000000, 500k or 20M")
      }
      if let templateShare, !(0...1).contains(templateShare) {
        throw ValidationError("--template-share must be in 0...1")
      }
      if JSONLayout(parsing: layout) == nil {
        throw ValidationError("--layout: expected as-written, minified or indent=N (N in 0...16)")
      }
      if let shape, LargeShape(rawValue: shape) == nil {
        throw ValidationError("--shape: expected one of \(LargeShape.allCases.map(\.rawValue).joined(separator: ", "))")
      }
    }

    var generatorOptions: FlowGenerator.Options {
      var options = FlowGenerator.Options()
      options.seed = seed
      options.screens = screens
      options.branching = branching
      options.ruleDensity = ruleDensity
      if let mix { options.mix = FlowGenerator.BlockMix(parsing: mix) ?? options.mix }
      options.experiments = experiments
      options.subflows = subflows
      options.subflowScreens = subflowScreens
      options.bundle = bundle
      options.targetBytes = targetBytes.flatMap(Self.parseSize)
      options.templateShare = templateShare
      return options
    }

    /// `20000000`, `500k`, `20M` (decimal units).
    static func parseSize(_ text: String) -> Int? {
      let units: [Character: Int] = ["k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000]
      if let last = text.last, let unit = units[last] {
        return Double(text.dropLast()).map { Int($0 * Double(unit)) }
      }
      return Int(text)
    }

    func run() throws {
      let bytes =
        if let shape = shape.flatMap({ LargeShape(rawValue: $0) }) {
          shape.generate(targetBytes: targetBytes.flatMap(Self.parseSize) ?? 100_000)
        } else {
          FlowGenerator(generatorOptions).generate()
        }
      let text = String(decoding: (JSONLayout(parsing: layout) ?? .asWritten).apply(to: bytes), as: UTF8.self)
      if let output {
        if let problem = TextFile.write(text, to: output) {
          throw ValidationError("cannot write \(output): \(problem)")
        }
      } else if Descriptor.write(text, to: STDOUT_FILENO) != nil {
        throw ExitCode(1)
      }
    }
  }
}
