import FlowEngine
import FlowExpression
import OrderedCollections
import Testing

/// Session data is stored so that copies share it (a frozen base and an overlay of later
/// writes, folded every so often): a copy must still read, order and change its data exactly
/// as if each had its own ordered dictionary, through any mix of writes, copies and removals.
@Suite struct ForkedDataTests {
  static let cases: [(writes: Int, copyEvery: Int)] = [(5, 2), (40, 7), (300, 37), (1_000, 101)]

  @Test(arguments: cases)
  func copiesKeepOrderedDictionarySemantics(writes: Int, copyEvery: Int) {
    var session = FieldTests().formSession()
    var model: OrderedDictionary<String, Value> = [:]
    var copies: [(Session, OrderedDictionary<String, Value>)] = []
    for i in 0..<writes {
      // A third of the writes update an earlier key (its place stays).
      let name = "v\(i % (writes / 3 + 1))"
      _ = session.send(.setVariable(name: name, value: .number(Double(i))))
      model[name] = .number(Double(i))
      if i % 5 == 0 {
        // A removed key that comes back goes last.
        _ = session.send(.set(field: "name", value: .string("n\(i)")))
        model["name"] = .string("n\(i)")
        _ = session.send(.set(field: "name", value: .null))
        model.removeValue(forKey: "name")
        _ = session.send(.set(field: "name", value: .string("again\(i)")))
        model["name"] = .string("again\(i)")
      }
      if i % copyEvery == 0 {
        var copy = session
        var copyModel = model
        _ = copy.send(.setVariable(name: "copy\(i)", value: .bool(true)))
        copyModel["copy\(i)"] = .bool(true)
        _ = copy.send(.setVariable(name: "v0", value: .string("changed")))
        copyModel["v0"] = .string("changed")
        copies.append((copy, copyModel))
      }
    }
    #expect(session.data == model)
    #expect(Array(session.data.keys) == Array(model.keys))
    for (copy, copyModel) in copies {
      #expect(copy.data == copyModel)
      #expect(Array(copy.data.keys) == Array(copyModel.keys))
      #expect(copy.data("v0") == .string("changed"))
    }
  }

  /// `fields` compares as the data does: a copy that wrote a field's own value again is equal,
  /// one that changed a value or added keys in another order is not.
  @Test(arguments: [0, 20, 200])
  func copiesCompareByTheirData(earlierWrites: Int) {
    var session = FieldTests().formSession()
    for i in 0..<earlierWrites { _ = session.send(.setVariable(name: "v\(i)", value: .number(Double(i)))) }
    _ = session.send(.setVariable(name: "kept", value: "same"))
    var same = session
    _ = same.send(.setVariable(name: "kept", value: "same"))
    #expect(same.fields == session.fields)
    var changed = session
    _ = changed.send(.setVariable(name: "kept", value: "other"))
    #expect(changed.fields != session.fields)
    var (ab, ba) = (session, session)
    _ = ab.send(.setVariable(name: "a", value: 1))
    _ = ab.send(.setVariable(name: "b", value: 2))
    _ = ba.send(.setVariable(name: "b", value: 2))
    _ = ba.send(.setVariable(name: "a", value: 1))
    #expect(ab.fields != ba.fields)
    #expect(ab.data != ba.data)
  }

  /// `fields.changes` (what the driver asks after each input) moves exactly when the data
  /// compares different: writing a value a key already holds, or clearing an absent field,
  /// does not count; a new value, a new key or a removal does, across the store's folding.
  @Test(arguments: [0, 20, 200])
  func changesMoveExactlyWhenTheDataDiffers(earlierWrites: Int) {
    var session = FieldTests().formSession()
    for i in 0..<earlierWrites { _ = session.send(.setVariable(name: "v\(i)", value: .number(Double(i)))) }
    let inputs: [(Input, changes: Bool)] = [
      (.setVariable(name: "kept", value: "same"), true),
      (.setVariable(name: "kept", value: "same"), false),
      (.setVariable(name: "kept", value: "other"), true),
      (.set(field: "name", value: .string("Ada")), true),
      (.set(field: "name", value: .string("Ada")), false),
      (.set(field: "name", value: .null), true),
      (.set(field: "name", value: .null), false),
      (.setVariable(name: "v0", value: earlierWrites > 0 ? .number(0) : "new"), earlierWrites == 0),
    ]
    for (input, changes) in inputs {
      let before = session
      _ = session.send(input)
      #expect((session.fields.changes != before.fields.changes) == changes, "\(input)")
      #expect((session.fields != before.fields) == changes, "\(input)")
    }
  }
}
