import FlowDriver
import Testing

/// `--hook-command` is split into words without a shell (docs/cli.md).
@Suite struct HookCommandSplitTests {
  @Test(arguments: [
    ("./hook.sh", ["./hook.sh"]),
    ("  python3   hook.py --strict ", ["python3", "hook.py", "--strict"]),
    (#"sh -c 'echo "a b"; exit 0'"#, ["sh", "-c", #"echo "a b"; exit 0"#]),
    (#"node "my hook.js" ''"#, ["node", "my hook.js", ""]),
  ])
  func splits(_ text: String, _ words: [String]) {
    #expect(HookCommand.split(text) == words)
  }

  @Test(arguments: ["", "   ", "'unclosed", #"sh -c "echo"#])
  func refuses(_ text: String) {
    #expect(HookCommand.split(text) == nil)
  }
}
