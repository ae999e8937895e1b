/*
 * Linux user mode: file I/O system calls.
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "syscall-internal.h"

/* asm-generic open flags: the host (x86-64) uses the same values. */
enum {
    LINUX_O_ACCMODE = 00000003,
    LINUX_O_CREAT = 00000100,
    LINUX_O_EXCL = 00000200,
    LINUX_O_NOCTTY = 00000400,
    LINUX_O_TRUNC = 00001000,
    LINUX_O_APPEND = 00002000,
    LINUX_O_NONBLOCK = 00004000,
    LINUX_O_DSYNC = 00010000,
    LINUX_O_DIRECT = 00040000,
    LINUX_O_LARGEFILE = 00100000,
    LINUX_O_DIRECTORY = 00200000,
    LINUX_O_NOFOLLOW = 00400000,
    LINUX_O_NOATIME = 01000000,
    LINUX_O_CLOEXEC = 02000000,
    LINUX_O_SYNC = 04010000,
    LINUX_O_PATH = 010000000,
    LINUX_O_TMPFILE = 020200000,
};
_Static_assert(O_CREAT == LINUX_O_CREAT && O_EXCL == LINUX_O_EXCL && O_TRUNC == LINUX_O_TRUNC &&
                   O_APPEND == LINUX_O_APPEND && O_NONBLOCK == LINUX_O_NONBLOCK &&
                   O_DIRECTORY == LINUX_O_DIRECTORY && O_NOFOLLOW == LINUX_O_NOFOLLOW &&
                   O_CLOEXEC == LINUX_O_CLOEXEC && O_PATH == LINUX_O_PATH &&
                   O_NOCTTY == LINUX_O_NOCTTY && O_DSYNC == LINUX_O_DSYNC,
               "host open flags must be the asm-generic values");

#define LINUX_OPEN_FLAGS_KNOWN                                                                    \
    (LINUX_O_ACCMODE | LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_NOCTTY | LINUX_O_TRUNC |          \
     LINUX_O_APPEND | LINUX_O_NONBLOCK | LINUX_O_DSYNC | LINUX_O_DIRECT | LINUX_O_LARGEFILE |   \
     LINUX_O_DIRECTORY | LINUX_O_NOFOLLOW | LINUX_O_NOATIME | LINUX_O_CLOEXEC | LINUX_O_SYNC |  \
     LINUX_O_PATH | LINUX_O_TMPFILE)

#define LINUX_AT_FDCWD (-100)

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

/* A guest fd that is a valid int and not one of the emulator's own. */
static int guest_fd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd < 0 || linux_fd_is_reserved(p, fd)) {
        return -1;
    }
    return fd;
}

/* A dirfd argument: AT_FDCWD or a usable descriptor. */
static int guest_dirfd(LinuxProcess *p, uint64_t v)
{
    int fd = (int)(int32_t)v;

    if (fd == LINUX_AT_FDCWD) {
        return AT_FDCWD;
    }
    return guest_fd(p, v);
}

static void *bounce_alloc(size_t len)
{
    return malloc(len < LU_IO_CHUNK ? (len ? len : 1) : LU_IO_CHUNK);
}

