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
    for block in screen.content.flatBlocks {
      guard let name = block.fieldName else { continue }
      fields.append(
        CollectedField(
          name: name, location: block.location, hash: name.hashValue, isSnakeCase: FieldNaming.isSnakeCase(name),
          isSecret: screen.content.usesBlocks && block.isSecret))
    }
    return fields
  }
}
