import FlowSupport
import Foundation
import Testing
import _FlowTestSupport

@testable import FlowFormat

/// A held flow's split (`ScreenSplit`) gives back the pages both halves' parsers have left
/// behind (`ParsedPages`); a document parsed again after that (the split abandoned, or not a
/// Sequence flow) reads its bytes back from the file and loads as on one thread from memory.
@Suite struct SplitPagesTests {
  /// A flow of 2,000 screens of about 3.3 KB each (6.6 MB): each half of its split is more
  /// than twice `ParsedPages.step`, so both give pages back before their last screen.
  static let flow: String = {
    let padding = String(repeating: "x", count: 3_200)
    let screens = (0..<2_000).map { i in
      #"{"id": "s\#(i)", "name": "S\#(i) \#(padding)", "type": "form", "content": {"title": "Hi {{name}}"}, "#
        + #""rules": [{"condition": "f == 'x'", "next": "s\#((i + 1) % 2_000)"}], "next": "s\#(i + 1)"}"#
    }
    return #"{"id": "big", "version": 1, "screens": [\#(screens.joined(separator: ",\n"))]}"#
  }()

  /// What the second parse of each case meets, late in a half (after its pages went back).
  static let texts: [(String, String)] = [
    ("a flow", flow),
    (
      "an AppDNA screen_id late in the second half",
      flow.replacingOccurrences(of: #""id": "s1990""#, with: #""screen_id": "x""#)
    ),
    (
      "an AppDNA screen_id late in the first half",
      flow.replacingOccurrences(of: #""id": "s1000""#, with: #""screen_id": "x""#)
    ),
    (
      "a syntax error late in the second half",
      flow.replacingOccurrences(of: #"{"id": "s1990""#, with: #"{"id": "s1990",,"#)
    ),
    ("a Nuxie key after the screens", String(flow.dropLast()) + #", "interactions": {}}"#),
  ]

  @Test(arguments: texts.map(\.0))
  func aParseAfterPagesWentBackReadsTheFile(_ name: String) throws {
    let text = try #require(Self.texts.first { $0.0 == name }?.1)
    let directory = try TemporaryDirectory()
    let path = directory.file("big.json", contents: text)
    let expected = FlowLoader.load(
      bytes: Array(text.utf8), file: path, options: LoadOptions(), keepSyntax: false, pipelineFrom: .max)
    for _ in 0..<3 {
      let (bytes, held) = try TextFile.read(path, limit: .flow, holdingFrom: 0).get()
      let result = FlowLoader.load(
        bytes: bytes, file: path, options: LoadOptions(), keepSyntax: false, pipelineFrom: 0, splitWaits: true,
        held: held)
      #expect(result.document == expected.document)
      #expect(result.diagnostics == expected.diagnostics)
      #expect(result.patterns == expected.patterns)
    }
  }

  /// The pages went back in both halves: the bytes there read as zeros after the parse.
  @Test func bothHalvesGivePagesBack() throws {
    let bytes = Array(Self.flow.utf8)
    let split = ScreenSplit(file: "big.json", options: LoadOptions(), waitsForTheBoundary: true)
    let (root, _) = bytes.withUnsafeBufferPointer { buffer in
      split.pages = ParsedPages(buffer)
      return JSONParser.parse(bytes, file: "big.json", screens: { _, _ in }, split: split)
    }
    #expect(root != nil)
    #expect(split.gaveBack)
    // Each half is its own run of decoded screens.
    let runs = split.finish()?.1 ?? []
    #expect(runs.count == 2)
    #expect(runs.reduce(0) { $0 + $1.count } == 2_000)
    for share in [10, 40, 60, 90] {
      #expect(bytes[bytes.count / 100 * share] == 0, "\(share) % into the file")
    }
  }
}
