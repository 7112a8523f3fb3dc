import Foundation
import Yams

/// A file a command writes. Before the run it holds old content of its kind (a directory of
/// scripts starts empty); after the run it must be absent, still the old content, or complete
/// and valid: never a part (files are written atomically, docs/cli.md "Files").
struct OutputFile: Sendable {
  enum Kind: String, Sendable {
    case json, ndjson, yaml, xml
    /// A replay script (`--record`): YAML that `flowrun test` must pass.
    case script
    /// A directory of replay scripts (`paths --emit`), each of which must pass.
    case scripts

    /// Replayed with `flowrun test` after the run when written anew.
    var replays: Bool { self == .script || self == .scripts }
  }

  var name: String
  var kind: Kind

  var oldContent: String? {
    switch kind {
    case .json: "{\"old\": true}\n"
    case .ndjson: "{\"old\":true}\n"
    case .yaml, .script: "old: true\n"
    case .xml: "<old/>\n"
    case .scripts: nil
    }
  }

  /// Writes the old content (outputs that are devices, such as `/dev/full`, are left alone).
  func seed(in directory: String) throws {
    guard !name.hasPrefix("/"), let oldContent else { return }
    try oldContent.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
  }

  enum State: Equatable {
    case absent, old, new
  }

  /// What the file holds now, or why that is not allowed.
  func check(in directory: String) -> Result<State, OutputProblem> {
    if name.hasPrefix("/") { return .success(.absent) }
    let path = directory + "/" + name
    if kind == .scripts {
      guard let names = try? FileManager.default.subpathsOfDirectory(atPath: path) else { return .success(.absent) }
      for file in names.sorted() {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path + "/" + file, isDirectory: &isDirectory),
          !isDirectory.boolValue
        else { continue }
        guard let data = FileManager.default.contents(atPath: path + "/" + file) else { continue }
        if let problem = Self.yamlProblem(data) {
          return .failure(OutputProblem(file: "\(name)/\(file)", problem: problem))
        }
      }
      return .success(names.isEmpty ? .absent : .new)
    }
    guard let data = FileManager.default.contents(atPath: path) else { return .success(.absent) }
    if let oldContent, data == Data(oldContent.utf8) { return .success(.old) }
    let problem: String? =
      switch kind {
      case .json: Self.jsonProblem(data)
      case .ndjson: Self.ndjsonProblem(data)
      case .yaml, .script: Self.yamlProblem(data)
      case .xml: Self.xmlProblem(data)
      case .scripts: nil
      }
    if let problem { return .failure(OutputProblem(file: name, problem: problem)) }
    return .success(.new)
  }

  static func jsonProblem(_ data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return data.last == UInt8(ascii: "\n") ? nil : "does not end with a newline"
    } catch {
      return "is not complete JSON: \(error)"
    }
  }

  static func ndjsonProblem(_ data: Data) -> String? {
    guard data.isEmpty || data.last == UInt8(ascii: "\n") else { return "its last line is cut (no newline)" }
    for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
      .enumerated()
    {
      guard (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any] else {
        return "line \(index + 1) is not a JSON object: \(String(decoding: line.prefix(200), as: UTF8.self))"
      }
    }
    return nil
  }

  static func yamlProblem(_ data: Data) -> String? {
    guard let text = String(data: data, encoding: .utf8) else { return "is not UTF-8" }
    do {
      guard try Yams.compose(yaml: text)?.mapping != nil else { return "is not a YAML mapping" }
      return nil
    } catch {
      return "is not complete YAML: \(error)"
    }
  }

  /// A JUnit report is whole when it starts with the declaration and closes its root.
  static func xmlProblem(_ data: Data) -> String? {
    let text = String(decoding: data, as: UTF8.self)
    guard text.hasPrefix("<?xml"), text.hasSuffix("</testsuites>\n") else {
      return "is not a complete JUnit report: \(text.prefix(80))…\(text.suffix(80))"
    }
    return nil
  }
}

struct OutputProblem: Error, CustomStringConvertible {
  var file: String
  var problem: String

  var description: String { "\(file) \(problem)" }
}
