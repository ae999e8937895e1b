/*
 * CPUs of an exec context running in parallel, one host thread each: the
 * CPU list, the running state and exclusive sections (the scheme QEMU's
 * cpus-common.c uses; see docs/engine.md "Concurrency").
 *
 * A CPU is *running* while it may execute translated code or hold a host
 * pointer from its TLB: from cpu_exec_start() (entry of cpu_exec, end of a
 * blocking region) to cpu_exec_end() (exit of cpu_exec, start of a
 * blocking region such as a system call).  An exclusive section
 * (linx_exec_start_exclusive .. linx_exec_end_exclusive) waits until no
 * other CPU of the context is running, and keeps them from starting until
 * it ends.  What needs one: reclaiming TB memory (tb_flush_now), and
 * guest-memory changes that take access away (unmap, mprotect, mremap,
 * MAP_FIXED over a mapping), since every CPU's TLB is flushed then.
 *
 * Protocol (all under cpu_lock except the fast paths):
 *   start_exclusive: wait for a previous section to end; pending_cpus = 1;
 *     full barrier; every other CPU seen running gets has_waiter, one more
 *     in pending_cpus and a kick (exit_request); wait for pending_cpus to
 *     drop back to 1;
 *   cpu_exec_end: running = false; full barrier; if a section is pending
 *     and waits for this CPU, take it off the count (the last one wakes
 *     the requester);
 *   cpu_exec_start: running = true; full barrier; if a section is pending
 *     and did not count this CPU (it started after the requester looked),
 *     stop again and wait for the section to end.  A CPU it did count goes
 *     on: it has been kicked and will stop at the next TB boundary.
 * The two full barriers make "running" and "pending_cpus" visible to each
 * other in the right order: either the requester sees the CPU running
 * (and waits for it), or the CPU sees the pending section (and waits).
 */
#include "tcg/exec-internal.h"

#include "util/atomic.h"
#include "util/fork-lock.h"

void exec_lock(LinxExecContext *ec)
{
    if (ec->mem) {
        guest_mem_lock(ec->mem);
    } else {
        pthread_mutex_lock(&ec->own_lock);
    }
}

void exec_unlock(LinxExecContext *ec)
{
    if (ec->mem) {
        guest_mem_unlock(ec->mem);
    } else {
        pthread_mutex_unlock(&ec->own_lock);
    }
}

void exec_cpu_list_add(LinxExecContext *ec, CPUArchState *env)
{
    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned i = 0; i < ec->ncpus; i++) {
        if (ec->cpus[i] == env) {
            pthread_mutex_unlock(&ec->cpu_lock);
            return;
        }
    }
    if (ec->ncpus == ec->cpus_cap) {
        ec->cpus_cap = ec->cpus_cap ? ec->cpus_cap * 2 : 4;
        ec->cpus = g_renew(CPUArchState *, ec->cpus, ec->cpus_cap);
    }
    ec->cpus[ec->ncpus++] = env;
    pthread_mutex_unlock(&ec->cpu_lock);
}

bool exec_cpu_list_remove(LinxExecContext *ec, CPUArchState *env)
{
    bool found = false;

    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned i = 0; i < ec->ncpus; i++) {
        if (ec->cpus[i] == env) {
            memmove(&ec->cpus[i], &ec->cpus[i + 1],
                    (ec->ncpus - i - 1) * sizeof(ec->cpus[0]));
            ec->ncpus--;
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&ec->cpu_lock);
    return found;
}

bool exec_cpu_listed(LinxExecContext *ec, const CPUArchState *env)
{
    bool found = false;

    pthread_mutex_lock(&ec->cpu_lock);
    for (unsigned i = 0; i < ec->ncpus && !found; i++) {
        found = ec->cpus[i] == env;
    }
    pthread_mutex_unlock(&ec->cpu_lock);
    return found;
}

void linx_cpu_kick(CPUArchState *env)
{
    atomic_set(&cpu_engine(env)->exit_request, 1);
}

void linx_exec_start_exclusive(LinxExecContext *ec, CPUArchState *self)
{
    pthread_mutex_lock(&ec->cpu_lock);
    while (ec->pending_cpus) {
        pthread_cond_wait(&ec->exclusive_resume, &ec->cpu_lock);
    }
    atomic_set(&ec->pending_cpus, 1);
    smp_mb();
    for (unsigned i = 0; i < ec->ncpus; i++) {
        CPUArchState *c = ec->cpus[i];
        if (c != self && atomic_load_acq(&cpu_engine(c)->running)) {
            cpu_engine(c)->has_waiter = true;
            atomic_set(&ec->pending_cpus, ec->pending_cpus + 1);
            linx_cpu_kick(c);
        }
    }
    while (ec->pending_cpus > 1) {
        pthread_cond_wait(&ec->exclusive_cond, &ec->cpu_lock);
    }
    pthread_mutex_unlock(&ec->cpu_lock);
}

void linx_exec_end_exclusive(LinxExecContext *ec)
{
    pthread_mutex_lock(&ec->cpu_lock);
    /* Release: what the section did happens before a CPU that reads 0 in
     * cpu_exec_start runs. */
    atomic_store_rel(&ec->pending_cpus, 0);
    pthread_cond_broadcast(&ec->exclusive_resume);
    pthread_mutex_unlock(&ec->cpu_lock);
}

