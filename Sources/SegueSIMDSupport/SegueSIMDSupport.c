#include "SegueSIMDSupport.h"

uint32_t segue_runtime_features(void) {
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
