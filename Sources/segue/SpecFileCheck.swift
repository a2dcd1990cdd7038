import Foundation
import Segue
import SegueRender
import SegueSpec

extension SpecDocument {
  /// Decodes every image and loads every font file the spec names
  /// (``SpecDocument/files``, already found in the spec's folder), so that a file that is not a
  /// usable PNG, JPEG or font is reported when the spec is read, at the JSON path naming it, and
  /// returns the decoded images (each file decoded once) for the renderer.
  ///
  /// - Throws: ``CLIError``: data error (65) on `argument` for a corrupt or truncated image, one
  ///   over the pixel budget, and a corrupt font or one without the face asked; no input (66)
  ///   for a file that cannot be read.
  func checkFileContents(argument: String) throws(CLIError) -> ContentsImages {
    var images = ContentsImages()
    for reference in files {
      switch reference.kind {
      case .image: try Self.decodeImage(reference, into: &images, argument: argument)
      case .font: try checkFont(reference, argument: argument)
      }
    }
    return images
  }

  private static func decodeImage(
    _ reference: SpecFileReference, into images: inout ContentsImages, argument: String
  ) throws(CLIError) {
    let image = ContentsImage.file(reference.location)
    guard images[image] == nil else { return }
    guard let data = FileManager.default.contents(atPath: reference.location) else {
      throw CLIError(
        .noInput, argument, "\(reference.jsonPath): cannot read the image '\(reference.path)'")
    }
    do { try images.decode([UInt8](data), for: image) } catch {
      throw CLIError(
        .dataError, argument,
        "\(reference.jsonPath): the image '\(reference.path)' cannot be decoded: \(error)")
    }
  }

  private func checkFont(_ reference: SpecFileReference, argument: String) throws(CLIError) {
    guard case .text(let text)? = scene.model[id: reference.layerID]?.kind,
      case .file(_, let faceIndex) = text.font
    else { return }
    do {
      _ = try FontFace(
        file: FontFile(path: reference.location, faceIndex: faceIndex),
        maximumFileSize: SpecFile.maximumFileSize)
    } catch {
      throw CLIError(
        .dataError, argument,
        "\(reference.jsonPath): the font '\(reference.path)' cannot be used: \(error)")
    }
  }
}
