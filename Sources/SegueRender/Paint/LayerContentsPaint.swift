import Segue

/// A decoded `contents` image ready for drawing: the bitmap and its mipmap levels, built once
/// when the image is registered (never per frame). Shared by reference between the layers and
/// frames that show it; immutable.
public final class ContentsTexture: Hashable, Sendable {
  /// The decoded image.
  public let image: BitmapImage
  /// Its mipmap levels (level 0 is the image).
  public let mipmaps: Mipmaps

  /// Prepares `image` (builds its mipmaps: 4/3 of its bytes).
  public init(_ image: BitmapImage) {
    self.image = image
    mipmaps = Mipmaps(image.pixels)
  }

  /// Identity: two textures are equal when they are the same object.
  public static func == (a: ContentsTexture, b: ContentsTexture) -> Bool { a === b }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The decoded images a ``SceneRenderer`` draws layers' `contents` with, by
/// ``/Segue/ContentsImage`` (a file's path, as the layer names it, or a registered name): each
/// image decoded and prepared once, before rendering, and shared by every frame. A layer whose
/// image is not here draws no contents.
public struct ContentsImages: Hashable, Sendable {
  private var textures: [ContentsImage: ContentsTexture] = [:]

  /// No images.
  public init() {}

  /// The prepared image for `image`, if registered.
  public subscript(image: ContentsImage) -> ContentsTexture? { textures[image] }

  /// How many images are registered.
  public var count: Int { textures.count }

  /// Registers `bitmap` for `image` (replacing an earlier one), building its mipmaps.
  public mutating func insert(_ bitmap: BitmapImage, for image: ContentsImage) {
    textures[image] = ContentsTexture(bitmap)
  }

  /// Decodes the PNG or JPEG file `bytes` (``BitmapImage/init(decoding:scale:pixelBudget:)``)
  /// and registers it for `image`, unless an image is already registered for it (so a file
  /// several layers name is decoded once).
  ///
  /// - Throws: the ``ImageDecodingError`` of the decoder.
  public mutating func decode(
    _ bytes: [UInt8], for image: ContentsImage,
    pixelBudget: Int = BitmapImage.defaultPixelBudget
  ) throws(ImageDecodingError) {
    guard textures[image] == nil else { return }
    insert(try BitmapImage(decoding: bytes, pixelBudget: pixelBudget), for: image)
  }
}

extension LayerSnapshot {
  /// A layer's `contents` image and how it is placed (`contentsGravity`, `contentsRect`,
  /// `contentsCenter`, `contentsScale`) and filtered (`minificationFilter`,
  /// `magnificationFilter`), drawn over the fill and under the border (``ContentsLayout``'s
  /// rules). As in Core Animation the image is not clipped by `cornerRadius` unless
  /// ``clipsToBounds`` (`masksToBounds`) is set; then it is clipped to the rounded bounds.
  ///
  /// Each pixel takes the filtered image at the layer point its centre shows (perspective-
  /// correct, the filter chosen from the pixel's footprint in texels) times the fraction of its
  /// 16 samples inside the drawn area (and the clips), times the layer's opacity.
  public struct Contents: Hashable, Sendable {
    /// The prepared image.
    public var texture: ContentsTexture
    /// `contentsGravity`.
    public var gravity: ContentsGravity
    /// `contentsRect` (unit space of the image).
    public var contentsRect: Rect
    /// `contentsCenter` (unit space of the `contentsRect` part).
    public var contentsCenter: Rect
    /// `contentsScale`, image pixels per point; `≤ 0` draws nothing.
    public var contentsScale: Double
    /// `minificationFilter`.
    public var minificationFilter: ContentsFilter
    /// `magnificationFilter`.
    public var magnificationFilter: ContentsFilter
    /// `masksToBounds`: clip the image to the rounded bounds.
    public var clipsToBounds: Bool

    /// Creates contents with Core Animation's defaults for what is not given.
    public init(
      texture: ContentsTexture, gravity: ContentsGravity = .resize,
      contentsRect: Rect = ContentsLayout.unitRect, contentsCenter: Rect = ContentsLayout.unitRect,
      contentsScale: Double = 1, minificationFilter: ContentsFilter = .linear,
      magnificationFilter: ContentsFilter = .linear, clipsToBounds: Bool = false
    ) {
      self.texture = texture
      self.gravity = gravity
      self.contentsRect = contentsRect
      self.contentsCenter = contentsCenter
      self.contentsScale = contentsScale
      self.minificationFilter = minificationFilter
      self.magnificationFilter = magnificationFilter
      self.clipsToBounds = clipsToBounds
    }

    /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `contents.contentsRect`,
    ///   `contents.contentsCenter` (index 0…3) or `contents.contentsScale`.
    func validate() throws(ValidationError) {
      try Self.validate(contentsRect, "contents.contentsRect")
      try Self.validate(contentsCenter, "contents.contentsCenter")
      try Validate.finite(contentsScale, "contents.contentsScale")
    }

