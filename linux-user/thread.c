/*
 * Linux user mode: guest threads (docs/linux-user.md "Threads").
 *
 * One host thread per guest thread, each with its own CPU state, TLB,
 * jump cache, interpreter, signal mask and tile registers; all share the
 * process (address space, exec context with its TB cache, signal actions,
 * descriptors).  The first thread runs on the caller of linux_cpu_loop;
 * clone(CLONE_VM | CLONE_THREAD | ...) starts the others
 * (linux_thread_clone).  The first clone makes the exec context parallel
 * (linx_exec_set_parallel: locks on, exit checks in every TB).
 *
 * Thread ids are the host threads' tids, the process id the host pid, so
 * they are unique system-wide as the guest expects.
 *
 * Ending: exit (SYS_exit) ends one thread: CHILD_CLEARTID stores 0 at the
 * recorded address and wakes one futex waiter there (the kernel's wake is
 * a shared one, so is ours), and the thread leaves the list; the last
 * thread out ends the process with the first thread's exit code.
 * exit_group and a fatal signal end the process at once: every thread is
 * kicked (linux_thread_kick) and leaves; the first thread's caller waits
 * for them all (linux_process_wait_threads) before returning the status.
 *
 * Kicks: a thread that must look at a signal or stop gets t->kick set
 * (read by blocking host calls, safe-syscall.h), its CPU's exit_request
 * (translated code stops at the next TB), and, when it is not running
 * translated code, the kick host signal (interrupting a blocking call).
 */
#include <errno.h>
#include <stddef.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "target/linx/tile-engine.h"
#include "hw/linx/tile-regs.h"
#include "safe-syscall.h"
#include "syscall-internal.h"
#include "tcg/exec.h"
#include "util/atomic.h"
#include "util/fork-lock.h"

/* How long the first thread waits for the others to leave at the end
 * before giving up on a clean shutdown (a thread stuck in the host). */
#define THREADS_EXIT_WAIT_SECONDS 10

/* clone flags (linux/sched.h). */
enum {
    LINUX_CLONE_SETTLS = 0x00080000,
    LINUX_CLONE_PARENT_SETTID = 0x00100000,
    LINUX_CLONE_CHILD_CLEARTID = 0x00200000,
    LINUX_CLONE_CHILD_SETTID = 0x01000000,
};

LinuxThread *linux_thread_of(LinuxProcess *p, const CPULinxState *env)
{
    return env && env->os_thread ? env->os_thread : &p->main;
}

void linux_thread_kick(LinuxThread *t)
{
    atomic_set(&t->kick, 1);
    if (t->env) {
        linx_cpu_kick(t->env);
    }
    smp_mb();
    /* Running translated code: exit_request is enough (and a host signal
     * there would only interrupt the emulator's own calls).  Otherwise it
     * may be blocked in the host: the signal ends the call (either it
     * sees the flag set above, or we see it stopped). */
    if (t->host_started && t->env && !atomic_load_acq(&t->env->engine.running) &&
        !pthread_equal(t->host, pthread_self())) { /* a thread kicking itself is not blocked */
        pthread_kill(t->host, linx_sig_kick());
    }
}

void linux_thread_update_kick(LinuxThread *t)
{
    LinuxProcess *p = t->proc;
    uint64_t ready = (t->sig.pending | p->sig.pending) & ~t->sig.blocked;

    atomic_set(&t->kick, linux_process_ending(p) || t->exited || ready != 0);
}

void linux_process_kick_all(LinuxProcess *p, LinuxThread *self)
{
    pthread_mutex_lock(&p->lock);
    for (LinuxThread *t = p->threads; t; t = t->next) {
        if (t != self) {
            linux_thread_kick(t);
        }
    }
    pthread_mutex_unlock(&p->lock);
}

static void list_remove(LinuxProcess *p, LinuxThread *t)
{
    for (LinuxThread **l = &p->threads; *l; l = &(*l)->next) {
        if (*l == t) {
            *l = t->next;
            t->next = NULL;
            t->on_list = false;
            p->nthreads--;
            pthread_cond_broadcast(&p->threads_cond);
            return;
        }
    }
}

