// The bilinear span kernel of SegueRender's image sampler, vectorised for the CPU at hand
// (chosen at run time: AVX-512, AVX2, or none). See `segue_bilinear_span` in the header for the
// arithmetic, which repeats the Swift kernel's operation for operation (no fused multiply-add).
#include "SegueSIMDSupport.h"

#pragma clang fp contract(off)

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// The fixed-point clamp of a texel coordinate (`±fixedLimit` in the Swift kernel).
#define SEGUE_FIXED_LIMIT 16000.0f
/// `1.5·2²³`: added to a float below 2²², it leaves the rounded integer in the low mantissa bits.
#define SEGUE_ROUNDING_BIAS 12582912.0f
/// The bit pattern of `SEGUE_ROUNDING_BIAS`.
#define SEGUE_ROUNDING_BITS 0x4B400000
/// How far ahead of a window row's first texel the row is prefetched, in texels (about two
/// steps of a run that advances a texel per pixel; measured: 16, 48 and 64 do worse, and no
/// prefetch 14 % worse).
#define SEGUE_PREFETCH_AHEAD 32

/// Prefetches the texel `ahead` texels after `p` into L1 (an address past the image is never
/// read: a prefetch does not fault).
static inline void segue_prefetch_texel(const int *p, int ahead) {
  _mm_prefetch((const char *)((uintptr_t)p + 4 * (uintptr_t)ahead), _MM_HINT_T0);
}

// MARK: AVX2, 8 pixels per step

/// `round(256·v)` for `v` clamped to `±SEGUE_FIXED_LIMIT` (a NaN lane passes the clamp, as in
/// Swift's masked selects, and gives some index the caller clamps).
__attribute__((target("avx2"))) static inline __m256i segue_fixed_avx2(__m256 v) {
  __m256 c = _mm256_max_ps(_mm256_set1_ps(-SEGUE_FIXED_LIMIT), v);
  c = _mm256_min_ps(_mm256_set1_ps(SEGUE_FIXED_LIMIT), c);
  __m256 biased = _mm256_add_ps(_mm256_mul_ps(c, _mm256_set1_ps(256.0f)),
                                _mm256_set1_ps(SEGUE_ROUNDING_BIAS));
  return _mm256_sub_epi32(_mm256_castps_si256(biased), _mm256_set1_epi32(SEGUE_ROUNDING_BITS));
}

/// The words of each pixel's weight `w << shift` (`w` a 32-bit lane per pixel) in the four
/// channel words of that pixel, for the pixels of `unpacklo_epi8` (`lo`) and `unpackhi_epi8`
/// (`hi`): pixels 0, 1 and 2, 3 of each 128-bit lane.
__attribute__((target("avx2"))) static inline void segue_weight_words_avx2(__m256i w, int shift,
                                                                           __m256i *lo,
                                                                           __m256i *hi) {
  __m256i v = _mm256_sll_epi32(w, _mm_cvtsi32_si128(shift));
  *lo = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5, 0,
                                                1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5));
  *hi = _mm256_shuffle_epi8(v, _mm256_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12,
                                                13, 8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12,
                                                13, 12, 13));
}

/// `a + ⌊((b − a)·w + 128)/256⌋` per 16-bit channel (`a`, `b` in `0…255`) for `m = 128·w`,
/// `w` in `0…255`: `vpmulhrsw` gives `⌊(x·m + 2¹⁴)/2¹⁵⌋`. This is `⌊(a·(256 − w) + b·w +
/// 128)/256⌋`, the Swift kernel's `lerp`, exactly.
__attribute__((target("avx2"))) static inline __m256i segue_lerp_words_avx2(__m256i a, __m256i b,
                                                                            __m256i m) {
  return _mm256_add_epi16(a, _mm256_mulhrs_epi16(_mm256_sub_epi16(b, a), m));
}

/// The bilinear mix of eight pixels' texels `a b / c d` (RGBA8) by their fractions `wx`, `wy`
/// (`0…255`): the Swift kernel's three `lerp`s, on 16-bit channels.
__attribute__((target("avx2"))) static inline __m256i segue_mix_avx2(__m256i a, __m256i b,
                                                                     __m256i c, __m256i d,
                                                                     __m256i wx, __m256i wy) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i xlo, xhi, ylo, yhi;
  segue_weight_words_avx2(wx, 7, &xlo, &xhi);
  segue_weight_words_avx2(wy, 7, &ylo, &yhi);
  __m256i toplo = segue_lerp_words_avx2(_mm256_unpacklo_epi8(a, zero),
                                        _mm256_unpacklo_epi8(b, zero), xlo);
  __m256i tophi = segue_lerp_words_avx2(_mm256_unpackhi_epi8(a, zero),
                                        _mm256_unpackhi_epi8(b, zero), xhi);
  __m256i lowlo = segue_lerp_words_avx2(_mm256_unpacklo_epi8(c, zero),
                                        _mm256_unpacklo_epi8(d, zero), xlo);
  __m256i lowhi = segue_lerp_words_avx2(_mm256_unpackhi_epi8(c, zero),
                                        _mm256_unpackhi_epi8(d, zero), xhi);
  return _mm256_packus_epi16(segue_lerp_words_avx2(toplo, lowlo, ylo),
                             segue_lerp_words_avx2(tophi, lowhi, yhi));
}

