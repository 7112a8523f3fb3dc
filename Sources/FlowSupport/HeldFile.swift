#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A regular file kept open after its bytes were read and let go, so that parts of it can be
/// read back (the excerpts of a report's diagnostics) without holding it all: a big flow's
/// bytes were a third of `check`'s memory, kept only for a thousand excerpts.
///
/// A read compares the file with what it was when it was read (device, inode, size and
/// modification time to the nanosecond), through the open descriptor and through the path,
/// before and after it reads. A file changed in place, replaced, truncated or gone reads as
/// nil from then on; what was read while it matched stays valid. Nothing another program can
/// see: no lock, no lease, only an open descriptor.
public final class HeldFile: Sendable {
  /// The path it was read by.
  public let path: String
  /// Its size when read.
  public let size: Int
  private let descriptor: Int32
  private let identity: Identity
  /// The last chunk read (reads of one report cluster), and whether the file was found changed.
  private let state = Locked(State())

  /// At most this many files are held at once: `check` of a directory of big flows would
  /// otherwise run out of descriptors. Past it, the caller keeps the bytes.
  static let maximumHeld = 64
  private static let held = Locked(0)
  /// Bytes read back at a time: excerpts of one report are a few hundred bytes each, mostly
  /// near the ones before.
  static let chunk = 1 << 16

  struct State {
    var start = 0
    var bytes: [UInt8] = []
    var changed = false
  }

  /// What a file was: compared before and after every read.
  struct Identity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      #if canImport(Darwin)
        seconds = Int64(info.st_mtimespec.tv_sec)
        nanoseconds = Int64(info.st_mtimespec.tv_nsec)
      #else
        seconds = Int64(info.st_mtim.tv_sec)
        nanoseconds = Int64(info.st_mtim.tv_nsec)
      #endif
    }
  }

  /// Takes `descriptor` (open on the regular file at `path` that `info` describes) when fewer
  /// than `maximumHeld` files are held; nil leaves it to the caller.
  init?(descriptor: Int32, path: String, info: stat) {
    let taken = Self.held.withLock { count in
      guard count < Self.maximumHeld else { return false }
      count += 1
      return true
    }
    guard taken else { return nil }
    self.descriptor = descriptor
    self.path = path
    self.size = Int(info.st_size)
    self.identity = Identity(info)
  }

  deinit {
    close(descriptor)
    Self.held.withLock { $0 -= 1 }
  }

  /// The bytes of `range` (clamped to the file), or nil when the file is no longer the one read.
  public func read(_ range: Range<Int>) -> [UInt8]? {
    let range = range.clamped(to: 0..<size)
    return state.withLock { state -> [UInt8]? in
      if state.changed { return nil }
      let end = state.start + state.bytes.count
      if range.lowerBound < state.start || range.upperBound > end {
        // The chunks that hold the range, the last one cut at the end of the file.
        let start = range.lowerBound / Self.chunk * Self.chunk
        let stop = min(size, (range.upperBound + Self.chunk - 1) / Self.chunk * Self.chunk)
        guard let bytes = readChecked(start..<max(start, stop)) else {
          state.changed = true
          state.bytes = []
          return nil
        }
        (state.start, state.bytes) = (start, bytes)
      }
      return Array(state.bytes[(range.lowerBound - state.start)..<(range.upperBound - state.start)])
    }
  }

  /// The whole file again, or nil when it is no longer the one read.
  public func readAll() -> [UInt8]? {
    state.withLock { state in
      if state.changed { return nil }
      guard let bytes = readChecked(0..<size) else {
        state.changed = true
        return nil
      }
      return bytes
    }
  }

  /// `range`'s bytes, read only while the file is the one read, before and after.
  private func readChecked(_ range: Range<Int>) -> [UInt8]? {
    guard isUnchanged() else { return nil }
    var complete = true
    let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
      count = 0
      while count < range.count {
        let n = pread(descriptor, buffer.baseAddress! + count, range.count - count, off_t(range.lowerBound + count))
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
          complete = false
          return
        }
        count += n
      }
    }
    return complete && isUnchanged() ? bytes : nil
  }

  /// Whether the open file and the file at `path` are both still the one read.
  private func isUnchanged() -> Bool {
    var open = stat()
    var named = stat()
    return fstat(descriptor, &open) == 0 && Identity(open) == identity && stat(path, &named) == 0
      && Identity(named) == identity
  }
}
