import Segue

/// Why a path could not be flattened or stroked.
public enum ShapeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An input is unusable (the error names it).
  case invalid(ValidationError)
  /// The result would have more than `limit` points (a tolerance far below the path's size, or
  /// a dash pattern far shorter than the path); nothing was built.
  case tooComplex(limit: Int)

  /// The error in words.
  public var description: String {
    switch self {
    case .invalid(let error): error.description
    case .tooComplex(let limit): "the outline would need more than \(limit) points"
    }
  }
}
