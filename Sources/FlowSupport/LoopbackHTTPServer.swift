#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for `flowrun serve`: one request per connection
/// (`Connection: close`), one connection at a time; a body is read when `Content-Length`
/// announces one (POST: the webhook tests' server). Strict limits, so no client can hold it: a
/// request head larger than `maxHead` bytes is answered 431, a body larger than `maxBody` 413,
/// and a request not complete within `headTimeout` is dropped; an answer not taken within
/// `headTimeout` is dropped too. SIGINT, SIGTERM and SIGHUP (`StopSignals`) end `serve` between
/// requests, within `pollInterval`.
///
/// Written on POSIX sockets rather than taken from a server package: FlyingFox (which builds in
/// about 40 s here) has no limit on a request line, and a 50 MB one kept it busy, and deaf to
/// SIGTERM, long after the client left.
public final class LoopbackHTTPServer {
  public struct Request: Sendable {
    public var method: String
    /// The target's path, percent-decoded.
    public var path: String
    /// The query's pairs in order, percent-decoded (`+` is a space).
    public var query: [(name: String, value: String)]
    /// The header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body (UTF-8, invalid bytes replaced); empty without `Content-Length`.
    public var body: String

    public init(
      method: String, path: String, query: [(name: String, value: String)],
      headers: [(name: String, value: String)] = [], body: String = ""
    ) {
      self.method = method
      self.path = path
      self.query = query
      self.headers = headers
      self.body = body
    }

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  public struct Response: Sendable {
    public var status: Int
    public var reason: String
    public var contentType: String
    public var body: String

    public init(status: Int, reason: String, contentType: String = "application/json; charset=utf-8", body: String) {
      self.status = status
      self.reason = reason
      self.contentType = contentType
      self.body = body
    }
  }

  public static let maxHead = 16 * 1024
  public static let maxBody = 1 << 20
  public static let headTimeout: Int64 = 5_000
  static let pollInterval: Int32 = 100

  /// The port bound (the system's choice for port 0).
  public let port: UInt16
  private let listener: Int32

  /// Why the server could not listen: the system's words (`Address already in use`).
  public struct Failure: Error, Sendable {
    public var message: String
  }

  /// Binds 127.0.0.1:`port` and listens.
  public init(port: UInt16) throws(Failure) {
    let fd = socket(AF_INET, Self.streamType, 0)
    guard fd >= 0 else { throw Failure(message: systemMessage(errno)) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else {
      let code = errno
      close(fd)
      throw Failure(message: systemMessage(code))
    }
    listener = fd
    self.port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(listener) }

  /// Answers requests with `handle` until `shouldStop` says so (asked between requests and at
  /// least every 100 ms while idle).
  public func serve(shouldStop: () -> Bool, handle: (Request) -> Response) {
    while !shouldStop() {
      var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Self.pollInterval) > 0 else { continue }  // idle, or a signal
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      defer { close(connection) }
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      let deadline = Self.now() + Self.headTimeout
      guard let head = Self.readHead(connection, deadline: deadline, shouldStop: shouldStop) else { continue }
      let response: Response
      var isHead = false
      switch head {
      case .tooLarge:
        response = Response(
          status: 431, reason: "Request Header Fields Too Large",
          body: #"{"error":"the request head is larger than 16384 bytes"}"# + "\n")
      case .bytes(let bytes, let rest):
        if var request = Self.parse(bytes) {
          isHead = request.method == "HEAD"
          let length = request.header("Content-Length").flatMap { Int($0) } ?? 0
          guard length <= Self.maxBody else {
            let tooLarge = Response(
              status: 413, reason: "Content Too Large", body: #"{"error":"the body is larger than 1 MiB"}"# + "\n")
            Self.reply(tooLarge, withBody: true, to: connection, deadline: Self.now() + Self.headTimeout)
            continue
          }
          guard let body = Self.readBody(connection, length: length, have: rest, deadline: deadline) else { continue }
          request.body = String(decoding: body, as: UTF8.self)
          response = handle(request)
        } else {
          response = Response(status: 400, reason: "Bad Request", body: #"{"error":"not an HTTP/1.x request"}"# + "\n")
        }
      }
      Self.reply(response, withBody: !isHead, to: connection, deadline: Self.now() + Self.headTimeout)
    }
  }

  // MARK: Reading

  enum Head {
    /// The head, and what was read after it (the body's start).
    case bytes([UInt8], rest: [UInt8])
    case tooLarge
  }

  /// The request head up to its blank line; nil when the client went away, stalled past the
  /// deadline, or a stop was asked.
  static func readHead(_ fd: Int32, deadline: Int64, shouldStop: () -> Bool) -> Head? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !shouldStop() {
      let left = deadline - now()
      guard left > 0 else { return nil }
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(min(left, Int64(pollInterval)))) > 0 else { continue }
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return nil }
      let start = max(0, bytes.count - 3)
      bytes += buffer[0..<count]
      if let end = headEnd(bytes, from: start) {
        return end <= maxHead ? .bytes(Array(bytes[..<end]), rest: Array(bytes[end...])) : .tooLarge
      }
      if bytes.count > maxHead { return .tooLarge }
    }
    return nil
  }

