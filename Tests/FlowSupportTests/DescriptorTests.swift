import FlowSupport
import Foundation
import Testing

@Suite struct DescriptorTests {
  /// A non-blocking pipe that fills up (EAGAIN) is waited on, not spun on, and everything
  /// arrives once the reader drains it.
  @Test func writesEverythingToAFullNonBlockingPipe() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let (reader, writer) = (fds[0], fds[1])
    #expect(fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK) == 0)
    let text = String(repeating: "0123456789", count: 100_000)  // far more than a pipe holds
    let received = Locked<[UInt8]>([])
    let drain = Thread {
      var chunk = [UInt8](repeating: 0, count: 8192)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        received.withLock { $0 += chunk[..<count] }
      }
      close(reader)
    }
    drain.start()
    #expect(Descriptor.write(text, to: writer) == nil)
    close(writer)
    while !drain.isFinished { usleep(1000) }
    #expect(received.withLock { $0.count } == text.utf8.count)
  }

  @Test func aClosedReaderIsEPIPE() {
    StandardStreams.prepare()  // SIGPIPE ignored, as in flowrun
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    close(fds[0])
    defer { close(fds[1]) }
    let failure = Descriptor.write("nobody reads\n", to: fds[1])
    #expect(failure == .errno(EPIPE))
    #expect(failure?.message == "Broken pipe")
  }

  @Test func outputChannelKeepsTheFirstFailure() {
    let full = open("/dev/full", O_WRONLY)
    defer { close(full) }
    let channel = OutputChannel(fileDescriptor: full)
    #expect(!channel.write("x"))
    #expect(channel.failure == ENOSPC)
    #expect(channel.lostOutput)
    #expect(!channel.write("y"))
  }

  @Test func lockedCountsEveryIncrementFromManyThreads() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }
}
