import ArgumentParser
import FlowStore

/// `--store URL` and `flowrun submissions URL`: `sqlite:PATH`, a file path, or `postgres://…`.
/// A URL that cannot name a store is wrong usage (64); a store that cannot be opened is exit 1.
struct StoreLocation: OptionValue, CustomStringConvertible {
  let url: StoreURL

  static func parse(_ text: String) -> Result<StoreLocation, ValidationError> {
    StoreURL.parse(text).map(StoreLocation.init).mapError { ValidationError("--store: \($0.message)") }
  }

  var description: String { url.description }

  /// Opens and migrates the store; a failure is said on stderr in one line and exits 1. Only
  /// the commands that write (`creates`) create a missing SQLite file.
  func open(creates: Bool) throws -> SharedStore {
    do throws(StoreError) {
      return try SharedStore(url, creates: creates)
    } catch {
      Output.error.write("flowrun: \(error.message)\n")
      throw ExitCode(1)
    }
  }
}
