import OrderedCollections

/// A step's server webhook (AppDNA's step `hook`, research §2.6): POSTed before a submitted
/// step is left when no host delegate answers `onBeforeStepAdvance`; its JSON answer decides
/// whether the step is left.
public struct Webhook: Hashable, Sendable {
  /// The default time one attempt may take (the SDK's).
  public static let defaultTimeoutMs: Int64 = 10_000
  /// At most this many retries, whatever `retry_count` says (the SDK's cap).
  public static let maxRetries = 3

  /// `webhook_url` as written; one that is not an absolute http(s) URL blocks the step with
  /// `errorText ?? "Invalid webhook URL."`, without a request.
  public var url: String
  /// Custom request headers in file order; the values are templates.
  public var headers: OrderedDictionary<String, TextTemplate>
  /// How long one attempt may take.
  public var timeoutMs: Int64
  /// Attempts after the first (0…`maxRetries`).
  public var retries: Int
  /// Replaces the default messages of a failed call and of an answer that cannot be read.
  public var errorText: String?

  public init(
    url: String, headers: OrderedDictionary<String, TextTemplate> = [:], timeoutMs: Int64 = Webhook.defaultTimeoutMs,
    retries: Int = 0, errorText: String? = nil
  ) {
    self.url = url
    self.headers = headers
    self.timeoutMs = timeoutMs
    self.retries = retries
    self.errorText = errorText
  }

  /// Whether `url` can be called: `http://` or `https://` and a host.
  public var hasValidURL: Bool {
    for scheme in ["http://", "https://"] where url.lowercased().hasPrefix(scheme) {
      let host = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      return !host.isEmpty && !url.contains(where: \.isWhitespace)
    }
    return false
  }
}
