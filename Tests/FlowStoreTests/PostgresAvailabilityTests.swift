import Foundation
import OrderedCollections
import Testing
import _FlowTestSupport

/// The PostgreSQL tests run where FLOWRUN_TEST_POSTGRES names a server (`.ci/run` starts one):
/// without it they are skipped locally, which this test says, and CI (CI=true) fails.
@Suite struct PostgresAvailabilityTests {
  @Test func postgresTestsRunInCI() {
    let environment = ProcessInfo.processInfo.environment
    guard TestDatabase.postgresURL == nil else { return }
    if environment["CI"] == "true" {
      Issue.record("CI=true but FLOWRUN_TEST_POSTGRES is not set: the PostgreSQL store tests did not run")
    } else {
      print(
        "note: FLOWRUN_TEST_POSTGRES is not set: the PostgreSQL store tests are skipped "
          + "(eval \"$(.ci/postgres start)\" runs them)")
    }
  }
}
