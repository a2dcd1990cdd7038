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

#endif  // SEGUE_SIMD_SUPPORT_H
