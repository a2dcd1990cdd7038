import RealModule
import Segue

/// The pixel's footprint in texels: how far the texel coordinate moves for one pixel step
/// along x (`alongX`) and along y (`alongY`) — the columns of the Jacobian of the
/// pixel → texel map.
public struct TexelFootprint: Hashable, Sendable {
  /// `(∂s/∂x, ∂t/∂x)`.
  public var alongX: SIMD2<Double>
  /// `(∂s/∂y, ∂t/∂y)`.
  public var alongY: SIMD2<Double>

  /// Creates a footprint.
  public init(alongX: SIMD2<Double>, alongY: SIMD2<Double>) {
    self.alongX = alongX
    self.alongY = alongY
  }

  /// The level of detail `λ = log₂ ρ`, `ρ = max(|alongX|, |alongY|)` (OpenGL's rule): `≤ 0`
  /// magnifies, `> 0` minifies, `λ = k` matches mipmap level `k`. `-∞` for a zero footprint.
  public var levelOfDetail: Double {
    let rho2 = Swift.max(
      alongX.x * alongX.x + alongX.y * alongX.y, alongY.x * alongY.x + alongY.y * alongY.y)
    return 0.5 * Double.log2(rho2)
  }
}

/// Samples a layer's `contents` image with its `minificationFilter` and `magnificationFilter`
/// (Double reference: ``sample(at:footprint:)``; fast `Float` runs: ``fill(_:count:into:)``).
///
/// Texel coordinates are continuous: texel `(i, j)` covers `[i, i + 1) × [j, j + 1)` and its
/// centre is `(i + ½, j + ½)`; outside the image the edge texels repeat (Core Animation extends
/// the edge pixels). The filter is the magnification filter when the level of detail
/// (``TexelFootprint/levelOfDetail``) is `≤ 0`, else the minification filter:
/// - `nearest`: the level-0 texel containing the point;
/// - `linear`: bilinear between the four level-0 texels around the point;
/// - `trilinear`: bilinear on levels `⌊λ⌋` and `⌊λ⌋ + 1` (`λ` clamped to the levels there
///   are, the point scaled by each level's size), mixed by `λ − ⌊λ⌋`; magnifying, as `linear`.
public struct ImageSampler: Sendable {
  /// The image and its levels.
  public let mipmaps: Mipmaps
  /// `minificationFilter`.
  public var minificationFilter: ContentsFilter
  /// `magnificationFilter`.
  public var magnificationFilter: ContentsFilter

  /// A sampler of `mipmaps` (Core Animation's default filters: `linear`).
  public init(
    _ mipmaps: Mipmaps, minificationFilter: ContentsFilter = .linear,
    magnificationFilter: ContentsFilter = .linear
  ) {
    self.mipmaps = mipmaps
    self.minificationFilter = minificationFilter
    self.magnificationFilter = magnificationFilter
  }

  /// The premultiplied colour (components in `[0, 1]`) at texel coordinate `p` for a pixel of
  /// footprint `footprint`; transparent for an empty image.
  public func sample(at p: Point, footprint: TexelFootprint) -> SIMD4<Double> {
    let base = mipmaps.sizes[0]
    guard base.x > 0, base.y > 0 else { return .zero }
    let lod = footprint.levelOfDetail
    switch filter(levelOfDetail: lod) {
    case .nearest:
      return SIMD4<Double>(nearestTexel(at: p)) / 255
    case .linear:
      return bilinear(level: 0, p)
    case .trilinear:
      guard lod > 0 else { return bilinear(level: 0, p) }
      let top = Double(mipmaps.levelCount - 1)
      let level = Swift.min(lod, top)
      let k = Int(level.rounded(.down))
      let f = level - Double(k)
      let a = bilinear(level: k, p)
      guard f > 0 else { return a }
      return a + (bilinear(level: k + 1, p) - a) * f
    }
  }

  /// The filter for a pixel whose footprint has level of detail `lod`
  /// (``TexelFootprint/levelOfDetail``): minification when `lod > 0`, else magnification.
  @inline(__always)
  func filter(levelOfDetail lod: Double) -> ContentsFilter {
    lod > 0 ? minificationFilter : magnificationFilter
  }

  /// The `nearest` filter's texel at texel coordinate `p`: the level-0 texel
  /// ``nearestIndex(_:width:height:)`` (the image must not be empty).
  @inline(__always)
  func nearestTexel(at p: Point) -> SIMD4<UInt8> {
    let base = mipmaps.sizes[0]
    let (i, j) = Self.nearestIndex(p, width: base.x, height: base.y)
    return mipmaps.texel(0, i, j)
  }

  /// The `nearest` filter's texel `(⌊x⌋, ⌊y⌋)` for texel coordinate `p` in an image of
  /// `width × height` texels, edge texels repeated (a NaN coordinate gives 0). Both rasterisers
  /// decide it here, in `Double`, so that a pixel centre on a texel boundary picks the same
  /// texel in each.
  @inline(__always)
  static func nearestIndex(_ p: Point, width: Int, height: Int) -> (i: Int, j: Int) {
    (floorIndex(p.x, width), floorIndex(p.y, height))
  }

  /// `⌊c⌋` clamped to `0…n − 1` (0 for NaN): inside `[0, n)` the truncation is the floor, so no
  /// rounding call is needed (a baseline x86-64 build has no rounding instruction).
  @inline(__always)
  static func floorIndex(_ c: Double, _ n: Int) -> Int {
    c >= 0 ? (c < Double(n) ? Int(c) : n - 1) : 0
  }

  /// Bilinear on level `k` at the level-0 texel coordinate `p` (scaled by the level's size),
  /// edge texels repeated.
  func bilinear(level k: Int, _ p: Point) -> SIMD4<Double> {
    let base = mipmaps.sizes[0]
    let size = mipmaps.sizes[k]
    let x = p.x * Double(size.x) / Double(base.x) - 0.5
    let y = p.y * Double(size.y) / Double(base.y) - 0.5
    let x0 = x.rounded(.down)
    let y0 = y.rounded(.down)
    let fx = x - x0
    let fy = y - y0
    let i0 = Self.clampIndex(Int(saturating: x0), size.x)
    let i1 = Self.clampIndex(Int(saturating: x0) + 1, size.x)
    let j0 = Self.clampIndex(Int(saturating: y0), size.y)
    let j1 = Self.clampIndex(Int(saturating: y0) + 1, size.y)
    let top = texel(k, i0, j0) * (1 - fx) + texel(k, i1, j0) * fx
    let bottom = texel(k, i0, j1) * (1 - fx) + texel(k, i1, j1) * fx
    return top * (1 - fy) + bottom * fy
  }

  @inline(__always)
  static func clampIndex(_ i: Int, _ n: Int) -> Int { Swift.min(Swift.max(i, 0), n - 1) }

  /// Texel `(i, j)` of level `k`, components in `[0, 1]`.
  @inline(__always)
  func texel(_ k: Int, _ i: Int, _ j: Int) -> SIMD4<Double> {
    SIMD4<Double>(mipmaps.texel(k, i, j)) / 255
  }
}

extension Int {
  /// `Int(x)` for finite `x` within `Int`'s range, saturating beyond it (and 0 for NaN).
  init(saturating x: Double) {
    if x.isNaN {
      self = 0
    } else if x >= 9.2e18 {
      self = Int.max / 2
    } else if x <= -9.2e18 {
      self = Int.min / 2
    } else {
      self = Int(x)
    }
  }
}
