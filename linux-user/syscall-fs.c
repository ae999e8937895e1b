/*
 * Linux user mode: system calls on paths and the file system - openat,
 * fstat and newfstatat (asm-generic struct stat), getdents64, unlinkat,
 * mkdirat, renameat2, faccessat, readlinkat, getcwd, chdir, fchdir,
 * ftruncate, fsync, umask.
 *
 * Paths are read from guest memory with lu_read_string (at most
 * LU_PATH_MAX bytes: longer ones give ENAMETOOLONG, unreadable ones
 * EFAULT).  "/proc/self/exe" names the guest program, not the emulator.
 * The open flags are asm-generic; the host uses the same values (checked
 * below at compile time).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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


/* A path argument; "/proc/self/exe" names the guest program, not us.
 * With -L PREFIX an absolute path that exists under PREFIX means that
 * file (qemu-user's interp_prefix rule: a sysroot for the guest). */
int64_t lu_get_path(LinuxProcess *p, uint64_t addr, char **out)
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
        return 0;
    }
    if (p->opts.ld_prefix && (*out)[0] == '/') {
        size_t n = strlen(p->opts.ld_prefix) + strlen(*out) + 1;
        char *mapped = malloc(n);
        struct stat st;
        if (!mapped) {
            return -ENOMEM;
        }
        snprintf(mapped, n, "%s%s", p->opts.ld_prefix, *out);
        if (lstat(mapped, &st) == 0) {
            free(*out);
            *out = mapped;
        } else {
            free(mapped);
        }
    }
    return 0;
}

int64_t lu_sys_openat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd = lu_guest_dirfd(p, a[0]);
    int flags = (int)(uint32_t)a[2];
    char *path;
    int64_t r;

    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    if (flags & ~LINUX_OPEN_FLAGS_KNOWN) {
        return -EINVAL;
    }
    r = lu_get_path(p, a[1], &path);
    if (r < 0) {
        return r;
    }
    int fd = openat(dirfd, path, flags, (mode_t)a[3]);
    r = fd < 0 ? lu_errno() : fd;
    free(path);
    return r;
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
    int fd = lu_guest_fd(p, a[0]);
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
    int dirfd = lu_guest_dirfd(p, a[0]);
    int flags = (int)(uint32_t)a[3];
    struct stat st;
    char *path;
    int64_t r;

    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    r = lu_get_path(p, a[1], &path);
    if (r < 0) {
        return r;
    }
    r = fstatat(dirfd, path, &st, flags) < 0 ? lu_errno() : 0;
    free(path);
    return r < 0 ? r : put_stat(p, a[2], &st);
}

int64_t lu_sys_getdents64(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);
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

/* Common shape of the *at calls taking (dirfd, path). */
static int64_t path_at(LinuxProcess *p, uint64_t dirarg, uint64_t patharg, int *dirfd, char **path)
{
    *dirfd = lu_guest_dirfd(p, dirarg);
    if (*dirfd < 0 && *dirfd != AT_FDCWD) {
        return -EBADF;
    }
    return lu_get_path(p, patharg, path);
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

    dirfd = lu_guest_dirfd(p, a[0]);
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
    int64_t r = lu_get_path(p, a[0], &path);

    if (r < 0) {
        return r;
    }
    r = chdir(path) < 0 ? lu_errno() : 0;
    free(path);
    return r;
}

int64_t lu_sys_fchdir(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return fchdir(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_ftruncate(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return ftruncate(fd, (off_t)a[1]) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_fsync(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int fd = lu_guest_fd(p, a[0]);

    if (fd < 0) {
        return -EBADF;
    }
    return fsync(fd) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_umask(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return (int64_t)umask((mode_t)(a[0] & 0777));
}
