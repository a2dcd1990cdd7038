// Vector primitives for SegueRender's span kernels that Swift's SIMD types do not compile well
// (the standard library's `clamped`, `pointwiseMin` and integer conversions are out-of-line
// scalar loops with NaN handling): premultiplied-alpha broadcast, clamping, and quantisation to
// bytes. Header-only and always inlined, so they are compiled with the Swift caller's target
// CPU (one or two AVX-512 instructions each with `-target-cpu native`).
#ifndef SEGUE_RENDER_SUPPORT_H
#define SEGUE_RENDER_SUPPORT_H

#include <stdint.h>

#include "SegueSIMDSupport.h"

/// `min(max(v, 0), 1)` lane by lane (no NaN in the kernels' inputs: every Float image holds
/// values in [0, 1]).
static inline __attribute__((always_inline)) segue_f32x16 segue_clamp01_f32x16(segue_f32x16 v) {
  segue_f32x16 zero = 0.0f;
  segue_f32x16 one = 1.0f;
  return __builtin_elementwise_min(__builtin_elementwise_max(v, zero), one);
}

/// Four floats (one RGBA pixel), imported into Swift as `SIMD4<Float>`.
typedef float segue_f32x4 __attribute__((ext_vector_type(4)));

/// `min(max(v, 0), 1)` lane by lane for one pixel.
static inline __attribute__((always_inline)) segue_f32x4 segue_clamp01_f32x4(segue_f32x4 v) {
  segue_f32x4 zero = 0.0f;
  segue_f32x4 one = 1.0f;
  return __builtin_elementwise_min(__builtin_elementwise_max(v, zero), one);
}

/// Four RGBA pixels' alphas, each repeated over its pixel's four lanes:
/// `(a0 a0 a0 a0 a1 a1 a1 a1 a2 … a3)`.
static inline __attribute__((always_inline)) segue_f32x16 segue_alpha_f32x16(segue_f32x16 v) {
  return __builtin_shufflevector(v, v, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
}

/// `⌊255·clamp(v, 0, 1) + ½⌋` lane by lane as bytes: round half up, which for these
/// non-negative values is the round-half-away-from-zero of `PixelBufferRGBA8.quantise` (up to
/// the single-precision rounding of `255·v`).
static inline __attribute__((always_inline)) segue_u8x16 segue_quantise_f32x16(segue_f32x16 v) {
  segue_f32x16 zero = 0.0f;
  segue_f32x16 one = 1.0f;
  segue_f32x16 clamped = __builtin_elementwise_min(__builtin_elementwise_max(v, zero), one);
  segue_f32x16 scaled = clamped * 255.0f + 0.5f;
  return __builtin_convertvector(__builtin_convertvector(scaled, segue_i32x16), segue_u8x16);
}

/// Sixteen floats from `p` (any alignment).
static inline __attribute__((always_inline)) segue_f32x16 segue_load_f32x16(const float *p) {
  segue_f32x16 v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}

/// Sixteen bytes to `p` (any alignment).
static inline __attribute__((always_inline)) void segue_store_u8x16(uint8_t *p, segue_u8x16 v) {
  __builtin_memcpy(p, &v, sizeof(v));
}

/// Sixteen 16-bit integers (internal to the helpers below).
typedef int16_t segue_i16x16 __attribute__((ext_vector_type(16)));
typedef uint16_t segue_u16x16 __attribute__((ext_vector_type(16)));

/// PNG's filter cost of 16 filtered bytes: `Σ min(d, 256 − d)`, each byte read as signed and
/// taken in absolute value (at most 16·128 = 2048).
static inline __attribute__((always_inline)) uint32_t segue_png_cost_u8x16(segue_u8x16 d) {
  segue_u8x16 zero = 0;
  segue_u8x16 m = __builtin_elementwise_min(d, zero - d);
  return __builtin_reduce_add(__builtin_convertvector(m, segue_u16x16));
}

/// PNG's Paeth predictor for 16 bytes (specification §9.4): of `a` (left), `b` (above) and `c`
/// (above-left), the one closest to `a + b − c`, ties to `a`, then `b`.
static inline __attribute__((always_inline)) segue_u8x16 segue_paeth_u8x16(segue_u8x16 a,
                                                                           segue_u8x16 b,
                                                                           segue_u8x16 c) {
  segue_i16x16 wa = __builtin_convertvector(a, segue_i16x16);
  segue_i16x16 wb = __builtin_convertvector(b, segue_i16x16);
  segue_i16x16 wc = __builtin_convertvector(c, segue_i16x16);
  segue_i16x16 pa = __builtin_elementwise_abs(wb - wc);
  segue_i16x16 pb = __builtin_elementwise_abs(wa - wc);
  segue_i16x16 pc = __builtin_elementwise_abs(wa + wb - wc - wc);
  segue_i16x16 predicted = (pa <= pb & pa <= pc) ? wa : ((pb <= pc) ? wb : wc);
  return __builtin_convertvector(predicted, segue_u8x16);
}

/// Sixteen bytes from `p` (any alignment).
static inline __attribute__((always_inline)) segue_u8x16 segue_load_u8x16(const uint8_t *p) {
  segue_u8x16 v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}

#endif  // SEGUE_RENDER_SUPPORT_H
