/// Builders for the small example flows rules document (JSON text, one screen a line).
enum Example {
  /// A flow document with `screens` (JSON objects), plus extra top-level members.
  static func flow(_ screens: [String], extra: String = "") -> String {
    let members = extra.isEmpty ? "" : extra + ",\n  "
    return "{\n  \"version\": 1, \"id\": \"example\",\n  \(members)\"screens\": [\n    "
      + screens.joined(separator: ",\n    ") + "\n  ]\n}\n"
  }

  /// A bundle of flows given as (id, screens).
  static func bundle(_ flows: [(String, [String])]) -> String {
    let rendered = flows.map { id, screens in
      "\"\(id)\": {\"version\": 1, \"id\": \"\(id)\", \"screens\": [\n      "
        + screens.joined(separator: ",\n      ") + "\n    ]}"
    }
    return "{\n  \"flows\": {\n    " + rendered.joined(separator: ",\n    ") + "\n  }\n}\n"
  }

  /// A block screen.
  static func screen(_ id: String, _ type: String = "feature", _ blocks: [String], extra: String = "") -> String {
    let tail = extra.isEmpty ? "" : ", " + extra
    return "{\"id\": \"\(id)\", \"name\": \"\(id)\", \"type\": \"\(type)\"\(tail), \"content\": {\"blocks\": ["
      + blocks.joined(separator: ", ") + "]}}"
  }

  static func button(_ id: String, _ text: String = "Continue", action: String? = nil) -> String {
    let action = action.map { ", \"action\": \($0)" } ?? ""
    return "{\"id\": \"\(id)\", \"type\": \"button\", \"content\": {\"text\": \"\(text)\"\(action)}}"
  }

  static func text(_ id: String, _ text: String) -> String {
    "{\"id\": \"\(id)\", \"type\": \"text\", \"content\": {\"text\": \"\(text)\"}}"
  }

  static func block(_ id: String, _ type: String, _ content: String) -> String {
    "{\"id\": \"\(id)\", \"type\": \"\(type)\", \"content\": {\(content)}}"
  }
}
