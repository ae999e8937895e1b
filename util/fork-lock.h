/*
 * Locks held across fork(): in the child a lock the forking thread held
 * is re-created (glibc's recursive mutexes and rwlocks record the parent
 * thread as owner, so unlocking them fails with EPERM; QEMU and glibc's
 * own atfork handlers re-create theirs too).  ThreadSanitizer does not
 * see a re-creation as a release and reports the lock destroyed while
 * locked at exit; linx_fork_lock_released() tells it, just before the
 * re-creation, that the forking thread let go of @lock.  No code in other
 * builds.
 */
#ifndef LINX_UTIL_FORK_LOCK_H
#define LINX_UTIL_FORK_LOCK_H

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define LINX_FORK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <sanitizer/tsan_interface.h>
#define LINX_FORK_TSAN 1
#endif
#endif

/* @lock: a pthread mutex (every recursion level) or (@rwlock) a
 * write-locked rwlock. */
static inline void linx_fork_lock_released(void *lock, int rwlock)
{
#ifdef LINX_FORK_TSAN
    unsigned f = rwlock ? 0 : __tsan_mutex_recursive_unlock;

    __tsan_mutex_pre_unlock(lock, f);
    __tsan_mutex_post_unlock(lock, f);
#else
    (void)lock;
    (void)rwlock;
#endif
}

#endif /* LINX_UTIL_FORK_LOCK_H */
