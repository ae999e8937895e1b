/*
 * linux-user file I/O system calls, called through linux_syscall() with a
 * hand-made CPU state, on real files in a temporary directory.
 *
 * Each test checks values: bytes read back, struct stat fields at their
 * asm-generic offsets, directory entries, errno results for bad
 * descriptors and bad guest pointers (EFAULT, and no input consumed).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-linux-user-util.h"

#define AT_FDCWD_GUEST ((uint64_t)(int64_t)-100)
#define G_PATH (TEST_SCRATCH + 0x0)
#define G_BUF (TEST_SCRATCH + 0x1000)
#define G_STAT (TEST_SCRATCH + 0x2000)
#define G_IOV (TEST_SCRATCH + 0x3000)
#define G_FDS (TEST_SCRATCH + 0x3800)
#define UNMAPPED UINT64_C(0x900000000)

typedef struct Fixture {
    LinuxProcess *p;
    CPULinxState *env;
    char dir[64];
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->p = test_process(stderr);
    f->env = test_cpu(f->p);
    strcpy(f->dir, "/tmp/linx-lu-file-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    linux_process_free(f->p);
    free(f->env);
    free(f);
    return 0;
}

static uint64_t put_path(LinuxProcess *p, const char *dir, const char *name)
{
    char path[256];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return test_poke(p, G_PATH, path, strlen(path) + 1);
}

static void test_write_read_stat(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint8_t st[128], buf[16];

    int64_t fd = SYS4(NR_openat, AT_FDCWD_GUEST, put_path(p, f->dir, "a.txt"),
                      O_WRONLY | O_CREAT | O_TRUNC, 0640);
    assert_true(fd >= 3);
    test_poke(p, G_BUF, "hello world", 11);
    assert_int_equal(SYS3(NR_write, fd, G_BUF, 11), 11);
    assert_int_equal(SYS4(NR_pwrite64, fd, G_BUF, 5, 20), 5);
    assert_int_equal(SYS1(NR_close, fd), 0);
    assert_int_equal(SYS1(NR_close, fd), -EBADF);

    fd = SYS4(NR_openat, AT_FDCWD_GUEST, G_PATH, O_RDONLY, 0);
    assert_true(fd >= 3);
    assert_int_equal(SYS2(NR_fstat, fd, G_STAT), 0);
    assert_int_equal(guest_mem_read(p->mem, G_STAT, st, sizeof(st), GM_PROT_READ, NULL), GM_OK);
    /* asm-generic struct stat: st_mode at 16, st_size at 48, st_blksize at 56. */
    uint32_t mode;
    memcpy(&mode, st + 16, 4);
    assert_int_equal(mode & 0777, 0640);
    assert_true(S_ISREG(mode));
    assert_int_equal(test_get64(st + 48), 25);
    struct stat hs;
    assert_int_equal(stat(f->dir, &hs), 0);
    char hostpath[256];
    snprintf(hostpath, sizeof(hostpath), "%s/a.txt", f->dir);
    assert_int_equal(stat(hostpath, &hs), 0);
    assert_int_equal(test_get64(st + 8), hs.st_ino);

    assert_int_equal(SYS3(NR_read, fd, G_BUF, 5), 5);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, buf, 5, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "hello", 5);
    assert_int_equal(SYS3(NR_lseek, fd, 6, SEEK_SET), 6);
    assert_int_equal(SYS3(NR_read, fd, G_BUF, 100), 19); /* to end of file (hole + "hello") */
    assert_int_equal(SYS4(NR_pread64, fd, G_BUF, 5, 20), 5);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, buf, 5, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "hello", 5);
    assert_int_equal(SYS3(NR_read, fd, G_BUF, 10), 0); /* EOF */

    /* newfstatat on the path gives the same size. */
    assert_int_equal(SYS4(NR_newfstatat, AT_FDCWD_GUEST, G_PATH, G_STAT, 0), 0);
    assert_int_equal(test_peek64(p, G_STAT + 48), 25);
    assert_int_equal(SYS1(NR_close, fd), 0);

    /* A missing file. */
    assert_int_equal(SYS4(NR_openat, AT_FDCWD_GUEST, put_path(p, f->dir, "nope"), O_RDONLY, 0),
                     -ENOENT);
    assert_int_equal(SYS4(NR_newfstatat, AT_FDCWD_GUEST, G_PATH, G_STAT, 0), -ENOENT);
    /* Bad flags and bad descriptors. */
    assert_int_equal(SYS4(NR_openat, AT_FDCWD_GUEST, G_PATH, 0x40000000, 0), -EINVAL);
    assert_int_equal(SYS3(NR_read, 999, G_BUF, 1), -EBADF);
    assert_int_equal(SYS3(NR_read, (uint64_t)-5, G_BUF, 1), -EBADF);
}

