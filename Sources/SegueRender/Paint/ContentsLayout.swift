import Segue

/// Where a layer draws its `contents` image: the image, the layer's bounds and the `contents…`
/// properties in, the pieces (texel rectangle → layer rectangle) out.
///
/// **The rules** (Apple documents most; the choices where it is silent are marked *chosen*):
/// 1. `contentsRect` picks the part of the image to show, in the image's unit space (`(0, 0)`
///    the top-left pixel corner, `(1, 1)` the bottom-right); parts outside `[0, 1]` repeat the
///    edge pixels (samplers clamp). A negative width or height counts as its absolute value
///    (*chosen*); an empty `contentsRect` draws nothing (*chosen*; Apple: undefined).
/// 2. That part's natural size in points is its pixel size divided by `contentsScale`.
/// 3. `contentsGravity` places it (see ``/Segue/ContentsGravity``; `top` is the smallest y): the nine
///    positional values at the natural size (free space split by ``/Segue/ContentsGravity/alignment``;
///    larger than the bounds it overhangs on both sides), `resize` onto the bounds,
///    `resizeAspect` / `resizeAspectFill` scaled uniformly to fit / cover, centred.
/// 4. With a resizing gravity, `contentsCenter` (unit space of the `contentsRect` part,
///    clamped to `[0, 1]`) splits it into a 3 × 3 grid: the corners keep their natural size, the
///    edge pieces stretch along their edge, the centre both ways; the grid fills the rectangle of
///    rule 3 (*chosen* for the aspect gravities: Apple only says the resizing modes use it).
///    When the fixed edges are wider (taller) than that rectangle, both shrink in proportion and
///    the centre vanishes (*chosen*). Positional gravities ignore `contentsCenter`.
///
/// Pieces of zero destination area are left out; a piece may have a zero-width source (a
/// `contentsCenter` of zero width stretches the one line of texels at its position).
public struct ContentsLayout: Hashable, Sendable {
  /// The image's size in pixels (`≥ 0` each).
  public var imageWidth: Int
  /// The image's height in pixels.
  public var imageHeight: Int
  /// The layer's bounds, in points.
  public var bounds: Rect
  /// `contentsGravity` (default `resize`).
  public var gravity: ContentsGravity
  /// `contentsRect`, unit space of the image (default `(0, 0, 1, 1)`).
  public var contentsRect: Rect
  /// `contentsCenter`, unit space of the `contentsRect` part (default `(0, 0, 1, 1)`).
  public var contentsCenter: Rect
  /// `contentsScale`: pixels per point (`> 0`, default 1).
  public var contentsScale: Double

  /// The unit rectangle `(0, 0, 1, 1)`, the default of `contentsRect` and `contentsCenter`.
  public static let unitRect = Rect(x: 0, y: 0, width: 1, height: 1)

  /// A layout with Core Animation's defaults for what is not given.
  public init(
    imageWidth: Int, imageHeight: Int, bounds: Rect, gravity: ContentsGravity = .resize,
    contentsRect: Rect = unitRect, contentsCenter: Rect = unitRect, contentsScale: Double = 1
  ) {
    self.imageWidth = imageWidth
    self.imageHeight = imageHeight
    self.bounds = bounds
    self.gravity = gravity
    self.contentsRect = contentsRect
    self.contentsCenter = contentsCenter
    self.contentsScale = contentsScale
  }

  /// Throws unless every input is usable.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `imageWidth`/`imageHeight` (`.negative`),
  ///   `bounds`, `contentsRect` or `contentsCenter` (`.notFinite`, index 0…3 for x, y, width,
  ///   height), `contentsScale` (`.notFinite`, `.notPositive`).
  public func validate() throws(ValidationError) {
    guard imageWidth >= 0 else { throw ValidationError(field: "imageWidth", reason: .negative) }
    guard imageHeight >= 0 else { throw ValidationError(field: "imageHeight", reason: .negative) }
    let rects = [
      (bounds, "bounds"), (contentsRect, "contentsRect"), (contentsCenter, "contentsCenter"),
    ]
    for (rect, field) in rects {
      let values = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
      for (index, value) in values.enumerated() {
        try Validate.finite(value, field, index: index)
      }
    }
    try Validate.positive(contentsScale, "contentsScale")
  }

