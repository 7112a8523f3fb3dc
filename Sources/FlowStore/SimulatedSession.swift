/// A session of `flowrun simulate --store`: its submission row (written as every session's
/// row is) and what the simulation knows besides, kept in `flowrun_simulated_sessions`
/// (docs/simulate.md, "The store").
public struct SimulatedSession: Hashable, Sendable {
  public var submission: Submission
  /// The run's seed and the user's 0-based index.
  public var seed: String
  public var userIndex: Int
  /// `experiment=variant, …` or `all users`, as the report names variants.
  public var variant: String
  /// `completed`, `dismissed`, `dropped_off`, `stuck` or `failed`.
  public var outcome: String
  /// JSON: the screen keys shown, in order.
  public var pathJSON: String
  /// JSON: the session's analytics events (secret answers masked), in order.
  public var eventsJSON: String

  public init(
    submission: Submission, seed: String, userIndex: Int, variant: String, outcome: String, pathJSON: String,
    eventsJSON: String
  ) {
    self.submission = submission
    self.seed = seed
    self.userIndex = userIndex
    self.variant = variant
    self.outcome = outcome
    self.pathJSON = pathJSON
    self.eventsJSON = eventsJSON
  }
}

/// The SQL of `flowrun_simulated_sessions`, created when a store first gets simulated sessions
/// (not a versioned migration: only `simulate --store` writes it, and other commands never read it).
enum SimulationSQL {
  static func table(_ d: SubmissionSQL.Dialect) -> String {
    let (uuid, json, integer) = d == .postgres ? ("UUID", "JSONB", "BIGINT") : ("TEXT", "TEXT", "INTEGER")
    return """
      CREATE TABLE IF NOT EXISTS flowrun_simulated_sessions (
        submission_id \(uuid) PRIMARY KEY NOT NULL,
        seed TEXT NOT NULL,
        user_index \(integer) NOT NULL,
        variant TEXT NOT NULL,
        outcome TEXT NOT NULL,
        path \(json) NOT NULL,
        events \(json) NOT NULL
      )
      """
  }

  static func upsert(_ d: SubmissionSQL.Dialect) -> String {
    """
    INSERT INTO flowrun_simulated_sessions (submission_id, seed, user_index, variant, outcome, path, events)
    VALUES (\(d.parameter(1, cast: "uuid")), \(d.parameter(2)), \(d.parameter(3, cast: "bigint")), \(d.parameter(4)), \
    \(d.parameter(5)), \(d.parameter(6, cast: "jsonb")), \(d.parameter(7, cast: "jsonb")))
    ON CONFLICT (submission_id) DO UPDATE SET seed = EXCLUDED.seed, user_index = EXCLUDED.user_index, \
    variant = EXCLUDED.variant, outcome = EXCLUDED.outcome, path = EXCLUDED.path, events = EXCLUDED.events
    """
  }

  static func values(_ session: SimulatedSession) -> [String?] {
    [
      session.submission.id, session.seed, String(session.userIndex), session.variant, session.outcome,
      session.pathJSON, session.eventsJSON,
    ]
  }
}