static void test_efault(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    int32_t fds[2];
    uint8_t buf[4];

    assert_int_equal(SYS2(NR_pipe2, G_FDS, 0), 0);
    assert_int_equal(guest_mem_read(p->mem, G_FDS, fds, 8, GM_PROT_READ, NULL), GM_OK);
    test_poke(p, G_BUF, "abc", 3);
    assert_int_equal(SYS3(NR_write, fds[1], G_BUF, 3), 3);
    /* Reading into an unmapped buffer fails and consumes nothing. */
    assert_int_equal(SYS3(NR_read, fds[0], UNMAPPED, 3), -EFAULT);
    /* A buffer running off the end of the mapping: EFAULT as a whole. */
    assert_int_equal(SYS3(NR_read, fds[0], TEST_SCRATCH + TEST_SCRATCH_SIZE - 1, 3), -EFAULT);
    assert_int_equal(SYS3(NR_read, fds[0], G_BUF + 100, 3), 3);
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 100, buf, 3, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "abc", 3);
    /* Writing from unmapped memory, and a path in unmapped memory. */
    assert_int_equal(SYS3(NR_write, fds[1], UNMAPPED, 3), -EFAULT);
    assert_int_equal(SYS4(NR_openat, AT_FDCWD_GUEST, UNMAPPED, O_RDONLY, 0), -EFAULT);
    assert_int_equal(SYS2(NR_fstat, fds[0], UNMAPPED), -EFAULT);
    /* A read-only guest buffer cannot receive data. */
    assert_true(guest_mem_map(p->mem, 0x200000, 0x1000, GM_PROT_READ, false));
    assert_int_equal(SYS3(NR_write, fds[1], G_BUF, 3), 3);
    assert_int_equal(SYS3(NR_read, fds[0], 0x200000, 3), -EFAULT);
    assert_int_equal(SYS3(NR_read, fds[0], G_BUF, 3), 3);
    /* A path without a terminator within the limit. */
    uint8_t *junk = malloc(0x1000);
    memset(junk, 'x', 0x1000);
    test_poke(p, TEST_SCRATCH + 0x4000, junk, 0x1000);
    test_poke(p, TEST_SCRATCH + 0x5000, junk, 0x1000);
    free(junk);
    assert_int_equal(SYS4(NR_openat, AT_FDCWD_GUEST, TEST_SCRATCH + 0x4000, O_RDONLY, 0),
                     -ENAMETOOLONG);
    SYS1(NR_close, fds[0]);
    SYS1(NR_close, fds[1]);
}

