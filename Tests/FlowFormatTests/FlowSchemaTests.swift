import Testing

@testable import FlowFormat

/// `flowrun schema` is built from the loader's tables: its properties are exactly the keys each
/// decoder checks, its enums the type lists the loader warns against, and the shapes name only
/// keys the loader knows. (.ci/schema checks it against an independent validator.)
@Suite struct FlowSchemaTests {
  static let tables: [(Dialect, [ObjectDoc])] = [
    (.sequence, SequenceSchema.objects), (.appdna, AppDNASchema.objects), (.nuxie, NuxieSchema.objects),
  ]

  static func definitions(_ dialect: Dialect) -> JSONObject? {
    let (root, _) = JSONParser.parse(Array(FlowSchema.text(for: dialect).utf8))
    return root?.objectValue?.lookup("$defs")?.objectValue
  }

  @Test(arguments: Dialect.allCases)
  func shapesNameOnlyKeysTheLoaderKnows(_ dialect: Dialect) {
    let objects = Self.tables.first { $0.0 == dialect }?.1 ?? []
    #expect(!objects.isEmpty)
    for object in objects {
      let known = Set(object.known.spelling.candidates)
      #expect(Set(object.docs.keys).subtracting(known).isEmpty, "\(dialect) \(object.name): a shape for an unknown key")
      #expect(Set(object.required).isSubset(of: Set(object.docs.keys)), "\(dialect) \(object.name)")
    }
  }

  @Test(arguments: Dialect.allCases)
  func propertiesAreTheLoadersKeyTables(_ dialect: Dialect) throws {
    let definitions = try #require(Self.definitions(dialect))
    let objects = Self.tables.first { $0.0 == dialect }?.1 ?? []
    for object in objects {
      let properties = definitions.lookup(object.name)?.objectValue?.lookup("properties")?.objectValue
      #expect(properties?.keys == object.known.spelling.candidates, "\(dialect) \(object.name)")
    }
  }

  struct Enumeration: Sendable, CustomStringConvertible {
    var definition: String
    var key: String
    var values: [String]
    var description: String { "\(definition).\(key)" }
  }

  static let sequenceEnums: [Enumeration] = [
    Enumeration(definition: "block", key: "type", values: DecodeContext.knownBlockTypes),
    Enumeration(definition: "action", key: "type", values: DecodeContext.knownActionTypes),
    Enumeration(
      definition: "screen", key: "type", values: Screen.Kind.allCases.filter { $0 != .unknown }.map(\.rawValue)),
    Enumeration(definition: "screen", key: "transition", values: ScreenTransition.allCases.map(\.rawValue)),
    Enumeration(definition: "blockContent", key: "inputType", values: InputBlock.Kind.sequenceKinds.map(\.rawValue)),
  ]

  @Test(arguments: sequenceEnums)
  func enumsAreTheLoadersTypeLists(_ enumeration: Enumeration) throws {
    let definitions = try #require(Self.definitions(.sequence))
    let property = definitions.lookup(enumeration.definition)?.objectValue?.lookup("properties")?.objectValue?
      .lookup(enumeration.key)?.objectValue
    let known = property?.lookup("anyOf")?.arrayValue?.first?.objectValue?.lookup("enum")?.arrayValue
    #expect(known?.compactMap(\.stringValue) == enumeration.values)
  }

  @Test(arguments: Dialect.allCases)
  func sameTextEveryTime(_ dialect: Dialect) {
    #expect(FlowSchema.text(for: dialect) == FlowSchema.text(for: dialect))
    #expect(
      FlowSchema.text(for: dialect).hasPrefix("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
  }
}
