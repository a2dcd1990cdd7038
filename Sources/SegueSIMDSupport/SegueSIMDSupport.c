#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#include "SegueSIMDSupport.h"

#include <stdlib.h>
#include <string.h>

uint32_t segue_detected_features(void) {
  uint32_t f = 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2")) f |= SEGUE_FEATURE_SSE4_2;
  if (__builtin_cpu_supports("avx")) f |= SEGUE_FEATURE_AVX;
  if (__builtin_cpu_supports("avx2")) f |= SEGUE_FEATURE_AVX2;
  if (__builtin_cpu_supports("fma")) f |= SEGUE_FEATURE_FMA;
  if (__builtin_cpu_supports("avx512f")) f |= SEGUE_FEATURE_AVX512F;
  if (__builtin_cpu_supports("avx512vl")) f |= SEGUE_FEATURE_AVX512VL;
#elif defined(__aarch64__)
  f |= SEGUE_FEATURE_NEON;
#endif
  return f;
}

/// The features `SEGUE_CPU` allows (all bits when it is unset or unknown).
static uint32_t segue_forced_mask(void) {
  const char *name = getenv("SEGUE_CPU");
  const uint32_t avx512 = SEGUE_FEATURE_AVX512F | SEGUE_FEATURE_AVX512VL;
  if (name == 0) return ~0u;
  if (strcmp(name, "avx2") == 0) return ~avx512;
  if (strcmp(name, "baseline") == 0)
    return ~(avx512 | SEGUE_FEATURE_SSE4_2 | SEGUE_FEATURE_AVX | SEGUE_FEATURE_AVX2 |
             SEGUE_FEATURE_FMA);
  return ~0u;
}

uint32_t segue_runtime_features(void) {
  // Computed once (a benign race: every thread computes the same value).
  static uint32_t known = 0;
  static int ready = 0;
  if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) return __atomic_load_n(&known, __ATOMIC_RELAXED);
  uint32_t f = segue_detected_features() & segue_forced_mask();
  __atomic_store_n(&known, f, __ATOMIC_RELAXED);
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  return f;
}

static void segue_gather_pairs_portable(const float *table, const float *index, float *lo,
                                        float *hi) {
  for (int i = 0; i < 16; i++) {
    int b = (int)index[i];
    lo[i] = table[b];
    hi[i] = table[b + 1];
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

__attribute__((target("avx512f"))) static void segue_gather_pairs_avx512(const float *table,
                                                                         const float *index,
                                                                         float *lo, float *hi) {
  __m512i b = _mm512_cvttps_epi32(_mm512_loadu_ps(index));
  _mm512_storeu_ps(lo, _mm512_i32gather_ps(b, table, 4));
  _mm512_storeu_ps(hi, _mm512_i32gather_ps(b, table + 1, 4));
}
#endif

typedef void (*segue_gather_fn)(const float *, const float *, float *, float *);

static segue_gather_fn segue_choose_gather(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  if (segue_runtime_features() & SEGUE_FEATURE_AVX512F) return segue_gather_pairs_avx512;
#endif
  return segue_gather_pairs_portable;
}

void segue_gather_pairs_f32x16(const float *table, const float *index, float *lo, float *hi) {
  static segue_gather_fn chosen = 0;
  segue_gather_fn fn = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
  if (fn == 0) {
    fn = segue_choose_gather();
    __atomic_store_n(&chosen, fn, __ATOMIC_RELAXED);
  }
  fn(table, index, lo, hi);
}

#if defined(__linux__)
#include <sched.h>
#endif

int segue_affinity_cpus(int *cpus, int capacity) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  int count = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++)
    if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
  return count;
#else
  (void)cpus;
  (void)capacity;
  return 0;
#endif
}

int segue_pin_current_thread(int cpu) {
#if defined(__linux__)
  if (cpu < 0 || cpu >= CPU_SETSIZE) return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
#else
  (void)cpu;
  return -1;
#endif
}
