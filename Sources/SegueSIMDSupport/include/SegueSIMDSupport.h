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

/// A hint to fetch the 64-byte line at `p` into the caches for reading (`prefetcht0` on x86;
/// nothing where the target has no prefetch). Never faults, whatever `p` is.
static inline __attribute__((always_inline)) void segue_prefetch(const void *p) {
  __builtin_prefetch(p, 0, 3);
}

/// A hint to fetch the 64-byte line at `p` into the caches for writing (`prefetchw` where the
/// target has it, so a store to the line finds it owned and does not wait; a read prefetch or
/// nothing elsewhere). Never faults, whatever `p` is.
static inline __attribute__((always_inline)) void segue_prefetch_write(const void *p) {
  __builtin_prefetch(p, 1, 3);
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

/// Whether all sixteen bytes of `a` and `b` are equal (1) or not (0): one compare and a mask
/// test (the standard library's `==` on `SIMD16<UInt8>` is a generic loop).
static inline __attribute__((always_inline)) int segue_equal_u8x16(segue_u8x16 a, segue_u8x16 b) {
  typedef int8_t segue_i8x16_ __attribute__((ext_vector_type(16)));
  return __builtin_reduce_and((segue_i8x16_)(a == b)) != 0;
}

/// Whether the `n` bytes at `a` and `b` are equal (1) or not (0). Always inlined: with `n` a
/// constant at the call site (after Swift inlines its caller) the comparison expands to a few
/// vector compares and one mask test, no call.
static inline __attribute__((always_inline)) int segue_equal_bytes(const void *a, const void *b,
                                                                   unsigned long n) {
  return __builtin_memcmp(a, b, n) == 0;
}

/// Sixteen 16-bit unsigned integers, imported into Swift as `SIMD16<UInt16>`.
typedef uint16_t segue_u16x16 __attribute__((ext_vector_type(16)));

/// Sixteen 16-bit unsigned integers widened to floats (`0 … 65535` exactly): `vpmovzxwd` +
/// `vcvtdq2ps` on x86 (the standard library's converting initialiser is a generic loop).
static inline __attribute__((always_inline)) segue_f32x16 segue_u16x16_to_f32x16(segue_u16x16 v) {
  return __builtin_convertvector(v, segue_f32x16);
}

/// Whether all sixteen lanes of `a` and `b` are equal (1) or not (0): one compare and a mask
/// test (the standard library's `==` on `SIMD16<UInt16>` is a generic loop).
static inline __attribute__((always_inline)) int segue_equal_u16x16(segue_u16x16 a,
                                                                    segue_u16x16 b) {
  typedef int16_t segue_i16x16_ __attribute__((ext_vector_type(16)));
  return __builtin_reduce_and((segue_i16x16_)(a == b)) != 0;
}

/// `table[index[i]]` for each lane, with `index[i]` a float holding a non-negative integer
/// (truncated). An inline AVX-512 gather when the including unit is compiled for AVX-512F (Swift
/// with `-target-cpu` set to such a CPU), two AVX2 gathers with AVX2, otherwise a plain loop; either way the values stay in
/// registers (no scratch round trip, no call). The caller guarantees every index is inside
/// `table`.
static inline __attribute__((always_inline)) segue_f32x16 segue_gather_f32x16(
    const float *table, segue_f32x16 index) {
  segue_i32x16 i = __builtin_convertvector(index, segue_i32x16);
#if defined(__AVX512F__)
  segue_f32x16 zero = {0};
  return (segue_f32x16)__builtin_ia32_gathersiv16sf(zero, (const void *)table, i,
                                                     (unsigned short)0xFFFF, 4);
#elif defined(__AVX2__)
  typedef float f32x8_ __attribute__((ext_vector_type(8)));
  typedef int32_t i32x8_ __attribute__((ext_vector_type(8)));
  f32x8_ zero = {0};
  f32x8_ all = (f32x8_)(i32x8_){-1, -1, -1, -1, -1, -1, -1, -1};
  i32x8_ i0 = __builtin_shufflevector(i, i, 0, 1, 2, 3, 4, 5, 6, 7);
  i32x8_ i1 = __builtin_shufflevector(i, i, 8, 9, 10, 11, 12, 13, 14, 15);
  f32x8_ lo = __builtin_ia32_gatherd_ps256(zero, table, i0, all, 4);
  f32x8_ hi = __builtin_ia32_gatherd_ps256(zero, table, i1, all, 4);
  return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#else
  segue_f32x16 r;
  for (int l = 0; l < 16; l++) r[l] = table[i[l]];
  return r;
#endif
}

/// Adjacent table entries for 16 lanes: returns `table[index[i]]` and stores
/// `table[index[i] + 1]` in `*hi`, with `index[i]` a float holding a non-negative integer
/// (truncated). Each `(lo, hi)` pair is fetched as one 64-bit element (8-byte loads at 4-byte
/// offsets): two 8-element `vgatherdpd` and two permutes with AVX-512F, four 4-element
/// `vgatherdpd` and two in-lane shuffles per half with AVX2, a plain loop otherwise. Always
/// inlined, the values stay in registers. The caller guarantees `index[i] + 1` is inside `table`.
static inline __attribute__((always_inline)) segue_f32x16 segue_gather_pair_f32x16(
    const float *table, segue_f32x16 index, segue_f32x16 *hi) {
  segue_i32x16 i = __builtin_convertvector(index, segue_i32x16);
#if defined(__AVX512F__)
  typedef double f64x8_ __attribute__((ext_vector_type(8)));
  typedef int32_t i32x8_ __attribute__((ext_vector_type(8)));
  f64x8_ zero = {0};
  i32x8_ i0 = __builtin_shufflevector(i, i, 0, 1, 2, 3, 4, 5, 6, 7);
  i32x8_ i1 = __builtin_shufflevector(i, i, 8, 9, 10, 11, 12, 13, 14, 15);
  segue_f32x16 a =
      (segue_f32x16)__builtin_ia32_gathersiv8df(zero, (const void *)table, i0, 0xFF, 4);
  segue_f32x16 b =
      (segue_f32x16)__builtin_ia32_gathersiv8df(zero, (const void *)table, i1, 0xFF, 4);
  *hi = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  return __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
#elif defined(__AVX2__)
  typedef double f64x4_ __attribute__((ext_vector_type(4)));
  typedef int32_t i32x4_ __attribute__((ext_vector_type(4)));
  typedef int64_t i64x4_ __attribute__((ext_vector_type(4)));
  typedef float f32x8_ __attribute__((ext_vector_type(8)));
  f64x4_ zero = {0};
  f64x4_ all = (f64x4_)(i64x4_){-1, -1, -1, -1};
  // Lanes (0, 1, 4, 5) and (2, 3, 6, 7) of each half: one in-lane shuffle (`vshufps`) then puts
  // the lo and the hi values of the half in lane order.
  i32x4_ q0 = __builtin_shufflevector(i, i, 0, 1, 4, 5), q1 = __builtin_shufflevector(i, i, 2, 3, 6, 7);
  i32x4_ q2 = __builtin_shufflevector(i, i, 8, 9, 12, 13), q3 = __builtin_shufflevector(i, i, 10, 11, 14, 15);
  f32x8_ a0 = (f32x8_)__builtin_ia32_gatherd_pd256(zero, (const double *)table, q0, all, 4);
  f32x8_ b0 = (f32x8_)__builtin_ia32_gatherd_pd256(zero, (const double *)table, q1, all, 4);
  f32x8_ a1 = (f32x8_)__builtin_ia32_gatherd_pd256(zero, (const double *)table, q2, all, 4);
  f32x8_ b1 = (f32x8_)__builtin_ia32_gatherd_pd256(zero, (const double *)table, q3, all, 4);
  f32x8_ lo0 = __builtin_shufflevector(a0, b0, 0, 2, 8, 10, 4, 6, 12, 14);
  f32x8_ hi0 = __builtin_shufflevector(a0, b0, 1, 3, 9, 11, 5, 7, 13, 15);
  f32x8_ lo1 = __builtin_shufflevector(a1, b1, 0, 2, 8, 10, 4, 6, 12, 14);
  f32x8_ hi1 = __builtin_shufflevector(a1, b1, 1, 3, 9, 11, 5, 7, 13, 15);
  *hi = __builtin_shufflevector(hi0, hi1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return __builtin_shufflevector(lo0, lo1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#else
  segue_f32x16 lo, h;
  for (int l = 0; l < 16; l++) {
    lo[l] = table[i[l]];
    h[l] = table[i[l] + 1];
  }
  *hi = h;
  return lo;
#endif
}

/// Whether the including unit may fuse multiply-adds in hardware (x86 FMA3 or AVX-512F, or an
/// AArch64/ARM target with FMA).
#if defined(__FMA__) || defined(__AVX512F__) || defined(__ARM_FEATURE_FMA)
#define SEGUE_HAS_FMA 1
#else
#define SEGUE_HAS_FMA 0
#endif

/// `a·b + c` lane by lane with one rounding (a fused multiply-add: `vfmadd…ps`) when the
/// including unit is compiled for FMA, otherwise `a·b + c` with two roundings (so a build without
/// FMA never calls the slow library `fmaf`). Results therefore depend on the build's target CPU by
/// about 1 ulp. Swift does not contract `a * b + c` on SIMD types by itself: kernels spell the
/// fusion with this helper.
static inline __attribute__((always_inline)) segue_f32x16 segue_fma_f32x16(segue_f32x16 a,
                                                                           segue_f32x16 b,
                                                                           segue_f32x16 c) {
#if SEGUE_HAS_FMA
  return __builtin_elementwise_fma(a, b, c);
#else
  return a * b + c;
#endif
}

/// The scalar twin of ``segue_fma_f32x16`` (bitwise equal to any of its lanes).
static inline __attribute__((always_inline)) float segue_fma_f32(float a, float b, float c) {
#if SEGUE_HAS_FMA
  return __builtin_fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

/// Joins two 8-lane results (an AVX operation on the low and the high half of a 16-lane vector).
#define SEGUE_ON_HALVES(lo, hi) \
  __builtin_shufflevector((lo), (hi), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/// `a > b ? a : b` lane by lane: one `vmaxps` on x86, which returns `b` when either lane is NaN
/// (so `segue_max_f32x16(x, 0)` maps NaN to 0). With AVX and AVX-512 the instruction is named
/// (an x86 builtin): written as a select, `max(x, 0)` would compile to a compare and a mask.
static inline __attribute__((always_inline)) segue_f32x16 segue_max_f32x16(segue_f32x16 a,
                                                                           segue_f32x16 b) {
#if defined(__AVX512F__)
  return __builtin_ia32_maxps512(a, b, 4 /* _MM_FROUND_CUR_DIRECTION */);
#elif defined(__AVX__)
  return SEGUE_ON_HALVES(__builtin_ia32_maxps256(a.lo, b.lo),
                         __builtin_ia32_maxps256(a.hi, b.hi));
#else
  return a > b ? a : b;
#endif
}

/// `a < b ? a : b` lane by lane: one `vminps` on x86 (`b` when either lane is NaN), named as
/// ``segue_max_f32x16`` is.
static inline __attribute__((always_inline)) segue_f32x16 segue_min_f32x16(segue_f32x16 a,
                                                                           segue_f32x16 b) {
#if defined(__AVX512F__)
  return __builtin_ia32_minps512(a, b, 4 /* _MM_FROUND_CUR_DIRECTION */);
#elif defined(__AVX__)
  return SEGUE_ON_HALVES(__builtin_ia32_minps256(a.lo, b.lo),
                         __builtin_ia32_minps256(a.hi, b.hi));
#else
  return a < b ? a : b;
#endif
}

/// `√x` lane by lane, correctly rounded (`vsqrtps`; NaN for negative lanes).
static inline __attribute__((always_inline)) segue_f32x16 segue_sqrt_f32x16(segue_f32x16 x) {
  return __builtin_elementwise_sqrt(x);
}

/// `x` rounded toward zero lane by lane, for `|x| < 2³¹` (`vcvttps2dq` and back, on every x86
/// level). NaN and larger magnitudes give −2³¹.
static inline __attribute__((always_inline)) segue_f32x16 segue_trunc_f32x16(segue_f32x16 x) {
  return __builtin_convertvector(__builtin_convertvector(x, segue_i32x16), segue_f32x16);
}

/// An approximation of `1/x` lane by lane: `vrcp14ps` (relative error < 2⁻¹⁴) with AVX-512F,
/// `vrcpps` (< 1.5·2⁻¹²) with AVX, the exact quotient otherwise. For a Newton step whose size
/// need not be exact (the next step corrects it); results depend on the build's target CPU.
static inline __attribute__((always_inline)) segue_f32x16 segue_rcp_f32x16(segue_f32x16 x) {
#if defined(__AVX512F__)
  segue_f32x16 zero = {0};
  return (segue_f32x16)__builtin_ia32_rcp14ps512_mask(x, zero, (unsigned short)0xFFFF);
#elif defined(__AVX__)
  return SEGUE_ON_HALVES(__builtin_ia32_rcpps256(x.lo), __builtin_ia32_rcpps256(x.hi));
#else
  return 1.0f / x;
#endif
}

/// A hint that the caller is spinning on a memory location (`pause` on x86, `yield` on ARM):
/// saves power and lets a sibling hyperthread run while a worker waits for work.
static inline __attribute__((always_inline)) void segue_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

/// The CPUs the calling thread may run on (Linux: its affinity mask, as `taskset` sets it), at
/// most `capacity` of them in increasing order into `cpus`; returns how many (0 where the
/// platform has no affinity masks).
int segue_affinity_cpus(int *cpus, int capacity);

/// Restricts the calling thread to `cpu` (Linux); returns 0 on success, −1 if not possible.
int segue_pin_current_thread(int cpu);

/// Sixteen doubles (two AVX-512 registers, four AVX registers).
typedef double segue_f64x16 __attribute__((ext_vector_type(16)));

/// The media-timing local time of sixteen lanes, formed in `double` and rounded to `float` on the
/// same side of 0 and of the active duration as the `double` value (Swift's
/// `SceneLaneGroup.localTime(_:_:)` is the scalar reference, bitwise equal):
///
///     t = (tau[l] − begin)·speed + offset                     (no fused multiply-add)
///     f = min(max(float(t), −FLT_MAX), FLT_MAX)
///     t < 0:           min(f, −FLT_TRUE_MIN)
///     0 ≤ t < active:  min(max(f, 0), end_down)
///     t ≥ active:      max(f, end)
///
/// with Swift's `min`/`max` (`min(x, y) = y < x ? y : x`, `max(x, y) = y >= x ? y : x`); `end` is
/// the active duration rounded up to `float`, `end_down` the float below it. Swift cannot select
/// on `double` lanes without per-lane loops, hence this shim. `tau` points to 16 doubles.
static inline __attribute__((always_inline)) segue_f32x16 segue_local_time_f32x16(
    const double *tau, double begin, double speed, double offset, double active, float end,
    float end_down) {
#pragma clang fp contract(off)
  segue_f64x16 x;
  __builtin_memcpy(&x, tau, sizeof(x));
  const segue_f64x16 t = (x - begin) * speed + offset;
  const double big = 3.40282346638528859811704183484516925e+38;
  segue_f64x16 c = -big >= t ? -big : t;
  c = big < c ? big : c;
  const segue_f32x16 f = __builtin_convertvector(c, segue_f32x16);
  const float tiny = 1.40129846e-45f;
  const segue_f32x16 negative = -tiny < f ? -tiny : f;
  segue_f32x16 inside = 0.0f >= f ? 0.0f : f;
  inside = end_down < inside ? end_down : inside;
  const segue_f32x16 after = end >= f ? end : f;
  const segue_i32x16 below = __builtin_convertvector(t < 0.0, segue_i32x16);
  const segue_i32x16 within = __builtin_convertvector(t < active, segue_i32x16);
  return below ? negative : (within ? inside : after);
}

/// One stage of the transposes below (16×16, 8×8) on vectors of type `T`: swaps the `k × k`
/// off-diagonal blocks of every `2k × 2k` block of rows `a` (row `i`) and `b` (row `i + k`).
/// `lo` and `hi` name function-like macros that give the two shuffles' index lists (named, not
/// expanded, so that they pass through ``SEGUE_TRANSPOSE_8_ROWS`` as one argument each).
#define SEGUE_TRANSPOSE_STAGE(T, a, b, lo, hi)                                                  \
  do {                                                                                          \
    T _x = __builtin_shufflevector(a, b, lo());                                                 \
    T _y = __builtin_shufflevector(a, b, hi());                                                 \
    a = _x;                                                                                     \
    b = _y;                                                                                     \
  } while (0)

/// The stages with `k` = 4, 2, 1 on eight rows `a0 … a7` of type `T` (`lo4` … `hi1` as in
/// ``SEGUE_TRANSPOSE_STAGE``): all of an 8×8 transpose, the last three stages of a 16×16 one.
#define SEGUE_TRANSPOSE_8_ROWS(T, a0, a1, a2, a3, a4, a5, a6, a7, lo4, hi4, lo2, hi2, lo1, hi1) \
  do {                                                                                          \
    SEGUE_TRANSPOSE_STAGE(T, a0, a4, lo4, hi4);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a1, a5, lo4, hi4);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a2, a6, lo4, hi4);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a3, a7, lo4, hi4);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a0, a2, lo2, hi2);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a1, a3, lo2, hi2);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a4, a6, lo2, hi2);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a5, a7, lo2, hi2);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a0, a1, lo1, hi1);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a2, a3, lo1, hi1);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a4, a5, lo1, hi1);                                                 \
    SEGUE_TRANSPOSE_STAGE(T, a6, a7, lo1, hi1);                                                 \
  } while (0)

