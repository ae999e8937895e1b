/*
 * Linux user mode: making threads and processes - clone (threads, fork,
 * vfork), execve/execveat, wait4/waitid (docs/linux-user.md "Threads" and
 * "Processes").
 *
 * clone's argument order is LinxISA's: clone(flags, newsp, parent_tid,
 * tls, child_tid) - the CONFIG_CLONE_BACKWARDS order the LinxISA QEMU
 * port declares (linux-user/linx/target_syscall.h) and musl's
 * arch/linx64 __clone passes (a0 = flags, a1 = stack, a2 = ptid, a3 = tls,
 * a4 = ctid); docs/decisions.md D11.
 *
 *   - CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD (the
 *     set pthread_create uses, with SYSVSEM, SETTLS, PARENT_SETTID,
 *     CHILD_CLEARTID, CHILD_SETTID, DETACHED): a new guest thread
 *     (thread.c);
 *   - no CLONE_VM, or CLONE_VM | CLONE_VFORK (vfork, posix_spawn): a host
 *     fork().  The child is another linx-user process with a copy of the
 *     guest (as QEMU does, vfork is a fork: the parent does not wait for
 *     the child's exec);
 *   - anything else (a thread without shared descriptors, a process that
 *     shares memory) cannot be a host thread or process: EINVAL, reported
 *     under -d unimp.
 *
 * execve of a LinxISA ELF (e_machine 233) runs linx-user again on it with
 * the options this one was given (LinuxOptions.reexec_argv), as
 * binfmt_misc would; anything else is executed by the host.  wait4 and
 * waitid are the host's (the guest's children are host processes).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe-syscall.h"
#include "syscall-internal.h"
#include "tcg/exec.h"

/* linux/sched.h */
enum {
    LINUX_CSIGNAL = 0x000000ff,
    LINUX_CLONE_VM = 0x00000100,
    LINUX_CLONE_FS = 0x00000200,
    LINUX_CLONE_FILES = 0x00000400,
    LINUX_CLONE_SIGHAND = 0x00000800,
    LINUX_CLONE_VFORK = 0x00004000,
    LINUX_CLONE_THREAD = 0x00010000,
    LINUX_CLONE_SYSVSEM = 0x00040000,
    LINUX_CLONE_SETTLS = 0x00080000,
    LINUX_CLONE_PARENT_SETTID = 0x00100000,
    LINUX_CLONE_CHILD_CLEARTID = 0x00200000,
    LINUX_CLONE_DETACHED = 0x00400000,
    LINUX_CLONE_CHILD_SETTID = 0x01000000,
};

#define THREAD_FLAGS                                                                               \
    (LINUX_CLONE_VM | LINUX_CLONE_FS | LINUX_CLONE_FILES | LINUX_CLONE_SIGHAND | LINUX_CLONE_THREAD)
#define THREAD_OPTIONAL                                                                            \
    (LINUX_CLONE_SYSVSEM | LINUX_CLONE_SETTLS | LINUX_CLONE_PARENT_SETTID |                        \
     LINUX_CLONE_CHILD_CLEARTID | LINUX_CLONE_DETACHED | LINUX_CLONE_CHILD_SETTID)
#define FORK_OPTIONAL                                                                              \
    (LINUX_CSIGNAL | LINUX_CLONE_SETTLS | LINUX_CLONE_PARENT_SETTID | LINUX_CLONE_CHILD_CLEARTID | \
     LINUX_CLONE_CHILD_SETTID)

/* Most argv + envp entries execve copies. */
#define EXEC_MAX_STRINGS 65536
#define ELF_EM_LINXISA 233

static int64_t do_fork(LinuxProcess *p, CPULinxState *env, uint64_t flags, uint64_t newsp,
                       uint64_t ptid, uint64_t tls, uint64_t ctid)
{
    LinuxThread *self = linux_thread_of(p, env);
    LinxExecContext *ec = env->engine.exec;
    pid_t pid;

    if (!p->run_thread) {
        /* The child goes on in the run loop; a caller without one (the
         * system-call fuzzer, unit tests) would see its own code run
         * twice. */
        lu_report_unimp(p, "fork without a run loop (unit test)");
        return -ENOSYS;
    }
    /* No other CPU runs and no lock is held by a thread the child would
     * not have. */
    if (ec) {
        linx_exec_start_exclusive(ec, env);
    }
    pthread_mutex_lock(&p->lock);
    if (ec) {
        linx_exec_fork_prepare(ec);
    }
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        sigset_t none;
        int32_t tid;

        if (ec) {
            linx_exec_fork_child(ec, env);
        }
        linux_process_after_fork(p, self);
        /* A secondary host thread blocks most signals: the child's only
         * thread takes them all again. */
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        p->gdb = NULL;
        tid = self->tid;
        if (flags & LINUX_CLONE_CHILD_SETTID) {
            lu_copy_to(p, ctid, &tid, sizeof(tid));
        }
        self->clear_child_tid = (flags & LINUX_CLONE_CHILD_CLEARTID) ? ctid : 0;
        if (newsp) {
            env->gpr[LINX_REG_SP] = newsp;
        }
        if (flags & LINUX_CLONE_SETTLS) {
            env->ssr_tp = tls;
        }
        pthread_mutex_unlock(&p->lock);
        if (ec) {
            linx_exec_end_exclusive(ec);
        }
        return 0;
    }
    if (ec) {
        linx_exec_fork_parent(ec);
    }
    pthread_mutex_unlock(&p->lock);
    if (ec) {
        linx_exec_end_exclusive(ec);
    }
    if (pid < 0) {
        return lu_errno();
    }
    if (flags & LINUX_CLONE_PARENT_SETTID) {
        int32_t v = pid;
        lu_copy_to(p, ptid, &v, sizeof(v));
    }
    return pid;
}

