/// A point in a 2D coordinate space, in points (CGPoint). UIKit geometry is y-down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// Horizontal coordinate, in points.
  public var x: Double
  /// Vertical coordinate, in points (y grows downwards in UIKit geometry).
  public var y: Double

  /// The origin `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)

  /// Creates the point `(x, y)`.
  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// `"(x, y)"`.
  public var description: String { "(\(x), \(y))" }
}

/// A width and height, in points (CGSize). Negative sizes are allowed as values, as in CGSize.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  /// Horizontal extent, in points.
  public var width: Double
  /// Vertical extent, in points.
  public var height: Double

  /// `(0, 0)`.
  public static let zero = Size(width: 0, height: 0)

  /// Creates the size `width × height`.
  @inlinable public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// `"width×height"`.
  public var description: String { "\(width)×\(height)" }
}

/// A rectangle: an origin and a size, in points (CGRect).
///
/// `minX = origin.x`, `maxX = origin.x + size.width` (and the same in y) for non-negative sizes;
/// for negative sizes min and max are swapped, as CGRect's standardised form.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The corner with the smallest coordinates when the size is non-negative (top-left, y-down).
  public var origin: Point
  /// Width and height.
  public var size: Size

  /// The empty rectangle at the origin.
  public static let zero = Rect(origin: .zero, size: .zero)
  /// The unit square `(0, 0, 1, 1)`: the default `contentsRect` and `contentsCenter`.
  public static let unit = Rect(x: 0, y: 0, width: 1, height: 1)

  /// Creates a rectangle from its origin and size.
  @inlinable public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates the rectangle `(x, y, width, height)`.
  @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// Smallest x: `min(origin.x, origin.x + width)`.
  @inlinable public var minX: Double { Swift.min(origin.x, origin.x + size.width) }
  /// Largest x: `max(origin.x, origin.x + width)`.
  @inlinable public var maxX: Double { Swift.max(origin.x, origin.x + size.width) }
  /// Smallest y: `min(origin.y, origin.y + height)`.
  @inlinable public var minY: Double { Swift.min(origin.y, origin.y + size.height) }
  /// Largest y: `max(origin.y, origin.y + height)`.
  @inlinable public var maxY: Double { Swift.max(origin.y, origin.y + size.height) }
  /// `origin.x + width / 2`.
  @inlinable public var midX: Double { origin.x + size.width / 2 }
  /// `origin.y + height / 2`.
  @inlinable public var midY: Double { origin.y + size.height / 2 }
  /// `|width|`.
  @inlinable public var width: Double { abs(size.width) }
  /// `|height|`.
  @inlinable public var height: Double { abs(size.height) }

  /// The smallest rectangle containing every point of `points` (the bounding box); `.zero` if empty.
  public init<S: Sequence>(boundingBoxOf points: S) where S.Element == Point {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var any = false
    for p in points {
      any = true
      minX = Swift.min(minX, p.x)
      minY = Swift.min(minY, p.y)
      maxX = Swift.max(maxX, p.x)
      maxY = Swift.max(maxY, p.y)
    }
    self = any ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : .zero
  }

  /// `"(x, y, width, height)"`.
  public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// A 3-vector or 3D point `(x, y, z)`, in points.
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
  /// x component.
  public var x: Double
  /// y component.
  public var y: Double
  /// z component (towards the viewer is positive, as CALayer's zPosition).
  public var z: Double

  /// `(0, 0, 0)`.
  public static let zero = Vector3(x: 0, y: 0, z: 0)

  /// Creates `(x, y, z)`.
  @inlinable public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// Euclidean length `√(x² + y² + z²)`.
  @inlinable public var length: Double { (x * x + y * y + z * z).squareRoot() }
  /// Dot product `a·b`.
  @inlinable public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }
  /// Cross product `a × b` (right-handed).
  @inlinable public func cross(_ o: Vector3) -> Vector3 {
    Vector3(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
  }

  /// `"(x, y, z)"`.
  public var description: String { "(\(x), \(y), \(z))" }
}

/// A homogeneous 4-vector `(x, y, z, w)`: a row vector that ``Transform3D`` multiplies from the left.
public struct Vector4: Hashable, Sendable, CustomStringConvertible {
  /// x component.
  public var x: Double
  /// y component.
  public var y: Double
  /// z component.
  public var z: Double
  /// w component (1 for an ordinary point; the perspective divisor after a transform).
  public var w: Double

  /// Creates `(x, y, z, w)`.
  @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// `"(x, y, z, w)"`.
  public var description: String { "(\(x), \(y), \(z), \(w))" }
}
