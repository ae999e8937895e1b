/*
 * Atomic accesses for state that several host threads share (the TB
 * cache, jump caches, exit requests, guest memory seen by several guest
 * threads).  Thin names over the GCC __atomic builtins, so the memory
 * order of every shared access is visible where it is made:
 *
 *   atomic_read(p)            relaxed load
 *   atomic_set(p, v)          relaxed store
 *   atomic_load_acq(p)        acquire load (reads what a release published)
 *   atomic_store_rel(p, v)    release store (publishes what was written before)
 *   atomic_cmpxchg(p, o, n)   strong compare-and-swap (seq_cst); returns the old value
 *   atomic_or(p, v)           fetch-or (seq_cst), result ignored
 *   atomic_and(p, v)          fetch-and (seq_cst), result ignored
 *   smp_mb()                  full barrier (store->load ordering too)
 *
 * On x86-64 relaxed, acquire and release accesses are plain moves; only
 * the read-modify-writes and smp_mb() cost anything.  Data touched by
 * several threads must go through these (or a lock): ThreadSanitizer
 * builds (configure --tsan) check it.
 */
#ifndef LINX_UTIL_ATOMIC_H
#define LINX_UTIL_ATOMIC_H

#define atomic_read(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define atomic_set(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define atomic_load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define atomic_store_rel(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define atomic_or(p, v) ((void)__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST))
#define atomic_and(p, v) ((void)__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST))
#define atomic_add_relaxed(p, v) ((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

#define atomic_cmpxchg(p, old, new_)                                                          \
    ({                                                                                        \
        __typeof__(*(p)) atomic_cmpxchg_old_ = (old);                                         \
        __atomic_compare_exchange_n((p), &atomic_cmpxchg_old_, (new_), 0,                 \
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                      \
        atomic_cmpxchg_old_;                                                                  \
    })

/* Functions whose accesses ThreadSanitizer must not instrument: the
 * copies of guest memory made on a guest's behalf (a race there is the
 * guest's, between its own threads, not the emulator's). */
#if defined(__SANITIZE_THREAD__)
#define LINX_NO_TSAN __attribute__((no_sanitize_thread))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LINX_NO_TSAN __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef LINX_NO_TSAN
#define LINX_NO_TSAN
#endif

#endif /* LINX_UTIL_ATOMIC_H */