void cpu_exec_start(CPUArchState *env)
{
    LinxExecContext *ec = cpu_engine(env)->exec;

    atomic_set(&cpu_engine(env)->running, true);
    smp_mb();
    if (atomic_load_acq(&ec->pending_cpus)) {
        pthread_mutex_lock(&ec->cpu_lock);
        if (!cpu_engine(env)->has_waiter) {
            /* The section began after its requester looked at us: it does
             * not wait for us, so we must not run until it ends. */
            atomic_set(&cpu_engine(env)->running, false);
            while (ec->pending_cpus) {
                pthread_cond_wait(&ec->exclusive_resume, &ec->cpu_lock);
            }
            atomic_set(&cpu_engine(env)->running, true);
        }
        pthread_mutex_unlock(&ec->cpu_lock);
    }
}

void cpu_exec_end(CPUArchState *env)
{
    LinxExecContext *ec = cpu_engine(env)->exec;

    /* Release: what this CPU did happens before a section that sees it
     * stopped. */
    atomic_store_rel(&cpu_engine(env)->running, false);
    smp_mb();
    if (atomic_load_acq(&ec->pending_cpus)) {
        pthread_mutex_lock(&ec->cpu_lock);
        if (cpu_engine(env)->has_waiter) {
            cpu_engine(env)->has_waiter = false;
            atomic_set(&ec->pending_cpus, ec->pending_cpus - 1);
            if (ec->pending_cpus == 1) {
                pthread_cond_signal(&ec->exclusive_cond);
            }
        }
        pthread_mutex_unlock(&ec->cpu_lock);
    }
}

void linx_exec_blocking_begin(CPUArchState *env)
{
    cpu_engine(env)->flush_seen = atomic_read(&cpu_engine(env)->exec->flush_count);
    cpu_exec_end(env);
}

bool linx_exec_blocking_end(CPUArchState *env)
{
    cpu_exec_start(env);
    return atomic_read(&cpu_engine(env)->exec->flush_count) != cpu_engine(env)->flush_seen;
}

void linx_exec_set_parallel(LinxExecContext *ec, CPUArchState *self)
{
    if (ec->mt) {
        return;
    }
    if (ec->mem) {
        guest_mem_set_threaded(ec->mem);
    }
    exec_lock(ec);
    ec->mt = true;
    exec_unlock(ec);
    /* No host faults from now on (the address space turned them off). */
    exec_update_hostfault(ec);
    /* Chained code must look at exit_request, or an exclusive section
     * could wait forever for a CPU spinning in a loop of chained TBs. */
    linx_exec_set_exit_check(ec, true);
    (void)self;
}

bool linx_exec_parallel(const LinxExecContext *ec)
{
    return ec->mt;
}

void linx_exec_fork_prepare(LinxExecContext *ec)
{
    exec_lock(ec);
    if (ec->mem) {
        guest_mem_fork_prepare(ec->mem);
    }
    pthread_mutex_lock(&ec->cpu_lock);
}

void linx_exec_fork_parent(LinxExecContext *ec)
{
    pthread_mutex_unlock(&ec->cpu_lock);
    if (ec->mem) {
        guest_mem_fork_after(ec->mem);
    }
    exec_unlock(ec);
}

void linx_exec_fork_child(LinxExecContext *ec, CPUArchState *self)
{
    /* Only @self exists in the child. */
    unsigned n = 0;

    for (unsigned i = 0; i < ec->ncpus; i++) {
        if (ec->cpus[i] == self) {
            ec->cpus[n++] = self;
        } else {
            /* Keep its counters; its thread is gone. */
            CPUArchState *c = ec->cpus[i];
            ec->detached_stats.tbs_executed += cpu_engine(c)->tbs_executed;
            ec->detached_stats.jc_hits += cpu_engine(c)->jc_hits;
            ec->detached_stats.jc_misses += cpu_engine(c)->jc_misses;
        }
    }
    ec->ncpus = n;
    /* The CPU list's lock is a plain mutex this thread took in
     * linx_exec_fork_prepare: it is released as an atfork child handler
     * does (re-creating a held mutex is undefined, and ThreadSanitizer
     * reports it destroyed locked at exit).  Locks that record an owner
     * (the recursive ones) name a parent thread, and the condition
     * variables may count waiters that do not exist here: those start
     * afresh, the exec lock held as before. */
    pthread_mutex_unlock(&ec->cpu_lock);
    pthread_cond_init(&ec->exclusive_cond, NULL);
    pthread_cond_init(&ec->exclusive_resume, NULL);
    if (ec->mem) {
        guest_mem_fork_child(ec->mem);
    } else {
        linx_fork_lock_released(&ec->own_lock, 0);
        exec_own_lock_init(ec);
        pthread_mutex_lock(&ec->own_lock);
    }
    /* Every translation goes, with the code buffer the parent shares. */
    tb_flush_now(ec);
    exec_rebuild_code_buffer(ec);
    exec_unlock(ec);
}