    /// Each field of `rect` finite (without an array: this runs per layer and frame).
    private static func validate(_ rect: Rect, _ field: String) throws(ValidationError) {
      try Validate.finite(rect.origin.x, field, index: 0)
      try Validate.finite(rect.origin.y, field, index: 1)
      try Validate.finite(rect.size.width, field, index: 2)
      try Validate.finite(rect.size.height, field, index: 3)
    }
  }
}

/// A layer's contents prepared for sampling, as plain values (the texture by reference): the
/// nine-part grid along each axis (texel and layer coordinates of its four lines; a single
/// piece is the middle cell of a grid whose outer cells are empty), the drawn area and the
/// filters. Built per layer and frame without allocating.
struct PreparedContents: Sendable {
  let texture: ContentsTexture
  let minificationFilter: ContentsFilter
  let magnificationFilter: ContentsFilter
  /// Grid lines: texel x, layer x, texel y, layer y.
  let sourceX: SIMD4<Double>
  let destinationX: SIMD4<Double>
  let sourceY: SIMD4<Double>
  let destinationY: SIMD4<Double>
  /// The drawn area: the grid's rectangle, within `clip` when the layer masks to its bounds.
  let area: Rect
  let clip: RoundedRect?
  /// Only the middle cell has area (no nine-part stretching to split spans by).
  let isSinglePiece: Bool

  /// The contents of a layer with `bounds` and rounded bounds `body`, or `nil` when they draw
  /// nothing (an empty image, `contentsRect` or placement, a scale `≤ 0`).
  init?(_ contents: LayerSnapshot.Contents, bounds: Rect, body: RoundedRect) {
    let image = contents.texture.image
    guard image.width > 0, image.height > 0, contents.contentsScale > 0 else { return nil }
    let layout = ContentsLayout(
      imageWidth: image.width, imageHeight: image.height, bounds: bounds,
      gravity: contents.gravity, contentsRect: contents.contentsRect,
      contentsCenter: contents.contentsCenter, contentsScale: contents.contentsScale)
    let r = contents.contentsRect
    let w = Double(image.width)
    let h = Double(image.height)
    let source = Rect(x: r.minX * w, y: r.minY * h, width: r.width * w, height: r.height * h)
    guard source.width > 0, source.height > 0 else { return nil }
    let placed = layout.placement(of: source)
    guard placed.width > 0, placed.height > 0, placed.width.isFinite, placed.height.isFinite
    else { return nil }
    if contents.gravity.isResizing {
      let scale = contents.contentsScale
      let center = contents.contentsCenter
      (sourceX, destinationX) = ContentsLayout.grid(
        source.minX, source.width, center.minX, center.maxX, placed.minX, placed.width, scale)
      (sourceY, destinationY) = ContentsLayout.grid(
        source.minY, source.height, center.minY, center.maxY, placed.minY, placed.height, scale)
    } else {
      sourceX = SIMD4(source.minX, source.minX, source.maxX, source.maxX)
      destinationX = SIMD4(placed.minX, placed.minX, placed.maxX, placed.maxX)
      sourceY = SIMD4(source.minY, source.minY, source.maxY, source.maxY)
      destinationY = SIMD4(placed.minY, placed.minY, placed.maxY, placed.maxY)
    }
    texture = contents.texture
    minificationFilter = contents.minificationFilter
    magnificationFilter = contents.magnificationFilter
    if contents.clipsToBounds {
      let x0 = Swift.max(placed.minX, body.x0)
      let x1 = Swift.min(placed.maxX, body.x1)
      let y0 = Swift.max(placed.minY, body.y0)
      let y1 = Swift.min(placed.maxY, body.y1)
      guard x0 < x1, y0 < y1 else { return nil }
      area = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
      clip = body
    } else {
      area = placed
      clip = nil
    }
    let dx = destinationX
    let dy = destinationY
    isSinglePiece =
      dx[1] == dx[0] && dx[3] == dx[2] && dy[1] == dy[0] && dy[3] == dy[2]
  }

  /// Whether the layer point `(u, v)` is drawn: in the half-open area and, when clipping, in
  /// the rounded bounds.
  @inline(__always)
  func contains(_ u: Double, _ v: Double) -> Bool {
    guard u >= area.minX && u < area.maxX && v >= area.minY && v < area.maxY else {
      return false
    }
    return clip?.contains(u, v) ?? true
  }

