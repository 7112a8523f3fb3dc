#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path names, whatever its spelling (`./a.json`, `a.json`, a symbolic link, a
/// hard link): the device and inode when the file exists, else the path with the links of its
/// directory resolved. Outputs are checked against inputs and each other with it before a
/// command runs (`FileIdentity.clash`).
public struct FileIdentity: Hashable, Sendable {
  enum Key: Hashable, Sendable {
    case inode(device: UInt64, inode: UInt64)
    case path(String)
  }

  let key: Key
  /// A character device (`/dev/null`, a terminal): several outputs may share it.
  public let isCharacterDevice: Bool

  public init(_ path: String) {
    var info = stat()
    if stat(path, &info) == 0 {
      key = .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      isCharacterDevice = (info.st_mode & S_IFMT) == S_IFCHR
      return
    }
    isCharacterDevice = false
    let (directory, name) = FilePaths.split(path)
    if let resolved = TextFile.resolvedPath(directory) {
      key = .path(FilePaths.normalizedAbsolute(resolved + "/" + name))
    } else {
      key = .path(FilePaths.normalizedAbsolute(path))
    }
  }

  /// A file a command reads or writes, named as the user named it.
  public struct Role: Sendable {
    /// `--data`, `the flow`.
    public var name: String
    public var path: String

    public init(_ name: String, _ path: String) {
      self.name = name
      self.path = path
    }
  }

  /// The first output that names an input or an earlier output, as a message for the user,
  /// or nil. Character devices (`/dev/null`, a terminal) are never clashes: nothing in them
  /// can be overwritten, and several outputs may share one.
  public static func clash(inputs: [Role], outputs: [Role]) -> String? {
    let inputIdentities = inputs.map { ($0, FileIdentity($0.path)) }
    var earlier: [(Role, FileIdentity)] = []
    for output in outputs {
      let identity = FileIdentity(output.path)
      if identity.isCharacterDevice { continue }
      if let input = inputIdentities.first(where: { $0.1 == identity }) {
        return "\(output.name) \(output.path) is \(input.0.name) \(input.0.path): an output must not overwrite an input"
      }
      if let other = earlier.first(where: { $0.1 == identity }) {
        return
          "\(output.name) \(output.path) and \(other.0.name) \(other.0.path) are the same file: give each output its own file"
      }
      earlier.append((output, identity))
    }
    return nil
  }
}
