/// The structure of a pattern, parsed by flowrun (PCRE2 does not expose its tree) for the
/// analyses that need it: `check.regex-backtracking` and the answers `paths` builds.
///
/// Covers the syntax of JavaScript and PCRE2's common extensions: literals and escapes, classes,
/// `.`, anchors, groups (capturing, named, non-capturing, atomic), lookarounds, backreferences,
/// greedy, lazy and possessive quantifiers, `(?i)`, `\Q…\E`, comments. A pattern with recursion,
/// conditionals, callouts, extended mode (`(?x)`), verbs with a body, or nesting deeper than
/// PCRE2's default limit of 250 is not parsed (`init` returns nil): the analyses then say nothing.
public struct PatternSyntax: Sendable {
  public enum Kind: Hashable, Sendable {
    /// One scalar of the set.
    case characters(ScalarSet)
    /// The children one after the other.
    case sequence
    /// One of the children.
    case alternation
    /// `(…)`, `(?<name>…)` (with its capture number) or `(?:…)`: one child.
    case group(capture: Int?)
    /// `(?>…)`: one child, never backtracked into.
    case atomic
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`: one child, zero-width.
    case lookaround(ahead: Bool, negative: Bool)
    /// `^`, `$`, `\b`, `\B`, `\A`, `\z`, `\Z`, `\G`, `\K`: zero-width.
    case assertion
    /// `\1`, `\k<name>`, …: the capture number, nil when no group has that name.
    case backreference(Int?)
    /// The child `min` to `max` times (nil: unbounded); possessive ones never give back.
    case repetition(min: Int, max: Int?, possessive: Bool)
  }

  public struct Node: Hashable, Sendable {
    public var kind: Kind
    public var children: [Int]
    /// The node is the pattern's scalars `start..<end`.
    public var start: Int
    public var end: Int
  }

  /// Every node; children come before their parent.
  public let nodes: [Node]
  /// The last node.
  public var root: Int { nodes.count - 1 }
  /// The pattern's scalars.
  private let scalars: [Unicode.Scalar]

  /// PCRE2's default limit on nested parentheses: a pattern that compiled is within it.
  static let nestingLimit = 250

  public init?(_ source: String) {
    var parser = Parser(Array(source.unicodeScalars))
    guard let nodes = parser.parse() else { return nil }
    self.nodes = nodes
    scalars = parser.scalars
  }

  /// The pattern's text at `range` (scalar offsets, as in nodes and risks).
  public func text(_ range: Range<Int>) -> String {
    String(String.UnicodeScalarView(scalars[range.clamped(to: 0..<scalars.count)]))
  }
}

/// Recursive descent over the scalars; nodes are appended after their children.
private struct Parser {
  let scalars: [Unicode.Scalar]
  var position = 0
  var depth = 0
  var nodes: [PatternSyntax.Node] = []
  var captures = 0
  var names: [String: Int] = [:]
  /// Named backreferences, resolved once every group is known (a reference may come first).
  var namedReferences: [(node: Int, name: String)] = []
  /// The pattern asks for caseless matching somewhere (`(?i)`): character sets get both cases.
  var caseless = false

  init(_ scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  mutating func parse() -> [PatternSyntax.Node]? {
    guard parseAlternation() != nil, position == scalars.count else { return nil }
    for (node, name) in namedReferences { nodes[node].kind = .backreference(names[name]) }
    if caseless {
      for index in nodes.indices {
        if case .characters(var set) = nodes[index].kind {
          set.addCaseVariants()
          nodes[index].kind = .characters(set)
        }
      }
    }
    return nodes
  }

  var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  func peek(_ offset: Int) -> Unicode.Scalar? {
    position + offset < scalars.count ? scalars[position + offset] : nil
  }

  mutating func add(_ kind: PatternSyntax.Kind, _ children: [Int] = [], from start: Int) -> Int {
    nodes.append(PatternSyntax.Node(kind: kind, children: children, start: start, end: position))
    return nodes.count - 1
  }

  /// Takes `text` when the input continues with it.
  mutating func take(_ text: String) -> Bool {
    let wanted = Array(text.unicodeScalars)
    guard position + wanted.count <= scalars.count, Array(scalars[position..<position + wanted.count]) == wanted
    else { return false }
    position += wanted.count
    return true
  }

  // MARK: Structure

  mutating func parseAlternation() -> Int? {
    let start = position
    var branches: [Int] = []
    repeat {
      guard let branch = parseSequence() else { return nil }
      branches.append(branch)
    } while take("|")
    return branches.count == 1 ? branches[0] : add(.alternation, branches, from: start)
  }

  mutating func parseSequence() -> Int? {
    let start = position
    var terms: [Int] = []
    while let scalar = current, scalar != "|", scalar != ")" {
      guard let term = parseTerm() else { return nil }
      if let term { terms.append(term) }
    }
    return add(.sequence, terms, from: start)
  }

  /// An atom and its quantifiers; `.some(nil)` for something that matches nothing at all
  /// (a comment, an option setting, `\E`).
  mutating func parseTerm() -> Int?? {
    let start = position
    guard let atom = parseAtom() else { return nil }
    guard var node = atom else { return .some(nil) }
    while let (min, max) = parseQuantifier() {
      // A lazy quantifier (`+?`) backtracks as much as a greedy one; a possessive one never.
      let possessive = take("+")
      if !possessive { _ = take("?") }
      node = add(.repetition(min: min, max: max, possessive: possessive), [node], from: start)
    }
    return .some(node)
  }

  /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`; nil (nothing taken) when none follows.
  mutating func parseQuantifier() -> (Int, Int?)? {
    switch current {
    case "*":
      position += 1
      return (0, nil)
    case "+":
      position += 1
      return (1, nil)
    case "?":
      position += 1
      return (0, 1)
    case "{":
      var index = position + 1
      func number() -> Int? {
        var value: Int?
        while index < scalars.count, let digit = Character(scalars[index]).wholeNumberValue, scalars[index].isASCII {
          value = min((value ?? 0) * 10 + digit, 1_000_000)
          index += 1
        }
        return value
      }
      guard let low = number() else { return nil }
      var high: Int? = low
      if index < scalars.count, scalars[index] == "," {
        index += 1
        high = number()
      }
      guard index < scalars.count, scalars[index] == "}" else { return nil }
      position = index + 1
      return (low, high)
    default: return nil
    }
  }

