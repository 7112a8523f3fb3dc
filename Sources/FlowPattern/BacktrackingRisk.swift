/// A repeated group whose repetitions can share out the same text in many ways: on a text that
/// almost matches, a backtracking engine tries every way, which takes time exponential in the
/// text's length (`(a+)+` on `aaaa…!`). flowrun's matcher stops at `PatternLimits` and reports
/// the answer as too complex to check; `check.regex-backtracking` reports the pattern.
public struct BacktrackingRisk: Hashable, Sendable {
  public enum Reason: Hashable, Sendable {
    /// A variable repetition inside the group can match what follows it inside one repetition,
    /// or the start of the next one: `(a+)+`, `(a*)*`, `(\w+\s?)+`.
    case nestedRepetition
    /// Two alternatives inside the group can match the same text: `(a|a)*`, `(\w|\d)+`.
    case overlappingAlternatives
  }

  public var reason: Reason
  /// The repeated group (with its quantifier), in scalars of the pattern.
  public var group: Range<Int>
  /// The inner repetition or alternation that makes it ambiguous.
  public var part: Range<Int>
}

extension PatternSyntax {
  /// Every repeated group (`*`, `+`, `{n,}`, `{n,m}` with m ≥ 2; not possessive) that can
  /// backtrack catastrophically, in pattern order; a group inside one already reported is not
  /// reported again.
  ///
  /// The test is structural and errs towards silence: characters are compared as sets (`\w`
  /// and `a` overlap, `[\w-]` and `\.` do not), a repetition is ambiguous only when what it
  /// repeats can begin like what may follow it, alternatives only when they can match a common
  /// text. Atomic groups, possessive quantifiers and lookarounds are not looked into.
  public var backtrackingRisks: [BacktrackingRisk] {
    let facts = nodeFacts()
    var risks: [BacktrackingRisk] = []
    let repeated = nodes.indices.filter { index in
      guard case .repetition(_, let max, let possessive) = nodes[index].kind else { return false }
      return !possessive && (max ?? 2) >= 2
    }
    // Outermost first: a group that starts earlier, or at the same place and ends later.
    for index in repeated.sorted(by: { (nodes[$0].start, -nodes[$0].end) < (nodes[$1].start, -nodes[$1].end) }) {
      let group = nodes[index].start..<nodes[index].end
      if let last = risks.last, last.group.contains(group.lowerBound) { continue }
      let body = nodes[index].children[0]
      var analysis = Analysis(syntax: self, facts: facts)
      if let (reason, part) = analysis.ambiguity(in: body, followedBy: facts[body].first) {
        risks.append(BacktrackingRisk(reason: reason, group: group, part: part))
      }
    }
    return risks
  }

  /// What each node can begin with and whether it can match the empty text; children come
  /// before parents, so one pass fills it.
  func nodeFacts() -> [NodeFacts] {
    var facts: [NodeFacts] = []
    facts.reserveCapacity(nodes.count)
    for node in nodes {
      let children = node.children.map { facts[$0] }
      switch node.kind {
      case .characters(let set):
        facts.append(NodeFacts(first: set, nullable: false))
      case .sequence:
        var first = ScalarSet()
        var nullable = true
        for child in children where nullable {
          first.formUnion(child.first)
          nullable = child.nullable
        }
        facts.append(NodeFacts(first: first, nullable: nullable))
      case .alternation:
        var first = ScalarSet()
        for child in children { first.formUnion(child.first) }
        facts.append(NodeFacts(first: first, nullable: children.contains(where: \.nullable)))
      case .group, .atomic:
        facts.append(children[0])
      case .lookaround, .assertion, .backreference:
        facts.append(NodeFacts(first: ScalarSet(), nullable: true))
      case .repetition(let min, let max, _):
        facts.append(
          max == 0
            ? NodeFacts(first: ScalarSet(), nullable: true)
            : NodeFacts(first: children[0].first, nullable: min == 0 || children[0].nullable))
      }
    }
    return facts
  }
}

struct NodeFacts {
  var first: ScalarSet
  var nullable: Bool
}

/// The search for an ambiguity inside one repeated group, with a budget on the alternatives'
/// product search so that any pattern is analysed in bounded time.
private struct Analysis {
  let syntax: PatternSyntax
  let facts: [NodeFacts]
  /// States of the alternatives' product searches left for this group.
  var budget = 20_000

  init(syntax: PatternSyntax, facts: [NodeFacts]) {
    self.syntax = syntax
    self.facts = facts
  }

  func range(_ node: Int) -> Range<Int> { syntax.nodes[node].start..<syntax.nodes[node].end }

