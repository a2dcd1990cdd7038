// The allocation counter of segue-bench and the allocation tests (never linked into the library):
// a counting malloc interposer. The executable defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc
// and memalign; each forwards to glibc's __libc_* entry point and bumps a relaxed atomic counter.
#ifndef SEGUE_MALLOC_COUNTER_H
#define SEGUE_MALLOC_COUNTER_H

#include <stdint.h>

/// Number of allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// made by the process so far, or UINT64_MAX when counting is not available on this platform.
uint64_t segue_allocation_count(void);

/// Number of allocation calls made by the calling thread so far (a thread-local counter, so
/// allocations of other threads, e.g. tests running in parallel, are not counted), or UINT64_MAX
/// when counting is not available on this platform.
uint64_t segue_thread_allocation_count(void);

/// 1 when the interposer is active (glibc, no sanitizer), else 0.
int segue_allocation_counting_available(void);

#endif  // SEGUE_MALLOC_COUNTER_H
