/*
 * Run time of translated TMA blocks (tma-translate.h): the helper a TMA
 * header's TB calls with its prepared plan, the raise of constant-illegal
 * headers, and the "illegal tile parameter" trap report (TMA, TEPL and CUBE
 * rules: their numbers do not overlap).
 *
 * The common case is one call: fill the run-time arguments (no memset, no
 * allocation), tma_exec() on the prepared plan.  Logging (-d tile) and
 * TSTOREs that take their size from the source tiles go through
 * tma_run_slow(); nothing else is decided per call.
 *
 * Faults: tma_exec() changes nothing before it fails; the helper records
 * the rule in env->tile_fault (except guest-memory faults, which are plain
 * page faults to the user) and raises the architectural exception at the
 * block's pc.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hw/linx/tepl.h"
#include "hw/linx/tile-cube.h"
#include "hw/linx/tile-dump.h"
#include "tcg/exec.h"
#include "target/linx/disas.h"
#include "tile-trap.h"
#include "tma-translate.h"

#include "helper-proto.h"

enum {
    TMA_TRAP_CAUSE_SHIFT = 16,   /* helper_tma_raise: trapnum | cause << 16 */
    TMA_TRAP_FIELD_MASK = 0xffff,
    TRAPARG_VALUE_SHIFT = 32,    /* E_INST(EC_PARAM): rule | value << 32 */
    REPORT_INSN_BYTES = 8,
};

/* One rule number names one rule of one engine. */
_Static_assert((unsigned)TMA_R__COUNT <= (unsigned)LINX_CUBE_BAD_FUNC &&
                   (unsigned)LINX_CUBE__END <= (unsigned)LINX_TEPL_BAD_OP,
               "TMA, CUBE and TEPL rule numbers overlap");

/* Raise @t at @pc, recording @rule for the report (but for guest-memory
 * faults: plain page faults to the user). */
static _Noreturn void tile_trap_raise(CPULinxState *env, unsigned rule, const LinxTileTrap *t,
                                      uint64_t pc)
{
    if (rule != TMA_R_GM_FAULT) {
        env->tile_fault.rule = rule;
        env->tile_fault.pc = pc;
        env->tile_fault.traparg0 = t->traparg0;
    }
    linx_raise_exception(env, t->trapnum, t->cause, t->traparg0, pc);
}

_Noreturn void linx_tile_fault_raise(CPULinxState *env, const TmaFault *f, uint64_t pc)
{
    LinxTileTrap t;

    linx_tile_fault_trap(f, &t);
    tile_trap_raise(env, f->rule, &t, pc);
}

static void dump_tile(CPULinxState *env, const char *what, uint64_t pc, unsigned id)
{
    FILE *f = linx_log_file(linx_exec_log(env->engine.exec));

    fprintf(f, "tile: %s of the block at pc 0x%" PRIx64 ":\n", what, pc);
    linx_tile_dump(f, env->tiles, id, NULL);
}

/* Logging and TSTOREs sized by their source tiles. */
static bool tma_run_slow(CPULinxState *env, const LinxTmaBlock *b, TmaRuntimeArgs *a,
                         TmaFault *f)
{
    const TmaPlan *p = &b->plan;
    bool log = (b->flags & LINX_TMA_LOG) && env->engine.exec;

    if (b->flags & LINX_TMA_SIZE_FROM_TILE) {
        const LinxTileSlot *s = linx_tile_get(env->tiles, p->src[0]);

        if (s->meta.bytes == 0) {
            tma_rule_fault(TMA_R_TILE_EMPTY, p->src[0], f);
            return false;
        }
        a->tile_bytes = s->meta.bytes;
    }
    if (log && p->op == TMA_OP_TSTORE) {
        for (unsigned i = 0; i < p->nsrc; i++) {
            dump_tile(env, "TSTORE source", b->pc, p->src[i]);
        }
    }
    if (!tma_exec(env->tiles, env->engine.mem, p, a, f)) {
        return false;
    }
    if (log && p->op != TMA_OP_TSTORE) {
        dump_tile(env, p->op == TMA_OP_TLOAD ? "TLOAD result" : "TMOV result", b->pc,
                  linx_tile_id((LinxTileHand)p->dst_hand, 1));
    }
    return true;
}

bool linx_tma_run(CPULinxState *env, const LinxTmaBlock *b, uint64_t base, uint64_t stride,
                  uint64_t size, TmaFault *f)
{
    TmaRuntimeArgs a;

    a.lb[0] = env->lb[0];
    a.lb[1] = env->lb[1];
    a.lb[2] = env->lb[2];
    a.base = base;
    a.stride = stride;
    a.tile_bytes = size;
    if (__builtin_expect(b->flags != 0, 0)) {
        return tma_run_slow(env, b, &a, f);
    }
    return tma_exec(env->tiles, env->engine.mem, &b->plan, &a, f);
}

