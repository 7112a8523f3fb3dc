import ArgumentParser
import FlowFormat

extension Flowrun {
  /// `flowrun schema`: the JSON Schema of a dialect's documents, for editors and CI.
  struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "schema",
      abstract: "Print the JSON Schema (draft 2020-12) of the flow documents a dialect's loader reads.",
      discussion: """
        Generated from the loader's own key tables: every key, block type, screen type, action \
        type and transition the loader knows, with descriptions. Unknown keys and types are \
        allowed (the loader only warns about them); wrong JSON types, missing required keys and \
        numbers out of range are not.

        Example:
          flowrun schema > flow.schema.json    # then "$schema": "./flow.schema.json" in a flow
        """
    )

    @Option(help: "The dialect: sequence, appdna or nuxie.")
    var dialect: Dialect = .sequence

    func run() throws {
      Output.standard.write(FlowSchema.text(for: dialect))
    }
  }
}
