import FlowExpression
import Foundation

/// The system's time-zone rules (the IANA database through Foundation), for the commands;
/// FlowExpression and FlowEngine take them injected and stay Foundation-free.
public struct SystemTimeZones: TimeZoneRules {
  public init() {}

  public func offsetSeconds(zone identifier: String, atMilliseconds instant: Int64) -> Int? {
    TimeZone(identifier: identifier)?.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
  }
}
