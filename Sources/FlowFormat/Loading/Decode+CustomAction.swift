extension DecodeContext {
  /// Built-in identifiers by spelling, for "did you mean".
  static let builtInActions = SpellingIndex(CustomAction.builtInIdentifiers.sorted())

  /// An identifier within two edits of a built-in one (`auth.emial`) is almost surely a typo:
  /// the SDK would hand it to the host's delegate as an action of its own, which the host does
  /// not know either. A host's own action that happens to be that close says so by its name.
  mutating func checkBuiltIn(_ identifier: String, at location: SourceLocation?) {
    guard !CustomAction.builtInIdentifiers.contains(identifier),
      let builtIn = Self.builtInActions.closest(to: identifier)
    else { return }
    at("identifier") {
      $0.report(
        .warning, .Load.unknownBuiltInAction,
        "action '\(identifier)' is not a built-in action; it goes to the host as its own", at: location,
        notes: [Diagnostic.Note("did you mean '\(builtIn)'?")])
    }
  }
}
