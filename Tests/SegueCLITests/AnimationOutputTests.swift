import Foundation
import SegueTestSupport
import Testing

private let ffmpeg = executableOnPath(["ffmpeg"])
private let ffprobe = executableOnPath(["ffprobe"])

/// `segue render --animation` (APNG, GIF) and `--video` (MP4 through ffmpeg), read back by
/// decoders that are not the code under test: the Python APNG reader and the Swift GIF decoder
/// of SegueTestSupport, and `ffprobe`.
///
/// Colours by hand (as in ``RenderCommandTests``): CATransition fade of 0.25 s, linear, from
/// RGB (0.25, 0.47, 0.85) to (0.96, 0.62, 0.24) over white. At 0.1 s q = 0.4: 0.6·from +
/// 0.4·to = (0.534, 0.530, 0.606) → (136.17, 135.15, 154.53) → (136, 135, 155); from →
/// (64, 120, 217), to → (245, 158, 61).
@Suite struct AnimationOutputTests {
  /// Times 0, 0.1, 0.25: delays 0.1, 0.15 and (the last repeating the one before) 0.15 s, i.e.
  /// `delay_num/delay_den` 1/10, 3/20, 3/20; three frames, looping forever (plays 0); the first
  /// frame covers the 40 × 30 canvas.
  @Test(
    .enabled(
      if: APNGReading.python != nil,
      "python3 not found on PATH (apt-get install python3, or make setup-test)"))
  func apngFrameCountAndDelays() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/fade.png"
    let result = try SegueProcess.run([
      "render", "--preset", "ca-fade", "--views", "bare", "--container", "40,30", "--times",
      "0,0.1,0.25",
      "--no-frames", "--animation", file,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text.contains("animation \(file) (APNG, 3 frames)"))
    #expect(try directory.contents() == ["fade.png"])
    let lines = try APNGReading.run([file]).split(separator: "\n")
    #expect(lines.first == "ACTL 3 0")
    let frames = lines.filter { $0.hasPrefix("FRAME") }.map { $0.split(separator: " ") }
    try #require(frames.count == 3, "\(lines)")
    #expect(frames[0][2...] == ["1", "10", "0", "0", "40", "30"])
    #expect(frames[1][2...3] == ["3", "20"])
    #expect(frames[2][2...3] == ["3", "20"])
  }

