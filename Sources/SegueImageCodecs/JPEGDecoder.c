// libjpeg-turbo decoding with the error jump kept inside this file's frames (see
// SegueImageCodecs.h).
#include "SegueImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// More scans than any real progressive file has; a file with more is a decoding-time bomb.
#define SEGUE_JPEG_MAX_SCANS 1000

typedef struct {
  struct jpeg_error_mgr base;
  struct jpeg_progress_mgr progress;
  jmp_buf jump;
  int truncated;
  segue_codec_result *result;
} segue_jpeg_state;

static void segue_jpeg_fail(j_common_ptr cinfo) {
  segue_jpeg_state *state = (segue_jpeg_state *)cinfo->err;
  char text[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, text);
  snprintf(state->result->message, sizeof state->result->message, "%s", text);
  longjmp(state->jump, 1);
}

/// Silences messages; the end of the data (libjpeg would pad it with a fake end marker and
/// decode grey) is a failure.
static void segue_jpeg_message(j_common_ptr cinfo, int level) {
  segue_jpeg_state *state = (segue_jpeg_state *)cinfo->err;
  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
    state->truncated = 1;
    snprintf(state->result->message, sizeof state->result->message, "unexpected end of data");
    longjmp(state->jump, 1);
  }
  if (level < 0) cinfo->err->num_warnings++;
}

static void segue_jpeg_progress(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  j_decompress_ptr d = (j_decompress_ptr)cinfo;
  if (d->input_scan_number > SEGUE_JPEG_MAX_SCANS) {
    segue_jpeg_state *state = (segue_jpeg_state *)cinfo->err;
    snprintf(state->result->message, sizeof state->result->message, "more than %d scans",
             SEGUE_JPEG_MAX_SCANS);
    longjmp(state->jump, 1);
  }
}

/// CMYK (inverted when `adobe`) to RGBA in place, 4 bytes per pixel.
static void segue_jpeg_cmyk_to_rgba(uint8_t *row, uint32_t width, int adobe) {
  for (uint32_t x = 0; x < width; x++) {
    uint8_t *p = row + 4 * (size_t)x;
    unsigned c = p[0], m = p[1], y = p[2], k = p[3];
    if (!adobe) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    // With inverted values c' = 1 − C: R = (1 − C)(1 − K) = c'·k'.
    p[0] = (uint8_t)((c * k + 127) / 255);
    p[1] = (uint8_t)((m * k + 127) / 255);
    p[2] = (uint8_t)((y * k + 127) / 255);
    p[3] = 255;
  }
}

static segue_codec_status segue_jpeg_pixels(j_decompress_ptr cinfo, uint8_t *rgba,
                                            uint32_t width, uint32_t height) {
  int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
  cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  cinfo->dct_method = JDCT_ISLOW;
  jpeg_start_decompress(cinfo);
  if (cinfo->output_width != width || cinfo->output_height != height ||
      cinfo->output_components != 4)
    return SEGUE_CODEC_SIZE_MISMATCH;
  while (cinfo->output_scanline < cinfo->output_height) {
    JSAMPROW row = rgba + (size_t)cinfo->output_scanline * width * 4;
    if (jpeg_read_scanlines(cinfo, &row, 1) != 1) return SEGUE_CODEC_CORRUPT;
    if (cmyk) segue_jpeg_cmyk_to_rgba(row, width, cinfo->saw_Adobe_marker);
  }
  jpeg_finish_decompress(cinfo);
  return SEGUE_CODEC_OK;
}

static segue_codec_status segue_jpeg_run(const uint8_t *data, size_t size, uint8_t *rgba,
                                         uint32_t width, uint32_t height,
                                         segue_codec_result *result) {
  struct jpeg_decompress_struct cinfo;
  segue_jpeg_state state;
  memset(&state, 0, sizeof state);
  state.result = result;
  result->message[0] = 0;
  cinfo.err = jpeg_std_error(&state.base);
  state.base.error_exit = segue_jpeg_fail;
  state.base.emit_message = segue_jpeg_message;
  if (setjmp(state.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return state.truncated ? SEGUE_CODEC_TRUNCATED : SEGUE_CODEC_CORRUPT;
  }
  jpeg_create_decompress(&cinfo);
  state.progress.progress_monitor = segue_jpeg_progress;
  cinfo.progress = &state.progress;
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  result->width = cinfo.image_width;
  result->height = cinfo.image_height;
  segue_codec_status status = SEGUE_CODEC_OK;
  if (rgba != NULL) {
    if (cinfo.image_width != width || cinfo.image_height != height)
      status = SEGUE_CODEC_SIZE_MISMATCH;
    else
      status = segue_jpeg_pixels(&cinfo, rgba, width, height);
  }
  jpeg_destroy_decompress(&cinfo);
  return status;
}

segue_codec_status segue_jpeg_read_size(const uint8_t *data, size_t size,
                                        segue_codec_result *result) {
  return segue_jpeg_run(data, size, NULL, 0, 0, result);
}

segue_codec_status segue_jpeg_decode(const uint8_t *data, size_t size, uint8_t *rgba,
                                     uint32_t width, uint32_t height, segue_codec_result *result) {
  if (rgba == NULL) return SEGUE_CODEC_OUT_OF_MEMORY;
  return segue_jpeg_run(data, size, rgba, width, height, result);
}
