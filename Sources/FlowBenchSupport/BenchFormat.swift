// How `flowrun-bench` writes numbers in its tables, without Foundation.

/// `value` with `digits` fraction digits.
public func fixed(_ value: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = Int((abs(value) * scale).rounded())
  let whole = scaled / Int(scale)
  var fraction = String(scaled % Int(scale))
  while fraction.count < digits { fraction = "0" + fraction }
  return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
}

/// `0.4123` → `412.3 ms`, `27.31` → `27.31 s`.
public func formatSeconds(_ s: Double) -> String {
  s < 1 ? "\(fixed(s * 1000, 1)) ms" : "\(fixed(s, 2)) s"
}

/// Decimal units: `925.4 MB`, `12.0 kB`, `512 B`.
public func formatBytes(_ n: Int) -> String {
  n >= 1_000_000 ? "\(fixed(Double(n) / 1e6, 1)) MB" : n >= 1000 ? "\(fixed(Double(n) / 1e3, 1)) kB" : "\(n) B"
}

/// `1234567` → `1.23 M`, `66300` → `66.3 k`.
public func formatCount(_ value: Double) -> String {
  if value >= 1_000_000 { return "\(fixed(value / 1_000_000, 2)) M" }
  if value >= 1_000 { return "\(fixed(value / 1_000, 1)) k" }
  return fixed(value, 0)
}

/// `10000` → `10,000`.
public func grouped(_ value: Int) -> String {
  var digits = Array(String(value.magnitude))
  var out: [Character] = []
  while digits.count > 3 {
    out = [","] + digits.suffix(3) + out
    digits.removeLast(3)
  }
  return (value < 0 ? "-" : "") + String(digits + out)
}
