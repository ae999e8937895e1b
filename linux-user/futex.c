/*
 * Linux user mode: futex on guest memory (docs/linux-user.md "Threads").
 *
 * Guest RAM is host memory, so a guest futex word is a host futex word:
 * every operation is the host's, on the host address of the guest word
 * (found through the address space, checked for reading: EFAULT
 * otherwise), with the guest's operation, flags, values and timeout
 * (struct timespec has the same layout).  FUTEX_PRIVATE_FLAG passes
 * through (the guest's threads are the host process's threads), and so do
 * shared futexes (the kernel's CHILD_CLEARTID wake is a shared one; see
 * thread.c).  WAIT and WAIT_BITSET block through linx_safe_syscall, so a
 * signal for the thread or the end of the process interrupts them.
 *
 * Supported: WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAKE_OP, WAIT_BITSET,
 * WAKE_BITSET, with FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME.  The
 * priority-inheritance operations are not (ENOSYS, reported under -d
 * unimp); musl does not use them.
 *
 * A private WAIT without a timeout in a process of one thread can never be
 * woken: it stops the process with a "deadlock" report (the rule that bad
 * input never hangs the host).
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "safe-syscall.h"
#include "util/atomic.h"
#include "syscall-internal.h"

enum {
    LINUX_FUTEX_WAIT = 0,
    LINUX_FUTEX_WAKE = 1,
    LINUX_FUTEX_REQUEUE = 3,
    LINUX_FUTEX_CMP_REQUEUE = 4,
    LINUX_FUTEX_WAKE_OP = 5,
    LINUX_FUTEX_WAIT_BITSET = 9,
    LINUX_FUTEX_WAKE_BITSET = 10,
    LINUX_FUTEX_PRIVATE_FLAG = 128,
    LINUX_FUTEX_CLOCK_REALTIME = 256,
};
_Static_assert(FUTEX_WAIT == LINUX_FUTEX_WAIT && FUTEX_WAKE_OP == LINUX_FUTEX_WAKE_OP &&
                   FUTEX_WAIT_BITSET == LINUX_FUTEX_WAIT_BITSET &&
                   FUTEX_PRIVATE_FLAG == LINUX_FUTEX_PRIVATE_FLAG &&
                   FUTEX_CLOCK_REALTIME == LINUX_FUTEX_CLOCK_REALTIME,
               "the host's futex numbering is asm-generic's");
_Static_assert(sizeof(struct timespec) == sizeof(LinuxGuestTimespec), "struct timespec layout");

/* The host address of the 32-bit futex word at guest @addr, or NULL (the
 * caller answers EFAULT): mapped, readable RAM, 4-byte aligned. */
static uint32_t *futex_host(LinuxProcess *p, uint64_t addr)
{
    uint8_t *host = NULL;
    uint64_t fa;

    if (guest_mem_window(p->mem, addr, 1, 4, 4, GM_PROT_READ, &host, &fa) != GM_OK) {
        return NULL;
    }
    return (uint32_t *)host;
}

int64_t lu_sys_futex(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int flags = (int)(a[1] & (LINUX_FUTEX_PRIVATE_FLAG | LINUX_FUTEX_CLOCK_REALTIME));
    int cmd = (int)(a[1] & ~(uint64_t)(LINUX_FUTEX_PRIVATE_FLAG | LINUX_FUTEX_CLOCK_REALTIME));
    uint32_t *uaddr, *uaddr2 = NULL;
    struct timespec ts, *tsp = NULL;
    long r;

    if (a[0] & 3) {
        return -EINVAL;
    }
    switch (cmd) {
    case LINUX_FUTEX_WAIT:
    case LINUX_FUTEX_WAIT_BITSET:
    case LINUX_FUTEX_WAKE:
    case LINUX_FUTEX_WAKE_BITSET:
    case LINUX_FUTEX_REQUEUE:
    case LINUX_FUTEX_CMP_REQUEUE:
    case LINUX_FUTEX_WAKE_OP:
        break;
    default:
        lu_report_unimp(p, "futex operation %d", cmd);
        return -ENOSYS;
    }
    uaddr = futex_host(p, a[0]);
    if (!uaddr) {
        return -EFAULT;
    }
    if (cmd == LINUX_FUTEX_REQUEUE || cmd == LINUX_FUTEX_CMP_REQUEUE ||
        cmd == LINUX_FUTEX_WAKE_OP) {
        if (a[4] & 3) {
            return -EINVAL;
        }
        uaddr2 = futex_host(p, a[4]);
        if (!uaddr2) {
            return -EFAULT;
        }
    }
    switch (cmd) {
    case LINUX_FUTEX_WAIT:
    case LINUX_FUTEX_WAIT_BITSET:
        if (a[3]) {
            LinuxGuestTimespec g;
            if (lu_copy_from(p, &g, a[3], sizeof(g)) < 0) {
                return -EFAULT;
            }
            ts.tv_sec = g.tv_sec;
            ts.tv_nsec = g.tv_nsec;
            tsp = &ts;
        } else if ((flags & LINUX_FUTEX_PRIVATE_FLAG) && atomic_read(uaddr) == (uint32_t)a[2]) {
            /* A private wait with no timeout in a process of one thread:
             * no one could ever wake it (only this process's threads can),
             * so it is reported as a deadlock instead of hanging the host.
             * (A shared futex may be woken by another process.) */
            bool alone;
            pthread_mutex_lock(&p->lock);
            alone = p->nthreads <= 1;
            pthread_mutex_unlock(&p->lock);
            if (alone) {
                fprintf(stderr,
                        "linx-user: deadlock: private futex wait on 0x%llx with no timeout, "
                        "and no other thread exists to wake it\n",
                        (unsigned long long)a[0]);
                linux_process_set_killed(p, LINUX_SIGKILL);
                return LU_RET_NONE;
            }
        }
        /* The host checks the value, the timeout and the bitset. */
        r = linx_safe_syscall(lu_kick(p, env), SYS_futex, (long)uaddr, cmd | flags,
                              (long)(uint32_t)a[2], (long)tsp, 0, (long)(uint32_t)a[5]);
        return r;
    case LINUX_FUTEX_WAKE:
    case LINUX_FUTEX_WAKE_BITSET:
        r = syscall(SYS_futex, uaddr, cmd | flags, (int)(uint32_t)a[2], NULL, NULL, (uint32_t)a[5]);
        break;
    default:
        /* REQUEUE, CMP_REQUEUE, WAKE_OP: a[3] is a count (val2), not a
         * pointer. */
        r = syscall(SYS_futex, uaddr, cmd | flags, (int)(uint32_t)a[2], (long)(uint32_t)a[3],
                    uaddr2, (uint32_t)a[5]);
        break;
    }
    return r < 0 ? lu_errno() : r;
}
