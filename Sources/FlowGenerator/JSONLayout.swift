/// Re-lays out JSON text whose layout does not matter to a benchmark but its size and shape
/// do: the same document minified (no whitespace between tokens) or with every container spread
/// one member per line at a fixed indent (as `json.dumps(indent=N)` writes it). String
/// contents are copied byte for byte.
public enum JSONLayout: Sendable, Equatable {
  /// As the generator writes it (hand-written style: shallow containers spread, deep ones inline).
  case asWritten
  case minified
  case indented(Int)

  /// Parses `as-written`, `minified` or `indent=N` (N in 0...16); nil otherwise.
  public init?(parsing text: String) {
    switch text {
    case "as-written": self = .asWritten
    case "minified": self = .minified
    default:
      guard text.hasPrefix("indent="), let n = Int(text.dropFirst("indent=".count)), (0...16).contains(n) else {
        return nil
      }
      self = .indented(n)
    }
  }

  /// `bytes` (valid JSON) in this layout.
  public func apply(to bytes: [UInt8]) -> [UInt8] {
    let indent: Int
    switch self {
    case .asWritten: return bytes
    case .minified: indent = -1
    case .indented(let n): indent = n
    }
    var out: [UInt8] = []
    out.reserveCapacity(indent < 0 ? bytes.count : bytes.count * 2)
    var depth = 0
    var inString = false
    var escaped = false
    func newline() {
      guard indent >= 0 else { return }
      out.append(0x0A)
      out.append(contentsOf: repeatElement(0x20, count: depth * indent))
    }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          inString = false
        }
        continue
      }
      switch byte {
      case 0x20, 0x0A, 0x0D, 0x09: continue
      case 0x22:
        inString = true
        out.append(byte)
      case 0x7B, 0x5B:
        out.append(byte)
        // An empty container stays `{}` / `[]`.
        var next = index
        while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
        if next < bytes.count, bytes[next] == 0x7D || bytes[next] == 0x5D {
          out.append(bytes[next])
          index = next + 1
        } else {
          depth += 1
          newline()
        }
      case 0x7D, 0x5D:
        depth -= 1
        newline()
        out.append(byte)
      case 0x2C:
        out.append(byte)
        newline()
      case 0x3A:
        out.append(byte)
        if indent >= 0 { out.append(0x20) }
      default:
        out.append(byte)
      }
    }
    if indent >= 0 { out.append(0x0A) }
    return out
  }
}
