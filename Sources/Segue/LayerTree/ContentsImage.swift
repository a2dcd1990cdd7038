/// The image a layer's `contents` shows (`CALayer.contents`, a `CGImage` in Core Animation), by
/// reference: the model says where the image comes from; a renderer decodes it (PNG or JPEG in
/// `SegueRender`), so a layer tree holds images without their pixels.
public enum ContentsImage: Hashable, Sendable, CustomStringConvertible {
  /// A PNG or JPEG file. A relative path is resolved against the folder the renderer is given:
  /// for a scene read from a spec file, the spec's folder (the loader joins the two).
  case file(String)
  /// An image the application registered with the renderer under this name, as
  /// `UIImage(named:)` finds an asset.
  case named(String)

  /// The file path or the name.
  public var reference: String {
    switch self {
    case .file(let path): path
    case .named(let name): name
    }
  }

  /// `file(path)` or `named(name)`.
  public var description: String {
    switch self {
    case .file(let path): "file(\(path))"
    case .named(let name): "named(\(name))"
    }
  }

  /// Throws ``ValidationError/Reason/invalidState(_:)`` naming `field` for an empty path or name,
  /// or one holding a NUL character (no file system or registry accepts it).
  public func validate(field: String) throws(ValidationError) {
    let text = reference
    guard !text.isEmpty else {
      throw ValidationError(field: field, reason: .invalidState("is an empty \(what)"))
    }
    guard !text.unicodeScalars.contains("\0") else {
      throw ValidationError(field: field, reason: .invalidState("holds a NUL character"))
    }
  }

  private var what: String {
    switch self {
    case .file: "path"
    case .named: "name"
    }
  }
}
