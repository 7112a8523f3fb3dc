// swift-tools-version: 6.2
// flowrun: a command-line runner and simulator for server-driven onboarding flows.
//
// Layers, each depending only on the ones above it:
//   FlowSupport     files, descriptors, signals, locks and a loopback HTTP server: all contact
//                   with the system but the terminal; display width and line diffs (no
//                   dependencies but its C part, CFlowSupport)
//   FlowPattern     regular expressions with bounded matching cost (PCRE2; the only CPCRE2 user)
//   FlowExpression  values, the expression language and templates (pure)
//   FlowFormat      located JSON, diagnostics, the flow model and its loader
//   FlowEngine      the session reducer: (state, input) -> (state, outputs); no I/O, no clock
//   FlowStore       submissions as the product backend stores them (SQLite, PostgreSQL; the
//                   only CSQLite and CLibPQ user), fed from sessions by the replay and driver
//   FlowRender      screens as text
//   FlowReplay      replay scripts, expectations, reports
//   FlowAnalysis    lint rules, graphs, path exploration, coverage
//   FlowSimulation  populations of simulated users through the engine: behaviour models,
//                   mergeable tallies, statistics, reports (`flowrun simulate`)
//   FlowDriver      the line protocol shared by interactive runs and pipes
//   FlowTerminal    the only module that touches libedit and the TTY
//   FlowCommands    the command line, one subcommand per file (the only importer of
//                   ArgumentParser in the product)
//   flowrun         the executable: one call into FlowCommands, linked statically in release
//
// Development tools, not part of the product:
//   FlowGenerator   seeded generator of valid flows and bundles (benchmarks, robustness tests)
//   FlowBenchSupport  benchmark workloads (generated scripts and flows) for flowrun-bench and
//                   the tests; the product links neither it nor FlowGenerator
//   flowrun-bench   `generate` and `run` (benchmarks); see docs/performance.md
//   Tests/Fuzz      libFuzzer targets, built by .ci/fuzz with swiftc (not SwiftPM targets)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .treatAllWarnings(as: .error),
]

// The release `flowrun` on Linux carries the Swift runtime and Foundation instead of loading
// them at every start (what `swift build --static-swift-stdlib` does, here for the one product,
// so that `swift build -c release` gives it; docs/performance.md, thirteenth round). Linking
// with `-static-stdlib` takes lib/swift_static's archives, but the objects, compiled against
// the shared Foundation modules, ask only for the libraries those link against: the static
// Foundation's own dependencies, which lib/swift_static's Foundation modules list, are named
// here. Debug builds (tests, `swift run`) and macOS keep the shared libraries. Only the
// one-line executable takes the settings: the tests link FlowCommands, since a test product
// that took them would not link (there is no static swift-testing), in release too.
let staticRuntime = BuildSettingCondition.when(platforms: [.linux], configuration: .release)
let staticRuntimeLinking: [LinkerSetting] =
  [.unsafeFlags(["-static-stdlib"], staticRuntime)]
  + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections", "swiftSynchronization"]
  .map { .linkedLibrary($0, staticRuntime) }

