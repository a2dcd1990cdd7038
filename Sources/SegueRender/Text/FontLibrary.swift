import Segue
import Synchronization

/// Finds and loads fonts, keeping each loaded face (one per file and face index) and each
/// descriptor's answer for the library's lifetime. Safe to share between threads.
///
/// Names are resolved against ``catalog()`` (the installed fonts by default, see
/// ``FontCatalog``); files are read whole, up to ``maximumFileSize`` bytes.
public final class FontLibrary: Sendable {
  /// The library the renderer uses unless given another: installed fonts, the default budget.
  public static let shared = FontLibrary()

  /// The default file size budget: 64 MiB (the largest Debian font files, CJK collections, are
  /// about 20–30 MB).
  public static let defaultMaximumFileSize = 64 << 20

  /// The largest font file loaded, in bytes.
  public let maximumFileSize: Int
  private let fixedCatalog: FontCatalog?
  private let faces = Mutex<[FontFile: FontFace]>([:])
  private let resolved = Mutex<[FontDescriptor: FontFace]>([:])

  /// A library that reads files up to `maximumFileSize` bytes and resolves names against
  /// `catalog` (`nil`: the installed fonts, listed through fontconfig on first use).
  public init(maximumFileSize: Int = defaultMaximumFileSize, catalog: FontCatalog? = nil) {
    self.maximumFileSize = maximumFileSize
    fixedCatalog = catalog
  }

  /// The fonts names are resolved against.
  ///
  /// - Throws: ``FontError/fontconfigUnavailable`` when the installed fonts cannot be listed.
  public func catalog() throws(FontError) -> FontCatalog {
    if let fixedCatalog { return fixedCatalog }
    return try FontCatalog.installed()
  }

  /// The face `descriptor` names (a file is loaded without consulting the catalog).
  ///
  /// - Throws: any ``FontError``: a name not installed, a file missing, unreadable, too large,
  ///   corrupt, without outlines, or a face index out of range.
  public func face(for descriptor: FontDescriptor) throws(FontError) -> FontFace {
    if let known = resolved.withLock({ $0[descriptor] }) { return known }
    let file: FontFile
    if case .file(let path, let faceIndex) = descriptor {
      file = FontFile(path: path, faceIndex: faceIndex)
    } else {
      file = try catalog().resolve(descriptor)
    }
    let face = try face(file)
    resolved.withLock { $0[descriptor] = face }
    return face
  }

  /// The face in `file`, loaded on first use and kept.
  ///
  /// - Throws: as ``FontFace/init(file:maximumFileSize:)``.
  public func face(_ file: FontFile) throws(FontError) -> FontFace {
    if let known = faces.withLock({ $0[file] }) { return known }
    let loaded = try FontFace(file: file, maximumFileSize: maximumFileSize)
    return faces.withLock { faces in
      if let raced = faces[file] { return raced }
      faces[file] = loaded
      return loaded
    }
  }
}
