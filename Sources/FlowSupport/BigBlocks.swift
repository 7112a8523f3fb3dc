import CFlowSupport

/// Where glibc's allocator puts big blocks (arrays of tens of thousands of values).
public enum BigBlocks {
  /// The size from which a block gets pages of its own (`mmap`), given back whole when freed.
  /// 128 KiB (glibc's starting threshold), not 256: lint's per-screen arrays of a 20,000-screen
  /// flow (8 bytes a screen: 170 KB) left their pages in the heaps too, 0.8 MiB of
  /// `lint-chain`'s peak, for about 8 % more page faults there (docs/performance.md,
  /// "Fifteenth round, lint's live tables").
  static let ownPages: Int32 = 128 << 10

  /// Gives every block of `ownPages` or more pages of its own, for the rest of the process.
  ///
  /// glibc raises its threshold (from 128 KiB) to the size of each such block freed, up to
  /// 32 MiB: once a big file's bytes were freed, lint's tables, the joined diagnostics and the
  /// report's buffers came from the heaps of the threads that made them, and their pages stayed
  /// resident after they were freed, unused by the other thread (docs/performance.md,
  /// "Thirteenth round, `lint-chain`'s memory in lint").
  public static func giveOwnPages() {
    _ = flowrun_malloc_own_pages_from(ownPages)
  }
}