/* CHILD_CLEARTID: *ctid = 0, then wake one waiter (the kernel's
 * mm_release does a shared FUTEX_WAKE; our guest memory is host memory,
 * so a host wake on the same bytes reaches a guest's host wait).  The
 * store is an atomic release store of the word, as the kernel's is a
 * single store: the joiner reads the word concurrently (ThreadSanitizer
 * reported the byte copy lu_copy_to makes as a race). */
static void clear_child_tid(LinuxThread *t)
{
    LinuxProcess *p = t->proc;
    uint32_t zero = 0;
    uint8_t *host = NULL;
    uint64_t fa;

    if (!t->clear_child_tid || (t->clear_child_tid & 3)) {
        return;
    }
    if (guest_mem_window(p->mem, t->clear_child_tid, 1, 4, 4, GM_PROT_READ | GM_PROT_WRITE,
                         &host, &fa) == GM_OK &&
        host) {
        __atomic_store_n((uint32_t *)(void *)host, 0, __ATOMIC_RELEASE);
        syscall(SYS_futex, host, FUTEX_WAKE, 1, NULL, NULL, 0);
    } else {
        /* Not plain RAM: the checked path (EFAULT is ignored, as Linux
         * does). */
        lu_copy_to(p, t->clear_child_tid, &zero, sizeof(zero));
    }
}

void linux_thread_exit(LinuxThread *t, int code)
{
    LinuxProcess *p = t->proc;

    pthread_mutex_lock(&p->lock);
    if (t->exited) {
        pthread_mutex_unlock(&p->lock);
        return;
    }
    t->exited = true;
    if (t == &p->main) {
        p->leader_code = code & 0xff;
    }
    clear_child_tid(t);
    list_remove(p, t);
    if (p->nthreads == 0 && !p->exited && !atomic_read(&p->stopped)) {
        /* The last thread out: the process ends with the first thread's
         * code (Linux reports the group leader's). */
        linux_process_set_exit(p, t == &p->main ? code : p->leader_code);
    }
    pthread_mutex_unlock(&p->lock);
}

/* Give @t's CPU its tile registers and engine (as the first thread's). */
static bool setup_tiles(LinuxThread *t, CPULinxState *env)
{
    t->tiles = linx_tile_state_new();
    t->tile_engine = calloc(1, sizeof(*t->tile_engine));
    if (!t->tiles || !t->tile_engine) {
        return false;
    }
    linx_tile_engine_init(t->tile_engine, NULL);
    env->tiles = t->tiles;
    env->block_engine = linx_tile_block_engine;
    env->block_engine_opaque = t->tile_engine;
    return true;
}

static void free_thread(LinuxThread *t)
{
    if (t->tiles) {
        linx_tile_state_free(t->tiles);
    }
    free(t->tile_engine);
    free(t->env);
    free(t);
}

typedef struct CloneStart {
    LinuxThread *t;
    uint64_t flags, ptid, ctid;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool started;
    int32_t tid; /* (the thread may be gone by the time clone returns) */
} CloneStart;

