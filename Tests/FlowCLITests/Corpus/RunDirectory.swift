import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The fresh directory one run works in: the fixtures (`BadInputs/fixtures/`), the case's input
/// under its name, the outputs. Nothing in the repository is ever touched, and what the run
/// changed is easy to see.
struct RunDirectory {
  let path: String
  let inputPath: String?
  let runsAsNobody: Bool
  private let generated: GeneratedInput?

  init(row: CorpusCase) throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-corpus-\(UUID().uuidString)").path
    let fileManager = FileManager.default
    try fileManager.createDirectory(atPath: path, withIntermediateDirectories: true)
    let fixtures = CorpusCase.directory.appendingPathComponent("fixtures").path
    for name in try fileManager.contentsOfDirectory(atPath: fixtures) {
      try fileManager.copyItem(atPath: fixtures + "/" + name, toPath: path + "/" + name)
    }
    for file in row.files {
      let source = CorpusCase.directory.appendingPathComponent(file)
      try fileManager.copyItem(atPath: source.path, toPath: path + "/" + source.lastPathComponent)
    }
    generated = row.make.map(Self.generate)
    let name = row.renamed ?? row.input
    let placesInput = row.kind == .flow || row.kind == .script || (row.kind == .args && generated != nil)
    var nobody = false
    if placesInput, name.hasPrefix("/") {
      inputPath = name
    } else if placesInput {
      let target = path + "/" + name
      inputPath = target
      switch generated {
      case nil:
        try fileManager.copyItem(
          atPath: CorpusCase.directory.appendingPathComponent("\(row.kind.folder)/\(row.input)").path, toPath: target)
      case .bytes(let bytes):
        try Data(bytes).write(to: URL(fileURLWithPath: target))
      case .fifo:
        guard mkfifo(target, 0o644) == 0 else { throw POSIXError(.EIO) }
      case .unreadable(let bytes):
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        chmod(target, 0)
        // Root reads a file of mode 000: then flowrun runs as nobody, in a directory it owns.
        nobody = geteuid() == 0
      case .directory:
        try fileManager.createDirectory(atPath: target, withIntermediateDirectories: true)
      case .symlink(let destination):
        try fileManager.createSymbolicLink(atPath: target, withDestinationPath: destination)
      case .endless:
        throw CorpusTableError(description: "cases.yaml:\(row.line): an endless stream is only standard input")
      }
    } else {
      inputPath = nil
    }
    runsAsNobody = nobody
  }

  /// Gives every file to `nobody` when the run is made as that user, so it can write its
  /// outputs (called once the directory is ready).
  func handOver() {
    guard runsAsNobody else { return }
    chown(path, 65534, 65534)
    for name in FileManager.default.subpaths(atPath: path) ?? [] { lchown(path + "/" + name, 65534, 65534) }
  }

  var inputIsFIFO: Bool {
    if case .fifo = generated { return true }
    return false
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Standard input for `command` on `row`: the answers of an answers case, the `stdin:` file,
  /// the fixtures' default answers for `run` of a flow; else nothing. A FIFO input starts its
  /// writer here (it opens the FIFO once flowrun does).
  func standardInput(for row: CorpusCase, command: String) throws -> LimitedProcess.Input {
    if case .fifo(let bytes, let endless) = generated, let inputPath {
      FIFOWriter(path: inputPath, bytes: bytes, endless: endless).start()
    }
    var bytes: [UInt8]?
    switch (row.kind, generated) {
    case (.answers, .endless(let chunk)?):
      return .endless(chunk)
    case (.answers, .bytes(let generated)?):
      bytes = generated
    case (.answers, _):
      bytes = try [UInt8](Data(contentsOf: CorpusCase.directory.appendingPathComponent("answers/\(row.input)")))
    default:
      if let stdin = row.stdin {
        bytes = try [UInt8](Data(contentsOf: CorpusCase.directory.appendingPathComponent(stdin)))
      } else if command == "run" && row.kind == .flow {
        bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/answers.txt")))
      }
    }
    guard let bytes else { return .null }
    // A case that sends a signal keeps standard input open: the run waits for more.
    return .bytes(bytes, keepOpen: row.signal != nil)
  }

  /// Every regular file under the directory but `excluded` names, with its bytes.
  func contents(excluding excluded: Set<String>) -> [String: Data] {
    var files: [String: Data] = [:]
    for name in FileManager.default.subpaths(atPath: path) ?? [] where !excluded.contains(name) {
      let file = path + "/" + name
      var info = stat()
      guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o444 != 0 else { continue }
      if let data = FileManager.default.contents(atPath: file) { files[name] = data }
    }
    return files
  }

  /// Inputs whose bytes changed or that disappeared.
  func changedInputs(_ before: [String: Data]) -> [String] {
    before.keys.sorted().filter { FileManager.default.contents(atPath: path + "/" + $0) != before[$0] }
  }

  /// Temporary files of atomic writes (`.NAME.flowrun-XXXXXXXX`) still there after the run.
  func leftovers() -> [String] {
    (FileManager.default.subpaths(atPath: path) ?? []).filter {
      let name = ($0 as NSString).lastPathComponent
      return name.hasPrefix(".") && name.contains(".flowrun-")
    }.sorted()
  }

  func anyFile(contains text: String) -> Bool {
    (FileManager.default.subpaths(atPath: path) ?? []).contains { name in
      var info = stat()
      guard lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        let data = FileManager.default.contents(atPath: path + "/" + name)
      else { return false }
      return data.range(of: Data(text.utf8)) != nil
    }
  }

  /// The generated input of the last case, kept while the runs of that case go on (the
  /// corpus runs one at a time).
  private static let cache = GeneratedCache()

  static func generate(_ make: String) -> GeneratedInput {
    cache.input(for: make) {
      guard let (generator, argument) = CorpusInputs.generator(make) else { return .bytes([]) }
      return generator(argument)
    }
  }
}

private final class GeneratedCache: @unchecked Sendable {
  private let lock = NSLock()
  private var last: (make: String, input: GeneratedInput)?

  func input(for make: String, _ generate: () -> GeneratedInput) -> GeneratedInput {
    lock.lock()
    defer { lock.unlock() }
    if let last, last.make == make { return last.input }
    let input = generate()
    last = (make, input)
    return input
  }
}

/// Opens a FIFO for writing once a reader has it open (polling, so a run that never opens it
/// does not leave the thread blocked), then writes its bytes, over and over with `endless`.
struct FIFOWriter: Sendable {
  var path: String
  var bytes: [UInt8]
  var endless: Bool

  func start() {
    Thread {
      let deadline = Date().addingTimeInterval(CorpusRun.seconds + 1)
      var descriptor: Int32 = -1
      while descriptor < 0 && Date() < deadline {
        descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 { usleep(2_000) }
      }
      guard descriptor >= 0 else { return }
      _ = fcntl(descriptor, F_SETFL, 0)
      repeat {
        guard InputFeeder.writeAll(bytes, to: descriptor) else { break }
      } while endless
      close(descriptor)
    }.start()
  }
}
