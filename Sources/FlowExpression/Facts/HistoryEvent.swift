import OrderedCollections

/// One event of a user's history, as conditions and goals read it: a name, when, and its
/// properties.
public struct HistoryEvent: Hashable, Sendable {
  public var name: String
  /// Epoch milliseconds.
  public var time: Int64
  public var properties: OrderedDictionary<String, Value>
  /// The user the event belongs to, when the history says.
  public var distinctID: String?

  public init(
    name: String, time: Int64, properties: OrderedDictionary<String, Value> = [:], distinctID: String? = nil
  ) {
    self.name = name
    self.time = time
    self.properties = properties
    self.distinctID = distinctID
  }
}
