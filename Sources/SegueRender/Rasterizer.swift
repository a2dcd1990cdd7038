import Segue

/// The software rasteriser for layers: each layer's snapshot is drawn through its full 4×4
/// matrix, perspective-correct, and composited with premultiplied alpha in draw order — the
/// rules of ``ReferenceRasterizer`` (mapping, 4×4-sample coverage, compositing), computed
/// hundreds of times faster.
///
/// **Same pixels as the reference.** Pixels on a layer's edge, and label pixels whose footprint
/// straddles a glyph edge, are sampled exactly as the reference samples them (the same 16
/// `Double` samples, bit-identical). Pixels wholly inside a layer are coloured once: a flat
/// fill is exact; a gradient takes the mean of its parameter `t` over the 16 samples (the fill
/// is linear in `t`). Compositing is the reference's Float arithmetic. The tests hold every channel to within 2/255 of the
/// reference on every preset and spec example (in practice at most 1/255, from the rounding of
/// the quantisation in single precision).
///
/// **Speed.** Each pixel row of a layer is split into edge pixels and an interior span
/// (`ScreenPolygon`); interior spans of one colour are blended 4 pixels per vector (a plain
/// store for an opaque layer). Frames are rendered in bands of rows small enough to stay in
/// the L2 cache, in parallel over a ``RenderContext``'s threads, and quantised straight into
/// the RGBA8 output.
public enum Rasterizer {
  /// Samples per pixel along each axis on edges (4, so 16 per pixel), as the reference.
  public static let samplesPerAxis = ReferenceRasterizer.samplesPerAxis

  /// Draws one layer into `buffer` (``ReferenceRasterizer/draw(_:into:)``'s rules).
  ///
  /// - Throws: the errors of ``ReferenceRasterizer/draw(_:into:)``.
  public static func draw(_ layer: RasterLayer, into buffer: inout PixelBufferRGBAFloat)
    throws(ValidationError)
  {
    let context = try RenderContext()
    context.program.reset()
    try context.program.draw(layer, width: buffer.width, height: buffer.height)
    context.run(onto: &buffer)
  }

  /// Renders a list of items bottom to top onto a `width × height` image cleared to
  /// `background`, and returns it (premultiplied Float; quantise with
  /// ``/Segue/PixelBufferRGBA8/init(_:)``). The rules of
  /// ``ReferenceRasterizer/render(_:width:height:background:)``.
  ///
  /// - Throws: the errors of ``ReferenceRasterizer/render(_:width:height:background:)``.
  public static func render(
    _ items: [RenderItem], width: Int, height: Int, background: RGBAColor = .clear
  ) throws(ValidationError) -> PixelBufferRGBAFloat {
    let fill = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var buffer = try PixelBufferRGBAFloat(width: width, height: height, fill: fill)
    let context = try RenderContext()
    context.program.reset()
    try context.program.compile(items, width: width, height: height)
    context.run(onto: &buffer)
    return buffer
  }

  /// Renders a list of items bottom to top into `image` (premultiplied RGBA8), cleared to
  /// `background` first: ``render(_:width:height:background:)`` quantised, in bands, on the
  /// context's threads, without a full-size Float image. `image` keeps its size (and its
  /// storage, so a render loop allocates nothing).
  ///
  /// - Throws: the errors of ``ReferenceRasterizer/render(_:width:height:background:)``
  ///   (before any pixel is written).
  public static func render(
    _ items: [RenderItem], into image: inout PixelBufferRGBA8, background: RGBAColor = .clear,
    context: RenderContext
  ) throws(ValidationError) {
    context.program.reset()
    try context.program.compile(items, width: image.width, height: image.height)
    context.run(into: &image, background: SIMD4<Float>(LayerSnapshot.premultiplied(background)))
  }
}