  /// The grid cell (`0…2`) along one axis for coordinate `c`: the cell holding it, or the
  /// nearest cell with area when that one has none (outside the area, or a vanished centre).
  @inline(__always)
  static func cell(_ c: Double, _ lines: SIMD4<Double>) -> Int {
    var k = c < lines[1] ? 0 : (c < lines[2] ? 1 : 2)
    if lines[k + 1] > lines[k] { return k }
    if k != 1 && lines[2] > lines[1] { return 1 }
    k = lines[3] > lines[2] ? 2 : (lines[1] > lines[0] ? 0 : 1)
    return k
  }

  /// The piece `(column, row)` drawn at the layer point `(u, v)`.
  @inline(__always)
  func piece(_ u: Double, _ v: Double) -> (column: Int, row: Int) {
    isSinglePiece ? (1, 1) : (Self.cell(u, destinationX), Self.cell(v, destinationY))
  }

  /// The map of piece `(i, j)` from layer to texel coordinates: `texel = point·scale + offset`
  /// per axis.
  @inline(__always)
  func map(_ i: Int, _ j: Int) -> PieceMap {
    let sx = (sourceX[i + 1] - sourceX[i]) / (destinationX[i + 1] - destinationX[i])
    let sy = (sourceY[j + 1] - sourceY[j]) / (destinationY[j + 1] - destinationY[j])
    return (sx, sourceX[i] - destinationX[i] * sx, sy, sourceY[j] - destinationY[j] * sy)
  }

  var sampler: ImageSampler {
    ImageSampler(
      texture.mipmaps, minificationFilter: minificationFilter,
      magnificationFilter: magnificationFilter)
  }

  /// The filtered image at the image position `(x, y)` (a pixel centre) of a layer drawn with
  /// pixel → layer homography `h`, in `Double` (``ImageSampler/sample(at:footprint:)`` with the
  /// footprint of the pixel in texels), or `nil` when the position is not in front of the eye.
  func color(_ x: Double, _ y: Double, _ h: Homography) -> SIMD4<Double>? {
    guard let p = mapped(x, y, h) else { return nil }
    return sampler.sample(at: p.texel, footprint: footprint(p, h))
  }

  /// Where the image position `(x, y)` (a pixel centre) of a layer drawn with pixel → layer
  /// homography `h` lands in the image: its layer point `(u, v)` and `Ω`
  /// (``ReferenceRasterizer/layerPoint(_:_:_:)``), the piece holding it with that piece's map,
  /// and its texel coordinate; `nil` when the position is not in front of the eye. The
  /// reference (``color(_:_:_:)``) and the fast rasteriser's `nearest` pixels both call this,
  /// so they decide texels on the same `Double` values.
  @inline(__always)
  func mapped(_ x: Double, _ y: Double, _ h: Homography) -> MappedPoint? {
    guard let (u, v, omega) = ReferenceRasterizer.layerPoint(x, y, h) else { return nil }
    let (i, j) = piece(u, v)
    let m = map(i, j)
    return MappedPoint(
      u: u, v: v, omega: omega, piece: (i, j), map: m, texel: Self.texel(u, v, m))
  }

  /// The texel coordinate of the layer point `(u, v)` through a piece's map.
  @inline(__always)
  static func texel(_ u: Double, _ v: Double, _ m: PieceMap) -> Point {
    Point(x: u * m.scaleX + m.offsetX, y: v * m.scaleY + m.offsetY)
  }

  /// A piece's map from layer to texel coordinates (``map(_:_:)``).
  typealias PieceMap = (scaleX: Double, offsetX: Double, scaleY: Double, offsetY: Double)

  /// The footprint in texels of the pixel at `p`: the pixel → texel Jacobian.
  @inline(__always)
  func footprint(_ p: MappedPoint, _ h: Homography) -> TexelFootprint {
    let (u, v, omega, m) = (p.u, p.v, p.omega, p.map)
    return TexelFootprint(
      alongX: SIMD2((h.h0 - u * h.h2) / omega * m.scaleX, (h.h1 - v * h.h2) / omega * m.scaleY),
      alongY: SIMD2((h.h3 - u * h.h5) / omega * m.scaleX, (h.h4 - v * h.h5) / omega * m.scaleY))
  }

  /// A pixel centre mapped into the image (``mapped(_:_:_:)``).
  struct MappedPoint {
    var u, v, omega: Double
    var piece: (column: Int, row: Int)
    var map: PieceMap
    var texel: Point
  }

  /// The coverage and colour of pixel `(px, py)` (``ReferenceRasterizer/centreSampled(_:_:_:_:inside:color:)``
  /// with the drawn area and ``color(_:_:_:)``).
  @inline(__always)
  func supersample(
    _ px: Int, _ py: Int, _ h: Homography, _ clips: UnsafeBufferPointer<PreparedClip>
  ) -> (sum: SIMD4<Double>, hits: Int) {
    ReferenceRasterizer.centreSampled(
      px, py, h, clips, inside: { contains($0, $1) }, color: { color($0, $1, h) })
  }
}