  /// The first ambiguity in `node`, which may be followed by text beginning with `follow`.
  mutating func ambiguity(in node: Int, followedBy follow: ScalarSet) -> (BacktrackingRisk.Reason, Range<Int>)? {
    let children = syntax.nodes[node].children
    switch syntax.nodes[node].kind {
    case .characters, .assertion, .backreference, .atomic, .lookaround:
      return nil
    case .group:
      return ambiguity(in: children[0], followedBy: follow)
    case .sequence:
      // What may follow each child: the next children's first characters, through those that
      // can be empty, then what follows the sequence.
      var follows = [ScalarSet](repeating: follow, count: children.count)
      var after = follow
      for (position, child) in children.enumerated().reversed() {
        follows[position] = after
        after = facts[child].nullable ? after.union(facts[child].first) : facts[child].first
      }
      for (position, child) in children.enumerated() {
        if let found = ambiguity(in: child, followedBy: follows[position]) { return found }
      }
      return nil
    case .alternation:
      if overlappingAlternatives(children) { return (.overlappingAlternatives, range(node)) }
      for child in children {
        if let found = ambiguity(in: child, followedBy: follow) { return found }
      }
      return nil
    case .repetition(let min, let max, let possessive):
      guard !possessive, max != 0 else { return nil }
      let body = children[0]
      let variable = max.map { $0 > min } ?? true
      if variable, facts[body].first.intersects(follow) { return (.nestedRepetition, range(node)) }
      let repeats = (max ?? 2) >= 2
      return ambiguity(in: body, followedBy: repeats ? follow.union(facts[body].first) : follow)
    }
  }

  /// Whether two of the alternatives can match a common non-empty text.
  mutating func overlappingAlternatives(_ alternatives: [Int]) -> Bool {
    var automata: [Int: Glushkov] = [:]
    for (i, a) in alternatives.enumerated() {
      // Alternatives longer than 256 scalars are not compared (their automata grow quadratically).
      for b in alternatives[(i + 1)...]
      where facts[a].first.intersects(facts[b].first) && range(a).count <= 256 && range(b).count <= 256 {
        guard budget > 0 else { return false }
        if automata[a] == nil { automata[a] = Glushkov(syntax, a) }
        if automata[b] == nil { automata[b] = Glushkov(syntax, b) }
        if let x = automata[a], let y = automata[b], x.sharesText(with: y, budget: &budget) { return true }
      }
    }
    return false
  }
}

/// The position automaton of a subtree: its character nodes, which of them can come first and
/// last, and which can follow which. Bounded repetitions are treated as unbounded (a superset).
private struct Glushkov {
  let sets: [Int: ScalarSet]
  let first: [Int]
  let last: Set<Int>
  let follow: [Int: Set<Int>]

  init(_ syntax: PatternSyntax, _ root: Int) {
    var sets: [Int: ScalarSet] = [:]
    var follow: [Int: Set<Int>] = [:]
    func link(_ from: [Int], _ to: [Int]) {
      for position in from { follow[position, default: []].formUnion(to) }
    }
    // (first, last, nullable) of a node, linking its positions on the way.
    func build(_ node: Int) -> (first: [Int], last: [Int], nullable: Bool) {
      let children = syntax.nodes[node].children
      switch syntax.nodes[node].kind {
      case .characters(let set):
        sets[node] = set
        return ([node], [node], false)
      case .sequence:
        var result: (first: [Int], last: [Int], nullable: Bool) = ([], [], true)
        for child in children {
          let part = build(child)
          link(result.last, part.first)
          if result.nullable { result.first += part.first }
          result.last = part.nullable ? result.last + part.last : part.last
          result.nullable = result.nullable && part.nullable
        }
        return result
      case .alternation:
        var result: (first: [Int], last: [Int], nullable: Bool) = ([], [], false)
        for child in children {
          let part = build(child)
          result.first += part.first
          result.last += part.last
          result.nullable = result.nullable || part.nullable
        }
        return result
      case .group, .atomic:
        return build(children[0])
      case .lookaround, .assertion, .backreference:
        return ([], [], true)
      case .repetition(let min, let max, _):
        guard max != 0 else { return ([], [], true) }
        let part = build(children[0])
        if (max ?? 2) >= 2 { link(part.last, part.first) }
        return (part.first, part.last, min == 0 || part.nullable)
      }
    }
    let root = build(root)
    self.sets = sets
    first = root.first
    last = Set(root.last)
    self.follow = follow
  }

  /// Whether some non-empty text takes both automata from a first position to a last one: a
  /// search of position pairs whose characters overlap, within `budget` pairs.
  func sharesText(with other: Glushkov, budget: inout Int) -> Bool {
    struct Pair: Hashable {
      var a: Int
      var b: Int
    }
    func overlap(_ a: Int, _ b: Int) -> Bool { sets[a]!.intersects(other.sets[b]!) }
    var seen = Set<Pair>()
    var queue: [Pair] = []
    for a in first {
      for b in other.first where overlap(a, b) && seen.insert(Pair(a: a, b: b)).inserted {
        queue.append(Pair(a: a, b: b))
      }
    }
    while let pair = queue.popLast() {
      budget -= 1
      if budget <= 0 { return false }
      if last.contains(pair.a) && other.last.contains(pair.b) { return true }
      for a in follow[pair.a] ?? [] {
        for b in other.follow[pair.b] ?? [] where overlap(a, b) && seen.insert(Pair(a: a, b: b)).inserted {
          queue.append(Pair(a: a, b: b))
        }
      }
    }
    return false
  }
}

extension ScalarSet {
  func union(_ other: ScalarSet) -> ScalarSet {
    var set = self
    set.formUnion(other)
    return set
  }
}
