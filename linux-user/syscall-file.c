/*
 * Linux user mode: system calls on open descriptors - read, write and
 * their vector and positioned forms, close, lseek, dup, dup3, pipe2,
 * fcntl, ioctl (terminal queries) and ppoll.  Calls that take paths are in
 * syscall-fs.c.
 *
 * Guest file descriptors are host file descriptors (as in QEMU), except
 * the ones the emulator itself uses (-D log, -trace-commit file), which
 * the guest sees as closed (EBADF).
 *
 * Data moves through a bounce buffer in LU_IO_CHUNK pieces: the guest
 * buffer is checked before the host call (so a read never consumes input
 * it cannot store), then copied with guest_mem_write/read.  A transfer
 * stops at the first short host read or write, like the kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <sys/syscall.h>

#include "safe-syscall.h"
#include "syscall-internal.h"

/* Terminal ioctls (asm-generic/ioctls.h, also the host's). */
enum {
    LINUX_TCGETS = 0x5401,
    LINUX_TCSETS = 0x5402,
    LINUX_TCSETSW = 0x5403,
    LINUX_TCSETSF = 0x5404,
    LINUX_TIOCGPGRP = 0x540F,
    LINUX_TIOCGWINSZ = 0x5413,
    LINUX_TIOCSWINSZ = 0x5414,
    LINUX_FIONREAD = 0x541B,
    LINUX_FIONBIO = 0x5421,
    LINUX_FIONCLEX = 0x5450,
    LINUX_FIOCLEX = 0x5451,
};
/* The kernel's struct termios (asm-generic/termbits.h): 4 flags, c_line,
 * 19 control characters. */
#define LINUX_TERMIOS_SIZE 36
#define LINUX_WINSIZE_SIZE 8

/* fcntl commands (asm-generic/fcntl.h). */
enum {
    LINUX_F_DUPFD = 0,
    LINUX_F_GETFD = 1,
    LINUX_F_SETFD = 2,
    LINUX_F_GETFL = 3,
    LINUX_F_SETFL = 4,
    LINUX_F_GETLK = 5,
    LINUX_F_SETLK = 6,
    LINUX_F_SETLKW = 7,
    LINUX_F_DUPFD_CLOEXEC = 1030,
};
/* struct flock (64-bit): type, whence, start, len, pid. */
#define LINUX_FLOCK_SIZE 32
_Static_assert(sizeof(struct flock) == LINUX_FLOCK_SIZE, "struct flock layout");

static void *bounce_alloc(size_t len)
{
    return malloc(len < LU_IO_CHUNK ? (len ? len : 1) : LU_IO_CHUNK);
}

/* read/pread: @off < 0 reads at the file position.  Blocking calls are
 * interruptible (safe-syscall.h): an interrupted call returns what it
 * transferred, or -LU_ERESTARTSYS. */
static int64_t do_read(LinuxProcess *p, CPULinxState *env, int fd, uint64_t buf, uint64_t len,
                       int64_t off)
{
    const int *kick = lu_kick(p, env);

    int64_t done = 0;
    uint8_t *b;

    if (fd < 0) {
        return -EBADF;
    }
    if (len > SSIZE_MAX) {
        return -EINVAL;
    }
    if (lu_check_write(p, buf, len) < 0) {
        return -EFAULT;
    }
    b = bounce_alloc(len);
    if (!b) {
        return -ENOMEM;
    }
    while ((uint64_t)done < len) {
        size_t want = len - done < LU_IO_CHUNK ? (size_t)(len - done) : LU_IO_CHUNK;
        long n = off < 0 ? linx_safe_syscall(kick, SYS_read, fd, (long)b, (long)want, 0, 0, 0)
                         : linx_safe_syscall(kick, SYS_pread64, fd, (long)b, (long)want,
                                             (long)(off + done), 0, 0);
        if (n < 0) {
            if (done == 0) {
                done = n;
            }
            break;
        }
        if (lu_copy_to(p, buf + done, b, (size_t)n) < 0) {
            done = done ? done : -EFAULT;
            break;
        }
        done += n;
        if ((size_t)n < want) {
            break;
        }
    }
    free(b);
    return done;
}

