import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

@Suite struct FileIdentityTests {
  /// One file, whatever the spelling: relative and absolute, `./` and `..`, symbolic and hard
  /// links; a file that does not exist yet by its resolved path.
  @Test func oneFileHasOneIdentity() throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("flow.json", contents: "{}")
    #expect(symlink(file, directory.path + "/alias.json") == 0)
    #expect(link(file, directory.path + "/hard.json") == 0)
    #expect(mkdir(directory.path + "/sub", 0o755) == 0)
    let spellings = [
      file, directory.path + "/./flow.json", directory.path + "/sub/../flow.json", directory.path + "/alias.json",
      directory.path + "/hard.json",
    ]
    for spelling in spellings { #expect(FileIdentity(spelling) == FileIdentity(file), "\(spelling)") }
    #expect(FileIdentity(directory.path + "/new.json") == FileIdentity(directory.path + "/./new.json"))
    #expect(FileIdentity(directory.path + "/new.json") != FileIdentity(directory.path + "/other.json"))
    #expect(symlink(directory.path, directory.path + "/same") == 0)
    #expect(FileIdentity(directory.path + "/same/new.json") == FileIdentity(directory.path + "/new.json"))
  }

  @Test func clashesNameBothFiles() throws {
    let directory = try TemporaryDirectory()
    let flow = directory.file("flow.json", contents: "{}")
    let inputs = [FileIdentity.Role("the flow", flow)]
    #expect(
      FileIdentity.clash(inputs: inputs, outputs: [.init("--data", directory.path + "/./flow.json")])
        == "--data \(directory.path)/./flow.json is the flow \(flow): an output must not overwrite an input")
    let out = directory.path + "/out.json"
    #expect(
      FileIdentity.clash(inputs: inputs, outputs: [.init("--data", out), .init("--record", out)])
        == "--record \(out) and --data \(out) are the same file: give each output its own file")
    #expect(
      FileIdentity.clash(inputs: inputs, outputs: [.init("--data", out), .init("--record", out + ".yaml")]) == nil)
  }

  /// Nothing in /dev/null can be lost: several outputs may share it.
  @Test func characterDevicesNeverClash() {
    let outputs = [
      FileIdentity.Role("--data", "/dev/null"), .init("--record", "/dev/null"), .init("--events", "/dev/null"),
    ]
    #expect(FileIdentity.clash(inputs: [], outputs: outputs) == nil)
  }
}
