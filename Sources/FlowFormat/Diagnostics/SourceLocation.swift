/// A position in a source file: 1-based line and column (in Unicode scalars), 0-based byte offset.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var offset: Int

  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    lhs.offset < rhs.offset
  }

  public var description: String { "\(line):\(column)" }
}
