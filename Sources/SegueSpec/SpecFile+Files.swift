import Segue

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a spec names: an image (a layer's `contents`) or a font (a text layer's `font` given as
/// a file), with the JSON path that names it, so that a problem found when the file is read or
/// decoded can be reported where the spec says it.
public struct SpecFileReference: Hashable, Sendable {
  /// What the file holds.
  public enum Kind: String, Hashable, Sendable {
    /// A PNG or JPEG image (`contents`).
    case image
    /// A TrueType, OpenType or collection font (`font.file`).
    case font
  }

  /// An image or a font.
  public var kind: Kind
  /// The id of the layer that names the file.
  public var layerID: String
  /// The path as the spec writes it, relative to the spec's folder.
  public var path: String
  /// The path the scene opens: ``path`` joined to the spec's folder once
  /// ``SpecDocument/resolvingFiles(in:maximumFileSize:maximumTotalSize:)`` has run, else
  /// ``path`` (relative to the process's working directory).
  public var location: String
  /// The JSON path of the value naming the file (`$.layers[2].contents`,
  /// `$.layers[0].text.font.file`).
  public var jsonPath: String

  /// A reference; ``location`` starts as `path`.
  public init(kind: Kind, layerID: String, path: String, jsonPath: String) {
    self.kind = kind
    self.layerID = layerID
    self.path = path
    self.location = path
    self.jsonPath = jsonPath
  }
}

extension SpecFile {
  /// The largest image or font file a spec may name: 64 MiB.
  public static let maximumFileSize = 64 << 20
  /// The largest total of the distinct files a spec names: 256 MiB.
  public static let maximumTotalFileSize = 256 << 20

  /// Parses `text`, a spec read from a file in `directory`, decodes it and resolves the image and
  /// font files it names there (``SpecDocument/resolvingFiles(in:maximumFileSize:maximumTotalSize:)``),
  /// so the scene opens them wherever the process runs.
  ///
  /// - Throws: the errors of ``decode(text:)`` and of the resolution.
  public static func decode(text: String, directory: String) throws(SpecError) -> SpecDocument {
    try decode(text: text).resolvingFiles(in: directory)
  }

  /// Reads a path relative to the spec's folder, checked without touching the file system: not
  /// empty, no NUL character, not absolute, and no `..` that climbs above the folder.
  static func readRelativePath(_ node: Node) throws(SpecError) -> String {
    let path = try node.string()
    guard !path.isEmpty else { throw node.fail("the file path is empty") }
    guard !path.unicodeScalars.contains("\0") else {
      throw node.fail("the file path holds a NUL character")
    }
    guard !path.hasPrefix("/") else {
      throw node.fail(
        "'\(path)' is absolute: files are named relative to the spec's folder and stay inside it")
    }
    var depth = 0
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..": depth -= 1
      default: depth += 1
      }
      guard depth >= 0 else { throw node.fail("'\(path)' leaves the spec's folder") }
    }
    return path
  }

  /// The files the layers of `tree` name, in the order of `json`'s `layers` list (which gives
  /// each its JSON path).
  static func fileReferences(in tree: LayerTree, json: JSONValue) -> [SpecFileReference] {
    guard case .array(let list)? = json["layers"] else { return [] }
    var references: [SpecFileReference] = []
    for (index, item) in list.enumerated() {
      guard case .string(let id)? = item["id"], let layer = tree[id: id] else { continue }
      let base = JSONPath.element("$.layers", index)
      if case .file(let path)? = layer.contents {
        let key = item["contents"].map { if case .object = $0 { ".file" } else { "" } } ?? ""
        references.append(
          SpecFileReference(
            kind: .image, layerID: id, path: path, jsonPath: base + ".contents" + key))
      }
      if case .text(let text) = layer.kind, case .file(let path, _) = text.font {
        references.append(
          SpecFileReference(
            kind: .font, layerID: id, path: path, jsonPath: base + ".text.font.file"))
      }
    }
    return references
  }
}

