import FlowEngine
import FlowFormat
import FlowSimulation
import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

/// `flowrun simulate`'s library: determinism (threads, shards), the engine driven for every
/// dialect, answers valid by default, and the statistics.
@Suite struct SimulationTests {
  static func document(_ name: String) throws -> FlowDocument {
    let path = packageRoot().appendingPathComponent("sample-flows/\(name)").path
    return try #require(FlowLoader.load(path: path).document)
  }

  static func result(_ plan: SimulationPlan, _ tally: SimulationTally, users: Int) -> SimulationResult {
    SimulationResult(
      flow: "f", fingerprint: "0", seed: plan.seed, users: users, model: nil, screens: plan.screenKeys,
      variants: [], tally: tally)
  }

  @Test(arguments: [1, 2, 5])
  func theTallyDoesNotDependOnThreads(jobs: Int) throws {
    let plan = SimulationPlan(document: try Self.document("goals.json"), seed: 7)
    let single = Simulation.run(plan, users: 0..<3_000, jobs: 1)
    #expect(Simulation.run(plan, users: 0..<3_000, jobs: jobs) == single)
    #expect(single.users == 3_000)
  }

  /// Threads after the first walk their own copy of the plan (no object shared between
  /// cores): the tally is the single thread's, and each of them asked for one copy.
  @Test(arguments: [2, 5])
  func threadsWithTheirOwnPlansTallyTheSame(jobs: Int) throws {
    let path = packageRoot().appendingPathComponent("sample-flows/goals.json").path
    let plan = SimulationPlan(document: try Self.document("goals.json"), seed: 7)
    let copies = Locked(0)
    let copy: @Sendable () -> SimulationPlan? = {
      copies.withLock { $0 += 1 }
      return FlowLoader.load(path: path).document.map { SimulationPlan(document: $0, seed: 7) }
    }
    let single = Simulation.run(plan, users: 0..<3_000, jobs: 1)
    #expect(Simulation.run(plan, users: 0..<3_000, jobs: jobs, copy: copy) == single)
    #expect(copies.withLock { $0 } == jobs - 1)
  }

  @Test func anotherSeedGivesAnotherRun() throws {
    let document = try Self.document("goals.json")
    let one = Simulation.run(SimulationPlan(document: document, seed: 1), users: 0..<1_000)
    let two = Simulation.run(SimulationPlan(document: document, seed: 2), users: 0..<1_000)
    #expect(one != two)
  }

  /// Slices of the users merged through their partial files equal the single run, the report too.
  @Test(arguments: [2, 3, 7])
  func shardsMergeToTheSingleRun(count: Int) throws {
    let plan = SimulationPlan(document: try Self.document("goals.json"), seed: 3)
    let users = 2_000
    let single = Self.result(plan, Simulation.run(plan, users: 0..<users, jobs: 2), users: users)
    var partials: [(path: String, result: SimulationResult)] = []
    for index in (1...count).reversed() {
      var partial = Self.result(
        plan, Simulation.run(plan, users: users * (index - 1) / count..<users * index / count), users: users)
      partial.shard = "\(index)/\(count)"
      let data = Data(try partial.partialJSON().utf8)
      partials.append(("part\(index)", try SimulationResult.partial(from: data)))
    }
    let merged = try SimulationResult.merge(partials).get()
    #expect(merged == single)
    #expect(SimulationReport(merged).json == SimulationReport(single).json)
  }

  @Test func partialsOfOneRunOnly() throws {
    let plan = SimulationPlan(document: try Self.document("fitness.json"), seed: 1)
    var one = Self.result(plan, Simulation.run(plan, users: 0..<10), users: 20)
    one.shard = "1/2"
    var other = one
    other.seed = 9
    other.shard = "2/2"
    #expect(throws: MergeProblem.self) { try SimulationResult.merge([("a", one), ("b", other)]).get() }
    #expect(throws: MergeProblem.self) { try SimulationResult.merge([("a", one)]).get() }
    #expect(throws: MergeProblem.self) { try SimulationResult.merge([("a", one), ("b", one)]).get() }
    #expect(throws: MergeProblem.self) { try SimulationResult.partial(from: Data("{}".utf8)) }
  }

  /// Without drop-off every user of every sample flow finishes: the default answers are valid
  /// and every dialect is driven through the engine.
  @Test(arguments: [
    "goals.json", "fitness.json", "survey.json", "signin.json", "bundle.json", "legacy.json",
    "appdna/profile-form.json",
    "appdna/quiz-bundle.json",
    "appdna/coach-chat.json",
  ])
  func defaultAnswersFinishEveryFlow(name: String) throws {
    var model = BehaviourModel()
    model.dropOff = 0
    let plan = SimulationPlan(document: try Self.document(name), model: model, seed: 11)
    let tally = Simulation.run(plan, users: 0..<400, jobs: 2)
    let stuck = tally.variants.values.reduce(0) { $0 + $1.stuck + $1.failed }
    #expect(stuck == 0)
    #expect(tally.variants.values.reduce(0) { $0 + $1.completed + $1.dismissed } == 400)
  }

  @Test func reachedCountsFollowTheFlow() throws {
    let plan = SimulationPlan(document: try Self.document("goals.json"), seed: 5)
    let tally = Simulation.run(plan, users: 0..<2_000, jobs: 2)
    for variant in tally.variants.values {
      #expect(variant.reached["intro"] == variant.users)
      #expect(
        variant.users == variant.completed + variant.dismissed + variant.droppedOff + variant.stuck + variant.failed)
      #expect(variant.endedOn.values.reduce(0, +) == variant.users - variant.completed)
      #expect(variant.completionTime.values.reduce(0, +) == variant.completed)
      #expect(variant.paths.values.reduce(0, +) == variant.users)
    }
    // `checkin_day` is shown only in the coach variant (a rule on `$variant.plan_copy`).
    #expect(tally.variants["plan_copy=control"]?.reached["checkin_day"] == nil)
    #expect((tally.variants["plan_copy=coach"]?.reached["checkin_day"] ?? 0) > 0)
  }
}

@Suite struct StatisticsTests {
  /// Wilson intervals checked against published values (Newcombe 1998, table I).
  @Test(arguments: [
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
  ])
  func wilson(successes: Int, trials: Int, low: Double, high: Double) {
    let interval = Statistics.wilson(successes, of: trials)
    #expect(abs(interval.lowerBound - low) < 0.0001)
    #expect(abs(interval.upperBound - high) < 0.0001)
  }

  @Test func twoProportionZ() throws {
    // 45/100 against 30/100: pooled p 0.375, z = 0.15 / sqrt(0.375 * 0.625 * 0.02) = 2.1909.
    let test = try #require(Statistics.twoProportionZ((30, 100), (45, 100)))
    #expect(abs(test.z - 2.1909) < 0.0001)
    #expect(abs(test.p - 0.02846) < 0.0001)
    #expect(Statistics.twoProportionZ((0, 10), (0, 10)) == nil)
    #expect(Statistics.twoProportionZ((1, 0), (0, 10)) == nil)
  }

  @Test func quantilesAreNearestRank() {
    let histogram = [1: 2, 3: 5, 10: 3]
    #expect(Statistics.quantile(0.5, of: histogram) == 3)
    #expect(Statistics.quantile(0.2, of: histogram) == 1)
    #expect(Statistics.quantile(0.71, of: histogram) == 10)
    #expect(Statistics.quantile(0.5, of: [:]) == nil)
  }
}