/// Eight floats: half of a `segue_f32x16`, one AVX register.
typedef float segue_f32x8 __attribute__((ext_vector_type(8)));

/// Lanes 0–7 of `v` (`upper` 0) or lanes 8–15 (`upper` 1).
#define SEGUE_LANES8(v, upper)                                                                  \
  ((upper) ? __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15)                        \
           : __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7))

/// Stores the transpose of an 8×8 block: lanes `8·upper … 8·upper + 7` of `fields[0…7]` (field
/// `k` of eight items); item `l`'s eight fields go to `dst + l·stride` (floats). Three stages of
/// shuffles (24 in all) on eight values, so the block stays in the sixteen AVX registers. (The
/// fields come by pointer: a vector argument between C functions would change the ABI without
/// AVX; inlined, the array is registers.)
static inline __attribute__((always_inline)) void segue_store_transposed_block8(
    float *dst, long stride, const segue_f32x16 *fields, int upper) {
  segue_f32x8 a0 = SEGUE_LANES8(fields[0], upper), a1 = SEGUE_LANES8(fields[1], upper);
  segue_f32x8 a2 = SEGUE_LANES8(fields[2], upper), a3 = SEGUE_LANES8(fields[3], upper);
  segue_f32x8 a4 = SEGUE_LANES8(fields[4], upper), a5 = SEGUE_LANES8(fields[5], upper);
  segue_f32x8 a6 = SEGUE_LANES8(fields[6], upper), a7 = SEGUE_LANES8(fields[7], upper);
#define SEGUE_LO4_8() 0, 1, 2, 3, 8, 9, 10, 11
#define SEGUE_HI4_8() 4, 5, 6, 7, 12, 13, 14, 15
#define SEGUE_LO2_8() 0, 1, 8, 9, 4, 5, 12, 13
#define SEGUE_HI2_8() 2, 3, 10, 11, 6, 7, 14, 15
#define SEGUE_LO1_8() 0, 8, 2, 10, 4, 12, 6, 14
#define SEGUE_HI1_8() 1, 9, 3, 11, 5, 13, 7, 15
  SEGUE_TRANSPOSE_8_ROWS(segue_f32x8, a0, a1, a2, a3, a4, a5, a6, a7, SEGUE_LO4_8, SEGUE_HI4_8,
                         SEGUE_LO2_8, SEGUE_HI2_8, SEGUE_LO1_8, SEGUE_HI1_8);
  __builtin_memcpy(dst, &a0, sizeof(a0));
  __builtin_memcpy(dst + stride, &a1, sizeof(a1));
  __builtin_memcpy(dst + 2 * stride, &a2, sizeof(a2));
  __builtin_memcpy(dst + 3 * stride, &a3, sizeof(a3));
  __builtin_memcpy(dst + 4 * stride, &a4, sizeof(a4));
  __builtin_memcpy(dst + 5 * stride, &a5, sizeof(a5));
  __builtin_memcpy(dst + 6 * stride, &a6, sizeof(a6));
  __builtin_memcpy(dst + 7 * stride, &a7, sizeof(a7));
}

