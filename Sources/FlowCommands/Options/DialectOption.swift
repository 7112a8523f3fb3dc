import ArgumentParser
import FlowFormat

/// `--dialect appdna|nuxie|sequence`: read a file as this dialect whatever its shape says.
extension Dialect: ExpressibleByArgument {}

/// The loading options every command that reads a flow shares.
struct LoadingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Read the file as this dialect: appdna, nuxie or sequence (default: told by the document's keys).",
      valueName: "dialect"))
  var dialect: Dialect?

  var load: LoadOptions { LoadOptions(dialect: dialect) }
}
