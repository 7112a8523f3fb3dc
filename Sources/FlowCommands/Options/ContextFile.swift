import ArgumentParser
import FlowFormat
import FlowSupport

/// `--context FILE`: reads an AppDNA OnboardingContext; a bad file is a usage error.
enum ContextFile {
  static func load(_ path: String) throws -> OnboardingContext {
    switch TextFile.read(path, limit: .script) {
    case .success(let bytes):
      switch OnboardingContext.parse(bytes, file: path) {
      case .success(let context): return context
      case .failure(let problem): throw ValidationError("--context \(path): \(problem.message)")
      }
    case .failure(let failure):
      throw ValidationError("--context \(path): \(failure.message)")
    }
  }
}
