import Synchronization

/// Flattened outlines kept across frames by what they depend on, so that a layer whose geometry
/// did not change is not flattened (or stroked) again every frame (the polygons are shared, not
/// copied). Safe to share between threads; outlines made by two threads at once are computed
/// twice and kept once. When it holds ``capacity`` entries it forgets them all.
final class OutlineCache<K: Hashable & Sendable, V: Sendable>: Sendable {
  /// What the outlines depend on.
  typealias Key = K

  /// The most entries kept.
  let capacity: Int
  private let outlines = Mutex<[K: V]>([:])

  init(capacity: Int = 1024) {
    self.capacity = Swift.max(1, capacity)
  }

  /// The outlines of `key`, made by `make` on first use (`nil` from `make` is not kept).
  func outlines(for key: K, _ make: () -> V?) -> V? {
    if let known = outlines.withLock({ $0[key] }) { return known }
    guard let made = make() else { return nil }
    outlines.withLock { outlines in
      if outlines.count >= capacity { outlines.removeAll(keepingCapacity: true) }
      outlines[key] = made
    }
    return made
  }
}