  mutating func parseAtom() -> Int?? {
    let start = position
    guard let scalar = current else { return nil }
    position += 1
    switch scalar {
    case "(":
      return parseGroup(from: start)
    case "[":
      return parseClass(from: start).map { add(.characters($0), from: start) }
    case ".":
      return add(.characters(.dot), from: start)
    case "^", "$":
      return add(.assertion, from: start)
    case "\\":
      return parseEscape(from: start)
    default:
      return add(.characters(ScalarSet([scalar.value])), from: start)
    }
  }

  mutating func parseGroup(from start: Int) -> Int?? {
    guard depth < PatternSyntax.nestingLimit else { return nil }
    if take("*") {
      // A start-of-pattern setting or a verb without a body, such as (*UTF) or (*FAIL); one
      // with a body, such as (*atomic:…), is not parsed.
      while let scalar = current, scalar != ")" {
        if scalar == ":" { return nil }
        position += 1
      }
      return take(")") ? .some(nil) : nil
    }
    var kind = PatternSyntax.Kind.group(capture: nil)
    if take("?") {
      if take("#") {
        while let scalar = current, scalar != ")" { position += 1 }
        return take(")") ? .some(nil) : nil
      } else if take(":") || take("|") {
        kind = .group(capture: nil)
      } else if take(">") {
        kind = .atomic
      } else if take("=") {
        kind = .lookaround(ahead: true, negative: false)
      } else if take("!") {
        kind = .lookaround(ahead: true, negative: true)
      } else if take("<=") {
        kind = .lookaround(ahead: false, negative: false)
      } else if take("<!") {
        kind = .lookaround(ahead: false, negative: true)
      } else if take("P=") {
        guard let name = parseName(until: ")") else { return nil }
        namedReferences.append((add(.backreference(nil), from: start), name))
        return .some(nodes.count - 1)
      } else if take("<") || take("P<") {
        guard let name = parseName(until: ">") else { return nil }
        kind = capture(named: name)
      } else if take("'") {
        guard let name = parseName(until: "'") else { return nil }
        kind = capture(named: name)
      } else {
        // Option letters: `(?i)` applies to the rest, `(?i:…)` is a group; anything else here
        // (recursion, conditionals, callouts) is not parsed.
        var letters = ""
        while let scalar = current, scalar.properties.isAlphabetic || scalar == "-" || scalar == "^" {
          letters.unicodeScalars.append(scalar)
          position += 1
        }
        guard !letters.contains("x"), letters.allSatisfy({ "imnsJU-^".contains($0) }) else { return nil }
        // Letters after `-` turn options off.
        if letters.split(separator: "-", omittingEmptySubsequences: false)[0].contains("i") { caseless = true }
        if take(")") { return .some(nil) }
        guard take(":") else { return nil }
      }
    } else {
      captures += 1
      kind = .group(capture: captures)
    }
    depth += 1
    defer { depth -= 1 }
    guard let body = parseAlternation(), take(")") else { return nil }
    return add(kind, [body], from: start)
  }

