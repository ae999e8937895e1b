/*
 * Linux user mode: process-level system calls (exit, identity, uname,
 * limits, process groups, thread bookkeeping).
 *
 * The guest's pid is the host process's pid, a thread's tid its host
 * thread's tid (thread.c); process groups and sessions are the host's.
 * Resource limits are a per-process table the guest can read and change
 * without changing the emulator's own limits.  futex is in futex.c,
 * clone/execve/wait4 in syscall-clone.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "syscall-internal.h"
#include "tcg/exec.h"

#define LINUX_UTS_LEN 65
#define LINUX_UTS_FIELDS 6
#define LINUX_UTS_RELEASE "6.6.0-linxemu"
#define LINUX_UTS_MACHINE "linx64"
#define LINUX_ROBUST_LIST_HEAD_SIZE 24

/* exit: this thread ends (the process with it when it is the last). */
int64_t lu_sys_exit(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    linux_thread_exit(linux_thread_of(p, env), (int)(a[0] & 0xff));
    return LU_RET_NONE;
}

/* exit_group: every thread ends. */
int64_t lu_sys_exit_group(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    linux_process_set_exit(p, (int)(a[0] & 0xff));
    return LU_RET_NONE;
}

int64_t lu_sys_gettid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return linux_thread_of(p, env)->tid;
}

/* Process groups and sessions: the guest's processes are host processes. */
int64_t lu_sys_setpgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return setpgid((pid_t)(int32_t)a[0], (pid_t)(int32_t)a[1]) < 0 ? lu_errno() : 0;
}

int64_t lu_sys_getpgid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    pid_t r = getpgid((pid_t)(int32_t)a[0]);

    return r < 0 ? lu_errno() : r;
}

int64_t lu_sys_getsid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    pid_t r = getsid((pid_t)(int32_t)a[0]);

    return r < 0 ? lu_errno() : r;
}

int64_t lu_sys_setsid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    pid_t r = setsid();

    return r < 0 ? lu_errno() : r;
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
    LinuxThread *t = linux_thread_of(p, env);

    t->clear_child_tid = a[0];
    return t->tid;
}

/* Recorded (get_robust_list is not implemented; a thread that dies
 * holding a robust mutex does not mark it OWNER_DIED). */
int64_t lu_sys_set_robust_list(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    LinuxThread *t = linux_thread_of(p, env);

    if (a[1] != LINUX_ROBUST_LIST_HEAD_SIZE) {
        return -EINVAL;
    }
    t->robust_list = a[0];
    t->robust_list_len = a[1];
    return 0;
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
    /* Translations follow a thread's stores to code pages by themselves;
     * code another thread wrote while this one ran from the page may have
     * been translated before the store landed (docs/engine.md): like the
     * kernel's IPI to every hart, drop every translation. */
    if (env && env->engine.exec) {
        linx_tb_flush(env);
    }
    return 0;
}
