import FlowExpression

/// The bundle's `experiments`: the first running `onboarding_flow` experiment for iOS whose
/// control variant's `config_ref` is the entry flow applies (the SDK's rule). Its weights
/// (0…1) become the same 10,000 buckets; a treatment's inline `payload` is a complete flow,
/// added to the document and presented instead; a `variant_doc` cannot be fetched offline, so
/// that variant shows the entry flow, as the SDK does for a missing document.
extension DecodeContext {
  mutating func appdnaExperiment(_ value: JSONValue, entry: String, flows: inout [Flow]) -> Experiment? {
    guard let root = value.objectValue else { return nil }
    let byID = root.lookup("experiments")?.objectValue ?? root
    let path = root.lookup("experiments") != nil ? "experiments" : ""
    for member in byID.members {
      guard let object = member.value.objectValue,
        object.lookup("status")?.stringValue == "running",
        object.lookup("type")?.stringValue == "onboarding_flow",
        (object.lookup("platforms")?.arrayValue?.compactMap(\.stringValue) ?? ["ios"]).contains("ios"),
        let variants = object.lookup("variants")?.arrayValue,
        variants.contains(where: {
          $0.objectValue?.lookup("is_control")?.boolValue == true
            && $0.objectValue?.lookup("config_ref")?.stringValue == entry
        })
      else { continue }
      let id = object.lookup("id")?.stringValue ?? member.key
      let salt = object.lookup("salt")?.stringValue?.trimmingWhitespace
      var compiled: [Experiment.Variant] = []
      var cumulative = 0.0
      for (index, variantValue) in variants.enumerated() {
        guard let variant = variantValue.objectValue, let variantID = variant.lookup("id")?.stringValue else {
          continue
        }
        let weight = variant.numberValue("weight") ?? 0
        let span = weight.isFinite ? (Swift.max(0, weight) * 10_000).rounded(.towardZero) : 0
        let before = Swift.min(cumulative, 10_000)
        cumulative += span
        var share = Swift.min(cumulative, 10_000) - before
        if index == variants.count - 1 { share += 10_000 - Swift.min(cumulative, 10_000) }
        var flow: String?
        if variant.lookup("is_control")?.boolValue != true {
          if variant.lookup("variant_doc") != nil {
            warning(
              .AppDNA.notRunYet,
              "variant '\(variantID)' of experiment '\(id)' is a remote document flowrun cannot fetch; it shows flow '\(entry)'",
              at: variantValue.location)
          } else if let payload = variant.lookup("payload"), let payloadObject = payload.objectValue,
            payloadObject.lookup("steps") != nil
          {
            let fallback = "\(id).\(variantID)"
            let treatment = at(path.isEmpty ? member.key : "\(path).\(member.key)") { context in
              context.decodeAppDNAFlow(payloadObject, at: payload.location, defaultID: fallback, keyed: nil)
            }
            if var treatment {
              if flows.contains(where: { $0.id == treatment.id }) { treatment.id = fallback }
              flows.append(treatment)
              flow = treatment.id
            }
          }
        }
        compiled.append(Experiment.Variant(id: variantID, weight: share, flow: flow))
      }
      guard compiled.contains(where: { $0.weight > 0 }) else { return nil }
      var experiment = Experiment(
        id: id, salt: salt?.isEmpty == false ? salt : nil, variants: compiled, location: member.value.location)
      experiment.appliesToFlow = entry
      return experiment
    }
    return nil
  }
}