/// The Swift kernel's `lerp(a, b, w)` of eight RGBA8 pixels for `w` in `0…256` (the mix of
/// two mip levels): `vpmulhrsw` of `2·(b − a)` by `64·w`, which is `(b − a)·128w` again.
__attribute__((target("avx2"))) static inline __m256i segue_lerp_avx2(__m256i a, __m256i b,
                                                                      __m256i w) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i wlo, whi;
  segue_weight_words_avx2(w, 6, &wlo, &whi);
  __m256i alo = _mm256_unpacklo_epi8(a, zero), ahi = _mm256_unpackhi_epi8(a, zero);
  __m256i dlo = _mm256_sub_epi16(_mm256_unpacklo_epi8(b, zero), alo);
  __m256i dhi = _mm256_sub_epi16(_mm256_unpackhi_epi8(b, zero), ahi);
  return _mm256_packus_epi16(
      _mm256_add_epi16(alo, _mm256_mulhrs_epi16(_mm256_add_epi16(dlo, dlo), wlo)),
      _mm256_add_epi16(ahi, _mm256_mulhrs_epi16(_mm256_add_epi16(dhi, dhi), whi)));
}

/// Lane `i` of the 16 texels `lo ‖ hi` at `index[i]` (`0…15`; `high`: `index[i] > 7`).
__attribute__((target("avx2"))) static inline __m256i segue_pick16_avx2(__m256i lo, __m256i hi,
                                                                        __m256i index,
                                                                        __m256i high) {
  return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, index),
                            _mm256_permutevar8x32_epi32(hi, index), high);
}

/// The four texels of each lane (`a = (i0, j0)`, `b = (i1, j0)`, `c = (i0, j1)`,
/// `d = (i1, j1)`) without gathers when the columns lie in a window of
/// `SEGUE_WINDOW_AVX2` texels and the rows in `SEGUE_WINDOW_ROWS` rows: per row, two loads and
/// a permute per column vector, kept in the lanes whose row it is. Returns 0 (and writes
/// nothing) otherwise, or when the image is narrower than the window.
#define SEGUE_WINDOW_AVX2 16
#define SEGUE_WINDOW_ROWS 8
__attribute__((target("avx2"))) static inline int segue_window_texels_avx2(
    const segue_bilinear_level *level, __m256i i0, __m256i i1, __m256i j0, __m256i j1,
    __m256i *a, __m256i *b, __m256i *c, __m256i *d) {
  // The projective map is monotonic along a run, so the ends hold the extremes; the masks
  // below check every lane anyway.
  int first = _mm256_cvtsi256_si32(i0), last = _mm256_extract_epi32(i0, 7);
  int base = first < last ? first : last;
  if (base > level->width - SEGUE_WINDOW_AVX2) base = level->width - SEGUE_WINDOW_AVX2;
  int top = _mm256_cvtsi256_si32(j0), end = _mm256_extract_epi32(j0, 7);
  top = top < end ? top : end;
  int rowFirst = _mm256_cvtsi256_si32(j1), rowLast = _mm256_extract_epi32(j1, 7);
  int bottom = rowFirst > rowLast ? rowFirst : rowLast;
  if (base < 0 || bottom - top >= SEGUE_WINDOW_ROWS) return 0;
  __m256i u0 = _mm256_sub_epi32(i0, _mm256_set1_epi32(base));
  __m256i u1 = _mm256_sub_epi32(i1, _mm256_set1_epi32(base));
  const __m256i zero = _mm256_setzero_si256(), right = _mm256_set1_epi32(SEGUE_WINDOW_AVX2 - 1);
  __m256i outside = _mm256_or_si256(
      _mm256_or_si256(_mm256_cmpgt_epi32(zero, u0), _mm256_cmpgt_epi32(u1, right)),
      _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(top), j0),
                      _mm256_cmpgt_epi32(j1, _mm256_set1_epi32(bottom))));
  if (!_mm256_testz_si256(outside, outside)) return 0;
  *a = *b = *c = *d = zero;
  const __m256i seven = _mm256_set1_epi32(7);
  __m256i high0 = _mm256_cmpgt_epi32(u0, seven), high1 = _mm256_cmpgt_epi32(u1, seven);
  const int *p = (const int *)level->texels + top * level->width + base;
  for (int row = top; row <= bottom; row++, p += level->width) {
    segue_prefetch_texel(p, SEGUE_PREFETCH_AHEAD);
    __m256i lo = _mm256_loadu_si256((const __m256i *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(p + 8));
    __m256i left = segue_pick16_avx2(lo, hi, u0, high0);
    __m256i next = segue_pick16_avx2(lo, hi, u1, high1);
    __m256i on0 = _mm256_cmpeq_epi32(j0, _mm256_set1_epi32(row));
    __m256i on1 = _mm256_cmpeq_epi32(j1, _mm256_set1_epi32(row));
    *a = _mm256_blendv_epi8(*a, left, on0);
    *b = _mm256_blendv_epi8(*b, next, on0);
    *c = _mm256_blendv_epi8(*c, left, on1);
    *d = _mm256_blendv_epi8(*d, next, on1);
  }
  return 1;
}

