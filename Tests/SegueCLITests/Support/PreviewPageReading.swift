import Foundation
import Testing

/// Reads a page written by `segue preview` independently of the tool's types: its inline scripts,
/// its JSON data, and the Float32 frame streams as the page's `decodeFrames` documents them.
struct PreviewPageReading {
  /// The page's text.
  let html: String
  /// The data element's JSON.
  let data: [String: Any]

  init(_ html: String) throws {
    self.html = html
    let json = try #require(
      Self.element(html, open: #"<script type="application/json" id="segue-data">"#))
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    data = try #require(object as? [String: Any])
  }

  /// The text between `open` and the next `</script>`.
  static func element(_ html: String, open: String) -> String? {
    guard let start = html.range(of: open) else { return nil }
    guard let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex) else {
      return nil
    }
    return String(html[start.upperBound..<end.lowerBound])
  }

  /// The `segue-core` script (the page's pure functions).
  func coreScript() throws -> String {
    try #require(Self.element(html, open: #"<script id="segue-core">"#))
  }

  /// The scene named `name`.
  func scene(_ name: String) throws -> [String: Any] {
    let scenes = try #require(data["scenes"] as? [[String: Any]])
    return try #require(scenes.first { $0["name"] as? String == name })
  }

  /// One layer of a frame: its snapshot's id and index in the table, opacity, bounds, plane
  /// homography, innermost clip (an index into the frame's clips, −1 for none) and, for a piece
  /// of a depth-sorted layer, the part of its plane drawn (x, y pairs; empty when drawn whole).
  struct Layer {
    var id: String
    var snapshot: Int
    var opacity: Float
    var bounds: [Float]
    var h: [Float]
    var clip: Int = -1
    var piece: [Float] = []
  }

  /// One clip of a frame: the masking layer's bounds, corner radius, maskedCorners and plane
  /// homography, and the clip outside it (−1 for none).
  struct Clip {
    var outer: Int
    var bounds: [Float]
    var radius: Float
    var mask: Int
    var h: [Float]
  }

  /// One item of a frame: a layer, or a cross-dissolve's snapshots (weight, layers).
  enum Item {
    case layer(Layer)
    case dissolve([(weight: Float, layers: [Layer])])

    /// Every layer of the item, in draw order.
    var layers: [Layer] {
      switch self {
      case .layer(let l): [l]
      case .dissolve(let s): s.flatMap(\.layers)
      }
    }
  }

  /// The frames of `scene`: the running ones, then the finished and cancelled end states.
  func frames(_ scene: [String: Any]) throws -> [[Item]] {
    try framesAndClips(scene).map(\.items)
  }

  /// The frames of `scene` with their clips.
  func framesAndClips(_ scene: [String: Any]) throws -> [(items: [Item], clips: [Clip])] {
    let text = try #require(scene["frames"] as? String)
    let bytes = try #require(Data(base64Encoded: text))
    #expect(bytes.count % 4 == 0)
    let values: [Float] = stride(from: 0, to: bytes.count, by: 4).map { i in
      var bits: UInt32 = 0
      for k in 0..<4 { bits |= UInt32(bytes[bytes.startIndex + i + k]) << (8 * k) }
      return Float(bitPattern: bits)
    }
    let snapshots = try #require(scene["snapshots"] as? [[String: Any]])
    let ids = try snapshots.map { try #require($0["id"] as? String) }
    var i = 0
    func next() throws -> Float {
      try #require(i < values.count, "frame data ends early")
      defer { i += 1 }
      return values[i]
    }
    func layer() throws -> Layer {
      let index = Int(try next())
      try #require(ids.indices.contains(index))
      let opacity = try next()
      let bounds = try (0..<4).map { _ in try next() }
      let h = try (0..<9).map { _ in try next() }
      let clip = Int(try next())
      let n = Int(try next())
      try #require(n == 0 || n >= 3)
      let piece = try (0..<(2 * n)).map { _ in try next() }
      return Layer(
        id: ids[index], snapshot: index, opacity: opacity, bounds: bounds, h: h, clip: clip,
        piece: piece)
    }
    var frames: [(items: [Item], clips: [Clip])] = []
    while i < values.count {
      let count = Int(try next())
      var clips: [Clip] = []
      for _ in 0..<Int(try next()) {
        let outer = Int(try next())
        try #require(outer >= -1 && outer < clips.count, "a clip names a later one")
        let bounds = try (0..<4).map { _ in try next() }
        let radius = try next()
        let mask = Int(try next())
        let h = try (0..<9).map { _ in try next() }
        clips.append(Clip(outer: outer, bounds: bounds, radius: radius, mask: mask, h: h))
      }
      var items: [Item] = []
      for _ in 0..<count {
        if try next() == 0 {
          items.append(.layer(try layer()))
          continue
        }
        var snapshots: [(weight: Float, layers: [Layer])] = []
        for _ in 0..<Int(try next()) {
          let weight = try next()
          let layers = try (0..<Int(try next())).map { _ in try layer() }
          snapshots.append((weight, layers))
        }
        items.append(.dissolve(snapshots))
      }
      for layer in items.flatMap(\.layers) {
        try #require(layer.clip >= -1 && layer.clip < clips.count)
      }
      frames.append((items, clips))
    }
    return frames
  }
}
