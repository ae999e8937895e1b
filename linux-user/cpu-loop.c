/*
 * Linux user mode: running the guest (QEMU's cpu_loop).
 *
 * The exec loop (tcg/exec.h) runs translated code until something needs
 * the process:
 *   - `acrc 1`: the front end's acrc helper calls linux_acrc_hook()
 *     (target/linx/cpu.h, LinxAcrcHook) with env->pc at the acrc.  The
 *     system call runs there; the hook returns to translated code, or
 *     leaves it (cpu_loop_exit) when the pc changed (signal delivery,
 *     rt_sigreturn) or the process ended (EXCP_EXIT);
 *   - a trap (EXCP_TRAP): the fault becomes a guest signal
 *     (linux_signal_handle_trap): the handler runs, or the process dies
 *     with a report and exit status 128 + signal;
 *   - a kick (EXCP_INTERRUPT): a signal for this thread, or the process
 *     ends (thread.c).
 * A system call runs in a blocking region (the thread does not count as
 * running for exclusive sections); when translated code was reclaimed
 * meanwhile it leaves the TB instead of returning into it.  Every guest
 * thread runs this loop on its own host thread (LinuxProcess.run_thread).
 * acrc types other than 1 (SCT_SYS) are not system calls: the hook
 * declines them and the front end raises SCALL, which becomes SIGILL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "target/linx/tile-engine.h"
#include "hw/linx/tile-regs.h"
#include "linux-user.h"
#include "tcg/exec.h"
#include "util/atomic.h"

/* `acrc` is a 32-bit instruction; execution resumes after it. */
#define ACRC_LEN 4

/* Leave translated code for the instruction after the acrc (the TB may be
 * gone: reclaimed while the system call blocked). */
static _Noreturn void leave_after_acrc(CPULinxState *env)
{
    env->pc += ACRC_LEN;
    env->resume = 1;
    linx_cpu_sync_block_state(env);
    cpu_loop_exit(env);
}

static bool linux_acrc_hook(CPULinxState *env, unsigned type, void *opaque)
{
    LinuxProcess *p = opaque;
    LinuxSyscallAction act;
    bool reclaimed = false;

    if (type != LINX_ACRC_SYS) {
        return false;
    }
    /* A system call may block: other threads' exclusive sections need not
     * wait for it (tcg/exec.h "blocking regions"). */
    linx_exec_blocking_begin(env);
    act = linux_syscall(p, env);
    reclaimed = linx_exec_blocking_end(env);
    switch (act) {
    case LINUX_SYSCALL_CONTINUE:
        if (reclaimed) {
            leave_after_acrc(env);
        }
        return true;
    case LINUX_SYSCALL_EXIT:
        env->exit_code = p->exit_status;
        linx_cpu_exit_with(env, EXCP_EXIT);
    case LINUX_SYSCALL_REDIRECT:
        cpu_loop_exit(env);
    case LINUX_SYSCALL_SIGNAL:
        /* Deliver with the state the guest has after the acrc: the
         * handler's frame saves pc = the next instruction. */
        env->pc += ACRC_LEN;
        /* fall through */
    case LINUX_SYSCALL_RESTART:
        /* RESTART: the frame saves pc = the acrc: the call runs again
         * after the handler (or at once when the signal is ignored). */
        env->resume = 1;
        linx_cpu_sync_block_state(env);
        if (!linux_signal_deliver(p, env)) {
            env->exit_code = p->exit_status;
            linx_cpu_exit_with(env, EXCP_EXIT);
        }
        cpu_loop_exit(env);
    }
    return true;
}

/* Give @env its tile register file and the tile block engine (tile
 * headers run as on the virt machine, without its peer-compatibility
 * no-op). */
static void setup_tiles(LinuxThread *t, CPULinxState *env)
{
    if (!t->tiles) {
        t->tiles = linx_tile_state_new();
    }
    if (!t->tile_engine) {
        t->tile_engine = calloc(1, sizeof(*t->tile_engine));
        if (t->tile_engine) {
            linx_tile_engine_init(t->tile_engine, NULL);
        }
    }
    env->tiles = t->tiles;
    if (t->tiles && t->tile_engine) {
        env->block_engine = linx_tile_block_engine;
        env->block_engine_opaque = t->tile_engine;
    }
}

/* Run @t's CPU until it exits or the process ends. */
static void thread_loop(LinuxProcess *p, LinuxThread *t)
{
    CPULinxState *env = t->env;

    while (!linux_process_ending(p) && !t->exited) {
        int r = p->gdb && t == &p->main ? gdb_stub_cpu_exec(p->gdb, env) : cpu_exec(env);

        switch (r) {
        case EXCP_EXIT:
            /* Not through exit/exit_group (they mark the thread or the
             * process): the gdb stub killed the guest. */
            if (!linux_process_ending(p) && !t->exited) {
                linux_process_set_exit(p, env->exit_code);
            }
            break;
        case EXCP_TRAP:
            linx_cpu_sync_block_state(env);
            linux_signal_handle_trap(p, env);
            break;
        case EXCP_HALTED:
            fprintf(stderr, "linx-user: the CPU cannot run (no exec context)\n");
            linux_process_set_exit(p, 1);
            break;
        default:
            /* EXCP_INTERRUPT (a kick), EXCP_DEBUG: take a signal that
             * came meanwhile (env->pc and env->resume name the next TB). */
            if (!linux_process_ending(p) && !t->exited && linux_signal_next(p, t)) {
                linx_cpu_sync_block_state(env);
                linux_signal_deliver(p, env);
            }
            break;
        }
    }
}

void linux_process_attach_cpu(LinuxProcess *p, CPULinxState *env)
{
    linx_cpu_reset(env, p->image.entry, LINUX_USER_ACR);
    env->gpr[LINX_REG_SP] = p->initial_sp;
    env->engine.mem = p->mem;
    env->acrc_hook = linux_acrc_hook;
    env->acrc_opaque = p;
    env->os_thread = &p->main;
    setup_tiles(&p->main, env);
    /* The commit trace reports a register as written when it differs
     * from the helper's snapshot (target/linx/helper_trace.c: GPRs, then
     * the T and U queues); the start values are not writes. */
    memcpy(env->trace_shadow, env->gpr, sizeof(env->gpr));
    memcpy(env->trace_shadow + LINX_NUM_GPRS, env->tq, sizeof(env->tq));
    memcpy(env->trace_shadow + LINX_NUM_GPRS + LINX_QUEUE_DEPTH, env->uq, sizeof(env->uq));
    p->env = env;
    p->main.env = env;
    p->run_thread = thread_loop;
}

int linux_cpu_loop(LinuxProcess *p, CPULinxState *env)
{
    LinuxThread *t = linux_thread_of(p, env);

    pthread_mutex_lock(&p->lock);
    t->host = pthread_self();
    t->host_started = true;
    pthread_mutex_unlock(&p->lock);
    thread_loop(p, t);
    if (!atomic_read(&p->exited) && linux_process_stop_requested(p)) {
        /* Stopped from outside: the other threads stop too, and the
         * process has not exited (main.c reports the timeout or signal). */
        linux_process_stop_threads(p, t);
        return p->exit_status;
    }
    if (!atomic_read(&p->exited)) {
        /* Out of the loop without the process ending: this thread exited
         * (SYS_exit) while others run on. */
        linux_thread_exit(t, env->exit_code);
    } else {
        linux_thread_exit(t, p->exit_status);
    }
    linux_process_wait_threads(p);
    return p->exit_status;
}