extension SpecDocument {
  /// The document with every file it names found in `directory` (the spec's folder) and opened
  /// from there: each reference's ``SpecFileReference/location`` and the layer's path become
  /// `directory/path`.
  ///
  /// Each file must be a regular file inside `directory` (a symbolic link may point anywhere
  /// inside it, not outside), readable, at most `maximumFileSize` bytes, and the distinct files
  /// together at most `maximumTotalSize` bytes. What a file holds is not read here (decoding is
  /// the renderer's): a corrupt image or font is reported when it is decoded.
  ///
  /// - Throws: ``SpecError`` at the reference's JSON path: with
  ///   ``SpecError/Category/unreadableFile`` when the file does not exist, is not a regular file
  ///   (a directory) or cannot be read; otherwise (``SpecError/Category/content``) when it lies
  ///   outside the folder through a symbolic link, or is over a size budget.
  public func resolvingFiles(
    in directory: String, maximumFileSize: Int = SpecFile.maximumFileSize,
    maximumTotalSize: Int = SpecFile.maximumTotalFileSize
  ) throws(SpecError) -> SpecDocument {
    var document = self
    let folder = directory.isEmpty ? "." : directory
    let root = SpecFileSystem.canonicalPath(folder)
    var counted: Set<String> = []
    var total = 0
    for (i, reference) in files.enumerated() {
      let location = folder.hasSuffix("/") ? folder + reference.path : folder + "/" + reference.path
      let size = try SpecFileSystem.checkFile(
        location, root: root, limit: maximumFileSize, reference: reference)
      if counted.insert(SpecFileSystem.canonicalPath(location) ?? location).inserted {
        total += size
      }
      guard total <= maximumTotalSize else {
        throw SpecError(
          path: reference.jsonPath,
          message: "the files the spec names add up to \(total) bytes, over the budget of "
            + "\(maximumTotalSize) bytes")
      }
      document.files[i].location = location
      try document.relocate(reference, to: location)
    }
    return document
  }

  /// Points the layer of `reference` at `location`.
  private mutating func relocate(_ reference: SpecFileReference, to location: String)
    throws(SpecError)
  {
    guard var layer = scene.model[id: reference.layerID] else { return }
    switch reference.kind {
    case .image: layer.contents = .file(location)
    case .font:
      guard case .text(var text) = layer.kind, case .file(_, let face) = text.font else { return }
      text.font = .file(path: location, faceIndex: face)
      layer.kind = .text(text)
    }
    do { try scene.model.update(layer) } catch {
      throw SpecError(wrapping: error, at: reference.jsonPath)
    }
  }
}

/// The file-system checks of a spec's files, through the C library.
enum SpecFileSystem {
  /// The canonical absolute path (symbolic links and `..` resolved), or `nil` when it does not
  /// exist.
  static func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The size in bytes of the regular file at `location`, after checking it lies inside `root`
  /// and is readable.
  static func checkFile(_ location: String, root: String?, limit: Int, reference: SpecFileReference)
    throws(SpecError) -> Int
  {
    let what = reference.kind == .image ? "image" : "font"
    func unreadable(_ why: String) -> SpecError {
      SpecError(
        path: reference.jsonPath, message: "cannot read the \(what) '\(reference.path)': \(why)",
        category: .unreadableFile)
    }
    var info = stat()
    guard stat(location, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw unreadable("no such file") }
      throw unreadable(String(cString: strerror(code)))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw unreadable(
        info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "not a regular file")
    }
    if let root, let file = canonicalPath(location), !file.hasPrefix(root == "/" ? "/" : root + "/")
    {
      throw SpecError(
        path: reference.jsonPath,
        message: "'\(reference.path)' leaves the spec's folder (through a symbolic link, to "
          + "\(file))")
    }
    guard access(location, R_OK) == 0 else { throw unreadable(String(cString: strerror(errno))) }
    let size = Int(info.st_size)
    guard size <= limit else {
      throw SpecError(
        path: reference.jsonPath,
        message: "the \(what) '\(reference.path)' is \(size) bytes, over the budget of \(limit) "
          + "bytes")
    }
    return size
  }
}
