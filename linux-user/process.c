/*
 * Linux user mode: creating, loading and tearing down a guest process.
 *
 * This file knows nothing about the CPU or the exec loop (cpu-loop.c
 * does), so the unit tests can build a process, load a program and call
 * the system-call handlers directly.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hw/linx/tile-regs.h"
#include "linux-user.h"
#include "safe-syscall.h"
#include "util/atomic.h"
#include "util/elf-file.h"

void linux_process_init_locks(LinuxProcess *p)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&p->lock, &a);
    pthread_mutexattr_destroy(&a);
    pthread_cond_init(&p->threads_cond, NULL);
}

LinuxProcess *linux_process_new(const LinuxOptions *opts)
{
    LinuxProcess *p = calloc(1, sizeof(*p));

    if (!p) {
        return NULL;
    }
    /* The kick signal's handler (safe-syscall.h) for every embedder -
     * linx-user, linx-optest's user machine, tests: without it a kick
     * (an exit ending the other threads, a signal for a blocked thread)
     * would take the signal's default action and end the host process. */
    linx_safe_syscall_init();
    p->mem = guest_mem_new(LINUX_TASK_SIZE);
    if (!p->mem) {
        free(p);
        return NULL;
    }
    if (opts) {
        p->opts = *opts;
    }
    p->rand_state = p->opts.seed;
    if (!p->opts.log) {
        p->opts.log = stderr;
    }
    p->pid = (int32_t)getpid();
    linux_process_init_locks(p);
    p->host_threads = g_array_new(false, false, sizeof(pthread_t));
    p->main.proc = p;
    p->main.tid = p->pid;
    p->main.on_list = true;
    p->threads = &p->main;
    p->nthreads = 1;
    p->leader = &p->main;
    p->mmap_hint = LINUX_MMAP_BASE;
    for (int r = 0; r < LINUX_RLIM_NLIMITS; r++) {
        struct rlimit rl;
        if (getrlimit(r, &rl) == 0) {
            p->rlim[r][0] = rl.rlim_cur;
            p->rlim[r][1] = rl.rlim_max;
        } else {
            p->rlim[r][0] = p->rlim[r][1] = UINT64_MAX;
        }
    }
    p->rlim[LINUX_RLIMIT_STACK][0] = p->opts.stack_size ? p->opts.stack_size : LINUX_STACK_SIZE;
    return p;
}

void linux_process_free(LinuxProcess *p)
{
    if (!p) {
        return;
    }
    guest_mem_free(p->mem);
    if (p->main.tiles) {
        linx_tile_state_free(p->main.tiles);
    }
    free(p->main.tile_engine);
    free(p->exe_path);
    g_array_free(p->host_threads, true);
    pthread_cond_destroy(&p->threads_cond);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void linux_process_reserve_fd(LinuxProcess *p, int fd)
{
    if (fd >= 0 && p->nreserved_fds < LINUX_MAX_RESERVED_FDS && !linux_fd_is_reserved(p, fd)) {
        p->reserved_fds[p->nreserved_fds++] = fd;
    }
}

bool linux_fd_is_reserved(const LinuxProcess *p, int fd)
{
    for (unsigned i = 0; i < p->nreserved_fds; i++) {
        if (p->reserved_fds[i] == fd) {
            return true;
        }
    }
    return false;
}

bool linux_load_program(LinuxProcess *p, const char *path, int argc, char **argv, char **envp,
                        char *err, size_t errlen)
{
    ElfFile ef;
    char resolved[PATH_MAX];

    if (!elf_file_open(&ef, path, err, errlen)) {
        return false;
    }
    if (!linux_load_elf(p->mem, &ef, path, &p->image, err, errlen)) {
        elf_file_close(&ef);
        return false;
    }
    memset(&p->profile_vote, 0, sizeof(p->profile_vote));
    linx_profile_vote_elf(&p->profile_vote, &ef);
    elf_file_close(&ef);

    p->brk_start = (p->image.end_data + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    p->brk_cur = p->brk_start;
    free(p->exe_path);
    p->exe_path = strdup(realpath(path, resolved) ? resolved : path);

    char msg[256];
    if (!linux_setup_stack(p, argc, argv, envp, path, NULL, msg, sizeof(msg))) {
        snprintf(err, errlen, "%s: %s", path, msg);
        return false;
    }
    return true;
}

void linux_random_bytes(LinuxProcess *p, void *buf, size_t len)
{
    uint8_t *b = buf;

    if (!p->opts.seeded) {
        size_t done = 0;
        while (done < len) {
            ssize_t n = getrandom(b + done, len - done, 0);
            if (n <= 0) {
                break;
            }
            done += (size_t)n;
        }
        if (done == len) {
            return;
        }
        /* No host entropy: fall through to the PRNG, seeded from the pid. */
        p->rand_state ^= (uint64_t)getpid() * UINT64_C(0x9e3779b97f4a7c15);
    }
    for (size_t i = 0; i < len; i++) {
        /* splitmix64, one byte per step's low bits */
        uint64_t z = (p->rand_state += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        b[i] = (uint8_t)(z ^ (z >> 31));
    }
}

static void group_exit(LinuxProcess *p, int status, int sig)
{
    pthread_mutex_lock(&p->lock);
    if (!p->exited) {
        p->exit_status = status;
        p->term_signal = sig;
        atomic_set(&p->exited, true);
        for (LinuxThread *t = p->threads; t; t = t->next) {
            linux_thread_kick(t);
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void linux_process_set_exit(LinuxProcess *p, int code)
{
    group_exit(p, code & 0xff, 0);
}

void linux_process_set_killed(LinuxProcess *p, int sig)
{
    group_exit(p, 128 + sig, sig);
}

void linux_process_die_by_signal(LinuxProcess *p)
{
    struct rlimit no_core = { 0, 0 };
    struct sigaction sa;
    sigset_t set;

    if (!p->opts.signal_exit || p->term_signal <= 0 || p->term_signal >= SIGRTMIN) {
        return;
    }
    fflush(NULL);
    setrlimit(RLIMIT_CORE, &no_core);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigaction(p->term_signal, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, p->term_signal);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(p->term_signal);
}

_Noreturn void linux_process_exit_host(LinuxProcess *p)
{
    fflush(NULL);
    linux_process_die_by_signal(p);
    exit(p->exit_status);
}