  mutating func capture(named name: String) -> PatternSyntax.Kind {
    captures += 1
    if names[name] == nil { names[name] = captures }
    return .group(capture: captures)
  }

  /// Word characters up to `end`, which is taken.
  mutating func parseName(until end: Unicode.Scalar) -> String? {
    var name = ""
    while let scalar = current, scalar != end {
      name.unicodeScalars.append(scalar)
      position += 1
    }
    return take(String(end)) && !name.isEmpty ? name : nil
  }

  // MARK: Escapes and classes

  /// An escape outside a class.
  mutating func parseEscape(from start: Int) -> Int?? {
    guard let letter = current else { return nil }
    switch letter {
    case "b", "B", "A", "z", "Z", "G", "K":
      position += 1
      return add(.assertion, from: start)
    case "E":
      position += 1
      return .some(nil)
    case "Q":
      // Literal text up to `\E` (or the end).
      position += 1
      var literals: [Int] = []
      while current != nil, !take("\\E") {
        let at = position
        position += 1
        literals.append(add(.characters(ScalarSet([scalars[at].value])), from: at))
      }
      return add(.sequence, literals, from: start)
    case "1"..."9":
      var number = 0
      while let scalar = current, let digit = Character(scalar).wholeNumberValue, scalar.isASCII {
        number = min(number * 10 + digit, 1_000_000)
        position += 1
      }
      return add(.backreference(number), from: start)
    case "k", "g":
      position += 1
      // \k<name>, \k'name', \k{name}, \g{name}, \g{n}, \g{-n}, \gn
      let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [("<", ">"), ("'", "'"), ("{", "}")]
      guard let (_, close) = pairs.first(where: { $0.0 == current }) else {
        var number = 0
        while let scalar = current, let digit = Character(scalar).wholeNumberValue, scalar.isASCII {
          number = min(number * 10 + digit, 1_000_000)
          position += 1
        }
        return add(.backreference(number), from: start)
      }
      position += 1
      guard let name = parseName(until: close) else { return nil }
      if let number = Int(name) {
        return add(.backreference(number > 0 ? number : captures + 1 + number), from: start)
      }
      namedReferences.append((add(.backreference(nil), from: start), name))
      return .some(nodes.count - 1)
    default:
      guard let set = parseClassEscape(inClass: false) else { return nil }
      return add(.characters(set), from: start)
    }
  }

  /// The set of an escape (after the backslash) that stands for characters.
  mutating func parseClassEscape(inClass: Bool) -> ScalarSet? {
    guard let letter = current else { return nil }
    position += 1
    switch letter {
    case "d": return .digits
    case "D": return ScalarSet.digits.inverted
    case "w": return .wordCharacters
    case "W": return ScalarSet.wordCharacters.inverted
    case "s": return .whiteSpace
    case "S": return ScalarSet.whiteSpace.inverted
    case "h": return .horizontalSpace
    case "H": return ScalarSet.horizontalSpace.inverted
    case "v", "R": return .verticalSpace
    case "V": return ScalarSet.verticalSpace.inverted
    case "N": return .dot
    case "X", "C": return .all
    case "p", "P":
      var name = ""
      if take("{") {
        guard let braced = parseName(until: "}") else { return nil }
        name = braced
      } else {
        guard let scalar = current else { return nil }
        name.unicodeScalars.append(scalar)
        position += 1
      }
      return letter == "p" ? Self.unicodeProperty(name) : .all
    default:
      position -= 1
      return parseEscapedScalar(inClass: inClass).map { ScalarSet([$0]) }
    }
  }

  /// An escape that stands for one scalar: `\n`, `\x41`, `\u0041`, `\u{1F600}`, `\cM`, `\0`,
  /// `\o{101}`, or an escaped character itself. In a class `\b` is a backspace.
  mutating func parseEscapedScalar(inClass: Bool) -> UInt32? {
    guard let letter = current else { return nil }
    position += 1
    func hex(_ count: Int) -> UInt32? {
      guard position + count <= scalars.count else { return nil }
      var value: UInt32 = 0
      for scalar in scalars[position..<position + count] {
        guard let digit = Character(scalar).hexDigitValue, scalar.isASCII else { return nil }
        value = value << 4 | UInt32(digit)
      }
      position += count
      return value
    }
    func braced(radix: UInt32) -> UInt32? {
      guard take("{") else { return nil }
      var value: UInt32 = 0
      while let scalar = current, scalar != "}" {
        guard let digit = Character(scalar).hexDigitValue, UInt32(digit) < radix, value < 0x11_0000 else { return nil }
        value = value * radix + UInt32(digit)
        position += 1
      }
      return take("}") ? value : nil
    }
    switch letter {
    case "n": return 0x0A
    case "r": return 0x0D
    case "t": return 0x09
    case "f": return 0x0C
    case "e": return 0x1B
    case "a": return 0x07
    case "b" where inClass: return 0x08
    // JavaScript's forms: exactly two or four hex digits, or braces; otherwise the letter.
    case "x": return hex(2) ?? letter.value
    case "u": return hex(4) ?? braced(radix: 16) ?? letter.value
    case "o": return braced(radix: 8)
    case "c":
      guard let control = current else { return nil }
      position += 1
      return control.properties.uppercaseMapping.unicodeScalars.first.map { $0.value ^ 0x40 }
    case "0":
      var value: UInt32 = 0
      var digits = 0
      while digits < 2, let scalar = current, ("0"..."7").contains(scalar) {
        value = value * 8 + scalar.value - 0x30
        position += 1
        digits += 1
      }
      return value
    default: return letter.value
    }
  }

