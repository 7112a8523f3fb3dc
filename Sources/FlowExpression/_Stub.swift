public struct Template: Hashable, Sendable { public var source: String; public init(parsing s: String) { source = s } }
