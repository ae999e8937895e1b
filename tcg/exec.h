/*
 * The execution loop (modelled on QEMU's accel/tcg/cpu-exec.c).
 *
 *   LinxExecContext *ec = linx_exec_new(&opts);   // TB cache, code buffer
 *   env->exec = ec;
 *   for (;;) {
 *       int r = cpu_exec(env);
 *       if (r == EXCP_EXIT) break;           // guest asked to stop
 *       ... handle EXCP_TRAP (deliver a signal / stop the machine) ...
 *   }
 *
 * cpu_exec() looks up (or translates) the TB for (env->pc, flags), runs
 * it under the selected backend (JIT or interpreter), follows chained
 * jumps, and returns when a helper calls cpu_loop_exit() (exceptions,
 * exit requests) or an exit is requested.
 */
#ifndef LINX_TCG_EXEC_H
#define LINX_TCG_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "target/linx/cpu.h"
#include "tb.h"

typedef enum LinxAccel {
    LINX_ACCEL_JIT,
    LINX_ACCEL_INTERP,
} LinxAccel;

/* Reasons cpu_exec() returns. */
enum {
    EXCP_EXIT = 1,   /* the guest finished (exit syscall, EXIT register); env->exit_code */
    EXCP_TRAP = 2,   /* an architectural exception: env->trapno, traparg0, trap_pc */
    EXCP_DEBUG = 3,  /* breakpoint or single-step stop for the debugger */
    EXCP_HALTED = 4, /* nothing to run */
    EXCP_INTERRUPT = 5, /* env->exit_request was set from outside */
};

/* Logging masks (-d). */
enum {
    LINX_LOG_IN_ASM = 1 << 0,
    LINX_LOG_OP = 1 << 1,
    LINX_LOG_OP_OPT = 1 << 2,
    LINX_LOG_OUT_ASM = 1 << 3,
    LINX_LOG_EXEC = 1 << 4,
    LINX_LOG_CPU = 1 << 5,
    LINX_LOG_INT = 1 << 6,
    LINX_LOG_UNIMP = 1 << 7,
    LINX_LOG_TILE = 1 << 8,
};

typedef struct LinxExecOptions {
    LinxAccel accel;
    bool one_insn_per_tb;
    unsigned log_mask;   /* LINX_LOG_* */
    FILE *log_file;      /* -D, default stderr */
    const char *trace_commit_path; /* -trace-commit / LINX_COMMIT_TRACE */
    size_t code_buffer_size; /* 0 = default */
} LinxExecOptions;

typedef struct LinxExecContext LinxExecContext;

LinxExecContext *linx_exec_new(const LinxExecOptions *opts);
void linx_exec_free(LinxExecContext *ec);

/* Run until something needs the caller; returns EXCP_*. */
int cpu_exec(CPULinxState *env);

/* Leave translated code and return to cpu_exec()'s caller-visible loop.
 * Helpers use this after setting env state (trap registers, pc). */
_Noreturn void cpu_loop_exit(CPULinxState *env);

/* Raise an architectural exception at guest pc @pc. */
_Noreturn void linx_raise_exception(CPULinxState *env, unsigned trapnum, unsigned cause,
                                    uint64_t traparg0, uint64_t pc);

/* Drop all translations (FENCE.I, code buffer full, debugger changes). */
void linx_tb_flush(CPULinxState *env);
/* Drop the translations of one guest page (self-modifying code). */
void linx_tb_invalidate_page(LinxExecContext *ec, uint64_t page_addr);

#endif /* LINX_TCG_EXEC_H */
