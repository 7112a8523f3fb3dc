#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tells when a file is saved (`run --watch`, `render --watch`): on Linux by inotify on the
/// file's directory, so a save that writes a new file and renames it over the old one (what
/// most editors do) is seen like one that writes in place; elsewhere by polling the file's
/// size, modification time and inode every 200 ms. A background thread waits; `onChange` is
/// called on it, once per save, after `takeChange()` reads true.
public final class FileWatcher: Sendable {
  private let changed = Locked(false)
  private let onChange: @Sendable () -> Void

  /// Starts watching `path`; nil when the platform refuses (the error is in `errno`).
  public init?(path: String, onChange: @escaping @Sendable () -> Void) {
    self.onChange = onChange
    let (directory, name) = Self.split(path)
    #if os(Linux)
      let fd = inotify_init1(Int32(IN_CLOEXEC))
      guard fd >= 0 else { return nil }
      guard inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) >= 0 else {
        close(fd)
        return nil
      }
      JoinableThread.start { [self] in watchNotifications(fd, name: name) }?.detach()
    #else
      _ = (directory, name)
      JoinableThread.start { [self] in poll(path) }?.detach()
    #endif
  }

  /// True, once, when the file was saved since the last call.
  public func takeChange() -> Bool {
    changed.withLock { was in
      defer { was = false }
      return was
    }
  }

  private func signal() {
    changed.withLock { $0 = true }
    onChange()
  }

  /// `dir/file.json` → (`dir`, `file.json`); `file.json` → (`.`, `file.json`).
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  #if os(Linux)
    /// Reads inotify events for ever; an event naming the file is a save.
    private func watchNotifications(_ fd: Int32, name: String) {
      let header = MemoryLayout<inotify_event>.size
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        var offset = 0
        var saved = false
        while offset + header <= count {
          let length = buffer.withUnsafeBytes {
            Int($0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
          }
          let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
          let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
          if eventName == name { saved = true }
          offset += header + length
        }
        if saved { signal() }
      }
    }
  #endif

  /// Compares the file's identity, size and modification time every 200 ms.
  private func poll(_ path: String) {
    func stamp() -> [Int] {
      var info = stat()
      guard stat(path, &info) == 0 else { return [] }
      #if canImport(Darwin)
        let modified = info.st_mtimespec
      #else
        let modified = info.st_mtim
      #endif
      return [Int(info.st_ino), Int(info.st_size), Int(modified.tv_sec), Int(modified.tv_nsec)]
    }
    var last = stamp()
    while true {
      usleep(200_000)
      let now = stamp()
      if now != last {
        last = now
        signal()
      }
    }
  }
}
