/// A field one screen collects, with what the flow-wide field-name check (`checkFieldNames`)
/// asks of it worked out where the screen is decoded: on a big flow, on either loading thread,
/// so the check that runs after the two halves join compares hashes instead of hashing every
/// name into a dictionary and testing its case (51 M instructions of that serial tail on a
/// 15,000-screen flow; docs/performance.md, "Eleventh round").
struct CollectedField: Sendable {
  var name: String
  var location: SourceLocation
  /// `name.hashValue`: the same on every thread of the process.
  var hash: Int
  var isSnakeCase: Bool
  /// Collected by a secret block of a block screen (`FlowDocument.secretFields`).
  var isSecret: Bool

  /// The fields `screen` collects, in the order of its blocks.
  static func list(of screen: Screen) -> [CollectedField] {
    var fields: [CollectedField] = []
    append(screen, to: &fields)
    return fields
  }

  fileprivate static func append(_ screen: Screen, to fields: inout [CollectedField]) {
    for block in screen.content.flatBlocks {
      guard let name = block.fieldName else { continue }
      fields.append(
        CollectedField(
          name: name, location: block.location, hash: name.hashValue, isSnakeCase: FieldNaming.isSnakeCase(name),
          isSecret: screen.content.usesBlocks && block.isSecret))
    }
  }
}

/// The fields a run of screens collects, screen by screen, in one array: one a run, not one a
/// screen allocated on a decoding thread and freed after the join.
struct CollectedFields: Sendable {
  var all: [CollectedField] = []
  /// Where each screen's fields end in `all`.
  var ends: [Int] = []

  mutating func append(fieldsOf screen: Screen) {
    CollectedField.append(screen, to: &all)
    ends.append(all.count)
  }

  mutating func append(_ fields: [CollectedField]) {
    all += fields
    ends.append(all.count)
  }

  mutating func append(contentsOf other: CollectedFields) {
    let base = all.count
    all += other.all
    ends.reserveCapacity(ends.count + other.ends.count)
    for end in other.ends { ends.append(base + end) }
  }

  /// The fields of the screens in `order` (positions of screens).
  func inOrder(_ order: [Int]) -> CollectedFields {
    var sorted = CollectedFields()
    sorted.all.reserveCapacity(all.count)
    for screen in order { sorted.append(Array(all[(screen == 0 ? 0 : ends[screen - 1])..<ends[screen]])) }
    return sorted
  }

  /// The names of the fields that secret blocks collect (`FlowDocument.secretFields`).
  var secretNames: Set<String> {
    var names = Set<String>()
    for i in all.indices where all[i].isSecret { names.insert(all[i].name) }
    return names
  }
}

extension CollectedFields {
  /// The fields `screens` collect, screen by screen.
  init(of screens: [Screen]) {
    for screen in screens { append(fieldsOf: screen) }
  }
}
