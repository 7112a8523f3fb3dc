/// `text` made safe to write to a terminal: every character a terminal would act on instead
/// of showing (C0 controls but line feed and tab, DEL, the C1 controls U+0080–U+009F) is
/// replaced by a visible stand-in, its Unicode control picture (`␛`, `␍`, `␈`, `␀`, `␡`) or
/// `�` for a C1 control. So a flow, a script or an answer holding `\e]0;…\a` or `\e[2J` can
/// neither retitle nor clear the terminal of whoever reads flowrun's output (a CI log too).
///
/// With `keepingStyles`, SGR sequences (`ESC [ digits ; … m`, colours and weights only) pass
/// through: the renderer's own styling when colour is on. Rendered flow text is already
/// stripped of controls (`sanitize`), so only a message quoting flow text could carry one,
/// and SGR cannot move the cursor, retitle or link.
public func terminalSafe(_ text: String, keepingStyles: Bool = false) -> String {
  guard holdsControls(text) else { return text }
  var out = ""
  out.reserveCapacity(text.utf8.count)
  let scalars = Array(text.unicodeScalars)
  var index = 0
  while index < scalars.count {
    let scalar = scalars[index]
    let value = scalar.value
    index += 1
    if scalar == "\n" || scalar == "\t" || (value >= 0x20 && value != 0x7F && !(0x80...0x9F).contains(value)) {
      out.unicodeScalars.append(scalar)
    } else if keepingStyles, scalar == "\u{1B}", let end = styleSequenceEnd(scalars, from: index) {
      out.unicodeScalars.append(contentsOf: scalars[(index - 1)..<end])
      index = end
    } else if value < 0x20 {
      out.unicodeScalars.append(Unicode.Scalar(0x2400 + value)!)
    } else {
      out.unicodeScalars.append(value == 0x7F ? "\u{2421}" : "\u{FFFD}")
    }
  }
  return out
}

/// `terminalSafe` of UTF-8 text: `bytes` as they are when they hold no control (the control
/// scan reads the bytes once; no string is made of them), else the made-safe text's bytes.
public func terminalSafe(_ bytes: [UInt8], keepingStyles: Bool = false) -> [UInt8] {
  guard bytes.withUnsafeBufferPointer({ holdsControl($0, tabIsControl: false) }) else { return bytes }
  return Array(terminalSafe(String(decoding: bytes, as: UTF8.self), keepingStyles: keepingStyles).utf8)
}

/// The end of an SGR sequence whose `[` is at `start` (just after the escape), if it is one.
private func styleSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
  guard start < scalars.count, scalars[start] == "[" else { return nil }
  var index = start + 1
  while index < scalars.count, scalars[index] == ";" || ("0"..."9").contains(scalars[index]) { index += 1 }
  guard index < scalars.count, scalars[index] == "m" else { return nil }
  return index + 1
}

/// Whether `text` holds a character `terminalSafe` replaces (a C1 control is 0xC2 followed by
/// 0x80–0x9F in UTF-8).
private func holdsControls(_ text: String) -> Bool { holdsControl(text, tabIsControl: false) }
