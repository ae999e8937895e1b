/*
 * Linux user mode: clocks, sleeping and random numbers.
 *
 * Clock ids (CLOCK_REALTIME 0 ... CLOCK_BOOTTIME_ALARM 9, TAI 11) and
 * struct timespec/timeval (two 64-bit words) are the same for guest and
 * host, so these calls pass through with the guest buffers copied.
 * Sleeps really sleep: a guest that sleeps for a second takes a second.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

#include <sys/syscall.h>

#include "safe-syscall.h"
#include "syscall-internal.h"

#define LINUX_CLOCK_MAX 11
#define NSEC_PER_SEC 1000000000
#define LINUX_TIMER_ABSTIME 1
#define LINUX_GRND_MASK 0x7 /* GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE */

static int64_t get_timespec(LinuxProcess *p, uint64_t addr, struct timespec *ts)
{
    LinuxGuestTimespec g;

    if (lu_copy_from(p, &g, addr, sizeof(g)) < 0) {
        return -EFAULT;
    }
    if (g.tv_sec < 0 || g.tv_nsec < 0 || g.tv_nsec >= NSEC_PER_SEC) {
        return -EINVAL;
    }
    ts->tv_sec = g.tv_sec;
    ts->tv_nsec = g.tv_nsec;
    return 0;
}

static int64_t put_timespec(LinuxProcess *p, uint64_t addr, const struct timespec *ts)
{
    LinuxGuestTimespec g = { ts->tv_sec, ts->tv_nsec };

    return lu_copy_to(p, addr, &g, sizeof(g));
}

static bool clock_ok(uint64_t clk)
{
    int c = (int)(int32_t)clk;

    /* Negative ids are per-process/thread CPU clocks and fds: not ours. */
    return c >= 0 && c <= LINUX_CLOCK_MAX && c != 10;
}

int64_t lu_sys_clock_gettime(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    struct timespec ts;

    if (!clock_ok(a[0])) {
        return -EINVAL;
    }
    if (clock_gettime((clockid_t)a[0], &ts) < 0) {
        return lu_errno();
    }
    return put_timespec(p, a[1], &ts);
}

int64_t lu_sys_clock_getres(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    struct timespec ts;

    if (!clock_ok(a[0])) {
        return -EINVAL;
    }
    if (clock_getres((clockid_t)a[0], &ts) < 0) {
        return lu_errno();
    }
    return a[1] ? put_timespec(p, a[1], &ts) : 0;
}

int64_t lu_sys_clock_nanosleep(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    struct timespec req, rem = { 0, 0 };
    int flags = (int)(uint32_t)a[1];
    int64_t r;

    if (!clock_ok(a[0])) {
        return -EINVAL;
    }
    r = get_timespec(p, a[2], &req);
    if (r < 0) {
        return r;
    }
    /* Interruptible (safe-syscall.h): the time left is stored, then the
     * call restarts unless a handler runs (then EINTR). */
    r = linx_safe_syscall(lu_kick(p, env), SYS_clock_nanosleep, (long)a[0],
                          flags & LINUX_TIMER_ABSTIME, (long)&req, (long)&rem, 0, 0);
    if (r == -LU_ERESTARTSYS) {
        if (!(flags & LINUX_TIMER_ABSTIME) && a[3]) {
            put_timespec(p, a[3], &rem);
        }
        r = -LU_ERESTARTNOHAND;
    }
    return r;
}

int64_t lu_sys_nanosleep(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    struct timespec req, rem = { 0, 0 };
    int64_t r = get_timespec(p, a[0], &req);

    if (r < 0) {
        return r;
    }
    r = linx_safe_syscall(lu_kick(p, env), SYS_nanosleep, (long)&req, (long)&rem, 0, 0, 0, 0);
    if (r == -LU_ERESTARTSYS) {
        if (a[1]) {
            put_timespec(p, a[1], &rem);
        }
        r = -LU_ERESTARTNOHAND;
    }
    return r;
}

int64_t lu_sys_gettimeofday(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    struct timeval tv;

    if (gettimeofday(&tv, NULL) < 0) {
        return lu_errno();
    }
    if (a[0]) {
        int64_t g[2] = { tv.tv_sec, tv.tv_usec };
        if (lu_copy_to(p, a[0], g, sizeof(g)) < 0) {
            return -EFAULT;
        }
    }
    if (a[1]) {
        /* struct timezone: minutes west, DST type; UTC, no DST. */
        int32_t tz[2] = { 0, 0 };
        if (lu_copy_to(p, a[1], tz, sizeof(tz)) < 0) {
            return -EFAULT;
        }
    }
    return 0;
}

int64_t lu_sys_getrandom(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    size_t len = a[1] > LU_IO_CHUNK ? LU_IO_CHUNK : (size_t)a[1];
    uint8_t *b;
    ssize_t n;

    if (a[2] & ~(uint64_t)LINUX_GRND_MASK) {
        return -EINVAL;
    }
    if (len == 0) {
        return 0;
    }
    if (lu_check_write(p, a[0], len) < 0) {
        return -EFAULT;
    }
    b = malloc(len);
    if (!b) {
        return -ENOMEM;
    }
    if (p->opts.seeded) {
        linux_random_bytes(p, b, len); /* -seed: reproducible */
        n = (ssize_t)len;
    } else {
        n = getrandom(b, len, (unsigned)a[2]);
    }
    int64_t r = n < 0 ? lu_errno() : n;
    if (n > 0 && lu_copy_to(p, a[0], b, (size_t)n) < 0) {
        r = -EFAULT;
    }
    free(b);
    return r;
}