int64_t lu_sys_clone(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    uint64_t flags = a[0], newsp = a[1], ptid = a[2], tls = a[3], ctid = a[4];

    if ((flags & THREAD_FLAGS) == THREAD_FLAGS && !(flags & ~(THREAD_FLAGS | THREAD_OPTIONAL))) {
        return linux_thread_clone(p, env, flags, newsp, ptid, tls, ctid);
    }
    if ((flags & LINUX_CLONE_VFORK) && (flags & LINUX_CLONE_VM)) {
        /* vfork: a fork (the child gets a copy, the parent goes on). */
        flags &= ~(uint64_t)(LINUX_CLONE_VFORK | LINUX_CLONE_VM);
    }
    if (!(flags & ~(uint64_t)FORK_OPTIONAL)) {
        return do_fork(p, env, flags, newsp, ptid, tls, ctid);
    }
    lu_report_unimp(p,
                    "clone flags 0x%llx (a thread must share memory, descriptors, "
                    "file-system data and signal handlers; a process shares none)",
                    (unsigned long long)flags);
    return -EINVAL;
}

/* A NULL-terminated array of guest strings into host strings. */
static int64_t read_strings(LinuxProcess *p, uint64_t addr, char ***out, size_t *count)
{
    size_t n = 0, cap = 16, bytes = 0;
    char **v = calloc(cap, sizeof(char *));

    *out = NULL;
    if (!v) {
        return -ENOMEM;
    }
    for (; addr; n++) {
        uint64_t ptr;
        int64_t r;
        if (n >= EXEC_MAX_STRINGS) {
            r = -E2BIG;
        } else if (lu_copy_from(p, &ptr, addr + 8 * n, sizeof(ptr)) < 0) {
            r = -EFAULT;
        } else if (!ptr) {
            break;
        } else {
            r = lu_read_string(p, ptr, LU_PATH_MAX * 32, &v[n]);
        }
        if (r == 0 && n + 2 >= cap) {
            char **nv = realloc(v, 2 * cap * sizeof(char *));
            if (!nv) {
                r = -ENOMEM;
            } else {
                v = nv;
                memset(v + cap, 0, cap * sizeof(char *));
                cap *= 2;
            }
        }
        if (r == 0) {
            bytes += strlen(v[n]) + 1;
            if (bytes > LINUX_MAX_ARG_BYTES) {
                r = -E2BIG;
                n++;
            }
        }
        if (r < 0) {
            for (size_t i = 0; i < n; i++) {
                free(v[i]);
            }
            free(v);
            return r;
        }
    }
    v[n] = NULL;
    *out = v;
    *count = n;
    return 0;
}

static void free_strings(char **v)
{
    for (size_t i = 0; v && v[i]; i++) {
        free(v[i]);
    }
    free(v);
}

/* Is @path a LinxISA ELF (64-bit, little-endian, e_machine 233)? */
static bool is_linx_elf(const char *path)
{
    unsigned char h[20];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0) {
        return false;
    }
    n = pread(fd, h, sizeof(h), 0);
    close(fd);
    return n == (ssize_t)sizeof(h) && memcmp(h, "\177ELF", 4) == 0 && h[4] == 2 && h[5] == 1 &&
           (h[18] | h[19] << 8) == ELF_EM_LINXISA;
}

