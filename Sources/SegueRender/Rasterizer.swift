import Segue

/// The software rasteriser for layers: each layer's snapshot is drawn through its full 4×4
/// matrix, perspective-correct, and composited with premultiplied alpha in draw order — the
/// rules of ``ReferenceRasterizer``, computed hundreds of times faster. Edge pixels take the
/// reference's 16 `Double` samples bit for bit; interior spans are coloured once and blended four
/// pixels per vector, in cache-sized bands over a ``RenderContext``'s threads. Every channel is
/// within 2/255 of the reference on every preset and spec example (<doc:Rendering>).
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
