/// `serve --port`: 0 (the system chooses) to 65,535.
struct Port: BoundedCount {
  static let option = "--port"
  static let range = 0...65_535
  let value: Int
}