let package = Package(
  name: "flowrun",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "flowrun", targets: ["flowrun"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CPCRE2",
      pkgConfig: "libpcre2-8",
      providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
    ),
    .target(
      name: "FlowPattern",
      dependencies: ["CPCRE2"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "CFlowSupport"
    ),
    .target(
      name: "FlowSupport",
      dependencies: ["CFlowSupport"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowExpression",
      dependencies: [
        "FlowPattern",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowFormat",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowEngine",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowFormat",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .target(
      name: "CLibPQ"
    ),
    .target(
      name: "FlowStore",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowSupport", "CSQLite", "CLibPQ",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowRender",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowReplay",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowStore", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowAnalysis",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowFormat", "FlowEngine", "FlowReplay", "FlowStore", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowSimulation",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowFormat", "FlowEngine", "FlowReplay", "FlowStore", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowDriver",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowReplay", "FlowSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .systemLibrary(
      name: "CLibEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
    ),
    .target(
      name: "CLibEditShim",
      dependencies: ["CLibEdit", "CFlowSupport"]
    ),
    .target(
      name: "FlowTerminal",
      dependencies: ["FlowExpression", "FlowDriver", "FlowSupport", "CLibEditShim", "CLibEdit"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowCommands",
      dependencies: [
        "FlowPattern", "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowReplay", "FlowAnalysis",
        "FlowDriver", "FlowTerminal", "FlowStore", "FlowSimulation", "FlowSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "flowrun",
      dependencies: ["FlowCommands"],
      swiftSettings: swiftSettings,
      linkerSettings: staticRuntimeLinking
    ),
    .target(
      name: "FlowGenerator",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowBenchSupport",
      dependencies: ["FlowGenerator", "FlowFormat", "FlowReplay", "FlowAnalysis", "FlowSupport"],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "flowrun-bench",
      dependencies: [
        "FlowBenchSupport", "FlowGenerator", "FlowPattern", "FlowFormat", "FlowExpression", "FlowEngine", "FlowReplay",
        "FlowAnalysis", "FlowSimulation", "FlowSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "_FlowTestSupport",
      dependencies: ["FlowSupport", "CSQLite"],
      path: "Tests/_FlowTestSupport",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowSupportTests",
      dependencies: ["FlowSupport", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowPatternTests",
      dependencies: ["FlowPattern", "FlowSupport", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowExpressionTests",
      dependencies: ["FlowExpression", "FlowPattern", "FlowGenerator", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowFormatTests",
      dependencies: [
        "FlowFormat", "FlowPattern", "FlowExpression", "FlowGenerator", "_FlowTestSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      exclude: ["Fixtures", "Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowEngineTests",
      dependencies: [
        "FlowEngine", "FlowPattern", "FlowFormat", "FlowExpression", "FlowGenerator", "_FlowTestSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowTerminalTests",
      dependencies: ["FlowTerminal", "FlowSupport", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowRenderTests",
      dependencies: ["FlowRender", "FlowEngine", "FlowFormat", "FlowExpression", "FlowSupport", "_FlowTestSupport"],
      exclude: ["Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowStoreTests",
      dependencies: [
        "FlowStore", "FlowEngine", "FlowFormat", "FlowExpression", "FlowSupport", "_FlowTestSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowReplayTests",
      dependencies: [
        "FlowReplay", "FlowBenchSupport", "FlowSupport", "FlowRender", "FlowEngine", "FlowFormat", "FlowExpression",
        "_FlowTestSupport",
      ],
      exclude: ["Fixtures", "Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowDriverTests",
      dependencies: [
        "FlowDriver", "FlowReplay", "FlowRender", "FlowEngine", "FlowFormat", "FlowExpression", "_FlowTestSupport",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowAnalysisTests",
      dependencies: [
        "FlowAnalysis", "FlowBenchSupport", "FlowGenerator", "FlowReplay", "FlowEngine", "FlowFormat", "FlowExpression",
        "_FlowTestSupport",
      ],
      exclude: ["Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowSimulationTests",
      dependencies: [
        "FlowSimulation", "FlowStore", "FlowEngine", "FlowFormat", "FlowExpression", "FlowSupport", "_FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowGeneratorTests",
      dependencies: ["FlowGenerator", "FlowFormat", "FlowAnalysis", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowrunTests",
      dependencies: [
        "FlowCommands", "FlowEngine", "FlowExpression", "_FlowTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowCLITests",
      dependencies: ["_FlowTestSupport", "FlowStore", .product(name: "Yams", package: "Yams")],
      exclude: ["Snapshots", "BadInputs", "Fidelity"],
      swiftSettings: swiftSettings
    ),
  ]
)