  /// The same frames as a GIF: three frames of 40 × 30 with delays 10, 15, 15 centiseconds,
  /// NETSCAPE2.0 loops 0, and the colours by hand at the centre (each frame has at most a few
  /// colours, so its colour table is exact).
  @Test func gifDecodes() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/fade.gif"
    let result = try SegueProcess.run([
      "render", "--preset", "ca-fade", "--views", "bare", "--container", "40,30", "--times",
      "0,0.1,0.25",
      "--no-frames", "--animation", file, "--threads", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text.contains("animation \(file) (GIF, 3 frames)"))
    let gif = try GIFDecoding(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    #expect(gif.width == 40 && gif.height == 30)
    #expect(gif.loops == 0)
    try #require(gif.frames.count == 3)
    #expect(gif.frames.map(\.delay) == [10, 15, 15])
    func pixel(_ k: Int, _ x: Int, _ y: Int) -> [UInt8] {
      let at = 4 * (y * 40 + x)
      return Array(gif.frames[k].canvas[at..<(at + 4)])
    }
    #expect(pixel(0, 20, 15) == [64, 120, 217, 255])
    #expect(pixel(1, 20, 15) == [136, 135, 155, 255])
    #expect(pixel(2, 20, 15) == [245, 158, 61, 255])
    #expect(pixel(2, 0, 29) == [245, 158, 61, 255])
  }

  /// A system push (0.5 s) at 20 fps: 11 frames at 20/1 frames per second in an H.264 or MPEG-4
  /// stream whose odd 101 × 81 frames are padded to 102 × 82, as `ffprobe` counts them.
  @Test(
    .enabled(
      if: ffmpeg != nil && ffprobe != nil,
      "ffmpeg or ffprobe not found on PATH (apt-get install ffmpeg, or make setup-test)"))
  func mp4ThroughFFmpeg() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/push.mp4"
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--views", "bare", "--container", "101,81", "--fps", "20",
      "--no-frames",
      "--video", file,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text.contains("video \(file) (11 frames)"))
    #expect(try directory.contents() == ["push.mp4"])
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: ffprobe!)
    probe.arguments = [
      "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_type,width,height,r_frame_rate,nb_read_frames", "-of",
      "default=noprint_wrappers=1", file,
    ]
    let pipe = Pipe()
    probe.standardOutput = pipe
    try probe.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    #expect(probe.terminationStatus == 0)
    let fields = Set(output.split(separator: "\n").map(String.init))
    for line in [
      "codec_type=video", "width=102", "height=82", "r_frame_rate=20/1", "nb_read_frames=11",
    ] {
      #expect(fields.contains(line), "\(output)")
    }
  }

  /// Without `ffmpeg` on `PATH`: exit 69 naming `ffmpeg` before any frame, and an earlier
  /// video is kept.
  @Test func videoWithoutFFmpeg() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write("old.mp4", "earlier")
    let result = try SegueProcess.run(
      ["render", "--preset", "system", "--views", "bare", "--container", "40,30", "--video", file],
      environment: ["PATH": directory.path])
    #expect(result.status == 69)
    #expect(result.stderr.contains("segue render: --video:") && result.stderr.contains("'ffmpeg'"))
    #expect(try directory.contents() == ["old.mp4"])
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "earlier")
  }

  /// An `ffmpeg` that fails (a script that prints a message and exits 1 without reading):
  /// exit 69 with its message, nothing written, the earlier video and frames kept.
  @Test func failingFFmpeg() throws {
    let directory = try TemporaryDirectory()
    let bin = directory.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
    let fake = bin + "/ffmpeg"
    try Data("#!/bin/sh\necho 'Unknown encoder' >&2\nexit 1\n".utf8).write(
      to: URL(fileURLWithPath: fake))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
    let file = try directory.write("old.mp4", "earlier")
    let result = try SegueProcess.run(
      [
        "render", "--preset", "system", "--views", "bare", "--container", "40,30", "--video", file,
        "--output-dir",
        directory.path,
      ], environment: ["PATH": bin])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.stderr.contains("--video: ffmpeg failed (exit status 1): Unknown encoder"))
    #expect(try directory.contents() == ["bin", "old.mp4"])
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "earlier")
  }

  /// Rejected requests: an animation or video name of another kind (64), `--no-frames` with
  /// nothing else (64), unequal times for a video (65), repeated times for an animation (65),
  /// `--threads` outside 1…64 (65). Nothing is written. Run without `ffmpeg` on `PATH`: a bad
  /// request is reported as such before the missing tool.
  @Test func rejectedRequests() throws {
    let directory = try TemporaryDirectory()
    let base = [
      "render", "--preset", "ca-fade", "--views", "bare", "--container", "40,30", "--no-frames",
    ]
    let cases: [([String], Int32, String)] = [
      (["--animation", directory.path + "/a.bmp"], 64, "--animation: '"),
      (["--video", directory.path + "/a.avi"], 64, "must end in .mp4"),
      ([], 64, "--no-frames: without --filmstrip, --animation or --video writes nothing"),
      (
        ["--video", directory.path + "/a.mp4", "--times", "0,0.1,0.25"], 65,
        "--times: a video needs equally spaced sample times"
      ),
      (["--animation", directory.path + "/a.gif", "--times", "0,0.1,0.1"], 65, "--times: "),
      (["--animation", directory.path + "/a.gif", "--threads", "0"], 65, "--threads: "),
      (["--animation", directory.path + "/a.gif", "--threads", "65"], 65, "--threads: "),
    ]
    let emptyPath = try TemporaryDirectory()
    for (arguments, status, message) in cases {
      let result = try SegueProcess.run(base + arguments, environment: ["PATH": emptyPath.path])
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(try directory.contents().isEmpty)
  }

  /// One thread and two draw the same frames (the iOS screens: text, shapes), byte for byte.
  @Test func threadsGiveTheSameFrames() throws {
    let one = try TemporaryDirectory()
    let two = try TemporaryDirectory()
    for (directory, threads) in [(one, "1"), (two, "2")] {
      let result = try SegueProcess.run([
        "render", "--preset", "system", "--container", "60,40", "--fps", "10",
        "--threads", threads, "--output-dir", directory.path,
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let names = try one.contents()
    let others = try two.contents()
    #expect(names.count == 6 && names == others)
    for name in names {
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: one.path + "/" + name))
          == Data(contentsOf: URL(fileURLWithPath: two.path + "/" + name)), "\(name)")
    }
  }
}