static void test_vectors_and_pipes(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    int32_t fds[2];
    uint8_t buf[16];
    uint64_t iov[4] = { G_BUF, 3, G_BUF + 7, 4 };

    assert_int_equal(SYS2(NR_pipe2, G_FDS, O_CLOEXEC), 0);
    assert_int_equal(guest_mem_read(p->mem, G_FDS, fds, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    test_poke(p, G_BUF, "abcXXXXdefg", 11);
    test_poke(p, G_IOV, iov, sizeof(iov));
    assert_int_equal(SYS3(NR_writev, fds[1], G_IOV, 2), 7);
    uint64_t riov[4] = { G_BUF + 0x100, 2, G_BUF + 0x200, 5 };
    test_poke(p, G_IOV, riov, sizeof(riov));
    assert_int_equal(SYS3(NR_readv, fds[0], G_IOV, 2), 7);
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 0x100, buf, 2, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "ab", 2);
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 0x200, buf, 5, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "cdefg", 5);
    /* Too many vectors, and a vector array in unmapped memory. */
    assert_int_equal(SYS3(NR_writev, fds[1], G_IOV, 5000), -EINVAL);
    assert_int_equal(SYS3(NR_writev, fds[1], UNMAPPED, 2), -EFAULT);

    /* dup, dup3, fcntl. */
    int64_t d = SYS1(NR_dup, fds[1]);
    assert_true(d > fds[1]);
    assert_int_equal(SYS3(NR_dup3, fds[1], 100, 0), 100);
    assert_int_equal(SYS3(NR_dup3, 100, 100, 0), -EINVAL);
    assert_int_equal(SYS2(NR_fcntl, 100, F_GETFL) & O_ACCMODE, O_WRONLY);
    test_poke(p, G_BUF, "Z", 1);
    assert_int_equal(SYS3(NR_write, 100, G_BUF, 1), 1);
    assert_int_equal(SYS3(NR_read, fds[0], G_BUF + 0x300, 1), 1);
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 0x300, buf, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(buf[0], 'Z');
    /* Terminal ioctls on a pipe. */
    assert_int_equal(SYS3(NR_ioctl, fds[0], 0x5401, G_BUF), -ENOTTY); /* TCGETS */
    assert_int_equal(SYS3(NR_ioctl, fds[0], 0x5413, G_BUF), -ENOTTY); /* TIOCGWINSZ */
    assert_int_equal(SYS3(NR_ioctl, fds[0], 0x1234, G_BUF), -ENOTTY);
    /* FIONREAD counts the bytes waiting. */
    assert_int_equal(SYS3(NR_write, fds[1], G_BUF, 1), 1);
    assert_int_equal(SYS3(NR_ioctl, fds[0], 0x541B, G_BUF + 0x400), 0);
    int32_t avail;
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 0x400, &avail, 4, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(avail, 1);
    /* ppoll: the read end is readable now. */
    int32_t pfd[2] = { fds[0], 1 /* POLLIN */ };
    test_poke(p, G_BUF + 0x500, pfd, sizeof(pfd));
    assert_int_equal(SYS4(NR_ppoll, G_BUF + 0x500, 1, 0, 0), 1);
    assert_int_equal(guest_mem_read(p->mem, G_BUF + 0x500, pfd, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(pfd[1] >> 16, 1); /* revents = POLLIN */
    SYS1(NR_close, d);
    SYS1(NR_close, 100);
    SYS1(NR_close, fds[0]);
    SYS1(NR_close, fds[1]);
}

static void test_directories(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    char cwd[512], buf[512];

    assert_int_equal(SYS3(NR_mkdirat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub"), 0755), 0);
    assert_int_equal(SYS3(NR_mkdirat, AT_FDCWD_GUEST, G_PATH, 0755), -EEXIST);
    int64_t fd = SYS4(NR_openat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub/file1"),
                      O_WRONLY | O_CREAT, 0600);
    assert_true(fd >= 0);
    SYS1(NR_close, fd);
    assert_int_equal(SYS4(NR_faccessat, AT_FDCWD_GUEST, G_PATH, R_OK, 0), 0);

    /* getdents64 lists the file. */
    int64_t dfd = SYS4(NR_openat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub"),
                       O_RDONLY | O_DIRECTORY, 0);
    assert_true(dfd >= 0);
    int64_t n = SYS3(NR_getdents64, dfd, G_BUF, 4096);
    assert_true(n > 0);
    uint8_t *ents = malloc((size_t)n);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, ents, (size_t)n, GM_PROT_READ, NULL), GM_OK);
    bool seen = false;
    for (int64_t off = 0; off < n;) {
        uint16_t reclen;
        memcpy(&reclen, ents + off + 16, 2);
        if (!strcmp((char *)ents + off + 19, "file1")) {
            seen = true;
            assert_int_equal(ents[off + 18], DT_REG);
        }
        assert_true(reclen > 0);
        off += reclen;
    }
    assert_true(seen);
    free(ents);
    SYS1(NR_close, dfd);

    /* chdir + getcwd (the call returns the length with the NUL). */
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    assert_int_equal(SYS1(NR_chdir, put_path(p, f->dir, "sub")), 0);
    int64_t len = SYS2(NR_getcwd, G_BUF, 512);
    assert_true(len > 1);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, buf, (size_t)len, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(strlen(buf) + 1, (size_t)len);
    assert_non_null(strstr(buf, "/sub"));
    assert_int_equal(SYS2(NR_getcwd, G_BUF, 2), -ERANGE);
    assert_int_equal(chdir(cwd), 0);

    /* unlinkat: the file, then the directory (AT_REMOVEDIR 0x200). */
    assert_int_equal(SYS3(NR_unlinkat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub"), 0x200),
                     -ENOTEMPTY);
    assert_int_equal(SYS3(NR_unlinkat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub/file1"), 0), 0);
    assert_int_equal(SYS3(NR_unlinkat, AT_FDCWD_GUEST, put_path(p, f->dir, "sub"), 0x200), 0);
    assert_int_equal(SYS4(NR_faccessat, AT_FDCWD_GUEST, G_PATH, F_OK, 0), -ENOENT);
}

/* A write to a pipe with no reader: EPIPE and a pending SIGPIPE (the
 * host ignores SIGPIPE); ppoll with a zero timeout in read-only memory
 * succeeds (the kernel does not write the remaining time back). */
static void test_epipe_and_ppoll_timeout(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    int32_t fds[2];
    LinuxSyscallAction act;

    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(SYS2(NR_pipe2, G_FDS, 0), 0);
    assert_int_equal(guest_mem_read(p->mem, G_FDS, fds, 8, GM_PROT_READ, NULL), GM_OK);
    int32_t pfd[2] = { fds[0], 1 };
    test_poke(p, G_BUF, pfd, sizeof(pfd));
    uint64_t zero[2] = { 0, 0 };
    assert_true(guest_mem_map(p->mem, 0x300000, 0x1000, GM_PROT_READ | GM_PROT_WRITE, false));
    test_poke(p, 0x300000, zero, sizeof(zero));
    assert_true(guest_mem_protect(p->mem, 0x300000, 0x1000, GM_PROT_READ));
    assert_int_equal(SYS4(NR_ppoll, G_BUF, 1, 0x300000, 0), 0);
    SYS1(NR_close, fds[0]);
    test_poke(p, G_BUF, "x", 1);
    assert_int_equal(test_syscall(p, env, NR_write, fds[1], G_BUF, 1, 0, 0, 0, &act), -EPIPE);
    assert_int_equal(act, LINUX_SYSCALL_SIGNAL);
    assert_true(p->main.sig.pending & (UINT64_C(1) << (LINUX_SIGPIPE - 1)));
    SYS1(NR_close, fds[1]);
}

/* The emulator's own descriptors are invisible to the guest. */
static void test_reserved_fds(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    char path[128];

    snprintf(path, sizeof(path), "%s/log", f->dir);
    int own = open(path, O_WRONLY | O_CREAT, 0600);
    assert_true(own >= 0);
    linux_process_reserve_fd(p, own);
    test_poke(p, G_BUF, "x", 1);
    assert_int_equal(SYS3(NR_write, own, G_BUF, 1), -EBADF);
    assert_int_equal(SYS1(NR_close, own), -EBADF);
    assert_int_equal(SYS3(NR_dup3, 1, own, 0), -EBADF);
    assert_int_equal(SYS2(NR_fstat, own, G_STAT), -EBADF);
    /* Still open for us. */
    assert_int_equal(write(own, "y", 1), 1);
    close(own);
}

static void test_proc_self_exe(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    char buf[64];

    p->exe_path = strdup("/opt/guest/prog");
    test_poke(p, G_PATH, "/proc/self/exe", 15);
    assert_int_equal(SYS4(78, AT_FDCWD_GUEST, G_PATH, G_BUF, 64), 15);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, buf, 15, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(buf, "/opt/guest/prog", 15);
    /* Truncated to the buffer, no NUL, like readlink. */
    assert_int_equal(SYS4(78, AT_FDCWD_GUEST, G_PATH, G_BUF, 4), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_read_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_efault, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vectors_and_pipes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directories, setup, teardown),
        cmocka_unit_test_setup_teardown(test_epipe_and_ppoll_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reserved_fds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_proc_self_exe, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
