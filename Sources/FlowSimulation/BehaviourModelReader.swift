import FlowEngine
import FlowExpression
import FlowFormat
import FlowReplay

/// Reads a behaviour model (YAML, docs/simulate.md) into a `BehaviourModel`, with located
/// diagnostics: errors for what cannot be a model, warnings for names the flow does not have.
public struct BehaviourModelReader {
  let file: String
  let document: FlowDocument
  var diagnostics: [Diagnostic] = []

  /// The model of `bytes` (nil when it has errors) and every diagnostic.
  public static func read(
    _ bytes: [UInt8], file: String, document: FlowDocument
  ) -> (
    BehaviourModel?, [Diagnostic]
  ) {
    let (root, problems) = ScriptNodeReader.yaml(bytes, file: file)
    var reader = BehaviourModelReader(file: file, document: document)
    reader.diagnostics = problems.map { problem in
      var moved = problem
      moved.id = DiagnosticID.Model.syntax.id
      return moved
    }
    guard let root else {
      if reader.diagnostics.isEmpty {
        reader.report(.Model.syntax, "the model is empty", at: SourceLocation(line: 1, column: 1, offset: 0))
      }
      return (nil, reader.diagnostics)
    }
    let model = reader.model(root)
    return (reader.diagnostics.hasErrors ? nil : model, reader.diagnostics)
  }

  mutating func report(
    _ id: DiagnosticID, _ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = []
  ) {
    diagnostics.append(Diagnostic(id, message: message, file: file, location: location, notes: notes))
  }

