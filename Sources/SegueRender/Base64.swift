/// Standard base64 (RFC 4648 §4, with padding), for `data:` URIs in SVG.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The base64 text of `bytes`: 4 characters per 3 bytes, the last group padded with `=`.
  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let n = Swift.min(3, bytes.count - i)
      let b0 = UInt32(bytes[i])
      let b1 = n > 1 ? UInt32(bytes[i + 1]) : 0
      let b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      for k in 0..<4 {
        out.append(k <= n ? alphabet[Int((group >> (18 - 6 * UInt32(k))) & 63)] : UInt8(ascii: "="))
      }
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
