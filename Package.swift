// swift-tools-version: 6.2
// flowrun: a command-line runner and simulator for server-driven onboarding flows.
//
// Layers, each depending only on the ones above it:
//   FlowExpression  values, the expression language and templates (pure, no dependencies)
//   FlowFormat      located JSON, diagnostics, the flow model and its loader
//   FlowEngine      the session reducer: (state, input) -> (state, outputs); no I/O, no clock
//   FlowRender      screens as text
//   FlowReplay      replay scripts, expectations, reports
//   FlowAnalysis    lint rules, graphs, path exploration, coverage
//   FlowDriver      the line protocol shared by interactive runs and pipes
//   FlowTerminal    the only module that touches libedit and the TTY
//   flowrun         the command line (the only importer of ArgumentParser in the product)
//
// Development tools, not part of the product:
//   FlowGenerator   seeded generator of valid flows and bundles (benchmarks, robustness tests)
//   flowrun-bench   `generate` and `run` (benchmarks); see docs/performance.md
//   Tests/Fuzz      libFuzzer targets, built by .ci/fuzz with swiftc (not SwiftPM targets)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .treatAllWarnings(as: .error),
]

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
    .target(
      name: "FlowExpression",
      dependencies: [
        .product(name: "OrderedCollections", package: "swift-collections")
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowFormat",
      dependencies: [
        "FlowExpression",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowEngine",
      dependencies: [
        "FlowExpression", "FlowFormat",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowRender",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowReplay",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowGenerator",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowAnalysis",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowReplay",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowDriver",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowReplay",
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
      dependencies: ["CLibEdit"]
    ),
    .target(
      name: "FlowTerminal",
      dependencies: ["FlowExpression", "FlowDriver", "FlowReplay", "CLibEditShim", "CLibEdit"],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "flowrun",
      dependencies: [
        "FlowExpression", "FlowFormat", "FlowEngine", "FlowRender", "FlowReplay",
        "FlowAnalysis", "FlowDriver", "FlowTerminal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "FlowGenerator",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "flowrun-bench",
      dependencies: [
        "FlowGenerator", "FlowFormat", "FlowExpression", "FlowEngine", "FlowReplay", "FlowAnalysis",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "_FlowTestSupport",
      path: "Tests/_FlowTestSupport",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowExpressionTests",
      dependencies: ["FlowExpression", "FlowGenerator", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowFormatTests",
      dependencies: ["FlowFormat", "FlowExpression", "FlowGenerator", "_FlowTestSupport"],
      exclude: ["Fixtures", "Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowEngineTests",
      dependencies: ["FlowEngine", "FlowFormat", "FlowExpression", "FlowGenerator", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowTerminalTests",
      dependencies: ["FlowTerminal", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowRenderTests",
      dependencies: ["FlowRender", "FlowEngine", "FlowFormat", "FlowExpression", "_FlowTestSupport"],
      exclude: ["Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowReplayTests",
      dependencies: ["FlowReplay", "FlowRender", "FlowEngine", "FlowFormat", "FlowExpression", "_FlowTestSupport"],
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
      dependencies: ["FlowAnalysis", "FlowGenerator", "FlowReplay", "FlowEngine", "FlowFormat", "FlowExpression", "_FlowTestSupport"],
      exclude: ["Snapshots"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowGeneratorTests",
      dependencies: ["FlowGenerator", "FlowFormat", "FlowAnalysis", "_FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowCLITests",
      dependencies: ["_FlowTestSupport"],
      exclude: ["Snapshots", "BadInputs"],
      swiftSettings: swiftSettings
    ),
  ]
)
