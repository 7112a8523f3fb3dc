import FlowSupport
import FlowTerminal
import Foundation
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
    #expect(StandardStreams.isPipe(pipe.write))
    #expect(!TerminalInfo.isTTY(pipe.write))
  }

  @Test func outputChannelStopsAfterTheReaderLeaves() {
    StandardStreams.prepare()  // ignores SIGPIPE, as flowrun does at startup
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

extension PipeTests {
  /// Writes `text` from another thread (a pipe holds less than the big inputs) and closes.
  private func feed(_ text: String) -> Int32 {
    let pipe = makePipe()
    let writer = pipe.write
    Thread {
      _ = Descriptor.write(text, to: writer)
      close(writer)
    }.start()
    return pipe.read
  }

  /// A line over the limit is one `.overlong` (with its length), never kept whole; the lines
  /// around it are untouched, across chunk boundaries too.
  @Test(arguments: [(1024, 3000), (100_000, 250_000), (100_000, 100_001)])
  func anOverlongLineIsOneRejectedInput(limit: Int, length: Int) {
    let fd = feed(
      "short\n" + String(repeating: "x", count: length) + "\r\nafter\n" + String(repeating: "y", count: length))
    defer { close(fd) }
    let source = PlainLineSource(fileDescriptor: fd, lineLimit: limit)
    #expect(source.readLine(prompt: "") == .line("short"))
    #expect(source.readLine(prompt: "") == .overlong(bytes: length + 1))  // the \r counts
    #expect(source.readLine(prompt: "") == .line("after"))
    #expect(source.readLine(prompt: "") == .overlong(bytes: length))
    #expect(source.readLine(prompt: "") == .endOfFile)
  }

  @Test func aLineAtTheLimitIsALine() {
    let line = String(repeating: "z", count: 200_000)
    let fd = feed(line + "\n" + line)
    defer { close(fd) }
    let source = PlainLineSource(fileDescriptor: fd, lineLimit: 200_000)
    #expect(source.readLine(prompt: "") == .line(line))
    #expect(source.readLine(prompt: "") == .line(line))
    #expect(source.readLine(prompt: "") == .endOfFile)
  }

  @Test func manyShortLinesComeInOrder() {
    let lines = (0..<50_000).map { "line \($0)" }
    let fd = feed(lines.joined(separator: "\n") + "\n")
    defer { close(fd) }
    let source = PlainLineSource(fileDescriptor: fd)
    var read: [String] = []
    while case .line(let line) = source.readLine(prompt: "") { read.append(line) }
    #expect(read == lines)
  }
}

extension PipeTests {
  /// A line that never ends (`< /dev/zero`) is skipped up to the give-up point, then the
  /// input ends: no answer can follow it.
  @Test func anEndlessLineEndsTheInput() {
    let zero = open("/dev/zero", O_RDONLY)
    defer { close(zero) }
    let source = PlainLineSource(fileDescriptor: zero, lineLimit: 1024, giveUpAfter: 1 << 20)
    guard case .overlong(let bytes) = source.readLine(prompt: "") else {
      Issue.record("expected an overlong line")
      return
    }
    #expect(bytes > 1 << 20)
    #expect(source.readLine(prompt: "") == .endOfFile)
  }
}