/// The squared lengths of the footprint's columns in texels, `|∂(s, t)/∂x|²` (`along`) and
/// `|∂(s, t)/∂y|²` (`across`), as the Swift kernel computes them.
__attribute__((target("avx2"))) static inline void segue_footprint_avx2(
    const segue_texel_span *span, __m256 s, __m256 t, __m256 inverse, __m256 *along,
    __m256 *across) {
  const __m256 dw = _mm256_set1_ps(span->dw), rdw = _mm256_set1_ps(span->row_dw);
  __m256 ax = _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(span->dx), _mm256_mul_ps(s, dw)), inverse);
  __m256 ay = _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(span->dy), _mm256_mul_ps(t, dw)), inverse);
  __m256 bx =
      _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(span->row_dx), _mm256_mul_ps(s, rdw)), inverse);
  __m256 by =
      _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(span->row_dy), _mm256_mul_ps(t, rdw)), inverse);
  *along = _mm256_add_ps(_mm256_mul_ps(ax, ax), _mm256_mul_ps(ay, ay));
  *across = _mm256_add_ps(_mm256_mul_ps(bx, bx), _mm256_mul_ps(by, by));
}

/// The fixed-point texel coordinates `round(256·v)` on `level` of the level-0 texel points
/// `(s, t)`: `v = s·scale_x − ½` and `t·scale_y − ½`.
__attribute__((target("avx2"))) static inline void segue_texel_point_avx2(
    const segue_bilinear_level *level, __m256 s, __m256 t, __m256i *x, __m256i *y) {
  const __m256 half = _mm256_set1_ps(0.5f);
  *x = segue_fixed_avx2(_mm256_sub_ps(_mm256_mul_ps(s, _mm256_set1_ps(level->scale_x)), half));
  *y = segue_fixed_avx2(_mm256_sub_ps(_mm256_mul_ps(t, _mm256_set1_ps(level->scale_y)), half));
}

/// Bilinear on `level` at the fixed-point texel coordinates `(x, y)` of eight pixels.
__attribute__((target("avx2"))) static inline __m256i segue_bilinear_fixed_avx2(
    const segue_bilinear_level *level, __m256i x, __m256i y) {
  const __m256i zero = _mm256_setzero_si256(), step = _mm256_set1_epi32(1);
  const __m256i right = _mm256_set1_epi32(level->width - 1);
  const __m256i bottom = _mm256_set1_epi32(level->height - 1);
  const __m256i fraction = _mm256_set1_epi32(255);
  __m256i xi = _mm256_srai_epi32(x, 8), yi = _mm256_srai_epi32(y, 8);
  __m256i i0 = _mm256_min_epi32(_mm256_max_epi32(xi, zero), right);
  __m256i i1 = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(xi, step), zero), right);
  __m256i j0 = _mm256_min_epi32(_mm256_max_epi32(yi, zero), bottom);
  __m256i j1 = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(yi, step), zero), bottom);
  __m256i a, b, c, d;
  if (!segue_window_texels_avx2(level, i0, i1, j0, j1, &a, &b, &c, &d)) {
    const int *texels = (const int *)level->texels;
    const __m256i width = _mm256_set1_epi32(level->width);
    __m256i r0 = _mm256_mullo_epi32(j0, width), r1 = _mm256_mullo_epi32(j1, width);
    a = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r0, i0), 4);
    b = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r0, i1), 4);
    c = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r1, i0), 4);
    d = _mm256_i32gather_epi32(texels, _mm256_add_epi32(r1, i1), 4);
  }
  return segue_mix_avx2(a, b, c, d, _mm256_and_si256(x, fraction), _mm256_and_si256(y, fraction));
}

/// Bilinear on `level` at the level-0 texel points `(s, t)` of eight pixels.
__attribute__((target("avx2"))) static inline __m256i segue_bilinear_avx2(
    const segue_bilinear_level *level, __m256 s, __m256 t) {
  __m256i x, y;
  segue_texel_point_avx2(level, s, t, &x, &y);
  return segue_bilinear_fixed_avx2(level, x, y);
}