/* read/pread: @off < 0 reads at the file position. */
static int64_t do_read(LinuxProcess *p, int fd, uint64_t buf, uint64_t len, int64_t off)
{
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
        ssize_t n = off < 0 ? read(fd, b, want) : pread(fd, b, want, off + done);
        if (n < 0) {
            if (done == 0) {
                done = lu_errno();
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

static int64_t do_write(LinuxProcess *p, int fd, uint64_t buf, uint64_t len, int64_t off)
{
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
        ssize_t n = off < 0 ? write(fd, b, want) : pwrite(fd, b, want, off + done);
        if (n < 0) {
            if (done == 0) {
                done = lu_errno();
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
    return do_read(p, guest_fd(p, a[0]), a[1], a[2], -1);
}

/* Writing to a pipe with no reader: EPIPE, and SIGPIPE for the guest
 * (the host ignores SIGPIPE, linux-user/main.c). */
static int64_t epipe_signal(LinuxProcess *p, int64_t r)
{
    if (r == -EPIPE) {
        LinuxSigInfo info = { .signo = LINUX_SIGPIPE, .code = LINUX_SI_USER, .pid = p->pid };
        linux_signal_queue(p, &info);
    }
    return r;
}

int64_t lu_sys_write(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return epipe_signal(p, do_write(p, guest_fd(p, a[0]), a[1], a[2], -1));
}

int64_t lu_sys_pread64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if ((int64_t)a[3] < 0) {
        return -EINVAL;
    }
    return do_read(p, guest_fd(p, a[0]), a[1], a[2], (int64_t)a[3]);
}

int64_t lu_sys_pwrite64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    if ((int64_t)a[3] < 0) {
        return -EINVAL;
    }
    return epipe_signal(p, do_write(p, guest_fd(p, a[0]), a[1], a[2], (int64_t)a[3]));
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
    int fd = guest_fd(p, a[0]);
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
        int64_t r = do_read(p, fd, iov[i].base, iov[i].len, -1);
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
    int fd = guest_fd(p, a[0]);
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
        ssize_t w = write(fd, b, total);
        done = w < 0 ? lu_errno() : w;
        free(b);
        free(iov);
        return epipe_signal(p, done);
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = do_write(p, fd, iov[i].base, iov[i].len, -1);
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
    return epipe_signal(p, done);
}

/* A path argument; "/proc/self/exe" names the guest program, not us. */
static int64_t get_path(LinuxProcess *p, uint64_t addr, char **out)
{
    int r = lu_read_string(p, addr, LU_PATH_MAX, out);

    if (r < 0) {
        return r;
    }
    if (strcmp(*out, "/proc/self/exe") == 0 && p->exe_path) {
        free(*out);
        *out = strdup(p->exe_path);
        if (!*out) {
            return -ENOMEM;
        }
    }
    return 0;
}

int64_t lu_sys_openat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd = guest_dirfd(p, a[0]);
    int flags = (int)(uint32_t)a[2];
    char *path;
    int64_t r;

    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    if (flags & ~LINUX_OPEN_FLAGS_KNOWN) {
        return -EINVAL;
    }
    r = get_path(p, a[1], &path);
    if (r < 0) {
        return r;
    }
    int fd = openat(dirfd, path, flags, (mode_t)a[3]);
    r = fd < 0 ? lu_errno() : fd;
    free(path);
    return r;
}

int64_t lu_sys_close(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return close(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_lseek(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    off_t r = lseek(fd, (off_t)a[1], (int)(uint32_t)a[2]);
    return r < 0 ? lu_errno() : (int64_t)r;
}

static int64_t put_stat(LinuxProcess *p, uint64_t addr, const struct stat *st)
{
    LinuxGuestStat g;

    memset(&g, 0, sizeof(g));
    g.st_dev = st->st_dev;
    g.st_ino = st->st_ino;
    g.st_mode = st->st_mode;
    g.st_nlink = (uint32_t)st->st_nlink;
    g.st_uid = st->st_uid;
    g.st_gid = st->st_gid;
    g.st_rdev = st->st_rdev;
    g.st_size = st->st_size;
    g.st_blksize = (int32_t)st->st_blksize;
    g.st_blocks = st->st_blocks;
    g.st_atime_sec = st->st_atim.tv_sec;
    g.st_atime_nsec = (uint64_t)st->st_atim.tv_nsec;
    g.st_mtime_sec = st->st_mtim.tv_sec;
    g.st_mtime_nsec = (uint64_t)st->st_mtim.tv_nsec;
    g.st_ctime_sec = st->st_ctim.tv_sec;
    g.st_ctime_nsec = (uint64_t)st->st_ctim.tv_nsec;
    return lu_copy_to(p, addr, &g, sizeof(g));
}

int64_t lu_sys_fstat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);
    struct stat st;

    if (fd < 0) {
        return -EBADF;
    }
    if (fstat(fd, &st) < 0) {
        return lu_errno();
    }
    return put_stat(p, a[1], &st);
}

int64_t lu_sys_newfstatat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd = guest_dirfd(p, a[0]);
    int flags = (int)(uint32_t)a[3];
    struct stat st;
    char *path;
    int64_t r;

    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    r = get_path(p, a[1], &path);
    if (r < 0) {
        return r;
    }
    r = fstatat(dirfd, path, &st, flags) < 0 ? lu_errno() : 0;
    free(path);
    return r < 0 ? r : put_stat(p, a[2], &st);
}

int64_t lu_sys_getdents64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);
    size_t count = a[2] > LU_IO_CHUNK ? LU_IO_CHUNK : (size_t)a[2];
    uint8_t *b;
    long n;

    if (fd < 0) {
        return -EBADF;
    }
    if (lu_check_write(p, a[1], count) < 0) {
        return -EFAULT;
    }
    b = malloc(count ? count : 1);
    if (!b) {
        return -ENOMEM;
    }
    /* struct linux_dirent64 has the same layout for guest and host. */
    n = syscall(SYS_getdents64, fd, b, count);
    int64_t r = n < 0 ? lu_errno() : n;
    if (n > 0 && lu_copy_to(p, a[1], b, (size_t)n) < 0) {
        r = -EFAULT;
    }
    free(b);
    return r;
}

