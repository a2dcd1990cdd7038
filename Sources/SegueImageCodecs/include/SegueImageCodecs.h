// PNG and JPEG decoding through libpng and libjpeg-turbo for SegueRender's `BitmapImage`.
//
// libpng and libjpeg report fatal errors by longjmp. These functions set the jump target in
// their own C frames, so an error in a corrupt or truncated file unwinds only C code and comes
// back as a status; no jump ever crosses a Swift frame. Warnings are silenced.
#ifndef SEGUE_IMAGE_CODECS_H
#define SEGUE_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/// What a decoding call found.
typedef enum {
  /// The call succeeded.
  SEGUE_CODEC_OK = 0,
  /// The data is not a valid file of the format (the message says why).
  SEGUE_CODEC_CORRUPT = 1,
  /// The data ends before the file does.
  SEGUE_CODEC_TRUNCATED = 2,
  /// The header gives a size other than the one the caller allocated for.
  SEGUE_CODEC_SIZE_MISMATCH = 3,
  /// A working buffer could not be allocated.
  SEGUE_CODEC_OUT_OF_MEMORY = 4,
} segue_codec_status;

/// The image size a header gives, and the library's message when a call fails.
typedef struct {
  uint32_t width;
  uint32_t height;
  char message[200];
} segue_codec_result;

/// Reads a PNG header: `result->width`, `result->height`.
segue_codec_status segue_png_read_size(const uint8_t *data, size_t size, segue_codec_result *result);

/// Decodes a PNG of `width × height` pixels (as `segue_png_read_size` gave) into `rgba`
/// (`4·width·height` bytes, straight alpha, 8 bits per channel, rows top to bottom): every
/// colour type, bit depth, palette and tRNS transparency, and interlacing; 16-bit channels are
/// scaled to 8 bits with rounding; gamma, colour profiles and text chunks are ignored.
segue_codec_status segue_png_decode(const uint8_t *data, size_t size, uint8_t *rgba,
                                    uint32_t width, uint32_t height, segue_codec_result *result);

/// Reads a JPEG header: `result->width`, `result->height`.
segue_codec_status segue_jpeg_read_size(const uint8_t *data, size_t size, segue_codec_result *result);

/// Decodes a baseline or progressive JPEG (grayscale, YCbCr, RGB, CMYK or YCCK) into `rgba`
/// as `segue_png_decode` does (alpha 255). CMYK is converted as `R = (1 − C)(1 − K)` on the
/// stored values, inverted first when the file has an Adobe marker (as Photoshop writes them).
/// A file of more than 1000 scans is rejected as corrupt.
segue_codec_status segue_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba,
                                     uint32_t width, uint32_t height, segue_codec_result *result);

#endif  // SEGUE_IMAGE_CODECS_H