/// The texel points `(s, t)` of the eight pixels from `k`: `r = 1/(w + k·dw)`,
/// `s = (x + k·dx)·r`, `t = (y + k·dy)·r`; `inverse` is `r`.
__attribute__((target("avx2"))) static inline void segue_span_point_avx2(
    const segue_texel_span *span, int k, __m256 *s, __m256 *t, __m256 *inverse) {
  const __m256 lanes = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
  __m256 kf = _mm256_add_ps(_mm256_set1_ps((float)k), lanes);
  __m256 w = _mm256_add_ps(_mm256_set1_ps(span->w), _mm256_mul_ps(kf, _mm256_set1_ps(span->dw)));
  *inverse = _mm256_div_ps(_mm256_set1_ps(1.0f), w);
  __m256 s0 = _mm256_add_ps(_mm256_set1_ps(span->x), _mm256_mul_ps(kf, _mm256_set1_ps(span->dx)));
  *s = _mm256_mul_ps(s0, *inverse);
  __m256 t0 = _mm256_add_ps(_mm256_set1_ps(span->y), _mm256_mul_ps(kf, _mm256_set1_ps(span->dy)));
  *t = _mm256_mul_ps(t0, *inverse);
}

/// `SEGUE_SPAN_LINEAR` on level 0, software-pipelined: the texel point of the next step (its
/// divide) is computed before this step's texels are read, so the two overlap. The last step
/// writes only the pixels left (masked), so the run ends at `count`.
__attribute__((target("avx2"))) static int segue_linear_span_avx2(
    const segue_bilinear_level *level, const segue_texel_span *span, int start, int count,
    uint8_t *out) {
  int k = start;
  if (k >= count) return k;
  __m256 s, t, inverse;
  __m256i x, y;
  segue_span_point_avx2(span, k, &s, &t, &inverse);
  segue_texel_point_avx2(level, s, t, &x, &y);
  for (; count - k > 8; k += 8) {
    __m256i nx, ny;
    segue_span_point_avx2(span, k + 8, &s, &t, &inverse);
    segue_texel_point_avx2(level, s, t, &nx, &ny);
    _mm256_storeu_si256((__m256i *)(out + 4 * k), segue_bilinear_fixed_avx2(level, x, y));
    x = nx;
    y = ny;
  }
  __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i left = _mm256_cmpgt_epi32(_mm256_set1_epi32(count - k), lanes);
  _mm256_maskstore_epi32((int *)(out + 4 * k), left, segue_bilinear_fixed_avx2(level, x, y));
  return count;
}

/// `log₂ v` within 0.01 (the Swift kernel's: the exponent plus `m + 0.3466·m(1 − m)` for the
/// mantissa `1 + m`).
__attribute__((target("avx2"))) static inline __m256 segue_log2_avx2(__m256 v) {
  __m256i bits = _mm256_castps_si256(v);
  __m256 exponent = _mm256_cvtepi32_ps(_mm256_sub_epi32(
      _mm256_and_si256(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(0xFF)),
      _mm256_set1_epi32(127)));
  __m256 m = _mm256_sub_ps(
      _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007FFFFF)),
                                          _mm256_set1_epi32(0x3F800000))),
      _mm256_set1_ps(1.0f));
  __m256 curve = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.346607f), m),
                               _mm256_sub_ps(_mm256_set1_ps(1.0f), m));
  return _mm256_add_ps(_mm256_add_ps(exponent, m), curve);
}

__attribute__((target("avx2"))) static int segue_bilinear_span_avx2(
    const segue_bilinear_level *levels, int level_count, const segue_texel_span *span,
    int start, int count, int mode, uint8_t *out) {
  if (mode == SEGUE_SPAN_LINEAR) return segue_linear_span_avx2(levels, span, start, count, out);
  const __m256 one = _mm256_set1_ps(1.0f), top = _mm256_set1_ps((float)(level_count - 1));
  int k = start;
  if (k + 8 > count) return k;
  __m256 s, t, inverse, along, across;
  segue_span_point_avx2(span, k, &s, &t, &inverse);
  for (; k + 8 <= count; k += 8) {
    // The next step's point first: its divide overlaps this step's texels.
    __m256 ns, nt, ninverse;
    segue_span_point_avx2(span, k + 8, &ns, &nt, &ninverse);
    segue_footprint_avx2(span, s, t, inverse, &along, &across);
    __m256 ordered = _mm256_and_ps(_mm256_cmp_ps(along, along, _CMP_ORD_Q),
                                   _mm256_cmp_ps(across, across, _CMP_ORD_Q));
    if (_mm256_movemask_ps(ordered) != 0xFF) break;
    __m256 rho2 = _mm256_max_ps(along, across);
    __m256 minifies = _mm256_cmp_ps(rho2, one, _CMP_GT_OQ);
    __m256i pixel;
    if (mode == SEGUE_SPAN_MAGNIFYING) {
      if (_mm256_movemask_ps(minifies) != 0) break;
      pixel = segue_bilinear_avx2(levels, s, t);
    } else {
      __m256 lod =
          _mm256_and_ps(minifies, _mm256_mul_ps(_mm256_set1_ps(0.5f), segue_log2_avx2(rho2)));
      __m256 level = _mm256_min_ps(top, lod);
      __m256i index = _mm256_cvttps_epi32(level);
      int first = _mm256_cvtsi256_si32(index);
      __m256i same = _mm256_cmpeq_epi32(index, _mm256_set1_epi32(first));
      if (_mm256_movemask_ps(_mm256_castsi256_ps(same)) != 0xFF) break;
      __m256i mix = _mm256_cvttps_epi32(_mm256_add_ps(
          _mm256_mul_ps(_mm256_sub_ps(level, _mm256_cvtepi32_ps(index)), _mm256_set1_ps(256.0f)),
          _mm256_set1_ps(0.5f)));
      pixel = segue_bilinear_avx2(levels + first, s, t);
      if (first + 1 < level_count && !_mm256_testz_si256(mix, mix))
        pixel = segue_lerp_avx2(pixel, segue_bilinear_avx2(levels + first + 1, s, t), mix);
    }
    _mm256_storeu_si256((__m256i *)(out + 4 * k), pixel);
    s = ns;
    t = nt;
    inverse = ninverse;
  }
  return k;
}

