/*
 * Leaving translated code and the watchpoint check (see cpu-exit.h).
 */
#include "tcg/cpu-exit.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/core/guest-memory.h"
#include "tcg/target-ops.h"

/* The exit state of @env's exec context (its first member), or NULL. */
static inline LinxExitState *exit_state(CPUArchState *env)
{
    return (LinxExitState *)cpu_engine(env)->exec;
}

_Noreturn void cpu_loop_exit(CPUArchState *env)
{
    const LinxExitState *x = exit_state(env);

    if (!x || !cpu_engine(env)->in_exec) {
        fprintf(stderr, "linxemu: internal error: cpu_loop_exit outside cpu_exec (cpu %u)\n",
                cpu_engine(env)->cpu_index);
        abort();
    }
    siglongjmp(cpu_engine(env)->jmp_env, 1);
}

_Noreturn void linx_cpu_exit_with(CPUArchState *env, int excp)
{
    cpu_engine(env)->exception_index = excp;
    cpu_loop_exit(env);
}

_Noreturn void linx_cpu_exit_trap(CPUArchState *env, bool delivered)
{
    const LinxExitState *x = exit_state(env);

    if (delivered) {
        linx_cpu_exit_with(env, x && x->single_step ? EXCP_DEBUG : EXCP_NONE);
    }
    linx_cpu_exit_with(env, EXCP_TRAP);
}

LinxLog *linx_cpu_log(CPUArchState *env)
{
    LinxExitState *x = exit_state(env);

    return x ? x->log : NULL;
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

void linx_exec_watch_check(CPUArchState *env, uint64_t addr, uint64_t len, uint64_t pc)
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
            *linx_cpu_word(env, x->target->pc_offset) = pc;
            linx_cpu_exit_with(env, EXCP_DEBUG);
        }
    }
}
