import FlowExpression

/// `flowrun schema`: a JSON Schema (draft 2020-12) of the documents a dialect's loader reads,
/// built from the loader's own key tables (`KnownKeys`, `AppDNAKeys`, `NuxieKeys`) and type lists, so a key
/// or a block type the loader learns reaches the schema without a second list (docs/authoring.md).
///
/// The schema refuses what the loader refuses for its shape (a wrong JSON type, a missing
/// required key, an empty `screens`, a number out of range) and accepts what the loader only
/// warns about (unknown keys, block types and action types), so editors complete the known
/// names without flagging a flow that runs.
public enum FlowSchema {
  /// The schema of `dialect`'s documents.
  public static func document(for dialect: Dialect) -> JSONWriter.Value {
    switch dialect {
    case .sequence:
      return schema(
        id: "urn:flowrun:schema:sequence", title: "flowrun flow (Sequence dialect)",
        summary: "A Sequence onboarding flow (an object with `screens`) or a bundle of flows (an object with `flows`).",
        root: [
          "if": ["required": ["flows"]], "then": ["$ref": "#/$defs/bundle"], "else": ["$ref": "#/$defs/flow"],
        ],
        objects: SequenceSchema.objects, extra: sequenceExtras)
    case .appdna:
      return schema(
        id: "urn:flowrun:schema:appdna", title: "flowrun flow (AppDNA dialect)",
        summary: "An AppDNA flow (`steps`), flows document (`flows`) or remote-config bundle (`onboarding`).",
        root: [
          "anyOf": [
            ["required": ["steps"], "$ref": "#/$defs/flow"],
            ["required": ["onboarding"], "$ref": "#/$defs/bundle"],
            ["required": ["flows"], "$ref": "#/$defs/flows"],
          ]
        ],
        objects: AppDNASchema.objects, extra: AppDNASchema.extras)
    case .nuxie:
      return schema(
        id: "urn:flowrun:schema:nuxie", title: "flowrun flow (Nuxie dialect)",
        summary: "A Nuxie RemoteFlow (`screens` with `interactions`) or an era E release or leg (`schemaVersion`).",
        root: [
          "anyOf": [
            ["required": ["schemaVersion"], "$ref": "#/$defs/release"],
            ["required": ["screens"], "$ref": "#/$defs/remoteFlow"],
          ]
        ],
        objects: NuxieSchema.objects, extra: NuxieSchema.extras)
    }
  }

  /// The schema's text: pretty, members in a fixed order, one trailing newline.
  public static func text(for dialect: Dialect) -> String {
    JSONWriter.pretty.string(document(for: dialect)) + "\n"
  }

  private static func schema(
    id: String, title: String, summary: String, root: JSONWriter.Value, objects: [ObjectDoc],
    extra: [(key: String, value: JSONWriter.Value)]
  ) -> JSONWriter.Value {
    guard case .object(let rootMembers) = root else { return root }
    var defs = objects.map { (key: $0.name, value: definition($0)) } + extra
    defs.sort { $0.key < $1.key }
    return .object(
      [
        (key: "$schema", value: "https://json-schema.org/draft/2020-12/schema"), (key: "$id", value: .string(id)),
        (key: "title", value: .string(title)), (key: "description", value: .string(summary)),
        (key: "type", value: "object"),
      ] + rootMembers + [(key: "$defs", value: .object(defs))])
  }

  /// An object kind: every key of the loader's table, typed where flowrun reads it; other keys
  /// (cosmetic ones included) are allowed, as the loader only warns about them.
  static func definition(_ object: ObjectDoc) -> JSONWriter.Value {
    let properties: [(key: String, value: JSONWriter.Value)] = object.known.spelling.candidates.map { key in
      guard let doc = object.docs[key] else {
        return (key: key, value: ["description": "Accepted as the SDK writes it; flowrun does not read it."])
      }
      let nullable = !object.required.contains(key)
      return (key: key, value: schema(doc.shape, nullable: nullable, description: doc.summary))
    }
    var members: [(key: String, value: JSONWriter.Value)] = [
      (key: "description", value: .string(object.summary)), (key: "type", value: "object"),
      (key: "properties", value: .object(properties)),
    ]
    if !object.required.isEmpty {
      members.append((key: "required", value: strings(object.required)))
    }
    if !object.requiredWhen.isEmpty {
      let conditions: [JSONWriter.Value] = object.requiredWhen.map { rule in
        let values: JSONWriter.Value = ["enum": strings(rule.values)]
        let when: JSONWriter.Value = .object([(key: rule.key, value: values)])
        let condition: JSONWriter.Value = ["properties": when, "required": [.string(rule.key)]]
        return ["if": condition, "then": ["required": strings(rule.required)]]
      }
      members.append((key: "allOf", value: .array(conditions)))
    }
    return .object(members)
  }

