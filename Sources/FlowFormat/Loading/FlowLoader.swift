import FlowExpression
import FlowSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What loading one file produced: the document (when it could be built) and every diagnostic.
public struct LoadResult: Sendable {
  public var file: String
  public var document: FlowDocument?
  public var diagnostics: [Diagnostic]
  /// The file's bytes, kept so diagnostics can quote the source line; empty when they were
  /// let go and `held` reads them back.
  public var source: [UInt8]
  /// The file, kept open when its bytes were let go once the model was built
  /// (`FlowLoader.load(path:options:keepSyntax:holding:)`).
  public var held: HeldFile?
  /// The parsed JSON of a Nuxie campaigns payload or user profile, kept only when asked for
  /// (`keepSyntax`): `check` checks those by it. Other trees are freed while the model is built
  /// (the lint rules find their JSON paths in `source`).
  public var syntax: JSONValue?
  /// Every regular expression of the document, compiled, with where its string literal is.
  public var patterns: [PatternSite] = []

  /// True when the document can be run: references to unknown screens (`ref.*`) only warn
  /// at run time, where they are no-ops, as the spec says.
  /// The file's size: `source`'s, or the held file's.
  public var sourceCount: Int { held?.size ?? source.count }

  /// The file's bytes: `source`, or the held file read back again (empty when it changed).
  public var sourceBytes: [UInt8] { held?.readAll() ?? source }

  public var isRunnable: Bool {
    document != nil
      && !diagnostics.contains { $0.severity == .error && !$0.id.hasPrefix(DiagnosticID.Ref.prefix) }
  }
}

/// How a file is read: which dialect (nil: told by the document's signature, `DocumentSignature`).
public struct LoadOptions: Hashable, Sendable {
  public var dialect: Dialect?
  /// AppDNA: compile as iOS SDK 1.0.70's code reads the flow where it differs from document
  /// 001 (`--ios-quirks`, docs/dialects/appdna.md "iOS quirks").
  public var iosQuirks = false

  public init(dialect: Dialect? = nil, iosQuirks: Bool = false) {
    self.dialect = dialect
    self.iosQuirks = iosQuirks
  }
}

/// Loads flow documents: located JSON → model, reporting every problem in one pass.
public enum FlowLoader {
  /// Reads and loads the file at `path` (at most `ReadLimit.flow`; directories and devices
  /// are refused by kind). An unreadable file is one `load.io` error.
  /// `keepSyntax`: keep the parsed JSON of a campaigns payload or a profile in `LoadResult.syntax`.
  /// `holding`: let the bytes of a regular file of `holdingMinimumBytes` or more go once parsed,
  /// keeping the file open instead (`LoadResult.held`), for a caller that reads them back only
  /// for excerpts (`DiagnosticFormatter(_:)`) or once (`LoadResult.sourceBytes`).
  public static func load(
    path: String, options: LoadOptions = LoadOptions(), keepSyntax: Bool = false, holding: Bool = false
  ) -> LoadResult {
    let bytes: [UInt8]
    let held: HeldFile?
    switch TextFile.read(path, limit: .flow, holdingFrom: holding ? holdingMinimumBytes : nil) {
    case .success(let read):
      (bytes, held) = read
    case .failure(let failure):
      return LoadResult(
        file: path, document: nil,
        diagnostics: [
          Diagnostic(
            .Load.io, message: "cannot read file: \(failure.message)", file: path)
        ], source: [])
    }
    return load(
      bytes: consume bytes, file: path, options: options, keepSyntax: keepSyntax, pipelineFrom: pipelineMinimumBytes,
      held: held)
  }

  /// Loads a document from memory; `file` names it in diagnostics and gives the default flow id.
  /// `keepSyntax`: keep the parsed JSON of a campaigns payload or a profile in `LoadResult.syntax`.
  public static func load(
    bytes: [UInt8], file: String, options: LoadOptions = LoadOptions(), keepSyntax: Bool = false
  ) -> LoadResult {
    load(bytes: bytes, file: file, options: options, keepSyntax: keepSyntax, pipelineFrom: pipelineMinimumBytes)
  }