static int64_t do_write(LinuxProcess *p, CPULinxState *env, int fd, uint64_t buf, uint64_t len,
                        int64_t off)
{
    const int *kick = lu_kick(p, env);

    int64_t done = 0;
    uint8_t *b;

    if (fd < 0) {
        return -EBADF;
    }
    if (len > SSIZE_MAX) {
        return -EINVAL;
    }
    b = bounce_alloc(len);
    if (!b) {
        return -ENOMEM;
    }
    while ((uint64_t)done < len) {
        size_t want = len - done < LU_IO_CHUNK ? (size_t)(len - done) : LU_IO_CHUNK;
        if (lu_copy_from(p, b, buf + done, want) < 0) {
            done = done ? done : -EFAULT;
            break;
        }
        long n = off < 0 ? linx_safe_syscall(kick, SYS_write, fd, (long)b, (long)want, 0, 0, 0)
                         : linx_safe_syscall(kick, SYS_pwrite64, fd, (long)b, (long)want,
                                             (long)(off + done), 0, 0);
        if (n < 0) {
            if (done == 0) {
                done = n;
            }
            break;
        }
        done += n;
        if ((size_t)n < want) {
            break;
        }
    }
    free(b);
    return done;
}

int64_t lu_sys_read(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return do_read(p, env, lu_guest_fd(p, a[0]), a[1], a[2], -1);
}

/* Writing to a pipe with no reader: EPIPE, and SIGPIPE for the guest
 * (the host ignores SIGPIPE, linux-user/main.c). */
static int64_t epipe_signal(LinuxProcess *p, CPULinxState *env, int64_t r)
{
    if (r == -EPIPE) {
        LinuxSigInfo info = { .signo = LINUX_SIGPIPE, .code = LINUX_SI_USER, .pid = p->pid };
        linux_signal_queue_thread(linux_thread_of(p, env), &info);
    }
    return r;
}

int64_t lu_sys_write(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return epipe_signal(p, env, do_write(p, env, lu_guest_fd(p, a[0]), a[1], a[2], -1));
}

int64_t lu_sys_pread64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if ((int64_t)a[3] < 0) {
        return -EINVAL;
    }
    return do_read(p, env, lu_guest_fd(p, a[0]), a[1], a[2], (int64_t)a[3]);
}

int64_t lu_sys_pwrite64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if ((int64_t)a[3] < 0) {
        return -EINVAL;
    }
    return epipe_signal(p, env,
                        do_write(p, env, lu_guest_fd(p, a[0]), a[1], a[2], (int64_t)a[3]));
}

/* Read and check a guest iovec array; returns the count or -errno. */
static int64_t read_iov(LinuxProcess *p, uint64_t addr, uint64_t cnt, LinuxGuestIovec **out,
                        uint64_t *total)
{
    LinuxGuestIovec *iov;
    uint64_t sum = 0;

    *out = NULL;
    *total = 0;
    if (cnt > LU_IOV_MAX) {
        return -EINVAL;
    }
    if (cnt == 0) {
        return 0;
    }
    iov = calloc(cnt, sizeof(*iov));
    if (!iov) {
        return -ENOMEM;
    }
    if (lu_copy_from(p, iov, addr, cnt * sizeof(*iov)) < 0) {
        free(iov);
        return -EFAULT;
    }
    for (uint64_t i = 0; i < cnt; i++) {
        if (iov[i].len > SSIZE_MAX || sum + iov[i].len > SSIZE_MAX) {
            free(iov);
            return -EINVAL;
        }
        sum += iov[i].len;
    }
    *out = iov;
    *total = sum;
    return (int64_t)cnt;
}

int64_t lu_sys_readv(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);
    LinuxGuestIovec *iov;
    uint64_t total;
    int64_t n = read_iov(p, a[1], a[2], &iov, &total), done = 0;

    if (fd < 0) {
        free(iov);
        return -EBADF;
    }
    if (n <= 0) {
        return n;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = do_read(p, env, fd, iov[i].base, iov[i].len, -1);
        if (r < 0) {
            done = done ? done : r;
            break;
        }
        done += r;
        if ((uint64_t)r < iov[i].len) {
            break;
        }
    }
    free(iov);
    return done;
}