/* Terminal and descriptor ioctls; anything else is ENOTTY (reported
 * under -d unimp). */
int64_t lu_sys_ioctl(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);
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
    int fd = guest_fd(p, a[0]);
    int cmd = (int)(int32_t)a[1];
    uint8_t fl[LINUX_FLOCK_SIZE];
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
        _Static_assert(sizeof(struct flock) == LINUX_FLOCK_SIZE, "struct flock layout");
        if (lu_copy_from(p, fl, a[2], sizeof(fl)) < 0) {
            return -EFAULT;
        }
        if (fcntl(fd, cmd, (struct flock *)fl) < 0) {
            return lu_errno();
        }
        return cmd == LINUX_F_GETLK ? lu_copy_to(p, a[2], fl, sizeof(fl)) : 0;
    default:
        lu_report_unimp(p, "fcntl command %d", cmd);
        return -EINVAL;
    }
}

int64_t lu_sys_dup(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    int r = dup(fd);
    return r < 0 ? lu_errno() : r;
}

int64_t lu_sys_dup3(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int oldfd = guest_fd(p, a[0]), newfd = guest_fd(p, a[1]);

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

/* Common shape of the *at calls taking (dirfd, path). */
static int64_t path_at(LinuxProcess *p, uint64_t dirarg, uint64_t patharg, int *dirfd, char **path)
{
    *dirfd = guest_dirfd(p, dirarg);
    if (*dirfd < 0 && *dirfd != AT_FDCWD) {
        return -EBADF;
    }
    return get_path(p, patharg, path);
}

int64_t lu_sys_unlinkat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd;
    char *path;
    int64_t r = path_at(p, a[0], a[1], &dirfd, &path);

    if (r < 0) {
        return r;
    }
    r = unlinkat(dirfd, path, (int)(uint32_t)a[2]) < 0 ? lu_errno() : 0;
    free(path);
    return r;
}

int64_t lu_sys_mkdirat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd;
    char *path;
    int64_t r = path_at(p, a[0], a[1], &dirfd, &path);

    if (r < 0) {
        return r;
    }
    r = mkdirat(dirfd, path, (mode_t)a[2]) < 0 ? lu_errno() : 0;
    free(path);
    return r;
}

