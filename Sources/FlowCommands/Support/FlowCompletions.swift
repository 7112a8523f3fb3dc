import ArgumentParser
import FlowFormat

/// Shell completion of the names a flow file holds (`--start`, `--screen`, `--flow`,
/// `--variant`): the shell calls flowrun back with the words typed so far; the first of them
/// that names a flow which loads is read, and its ids are offered. Nothing is offered while
/// no such file is on the line.
enum FlowCompletions {
  static let flowIDs = CompletionKind.custom { words, _, prefix in
    matching(prefix, document(in: words).map { $0.flows.map(\.id) })
  }

  static let screenIDs = CompletionKind.custom { words, _, prefix in
    matching(prefix, document(in: words).map { $0.flows.flatMap { $0.screens.map(\.id) } })
  }

  /// `experiment=variant` for every variant of every experiment.
  static let variants = CompletionKind.custom { words, _, prefix in
    matching(
      prefix,
      document(in: words).map { document in
        document.experiments.flatMap { experiment in experiment.variants.map { "\(experiment.id)=\($0.id)" } }
      })
  }

  private static func document(in words: [String]) -> FlowDocument? {
    for word in words where word.hasSuffix(".json") {
      if let document = FlowLoader.load(path: word).document { return document }
    }
    return nil
  }

  private static func matching(_ prefix: String, _ candidates: [String]?) -> [String] {
    var seen: Set<String> = []
    return (candidates ?? []).filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
  }
}
