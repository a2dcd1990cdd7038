#include "SegueMallocCounter.h"

// Under AddressSanitizer or ThreadSanitizer the sanitizer runtime owns malloc and free: defining
// them here as well would bypass its bookkeeping (and crash at start-up), so counting is off and
// segue_allocation_counting_available() answers 0.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SEGUE_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SEGUE_UNDER_SANITIZER 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(SEGUE_UNDER_SANITIZER)
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t segue_allocations = 0;
static _Thread_local uint64_t segue_thread_allocations = 0;

static inline void segue_count(void) {
  __atomic_fetch_add(&segue_allocations, 1, __ATOMIC_RELAXED);
  segue_thread_allocations += 1;
}

void *malloc(size_t size) {
  segue_count();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  segue_count();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  segue_count();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
  segue_count();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  segue_count();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  segue_count();
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *p = __libc_memalign(alignment, size);
  if (p == NULL && size != 0) return ENOMEM;
  *result = p;
  return 0;
}

uint64_t segue_allocation_count(void) {
  return __atomic_load_n(&segue_allocations, __ATOMIC_RELAXED);
}

uint64_t segue_thread_allocation_count(void) { return segue_thread_allocations; }

int segue_allocation_counting_available(void) { return 1; }

#else

uint64_t segue_allocation_count(void) { return UINT64_MAX; }

uint64_t segue_thread_allocation_count(void) { return UINT64_MAX; }

int segue_allocation_counting_available(void) { return 0; }

#endif
