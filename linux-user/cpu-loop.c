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
 *     with a report and exit status 128 + signal.
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

/* `acrc` is a 32-bit instruction; execution resumes after it. */
#define ACRC_LEN 4

static bool linux_acrc_hook(CPULinxState *env, unsigned type, void *opaque)
{
    LinuxProcess *p = opaque;

    if (type != LINX_ACRC_SYS) {
        return false;
    }
    switch (linux_syscall(p, env)) {
    case LINUX_SYSCALL_CONTINUE:
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

void linux_process_attach_cpu(LinuxProcess *p, CPULinxState *env)
{
    linx_cpu_reset(env, p->image.entry, LINUX_USER_ACR);
    env->gpr[LINX_REG_SP] = p->initial_sp;
    env->mem = p->mem;
    env->acrc_hook = linux_acrc_hook;
    env->acrc_opaque = p;
    /* Tile headers run on the tile engine (target/linx/tile-engine.h), as on
     * the virt machine but without its peer-compatibility no-op. */
    if (!p->tiles) {
        p->tiles = linx_tile_state_new();
    }
    if (!p->tile_engine) {
        p->tile_engine = calloc(1, sizeof(*p->tile_engine));
        if (p->tile_engine) {
            linx_tile_engine_init(p->tile_engine, NULL);
        }
    }
    env->tiles = p->tiles;
    if (p->tiles && p->tile_engine) {
        env->block_engine = linx_tile_block_engine;
        env->block_engine_opaque = p->tile_engine;
    }
    /* The commit trace reports a register as written when it differs
     * from the helper's snapshot (target/linx/helper_trace.c: GPRs, then
     * the T and U queues); the start values are not writes. */
    memcpy(env->trace_shadow, env->gpr, sizeof(env->gpr));
    memcpy(env->trace_shadow + LINX_NUM_GPRS, env->tq, sizeof(env->tq));
    memcpy(env->trace_shadow + LINX_NUM_GPRS + LINX_QUEUE_DEPTH, env->uq, sizeof(env->uq));
    p->env = env;
}

int linux_cpu_loop(LinuxProcess *p, CPULinxState *env)
{
    while (!p->exited) {
        int r = p->gdb ? gdb_stub_cpu_exec(p->gdb, env) : cpu_exec(env);

        switch (r) {
        case EXCP_EXIT:
            if (!p->exited) {
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
            /* EXCP_INTERRUPT, EXCP_DEBUG: nothing to do, go on. */
            break;
        }
        if (!p->exited && p->external_stop &&
            __atomic_load_n(p->external_stop, __ATOMIC_ACQUIRE)) {
            break; /* the caller reports why (-timeout, SIGTERM) */
        }
    }
    return p->exit_status;
}
