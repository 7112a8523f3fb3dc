/// Where a node sits in a script (`steps[3].tap.id`), for diagnostics.
///
/// Rendered only when a diagnostic is made: building the text for every node of every script
/// was a third of the instructions of `flowrun test` on thousands of valid scripts.
indirect enum ScriptPath: CustomStringConvertible, ExpressibleByStringLiteral {
  /// The script's top-level mapping.
  case root
  case key(ScriptPath, String)
  case index(ScriptPath, Int)

  init(stringLiteral key: String) { self = .key(.root, key) }

  var isRoot: Bool {
    if case .root = self { return true }
    return false
  }

  func key(_ name: String) -> ScriptPath { .key(self, name) }
  func index(_ position: Int) -> ScriptPath { .index(self, position) }

  var description: String {
    switch self {
    case .root: ""
    case .key(.root, let name): name
    case .key(let parent, let name): "\(parent).\(name)"
    case .index(let parent, let position): "\(parent)[\(position)]"
    }
  }
}
