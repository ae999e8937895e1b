/*
 * linux-user: clocks, process identity and limits, futex without other
 * threads, exit, unimplemented calls (-ENOSYS, reported once) and the
 * -strace output format.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-linux-user-util.h"

#define G_TS (TEST_SCRATCH + 0x100)
#define G_BUF (TEST_SCRATCH + 0x1000)

typedef struct Fixture {
    LinuxProcess *p;
    CPULinxState *env;
    FILE *log;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->log = tmpfile();
    f->p = test_process(f->log);
    f->env = test_cpu(f->p);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    linux_process_free(f->p);
    free(f->env);
    fclose(f->log);
    free(f);
    return 0;
}

static char *log_text(Fixture *f)
{
    long n;
    char *s;

    fflush(f->log);
    n = ftell(f->log);
    s = calloc(1, (size_t)n + 1);
    rewind(f->log);
    assert_int_equal(fread(s, 1, (size_t)n, f->log), (size_t)n);
    return s;
}

static void test_clocks(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    struct timespec host;

    clock_gettime(CLOCK_MONOTONIC, &host);
    assert_int_equal(SYS2(NR_clock_gettime, 1, G_TS), 0);
    int64_t sec = (int64_t)test_peek64(p, G_TS), nsec = (int64_t)test_peek64(p, G_TS + 8);
    assert_true(sec >= host.tv_sec && sec <= host.tv_sec + 5);
    assert_true(nsec >= 0 && nsec < 1000000000);
    assert_int_equal(SYS2(NR_clock_gettime, 0, G_TS), 0);
    assert_true(test_peek64(p, G_TS) > 1600000000); /* after 2020 */
    assert_int_equal(SYS2(NR_clock_gettime, 77, G_TS), -EINVAL);
    assert_int_equal(SYS2(NR_clock_gettime, 1, 0x900000000ull), -EFAULT);
    assert_int_equal(SYS2(NR_clock_getres, 1, G_TS), 0);
    assert_true(test_peek64(p, G_TS + 8) > 0);

    /* Sleep 2 ms with both calls; the monotonic clock moves forward. */
    uint64_t ts[2] = { 0, 2000000 };
    test_poke(p, G_TS, ts, sizeof(ts));
    clock_gettime(CLOCK_MONOTONIC, &host);
    assert_int_equal(SYS2(NR_nanosleep, G_TS, 0), 0);
    assert_int_equal(SYS4(NR_clock_nanosleep, 1, 0, G_TS, 0), 0);
    struct timespec after;
    clock_gettime(CLOCK_MONOTONIC, &after);
    int64_t ns = (after.tv_sec - host.tv_sec) * 1000000000 + (after.tv_nsec - host.tv_nsec);
    assert_true(ns >= 4000000);
    uint64_t bad[2] = { 0, 1000000000 };
    test_poke(p, G_TS, bad, sizeof(bad));
    assert_int_equal(SYS2(NR_nanosleep, G_TS, 0), -EINVAL);

    assert_int_equal(SYS2(NR_gettimeofday, G_TS, 0), 0);
    assert_true(test_peek64(p, G_TS) > 1600000000);
    assert_true(test_peek64(p, G_TS + 8) < 1000000);

    /* getrandom fills the buffer (two calls differ). */
    uint8_t r1[32], r2[32];
    assert_int_equal(SYS3(NR_getrandom, G_BUF, 32, 0), 32);
    guest_mem_read(p->mem, G_BUF, r1, 32, GM_PROT_READ, NULL);
    assert_int_equal(SYS3(NR_getrandom, G_BUF, 32, 0), 32);
    guest_mem_read(p->mem, G_BUF, r2, 32, GM_PROT_READ, NULL);
    assert_memory_not_equal(r1, r2, 32);
    assert_int_equal(SYS3(NR_getrandom, G_BUF, 32, 0x100), -EINVAL);
}

static void test_identity_and_limits(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    char u[6][65];

    assert_int_equal(SYS0(NR_getpid), getpid());
    assert_int_equal(SYS0(NR_gettid), getpid());
    assert_int_equal(SYS0(NR_getppid), getppid());
    assert_int_equal(SYS0(NR_getuid), getuid());
    assert_int_equal(SYS0(NR_geteuid), geteuid());
    assert_int_equal(SYS0(NR_getgid), getgid());
    assert_int_equal(SYS0(NR_getegid), getegid());
    assert_int_equal(SYS1(NR_set_tid_address, 0x12340), getpid());
    assert_int_equal(p->main.clear_child_tid, 0x12340);
    assert_int_equal(SYS2(NR_set_robust_list, G_BUF, 24), 0);
    assert_int_equal(SYS2(NR_set_robust_list, G_BUF, 16), -EINVAL);
    assert_int_equal(SYS0(NR_sched_yield), 0);

    assert_int_equal(SYS1(NR_uname, G_BUF), 0);
    assert_int_equal(guest_mem_read(p->mem, G_BUF, u, sizeof(u), GM_PROT_READ, NULL), GM_OK);
    assert_string_equal(u[0], "Linux");
    assert_string_equal(u[4], "linx64");

    /* The stack limit is the guest's own; set and read back. */
    assert_int_equal(SYS4(NR_prlimit64, 0, LINUX_RLIMIT_STACK, 0, G_BUF), 0);
    assert_int_equal(test_peek64(p, G_BUF), LINUX_STACK_SIZE);
    uint64_t lim[2] = { 4096, test_peek64(p, G_BUF + 8) };
    test_poke(p, G_BUF + 0x100, lim, sizeof(lim));
    assert_int_equal(SYS4(NR_prlimit64, 0, LINUX_RLIMIT_NOFILE, G_BUF + 0x100, G_BUF), 0);
    assert_int_equal(SYS2(NR_getrlimit, LINUX_RLIMIT_NOFILE, G_BUF), 0);
    assert_int_equal(test_peek64(p, G_BUF), 4096);
    assert_int_equal(SYS4(NR_prlimit64, 1, LINUX_RLIMIT_NOFILE, 0, G_BUF), -EPERM);
    assert_int_equal(SYS4(NR_prlimit64, 0, 99, 0, G_BUF), -EINVAL);
    uint64_t inverted[2] = { 10, 5 };
    test_poke(p, G_BUF + 0x100, inverted, sizeof(inverted));
    assert_int_equal(SYS4(NR_prlimit64, 0, LINUX_RLIMIT_NOFILE, G_BUF + 0x100, 0), -EINVAL);
}

