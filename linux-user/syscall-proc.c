/*
 * Linux user mode: process-level system calls (exit, identity, uname,
 * limits, futex, thread bookkeeping).
 *
 * The guest is one process with one thread: its pid and tid are the host
 * process's pid.  Resource limits are a per-process table the guest can
 * read and change without changing the emulator's own limits.
 *
 * futex without other threads: FUTEX_WAKE wakes nobody (0); FUTEX_WAIT
 * returns EAGAIN when the word changed, ETIMEDOUT after sleeping out its
 * timeout, and without a timeout it would wait forever for a wake-up no
 * one can send, so the process is stopped with a "deadlock" report
 * instead of hanging the host.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "syscall-internal.h"

#define LINUX_UTS_LEN 65
#define LINUX_UTS_FIELDS 6
#define LINUX_UTS_RELEASE "6.6.0-linxemu"
#define LINUX_UTS_MACHINE "linx64"
#define LINUX_ROBUST_LIST_HEAD_SIZE 24

/* futex operations (linux/futex.h). */
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

int64_t lu_sys_exit(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    linux_process_set_exit(p, (int)(a[0] & 0xff));
    return LU_RET_NONE;
}

int64_t lu_sys_uname(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    char buf[LINUX_UTS_FIELDS][LINUX_UTS_LEN];
    struct utsname u;

    memset(buf, 0, sizeof(buf));
    if (uname(&u) < 0) {
        return lu_errno();
    }
    snprintf(buf[0], LINUX_UTS_LEN, "%s", "Linux");
    snprintf(buf[1], LINUX_UTS_LEN, "%s", u.nodename);
    snprintf(buf[2], LINUX_UTS_LEN, "%s", LINUX_UTS_RELEASE);
    snprintf(buf[3], LINUX_UTS_LEN, "%s", u.version);
    snprintf(buf[4], LINUX_UTS_LEN, "%s", LINUX_UTS_MACHINE);
#ifdef _GNU_SOURCE
    snprintf(buf[5], LINUX_UTS_LEN, "%s", u.domainname);
#endif
    return lu_copy_to(p, a[0], buf, sizeof(buf));
}

int64_t lu_sys_getpid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return p->pid;
}

int64_t lu_sys_getppid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return getppid();
}

int64_t lu_sys_getuid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return getuid();
}

int64_t lu_sys_geteuid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return geteuid();
}

int64_t lu_sys_getgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return getgid();
}

int64_t lu_sys_getegid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return getegid();
}

int64_t lu_sys_set_tid_address(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    p->clear_child_tid = a[0];
    return p->pid;
}

int64_t lu_sys_set_robust_list(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if (a[1] != LINUX_ROBUST_LIST_HEAD_SIZE) {
        return -EINVAL;
    }
    p->robust_list = a[0];
    p->robust_list_len = a[1];
    return 0;
}

int64_t lu_sys_futex(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int op = (int)(a[1] & ~(uint64_t)(LINUX_FUTEX_PRIVATE_FLAG | LINUX_FUTEX_CLOCK_REALTIME));
    uint32_t word;

    if (a[0] & 3) {
        return -EINVAL;
    }
    switch (op) {
    case LINUX_FUTEX_WAIT:
    case LINUX_FUTEX_WAIT_BITSET:
        if (lu_copy_from(p, &word, a[0], sizeof(word)) < 0) {
            return -EFAULT;
        }
        if (word != (uint32_t)a[2]) {
            return -EAGAIN;
        }
        if (op == LINUX_FUTEX_WAIT_BITSET && (uint32_t)a[5] == 0) {
            return -EINVAL;
        }
        if (a[3]) {
            LinuxGuestTimespec g;
            if (lu_copy_from(p, &g, a[3], sizeof(g)) < 0) {
                return -EFAULT;
            }
            if (g.tv_sec < 0 || g.tv_nsec < 0 || g.tv_nsec >= 1000000000) {
                return -EINVAL;
            }
            struct timespec ts = { g.tv_sec, g.tv_nsec };
            if (op == LINUX_FUTEX_WAIT_BITSET) {
                /* Absolute timeout on the chosen clock. */
                clockid_t clk = (a[1] & LINUX_FUTEX_CLOCK_REALTIME) ? CLOCK_REALTIME
                                                                    : CLOCK_MONOTONIC;
                clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL);
            } else {
                nanosleep(&ts, NULL);
            }
            return -ETIMEDOUT;
        }
        fprintf(stderr,
                "linx-user: deadlock: futex wait on 0x%llx with no timeout, and no other "
                "thread exists to wake it\n",
                (unsigned long long)a[0]);
        linux_process_set_killed(p, LINUX_SIGKILL);
        return LU_RET_NONE;
    case LINUX_FUTEX_WAKE:
    case LINUX_FUTEX_WAKE_BITSET:
    case LINUX_FUTEX_REQUEUE:
    case LINUX_FUTEX_CMP_REQUEUE:
    case LINUX_FUTEX_WAKE_OP:
        return 0; /* no waiters */
    default:
        lu_report_unimp(p, "futex operation %d", op);
        return -ENOSYS;
    }
}

static int64_t get_limit(LinuxProcess *p, unsigned res, uint64_t addr)
{
    if (res >= LINUX_RLIM_NLIMITS) {
        return -EINVAL;
    }
    return lu_copy_to(p, addr, p->rlim[res], sizeof(p->rlim[res]));
}

static int64_t set_limit(LinuxProcess *p, unsigned res, uint64_t addr)
{
    uint64_t v[2];

    if (res >= LINUX_RLIM_NLIMITS) {
        return -EINVAL;
    }
    if (lu_copy_from(p, v, addr, sizeof(v)) < 0) {
        return -EFAULT;
    }
    if (v[0] > v[1]) {
        return -EINVAL;
    }
    if (v[1] > p->rlim[res][1] && geteuid() != 0) {
        return -EPERM;
    }
    p->rlim[res][0] = v[0];
    p->rlim[res][1] = v[1];
    return 0;
}

int64_t lu_sys_prlimit64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int32_t pid = (int32_t)a[0];
    unsigned res = (unsigned)a[1];
    uint64_t old[2];
    int64_t r;

    if (pid != 0 && pid != p->pid) {
        return -EPERM;
    }
    if (res >= LINUX_RLIM_NLIMITS) {
        return -EINVAL;
    }
    memcpy(old, p->rlim[res], sizeof(old));
    if (a[2]) {
        r = set_limit(p, res, a[2]);
        if (r < 0) {
            return r;
        }
    }
    if (a[3]) {
        return lu_copy_to(p, a[3], old, sizeof(old));
    }
    return 0;
}

int64_t lu_sys_getrlimit(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return get_limit(p, (unsigned)a[0], a[1]);
}

int64_t lu_sys_setrlimit(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return set_limit(p, (unsigned)a[0], a[1]);
}

int64_t lu_sys_sched_yield(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return 0;
}

int64_t lu_sys_flush_icache(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    /* Translations follow guest stores to code pages by themselves. */
    return 0;
}
