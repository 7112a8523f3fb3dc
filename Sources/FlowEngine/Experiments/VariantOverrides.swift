import FlowFormat

/// A forced variant (`--variant EXP=VARIANT`, a script's `variants:`) that names an experiment
/// or a variant the document does not declare. The engine would record it in the events as
/// given, so analytics would count a variant that does not exist: callers refuse it before
/// the session starts.
public struct VariantOverrideProblem: Hashable, Sendable, CustomStringConvertible {
  public var experiment: String
  public var variant: String
  /// `unknown experiment 'onb_lenght' (did you mean 'onb_length'?); experiments: onb_length`
  public var message: String
  public var description: String { message }
}

extension VariantAssignment {
  /// The experiments a document declares, with their variant ids in declaration order: the
  /// local `experiments` with their variants, and the server-assigned `experiment` of each
  /// flow (its variants are the `variantId`s the flows of the document carry).
  public static func declaredVariants(in document: FlowDocument) -> [(experiment: String, variants: [String])] {
    var declared: [(experiment: String, variants: [String])] = []
    func add(_ experiment: String, _ variants: [String]) {
      if let index = declared.firstIndex(where: { $0.experiment == experiment }) {
        for variant in variants where !declared[index].variants.contains(variant) {
          declared[index].variants.append(variant)
        }
      } else {
        declared.append((experiment, variants))
      }
    }
    for experiment in document.experiments { add(experiment.id, experiment.variants.map(\.id)) }
    for flow in document.flows {
      if let assigned = flow.assignedExperiment { add(assigned.id, [assigned.variantID]) }
    }
    return declared
  }

  /// The overrides that name an unknown experiment or variant, sorted by experiment id; empty
  /// when every override is declared.
  public static func unknownOverrides(
    _ overrides: [String: String], in document: FlowDocument
  ) -> [VariantOverrideProblem] {
    guard !overrides.isEmpty else { return [] }
    let declared = declaredVariants(in: document)
    var problems: [VariantOverrideProblem] = []
    for (experiment, variant) in overrides.sorted(by: { $0.key < $1.key }) {
      guard let known = declared.first(where: { $0.experiment == experiment }) else {
        let ids = declared.map(\.experiment)
        var message = "unknown experiment '\(experiment)'"
        if let guess = closestMatch(to: experiment, in: ids) { message += " (did you mean '\(guess)'?)" }
        message += ids.isEmpty ? ": the flow declares no experiments" : "; experiments: \(ids.joined(separator: ", "))"
        problems.append(VariantOverrideProblem(experiment: experiment, variant: variant, message: message))
        continue
      }
      guard !known.variants.contains(variant) else { continue }
      var message = "experiment '\(experiment)' has no variant '\(variant)'"
      if let guess = closestMatch(to: variant, in: known.variants) { message += " (did you mean '\(guess)'?)" }
      message += "; variants: \(known.variants.joined(separator: ", "))"
      problems.append(VariantOverrideProblem(experiment: experiment, variant: variant, message: message))
    }
    return problems
  }
}
