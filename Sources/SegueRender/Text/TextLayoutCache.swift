import Segue
import Synchronization

/// Why a text layer could not be laid out: its font, or a value of the request.
public enum TextLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The font could not be found or loaded.
  case font(FontError)
  /// A request value was rejected (``TextLayoutRequest/validate()``).
  case invalidRequest(ValidationError)

  /// The underlying error's words.
  public var description: String {
    switch self {
    case .font(let error): error.description
    case .invalidRequest(let error): error.description
    }
  }
}

/// Layouts by request, so a text layer is laid out once, not every frame. Safe to share between
/// threads; a request laid out by two threads at once is computed twice and kept once.
///
/// When it holds ``capacity`` layouts it forgets them all and starts afresh (a scene has a few
/// text layers; a cache that keeps growing would be a leak).
public final class TextLayoutCache: Sendable {
  /// Where fonts are found.
  public let library: FontLibrary
  /// The most layouts kept.
  public let capacity: Int
  private let layouts = Mutex<[TextLayoutRequest: TextLayout]>([:])

  /// A cache of up to `capacity` layouts (at least 1) with fonts from `library`.
  public init(library: FontLibrary = .shared, capacity: Int = 1024) {
    self.library = library
    self.capacity = Swift.max(1, capacity)
  }

  /// The layout of `request`, computed on first use.
  ///
  /// - Throws: ``TextLayoutError``.
  public func layout(for request: TextLayoutRequest) throws(TextLayoutError) -> TextLayout {
    if let known = layouts.withLock({ $0[request] }) { return known }
    let face: FontFace
    do { face = try library.face(for: request.font) } catch { throw .font(error) }
    let layout: TextLayout
    do { layout = try TextLayoutJob(request: request, face: face).run() } catch {
      throw .invalidRequest(error)
    }
    layouts.withLock { layouts in
      if layouts.count >= capacity { layouts.removeAll(keepingCapacity: true) }
      layouts[request] = layout
    }
    return layout
  }

  /// The number of layouts held.
  public var count: Int { layouts.withLock { $0.count } }
}
