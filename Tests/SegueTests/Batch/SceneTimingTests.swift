import Testing

@testable import Segue

/// Ops with the same timing computed once per lane group (``SceneTiming``): which ops share, and
/// that sharing changes no bit of the output.
@Suite("Shared timings (SceneBatch)")
struct SceneTimingTests {
  /// Layer "a" with three animations in every timing kind and fill mode: `position.x` and
  /// `opacity` with the kind's timing (shared), `position.y` begun later (its own); and the
  /// same animations one per scene.
  static func scenes(_ kind: TimingPhaseTests.Kind, _ fill: MediaTiming.FillMode) throws -> (
    all: TransitionScene, alone: [TransitionScene]
  ) {
    let x = try TimingPhaseTests.animation(kind, fill)
    var opacity = x
    var y = x
    opacity.property = .opacity
    y.property = .positionY
    y.timing.beginTime = 0.75
    if kind.spring != nil {
      opacity.content = .spring(try DampedSpring(), from: .number(1), to: .number(0.25))
    } else {
      opacity.content = .basic(from: .number(1), to: .number(0.25))
    }
    let all = try TimingPhaseTests.scene(x, opacity, y)
    return (all, try [x, opacity, y].map { try TimingPhaseTests.scene($0) })
  }

  @Test func opsWithTheSameTimingShareOneAndTheFirstStoresIt() throws {
    for kind in TimingPhaseTests.kinds {
      let template = try SceneTemplate(Self.scenes(kind, .both).all)
      let program = template.program
      #expect(program.timingCount == 1, "\(kind)")
      #expect(program.scratch.timings == 1)
      let ops = (0..<program.opCount).map { program.ops[$0] }
      #expect(ops.map(\.timingSlot) == [0, 0, -1], "\(kind)")
      #expect(ops.map(\.storesTiming) == [true, false, false], "\(kind)")
    }
  }

  @Test func differentFunctionsOrSignsOfZeroDoNotShare() throws {
    let base = try TimingPhaseTests.animation(TimingPhaseTests.kinds[0], .both)
    var other = base
    other.property = .opacity
    other.content = .basic(from: .number(1), to: .number(0))
    other.timingFunction = try .cubicBezier(0.25, 0.1, 0.25, 1)
    var negativeZero = other
    negativeZero.property = .positionY
    negativeZero.timingFunction = base.timingFunction
    negativeZero.timing.timeOffset = -0.0
    let template = try SceneTemplate(TimingPhaseTests.scene(base, other, negativeZero))
    #expect(template.program.timingCount == 0)
  }

  /// Every frame of the three-animation scene, bit for bit, is the frame of the scene holding
  /// only the animation that writes the value: `m41` (x), `m42` (y) and the opacity, on
  /// instances started at different times so the lanes run in different phases.
  @Test func sharingChangesNoBit() throws {
    let starts = [0.0, -0.3, 0.4, -1.1, 0.9]
    let times = TimingPhaseTests.times.map(\.t) + [0.6, 1.05]
    for kind in TimingPhaseTests.kinds {
      for fill in MediaTiming.FillMode.allCases {
        let (all, alone) = try Self.scenes(kind, fill)
        let shared = try Self.frames(all, starts: starts, at: times)
        // (scene, field): m41 = position.x, the opacity, m42 = position.y.
        let fields = [(0, Self.m41), (1, Self.opacity), (2, Self.m42)]
        for (scene, field) in fields {
          let single = try Self.frames(alone[scene], starts: starts, at: times)
          for (f, g) in zip(shared[field], single[field]) {
            #expect(f.bitPattern == g.bitPattern, "\(kind) \(fill) field \(field): \(f) vs \(g)")
          }
        }
      }
    }
  }

  /// The fields of ``frames(_:starts:at:)`` compared: matrix fields `m41` and `m42`, and the
  /// opacity after the sixteen matrix fields.
  static let m41 = 12
  static let m42 = 13
  static let opacity = LaneMatrix.fieldCount

  /// Per field `0…15` the matrix field of layer "a", then its opacity (``opacity``): every
  /// instance (clock `timed(start, 1)`) at every time.
  static func frames(_ scene: TransitionScene, starts: [Double], at times: [Double]) throws
    -> [[Float]]
  {
    let batch = try SceneBatch(
      starts.map { .init(scene: scene, clock: .timed(start: $0, speed: 1)) })
    let output = try SceneBatchTests.evaluate(batch, at: times)
    var fields = [[Float]](repeating: [], count: Self.opacity + 1)
    for f in times.indices {
      for k in starts.indices {
        let i = try #require(batch.layerIndex(instance: k, layerID: "a"))
        let row = f * batch.layerCount + i
        let matrix = LaneMatrix.fieldCount * row
        for c in 0..<LaneMatrix.fieldCount { fields[c].append(output.matrices[matrix + c]) }
        fields[Self.opacity].append(output.opacities[row])
      }
    }
    return fields
  }
}
