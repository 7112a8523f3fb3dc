import ArgumentParser
import FlowDriver
import FlowExpression
import FlowFormat
import FlowSupport
import OrderedCollections

/// Earlier answers supplied on the command line (`run`, `render`, `test`; docs/cli.md,
/// "Supplying earlier answers"): `--data-in FILE` first, then each `--set` in order, the later
/// winning. A script's own steps come after them and so override them.
struct DataOptions: ParsableArguments {
  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "A collected value before the session starts; VALUE is JSON when it parses as JSON, else text (repeatable).",
      valueName: "field=value"))
  var settings: [Checked<DataSetting>] = []

  @Option(
    name: .customLong("data-in"),
    help: ArgumentHelp("Collected values from a JSON object (such as a --data file), before --set.", valueName: "file"))
  var dataIn: String?

  mutating func validate() throws {
    for setting in settings { _ = try setting.get() }
  }

  /// The values, or an error on stderr and exit 2 when `--data-in` cannot be read or is not a
  /// JSON object.
  func values() throws -> OrderedDictionary<String, Value> {
    var values: OrderedDictionary<String, Value> = [:]
    if let dataIn {
      switch TextFile.read(dataIn, limit: .flow) {
      case .failure(let failure):
        Output.error.write("flowrun: cannot read --data-in file \(dataIn): \(failure.message)\n")
        throw ExitCode(2)
      case .success(let bytes):
        guard case .object(let members)? = JSONBridge.value(parsing: String(decoding: bytes, as: UTF8.self)) else {
          Output.error.write(
            "flowrun: --data-in file \(dataIn) must hold one JSON object of field names and values, "
              + "such as a --data file\n")
          throw ExitCode(2)
        }
        values = members
      }
    }
    for setting in settings {
      let setting = try setting.get()
      values[setting.field] = setting.value
    }
    return values
  }
}

/// `--set FIELD=VALUE`: JSON when VALUE parses as JSON (`3`, `true`, `["cardio"]`), else text.
struct DataSetting: KeyValue {
  static let option = "--set"
  let field: String
  let value: Value

  init(key: String, text: String) {
    field = key
    value = JSONBridge.value(parsing: text) ?? .string(text)
  }
}
