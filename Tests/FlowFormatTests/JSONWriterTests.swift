import FlowFormat
import Testing

@Suite struct JSONWriterTests {
  static let sample: JSONWriter.Value = [
    "id": "welcome",
    "steps": [1, 2.5, -0.0, true, nil],
    "empty": [:],
    "none": [],
    "nested": ["b": "x", "a": ["deep": 1e21]],
  ]

  @Test func compact() {
    #expect(
      JSONWriter.compact.string(Self.sample)
        == #"{"id":"welcome","steps":[1,2.5,-0,true,null],"empty":{},"none":[],"nested":{"b":"x","a":{"deep":1e+21}}}"#)
  }

  @Test func pretty() {
    #expect(
      JSONWriter.pretty.string(Self.sample) == """
        {
          "id": "welcome",
          "steps": [
            1,
            2.5,
            -0,
            true,
            null
          ],
          "empty": {},
          "none": [],
          "nested": {
            "b": "x",
            "a": {
              "deep": 1e+21
            }
          }
        }
        """)
  }

  @Test func sortedKeys() {
    let writer = JSONWriter(sortKeys: true)
    #expect(
      writer.string(["b": 1, "a": ["z": 0, "B": 1], "é": 2, "Z": 3]) == #"{"Z":3,"a":{"B":1,"z":0},"b":1,"é":2}"#)
    #expect(writer.string(.sortedObject(["y": 1, "x": 2])) == #"{"x":2,"y":1}"#)
  }

  @Test(arguments: [
    ("plain", #""plain""#),
    ("quote \" backslash \\ slash /", #""quote \" backslash \\ slash /""#),
    ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
    // DEL and the C1 controls too, so printed JSON cannot drive a terminal.
    ("\u{0}\u{1F}\u{7F}\u{80}\u{9B}\u{A0}", #""\u0000\u001f\u007f\u0080\u009b"# + "\u{A0}\""),
    ("line\u{2028}para\u{2029}", #""line\u2028para\u2029""#),
    ("é😀", "\"é😀\""),
  ])
  func escaping(_ text: String, _ expected: String) {
    #expect(JSONWriter.quoted(text) == expected)
  }

  @Test func asciiOnlyEscapesUseSurrogatePairs() {
    #expect(JSONWriter.quoted("é😀\n", escapeNonASCII: true) == #""\u00e9\ud83d\ude00\n""#)
  }

  @Test(
    arguments: [
      (0.0, "0"), (-0.0, "-0"), (3.0, "3"), (-42.0, "-42"), (0.1, "0.1"), (1.5e-7, "1.5e-07"),
      (9007199254740992.0, "9007199254740992.0"), (1e300, "1e+300"), (.nan, "null"), (.infinity, "null"),
    ] as [(Double, String)])
  func numbers(_ d: Double, _ expected: String) {
    #expect(JSONWriter.number(d) == expected)
  }

  @Test func parsedValuesWriteBackTheSame() throws {
    let text = #"{"a":[1,-0,2.5,1e+300,"x\n"],"b":{"c":null,"d":false},"a":0}"#
    let (value, _) = JSONParser.parse(text)
    #expect(JSONWriter.compact.string(try #require(value)) == text)
  }

  @Test func outputIsDeterministic() {
    let writer = JSONWriter(style: .pretty, sortKeys: true)
    let value = JSONWriter.Value.sortedObject(Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", .int($0)) }))
    #expect(Set((0..<5).map { _ in writer.string(value) }).count == 1)
  }
}