  /// The members of a mapping, each key checked against `known` (nil when it is no mapping).
  mutating func mapping(_ node: ScriptNode, _ what: String, known: [String]? = nil) -> [ScriptNode.Member]? {
    guard let members = node.members else {
      report(.Model.typeMismatch, "\(what) must be a mapping, not \(node.typeName)", at: node.location)
      return nil
    }
    guard let known else { return members }
    for member in members where !known.contains(member.key) {
      let guess = closestMatch(to: member.key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
      report(
        .Model.unknownKey, "unknown key '\(member.key)' in \(what)\(guess); keys: \(known.joined(separator: ", "))",
        at: member.keyLocation)
    }
    return members.filter { known.contains($0.key) }
  }

  mutating func number(_ node: ScriptNode, _ what: String) -> Double? {
    guard case .scalar(let scalar) = node.kind else {
      report(.Model.typeMismatch, "\(what) must be a number, not \(node.typeName)", at: node.location)
      return nil
    }
    switch scalar {
    case .integer(let i): return Double(i)
    case .number(let d) where d.isFinite: return d
    default:
      report(.Model.typeMismatch, "\(what) must be a number, not \(node.typeName)", at: node.location)
      return nil
    }
  }

  mutating func probability(_ node: ScriptNode, _ what: String) -> Double? {
    guard let value = number(node, what) else { return nil }
    guard (0...1).contains(value) else {
      report(
        .Model.invalidValue, "\(what) must be a probability from 0 to 1, not \(node.text ?? "\(value)")",
        at: node.location)
      return nil
    }
    return value
  }

  mutating func text(_ node: ScriptNode, _ what: String) -> String? {
    guard let text = node.scalarText else {
      report(.Model.typeMismatch, "\(what) must be a string, not \(node.typeName)", at: node.location)
      return nil
    }
    return text
  }

  /// `{answer: weight, …}`: non-negative weights, not all 0.
  mutating func weights(_ node: ScriptNode, _ what: String) -> [(answer: String, weight: Double)]? {
    guard let members = mapping(node, what) else { return nil }
    var result: [(answer: String, weight: Double)] = []
    for member in members {
      guard let weight = number(member.value, "the weight of '\(member.key)'") else { continue }
      guard weight >= 0 else {
        report(.Model.invalidValue, "the weight of '\(member.key)' must not be negative", at: member.value.location)
        continue
      }
      result.append((member.key, weight))
    }
    guard result.contains(where: { $0.weight > 0 }) else {
      report(.Model.invalidValue, "\(what) needs a weight above 0", at: node.location)
      return nil
    }
    return result
  }

  /// `[low, high]` with low <= high.
  mutating func pair(_ node: ScriptNode, _ what: String) -> (Double, Double)? {
    guard let elements = node.elements, elements.count == 2 else {
      report(.Model.typeMismatch, "\(what) must be a list of two numbers [low, high]", at: node.location)
      return nil
    }
    guard let low = number(elements[0], what), let high = number(elements[1], what) else { return nil }
    guard low <= high else {
      report(
        .Model.invalidValue, "\(what): low \(elements[0].text ?? "") is above high \(elements[1].text ?? "")",
        at: node.location)
      return nil
    }
    return (low, high)
  }

  /// `uniform: [low, high]` or `normal: {mean, sd}` among a mapping's members.
  mutating func numbers(_ members: [ScriptNode.Member], _ what: String) -> BehaviourModel.Numbers? {
    if let uniform = members.first(where: { $0.key == "uniform" }) {
      return pair(uniform.value, "\(what) uniform").map { .uniform(min: $0.0, max: $0.1) }
    }
    if let normal = members.first(where: { $0.key == "normal" }) {
      guard let parts = mapping(normal.value, "\(what) normal", known: ["mean", "sd"]) else { return nil }
      guard let meanNode = parts.first(where: { $0.key == "mean" }), let sdNode = parts.first(where: { $0.key == "sd" })
      else {
        report(.Model.typeMismatch, "\(what) normal needs mean and sd", at: normal.value.location)
        return nil
      }
      guard let mean = number(meanNode.value, "mean"), let sd = number(sdNode.value, "sd") else { return nil }
      guard sd >= 0 else {
        report(.Model.invalidValue, "sd must not be negative", at: sdNode.value.location)
        return nil
      }
      return .normal(mean: mean, sd: sd)
    }
    return nil
  }

  /// `{fixed: ms}`, `{uniform: [lo, hi]}`, `{normal: {mean, sd}}` or `{lognormal: {mu, sigma}}`.
  mutating func dwell(_ node: ScriptNode) -> BehaviourModel.Dwell? {
    guard let members = mapping(node, "dwell", known: ["fixed", "uniform", "normal", "lognormal"]) else { return nil }
    guard members.count == 1, let member = members.first else {
      report(.Model.invalidValue, "dwell takes one of fixed, uniform, normal, lognormal", at: node.location)
      return nil
    }
    switch member.key {
    case "fixed": return number(member.value, "dwell fixed").map { .fixed(SimulationPlan.milliseconds($0)) }
    case "lognormal":
      guard let parts = mapping(member.value, "dwell lognormal", known: ["mu", "sigma"]),
        let mu = parts.first(where: { $0.key == "mu" }), let sigma = parts.first(where: { $0.key == "sigma" })
      else {
        report(.Model.typeMismatch, "dwell lognormal needs mu and sigma", at: member.value.location)
        return nil
      }
      guard let m = number(mu.value, "mu"), let s = number(sigma.value, "sigma") else { return nil }
      return .logNormal(mu: m, sigma: max(0, s))
    default:
      switch numbers(members, "dwell") {
      case .uniform(let lo, let hi):
        return .uniform(min: SimulationPlan.milliseconds(lo), max: SimulationPlan.milliseconds(hi))
      case .normal(let mean, let sd): return .normal(mean: mean, sd: sd, min: 0)
      case nil: return nil
      }
    }
  }

  /// A name the flow does not have: a warning with the known names.
  mutating func unknownName(_ member: ScriptNode.Member, _ kind: String, known: [String]) {
    guard !known.contains(member.key) else { return }
    let guess = closestMatch(to: member.key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
    report(
      .Model.unknownName, "the flow has no \(kind) '\(member.key)'\(guess); this entry is never used",
      at: member.keyLocation)
  }
}