int64_t lu_sys_renameat2(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int olddir, newdir;
    char *oldpath, *newpath;
    int64_t r = path_at(p, a[0], a[1], &olddir, &oldpath);

    if (r < 0) {
        return r;
    }
    r = path_at(p, a[2], a[3], &newdir, &newpath);
    if (r < 0) {
        free(oldpath);
        return r;
    }
    r = syscall(SYS_renameat2, olddir, oldpath, newdir, newpath, (unsigned)a[4]) < 0 ? lu_errno()
                                                                                      : 0;
    free(oldpath);
    free(newpath);
    return r;
}

int64_t lu_sys_faccessat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd;
    char *path;
    int64_t r = path_at(p, a[0], a[1], &dirfd, &path);

    if (r < 0) {
        return r;
    }
    /* The kernel's faccessat has no flags argument (faccessat2 has). */
    r = faccessat(dirfd, path, (int)a[2], 0) < 0 ? lu_errno() : 0;
    free(path);
    return r;
}

int64_t lu_sys_readlinkat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd;
    char *path;
    char target[LU_PATH_MAX];
    ssize_t n;
    int64_t r;

    dirfd = guest_dirfd(p, a[0]);
    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    r = lu_read_string(p, a[1], LU_PATH_MAX, &path);
    if (r < 0) {
        return r;
    }
    if ((int64_t)a[3] <= 0) {
        free(path);
        return -EINVAL;
    }
    if (strcmp(path, "/proc/self/exe") == 0 && p->exe_path) {
        n = (ssize_t)strlen(p->exe_path);
        memcpy(target, p->exe_path, (size_t)n < sizeof(target) ? (size_t)n : sizeof(target));
    } else {
        n = readlinkat(dirfd, path, target, sizeof(target));
    }
    free(path);
    if (n < 0) {
        return lu_errno();
    }
    if ((uint64_t)n > a[3]) {
        n = (ssize_t)a[3];
    }
    if ((size_t)n > sizeof(target)) {
        n = sizeof(target);
    }
    r = lu_copy_to(p, a[2], target, (size_t)n);
    return r < 0 ? r : n;
}

int64_t lu_sys_getcwd(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    char buf[LU_PATH_MAX];
    size_t len;

    if (!getcwd(buf, sizeof(buf))) {
        return lu_errno();
    }
    len = strlen(buf) + 1;
    if (len > a[1]) {
        return -ERANGE;
    }
    int r = lu_copy_to(p, a[0], buf, len);
    /* The system call returns the length including the NUL. */
    return r < 0 ? r : (int64_t)len;
}

int64_t lu_sys_chdir(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    char *path;
    int64_t r = get_path(p, a[0], &path);

    if (r < 0) {
        return r;
    }
    r = chdir(path) < 0 ? lu_errno() : 0;
    free(path);
    return r;
}

int64_t lu_sys_fchdir(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return fchdir(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_ftruncate(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return ftruncate(fd, (off_t)a[1]) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_fsync(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return fsync(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_umask(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return (int64_t)umask((mode_t)(a[0] & 0777));
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
    /* The guest's signal mask (a[3]) does not matter: signals only come
     * from the guest itself, between system calls. */
    int n = ppoll(fds, (nfds_t)nfds, tsp, NULL);
    r = n < 0 ? lu_errno() : n;
    for (uint64_t i = 0; i < nfds && saved; i++) {
        fds[i].fd = saved[i];
    }
    if (n >= 0 && nfds && lu_copy_to(p, a[0], fds, nfds * sizeof(*fds)) < 0) {
        r = -EFAULT;
    }
    /* Like the kernel: the remaining time goes back to the guest, except
     * for a zero timeout, and a read-only timespec is no error. */
    if (n >= 0 && tsp && (gts.tv_sec || gts.tv_nsec)) {
        LinuxGuestTimespec rem = { ts.tv_sec, ts.tv_nsec };
        lu_copy_to(p, a[2], &rem, sizeof(rem));
    }
    free(saved);
    free(fds);
    return r;
}