#undef SEGUE_LANES8

/// Stores the transpose of sixteen lane vectors: `r0 … r15` hold field `k` of sixteen items
/// (lane `l` = item `l`); item `l`'s sixteen fields go, as one row, to `dst + l·stride` (floats),
/// for `l < lanes` (`0 … 16`); with `streaming` set and all 16 lanes, as non-temporal stores
/// (every row address must then be 64-byte aligned; call ``segue_store_fence`` after the last).
/// Four stages of two-source shuffles (`vpermt2ps` with AVX-512), 64 per 16 rows, then one
/// 64-byte store per row. Without AVX-512, the 32 register halves the stages work on do not fit
/// the sixteen AVX (or SSE) registers and spill, so all 16 lanes stored with plain stores take
/// four 8×8 blocks instead (``segue_store_transposed_block8``: each row's two 32-byte halves);
/// streaming stores keep whole 64-byte rows, so each line is written at once. Plain portable
/// vector C (`__builtin_shufflevector`), no target flag.
static inline __attribute__((always_inline)) void segue_store_transposed_f32x16(
    float *dst, long stride, int lanes, int streaming, segue_f32x16 r0, segue_f32x16 r1, segue_f32x16 r2,
    segue_f32x16 r3, segue_f32x16 r4, segue_f32x16 r5, segue_f32x16 r6, segue_f32x16 r7,
    segue_f32x16 r8, segue_f32x16 r9, segue_f32x16 r10, segue_f32x16 r11, segue_f32x16 r12,
    segue_f32x16 r13, segue_f32x16 r14, segue_f32x16 r15) {
#if !defined(__AVX512F__)
  if (lanes == 16 && !streaming) {
    const segue_f32x16 fields[16] = {r0, r1, r2,  r3,  r4,  r5,  r6,  r7,
                                     r8, r9, r10, r11, r12, r13, r14, r15};
    float *rows8 = dst + 8 * stride;  // the rows of lanes 8–15
    segue_store_transposed_block8(dst, stride, fields, 0);
    segue_store_transposed_block8(dst + 8, stride, fields + 8, 0);
    segue_store_transposed_block8(rows8, stride, fields, 1);
    segue_store_transposed_block8(rows8 + 8, stride, fields + 8, 1);
    return;
  }
#endif
#define SEGUE_LO8() 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
#define SEGUE_HI8() 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31
#define SEGUE_LO4() 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27
#define SEGUE_HI4() 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31
#define SEGUE_LO2() 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29
#define SEGUE_HI2() 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31
#define SEGUE_LO1() 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30
#define SEGUE_HI1() 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r0, r8, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r1, r9, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r2, r10, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r3, r11, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r4, r12, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r5, r13, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r6, r14, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_STAGE(segue_f32x16, r7, r15, SEGUE_LO8, SEGUE_HI8);
  SEGUE_TRANSPOSE_8_ROWS(segue_f32x16, r0, r1, r2, r3, r4, r5, r6, r7, SEGUE_LO4, SEGUE_HI4,
                         SEGUE_LO2, SEGUE_HI2, SEGUE_LO1, SEGUE_HI1);
  SEGUE_TRANSPOSE_8_ROWS(segue_f32x16, r8, r9, r10, r11, r12, r13, r14, r15, SEGUE_LO4, SEGUE_HI4,
                         SEGUE_LO2, SEGUE_HI2, SEGUE_LO1, SEGUE_HI1);
#undef SEGUE_LO8
#undef SEGUE_HI8
#undef SEGUE_LO4
#undef SEGUE_HI4
#undef SEGUE_LO2
#undef SEGUE_HI2
#undef SEGUE_LO1
#undef SEGUE_HI1
#undef SEGUE_LO4_8
#undef SEGUE_HI4_8
#undef SEGUE_LO2_8
#undef SEGUE_HI2_8
#undef SEGUE_LO1_8
#undef SEGUE_HI1_8
  if (lanes == 16) {
    // Each row straight from its register, the address stepped by `stride`.
#define SEGUE_STORE_ROWS(STORE)                                                                 \
  do {                                                                                          \
    float *_p = dst;                                                                            \
    STORE(r0); STORE(r1); STORE(r2); STORE(r3); STORE(r4); STORE(r5); STORE(r6); STORE(r7);     \
    STORE(r8); STORE(r9); STORE(r10); STORE(r11); STORE(r12); STORE(r13); STORE(r14);           \
    STORE(r15);                                                                                 \
  } while (0)
#define SEGUE_STREAM_ROW(r) (__builtin_nontemporal_store(r, (segue_f32x16 *)_p), _p += stride)
#define SEGUE_STORE_ROW(r) (__builtin_memcpy(_p, &r, sizeof(r)), _p += stride)
    if (streaming) {
      SEGUE_STORE_ROWS(SEGUE_STREAM_ROW);
    } else {
      SEGUE_STORE_ROWS(SEGUE_STORE_ROW);
    }
#undef SEGUE_STREAM_ROW
#undef SEGUE_STORE_ROW
#undef SEGUE_STORE_ROWS
    return;
  }
  segue_f32x16 rows[16] = {r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15};
  for (int l = 0; l < lanes; l++) __builtin_memcpy(dst + l * stride, &rows[l], sizeof(rows[l]));
}
#undef SEGUE_TRANSPOSE_8_ROWS
#undef SEGUE_TRANSPOSE_STAGE