// MARK: AVX-512 (F and BW), 16 pixels per step

__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_fixed_avx512(__m512 v) {
  __m512 c = _mm512_max_ps(_mm512_set1_ps(-SEGUE_FIXED_LIMIT), v);
  c = _mm512_min_ps(_mm512_set1_ps(SEGUE_FIXED_LIMIT), c);
  __m512 biased = _mm512_add_ps(_mm512_mul_ps(c, _mm512_set1_ps(256.0f)),
                                _mm512_set1_ps(SEGUE_ROUNDING_BIAS));
  return _mm512_sub_epi32(_mm512_castps_si512(biased), _mm512_set1_epi32(SEGUE_ROUNDING_BITS));
}

/// ``segue_weight_words_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline void segue_weight_words_avx512(
    __m512i w, int shift, __m512i *lo, __m512i *hi) {
  __m512i v = _mm512_sll_epi32(w, _mm_cvtsi32_si128(shift));
  *lo = _mm512_shuffle_epi8(
      v, _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5)));
  *hi = _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(_mm_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13,
                                                                    12, 13, 12, 13, 12, 13)));
}

/// ``segue_lerp_words_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_lerp_words_avx512(
    __m512i a, __m512i b, __m512i m) {
  return _mm512_add_epi16(a, _mm512_mulhrs_epi16(_mm512_sub_epi16(b, a), m));
}

/// ``segue_mix_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_mix_avx512(
    __m512i a, __m512i b, __m512i c, __m512i d, __m512i wx, __m512i wy) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i xlo, xhi, ylo, yhi;
  segue_weight_words_avx512(wx, 7, &xlo, &xhi);
  segue_weight_words_avx512(wy, 7, &ylo, &yhi);
  __m512i toplo = segue_lerp_words_avx512(_mm512_unpacklo_epi8(a, zero),
                                          _mm512_unpacklo_epi8(b, zero), xlo);
  __m512i tophi = segue_lerp_words_avx512(_mm512_unpackhi_epi8(a, zero),
                                          _mm512_unpackhi_epi8(b, zero), xhi);
  __m512i lowlo = segue_lerp_words_avx512(_mm512_unpacklo_epi8(c, zero),
                                          _mm512_unpacklo_epi8(d, zero), xlo);
  __m512i lowhi = segue_lerp_words_avx512(_mm512_unpackhi_epi8(c, zero),
                                          _mm512_unpackhi_epi8(d, zero), xhi);
  return _mm512_packus_epi16(segue_lerp_words_avx512(toplo, lowlo, ylo),
                             segue_lerp_words_avx512(tophi, lowhi, yhi));
}

/// ``segue_lerp_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_lerp_avx512(__m512i a,
                                                                                   __m512i b,
                                                                                   __m512i w) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i wlo, whi;
  segue_weight_words_avx512(w, 6, &wlo, &whi);
  __m512i alo = _mm512_unpacklo_epi8(a, zero), ahi = _mm512_unpackhi_epi8(a, zero);
  __m512i dlo = _mm512_sub_epi16(_mm512_unpacklo_epi8(b, zero), alo);
  __m512i dhi = _mm512_sub_epi16(_mm512_unpackhi_epi8(b, zero), ahi);
  return _mm512_packus_epi16(
      _mm512_add_epi16(alo, _mm512_mulhrs_epi16(_mm512_add_epi16(dlo, dlo), wlo)),
      _mm512_add_epi16(ahi, _mm512_mulhrs_epi16(_mm512_add_epi16(dhi, dhi), whi)));
}