  /// `length` bytes of body, `have` being its start; nil when the client went away or stalled.
  static func readBody(_ fd: Int32, length: Int, have: [UInt8], deadline: Int64) -> [UInt8]? {
    var bytes = Array(have.prefix(length))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < length {
      let left = deadline - now()
      guard left > 0 else { return nil }
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(min(left, Int64(pollInterval)))) > 0 else { continue }
      let count = recv(fd, &buffer, min(buffer.count, length - bytes.count), Int32(MSG_DONTWAIT))
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return nil }
      bytes += buffer[0..<count]
    }
    return bytes
  }

  /// Where the head ends (after `\r\n\r\n`, or `\n\n`), searching from `start`.
  static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index < bytes.count {
      if bytes[index] == 0x0A {
        if index >= 1, bytes[index - 1] == 0x0A { return index + 1 }
        if index >= 3, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D {
          return index + 1
        }
      }
      index += 1
    }
    return nil
  }

  /// `METHOD TARGET HTTP/1.x` and its target split and decoded; nil when it is not that.
  static func parse(_ head: [UInt8]) -> Request? {
    let lineEnd = head.firstIndex(of: 0x0A) ?? head.count
    var line = head[..<lineEnd]
    if line.last == 0x0D { line = line.dropLast() }
    let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, let method = String(validating: parts[0], as: UTF8.self),
      !method.isEmpty, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }),
      let version = String(validating: parts[2], as: UTF8.self), version == "HTTP/1.1" || version == "HTTP/1.0",
      parts[1].first == UInt8(ascii: "/")
    else { return nil }
    let target = Array(parts[1])
    let question = target.firstIndex(of: UInt8(ascii: "?")) ?? target.count
    guard let path = percentDecoded(target[..<question], plusIsSpace: false) else { return nil }
    var query: [(name: String, value: String)] = []
    if question < target.count {
      for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&")) {
        let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
        guard let name = percentDecoded(pair[..<equals], plusIsSpace: true),
          let value = percentDecoded(equals < pair.endIndex ? pair[(equals + 1)...] : [], plusIsSpace: true)
        else { return nil }
        query.append((name, value))
      }
    }
    var headers: [(name: String, value: String)] = []
    for line in head[lineEnd...].split(separator: 0x0A) {
      let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else { continue }
      let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
      headers.append((String(text[..<colon]), String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())))
    }
    return Request(method: method, path: path, query: query, headers: headers)
  }

  /// `%XX` decoded (and `+` as a space in a query); nil for a bad escape or bytes that are not
  /// UTF-8.
  static func percentDecoded(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
    var out: [UInt8] = []
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          return nil
        }
        out.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace: out.append(0x20)
      default: out.append(byte)
      }
    }
    return String(validating: out, as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  // MARK: Writing

  /// Writes the response without ever blocking past `deadline` (a client that does not read
  /// is dropped).
  static func reply(_ response: Response, withBody: Bool, to fd: Int32, deadline: Int64) {
    let body = Array(response.body.utf8)
    var bytes = Array(
      ("HTTP/1.1 \(response.status) \(response.reason)\r\nContent-Type: \(response.contentType)\r\n"
        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
    if withBody { bytes += body }
    var sent = 0
    while sent < bytes.count {
      let left = deadline - now()
      guard left > 0 else { return }
      var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      guard poll(&entry, 1, Int32(min(left, Int64(pollInterval)))) > 0 else { continue }
      // SIGPIPE is ignored (StandardStreams.prepare): a client gone is an error here.
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count > 0 else { return }
      sent += count
    }
  }

  #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
  #else
    static let streamType = SOCK_STREAM
  #endif

  /// Monotonic milliseconds.
  static func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }
}