  /// The same, on two threads when the file has at least `pipelineFrom` bytes (`splitWaits`:
  /// see `ScreenSplit.init`).
  /// `held`: the file the bytes were read from, kept open; the bytes are then let go once parsed
  /// (before the model's last allocations), unless a campaigns payload or profile keeps them.
  static func load(
    bytes: consuming [UInt8], file: String, options: LoadOptions, keepSyntax: Bool, pipelineFrom minimumBytes: Int,
    splitWaits: Bool = false, held: HeldFile? = nil
  ) -> LoadResult {
    // Positions are stored in 32 bits (`SourceLocation`): past 4 GiB they would be wrong.
    guard bytes.count <= Int(UInt32.max) else {
      return LoadResult(
        file: file, document: nil,
        diagnostics: [
          Diagnostic(
            .Load.io,
            message: "file too large: \(bytes.count) bytes; flowrun reads flow files of up to 4 GiB", file: file)
        ], source: [])
    }
    var context = DecodeContext(file: file, options: options)
    var (root, syntax): (JSONValue?, [Diagnostic])
    if bytes.count >= minimumBytes, options.dialect != .appdna, options.dialect != .nuxie {
      // A flow's screens are split by bytes, each half parsed and decoded on its own thread
      // (`ScreenSplit`); a bundle's are decoded on a second thread while the file is parsed
      // (`ScreenPipeline`).
      let pipeline = ScreenPipeline(file: file, options: options)
      let split = ScreenSplit(file: file, options: options, waitsForTheBoundary: splitWaits)
      var released = false
      (root, syntax) = bytes.withUnsafeBufferPointer { buffer in
        // A held file's bytes are given back behind the parsers (`ParsedPages`).
        let pages = held.map { _ in ParsedPages(buffer) }
        split.pages = pages
        defer { released = pages?.gaveBack == true || split.gaveBack }
        return JSONParser.parse(
          bytes, file: file,
          screens: { value, site in
            pages?.parsed(upTo: site.end)
            pipeline.offer(&value, at: site)
          }, split: split)
      }
      let decodesAsSequence =
        !split.abandoned && root.map { isSequence($0, options: options, keepSyntax: keepSyntax) } == true
      context.decodedScreens = pipeline.finish(keeping: decodesAsSequence)
      if decodesAsSequence, let (offset, screens) = split.finish() { context.decodedScreens[offset] = screens }
      let again = split.abandoned || ((pipeline.tookScreens || split.tookScreens) && root != nil && !decodesAsSequence)
      if released && (again || (keepSyntax && (CampaignLoader.isCampaigns(root) || CampaignLoader.isProfile(root)))) {
        // Read back for another parse, or for a campaigns payload or profile that keeps them.
        guard let restored = held?.readAll() else {
          return LoadResult(
            file: file, document: nil,
            diagnostics: [Diagnostic(.Load.io, message: "cannot read file: it changed while it was read", file: file)],
            source: [])
        }
        bytes = restored
      }
      if again {
        // Something unusual in the split, or another kind of document, told only at its end:
        // decoded from a whole tree, as always.
        (root, syntax) = JSONParser.parse(bytes, file: file)
      }
    } else {
      (root, syntax) = JSONParser.parse(bytes, file: file)
    }
    // Only the trees a caller reads are kept; any other is handed to the decoders, which let
    // each screen's subtree go once decoded.
    let kept = keepSyntax && (CampaignLoader.isCampaigns(root) || CampaignLoader.isProfile(root)) ? root : nil
    let held = kept == nil ? held : nil
    if held != nil { bytes = [] }
    for diagnostic in syntax { context.append(diagnostic) }
    var document: FlowDocument?
    if let root = root.take() {
      document = context.decodeDocument(root, defaultID: fileStem(file))
    }
    return LoadResult(
      file: file, document: document, diagnostics: context.diagnostics.sortedForDisplay(), source: bytes,
      held: held, syntax: kept, patterns: context.patternSites)
  }

  /// Files of at least this many bytes are loaded on two threads (`ScreenSplit`,
  /// `ScreenPipeline`). Below it the load takes a few milliseconds and the second thread gains
  /// nothing measurable (docs/performance.md, "Eighth round" and "Ninth round").
  /// `FLOWRUN_PIPELINE_BYTES` sets it: 0 loads every file on two threads (the comparisons of
  /// outputs in those sections do).
  static let pipelineMinimumBytes: Int = {
    if let text = getenv("FLOWRUN_PIPELINE_BYTES"), let bytes = Int(String(cString: text)) { return bytes }
    return 256 << 10
  }()

  /// Files of at least this many bytes are held rather than kept (`load(path:…holding:)`):
  /// below it the bytes are little next to the runtime's own pages.
  /// `FLOWRUN_HOLD_BYTES` sets it: 0 holds every regular file (the comparisons of outputs in
  /// docs/performance.md, "Eleventh round", do).
  static let holdingMinimumBytes: Int = {
    if let text = getenv("FLOWRUN_HOLD_BYTES"), let bytes = Int(String(cString: text)) { return bytes }
    return 1 << 20
  }()

  /// Whether `decodeDocument` decodes `root` with the Sequence decoders (the only ones that take
  /// screens decoded while parsing); a campaigns payload or profile kept for the caller is not.
  private static func isSequence(_ root: JSONValue, options: LoadOptions, keepSyntax: Bool) -> Bool {
    guard let object = root.objectValue else { return false }
    if keepSyntax && (CampaignLoader.isCampaigns(root) || CampaignLoader.isProfile(root)) { return false }
    return (options.dialect ?? DocumentSignature.of(object).signature.dialect) == .sequence
  }

  /// `flows/fitness.json` → `fitness`.
  static func fileStem(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }
}

extension DiagnosticFormatter {
  /// A formatter that quotes `result`'s file: its bytes, or the held file read back.
  public init(_ result: LoadResult) {
    if let held = result.held {
      self.init(files: [result.file: held])
    } else {
      self.init(sources: [result.file: result.source])
    }
  }
}