  /// `[…]` after the bracket: the set it matches. `[]` matches nothing and `[^]` anything
  /// (PCRE2_ALLOW_EMPTY_CLASS, as in JavaScript).
  mutating func parseClass(from start: Int) -> ScalarSet? {
    let negated = take("^")
    var set = ScalarSet()
    /// The single scalar of the last item, the start of a possible range.
    var previous: UInt32?
    while let scalar = current, scalar != "]" {
      if take("[:") {
        let negatedClass = take("^")
        guard let name = parseName(until: ":"), take("]") else { return nil }
        set.formUnion(negatedClass ? Self.posixClass(name).inverted : Self.posixClass(name))
        previous = nil
        continue
      }
      if scalar == "-", let low = previous, let next = peek(1), next != "]" {
        position += 1
        let high: UInt32
        if next == "\\" {
          position += 1
          guard let escaped = parseClassEscape(inClass: true) else { return nil }
          // `[a-\d]`: not a range, a hyphen and a set.
          guard let single = escaped.singleScalar else {
            set.insert(0x2D)
            set.formUnion(escaped)
            previous = nil
            continue
          }
          high = single
        } else {
          high = next.value
          position += 1
        }
        guard low <= high else { return nil }
        set.insert(low...high)
        previous = nil
        continue
      }
      position += 1
      if scalar == "\\" {
        guard let escaped = parseClassEscape(inClass: true) else { return nil }
        set.formUnion(escaped)
        previous = escaped.singleScalar
      } else {
        set.insert(scalar.value)
        previous = scalar.value
      }
    }
    guard take("]") else { return nil }
    return negated ? set.inverted : set
  }

  /// `\p{name}`: the ASCII members of a general category (`L`, `Lu`, `N`, `P`, `S`, `Z`, …) or
  /// of the Latin script, and every scalar above ASCII; other names stand for every scalar.
  static func unicodeProperty(_ name: String) -> ScalarSet {
    var ascii: ScalarSet
    switch name.first {
    case _ where name == "Latin": ascii = ScalarSet([0x41...0x5A, 0x61...0x7A])
    case _ where name.count > 2: return .all
    case "L": ascii = ScalarSet([0x41...0x5A, 0x61...0x7A])
    case "N": ascii = .digits
    case "P":
      ascii = ScalarSet([
        0x21...0x23, 0x25...0x2A, 0x2C...0x2F, 0x3A...0x3B, 0x3F...0x40, 0x5B...0x5D, 0x5F...0x5F, 0x7B...0x7B,
        0x7D...0x7D,
      ])
    case "S": ascii = ScalarSet([0x24, 0x2B, 0x3C, 0x3D, 0x3E, 0x5E, 0x60, 0x7C, 0x7E])
    case "Z": ascii = ScalarSet([0x20])
    default: return .all
    }
    ascii.insert(0x80...0x10_FFFF)
    return ascii
  }

  /// `[:name:]`; an unknown name stands for every scalar.
  static func posixClass(_ name: String) -> ScalarSet {
    switch name {
    case "digit": return .digits
    case "alpha": return ScalarSet([0x41...0x5A, 0x61...0x7A])
    case "alnum": return ScalarSet([0x30...0x39, 0x41...0x5A, 0x61...0x7A])
    case "upper": return ScalarSet(0x41...0x5A)
    case "lower": return ScalarSet(0x61...0x7A)
    case "space": return .whiteSpace
    case "word": return .wordCharacters
    case "xdigit": return ScalarSet([0x30...0x39, 0x41...0x46, 0x61...0x66])
    default: return .all
    }
  }
}

extension ScalarSet {
  init(_ ranges: [ClosedRange<UInt32>]) {
    self.init()
    for range in ranges { insert(range) }
  }
}
