import FlowExpression
import FlowSupport

/// What loading a campaigns payload, a profile or a timeline produced: the value (when it
/// could be built) and every diagnostic, located.
public struct CampaignLoad<T: Sendable>: Sendable {
  public var file: String
  public var value: T?
  public var diagnostics: [Diagnostic]
  /// The file's bytes, for the excerpts of the report.
  public var source: [UInt8]

  /// Whether the value can be used: it was built and nothing is an error.
  public var isUsable: Bool { value != nil && !diagnostics.hasErrors }
}

/// Loads Nuxie campaign inputs (docs/dialects/nuxie.md): the era B profile payload
/// (`campaigns`, `segments`, `flows`), flowrun's profile file and the NDJSON event timeline.
public enum CampaignLoader {
  public static func campaigns(path: String, knownFlows: [String]? = nil) -> CampaignLoad<CampaignSet> {
    read(path) { context, root in context.decodeCampaignSet(root, knownFlows: knownFlows) }
  }

  public static func campaigns(bytes: [UInt8], file: String, knownFlows: [String]? = nil) -> CampaignLoad<CampaignSet> {
    parse(bytes, file: file) { context, root in context.decodeCampaignSet(root, knownFlows: knownFlows) }
  }

  /// A payload already parsed (`check` reads a file once and finds `campaigns` in it).
  public static func campaigns(root: JSONValue, file: String, source: [UInt8]) -> CampaignLoad<CampaignSet> {
    var context = DecodeContext(file: file)
    let value = context.decodeCampaignSet(root, knownFlows: nil)
    return CampaignLoad(file: file, value: value, diagnostics: context.diagnostics.sortedForDisplay(), source: source)
  }

  /// Whether a parsed document is a campaigns payload (a `campaigns` array at the top).
  public static func isCampaigns(_ root: JSONValue?) -> Bool {
    root?.objectValue.flatMap(DocumentSignature.campaignsMember) != nil
  }

  /// Whether a parsed document is a user profile (`distinctId` or `userProperties`, and no flow keys).
  public static func isProfile(_ root: JSONValue?) -> Bool {
    guard let object = root?.objectValue else { return false }
    return DocumentSignature.campaignsMember(object) == nil && DocumentSignature.profileMember(object) != nil
  }

  /// A profile already parsed (`check` reads a file once and finds what it is).
  public static func profile(root: JSONValue, file: String, source: [UInt8]) -> CampaignLoad<Profile> {
    var context = DecodeContext(file: file)
    let value = context.decodeProfile(root)
    return CampaignLoad(file: file, value: value, diagnostics: context.diagnostics.sortedForDisplay(), source: source)
  }

  public static func profile(path: String) -> CampaignLoad<Profile> {
    read(path) { context, root in context.decodeProfile(root) }
  }

  public static func profile(bytes: [UInt8], file: String) -> CampaignLoad<Profile> {
    parse(bytes, file: file) { context, root in context.decodeProfile(root) }
  }

  /// The timeline: one JSON object a line (blank lines skipped), in time order.
  public static func timeline(path: String) -> CampaignLoad<[TimelineEntry]> {
    switch TextFile.read(path, limit: .script) {
    case .success(let bytes): return timeline(bytes: bytes, file: path)
    case .failure(let failure): return unreadable(path, failure)
    }
  }

  public static func timeline(bytes: [UInt8], file: String) -> CampaignLoad<[TimelineEntry]> {
    var context = DecodeContext(file: file)
    var entries: [TimelineEntry] = []
    var lineNumber = 0
    var lineStart = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
      lineNumber += 1
      let line = Array(bytes[lineStart..<index])
      defer { lineStart = index + 1 }
      guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
      // Each line is parsed alone: its positions are moved to the line in the file.
      var lineContext = DecodeContext(file: file)
      let (root, syntax) = JSONParser.parse(line, file: file)
      for diagnostic in syntax { lineContext.append(diagnostic) }
      var entry = root.flatMap { lineContext.decodeTimelineEntry($0, line: lineNumber) }
      if let found = entry, let previous = entries.last, found.time < previous.time {
        lineContext.error(
          .Campaign.timelineOrder,
          "line \(lineNumber) is at \(CivilTime.iso8601(milliseconds: found.time)), before line \(previous.line) "
            + "(\(CivilTime.iso8601(milliseconds: previous.time))); order the timeline by time", at: root?.location)
        entry = nil
      }
      for var diagnostic in lineContext.diagnostics {
        diagnostic.location = diagnostic.location.map {
          SourceLocation(line: lineNumber, column: $0.column, offset: lineStart + $0.offset)
        }
        context.append(diagnostic)
      }
      guard let entry else { continue }
      entries.append(entry)
    }
    return CampaignLoad(file: file, value: entries, diagnostics: context.diagnostics, source: bytes)
  }

  private static func read<T>(_ path: String, _ decode: (inout DecodeContext, JSONValue) -> T?) -> CampaignLoad<T> {
    switch TextFile.read(path, limit: .flow) {
    case .success(let bytes): return parse(bytes, file: path, decode)
    case .failure(let failure): return unreadable(path, failure)
    }
  }

  private static func unreadable<T>(_ path: String, _ failure: TextFile.ReadFailure) -> CampaignLoad<T> {
    CampaignLoad(
      file: path, value: nil,
      diagnostics: [Diagnostic(.Load.io, message: "cannot read file: \(failure.message)", file: path)],
      source: [])
  }

  private static func parse<T>(
    _ bytes: [UInt8], file: String, _ decode: (inout DecodeContext, JSONValue) -> T?
  )
    -> CampaignLoad<T>
  {
    guard bytes.count <= Int(UInt32.max) else {
      return CampaignLoad(
        file: file, value: nil, diagnostics: [Diagnostic(.Load.io, message: "file too large", file: file)], source: [])
    }
    let (root, syntax) = JSONParser.parse(bytes, file: file)
    var context = DecodeContext(file: file)
    for diagnostic in syntax { context.append(diagnostic) }
    let value = root.flatMap { decode(&context, $0) }
    return CampaignLoad(file: file, value: value, diagnostics: context.diagnostics.sortedForDisplay(), source: bytes)
  }
}
