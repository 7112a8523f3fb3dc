import FlowFormat
import FlowGenerator
import Testing

/// Random JSON values, serialised in several ways, must parse back to the same value with
/// consistent positions; random damage to valid documents must never crash or hang.
@Suite struct JSONPropertyTests {
  static let stringPieces: [String] = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß",
    "日本", "😀", "👩‍👩‍👧", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "{", "]", ",", ":", "true",
  ]

  static func randomString(_ rng: inout SeededGenerator) -> String {
    var s = ""
    for _ in 0..<Int.random(in: 0...8, using: &rng) {
      if Int.random(in: 0..<4, using: &rng) == 0 {
        s.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0x20...0xD7FF, using: &rng))!)
      } else {
        s += stringPieces.randomElement(using: &rng)!
      }
    }
    return s
  }

  static func randomNumber(_ rng: inout SeededGenerator) -> JSONWriter.Value {
    switch Int.random(in: 0..<5, using: &rng) {
    case 0: return .int(Int.random(in: -1000...1000, using: &rng))
    case 1: return .int(Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 11...63, using: &rng))
    case 2: return .double(Double.random(in: -1...1, using: &rng))
    case 3:
      let d = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))
      return .double(d.isFinite ? d : 1.5)
    default: return .double(Double.random(in: -1e6...1e6, using: &rng).rounded() / 100)
    }
  }

  static func randomValue(_ rng: inout SeededGenerator, depth: Int = 0) -> JSONWriter.Value {
    let leaf = depth > 4 || Int.random(in: 0..<3, using: &rng) == 0
    switch Int.random(in: 0..<(leaf ? 5 : 7), using: &rng) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2: return randomNumber(&rng)
    case 3, 4: return .string(randomString(&rng))
    case 5:
      return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
    default:
      // Distinct keys: duplicates would only give warnings, covered elsewhere.
      var keys: [String] = []
      for _ in 0..<Int.random(in: 0...5, using: &rng) {
        let k = randomString(&rng)
        if !keys.contains(k) { keys.append(k) }
      }
      return .object(keys.map { (key: $0, value: randomValue(&rng, depth: depth + 1)) })
    }
  }

  /// Serialises with random whitespace (spaces, tabs, LF, CRLF, CR) between all tokens.
  static func write(_ value: JSONWriter.Value, _ rng: inout SeededGenerator, into out: inout String) {
    func ws() {
      for _ in 0..<Int.random(in: 0...2, using: &rng) {
        out += [" ", "\t", "\n", "\r\n", "\r", "  "].randomElement(using: &rng)!
      }
    }
    ws()
    switch value {
    case .array(let elements):
      out += "["
      ws()
      for (i, e) in elements.enumerated() {
        if i > 0 { out += "," }
        write(e, &rng, into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      ws()
      for (i, m) in members.enumerated() {
        if i > 0 { out += "," }
        ws()
        out += JSONWriter.quoted(m.key, escapeNonASCII: Bool.random(using: &rng))
        ws()
        out += ":"
        write(m.value, &rng, into: &out)
      }
      out += "}"
    default:
      out += JSONWriter.compact.string(value)
    }
    ws()
  }

  static func serialisations(_ value: JSONWriter.Value, _ rng: inout SeededGenerator) -> [[UInt8]] {
    var spaced = Bool.random(using: &rng) ? "\u{FEFF}" : ""
    write(value, &rng, into: &spaced)
    return [
      JSONWriter.compact.bytes(value),
      JSONWriter.pretty.bytes(value),
      JSONWriter(style: .pretty, indent: 1, escapeNonASCII: true).bytes(value),
      Array(spaced.utf8),
    ]
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func roundTrip(seed: UInt64) throws {
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<400 {
      let value = Self.randomValue(&rng)
      for bytes in Self.serialisations(value, &rng) {
        let (parsed, diagnostics) = JSONParser.parse(bytes)
        #expect(diagnostics.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        let root = try #require(parsed)
        #expect(root.writerValue == value, "\(String(decoding: bytes, as: UTF8.self))")
        // Every located value and key starts at the right byte, at the right line and column.
        for (location, isKey) in allLocations(root) {
          let byte = bytes[location.offset]
          if isKey { #expect(byte == UInt8(ascii: "\"")) }
          #expect(!(byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x2C))
          let reference = referencePosition(of: location.offset, in: bytes)
          #expect(location.line == reference.line && location.column == reference.column)
        }
      }
    }
  }

  @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
  func mutationsNeverCrash(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let interesting: [UInt8] =
      Array("{}[]\",:\\/*-+.0123456789eEtrufalsn \t\r\nu".utf8)
      + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0xEF, 0xBB]
    var documents: [[UInt8]] = []
    for _ in 0..<40 {
      documents += Self.serialisations(Self.randomValue(&rng), &rng)
    }
    var errors = 0
    for _ in 0..<5_000 {
      var bytes = documents.randomElement(using: &rng)!
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let i = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: if !bytes.isEmpty { bytes[i] = interesting.randomElement(using: &rng)! }
        case 1: bytes.insert(interesting.randomElement(using: &rng)!, at: i)
        case 2: if !bytes.isEmpty { bytes.remove(at: i) }
        case 3: bytes.removeSubrange(i...)
        case 4: if !bytes.isEmpty { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
        default:
          let j = Int.random(in: i...bytes.count, using: &rng)
          bytes.insert(contentsOf: bytes[i..<j], at: j)
        }
      }
      let (value, diagnostics) = JSONParser.parse(bytes, file: "fuzz.json")
      if value == nil {
        errors += 1
        #expect(diagnostics.hasErrors)
      }
      for d in diagnostics {
        guard let location = d.location else { continue }
        #expect(location.offset >= 0 && location.offset <= bytes.count)
        let reference = referencePosition(of: location.offset, in: bytes)
        #expect(
          location.line == reference.line && location.column == reference.column,
          "\(d.message) in \(bytes)")
      }
    }
    #expect(errors > 1000)
  }
}