/// ``segue_window_texels_avx2`` with 16 lanes and a window of `SEGUE_WINDOW_AVX512` texels
/// (a two-register permute).
#define SEGUE_WINDOW_AVX512 32
__attribute__((target("avx512f,avx512bw"))) static inline int segue_window_texels_avx512(
    const segue_bilinear_level *level, __m512i i0, __m512i i1, __m512i j0, __m512i j1,
    __m512i *a, __m512i *b, __m512i *c, __m512i *d) {
  int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(i0));
  int last = _mm_extract_epi32(_mm512_extracti32x4_epi32(i0, 3), 3);
  int base = first < last ? first : last;
  if (base > level->width - SEGUE_WINDOW_AVX512) base = level->width - SEGUE_WINDOW_AVX512;
  int top = _mm_cvtsi128_si32(_mm512_castsi512_si128(j0));
  int end = _mm_extract_epi32(_mm512_extracti32x4_epi32(j0, 3), 3);
  top = top < end ? top : end;
  int rowFirst = _mm_cvtsi128_si32(_mm512_castsi512_si128(j1));
  int rowLast = _mm_extract_epi32(_mm512_extracti32x4_epi32(j1, 3), 3);
  int bottom = rowFirst > rowLast ? rowFirst : rowLast;
  if (base < 0 || bottom - top >= SEGUE_WINDOW_ROWS) return 0;
  __m512i u0 = _mm512_sub_epi32(i0, _mm512_set1_epi32(base));
  __m512i u1 = _mm512_sub_epi32(i1, _mm512_set1_epi32(base));
  const __m512i right = _mm512_set1_epi32(SEGUE_WINDOW_AVX512 - 1);
  __mmask16 inside = _mm512_cmple_epu32_mask(u0, right) & _mm512_cmple_epu32_mask(u1, right) &
                     _mm512_cmpge_epi32_mask(j0, _mm512_set1_epi32(top)) &
                     _mm512_cmple_epi32_mask(j1, _mm512_set1_epi32(bottom));
  if (inside != 0xFFFF) return 0;
  *a = *b = *c = *d = _mm512_setzero_si512();
  const int *p = (const int *)level->texels + top * level->width + base;
  for (int row = top; row <= bottom; row++, p += level->width) {
    segue_prefetch_texel(p, SEGUE_PREFETCH_AHEAD);
    __m512i lo = _mm512_loadu_si512((const void *)p);
    __m512i hi = _mm512_loadu_si512((const void *)(p + 16));
    __m512i left = _mm512_permutex2var_epi32(lo, u0, hi);
    __m512i next = _mm512_permutex2var_epi32(lo, u1, hi);
    __mmask16 on0 = _mm512_cmpeq_epi32_mask(j0, _mm512_set1_epi32(row));
    __mmask16 on1 = _mm512_cmpeq_epi32_mask(j1, _mm512_set1_epi32(row));
    *a = _mm512_mask_mov_epi32(*a, on0, left);
    *b = _mm512_mask_mov_epi32(*b, on0, next);
    *c = _mm512_mask_mov_epi32(*c, on1, left);
    *d = _mm512_mask_mov_epi32(*d, on1, next);
  }
  return 1;
}

__attribute__((target("avx512f,avx512bw"))) static inline void segue_footprint_avx512(
    const segue_texel_span *span, __m512 s, __m512 t, __m512 inverse, __m512 *along,
    __m512 *across) {
  const __m512 dw = _mm512_set1_ps(span->dw), rdw = _mm512_set1_ps(span->row_dw);
  __m512 ax = _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(span->dx), _mm512_mul_ps(s, dw)), inverse);
  __m512 ay = _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(span->dy), _mm512_mul_ps(t, dw)), inverse);
  __m512 bx =
      _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(span->row_dx), _mm512_mul_ps(s, rdw)), inverse);
  __m512 by =
      _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(span->row_dy), _mm512_mul_ps(t, rdw)), inverse);
  *along = _mm512_add_ps(_mm512_mul_ps(ax, ax), _mm512_mul_ps(ay, ay));
  *across = _mm512_add_ps(_mm512_mul_ps(bx, bx), _mm512_mul_ps(by, by));
}

/// ``segue_texel_point_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline void segue_texel_point_avx512(
    const segue_bilinear_level *level, __m512 s, __m512 t, __m512i *x, __m512i *y) {
  const __m512 half = _mm512_set1_ps(0.5f);
  *x = segue_fixed_avx512(_mm512_sub_ps(_mm512_mul_ps(s, _mm512_set1_ps(level->scale_x)), half));
  *y = segue_fixed_avx512(_mm512_sub_ps(_mm512_mul_ps(t, _mm512_set1_ps(level->scale_y)), half));
}

