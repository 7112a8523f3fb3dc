import ArgumentParser

/// `test --shard I/N`, `simulate --shard I/N`: the I-th of N deterministic slices, 1 <= I <= N.
struct Shard: OptionValue, CustomStringConvertible {
  let index: Int
  let count: Int

  static func parse(_ text: String) -> Result<Shard, ValidationError> {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), 1 <= index, index <= count else {
      return .failure(ValidationError("--shard must be I/N with 1 <= I <= N, e.g. 2/4"))
    }
    return .success(Shard(index: index, count: count))
  }

  var description: String { "\(index)/\(count)" }
}
