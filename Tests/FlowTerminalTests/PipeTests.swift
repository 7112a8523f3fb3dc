import FlowTerminal
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct PipeTests {}

private func makePipe() -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  precondition(pipe(&fds) == 0)
  return (fds[0], fds[1])
}

private func write(_ text: String, to fd: Int32) {
  let bytes = Array(text.utf8)
  precondition(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
}

extension PipeTests {
  @Test func plainSourceSplitsLinesAndEndsWithEndOfFile() {
    let pipe = makePipe()
    defer { close(pipe.read) }
    write("first\r\nsecond\n\nlast without newline", to: pipe.write)
    close(pipe.write)
    let source = PlainLineSource(fileDescriptor: pipe.read)
    #expect(source.readLine(prompt: "> ") == .line("first"))
    #expect(source.readLine(prompt: "> ") == .line("second"))
    #expect(source.readLine(prompt: "> ") == .line(""))
    #expect(source.readLine(prompt: "> ") == .line("last without newline"))
    #expect(source.readLine(prompt: "> ") == .endOfFile)
    #expect(source.readLine(prompt: "> ") == .endOfFile)
    source.shutdown()
    source.shutdown()
    #expect(source.readLine(prompt: "> ") == .endOfFile)
  }

  @Test func plainSourceKeepsUTF8() {
    let pipe = makePipe()
    defer { close(pipe.read) }
    write("Zoë 👋\n", to: pipe.write)
    close(pipe.write)
    #expect(PlainLineSource(fileDescriptor: pipe.read).readLine(prompt: "") == .line("Zoë 👋"))
  }

  @Test func pipeIsRecognised() {
    let pipe = makePipe()
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    #expect(TerminalInfo.isPipe(pipe.write))
    #expect(!TerminalInfo.isTTY(pipe.write))
  }

  @Test func outputChannelStopsAfterTheReaderLeaves() {
    TerminalInfo.prepareStandardOutput()  // ignores SIGPIPE, as flowrun does at startup
    let pipe = makePipe()
    defer { close(pipe.write) }
    let channel = OutputChannel(fileDescriptor: pipe.write)
    #expect(channel.write("one line\n"))
    close(pipe.read)
    #expect(!channel.write("nobody reads this\n"))
    #expect(channel.isClosed)
    #expect(channel.failure == EPIPE)
    #expect(!channel.write("nor this\n"))
  }
}