  /// The pieces to draw, after ``validate()``: one, or up to nine with `contentsCenter`.
  public func pieces() throws(ValidationError) -> [ContentsPiece] {
    try validate()
    let source = Rect(
      x: contentsRect.minX * Double(imageWidth), y: contentsRect.minY * Double(imageHeight),
      width: contentsRect.width * Double(imageWidth),
      height: contentsRect.height * Double(imageHeight))
    guard source.width > 0, source.height > 0 else { return [] }
    let destination = placement(of: source)
    guard gravity.isResizing else {
      return destination.width > 0 && destination.height > 0
        ? [ContentsPiece(source: source, destination: destination)] : []
    }
    let xs = Self.grid(
      source.minX, source.width, contentsCenter.minX, contentsCenter.maxX,
      destination.minX, destination.width, contentsScale)
    let ys = Self.grid(
      source.minY, source.height, contentsCenter.minY, contentsCenter.maxY,
      destination.minY, destination.height, contentsScale)
    var result: [ContentsPiece] = []
    for row in 0..<3 {
      for column in 0..<3 {
        let piece = ContentsPiece(
          source: Rect(
            x: xs.source[column], y: ys.source[row],
            width: xs.source[column + 1] - xs.source[column],
            height: ys.source[row + 1] - ys.source[row]),
          destination: Rect(
            x: xs.destination[column], y: ys.destination[row],
            width: xs.destination[column + 1] - xs.destination[column],
            height: ys.destination[row + 1] - ys.destination[row]))
        if piece.destination.size.width > 0 && piece.destination.size.height > 0 {
          result.append(piece)
        }
      }
    }
    return result
  }

  /// The layer rectangle the `contentsRect` part (`source`, in texels) is drawn into (rule 3).
  func placement(of source: Rect) -> Rect {
    let natural = Size(width: source.width / contentsScale, height: source.height / contentsScale)
    var size = natural
    switch gravity {
    case .resize: return bounds.standardized
    case .resizeAspect, .resizeAspectFill:
      let sx = bounds.width / natural.width
      let sy = bounds.height / natural.height
      let s = gravity == .resizeAspect ? Swift.min(sx, sy) : Swift.max(sx, sy)
      size = Size(width: natural.width * s, height: natural.height * s)
    default: break
    }
    let (ax, ay) = gravity.alignment
    return Rect(
      x: bounds.minX + (bounds.width - size.width) * ax,
      y: bounds.minY + (bounds.height - size.height) * ay, width: size.width, height: size.height)
  }

  /// The four source and destination coordinates of the nine-part grid along one axis
  /// (rule 4): `start, start + fixedLow, end − fixedHigh, end` (no allocation: the rasterisers
  /// call it per layer and frame).
  static func grid(
    _ sourceStart: Double, _ sourceLength: Double, _ centerMin: Double, _ centerMax: Double,
    _ destinationStart: Double, _ destinationLength: Double, _ scale: Double
  ) -> (source: SIMD4<Double>, destination: SIMD4<Double>) {
    let low = Swift.min(Swift.max(centerMin, 0), 1)
    let high = Swift.max(Swift.min(Swift.max(centerMax, 0), 1), low)
    let sourceLow = low * sourceLength
    let sourceHigh = (1 - high) * sourceLength
    var fixedLow = sourceLow / scale
    var fixedHigh = sourceHigh / scale
    if fixedLow + fixedHigh > destinationLength {
      let shrink = destinationLength / (fixedLow + fixedHigh)
      fixedLow *= shrink
      fixedHigh *= shrink
    }
    let end = destinationStart + destinationLength
    return (
      SIMD4(
        sourceStart, sourceStart + sourceLow, sourceStart + sourceLength - sourceHigh,
        sourceStart + sourceLength),
      SIMD4(
        destinationStart, destinationStart + fixedLow,
        Swift.max(end - fixedHigh, destinationStart + fixedLow), end)
    )
  }
}

/// One piece of a layer's contents: the texels `source` (pixels of the full image, `(0, 0)` its
/// top-left corner; may reach outside the image, where samplers repeat the edge) stretched
/// onto `destination` (layer points).
public struct ContentsPiece: Hashable, Sendable {
  /// The texel rectangle.
  public var source: Rect
  /// The layer rectangle, non-empty.
  public var destination: Rect

  /// Creates a piece.
  public init(source: Rect, destination: Rect) {
    self.source = source
    self.destination = destination
  }

  /// Texels per point along x and y: `source.width / destination.width`, likewise in y.
  public var texelsPerPoint: (x: Double, y: Double) {
    (source.size.width / destination.size.width, source.size.height / destination.size.height)
  }

  /// The texel coordinate of layer point `p` (the piece's affine map, defined outside
  /// `destination` too).
  public func texel(at p: Point) -> Point {
    let (sx, sy) = texelsPerPoint
    return Point(
      x: source.origin.x + (p.x - destination.origin.x) * sx,
      y: source.origin.y + (p.y - destination.origin.y) * sy)
  }
}
