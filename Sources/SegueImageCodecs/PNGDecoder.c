// libpng decoding with the error jump kept inside this file's frames (see SegueImageCodecs.h).
#include "SegueImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
  int truncated;
  segue_codec_result *result;
} segue_png_source;

static void segue_png_read(png_structp png, png_bytep out, size_t length) {
  segue_png_source *source = (segue_png_source *)png_get_io_ptr(png);
  if (length > source->size - source->offset) {
    source->truncated = 1;
    png_error(png, "unexpected end of data");
  }
  memcpy(out, source->data + source->offset, length);
  source->offset += length;
}

static void segue_png_error(png_structp png, png_const_charp message) {
  segue_png_source *source = (segue_png_source *)png_get_error_ptr(png);
  snprintf(source->result->message, sizeof source->result->message, "%s", message);
  png_longjmp(png, 1);
}

static void segue_png_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

/// Expands every colour type to 8-bit RGBA, straight alpha, no gamma change.
static void segue_png_set_rgba8(png_structp png, png_infop info) {
  png_set_expand(png);
  png_set_scale_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
}

/// Reads the header and, when `rgba` is not NULL, the image.
static segue_codec_status segue_png_run(const uint8_t *data, size_t size, uint8_t *rgba,
                                        uint32_t width, uint32_t height,
                                        segue_codec_result *result) {
  segue_png_source source = {data, size, 0, 0, result};
  result->message[0] = 0;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, segue_png_error,
                                           segue_png_warning);
  if (png == NULL) return SEGUE_CODEC_OUT_OF_MEMORY;
  png_infop info = png_create_info_struct(png);
  if (info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    return SEGUE_CODEC_OUT_OF_MEMORY;
  }
  png_bytep *volatile rows = NULL;
  volatile segue_codec_status status = SEGUE_CODEC_OK;
  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    if (status != SEGUE_CODEC_OK) return status;
    return source.truncated ? SEGUE_CODEC_TRUNCATED : SEGUE_CODEC_CORRUPT;
  }
  png_set_read_fn(png, &source, segue_png_read);
  png_read_info(png, info);
  result->width = png_get_image_width(png, info);
  result->height = png_get_image_height(png, info);
  if (rgba != NULL) {
    if (result->width != width || result->height != height) {
      status = SEGUE_CODEC_SIZE_MISMATCH;
      png_error(png, "size differs from the header read before");
    }
    segue_png_set_rgba8(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size");
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (height > 0 ? height : 1));
    if (rows == NULL) {
      status = SEGUE_CODEC_OUT_OF_MEMORY;
      png_error(png, "out of memory");
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
  }
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);
  return SEGUE_CODEC_OK;
}

segue_codec_status segue_png_read_size(const uint8_t *data, size_t size,
                                       segue_codec_result *result) {
  return segue_png_run(data, size, NULL, 0, 0, result);
}

segue_codec_status segue_png_decode(const uint8_t *data, size_t size, uint8_t *rgba,
                                    uint32_t width, uint32_t height, segue_codec_result *result) {
  if (rgba == NULL) return SEGUE_CODEC_OUT_OF_MEMORY;
  return segue_png_run(data, size, rgba, width, height, result);
}
