import Foundation
import Testing
import _FlowTestSupport

@testable import FlowReplay

/// Where a script's snapshots may be (docs/security.md); the CLI tests cover reading and
/// writing through the binary.
@Suite struct SnapshotFilesTests {
  @Test(arguments: [
    ("/s/a/b/t.flow-test.yaml", ["/s", "/s/a"], "/s/a"),
    ("/s/a/b/t.flow-test.yaml", ["/s"], "/s"),
    ("/s/a/b/t.flow-test.yaml", ["/other"], "/s/a/b"),
    ("/s/a/b/t.flow-test.yaml", [], "/s/a/b"),
    ("/sa/t.flow-test.yaml", ["/s"], "/sa"),
  ])
  func theSuiteIsTheLongestGivenDirectoryHoldingTheScript(_ script: String, _ roots: [String], _ root: String) {
    #expect(SnapshotFiles.suiteRoot(of: script, roots: roots) == root)
  }

  @Test(arguments: [
    ("snap.txt", true), ("deep/er/snap.txt", true), ("a/../snap.txt", true), ("./snap.txt", true),
    ("../snap.txt", false), ("a/../../snap.txt", false), ("/tmp/snap.txt", false), ("/proc/self/environ", false),
  ])
  func lexicalEscapesAreRefused(_ relative: String, _ allowed: Bool) throws {
    let directory = try TemporaryDirectory()
    let root = directory.path
    let result = SnapshotFiles.resolve(relative, script: root + "/t.flow-test.yaml", root: root)
    switch result {
    case .success(let path): #expect(allowed && path.hasPrefix(root + "/"), "\(path)")
    case .failure(let problem): #expect(!allowed, "\(problem.message)")
    }
  }

  @Test(arguments: [
    ("── Welcome · welcome ──\n", true), ("", true), ("{\"screens\": []}", false), ("steps: []\n", false),
    ("─ one dash\n", false),
  ])
  func onlyTranscriptsCountAsSnapshots(_ text: String, _ isTranscript: Bool) {
    #expect(SnapshotFiles.isTranscript(Array(text.utf8)) == isTranscript)
  }
}
