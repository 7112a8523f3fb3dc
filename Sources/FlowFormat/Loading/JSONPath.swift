/// One step into a JSON document: an object key or an array index.
enum PathComponent: Sendable {
  case key(String)
  case index(Int)
}

extension [PathComponent] {
  /// `screens[3].content.blocks[2].content.min`
  var rendered: String {
    var text = ""
    for component in self {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }
}