/// ``segue_bilinear_fixed_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_bilinear_fixed_avx512(
    const segue_bilinear_level *level, __m512i x, __m512i y) {
  const __m512i zero = _mm512_setzero_si512(), step = _mm512_set1_epi32(1);
  const __m512i right = _mm512_set1_epi32(level->width - 1);
  const __m512i bottom = _mm512_set1_epi32(level->height - 1);
  const __m512i fraction = _mm512_set1_epi32(255);
  __m512i xi = _mm512_srai_epi32(x, 8), yi = _mm512_srai_epi32(y, 8);
  __m512i i0 = _mm512_min_epi32(_mm512_max_epi32(xi, zero), right);
  __m512i i1 = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(xi, step), zero), right);
  __m512i j0 = _mm512_min_epi32(_mm512_max_epi32(yi, zero), bottom);
  __m512i j1 = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(yi, step), zero), bottom);
  __m512i a, b, c, d;
  if (!segue_window_texels_avx512(level, i0, i1, j0, j1, &a, &b, &c, &d)) {
    const int *texels = (const int *)level->texels;
    const __m512i width = _mm512_set1_epi32(level->width);
    __m512i r0 = _mm512_mullo_epi32(j0, width), r1 = _mm512_mullo_epi32(j1, width);
    a = _mm512_i32gather_epi32(_mm512_add_epi32(r0, i0), texels, 4);
    b = _mm512_i32gather_epi32(_mm512_add_epi32(r0, i1), texels, 4);
    c = _mm512_i32gather_epi32(_mm512_add_epi32(r1, i0), texels, 4);
    d = _mm512_i32gather_epi32(_mm512_add_epi32(r1, i1), texels, 4);
  }
  return segue_mix_avx512(a, b, c, d, _mm512_and_si512(x, fraction),
                          _mm512_and_si512(y, fraction));
}

__attribute__((target("avx512f,avx512bw"))) static inline __m512i segue_bilinear_avx512(
    const segue_bilinear_level *level, __m512 s, __m512 t) {
  __m512i x, y;
  segue_texel_point_avx512(level, s, t, &x, &y);
  return segue_bilinear_fixed_avx512(level, x, y);
}

/// ``segue_span_point_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static inline void segue_span_point_avx512(
    const segue_texel_span *span, int k, __m512 *s, __m512 *t, __m512 *inverse) {
  const __m512 lanes = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __m512 kf = _mm512_add_ps(_mm512_set1_ps((float)k), lanes);
  __m512 w = _mm512_add_ps(_mm512_set1_ps(span->w), _mm512_mul_ps(kf, _mm512_set1_ps(span->dw)));
  *inverse = _mm512_div_ps(_mm512_set1_ps(1.0f), w);
  __m512 s0 = _mm512_add_ps(_mm512_set1_ps(span->x), _mm512_mul_ps(kf, _mm512_set1_ps(span->dx)));
  *s = _mm512_mul_ps(s0, *inverse);
  __m512 t0 = _mm512_add_ps(_mm512_set1_ps(span->y), _mm512_mul_ps(kf, _mm512_set1_ps(span->dy)));
  *t = _mm512_mul_ps(t0, *inverse);
}

/// ``segue_linear_span_avx2`` with 16 pixels.
__attribute__((target("avx512f,avx512bw"))) static int segue_linear_span_avx512(
    const segue_bilinear_level *level, const segue_texel_span *span, int start, int count,
    uint8_t *out) {
  int k = start;
  if (k >= count) return k;
  __m512 s, t, inverse;
  __m512i x, y;
  segue_span_point_avx512(span, k, &s, &t, &inverse);
  segue_texel_point_avx512(level, s, t, &x, &y);
  for (; count - k > 16; k += 16) {
    __m512i nx, ny;
    segue_span_point_avx512(span, k + 16, &s, &t, &inverse);
    segue_texel_point_avx512(level, s, t, &nx, &ny);
    _mm512_storeu_si512((void *)(out + 4 * k), segue_bilinear_fixed_avx512(level, x, y));
    x = nx;
    y = ny;
  }
  __mmask16 left = (__mmask16)((1u << (count - k)) - 1);
  _mm512_mask_storeu_epi32((void *)(out + 4 * k), left, segue_bilinear_fixed_avx512(level, x, y));
  return count;
}

__attribute__((target("avx512f,avx512bw"))) static inline __m512 segue_log2_avx512(__m512 v) {
  __m512i bits = _mm512_castps_si512(v);
  __m512 exponent = _mm512_cvtepi32_ps(_mm512_sub_epi32(
      _mm512_and_si512(_mm512_srli_epi32(bits, 23), _mm512_set1_epi32(0xFF)),
      _mm512_set1_epi32(127)));
  __m512 m = _mm512_sub_ps(
      _mm512_castsi512_ps(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(0x007FFFFF)),
                                          _mm512_set1_epi32(0x3F800000))),
      _mm512_set1_ps(1.0f));
  __m512 curve = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.346607f), m),
                               _mm512_sub_ps(_mm512_set1_ps(1.0f), m));
  return _mm512_add_ps(_mm512_add_ps(exponent, m), curve);
}