static void test_futex(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    uint32_t word = 5;

    test_poke(p, G_BUF, &word, 4);
    /* Wake: nobody waits. */
    assert_int_equal(SYS3(NR_futex, G_BUF, 1 | 128, 1), 0);
    /* Wait with a stale value: EAGAIN. */
    assert_int_equal(SYS3(NR_futex, G_BUF, 0 | 128, 4), -EAGAIN);
    /* Wait with a timeout: ETIMEDOUT. */
    uint64_t ts[2] = { 0, 1000000 };
    test_poke(p, G_BUF + 0x100, ts, sizeof(ts));
    assert_int_equal(SYS4(NR_futex, G_BUF, 0, 5, G_BUF + 0x100), -ETIMEDOUT);
    assert_int_equal(SYS3(NR_futex, G_BUF + 1, 0, 5), -EINVAL);
    assert_int_equal(SYS3(NR_futex, 0x900000000ull, 0, 5), -EFAULT);
    /* A private wait forever with no other thread: a deadlock, reported;
     * the process ends instead of hanging the host. */
    LinuxSyscallAction act;
    test_syscall(p, env, NR_futex, G_BUF, 0 | 128, 5, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_EXIT);
    assert_true(p->exited);
}

static void test_exit(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    LinuxSyscallAction act;

    test_syscall(p, env, NR_exit_group, 0x1234, 0, 0, 0, 0, 0, &act);
    assert_int_equal(act, LINUX_SYSCALL_EXIT);
    assert_true(p->exited);
    assert_int_equal(p->exit_status, 0x34);
    assert_int_equal(p->term_signal, 0);
}

static void test_unimplemented(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;

    p->opts.log_unimp = true;
    assert_int_equal(SYS0(NR_bind), -ENOSYS);
    assert_int_equal(SYS0(NR_bind), -ENOSYS);
    assert_int_equal(SYS0(300), -ENOSYS);    /* unassigned number */
    assert_int_equal(SYS0(100000), -ENOSYS); /* out of range */
    char *log = log_text(f);
    const char *first = strstr(log, "system call 200 (bind)");
    assert_non_null(first);
    assert_null(strstr(first + 1, "system call 200 (bind)")); /* once */
    assert_non_null(strstr(log, "system call 300 (unknown)"));
    assert_non_null(strstr(log, "system call 100000 (out of range)"));
    free(log);
}

static void test_strace_format(void **state)
{
    Fixture *f = *state;
    LinuxProcess *p = f->p;
    CPULinxState *env = f->env;
    int fds[2];

    p->opts.strace = true;
    assert_int_equal(pipe(fds), 0);
    test_poke(p, G_BUF, "hi\n", 3);
    assert_int_equal(SYS3(NR_write, (uint64_t)fds[1], G_BUF, 3), 3);
    assert_int_equal(SYS3(NR_read, (uint64_t)fds[0], G_BUF + 0x10, 64), 3);
    test_poke(p, G_BUF + 0x100, "/no/such/file", 14);
    SYS4(NR_openat, (uint64_t)-100, G_BUF + 0x100, 0x80241, 0644);
    SYS6(NR_mmap, 0, 8192, 3, 0x22, (uint64_t)-1, 0);
    SYS2(NR_kill, (uint64_t)p->pid, 0);
    SYS1(NR_exit_group, 3);
    char *log = log_text(f);
    char line[128];
    if (getenv("LINX_TEST_VERBOSE")) {
        fputs(log, stderr);
    }
    snprintf(line, sizeof(line), "%d write(%d, \"hi\\n\", 3) = 3\n", getpid(), fds[1]);
    assert_non_null(strstr(log, line));
    snprintf(line, sizeof(line), "read(%d, \"hi\\n\", 64) = 3\n", fds[0]);
    assert_non_null(strstr(log, line));
    assert_non_null(strstr(log, "openat(AT_FDCWD, \"/no/such/file\", "
                                "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0644) = -1 ENOENT "
                                "(No such file or directory)\n"));
    assert_non_null(strstr(log, "mmap(NULL, 8192, PROT_READ|PROT_WRITE, "
                                "MAP_PRIVATE|MAP_ANONYMOUS, -1, 0x0) = 0x7f00000000\n"));
    assert_non_null(strstr(log, "exit_group(3) = ?\n"));
    free(log);
    close(fds[0]);
    close(fds[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_identity_and_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_futex, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unimplemented, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strace_format, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
