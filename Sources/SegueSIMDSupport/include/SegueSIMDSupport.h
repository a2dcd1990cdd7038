// Segue's small C shim for what Swift cannot spell: non-temporal (streaming) stores, a store
// fence, and CPU feature detection. Everything here is portable C (clang builtins); there is no
// target-specific compiler flag, so the package needs no unsafeFlags.
#ifndef SEGUE_SIMD_SUPPORT_H
#define SEGUE_SIMD_SUPPORT_H

#include <stdint.h>

/// Sixteen floats, imported into Swift as `SIMD16<Float>`.
typedef float segue_f32x16 __attribute__((ext_vector_type(16)));

/// Stores `value` at `dst` with a non-temporal hint (bypassing the caches on x86: one
/// `vmovntps zmm` with AVX-512, otherwise several narrower `movntps`).
/// `dst` must be aligned to 64 bytes.
static inline __attribute__((always_inline)) void segue_stream_f32x16(float *dst,
                                                                      segue_f32x16 value) {
  __builtin_nontemporal_store(value, (segue_f32x16 *)dst);
}

/// Stores `value` at `dst` (any alignment), always inlined: one `vmovups zmm` with AVX-512.
static inline __attribute__((always_inline)) void segue_store_f32x16(float *dst,
                                                                     segue_f32x16 value) {
  __builtin_memcpy(dst, &value, sizeof(value));
}

/// Sixteen 32-bit integers, imported into Swift as `SIMD16<Int32>` (a lane mask: 0 or −1).
typedef int32_t segue_i32x16 __attribute__((ext_vector_type(16)));

/// `mask[i] < 0 ? when_true[i] : when_false[i]` for each lane (a mask lane is 0 or −1, as Swift's
/// `SIMDMask` stores it). Plain vector C, so it inlines into Swift callers as one blend.
static inline __attribute__((always_inline)) segue_f32x16 segue_select_f32x16(
    segue_i32x16 mask, segue_f32x16 when_true, segue_f32x16 when_false) {
  return mask < 0 ? when_true : when_false;
}

/// Orders all earlier streaming stores before later stores (`sfence` on x86, a full fence
/// elsewhere). Call it once after a run of ``segue_stream_f32x16``.
static inline __attribute__((always_inline)) void segue_store_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/// Table lookup for 16 lanes: `lo[i] = table[index[i]]`, `hi[i] = table[index[i] + 1]`, with
/// `index[i]` given as a float holding a non-negative integer. Uses an AVX-512 gather when the
/// running CPU has AVX-512F (chosen once, at the first call) and a scalar loop otherwise. All
/// pointers refer to 16 floats; the caller guarantees `index[i] + 1` is inside `table`.
void segue_gather_pairs_f32x16(const float *table, const float *index, float *lo, float *hi);

/// Sixteen bytes, imported into Swift as `SIMD16<UInt8>`.
typedef uint8_t segue_u8x16 __attribute__((ext_vector_type(16)));

/// Whether any lane of a mask (lanes 0 or −1) is set: an OR reduction, a couple of instructions
/// (the standard library's `any(_:)` on a 16-lane mask is an out-of-line generic `min`).
static inline __attribute__((always_inline)) int segue_any_i32x16(segue_i32x16 mask) {
  return __builtin_reduce_or(mask) != 0;
}

/// Sixteen bytes widened to floats (`0 … 255` exactly): one `vpmovzxbd` + `vcvtdq2ps` on x86
/// (the standard library's `SIMD16<Float>(SIMD16<UInt8>)` is an out-of-line generic loop).
static inline __attribute__((always_inline)) segue_f32x16 segue_u8x16_to_f32x16(segue_u8x16 v) {
  return __builtin_convertvector(v, segue_f32x16);
}

/// `table[index[i]]` for each lane, with `index[i]` a float holding a non-negative integer
/// (truncated). An inline AVX-512 gather when the including unit is compiled for AVX-512F (Swift
/// with `-target-cpu` set to such a CPU), otherwise a plain loop; either way the values stay in
/// registers (no scratch round trip, no call). The caller guarantees every index is inside
/// `table`.
static inline __attribute__((always_inline)) segue_f32x16 segue_gather_f32x16(
    const float *table, segue_f32x16 index) {
  segue_i32x16 i = __builtin_convertvector(index, segue_i32x16);
#if defined(__AVX512F__)
  segue_f32x16 zero = {0};
  return (segue_f32x16)__builtin_ia32_gathersiv16sf(zero, (const void *)table, i,
                                                     (unsigned short)0xFFFF, 4);
#else
  segue_f32x16 r;
  for (int l = 0; l < 16; l++) r[l] = table[i[l]];
  return r;
#endif
}

/// `a·b + c` lane by lane with one rounding (a fused multiply-add) when the including unit is
/// compiled for FMA, otherwise `a·b + c` with two roundings (so a build without FMA never calls
/// the slow library `fmaf`). Results therefore depend on the build's target CPU by about 1 ulp.
static inline __attribute__((always_inline)) segue_f32x16 segue_fma_f32x16(segue_f32x16 a,
                                                                           segue_f32x16 b,
                                                                           segue_f32x16 c) {
#if defined(__FMA__) || defined(__AVX512F__)
  return __builtin_elementwise_fma(a, b, c);
#else
  return a * b + c;
#endif
}

/// The scalar twin of ``segue_fma_f32x16`` (bitwise equal to any of its lanes).
static inline __attribute__((always_inline)) float segue_fma_f32(float a, float b, float c) {
#if defined(__FMA__) || defined(__AVX512F__)
  return __builtin_fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

/// Feature bits shared by the two queries below.
enum {
  SEGUE_FEATURE_SSE4_2 = 1 << 0,
  SEGUE_FEATURE_AVX = 1 << 1,
  SEGUE_FEATURE_AVX2 = 1 << 2,
  SEGUE_FEATURE_FMA = 1 << 3,
  SEGUE_FEATURE_AVX512F = 1 << 4,
  SEGUE_FEATURE_AVX512VL = 1 << 5,
  SEGUE_FEATURE_NEON = 1 << 6,
};

/// The features the *including* compilation unit is compiled for, from the predefined macros.
/// Because this is a header inline function, Swift's Clang importer expands it with the Swift
/// target's options (`-target-cpu`), so a Swift caller learns what its own code may use.
static inline uint32_t segue_compiled_features(void) {
  uint32_t f = 0;
#ifdef __SSE4_2__
  f |= SEGUE_FEATURE_SSE4_2;
#endif
#ifdef __AVX__
  f |= SEGUE_FEATURE_AVX;
#endif
#ifdef __AVX2__
  f |= SEGUE_FEATURE_AVX2;
#endif
#ifdef __FMA__
  f |= SEGUE_FEATURE_FMA;
#endif
#ifdef __AVX512F__
  f |= SEGUE_FEATURE_AVX512F;
#endif
#ifdef __AVX512VL__
  f |= SEGUE_FEATURE_AVX512VL;
#endif
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
  f |= SEGUE_FEATURE_NEON;
#endif
  return f;
}

/// The features the running CPU supports (`__builtin_cpu_supports` on x86; NEON is assumed on
/// AArch64; 0 elsewhere).
uint32_t segue_runtime_features(void);

// SegueRender's span-kernel primitives (clamp, alpha broadcast, quantisation).
#include "SegueRenderSupport.h"

#endif  // SEGUE_SIMD_SUPPORT_H