int64_t lu_sys_writev(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);
    LinuxGuestIovec *iov;
    uint64_t total;
    int64_t n = read_iov(p, a[1], a[2], &iov, &total), done = 0;

    if (fd < 0) {
        free(iov);
        return -EBADF;
    }
    if (n <= 0) {
        return n;
    }
    if (total <= LU_IO_CHUNK) {
        /* Gather small writes into one host write (one line of stdio
         * output stays one write, as on a real kernel). */
        uint8_t *b = malloc(total ? total : 1);
        uint64_t off = 0;
        if (!b) {
            free(iov);
            return -ENOMEM;
        }
        for (int64_t i = 0; i < n; i++) {
            if (lu_copy_from(p, b + off, iov[i].base, iov[i].len) < 0) {
                free(b);
                free(iov);
                return -EFAULT;
            }
            off += iov[i].len;
        }
        done = linx_safe_syscall(lu_kick(p, env), SYS_write, fd, (long)b, (long)total, 0, 0, 0);
        free(b);
        free(iov);
        return epipe_signal(p, env, done);
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = do_write(p, env, fd, iov[i].base, iov[i].len, -1);
        if (r < 0) {
            done = done ? done : r;
            break;
        }
        done += r;
        if ((uint64_t)r < iov[i].len) {
            break;
        }
    }
    free(iov);
    return epipe_signal(p, env, done);
}

int64_t lu_sys_close(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return close(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_lseek(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    off_t r = lseek(fd, (off_t)a[1], (int)(uint32_t)a[2]);
    return r < 0 ? lu_errno() : (int64_t)r;
}

/* Terminal and descriptor ioctls; anything else is ENOTTY (reported
 * under -d unimp). */
int64_t lu_sys_ioctl(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);
    unsigned cmd = (unsigned)a[1];
    uint8_t buf[LINUX_TERMIOS_SIZE];
    int v = 0;

    if (fd < 0) {
        return -EBADF;
    }
    switch (cmd) {
    case LINUX_TCGETS:
        if (ioctl(fd, TCGETS, buf) < 0) {
            return lu_errno();
        }
        return lu_copy_to(p, a[2], buf, LINUX_TERMIOS_SIZE);
    case LINUX_TCSETS:
    case LINUX_TCSETSW:
    case LINUX_TCSETSF:
        if (lu_copy_from(p, buf, a[2], LINUX_TERMIOS_SIZE) < 0) {
            return -EFAULT;
        }
        return ioctl(fd, cmd, buf) < 0 ? lu_errno() : 0;
    case LINUX_TIOCGWINSZ:
        if (ioctl(fd, TIOCGWINSZ, buf) < 0) {
            return lu_errno();
        }
        return lu_copy_to(p, a[2], buf, LINUX_WINSIZE_SIZE);
    case LINUX_TIOCSWINSZ:
        if (lu_copy_from(p, buf, a[2], LINUX_WINSIZE_SIZE) < 0) {
            return -EFAULT;
        }
        return ioctl(fd, TIOCSWINSZ, buf) < 0 ? lu_errno() : 0;
    case LINUX_TIOCGPGRP:
    case LINUX_FIONREAD:
        if (ioctl(fd, cmd, &v) < 0) {
            return lu_errno();
        }
        return lu_copy_to(p, a[2], &v, sizeof(v));
    case LINUX_FIONBIO:
        if (lu_copy_from(p, &v, a[2], sizeof(v)) < 0) {
            return -EFAULT;
        }
        return ioctl(fd, FIONBIO, &v) < 0 ? lu_errno() : 0;
    case LINUX_FIOCLEX:
    case LINUX_FIONCLEX:
        return ioctl(fd, cmd) < 0 ? lu_errno() : 0;
    default:
        lu_report_unimp(p, "ioctl 0x%x on fd %d", cmd, fd);
        return -ENOTTY;
    }
}

int64_t lu_sys_fcntl(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);
    int cmd = (int)(int32_t)a[1];
    struct flock fl;
    int r;

    if (fd < 0) {
        return -EBADF;
    }
    switch (cmd) {
    case LINUX_F_DUPFD:
    case LINUX_F_DUPFD_CLOEXEC:
    case LINUX_F_GETFD:
    case LINUX_F_SETFD:
    case LINUX_F_GETFL:
    case LINUX_F_SETFL:
        r = fcntl(fd, cmd, (int)a[2]);
        return r < 0 ? lu_errno() : r;
    case LINUX_F_GETLK:
    case LINUX_F_SETLK:
    case LINUX_F_SETLKW:
        /* struct flock has the same 64-bit layout on the host. */
        if (lu_copy_from(p, &fl, a[2], sizeof(fl)) < 0) {
            return -EFAULT;
        }
        if (fcntl(fd, cmd, &fl) < 0) {
            return lu_errno();
        }
        return cmd == LINUX_F_GETLK ? lu_copy_to(p, a[2], &fl, sizeof(fl)) : 0;
    default:
        lu_report_unimp(p, "fcntl command %d", cmd);
        return -EINVAL;
    }
}

