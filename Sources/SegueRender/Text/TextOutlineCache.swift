import Segue
import Synchronization

/// Flattened glyph outlines by text layout request, flattening scale and layer origin, so a
/// text layer's glyphs are flattened once, not every frame (the polygons are shared, not
/// copied). Safe to share between threads; outlines flattened by two threads at once are
/// computed twice and kept once. When it holds ``capacity`` entries it forgets them all.
final class TextOutlineCache: Sendable {
  /// What the outlines depend on: the layout, the flattening scale (device pixels per layer
  /// point) and the layer bounds' origin they are moved by.
  struct Key: Hashable, Sendable {
    var request: TextLayoutRequest
    var scale: Double
    var origin: SIMD2<Double>
  }

  /// The most entries kept.
  let capacity: Int
  private let outlines = Mutex<[Key: [Polyline]]>([:])

  init(capacity: Int = 1024) {
    self.capacity = Swift.max(1, capacity)
  }

  /// The outlines of `key`, made by `make` on first use (`nil` from `make` is not kept).
  func outlines(for key: Key, _ make: () -> [Polyline]?) -> [Polyline]? {
    if let known = outlines.withLock({ $0[key] }) { return known }
    guard let made = make() else { return nil }
    outlines.withLock { outlines in
      if outlines.count >= capacity { outlines.removeAll(keepingCapacity: true) }
      outlines[key] = made
    }
    return made
  }
}