/// Stores lane `l` of `v` to `dst + l·stride` (floats) for `l < lanes` (`0 … 16`): one value
/// per item of a row-major output, unrolled so each lane is extracted from the register rather
/// than reloaded from a spilled copy of the vector.
static inline __attribute__((always_inline)) void segue_store_strided_f32x16(
    float *dst, long stride, int lanes, segue_f32x16 v) {
  if (lanes == 16) {
#define SEGUE_STORE_LANE(l) dst[(l) * stride] = v[l]
    SEGUE_STORE_LANE(0); SEGUE_STORE_LANE(1); SEGUE_STORE_LANE(2); SEGUE_STORE_LANE(3);
    SEGUE_STORE_LANE(4); SEGUE_STORE_LANE(5); SEGUE_STORE_LANE(6); SEGUE_STORE_LANE(7);
    SEGUE_STORE_LANE(8); SEGUE_STORE_LANE(9); SEGUE_STORE_LANE(10); SEGUE_STORE_LANE(11);
    SEGUE_STORE_LANE(12); SEGUE_STORE_LANE(13); SEGUE_STORE_LANE(14); SEGUE_STORE_LANE(15);
#undef SEGUE_STORE_LANE
    return;
  }
  float values[16];
  __builtin_memcpy(values, &v, sizeof(values));
  for (int l = 0; l < lanes; l++) dst[l * stride] = values[l];
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

/// The features the run-time dispatch may use: what the running CPU supports
/// (`__builtin_cpu_supports` on x86; NEON is assumed on AArch64; 0 elsewhere), limited by the
/// environment variable `SEGUE_CPU`, read once: `avx512` (everything the CPU has), `avx2` (no
/// AVX-512), `baseline` (x86-64's SSE2 only: no SSE4.2, AVX, AVX2, FMA or AVX-512). Unset,
/// empty or any other value: no limit.
uint32_t segue_runtime_features(void);

/// What the running CPU supports, without the `SEGUE_CPU` limit.
uint32_t segue_detected_features(void);

/// One level of a premultiplied RGBA8 image for ``segue_bilinear_span``: its packed rows,
/// its size in texels (`1…16000` a side) and its size over level 0's along x and y.
typedef struct {
  const uint8_t *texels;
  int32_t width;
  int32_t height;
  float scale_x;
  float scale_y;
} segue_bilinear_level;

/// A run of pixels in texel coordinates, homogeneous: pixel `k` is at
/// `((x + k·dx)/(w + k·dw), (y + k·dy)/(w + k·dw))`; one row down adds `row_dx, row_dy, row_dw`
/// (SegueRender's `ProjectiveSpan` in `float`).
typedef struct {
  float x, y, w, dx, dy, dw, row_dx, row_dy, row_dw;
} segue_texel_span;

/// What ``segue_bilinear_span`` does with a footprint.
enum {
  /// Every pixel bilinear on level 0 (`linear` for both filters).
  SEGUE_SPAN_LINEAR = 0,
  /// Bilinear on level 0; stop before a step with a minifying pixel.
  SEGUE_SPAN_MAGNIFYING = 1,
  /// Magnifying pixels bilinear on level 0, minifying ones trilinear; stop before a step
  /// whose pixels do not share one pair of levels.
  SEGUE_SPAN_TRILINEAR = 2,
};

/// SegueRender's image span kernel (the Swift `SpanKernel`'s bilinear and trilinear paths,
/// operation for operation in `float`, no fused multiply-add), 16 pixels per step with AVX-512
/// (F, BW) or 8 with AVX2, chosen once from ``segue_runtime_features``. For pixels
/// `k = start, start + lanes, …` while a whole step fits in `count` (`SEGUE_SPAN_LINEAR`: up to
/// `count`, the last step masked): `r = 1/(w + k·dw)`, `s = (x + k·dx)·r`, `t = (y + k·dy)·r`;
/// on a level, the point is scaled to it and moved by −½, split into texel and 8-bit fraction
/// `f` (`round(256·v)`, `v` clamped to ±16000), and the four texels around it (edges
/// repeated) are mixed per byte as `(a·(256 − f) + b·f + 128) >> 8`. The footprint
/// `ρ² = max(|∂(s, t)/∂x|², |∂(s, t)/∂y|²)` decides as `mode` says (a NaN stops the run);
/// trilinear takes `λ = min(½·log₂ ρ², levels − 1)` (the Swift kernel's `log₂`) and mixes
/// levels `⌊λ⌋` and `⌊λ⌋ + 1` by `⌊256·(λ − ⌊λ⌋) + ½⌋`. Writes RGBA8 at `out + 4·k` and returns
/// the first pixel it did not write (`start` without a vector path).
int segue_bilinear_span(const segue_bilinear_level *levels, int level_count,
                        const segue_texel_span *span, int start, int count, int mode,
                        uint8_t *out);

/// The pixels per step of ``segue_bilinear_span`` on this CPU: 16, 8, or 0 without a vector path.
int segue_bilinear_span_lanes(void);

/// ``segue_bilinear_span`` on the path of `lanes` pixels per step (16: AVX-512, 8: AVX2) when
/// this CPU, limited by `SEGUE_CPU`, has it; otherwise it writes nothing and returns `start`.
/// Lets tests run every path on the same inputs in one process.
int segue_bilinear_span_with_lanes(int lanes, const segue_bilinear_level *levels,
                                   int level_count, const segue_texel_span *span, int start,
                                   int count, int mode, uint8_t *out);

// SegueRender's span-kernel primitives (clamp, alpha broadcast, quantisation).
#include "SegueRenderSupport.h"

#endif  // SEGUE_SIMD_SUPPORT_H