int64_t lu_sys_dup(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    int r = dup(fd);
    return r < 0 ? lu_errno() : r;
}

int64_t lu_sys_dup3(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int oldfd = lu_guest_fd(p, a[0]), newfd = lu_guest_fd(p, a[1]);

    if (oldfd < 0 || newfd < 0) {
        return -EBADF;
    }
    if (oldfd == newfd) {
        return -EINVAL;
    }
    int r = dup3(oldfd, newfd, (int)(uint32_t)a[2]);
    return r < 0 ? lu_errno() : r;
}

int64_t lu_sys_pipe2(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fds[2];

    if (lu_check_write(p, a[0], sizeof(fds)) < 0) {
        return -EFAULT;
    }
    if (pipe2(fds, (int)(uint32_t)a[1]) < 0) {
        return lu_errno();
    }
    int32_t g[2] = { fds[0], fds[1] };
    return lu_copy_to(p, a[0], g, sizeof(g));
}

/* struct pollfd: int fd, short events, short revents (same as host). */
int64_t lu_sys_ppoll(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t nfds = a[1];
    struct pollfd *fds = NULL;
    LinuxGuestTimespec gts;
    struct timespec ts, *tsp = NULL;
    int64_t r;

    _Static_assert(sizeof(struct pollfd) == 8, "struct pollfd layout");
    if (nfds > p->rlim[LINUX_RLIMIT_NOFILE][0] || nfds > LU_POLL_MAX) {
        return -EINVAL;
    }
    if (a[2]) {
        if (lu_copy_from(p, &gts, a[2], sizeof(gts)) < 0) {
            return -EFAULT;
        }
        if (gts.tv_sec < 0 || gts.tv_nsec < 0 || gts.tv_nsec >= 1000000000) {
            return -EINVAL;
        }
        ts.tv_sec = gts.tv_sec;
        ts.tv_nsec = gts.tv_nsec;
        tsp = &ts;
    }
    if (nfds) {
        fds = calloc(nfds, sizeof(*fds));
        if (!fds) {
            return -ENOMEM;
        }
        if (lu_copy_from(p, fds, a[0], nfds * sizeof(*fds)) < 0) {
            free(fds);
            return -EFAULT;
        }
    }
    /* The emulator's own descriptors look closed (POLLNVAL). */
    int *saved = nfds ? calloc(nfds, sizeof(int)) : NULL;
    for (uint64_t i = 0; i < nfds && saved; i++) {
        saved[i] = fds[i].fd;
        if (fds[i].fd >= 0 && linux_fd_is_reserved(p, fds[i].fd)) {
            fds[i].fd = INT32_MAX;
        }
    }
    /* Interruptible (a kick returns -LU_ERESTARTNOHAND: restarted unless
     * a handler runs).  The guest's temporary signal mask (a[3]) is not
     * applied: the thread's own mask stays in force during the wait. */
    r = linx_safe_syscall(lu_kick(p, env), SYS_ppoll, (long)fds, (long)nfds, (long)tsp, 0, 0, 0);
    if (r == -LU_ERESTARTSYS) {
        r = -LU_ERESTARTNOHAND;
    }
    for (uint64_t i = 0; i < nfds && saved; i++) {
        fds[i].fd = saved[i];
    }
    if (r >= 0 && nfds && lu_copy_to(p, a[0], fds, nfds * sizeof(*fds)) < 0) {
        r = -EFAULT;
    }
    /* Like the kernel: the remaining time goes back to the guest, except
     * for a zero timeout, and a read-only timespec is no error. */
    if (r >= 0 && tsp && (gts.tv_sec || gts.tv_nsec)) {
        LinuxGuestTimespec rem = { ts.tv_sec, ts.tv_nsec };
        lu_copy_to(p, a[2], &rem, sizeof(rem));
    }
    free(saved);
    free(fds);
    return r;
}