void helper_tma(CPULinxState *env, uint64_t block, uint64_t base, uint64_t stride,
                uint64_t size)
{
    LinxTmaBlock *b = (LinxTmaBlock *)(uintptr_t)block;
    TmaFault f;

    if (__builtin_expect(env->tiles != NULL, 1)) {
        env->tiles->helper_moves++;
    }

    /* The common case: a prepared constant-shape transfer (see the file
     * comment of tma-exec.c: a 4 KB TSTORE is bound by store throughput,
     * so the fewer stores on the way to the kernel, the better). */
    if (__builtin_expect(b->prepared && env->tiles != NULL, 1) &&
        tma_exec_prepared(env->tiles, env->engine.mem, &b->fast_plan, &b->xfer, base, stride)) {
        return;
    }
    if (__builtin_expect(!env->tiles || !env->engine.mem, 0)) {
        /* A machine without a tile unit. */
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), b->pc,
                             b->pc);
    }
    if (!linx_tma_run(env, b, base, stride, size, &f)) {
        linx_tile_fault_raise(env, &f, b->pc);
    }
}

void helper_tma_jit(CPULinxState *env, uint64_t block, uint64_t base, uint64_t stride,
                    uint64_t size, uint64_t plan)
{
    (void)plan; /* the backend's; the helper is the whole semantics */
    helper_tma(env, block, base, stride, size);
}

void helper_tma_raise(CPULinxState *env, uint64_t rule, uint64_t trap, uint64_t traparg0,
                      uint64_t pc)
{
    LinxTileTrap t;

    t.trapnum = (unsigned)(trap & TMA_TRAP_FIELD_MASK);
    t.cause = (unsigned)((trap >> TMA_TRAP_CAUSE_SHIFT) & TMA_TRAP_FIELD_MASK);
    t.traparg0 = traparg0;
    tile_trap_raise(env, (unsigned)rule, &t, pc);
}

/* ------------------------------------------------------------------ */
/* Trap report                                                         */
/* ------------------------------------------------------------------ */

/* The name (@text false) or sentence of tile rule @rule, NULL for none. */
static const char *tile_rule(unsigned rule, bool text)
{
    if (rule == TMA_OK) {
        return NULL;
    }
    if (rule < TMA_R__COUNT) {
        return text ? tma_rule_text((TmaRule)rule) : tma_rule_name((TmaRule)rule);
    }
    if (rule >= LINX_CUBE_BAD_FUNC && rule < LINX_CUBE__END) {
        return text ? linx_cube_rule_text(rule) : linx_cube_rule_name(rule);
    }
    if (rule >= LINX_TEPL_BAD_OP && rule < LINX_TEPL__END) {
        return text ? linx_tepl_rule_text(rule) : linx_tepl_rule_name(rule);
    }
    return NULL;
}

const char *linx_tile_fault_rule(const CPULinxState *env)
{
    if (env->tile_fault.pc != env->trap_pc || env->tile_fault.traparg0 != env->traparg0) {
        return NULL;
    }
    return tile_rule(env->tile_fault.rule, false);
}

/* Disassembly of the instruction at @pc, tabs as single spaces. */
static void disas_at(const CPULinxState *env, uint64_t pc, char *text, size_t len)
{
    uint8_t buf[REPORT_INSN_BYTES];
    size_t n = 0;
    unsigned ilen = 0;

    snprintf(text, len, "not readable");
    while (env->engine.mem && n < sizeof(buf) &&
           guest_mem_debug_rw(env->engine.mem, pc + n, buf + n, 2, false) == GM_OK) {
        n += 2;
    }
    if (n == 0) {
        return;
    }
    linx_disas_bytes(buf, n, pc, NULL, text, len, &ilen);
    linx_disas_squeeze(text);
}

bool linx_tile_fault_report(FILE *f, const CPULinxState *env)
{
    const char *name = linx_tile_fault_rule(env);
    const char *text = tile_rule(env->tile_fault.rule, true);
    unsigned trapnum = linx_trapno_num(env->trapno);
    unsigned cause = linx_trapno_cause(env->trapno);
    char insn[LINX_DISAS_MAX];

    if (!name) {
        return false;
    }
    disas_at(env, env->trap_pc, insn, sizeof(insn));
    fprintf(f, "illegal tile parameter: %s at PC 0x%" PRIx64 " (%s)\n", name, env->trap_pc,
            insn);
    /* The value rules (E_INST(EC_PARAM)) carry the offending value in
     * TRAPARG0[63:32]. */
    if (trapnum == LINX_TRAP_ILLEGAL_INST && cause == LINX_CAUSE(LINX_EC_PARAM, 0)) {
        unsigned r = env->tile_fault.rule;
        uint64_t v = env->traparg0 >> TRAPARG_VALUE_SHIFT;

        /* The operand rules' value is a tile id: name the tile too. */
        if (r == LINX_CUBE_LEFT || r == LINX_CUBE_RIGHT || r == LINX_CUBE_TILE_EMPTY ||
            r == LINX_CUBE_BIAS || r == TMA_R_TILE_EMPTY || r == TMA_R_MIXED_LAYOUT) {
            char tn[8];

            fprintf(f, "  %s (value %" PRIu64 ": %s); trap %u, TRAPARG0 0x%" PRIx64 "\n", text,
                    v, linx_tile_name((unsigned)v, tn), trapnum, env->traparg0);
        } else {
            fprintf(f, "  %s (value %" PRIu64 "); trap %u, TRAPARG0 0x%" PRIx64 "\n", text, v,
                    trapnum, env->traparg0);
        }
    } else {
        fprintf(f, "  %s; trap %u, TRAPARG0 0x%" PRIx64 "\n", text, trapnum, env->traparg0);
    }
    return true;
}