__attribute__((target("avx512f,avx512bw"))) static int segue_bilinear_span_avx512(
    const segue_bilinear_level *levels, int level_count, const segue_texel_span *span,
    int start, int count, int mode, uint8_t *out) {
  if (mode == SEGUE_SPAN_LINEAR) return segue_linear_span_avx512(levels, span, start, count, out);
  const __m512 one = _mm512_set1_ps(1.0f), top = _mm512_set1_ps((float)(level_count - 1));
  int k = start;
  if (k + 16 > count) return k;
  __m512 s, t, inverse, along, across;
  segue_span_point_avx512(span, k, &s, &t, &inverse);
  for (; k + 16 <= count; k += 16) {
    // The next step's point first: its divide overlaps this step's texels.
    __m512 ns, nt, ninverse;
    segue_span_point_avx512(span, k + 16, &ns, &nt, &ninverse);
    segue_footprint_avx512(span, s, t, inverse, &along, &across);
    if (_mm512_cmp_ps_mask(along, across, _CMP_ORD_Q) != 0xFFFF) break;
    __m512 rho2 = _mm512_max_ps(along, across);
    __mmask16 minifies = _mm512_cmp_ps_mask(rho2, one, _CMP_GT_OQ);
    __m512i pixel;
    if (mode == SEGUE_SPAN_MAGNIFYING) {
      if (minifies != 0) break;
      pixel = segue_bilinear_avx512(levels, s, t);
    } else {
      __m512 lod = _mm512_maskz_mul_ps(minifies, _mm512_set1_ps(0.5f), segue_log2_avx512(rho2));
      __m512 level = _mm512_min_ps(top, lod);
      __m512i index = _mm512_cvttps_epi32(level);
      int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(index));
      if (_mm512_cmpneq_epi32_mask(index, _mm512_set1_epi32(first)) != 0) break;
      __m512i mix = _mm512_cvttps_epi32(_mm512_add_ps(
          _mm512_mul_ps(_mm512_sub_ps(level, _mm512_cvtepi32_ps(index)), _mm512_set1_ps(256.0f)),
          _mm512_set1_ps(0.5f)));
      pixel = segue_bilinear_avx512(levels + first, s, t);
      if (first + 1 < level_count && _mm512_test_epi32_mask(mix, mix) != 0)
        pixel = segue_lerp_avx512(pixel, segue_bilinear_avx512(levels + first + 1, s, t), mix);
    }
    _mm512_storeu_si512((void *)(out + 4 * k), pixel);
    s = ns;
    t = nt;
    inverse = ninverse;
  }
  return k;
}
#endif

static int segue_bilinear_span_none(const segue_bilinear_level *levels, int level_count,
                                    const segue_texel_span *span, int start, int count, int mode,
                                    uint8_t *out) {
  (void)levels;
  (void)level_count;
  (void)span;
  (void)count;
  (void)mode;
  (void)out;
  return start;
}

typedef int (*segue_bilinear_fn)(const segue_bilinear_level *, int, const segue_texel_span *,
                                 int, int, int, uint8_t *);

/// The path of `lanes` pixels per step (16: AVX-512, 8: AVX2) if this CPU, limited by
/// `SEGUE_CPU`, has it; else the path without vectors.
static segue_bilinear_fn segue_bilinear_path(int lanes) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  uint32_t f = segue_runtime_features();
  __builtin_cpu_init();
  if (lanes == 16 && (f & SEGUE_FEATURE_AVX512F) && __builtin_cpu_supports("avx512bw"))
    return segue_bilinear_span_avx512;
  if (lanes == 8 && (f & SEGUE_FEATURE_AVX2)) return segue_bilinear_span_avx2;
#endif
  (void)lanes;
  return segue_bilinear_span_none;
}

static segue_bilinear_fn segue_choose_bilinear(void) {
  segue_bilinear_fn widest = segue_bilinear_path(16);
  return widest != segue_bilinear_span_none ? widest : segue_bilinear_path(8);
}

int segue_bilinear_span_with_lanes(int lanes, const segue_bilinear_level *levels,
                                   int level_count, const segue_texel_span *span, int start,
                                   int count, int mode, uint8_t *out) {
  return segue_bilinear_path(lanes)(levels, level_count, span, start, count, mode, out);
}

int segue_bilinear_span(const segue_bilinear_level *levels, int level_count,
                        const segue_texel_span *span, int start, int count, int mode,
                        uint8_t *out) {
  static segue_bilinear_fn chosen = 0;
  segue_bilinear_fn fn = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
  if (fn == 0) {
    fn = segue_choose_bilinear();
    __atomic_store_n(&chosen, fn, __ATOMIC_RELAXED);
  }
  return fn(levels, level_count, span, start, count, mode, out);
}

int segue_bilinear_span_lanes(void) {
  segue_bilinear_fn fn = segue_choose_bilinear();
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  if (fn == segue_bilinear_span_avx512) return 16;
  if (fn == segue_bilinear_span_avx2) return 8;
#endif
  (void)fn;
  return 0;
}
