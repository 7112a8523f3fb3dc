/// A small JSON tree for generated documents, written with a fixed layout so the same tree
/// always gives the same bytes.
///
/// Layout: containers shallower than `inlineDepth` are spread one member per line (indented
/// by two spaces), deeper ones and those holding only scalars stay on one line — the way
/// hand-written flows look, with one block or rule per line.
public indirect enum JSONText: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  /// A number written exactly as given (for fractions such as `0.5`).
  case number(String)
  case string(String)
  case array([JSONText])
  case object([(String, JSONText)])

  /// Appends the text of `self` to `out`; `indent` is the current indentation in spaces,
  /// `depth` the nesting depth of `self`.
  public func write(to out: inout [UInt8], indent: Int = 0, inlineDepth: Int = 5, depth: Int = 0) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .int(let i): out.append(contentsOf: String(i).utf8)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let items):
      writeContainer(
        count: items.count, open: 0x5B, close: 0x5D, to: &out, indent: indent,
        inline: depth >= inlineDepth || items.allSatisfy(\.isScalar)
      ) { i, out, indent in
        items[i].write(to: &out, indent: indent, inlineDepth: inlineDepth, depth: depth + 1)
      }
    case .object(let members):
      writeContainer(
        count: members.count, open: 0x7B, close: 0x7D, to: &out, indent: indent,
        inline: depth >= inlineDepth || members.allSatisfy(\.1.isScalar)
      ) { i, out, indent in
        Self.writeString(members[i].0, to: &out)
        out.append(contentsOf: ": ".utf8)
        members[i].1.write(to: &out, indent: indent, inlineDepth: inlineDepth, depth: depth + 1)
      }
    }
  }

  var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  private func writeContainer(
    count: Int, open: UInt8, close: UInt8, to out: inout [UInt8], indent: Int, inline: Bool,
    element: (Int, inout [UInt8], Int) -> Void
  ) {
    out.append(open)
    if count == 0 {
      out.append(close)
      return
    }
    if inline {
      out.append(0x20)
      for i in 0..<count {
        if i > 0 { out.append(contentsOf: ", ".utf8) }
        element(i, &out, indent)
      }
      out.append(0x20)
    } else {
      for i in 0..<count {
        out.append(contentsOf: i > 0 ? ",\n".utf8 : "\n".utf8)
        out.append(contentsOf: repeatElement(0x20, count: indent + 2))
        element(i, &out, indent + 2)
      }
      out.append(0x0A)
      out.append(contentsOf: repeatElement(0x20, count: indent))
    }
    out.append(close)
  }

  /// Writes `s` as a JSON string literal: quotes, backslashes and control characters escaped,
  /// everything else (including non-ASCII) as UTF-8.
  public static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(0x22)
    for b in s.utf8 {
      switch b {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
      case 0x09: out.append(contentsOf: [0x5C, 0x74])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
      default: out.append(b)
      }
    }
    out.append(0x22)
  }
}
