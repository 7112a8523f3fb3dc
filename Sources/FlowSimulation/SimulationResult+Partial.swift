import Foundation

/// Why partials do not merge.
public struct MergeProblem: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

extension SimulationResult {
  /// FNV-1a (64 bits) of the inputs' bytes, in hex: the same inputs give the same text.
  public static func fingerprint(_ inputs: [UInt8]...) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for bytes in inputs {
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      hash ^= 0xff
      hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The partial file's text: this result as JSON, keys sorted (the same run gives the same bytes).
  public func partialJSON() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }

  /// Reads a partial file; throws a message when it is not one.
  public static func partial(from data: Data) throws(MergeProblem) -> SimulationResult {
    let result: SimulationResult
    do {
      result = try JSONDecoder().decode(SimulationResult.self, from: data)
    } catch {
      throw MergeProblem(message: "not a partial of `flowrun simulate --shard` (\(describe(error)))")
    }
    guard result.format == format else {
      throw MergeProblem(message: "partial format '\(result.format)' is not '\(format)' (written by another flowrun)")
    }
    guard result.shard != nil else { throw MergeProblem(message: "not a partial: it has no shard") }
    return result
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    case DecodingError.dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "not JSON" : "bad value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    default: "unreadable"
    }
  }

  /// The whole run from its partials (path, partial): one per slice `1/N` … `N/N` of the same
  /// flow, model, seed and users; their tallies added.
  public static func merge(
    _ partials: [(path: String, result: SimulationResult)]
  ) -> Result<
    SimulationResult, MergeProblem
  > {
    guard let (firstPath, first) = partials.first else { return .failure(MergeProblem(message: "no partials")) }
    var slices: [Int: String] = [:]
    var count: Int?
    var merged = first
    merged.shard = nil
    merged.tally = SimulationTally()
    for (path, partial) in partials {
      for (name, same) in [
        ("fingerprint (flow and model)", partial.fingerprint == first.fingerprint),
        ("seed", partial.seed == first.seed),
        ("--users", partial.users == first.users),
      ] where !same {
        return .failure(MergeProblem(message: "\(path) and \(firstPath) differ in their \(name): they are not one run"))
      }
      let parts = (partial.shard ?? "").split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, (1...parts[1]).contains(parts[0]) else {
        return .failure(MergeProblem(message: "\(path): bad shard '\(partial.shard ?? "")'"))
      }
      if let count, count != parts[1] {
        return .failure(MergeProblem(message: "\(path) is a slice of \(parts[1]), \(firstPath) of \(count)"))
      }
      count = parts[1]
      if let other = slices[parts[0]] {
        return .failure(MergeProblem(message: "\(path) and \(other) are both slice \(parts[0])/\(parts[1])"))
      }
      slices[parts[0]] = path
      merged.tally.merge(partial.tally)
    }
    let missing = (1...(count ?? 1)).filter { slices[$0] == nil }
    guard missing.isEmpty else {
      let list = missing.map { "\($0)/\(count ?? 1)" }.joined(separator: ", ")
      return .failure(MergeProblem(message: "missing slices: \(list)"))
    }
    return .success(merged)
  }
}
