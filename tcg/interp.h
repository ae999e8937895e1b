/*
 * The IR interpreter: runs a TB's kept op list (tb->ir) directly.
 *
 * It is the reference semantics of the IR (the JIT must agree with it
 * exactly) and the -accel interp backend.  Globals live in env at all
 * times (every op reads and writes them there), so a helper that leaves
 * through cpu_loop_exit() always sees a consistent CPU state.  Helpers
 * are called through libffi: one ffi_cif per helper, prepared on first
 * use and kept in the LinxInterp (helper records stay constant).
 *
 * Per TB the interpreter keeps a small prepared program (label positions
 * and a pointer per temp: into env for globals, into a per-interpreter
 * frame for locals, at the TB's constant for constants), built on first
 * run and rebuilt only when the env or the frame changes.
 *
 * Chaining: at goto_tb slot n, if tb->jmp_dest[n] is set the interpreter
 * continues with that TB without returning (unless env->engine.exit_request is
 * set); goto_ptr continues with the TB whose pointer the lookup helper
 * returned (0 = return to the exec loop).
 *
 * Usage:
 *   LinxInterp *it = interp_new(ir);        // ir: the helper table's owner
 *   uintptr_t r = interp_run_tb(it, env, tb); // (uintptr_t)tb | slot, or 0
 *   interp_tb_release(tb);                  // before the TB is freed
 */
#ifndef LINX_TCG_INTERP_H
#define LINX_TCG_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"
#include "tb.h"

/* The interpreter passes the CPU state on (to helpers and the softmmu)
 * and never looks inside: an opaque pointer here. */
typedef struct CPUArchState CPUArchState;

typedef struct LinxInterp LinxInterp;

LinxInterp *interp_new(const IRContext *ir);
void interp_free(LinxInterp *it);

/* Run @tb and whatever it chains to; returns the value of the exit_tb
 * that left ((uintptr_t)tb | slot, or 0), or 0 after a goto_ptr to 0. */
uintptr_t interp_run_tb(LinxInterp *it, CPUArchState *env, TranslationBlock *tb);

/* Follow goto_tb chains and goto_ptr targets (default), or return to the
 * caller at every TB end (linx_exec_step). */
void interp_set_chaining(LinxInterp *it, bool on);

/* Free the prepared program kept in @tb (tb->interp_prog). */
void interp_tb_release(TranslationBlock *tb);

/* Statistics. */
typedef struct InterpStats {
    uint64_t calls;    /* helper calls */
    uint64_t chained;  /* goto_tb/goto_ptr continuations without returning */
} InterpStats;
void interp_get_stats(const LinxInterp *it, InterpStats *st);

#endif /* LINX_TCG_INTERP_H */
