extension Pattern {
  /// A text the pattern matches, for tools that must give a valid answer (`flowrun paths`), or
  /// nil when none was found.
  ///
  /// A few candidates are built from the pattern's structure (`PatternSyntax`: the fewest
  /// repetitions, then more; the first alternative, then others; the usual characters of each
  /// set, then others; the texts of positive lookaheads in front) and each is checked with
  /// `match`, so the answer is right whatever the approximations. The first that matches with a
  /// length in `lengths` wins, else the first that matches. At most `exampleCandidates` matches
  /// are tried, each within `PatternLimits`, so the cost is bounded for any pattern.
  public func example(lengths: ClosedRange<Int> = 0...Int.max) -> String? {
    guard let syntax = PatternSyntax(source) else { return nil }
    let lookaheads = syntax.nodes.compactMap { node -> Int? in
      guard case .lookaround(ahead: true, negative: false) = node.kind else { return nil }
      return node.children[0]
    }
    var candidates: [String] = []
    // Room for the longest text wanted (up to 10,000 scalars), and a little more.
    let budget = max(0, min(lengths.lowerBound, 10_000)) + 1_000
    func add(_ style: ExampleStyle) {
      var generator = ExampleGenerator(syntax: syntax, style: style, length: budget)
      guard let text = generator.text(of: syntax.root) else { return }
      // Text a lookahead wants is put in front, where `.*` style lookaheads look for it.
      let prefix = lookaheads.compactMap { generator.text(of: $0) }.joined()
      for candidate in prefix.isEmpty ? [text] : [prefix + text, text] where !candidates.contains(candidate) {
        candidates.append(candidate)
      }
    }
    for style in ExampleStyle.tried { add(style) }
    // Longer texts for a minimum length: more repetitions of whatever may repeat.
    var extra = 4
    while lengths.lowerBound > (candidates.map(\.count).max() ?? 0), extra <= min(lengths.lowerBound, budget) {
      add(ExampleStyle(alternative: 0, extra: extra, variety: 0))
      extra *= 2
    }
    // Those of a wanted length are tried first.
    let fitting = candidates.filter { lengths.contains($0.count) }
    var firstMatch: String?
    for candidate in (fitting + candidates.filter { !lengths.contains($0.count) }).prefix(Self.exampleCandidates)
    where match(candidate) == .matched {
      if lengths.contains(candidate.count) { return candidate }
      if firstMatch == nil { firstMatch = candidate }
    }
    return firstMatch
  }

  /// The most candidates `example(lengths:)` matches.
  public static let exampleCandidates = 16
}

/// How a candidate is built: which alternative of each alternation, how many repetitions above
/// the minimum, which member of each character set.
struct ExampleStyle {
  var alternative: Int
  var extra: Int
  var variety: Int

  static let tried = [
    ExampleStyle(alternative: 0, extra: 0, variety: 0), ExampleStyle(alternative: 0, extra: 1, variety: 0),
    ExampleStyle(alternative: 1, extra: 1, variety: 0), ExampleStyle(alternative: 0, extra: 1, variety: 1),
    ExampleStyle(alternative: 2, extra: 1, variety: 2), ExampleStyle(alternative: 1, extra: 0, variety: 1),
    ExampleStyle(alternative: 0, extra: 2, variety: 3),
  ]
}

/// Builds one candidate, within a budget of nodes visited and scalars written.
struct ExampleGenerator {
  let syntax: PatternSyntax
  let style: ExampleStyle
  var captures: [Int: String] = [:]
  /// The character chosen for each set node.
  var samples: [Int: String] = [:]
  /// Scalars still to write, and nodes still to visit.
  var length: Int
  var visits: Int

  init(syntax: PatternSyntax, style: ExampleStyle, length: Int) {
    self.syntax = syntax
    self.style = style
    self.length = length
    visits = 10 * length
  }

  /// The text of `node`, or nil when a set is empty or the budget ran out.
  mutating func text(of node: Int) -> String? {
    visits -= 1
    guard visits > 0 else { return nil }
    let children = syntax.nodes[node].children
    switch syntax.nodes[node].kind {
    case .characters(let set):
      length -= 1
      guard length > 0 else { return nil }
      if let sample = samples[node] { return sample }
      guard let scalar = set.sample(variety: style.variety) else { return nil }
      samples[node] = String(Character(scalar))
      return samples[node]
    case .sequence:
      var text = ""
      for child in children {
        guard let part = self.text(of: child) else { return nil }
        text += part
      }
      return text
    case .alternation:
      return self.text(of: children[style.alternative % children.count])
    case .group(let capture):
      guard let text = self.text(of: children[0]) else { return nil }
      if let capture { captures[capture] = text }
      return text
    case .atomic:
      return self.text(of: children[0])
    case .lookaround, .assertion:
      return ""
    case .backreference(let number):
      return number.flatMap { captures[$0] } ?? ""
    case .repetition(let min, let max, _):
      let count = Swift.min(min + style.extra, max ?? Int.max)
      var text = ""
      for _ in 0..<count {
        guard let part = self.text(of: children[0]) else { return nil }
        text += part
      }
      return text
    }
  }
}
