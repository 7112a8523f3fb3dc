/// Number-to-text conversions that match JavaScript, so templates print what the web SDKs print.
public enum NumberFormatting {
  /// Prints `value` like JavaScript's `Number.prototype.toString()`: `730`, `182.5`, `1e+21`.
  public static func javaScriptString(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    if value == 0 { return "0" }  // also -0, which JavaScript prints as "0"
    // An integer below 2^53 is exact: its shortest digits are its own, printed in full (n ≤ 16).
    if value.magnitude < 9_007_199_254_740_992, value.rounded(.towardZero) == value {
      return String(Int64(value))
    }
    return javaScriptDigitsString(value)
  }

  /// `javaScriptString` of a finite non-zero value from its shortest decimal digits (every value;
  /// integers take a shortcut above).
  static func javaScriptDigitsString(_ value: Double) -> String {
    let decimal = DecimalDigits(value)
    let sign = decimal.isNegative ? "-" : ""
    let digits = decimal.digits
    let k = digits.count
    let n = decimal.pointPosition
    // The four cases of ECMA-262 Number::toString, with n the position of the decimal point.
    if k <= n && n <= 21 {
      return sign + digits + String(repeating: "0", count: n - k)
    }
    if 0 < n && n <= 21 {
      return sign + String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
    }
    if -6 < n && n <= 0 {
      return sign + "0." + String(repeating: "0", count: -n) + digits
    }
    let exponent = n - 1
    let exponentText = (exponent < 0 ? "-" : "+") + String(abs(exponent))
    if k == 1 { return sign + digits + "e" + exponentText }
    return sign + String(digits.prefix(1)) + "." + String(digits.dropFirst()) + "e" + exponentText
  }

  /// The `number` filter: en-US digit grouping, at most `maximumFractionDigits` fraction digits,
  /// rounding half away from zero: `1,234,567`, `182.5`.
  public static func grouped(_ value: Double, maximumFractionDigits: Int = 3) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-∞" : "∞" }
    if value == 0 { return "0" }
    let rounded = DecimalDigits(value).rounded(toFractionDigits: maximumFractionDigits)
    guard !rounded.digits.isEmpty else { return "0" }  // rounded to zero: no "-0"
    let (integerPart, fractionPart) = rounded.integerAndFraction()
    var grouped = ""
    for (index, character) in integerPart.enumerated() {
      if index > 0 && (integerPart.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(character)
    }
    let sign = rounded.isNegative ? "-" : ""
    return fractionPart.isEmpty ? sign + grouped : sign + grouped + "." + fractionPart
  }

  /// A digit-count argument (`round(x, n)`) as an Int, clamped to a range that cannot trap.
  static func digitCount(_ value: Double) -> Int {
    value.isNaN ? 0 : Int(Swift.max(-400, Swift.min(400, value.rounded(.towardZero))))
  }

  /// Rounds half away from zero to `fractionDigits` decimals, working on the shortest decimal
  /// digits so that `1.005` rounds to `1.01` as a person reading it expects.
  public static func round(_ value: Double, fractionDigits: Int = 0) -> Double {
    guard value.isFinite, value != 0 else { return value }
    // Beyond ±400 digits the answer is the value itself or zero; clamping avoids overflow.
    let fractionDigits = Swift.max(-400, Swift.min(400, fractionDigits))
    let rounded = DecimalDigits(value).rounded(toFractionDigits: fractionDigits)
    guard !rounded.digits.isEmpty else { return value < 0 ? -0.0 : 0 }
    return Double(rounded.scientificText) ?? value
  }
}

/// A finite non-zero double as its shortest round-trip decimal digits.
///
/// The value is `0.<digits> × 10^pointPosition`; `digits` has no leading or trailing zeros
/// (empty means zero). Swift's `description` already yields the shortest digits, so this only
/// re-reads its text instead of reimplementing a float-to-decimal algorithm.
struct DecimalDigits {
  var isNegative: Bool
  var digits: String
  var pointPosition: Int

  init(isNegative: Bool, digits: String, pointPosition: Int) {
    self.isNegative = isNegative
    self.digits = digits
    self.pointPosition = pointPosition
  }

  init(_ value: Double) {
    let text = value.magnitude.description  // e.g. "730.0", "1e-07", "1.2345678e+16"
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    var allDigits = ""
    var point = mantissa.count
    for (index, character) in mantissa.enumerated() {
      if character == "." { point = index } else { allDigits.append(character) }
    }
    point += exponent
    // Strip leading zeros (each one moves the point left) and trailing zeros.
    let leading = allDigits.prefix(while: { $0 == "0" }).count
    allDigits.removeFirst(leading)
    point -= leading
    while allDigits.last == "0" { allDigits.removeLast() }
    self.init(isNegative: value < 0, digits: allDigits, pointPosition: point)
  }

  /// Rounds half away from zero so that at most `count` digits follow the decimal point.
  func rounded(toFractionDigits count: Int) -> DecimalDigits {
    let keep = pointPosition + count  // number of digits to keep (count may be negative)
    if keep >= digits.count { return self }
    if keep < 0 { return DecimalDigits(isNegative: isNegative, digits: "", pointPosition: 0) }
    var kept = Array(digits.prefix(keep)).map { Int($0.asciiValue! - 48) }
    let firstDropped = Int(Array(digits)[keep].asciiValue! - 48)
    var point = pointPosition
    if firstDropped >= 5 {
      var i = kept.count - 1
      while i >= 0 {
        if kept[i] == 9 {
          kept[i] = 0
          i -= 1
        } else {
          kept[i] += 1
          break
        }
      }
      if i < 0 {
        kept.insert(1, at: 0)
        point += 1
      }
    }
    var text = kept.map { String($0) }.joined()
    while text.last == "0" { text.removeLast() }
    if text.isEmpty { point = 0 }
    return DecimalDigits(isNegative: isNegative, digits: text, pointPosition: point)
  }

  /// The integer digits (at least "0") and the fraction digits (possibly empty).
  func integerAndFraction() -> (String, String) {
    if pointPosition <= 0 {
      return ("0", String(repeating: "0", count: -pointPosition) + digits)
    }
    if pointPosition >= digits.count {
      return (digits + String(repeating: "0", count: pointPosition - digits.count), "")
    }
    return (String(digits.prefix(pointPosition)), String(digits.dropFirst(pointPosition)))
  }

  /// `[-]0.<digits>e<pointPosition>`, which `Double(_:)` reads back exactly.
  var scientificText: String {
    (isNegative ? "-" : "") + "0." + digits + "e" + String(pointPosition)
  }
}