static int64_t do_execve(LinuxProcess *p, CPULinxState *env, int dirfd, uint64_t path_arg,
                         uint64_t argv_arg, uint64_t envp_arg)
{
    char *path = NULL, **argv = NULL, **envp = NULL, **hargv = NULL, *at_path = NULL;
    const char *file;
    size_t argc = 0, envc = 0, nre = 0;
    int64_t r;

    r = lu_get_path(p, path_arg, &path);
    if (r == 0) {
        r = read_strings(p, argv_arg, &argv, &argc);
    }
    if (r == 0) {
        r = read_strings(p, envp_arg, &envp, &envc);
    }
    if (r < 0) {
        goto out;
    }
    file = path;
    if (dirfd != AT_FDCWD && path[0] != '/') {
        at_path = g_strdup_printf("/proc/self/fd/%d/%s", dirfd, path);
        file = at_path;
    }
    if (access(file, X_OK) < 0) {
        r = lu_errno();
        goto out;
    }
    /* The emulator's threads block SIGINT/SIGTERM (tcg/exec-stop.h) and
     * may block the kick signal: the new program starts with none blocked
     * (the guest's own mask is not carried over); put back on failure. */
    sigset_t none, saved;
    sigemptyset(&none);
    if (is_linx_elf(file)) {
        /* The emulator again, with our options: linx-user [opts]
         * [-signal-exit] -0 ARGV0 FILE ARGS... */
        if (!p->opts.reexec_argv) {
            r = -ENOEXEC;
            goto out;
        }
        while (p->opts.reexec_argv[nre]) {
            nre++;
        }
        hargv = calloc(nre + argc + 6, sizeof(char *));
        if (!hargv) {
            r = -ENOMEM;
            goto out;
        }
        size_t k = 0;
        for (size_t i = 0; i < nre; i++) {
            hargv[k++] = p->opts.reexec_argv[i];
        }
        if (p->opts.signal_exit) {
            hargv[k++] = (char *)"-signal-exit";
        }
        hargv[k++] = (char *)"-0";
        hargv[k++] = argc ? argv[0] : (char *)file;
        hargv[k++] = (char *)file;
        for (size_t i = 1; i < argc; i++) {
            hargv[k++] = argv[i];
        }
        hargv[k] = NULL;
        fflush(NULL);
        pthread_sigmask(SIG_SETMASK, &none, &saved);
        execve(hargv[0], hargv, envp);
    } else {
        fflush(NULL);
        pthread_sigmask(SIG_SETMASK, &none, &saved);
        execve(file, argv, envp);
    }
    r = lu_errno();
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
out:
    free(hargv);
    free(at_path);
    free(path);
    free_strings(argv);
    free_strings(envp);
    return r;
}

int64_t lu_sys_execve(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    return do_execve(p, env, AT_FDCWD, a[0], a[1], a[2]);
}

/* execveat(dirfd, path, argv, envp, flags): AT_EMPTY_PATH (run the open
 * file itself) is not supported. */
int64_t lu_sys_execveat(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int dirfd = lu_guest_dirfd(p, a[0]);

    if (dirfd < 0 && dirfd != AT_FDCWD) {
        return -EBADF;
    }
    if (a[4] & ~(uint64_t)AT_SYMLINK_NOFOLLOW) {
        lu_report_unimp(p, "execveat flags 0x%llx", (unsigned long long)a[4]);
        return -EINVAL;
    }
    return do_execve(p, env, dirfd, a[1], a[2], a[3]);
}

_Static_assert(sizeof(struct rusage) == 144, "struct rusage layout (asm-generic LP64)");
_Static_assert(sizeof(siginfo_t) == 128, "siginfo_t size");

int64_t lu_sys_wait4(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    int status = 0;
    struct rusage ru;
    long r;

    if (a[1] && lu_check_write(p, a[1], sizeof(int32_t)) < 0) {
        return -EFAULT;
    }
    memset(&ru, 0, sizeof(ru));
    r = linx_safe_syscall(lu_kick(p, env), SYS_wait4, (long)(int32_t)a[0], (long)&status,
                          (long)(int32_t)a[2], a[3] ? (long)&ru : 0, 0, 0);
    if (r > 0) {
        /* The wait status encoding is the same on every Linux. */
        int32_t st = status;
        if (a[1] && lu_copy_to(p, a[1], &st, sizeof(st)) < 0) {
            return -EFAULT;
        }
        if (a[3] && lu_copy_to(p, a[3], &ru, sizeof(ru)) < 0) {
            return -EFAULT;
        }
    }
    return r;
}

/* waitid(idtype, id, infop, options, rusage): siginfo_t has the same
 * 128-byte layout (si_pid at 16, si_uid 20, si_status 24). */
int64_t lu_sys_waitid(LinuxProcess *p, CPULinxState *env, const uint64_t *a)
{
    siginfo_t si;
    struct rusage ru;
    long r;

    memset(&si, 0, sizeof(si));
    memset(&ru, 0, sizeof(ru));
    r = linx_safe_syscall(lu_kick(p, env), SYS_waitid, (long)(int32_t)a[0], (long)(int32_t)a[1],
                          (long)&si, (long)(int32_t)a[3], a[4] ? (long)&ru : 0, 0);
    if (r == 0) {
        if (a[2] && lu_copy_to(p, a[2], &si, sizeof(si)) < 0) {
            return -EFAULT;
        }
        if (a[4] && lu_copy_to(p, a[4], &ru, sizeof(ru)) < 0) {
            return -EFAULT;
        }
    }
    return r;
}
