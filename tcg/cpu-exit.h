/*
 * Leaving translated code: the exits a helper or a memory slow path takes
 * back to cpu_exec (QEMU's cpu-exec-common.c), and the write-watchpoint
 * check stores make first.  Below the exec loop, the interpreter and the
 * softmmu, which all use it: it needs only the CPU and the small part of
 * the exec context kept here (LinxExitState, the first member of every
 * LinxExecContext), so none of them includes the loop to raise a fault.
 *
 *   ... the target sets its trap registers (linx_raise_exception) ...
 *   linx_cpu_exit_trap(env, delivered);         // cpu_exec returns EXCP_TRAP
 *   linx_exec_watch_check(env, addr, len, pc);  // may stop before a store
 *
 * Leaving is a siglongjmp to the jmp_buf cpu_exec set (the engine's
 * jmp_env, tcg/cpu-engine.h); a
 * reason set first (linx_cpu_exit_with) is what cpu_exec returns.
 */
#ifndef LINX_TCG_CPU_EXIT_H
#define LINX_TCG_CPU_EXIT_H

#include <stdbool.h>
#include <stdint.h>

#include "tcg/cpu-engine.h"
#include "tcg/log.h"

typedef struct LinxExecContext LinxExecContext;
struct LinxTargetOps;

/* Reasons cpu_exec() returns. */
enum {
    EXCP_NONE = -1,  /* (internal) keep running */
    EXCP_EXIT = 1,   /* the guest finished (exit syscall, EXIT register); env->exit_code */
    EXCP_TRAP = 2,   /* an architectural exception: env->trapno, traparg0, trap_pc */
    EXCP_DEBUG = 3,  /* breakpoint or single-step stop for the debugger */
    EXCP_HALTED = 4, /* nothing to run */
    EXCP_INTERRUPT = 5, /* env->engine.exit_request was set from outside */
};

/* Write watchpoints (tcg/exec.h says how they stop). */
#define LINX_EXEC_MAX_WATCH 16

/* What the exits read and write of an exec context: its first member, so
 * that env->engine.exec (a LinxExecContext *) is also a LinxExitState *. */
typedef struct LinxExitState {
    /* (Whether a CPU is inside cpu_exec and the EXCP_* it returns after
     * cpu_loop_exit are the CPU's own: env->in_exec, env->exception_index;
     * CPUs of one context may run in parallel, tcg/exec-cpus.c.) */
    bool single_step;        /* debugger: one instruction per cpu_exec */
    LinxLog *log;            /* the context's log (-d int) */
    struct {
        uint64_t addr, len;
    } watch[LINX_EXEC_MAX_WATCH];
    unsigned nwatch;
    bool watch_suspended;    /* the next instruction ignores them */
    bool watch_hit;          /* the last EXCP_DEBUG was a watchpoint */
    uint64_t watch_hit_addr;
    /* The guest architecture (LinxTargetOps, tcg/exec.h): the softmmu
     * raises memory faults through it. */
    const struct LinxTargetOps *target;
} LinxExitState;

/* Leave translated code (see the file comment). */
_Noreturn void cpu_loop_exit(CPUArchState *env);
/* cpu_loop_exit() that makes cpu_exec() return @excp (EXCP_*). */
_Noreturn void linx_cpu_exit_with(CPUArchState *env, int excp);

/* An architectural exception was raised (the target's raise, e.g.
 * linx_raise_exception in target/linx/exec-target.c, has set its trap
 * registers and the pc): cpu_exec() returns EXCP_TRAP, or, when the target
 * delivered the trap to the guest's handler (@delivered: the virt
 * machine's EVBASE handlers), the loop goes on at the new pc instead
 * (EXCP_DEBUG while single-stepping). */
_Noreturn void linx_cpu_exit_trap(CPUArchState *env, bool delivered);

/* The exec context's log of @env (-d int), or NULL outside one. */
LinxLog *linx_cpu_log(CPUArchState *env);

/* Does the page at @page_addr hold a watched byte? */
bool linx_exec_page_watched(const LinxExecContext *ec, uint64_t page_addr);
/* A store of [addr, addr + len) by the instruction at @pc is about to
 * happen: stop first when it meets a watchpoint (tcg/exec.h). */
void linx_exec_watch_check(CPUArchState *env, uint64_t addr, uint64_t len, uint64_t pc);

/* Do [a, a + alen) and [b, b + blen) share a byte? */
static inline bool linx_ranges_meet(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return alen && blen && a <= b + (blen - 1) && b <= a + (alen - 1);
}

#endif /* LINX_TCG_CPU_EXIT_H */