static void *thread_main(void *opaque)
{
    CloneStart *cs = opaque;
    LinuxThread *t = cs->t;
    LinuxProcess *p = t->proc;
    int32_t tid = (int32_t)syscall(SYS_gettid);
    CPULinxState *env = t->env;
    LinxExecContext *ec = env->engine.exec;

    /* The ids go to memory before clone returns in the parent and before
     * the child runs (Linux writes both in copy_process). */
    t->tid = tid;
    if (cs->flags & LINUX_CLONE_CHILD_SETTID) {
        lu_copy_to(p, cs->ctid, &tid, sizeof(tid));
    }
    if (cs->flags & LINUX_CLONE_PARENT_SETTID) {
        lu_copy_to(p, cs->ptid, &tid, sizeof(tid));
    }
    pthread_mutex_lock(&cs->lock);
    cs->tid = tid;
    cs->started = true;
    pthread_cond_signal(&cs->cond);
    pthread_mutex_unlock(&cs->lock);
    /* (cs belongs to the parent from here.) */

    p->run_thread(p, t);

    /* Out of the loop: exited, or the process is ending. */
    linux_thread_exit(t, 0);
    pthread_mutex_lock(&p->lock);
    if (t == p->leader) {
        /* A fork child's first thread on a secondary host thread: it
         * ends the host process itself. */
        pthread_mutex_unlock(&p->lock);
        linux_process_wait_threads(p);
        linux_process_exit_host(p);
    }
    linx_exec_detach_cpu(ec, env);
    free_thread(t);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int64_t linux_thread_clone(LinuxProcess *p, CPULinxState *parent, uint64_t flags, uint64_t newsp,
                           uint64_t ptid, uint64_t tls, uint64_t ctid)
{
    LinxExecContext *ec = parent->engine.exec;
    LinuxThread *self = linux_thread_of(p, parent);
    LinuxThread *t;
    CPULinxState *env;
    CloneStart cs;
    pthread_attr_t attr;
    sigset_t all, old;
    int err;

    if (!p->run_thread || !ec) {
        lu_report_unimp(p, "clone of a thread without a run loop (unit test)");
        return -ENOSYS;
    }
    t = calloc(1, sizeof(*t));
    env = malloc(sizeof(*env));
    if (!t || !env) {
        free(t);
        free(env);
        return -EAGAIN;
    }
    /* The new CPU: the parent's architectural state after the acrc.  Its
     * exit_request is not read (other threads - the stop watcher, a
     * kick - write it at any time; it is set below). */
    {
        size_t off = offsetof(CPULinxState, engine.exit_request);
        size_t n = sizeof(env->engine.exit_request);
        memcpy(env, parent, off);
        memcpy((char *)env + off + n, (const char *)parent + off + n, sizeof(*env) - off - n);
    }
    env->engine.exec = NULL;
    env->engine.interp = NULL;
    env->engine.in_exec = env->engine.running = env->engine.has_waiter = false;
    env->engine.exit_request = 0;
    env->engine.exception_index = -1;
    env->engine.tbs_executed = env->engine.jc_hits = env->engine.jc_misses = 0;
    env->resv_valid = 0;
    env->os_thread = t;
    env->pc = parent->pc + 4;
    env->resume = 1;
    linx_cpu_sync_block_state(env);
    env->gpr[LINX_REG_A0] = 0;
    if (newsp) {
        env->gpr[LINX_REG_SP] = newsp;
    }
    if (flags & LINUX_CLONE_SETTLS) {
        env->ssr_tp = tls;
    }
    memcpy(env->trace_shadow, env->gpr, sizeof(env->gpr));
    t->proc = p;
    t->env = env;
    if (!setup_tiles(t, env)) {
        free_thread(t);
        return -ENOMEM;
    }
    if (flags & LINUX_CLONE_CHILD_CLEARTID) {
        t->clear_child_tid = ctid;
    }

    /* The first clone: CPUs run in parallel from now on. */
    linx_exec_set_parallel(ec, parent);

    pthread_mutex_lock(&p->lock);
    if (p->exited) {
        pthread_mutex_unlock(&p->lock);
        free_thread(t);
        return -EAGAIN;
    }
    env->engine.cpu_index = ++p->next_cpu_index;
    t->sig.blocked = self->sig.blocked; /* the mask is inherited, nothing pending */
    linx_exec_attach_cpu(ec, env);
    t->next = p->threads;
    p->threads = t;
    t->on_list = true;
    p->nthreads++;

    memset(&cs, 0, sizeof(cs));
    cs.t = t;
    cs.flags = flags;
    cs.ptid = ptid;
    cs.ctid = ctid;
    pthread_mutex_init(&cs.lock, NULL);
    pthread_cond_init(&cs.cond, NULL);
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20);
    /* The new host thread starts with every signal blocked but the kick
     * (host signals are for the emulator's first thread). */
    sigfillset(&all);
    sigdelset(&all, linx_sig_kick());
    pthread_sigmask(SIG_SETMASK, &all, &old);
    err = pthread_create(&t->host, &attr, thread_main, &cs);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (err) {
        list_remove(p, t);
        pthread_mutex_unlock(&p->lock);
        linx_exec_detach_cpu(ec, env);
        free_thread(t);
        pthread_cond_destroy(&cs.cond);
        pthread_mutex_destroy(&cs.lock);
        return -EAGAIN;
    }
    t->host_started = true;
    g_array_append_val(p->host_threads, t->host);
    pthread_mutex_unlock(&p->lock);

    pthread_mutex_lock(&cs.lock);
    while (!cs.started) {
        pthread_cond_wait(&cs.cond, &cs.lock);
    }
    pthread_mutex_unlock(&cs.lock);
    pthread_cond_destroy(&cs.cond);
    pthread_mutex_destroy(&cs.lock);
    return cs.tid;
}