  /// The schema of one shape. Optional scalars also accept null, which the loader reads as
  /// absent; objects and arrays do not.
  static func schema(_ shape: KeyShape, nullable: Bool, description: String? = nil) -> JSONWriter.Value {
    var members: [(key: String, value: JSONWriter.Value)] = []
    if let description { members.append((key: "description", value: .string(description))) }
    func type(_ name: String) -> JSONWriter.Value { nullable ? [.string(name), "null"] : .string(name) }
    func bounds(_ range: ClosedRange<Double>?) {
      guard let range else { return }
      members.append((key: "minimum", value: number(range.lowerBound)))
      members.append((key: "maximum", value: number(range.upperBound)))
    }
    switch shape {
    case .string:
      members.append((key: "type", value: type("string")))
    case .text:
      members.append((key: "type", value: type("string")))
      members.append((key: "$comment", value: "template text: {expression} is replaced by its value"))
    case .boolean:
      members.append((key: "type", value: type("boolean")))
    case .flag:
      let sanitized: JSONWriter.Value = ["type": "string", "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"]
      members.append((key: "anyOf", value: [["type": type("boolean")], sanitized]))
    case .number(let range):
      members.append((key: "type", value: type("number")))
      bounds(range)
    case .integer(let range):
      members.append((key: "type", value: type("integer")))
      bounds(range)
    case .known(let values):
      // The known values for completion; any other string loads with a warning.
      let known: JSONWriter.Value = ["enum": strings(values)]
      let other: JSONWriter.Value = ["type": type("string")]
      members.append((key: "anyOf", value: [known, other]))
    case .object(let name):
      members.append((key: "$ref", value: .string("#/$defs/\(name)")))
    case .array(let element, let minItems):
      members.append((key: "type", value: "array"))
      members.append((key: "items", value: schema(element, nullable: false)))
      if minItems > 0 { members.append((key: "minItems", value: .int(minItems))) }
    case .condition:
      members.append(
        (key: "anyOf", value: [["type": "string", "$comment": "an expression"], ["$ref": "#/$defs/condition"]]))
    case .anyOf(let shapes):
      members.append((key: "anyOf", value: .array(shapes.map { schema($0, nullable: false) })))
    case .any:
      break
    }
    return .object(members)
  }

  private static func strings(_ values: [String]) -> JSONWriter.Value {
    .array(values.map { .string($0) })
  }

  private static func number(_ value: Double) -> JSONWriter.Value {
    value.rounded() == value && abs(value) < 9_007_199_254_740_992 ? .int(Int(value)) : .double(value)
  }

  /// Sequence definitions that are not one of the loader's key tables: bundle flows by id, and
  /// the structured condition (`{field, op, value}`, `{all}`, `{any}`, `{not}`).
  private static let sequenceExtras: [(key: String, value: JSONWriter.Value)] = [
    (
      key: "flowsByID",
      value: [
        "description": "Flows by id (the key is the flow's id).", "type": "object", "minProperties": 1,
        "additionalProperties": ["$ref": "#/$defs/flow"],
      ]
    ),
    (
      key: "flowWithID",
      value: ["description": "A flow of a bundle's array: it needs an id.", "$ref": "#/$defs/flow", "required": ["id"]]
    ),
    (
      key: "condition",
      value: [
        "description": "A structured condition: {field, op, value}, {all: [...]}, {any: [...]} or {not: condition}.",
        "type": "object",
        "anyOf": [
          ["required": ["all"], "properties": ["all": ["type": "array", "items": conditionItem]]],
          ["required": ["any"], "properties": ["any": ["type": "array", "items": conditionItem]]],
          ["required": ["not"], "properties": ["not": conditionItem]],
          [
            "required": ["field", "op"],
            "properties": .object(
              KnownKeys.structuredCondition.spelling.candidates.map { key in
                switch key {
                case "value": (key: key, value: [:])
                case "op":
                  (key: key, value: schema(.known(StructuredOperator.allCases.map(\.rawValue)), nullable: false))
                default: (key: key, value: ["type": "string"])
                }
              }),
          ],
        ],
      ]
    ),
  ]

  private static let conditionItem: JSONWriter.Value = [
    "anyOf": [["type": "string"], ["$ref": "#/$defs/condition"]]
  ]
}
