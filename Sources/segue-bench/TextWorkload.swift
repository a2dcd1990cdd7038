import Segue
import SegueBenchSupport
import SegueMallocCounter
import SegueRender

// MARK: - Text layout workload (text)
//
// `text`: CATextLayer layout of N distinct strings per pass, each laid out from scratch by a
// `TextLayoutJob` (no layout cache; the face and its glyph outlines are loaded and warm):
// HarfBuzz shaping, line breaking, truncation, alignment and the placed glyph outlines as one
// `BezierPath`. Two kinds of text, each a pass of its own:
//
// * row: a list row's title, 30 characters, 17 pt, 343 × 22 pt, one line, truncated at the end;
// * paragraph: 120 characters, 15 pt, wrapped at 343 pt, natural alignment.
//
// Strings are words of 2–9 lowercase letters from splitmix64 (seed 42), capitalised. Not
// timed: making the strings and the requests. Reported per kind: µs per layout (median and best
// pass), CPU µs per layout (median pass; steadier than wall time on a shared machine),
// layouts/s, glyphs and path elements per layout, allocation calls per layout.

extension SegueBench {
  /// Runs the text workload and prints one line per kind of text.
  func runTextWorkload() throws {
    let face = try FontLibrary.shared.face(for: .helvetica)
    print("workload text  n \(layerCount)  font \(face.postScriptName)  threads 1")
    print("CPU \(cpuModelName())  (\(CPUFeatures.runtime.description))")
    let kinds: [(String, Int, Double, Size, Bool, TextTruncationMode)] = [
      ("row", 30, 17, Size(width: 343, height: 22), false, .end),
      ("paragraph", 120, 15, Size(width: 343, height: 400), true, .none),
    ]
    for (name, length, size, bounds, wrapped, truncation) in kinds {
      var random = SplitMix64(state: 42)
      let requests = (0..<layerCount).map { _ in
        TextLayoutRequest(
          string: Self.words(length: length, random: &random), fontSize: size, bounds: bounds,
          isWrapped: wrapped, truncationMode: truncation)
      }
      try runTextKind(name, requests: requests, face: face)
    }
  }

  private func runTextKind(_ name: String, requests: [TextLayoutRequest], face: FontFace) throws {
    var glyphs = 0
    var elements = 0
    let pass = {
      glyphs = 0
      elements = 0
      for request in requests {
        let layout = try TextLayoutJob(request: request, face: face).run()
        glyphs += layout.glyphs.count
        elements += layout.path.elements.count
      }
    }
    try pass()
    var cpuSeconds: [Double] = []
    let (seconds, allocations) = try timedPasses {
      let c0 = processCPUSeconds()
      try pass()
      cpuSeconds.append(processCPUSeconds() - c0)
    }
    let sorted = seconds.sorted()
    let n = Double(requests.count)
    let median = sorted[sorted.count / 2] / n
    let best = sorted[0] / n
    let cpu = cpuSeconds.sorted()[cpuSeconds.count / 2] / n
    var line = "\(name.padding(10)) \(fixed(median * 1e6, 2)) µs/layout median  "
    line += "\(fixed(best * 1e6, 2)) best  \(fixed(cpu * 1e6, 2)) CPU µs  "
    line += "\(fixed(1 / median / 1e3, 1)) k layouts/s  "
    line += "\(glyphs / requests.count) glyphs, \(elements / requests.count) path elements"
    if segue_allocation_counting_available() != 0 {
      line += "  \(fixed(Double(allocations) / n, 1)) allocations/layout"
    }
    print(line)
  }

  /// Capitalised words of 2–9 letters separated by spaces, `length` characters in all.
  static func words(length: Int, random: inout SplitMix64) -> String {
    var text = ""
    while text.count < length {
      if !text.isEmpty { text += " " }
      let count = 2 + Int(random.next() % 8)
      for index in 0..<count {
        let letter = UInt8(ascii: "a") + UInt8(random.next() % 26)
        let scalar = Unicode.Scalar(index == 0 ? letter - 32 : letter)
        text.unicodeScalars.append(scalar)
      }
    }
    return String(text.prefix(length))
  }
}