void linux_process_stop_threads(LinuxProcess *p, LinuxThread *self)
{
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->stopped, true, __ATOMIC_RELEASE);
    for (LinuxThread *t = p->threads; t; t = t->next) {
        if (t != self) {
            linux_thread_kick(t);
        }
    }
    if (self->on_list) {
        self->exited = true;
        list_remove(p, self);
    }
    pthread_mutex_unlock(&p->lock);
    linux_process_wait_threads(p);
}

void linux_process_wait_threads(LinuxProcess *p)
{
    struct timespec deadline;
    GArray *hosts;
    bool stuck = false;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += THREADS_EXIT_WAIT_SECONDS;
    pthread_mutex_lock(&p->lock);
    while (p->nthreads > 0) {
        if (pthread_cond_timedwait(&p->threads_cond, &p->lock, &deadline) == ETIMEDOUT) {
            stuck = true;
            break;
        }
    }
    hosts = p->host_threads;
    p->host_threads = g_array_new(false, false, sizeof(pthread_t));
    pthread_mutex_unlock(&p->lock);
    if (stuck) {
        fprintf(stderr,
                "linx-user: %u guest thread(s) did not stop within %d s; ending "
                "the process without them\n",
                p->nthreads, THREADS_EXIT_WAIT_SECONDS);
        linux_process_exit_host(p);
    }
    for (unsigned i = 0; i < hosts->len; i++) {
        pthread_t h = g_array_index(hosts, pthread_t, i);
        if (!pthread_equal(h, pthread_self())) {
            pthread_join(h, NULL);
        }
    }
    g_array_free(hosts, true);
}

void linux_process_after_fork(LinuxProcess *p, LinuxThread *self)
{
    LinuxThread *t = p->threads;

    /* Only the forking thread exists in the child: the others' states are
     * dropped (their host threads are not there to end them). */
    while (t) {
        LinuxThread *next = t->next;
        if (t != self) {
            if (t->env && t->env->engine.exec) {
                linx_exec_detach_cpu(t->env->engine.exec, t->env);
            }
            if (t != &p->main) {
                free_thread(t);
            } else {
                t->exited = true;
                t->on_list = false;
            }
        }
        t = next;
    }
    self->next = NULL;
    p->threads = self;
    p->nthreads = 1;
    p->leader = self;
    g_array_set_size(p->host_threads, 0);
    p->pid = (int32_t)getpid();
    self->tid = p->pid;
    self->host = pthread_self();
    self->host_started = self != &p->main;
    self->sig.pending = 0;
    p->sig.pending = 0;
    atomic_set(&self->kick, 0);
    p->is_fork_child = true;
    p->opts.signal_exit = true;
    linx_fork_lock_released(&p->lock, 0); /* held by do_fork: re-created */
    linux_process_init_locks(p);
    pthread_mutex_lock(&p->lock);
}
