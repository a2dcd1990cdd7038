import Foundation

/// An HTML page of the snapshot files that did not match: for each, its message and, for
/// images, the snapshot, the new image and the diff side by side, and a slider that wipes from
/// the snapshot to the new image over the same area. One self-contained file (images inline as
/// `data:` URLs), for a CI job's artefacts.
public struct SnapshotReport: Sendable {
  /// One checked transition: its name and its files' results.
  public struct Entry: Sendable {
    /// The transition's name, e.g. `system-push` or a spec file's name.
    public var name: String
    /// Its files.
    public var files: [SnapshotFileResult]

    /// An entry.
    public init(name: String, files: [SnapshotFileResult]) {
      self.name = name
      self.files = files
    }
  }

  /// The page's title.
  public var title: String
  /// The transitions checked.
  public var entries: [Entry]

  /// A report.
  public init(title: String, entries: [Entry]) {
    self.title = title
    self.entries = entries
  }

  /// The HTML document.
  public var html: String {
    let failing = entries.filter { $0.files.contains(where: \.isFailure) }
    let fileCount = failing.reduce(0) { $0 + $1.files.filter(\.isFailure).count }
    var body = "<h1>\(Self.escape(title))</h1>\n"
    body +=
      failing.isEmpty
      ? "<p class=ok>All \(entries.count) transitions match their snapshots.</p>\n"
      : "<p>\(failing.count) of \(entries.count) transitions differ from their snapshots "
        + "(\(fileCount) files).</p>\n"
    for entry in failing {
      body += "<section><h2>\(Self.escape(entry.name))</h2>\n"
      for file in entry.files where file.isFailure { body += Self.section(file) }
      body += "</section>\n"
    }
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>\(Self.escape(title))</title>
      <style>
      body { font: 14px system-ui, sans-serif; margin: 2em; color: #222 }
      .ok { color: #080 } .message { white-space: pre-wrap; font-family: monospace; color: #a00 }
      .images { display: flex; gap: 1em; flex-wrap: wrap; align-items: flex-start }
      figure { margin: 0 } figcaption { font-size: 12px; color: #666 }
      img { image-rendering: pixelated; border: 1px solid #ccc; max-width: 600px }
      .wipe { position: relative; display: inline-block } .wipe img { display: block }
      .wipe .after { position: absolute; left: 0; top: 0; clip-path: inset(0 0 0 50%) }
      .wipe input { width: 100% }
      </style></head><body>
      \(body)<script>
      for (const input of document.querySelectorAll('.wipe input')) {
        const after = input.parentElement.querySelector('.after');
        input.addEventListener('input', () => {
          after.style.clipPath = 'inset(0 0 0 ' + input.value + '%)';
        });
      }
      </script></body></html>

      """
  }

  /// One file's part of the page.
  static func section(_ file: SnapshotFileResult) -> String {
    var out = "<h3>\(escape(file.reference.lastPathComponent))</h3>\n"
    out += "<p class=message>\(escape(file.message))</p>\n"
    guard let actual = file.actualBytes, isImage(actual) else { return out }
    let expected = file.expectedBytes.flatMap { isImage($0) ? dataURL($0) : nil }
    out += "<div class=images>\n"
    if let expected { out += figure(expected, "snapshot") }
    out += figure(dataURL(actual), "new")
    if let diff = file.diffBytes { out += figure(dataURL(diff), "diff: red differs") }
    if let expected {
      out += """
        <figure><div class=wipe><img src="\(expected)" alt="snapshot">\
        <img class=after src="\(dataURL(actual))" alt="new">\
        <input type=range min=0 max=100 value=50 aria-label="wipe"></div>\
        <figcaption>slider: snapshot (left) ↔ new (right)</figcaption></figure>

        """
    }
    return out + "</div>\n"
  }

  private static func figure(_ source: String, _ caption: String) -> String {
    "<figure><img src=\"\(source)\" alt=\"\(caption)\"><figcaption>\(caption)</figcaption></figure>\n"
  }

  private static func isImage(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
  }

  private static func dataURL(_ png: [UInt8]) -> String {
    "data:image/png;base64," + Data(png).base64EncodedString()
  }

  /// `&`, `<`, `>` and `"` as entities.
  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
