/// A position in a source file: 1-based line and column (in Unicode scalars), 0-based byte offset.
///
/// Stored as three `UInt32`s (12 bytes, not 24): every located JSON value and object key carries
/// one, so its size shows in the parse time and peak memory of big files. Values are clamped to
/// `0...UInt32.max`; `FlowLoader` refuses files over 4 GiB, so positions in flows are exact.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
  private var storedLine: UInt32
  private var storedColumn: UInt32
  private var storedOffset: UInt32

  public var line: Int {
    get { Int(storedLine) }
    set { storedLine = UInt32(clamping: newValue) }
  }

  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = UInt32(clamping: newValue) }
  }

  public var offset: Int {
    get { Int(storedOffset) }
    set { storedOffset = UInt32(clamping: newValue) }
  }

  @inline(__always)
  public init(line: Int, column: Int, offset: Int) {
    storedLine = UInt32(clamping: line)
    storedColumn = UInt32(clamping: column)
    storedOffset = UInt32(clamping: offset)
  }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    lhs.storedOffset < rhs.storedOffset
  }

  public var description: String { "\(line):\(column)" }
}
