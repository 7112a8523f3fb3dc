import ArgumentParser
import FlowBenchSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FlowrunBench {
  /// `flowrun-bench run`: builds the inputs in a temp directory and prints a results table.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run the benchmarks and print a Markdown table (see docs/performance.md).")

    @Option(help: "Timed runs per benchmark (the median is reported).")
    var runs: Int = 5

    @Option(help: "Runs of `flowrun --version` for the start-up time.")
    var startupRuns: Int = 20

    @Option(help: "Size of the generated bundle in MB (decimal).")
    var sizeMb: Double = 20

    @Option(
      help:
        "Only these benchmarks: `targets` (what the Targets table needs), exact names, comma-separated (check, load+check, ...), else those whose name contains the text (paths)."
    )
    var only: String?

    @Option(help: "Scripts of the replay benchmark (fewer for a run under callgrind).")
    var replayScripts: Int = 10_000

    @Option(help: "Job counts of the replay benchmark (repeat the option for several).")
    var replayJobs: [Int] = [1, 2]

    @Flag(help: "Run just what the Targets table needs (the same as `--only targets`).")
    var targetsOnly = false

    @Flag(help: "Exit 1 unless every target in the Targets table was measured and met.")
    var strict = false

    @Flag(help: "Keep the temp directory with the generated inputs.")
    var keep = false

    func validate() throws {
      if targetsOnly, let only, only != Benchmark.targetsFilter {
        throw ValidationError("--targets-only runs the targets' benchmarks: leave out --only \(only)")
      }
    }

    func run() throws {
      #if DEBUG
        log("warning: this is a debug build; build with `swift build -c release` for real numbers")
      #endif
      var template = Array("/tmp/flowrun-bench-XXXXXX".utf8CString)
      guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw BenchError("cannot create a temp directory")
      }
      let directory = String(cString: dir)
      defer {
        if keep {
          log("inputs kept in \(directory)")
        } else {
          removeDirectory(directory)
        }
      }
      let binDir = executablePath().split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
        separator: "/")
      let flowrun = "\(binDir)/flowrun"
      var python: String?
      if let shim = which("python3") {
        // pyenv and friends put a shell script on PATH: time the interpreter, not the shim.
        python =
          captureOutput([shim, "-c", "import sys; print(sys.executable)"])?
          .split(separator: "\n").first.map(String.init) ?? shim
      }
      var context = BenchContext(
        directory: directory, runs: runs, startupRuns: startupRuns, sizeBytes: Int(sizeMb * 1e6),
        flowrun: access(flowrun, X_OK) == 0 ? flowrun : nil, python: python)
      context.replayScripts = replayScripts
      context.replayJobs = replayJobs
      let filter = targetsOnly ? Benchmark.targetsFilter : only
      context.targetsOnly = filter == Benchmark.targetsFilter
      let benchmarks = Benchmark.selected(by: filter)
      guard !benchmarks.isEmpty else {
        throw BenchError(
          "--only \(only ?? ""): no benchmark; names: \(Benchmark.all.map(\.name).joined(separator: ", "))")
      }
      var rows: [Measurement] = []
      for benchmark in benchmarks {
        log("running \(benchmark.name)...")
        rows += try benchmark.run(&context)
      }
      print("| Benchmark | Median | Details |")
      print("|---|---:|---|")
      for row in rows {
        print("| \(row.name) | \(row.value) | \(row.detail) |")
      }
      let table = BenchTargetTable.lines(context.targets)
      if !table.isEmpty {
        print("\nTargets\n")
        for line in table { print(line) }
      }
      if strict && !BenchTargetTable.allMet(context.targets) { throw ExitCode(1) }
    }

    private func removeDirectory(_ path: String) {
      guard let d = opendir(path) else { return }
      while let entry = readdir(d) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { unlink("\(path)/\(name)") }
      }
      closedir(d)
      rmdir(path)
    }
  }
}
