/*
 * Leaving translated code and the watchpoint check (see cpu-exit.h).
 */
#include "tcg/cpu-exit.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"

/* The exit state of @env's exec context (its first member), or NULL. */
static inline LinxExitState *exit_state(CPULinxState *env)
{
    return (LinxExitState *)env->exec;
}

_Noreturn void cpu_loop_exit(CPULinxState *env)
{
    const LinxExitState *x = exit_state(env);

    if (!x || !env->in_exec) {
        fprintf(stderr, "linxemu: internal error: cpu_loop_exit outside cpu_exec "
                "(cpu %u, pc 0x%" PRIx64 ")\n", env->cpu_index, env->pc);
        abort();
    }
    siglongjmp(env->jmp_env, 1);
}

_Noreturn void linx_cpu_exit_with(CPULinxState *env, int excp)
{
    env->exception_index = excp;
    cpu_loop_exit(env);
}

_Noreturn void linx_raise_exception(CPULinxState *env, unsigned trapnum, unsigned cause,
                                    uint64_t traparg0, uint64_t pc)
{
    LinxExitState *x = exit_state(env);

    env->trapno = (trapnum & LINX_TRAPNO_NUM_MASK) |
                  ((uint64_t)(cause & LINX_TRAPNO_CAUSE_MASK) << LINX_TRAPNO_CAUSE_SHIFT) |
                  LINX_TRAPNO_ARGV;
    env->traparg0 = traparg0;
    env->trap_pc = pc;
    env->pc = pc;
    if (x && linx_log_enabled(x->log, LINX_LOG_INT)) {
        linx_log_printf(x->log, "trap: cpu %u trapnum %u cause 0x%x traparg0 0x%" PRIx64
                        " at pc 0x%" PRIx64 "\n", env->cpu_index, trapnum, cause, traparg0, pc);
    }
    /* A machine that vectors traps (virt: a guest handler at EVBASE) runs
     * on at the handler; a single step ends there. */
    if (env->trap_hook && env->trap_hook(env, env->trap_opaque)) {
        linx_cpu_exit_with(env, x && x->single_step ? EXCP_DEBUG : EXCP_NONE);
    }
    linx_cpu_exit_with(env, EXCP_TRAP);
}

bool linx_exec_page_watched(const LinxExecContext *ec, uint64_t page_addr)
{
    const LinxExitState *x = (const LinxExitState *)ec;

    for (unsigned i = 0; i < x->nwatch; i++) {
        if (linx_ranges_meet(page_addr & GUEST_PAGE_MASK, GUEST_PAGE_SIZE, x->watch[i].addr,
                             x->watch[i].len)) {
            return true;
        }
    }
    return false;
}

void linx_exec_watch_check(CPULinxState *env, uint64_t addr, uint64_t len, uint64_t pc)
{
    LinxExitState *x = exit_state(env);

    if (!x || x->nwatch == 0 || x->watch_suspended) {
        return;
    }
    for (unsigned i = 0; i < x->nwatch; i++) {
        uint64_t w = x->watch[i].addr;
        if (linx_ranges_meet(addr, len, w, x->watch[i].len)) {
            x->watch_hit = true;
            x->watch_hit_addr = addr > w ? addr : w;
            /* As a precise fault: nothing of the instruction is done; the
             * debugger decides how it resumes (gdbstub: gdb_set_pc). */
            env->pc = pc;
            linx_cpu_exit_with(env, EXCP_DEBUG);
        }
    }
}
