/*
 * LinxISA front end: guest block -> IR.
 *
 * One translation block is one guest block (digest section 3): it starts
 * at a block-start marker and ends at the next marker (not included) or
 * after BSTOP, where the block commits (gen_commit, digest 3.2): FALL,
 * DIRECT, COND and CALL successors are goto_tb slots, IND/ICALL/RET and
 * SETC.TGT-modified targets leave through env->pc.  A block longer than
 * LINX_TB_MAX_INSNS, one crossing into a third page, or any instruction in
 * one-insn mode continues in a resume TB (gen_cut).
 *
 * Control-flow integrity: a TB entered by a branch (no TB_F_RESUME) must
 * start with a block-start marker.  The verdict is computed here, once,
 * and cached in the TB (TB_C_CFI_BAD): such a TB consists of a single
 * call that raises E_BLOCK(EC_CFI), so no branch pays a run-time check.
 *
 * Mid-block entry (TB_F_RESUME): the translation-time block state is
 * rebuilt by translating the block from env->bpc up to the entry pc into
 * a scratch op list (linx_block_replay); the TB then checks at run time
 * that env->bpc is the block it was built for.
 *
 * Usage (tcg/exec.c):
 *   linx_translate_init(ir);                  once per IR context
 *   linx_translate_block(env, ir, tb);        per TB-cache miss
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpu/fpu.h"
#include "header-form.h"
#include "hw/core/guest-memory.h"
#include "kernel.h"
#include "tcg/exec.h"
#include "tcg/softmmu.h"
#include "translate-gen.h"
#include "translate.h"


_Static_assert(offsetof(CPULinxState, insn_count) < LINX_GLOBAL_SLOTS * 8,
               "IR globals must fit in LINX_GLOBAL_SLOTS words");

static bool peek_insn(DisasContext *ctx, uint64_t pc, LinxInsn *insn);

static bool same_page(uint64_t a, uint64_t b)
{
    return ((a ^ b) & GUEST_PAGE_MASK) == 0;
}

/* ======================================================================
 * Globals
 * ====================================================================== */

static const char *const gpr_names[LINX_NUM_GPRS] = {
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0",
    "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3",
};

static const struct {
    int offset;
    const char *name;
} linx_global_fields[] = {
    { offsetof(CPULinxState, tq[0]), "tq0" },
    { offsetof(CPULinxState, tq[1]), "tq1" },
    { offsetof(CPULinxState, tq[2]), "tq2" },
    { offsetof(CPULinxState, tq[3]), "tq3" },
    { offsetof(CPULinxState, uq[0]), "uq0" },
    { offsetof(CPULinxState, uq[1]), "uq1" },
    { offsetof(CPULinxState, uq[2]), "uq2" },
    { offsetof(CPULinxState, uq[3]), "uq3" },
    { offsetof(CPULinxState, t_head), "t_head" },
    { offsetof(CPULinxState, u_head), "u_head" },
    { offsetof(CPULinxState, pc), "pc" },
    { offsetof(CPULinxState, bpc), "bpc" },
    { offsetof(CPULinxState, carg), "carg" },
    { offsetof(CPULinxState, tgt), "tgt" },
    { offsetof(CPULinxState, resume), "resume" },
    { offsetof(CPULinxState, lb[0]), "lb0" },
    { offsetof(CPULinxState, lb[1]), "lb1" },
    { offsetof(CPULinxState, lb[2]), "lb2" },
    { offsetof(CPULinxState, lc[0]), "lc0" },
    { offsetof(CPULinxState, lc[1]), "lc1" },
    { offsetof(CPULinxState, lc[2]), "lc2" },
    { offsetof(CPULinxState, fcsr), "fcsr" },
    { offsetof(CPULinxState, ssr_tp), "tp" },
    { offsetof(CPULinxState, insn_count), "insn_count" },
};

void linx_translate_init(IRContext *ir)
{
    /* R0 is not a global: reads of zero are the constant 0. */
    for (unsigned i = 1; i < LINX_NUM_GPRS; i++) {
        ir_global(ir, (int)offsetof(CPULinxState, gpr[i]), gpr_names[i]);
    }
    for (size_t i = 0; i < sizeof(linx_global_fields) / sizeof(linx_global_fields[0]); i++) {
        ir_global(ir, linx_global_fields[i].offset, linx_global_fields[i].name);
    }
}

/* Find our globals among the context's (the engine may register more). */
static void map_globals(DisasContext *ctx)
{
    const IRContext *ir = ctx->ir;

    for (unsigned i = 0; i < LINX_GLOBAL_SLOTS; i++) {
        ctx->g[i] = IR_NO_TEMP;
    }
    for (unsigned t = 0; t < ir->nglobals; t++) {
        const IRTempInfo *ti = &ir->temps[t];
        if (ti->kind == IR_TEMP_GLOBAL && ti->env_offset >= 0 && (ti->env_offset & 7) == 0 &&
            ti->env_offset < LINX_GLOBAL_SLOTS * 8) {
            ctx->g[ti->env_offset / 8] = t;
        }
    }
}

/* Leave the TB for a static successor through goto_tb slot @slot. */
static void gen_goto_static(DisasContext *ctx, unsigned slot, uint64_t dest)
{
    if (slot < 2) {
        /* The source the exec loop reports if @dest is no block start. */
        ctx->tb->jmp_src_bpc[slot] = ctx->bs.bpc;
    }
    ir_gen_goto_tb(ctx->ir, slot);
    ir_gen_movi(ctx->ir, cpu_field(ctx, pc), (int64_t)dest);
    ir_gen_exit_tb(ctx->ir, (uint64_t)(uintptr_t)ctx->tb | slot);
}

/* Leave the TB for the run-time target in @dest (a global): look the TB
 * up and jump straight into it (the lookup refuses TBs that are not
 * block starts, which then raise the CFI trap from the exec loop). */
static void gen_goto_dynamic(DisasContext *ctx, IRTemp dest)
{
    /* The commit discarded BPC; the CFI trap for a bad target reports the
     * branching block from env->bpc (tcg/exec.c). */
    ir_gen_movi(ctx->ir, cpu_field(ctx, bpc), (int64_t)ctx->bs.bpc);
    ir_gen_mov(ctx->ir, cpu_field(ctx, pc), dest);
    ir_gen_lookup_and_goto_ptr(ctx->ir);
}

/* At a commit the block-local state is dead: the next block starts with
 * empty T/U queues (its reads of unpushed entries are the constant 0),
 * CARG = 0 and TGT = 0 (reads before a SETC/SETC.TGT are constants too),
 * and linx_cpu_sync_block_state() rebuilds env's copy for anyone who
 * looks.  BPC matters only while pc is inside the block (a pc at a marker
 * is a block start whatever env->bpc says: resume TBs, sync).  Discarding
 * lets the JIT drop the values instead of storing them (a fault inside the
 * block still sees them: slow paths write dirty
 * globals back).  The commit reads CARG and TGT from the local copies
 * returned in @carg and @tgt (unused copies are optimised away). */
static IRCond invert_cond(IRCond c)
{
    switch (c) {
    case IR_COND_EQ: return IR_COND_NE;
    case IR_COND_NE: return IR_COND_EQ;
    case IR_COND_LT: return IR_COND_GE;
    case IR_COND_GE: return IR_COND_LT;
    case IR_COND_LE: return IR_COND_GT;
    case IR_COND_GT: return IR_COND_LE;
    case IR_COND_LTU: return IR_COND_GEU;
    case IR_COND_GEU: return IR_COND_LTU;
    case IR_COND_LEU: return IR_COND_GTU;
    case IR_COND_GTU: return IR_COND_LEU;
    case IR_COND_TSTEQ: return IR_COND_TSTNE;
    case IR_COND_TSTNE: return IR_COND_TSTEQ;
    case IR_COND_NEVER: return IR_COND_ALWAYS;
    default: return IR_COND_NEVER;
    }
}

static void gen_discard_block_locals(DisasContext *ctx, IRTemp *carg, IRTemp *tgt)
{
    IRContext *ir = ctx->ir;
    const IRTemp dead[] = {
        cpu_field(ctx, tq[0]), cpu_field(ctx, tq[1]), cpu_field(ctx, tq[2]),
        cpu_field(ctx, tq[3]), cpu_field(ctx, uq[0]), cpu_field(ctx, uq[1]),
        cpu_field(ctx, uq[2]), cpu_field(ctx, uq[3]), cpu_field(ctx, carg),
        cpu_field(ctx, tgt), cpu_field(ctx, bpc),
    };

    if (ctx->carg_val != IR_NO_TEMP) {
        /* IR_NO_TEMP: the commit branches on the compare (gen_commit) */
        *carg = ctx->carg_cmp ? IR_NO_TEMP : ctx->carg_val;
    } else {
        *carg = gen_temp(ctx);
        ir_gen_mov(ir, *carg, cpu_field(ctx, carg));
    }
    if (ctx->tgt_val != IR_NO_TEMP) {
        *tgt = ctx->tgt_val;
    } else {
        *tgt = gen_temp(ctx);
        ir_gen_mov(ir, *tgt, cpu_field(ctx, tgt));
    }
    ctx->carg_val = ctx->tgt_val = IR_NO_TEMP;
    for (unsigned i = 0; i < sizeof(dead) / sizeof(dead[0]); i++) {
        uint64_t arg = dead[i];
        /* Not written since its last discard: nothing to drop. */
        if (ir_take_global_written(ir, dead[i])) {
            ir_emit(ir, IR_discard, &arg);
        }
    }
}

static void gen_count_insns(DisasContext *ctx)
{
    IRTemp c = cpu_field(ctx, insn_count);

    ir_gen_addi(ctx->ir, c, c, ctx->insn_index - ctx->count_base);
}

/* The target of a DIRECT/COND/CALL block: TGT when SETC.TGT changed it,
 * else the header target (or, without one, TGT's reset value 0). */
static void gen_goto_block_target(DisasContext *ctx, unsigned slot, IRTemp tgt)
{
    const LinxBlockState *bs = &ctx->bs;

    if (bs->tgt_set) {
        gen_goto_dynamic(ctx, tgt);
    } else {
        gen_goto_static(ctx, slot, bs->has_target ? bs->target : 0);
    }
}

/*
 * The fall-through successor of a block that ended with BSTOP must be a
 * block start too (E_BLOCK(EC_CFI) kind CFI_MISSING_NEXT_MARKER).  When the
 * instruction there can be decoded at translation time the verdict is
 * static; otherwise the successor's own TB check reports a bad target.
 */
static bool fall_is_bad(DisasContext *ctx, uint64_t fall)
{
    LinxInsn next;

    if (ctx->insn == NULL || fall != ctx->next_pc || !same_page(ctx->pc, fall)) {
        return false; /* ended at a marker, or not checkable here */
    }
    return peek_insn(ctx, fall, &next) && !linx_form_is_marker(next.form);
}

static void gen_goto_fall(DisasContext *ctx, unsigned slot, uint64_t fall, bool bad)
{
    if (bad) {
        /* gen_commit counted the block's instructions: gen_raise must not
         * count them again. */
        ctx->count_base = ctx->insn_index;
        gen_raise(ctx, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_CFI, LINX_CFI_MISSING_NEXT_MARKER),
                  ctx->pc);
        return;
    }
    gen_goto_static(ctx, slot, fall);
}


/*
 * A COND block whose target is the start of its own TB (a self-loop, see
 * gen_loop_again) loops inside the TB: after the last copy, the taken
 * path branches back to ctx->loop_head instead of leaving through the
 * chained goto_tb, so the backend can keep the loop's guest registers in
 * host registers across the back edge (docs/backend.md "Loops inside a
 * TB").  The back edge is what a chained jump to this TB would do, minus
 * the TB's entry: the only op before loop_head is TB_F_EXIT_CHECK's test,
 * which the back edge repeats.  It leaves through the goto_tb instead
 * (the old path: chained or not, as before) when another thread asked
 * for an exit (exit_request: kicks, timeouts, exclusive sections, a
 * stopping machine) or when this TB was invalidated (a store into its
 * code, a flush), so such a loop stops where the chained one would.
 * Modes that need the exec loop between blocks (single-step, commit
 * trace, resume TBs) never get a loop head.
 */
static bool loop_back_ok(DisasContext *ctx)
{
    const LinxBlockState *bs = &ctx->bs;
    const TranslationBlock *tb = ctx->tb;

    return ctx->has_loop_head && bs->kind == LINX_BR_COND && bs->has_target &&
           bs->target == tb->pc && bs->bpc == tb->pc && !bs->tgt_set && bs->carg_set &&
           !bs->is_header && !bs->is_template;
}

static void gen_loop_back(DisasContext *ctx)
{
    IRContext *ir = ctx->ir;
    IRTemp req = ir_temp(ir), cf = ir_temp(ir);
    IRLabel l_leave = ir_label(ir), l_again = ir_label(ir);

    ir_gen_ld(ir, IR_ld32s, req, ir->env, (int32_t)offsetof(CPULinxState, engine.exit_request));
    ir_gen_brcond(ir, IR_COND_NE, req, gen_const(ctx, 0), l_leave);
    ir_gen_ld(ir, IR_ld32u, cf, gen_const(ctx, (int64_t)(uintptr_t)&ctx->tb->cflags), 0);
    ir_gen_brcond(ir, IR_COND_TSTEQ, cf, gen_const(ctx, TB_C_INVALID | TB_C_ONE_PASS), l_again);
    /* Invalidated, or run by linx_exec_step: back to the exec loop at
     * this block (what the unchained goto_tb does, without chaining). */
    ir_gen_movi(ir, cpu_field(ctx, pc), (int64_t)ctx->tb->pc);
    ir_gen_exit_tb(ir, 0);
    ir_gen_set_label(ir, l_again);
    ir_gen_br(ir, ctx->loop_head);
    ir_gen_set_label(ir, l_leave);
}

/* Commit the current block (digest 3.2); @fall is the address after it. */
static void gen_commit(DisasContext *ctx, uint64_t fall)
{
    bool bad_fall = fall_is_bad(ctx, fall);
    const LinxBlockState *bs = &ctx->bs;
    IRContext *ir = ctx->ir;
    IRTemp carg, tgt;
    IRLabel l_fall;

    /* IND/ICALL/RET need a SETC.TGT in the block (call/ret contract 4). */
    if ((bs->kind == LINX_BR_IND || bs->kind == LINX_BR_ICALL || bs->kind == LINX_BR_RET) &&
        !bs->tgt_set && !bs->is_header) {
        gen_flush_block_args(ctx);
        gen_raise(ctx, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BLOCKFMT, 0),
                  LINX_DESC_ARG | LINX_BLOCKFMT_COMBO << 8);
        return;
    }
    gen_count_insns(ctx);

    if (bs->is_header && linx_kernel_header_type(bs->type)) {
        /* MPAR/MSEQ/VPAR/VSEQ, TEPL, CUBE (kernel-header.c). */
        gen_flush_block_args(ctx);
        gen_kernel_header_commit(ctx, fall, bad_fall);
        return;
    }
    if (bs->is_header) {
        gen_flush_block_args(ctx);
        /* Tile/kernel header: the engine runs it, then fall through.
         * LB0-2 read 0 unless a B.DIM of this block wrote them. */
        for (unsigned i = 0; i < 3; i++) {
            if (!(bs->lb_written & (1u << i))) {
                ir_gen_movi(ir, cpu_field(ctx, lb[i]), 0);
            }
        }
        if (bs->type == LINX_BLK_TMA) {
            /* Planned at translation time (tma-translate.c). */
            if (!gen_tma_commit(ctx)) {
                return;
            }
        } else {
            gen_helper_block_engine(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, (int64_t)bs->bpc));
        }
        gen_goto_fall(ctx, 0, fall, bad_fall);
        return;
    }

    gen_discard_block_locals(ctx, &carg, &tgt);
    switch (bs->kind) {
    case LINX_BR_DIRECT:
        gen_goto_block_target(ctx, 1, tgt);
        break;
    case LINX_BR_CALL:
    case LINX_BR_ICALL:
        if (!bs->ra_set) {
            /* Without a SETRET, return to the fall-through block. */
            ir_gen_movi(ir, cpu_gpr(ctx, LINX_REG_RA), (int64_t)fall);
        }
        if (bs->kind == LINX_BR_CALL) {
            gen_goto_block_target(ctx, 1, tgt);
        } else {
            gen_goto_dynamic(ctx, tgt);
        }
        break;
    case LINX_BR_IND:
        gen_goto_dynamic(ctx, tgt);
        break;
    case LINX_BR_COND:
    case LINX_BR_RET:
        if (!bs->carg_set) {
            /* CARG is still its reset value 0: always fall through. */
            gen_goto_fall(ctx, 0, fall, bad_fall);
            break;
        }
        l_fall = ctx->has_loop_exit ? ctx->loop_exit : ir_label(ir);
        if (carg == IR_NO_TEMP) {
            ir_gen_brcond(ir, invert_cond(ctx->carg_cond), ctx->carg_l, ctx->carg_r, l_fall);
        } else {
            ir_gen_brcond(ir, IR_COND_EQ, carg, gen_const(ctx, 0), l_fall);
        }
        if (bs->kind == LINX_BR_COND) {
            if (loop_back_ok(ctx)) {
                gen_loop_back(ctx);
            }
            gen_goto_block_target(ctx, 1, tgt);
        } else {
            gen_goto_dynamic(ctx, tgt);
        }
        ir_gen_set_label(ir, l_fall);
        gen_goto_fall(ctx, 0, fall, bad_fall);
        break;
    case LINX_BR_FALL:
    default:
        gen_goto_fall(ctx, 0, fall, bad_fall);
        break;
    }
}

/*
 * A COND block whose target is its own start is a loop the block structure
 * states outright.  Its TB holds up to LINX_LOOP_COPIES copies: each copy
 * but the last ends in "count, discard the block state, leave for the
 * fall-through successor unless CARG", and the next copy starts again at
 * the marker (a new instance of the block: fresh BARG and queues); the
 * last copy commits as usual (taken: chained to this TB).  Guest registers
 * then stay in host registers from one iteration to the next instead of
 * going through env (the exits still write them back).
 */
static bool gen_loop_again(DisasContext *ctx)
{
    const LinxBlockState *bs = &ctx->bs;
    const TranslationBlock *tb = ctx->tb;
    unsigned n = ctx->insn_index - ctx->count_base;

    return bs->kind == LINX_BR_COND && bs->has_target && bs->target == tb->pc &&
           bs->bpc == tb->pc && !bs->tgt_set && bs->carg_set && !bs->is_header &&
           !bs->is_template && !(tb->flags & (TB_F_TRACE | TB_F_ONE_INSN | TB_F_RESUME)) &&
           ctx->loop_copies + 1 < LINX_LOOP_COPIES && ctx->insn_index + n <= LINX_LOOP_MAX_INSNS;
}

static void gen_loop_copy_end(DisasContext *ctx)
{
    IRContext *ir = ctx->ir;
    IRTemp carg, tgt;

    if (!ctx->has_loop_exit) {
        ctx->loop_exit = ir_label(ir);
        ctx->has_loop_exit = true;
    }
    gen_count_insns(ctx);
    gen_discard_block_locals(ctx, &carg, &tgt);
    if (carg == IR_NO_TEMP) {
        ir_gen_brcond(ir, invert_cond(ctx->carg_cond), ctx->carg_l, ctx->carg_r, ctx->loop_exit);
    } else {
        ir_gen_brcond(ir, IR_COND_EQ, carg, gen_const(ctx, 0), ctx->loop_exit);
    }
    ctx->count_base = ctx->insn_index;
    ctx->loop_copies++;
}

/* End the TB in the middle of the block: the rest runs in a resume TB. */
static void gen_cut(DisasContext *ctx, uint64_t next)
{
    gen_flush_block_args(ctx);
    gen_count_insns(ctx);
    ir_gen_movi(ctx->ir, cpu_field(ctx, resume), 1);
    gen_goto_static(ctx, 0, next);
}

/* A debugger breakpoint at ctx->pc (tcg/exec.h): stop before the
 * instruction, which has not run; the ones before it in this TB have.
 * @block_start: the instruction is the marker that starts a block (the
 * stop is then not mid-block). */
static void gen_debug_stop(DisasContext *ctx, bool block_start)
{
    IRContext *ir = ctx->ir;
    IRTemp args[3] = { ir->env, gen_const(ctx, (int64_t)ctx->pc), gen_const(ctx, !block_start) };

    gen_count_insns(ctx);
    ir_gen_call(ir, &linx_helper_debug_stop_info, IR_NO_TEMP, 3, args);
    ir_gen_exit_tb(ir, 0);
    ctx->jump = DISAS_NORETURN;
}


/* ======================================================================
 * Per-class translators
 * ====================================================================== */

#include "insn_trans/trans_alu.c.inc"
#include "insn_trans/trans_agu.c.inc"
#include "insn_trans/trans_bru.c.inc"
#include "insn_trans/trans_bbd.c.inc"
#include "insn_trans/trans_cmd.c.inc"
#include "insn_trans/trans_amo.c.inc"
#include "insn_trans/trans_sys.c.inc"
#include "insn_trans/trans_fsu.c.inc"
#include "insn_trans/trans_vec.c.inc"

/* Translate the current instruction; false = no translator (illegal). */
static bool trans_insn(DisasContext *ctx)
{
    const LinxFormInfo *fi = linx_form(ctx->insn->form);

    /* A tile/kernel header holds only B.* descriptors (digest 3.3). */
    if (ctx->bs.is_header && !linx_form_is_marker(ctx->insn->form) &&
        !trans_is_header_descriptor(ctx->insn->form)) {
        return false;
    }
    switch (fi->uop) {
    case LINX_UOP_ALU:
        return trans_alu(ctx);
    case LINX_UOP_AGU:
        return trans_agu(ctx);
    case LINX_UOP_BRU:
        return trans_bru(ctx);
    case LINX_UOP_BBD:
    case LINX_UOP_CMD:
        return trans_bbd(ctx) || trans_cmd(ctx);
    case LINX_UOP_AMO:
        return trans_amo(ctx);
    case LINX_UOP_SYS:
        return trans_sys(ctx);
    case LINX_UOP_FSU:
        return trans_fsu(ctx);
    case LINX_UOP_VEC:
        return trans_vec(ctx);
    default:
        return false;
    }
}

/* ======================================================================
 * Fetch and the translation loop
 * ====================================================================== */

typedef enum FetchResult {
    FETCH_OK,
    FETCH_FAULT,   /* code not readable/executable: *fault_addr */
    FETCH_ILLEGAL, /* no form matches */
} FetchResult;

/* @n code bytes at @pc, as guest_mem_read(..., GM_PROT_EXEC) would give
 * them.  Served from the bytes read ahead when they hold them; else the
 * rest of the page (up to LINX_FETCH_AHEAD bytes) is read with one
 * access, which succeeds exactly when the page is executable RAM - any
 * other answer (a fault, a region boundary) falls back to reading the @n
 * bytes alone, so faults and their addresses stay those of the exact
 * read. */
static GuestFault fetch_bytes(DisasContext *ctx, uint64_t pc, uint8_t *out, unsigned n,
                              uint64_t *fault_addr)
{
    uint64_t room = GUEST_PAGE_SIZE - (pc & ~GUEST_PAGE_MASK);
    uint64_t fa;

    if (pc - ctx->fetch_base < ctx->fetch_len && ctx->fetch_len - (pc - ctx->fetch_base) >= n) {
        memcpy(out, ctx->fetch_buf + (pc - ctx->fetch_base), n);
        return GM_OK;
    }
    if (room > LINX_FETCH_AHEAD) {
        room = LINX_FETCH_AHEAD;
    }
    if (room >= n &&
        guest_mem_read(ctx->env->engine.mem, pc, ctx->fetch_buf, room, GM_PROT_EXEC, &fa) == GM_OK) {
        ctx->fetch_base = pc;
        ctx->fetch_len = (uint32_t)room;
        memcpy(out, ctx->fetch_buf, n);
        return GM_OK;
    }
    ctx->fetch_len = 0;
    return guest_mem_read(ctx->env->engine.mem, pc, out, n, GM_PROT_EXEC, fault_addr);
}

static FetchResult fetch_insn(DisasContext *ctx, uint64_t pc, LinxInsn *insn,
                              uint64_t *fault_addr)
{
    uint8_t buf[8];
    unsigned len;

    if (fetch_bytes(ctx, pc, buf, 2, fault_addr) != GM_OK) {
        return FETCH_FAULT;
    }
    len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
    if (len > 2 && fetch_bytes(ctx, pc + 2, buf + 2, len - 2, fault_addr) != GM_OK) {
        return FETCH_FAULT;
    }
    if (linx_decode(buf, len, insn) != LINX_DECODE_OK) {
        insn->len = (uint8_t)len;
        return FETCH_ILLEGAL;
    }
    return FETCH_OK;
}

/* Decode the instruction at @pc without translating it (peeking at the
 * next instruction, e.g. the SETRET that turns a DIRECT header into a
 * call); false when it cannot be fetched or decoded. */
static bool peek_insn(DisasContext *ctx, uint64_t pc, LinxInsn *insn)
{
    uint64_t fault;

    return fetch_insn(ctx, pc, insn, &fault) == FETCH_OK;
}

/* Translate one instruction at ctx->pc (already fetched into @insn). */
static void translate_one(DisasContext *ctx, const LinxInsn *insn)
{
    ctx->insn = insn;
    ctx->next_pc = ctx->pc + insn->len;
    ctx->jump = DISAS_NEXT;
    ctx->traced = false;
    ctx->acrc_prev = ctx->bs.acrc_cont;
    ctx->bs.acrc_cont = 0;
    ir_gen_insn_start(ctx->ir, ctx->pc, ctx->insn_index);
    if (!trans_insn(ctx)) {
        gen_illegal(ctx);
    }
    if (ctx->jump != DISAS_NORETURN) {
        gen_trace_insn(ctx);
    }
    /* Only a call header's very next instruction may fuse a SETRET. */
    if (!linx_form_is_marker(insn->form)) {
        ctx->bs.setret_ok = false;
    }
}

/*
 * Rebuild the block state at @pc by translating the block from @bpc up to
 * @pc into @ctx->ir (the caller drops those ops).  Fails when @pc is not
 * reached by decoding forward from a marker at @bpc.
 */
static bool linx_block_replay(DisasContext *ctx, uint64_t bpc, uint64_t pc)
{
    LinxInsn insn;
    uint64_t fault;

    ctx->replay = true;
    ctx->pc = bpc;
    for (unsigned n = 0; n < LINX_REPLAY_MAX_INSNS && ctx->pc < pc; n++) {
        if (fetch_insn(ctx, ctx->pc, &insn, &fault) != FETCH_OK) {
            break;
        }
        if (n == 0 ? !linx_form_is_marker(insn.form)
                   : linx_form_is_marker(insn.form) && !linx_insn_continues_block(ctx, &insn)) {
            break;
        }
        translate_one(ctx, &insn);
        if (ctx->jump != DISAS_NEXT) {
            break;
        }
        ctx->pc = ctx->next_pc;
    }
    ctx->replay = false;
    /* The scratch ops are dropped: CARG/TGT are in env at a resume. */
    ctx->carg_val = ctx->tgt_val = IR_NO_TEMP;
    return ctx->pc == pc && ctx->jump == DISAS_NEXT;
}

/* Block state for a TB entered mid-block at @pc: replay from env->bpc
 * (unless @replayed: the caller did), and guard the TB against being
 * entered with another env->bpc. */
static void gen_resume_prologue(DisasContext *ctx, uint64_t pc, bool replayed)
{
    IRContext *ir = ctx->ir;
    uint64_t bpc = ctx->env->bpc;
    IRLabel l_ok;

    if (!replayed && !linx_block_replay(ctx, bpc, pc)) {
        /* Unreachable from env->bpc (a debugger or handler moved pc):
         * continue as if a plain FALL block started here. */
        memset(&ctx->bs, 0, sizeof(ctx->bs));
        ctx->bs.bpc = bpc;
        ctx->bs.kind = LINX_BR_FALL;
    }
    ir_reset(ir);
    ctx->pc = pc;
    l_ok = ir_label(ir);
    ir_gen_brcond(ir, IR_COND_EQ, cpu_field(ctx, bpc), gen_const(ctx, (int64_t)bpc), l_ok);
    gen_helper_resume_mismatch(ctx, IR_NO_TEMP, ir->env);
    ir_gen_exit_tb(ir, 0);
    ir_gen_set_label(ir, l_ok);
    /* l_ok's one way in is the brcond at the TB's start: nothing written. */
    ir->globals_written = 0;
    ir_gen_movi(ir, cpu_field(ctx, resume), 0);
}

/* TB_F_EXIT_CHECK (tcg/exec.h, linx_exec_set_exit_check): leave before
 * the first instruction when another thread set env->exit_request, with
 * env->pc and env->resume naming this TB again (a chained jump into it
 * did not store them). */
static void gen_exit_check(DisasContext *ctx, bool resume)
{
    IRContext *ir = ctx->ir;
    IRTemp req = ir_temp(ir);
    IRLabel l_run = ir_label(ir);
    uint64_t written;

    ir_gen_ld(ir, IR_ld32s, req, ir->env, (int32_t)offsetof(CPULinxState, engine.exit_request));
    ir_gen_brcond(ir, IR_COND_EQ, req, gen_const(ctx, 0), l_run);
    written = ir->globals_written;
    ir_gen_movi(ir, cpu_field(ctx, pc), (int64_t)ctx->tb->pc);
    ir_gen_movi(ir, cpu_field(ctx, resume), resume);
    ir_gen_exit_tb(ir, 0);
    ir_gen_set_label(ir, l_run);
    /* The brcond above is l_run's one way in (the exit path ends). */
    ir->globals_written = written;
}

/* The TB for a branch to a non-marker: raise E_BLOCK(EC_CFI) (TB_C_CFI_BAD). */
static void gen_cfi_bad_tb(DisasContext *ctx)
{
    ctx->tb->cflags |= TB_C_CFI_BAD;
    gen_helper_cfi_bad_target(ctx, IR_NO_TEMP, ctx->ir->env, gen_const(ctx, (int64_t)ctx->pc));
    ir_gen_exit_tb(ctx->ir, 0);
}

/* A resume TB at a marker: is it the system-call continuation of the
 * block at env->bpc?  Replays that block (true: its state is in @ctx);
 * false leaves @ctx as it was. */
static bool resume_at_continuation(DisasContext *ctx, const LinxInsn *insn)
{
    uint64_t pc = ctx->pc;

    if (!ctx->env->profile->acrc_continues_block || insn->form != LINX_F_C_BSTART_STD ||
        ctx->env->bpc == pc) {
        return false;
    }
    if (linx_block_replay(ctx, ctx->env->bpc, pc) && linx_insn_continues_block(ctx, insn)) {
        return true;
    }
    ir_reset(ctx->ir);
    map_globals(ctx);
    memset(&ctx->bs, 0, sizeof(ctx->bs));
    ctx->insn_index = 0;
    ctx->pc = pc;
    ctx->carg_val = ctx->tgt_val = IR_NO_TEMP;
    return false;
}

void linx_translate_block(CPULinxState *env, IRContext *ir, TranslationBlock *tb)
{
    DisasContext ctx_s;
    DisasContext *ctx = &ctx_s;
    LinxInsn insn;
    uint64_t fault = 0;
    FetchResult fr;
    bool resume = tb->flags & TB_F_RESUME;

    memset(ctx, 0, sizeof(*ctx));
    ctx->env = env;
    ctx->ir = ir;
    ctx->tb = tb;
    ctx->carg_val = ctx->tgt_val = IR_NO_TEMP;
    ir_reset(ir);
    map_globals(ctx);
    tb->icount = 0;
    tb->size = 0;
    ctx->pc = tb->pc;
    if (tb->flags & TB_F_BODY) {
        /* A kernel body, entered from its header (kernel-body.c). */
        linx_kernel_translate_body(ctx);
        return;
    }

    fr = fetch_insn(ctx, tb->pc, &insn, &fault);
    if (resume && !(fr == FETCH_OK && linx_form_is_marker(insn.form))) {
        gen_resume_prologue(ctx, tb->pc, false);
    } else if (resume && resume_at_continuation(ctx, &insn)) {
        /* A TB cut in front of a system-call continuation marker. */
        gen_resume_prologue(ctx, tb->pc, true);
    } else if (fr == FETCH_OK && !linx_form_is_marker(insn.form)) {
        tb->size = insn.len;
        gen_cfi_bad_tb(ctx);
        return;
    }
    if (tb->flags & TB_F_EXIT_CHECK) {
        gen_exit_check(ctx, resume);
    }
    if (!(tb->flags & (TB_F_TRACE | TB_F_ONE_INSN | TB_F_RESUME)) && fr == FETCH_OK &&
        env->engine.exec && linx_exec_loop_in_tb(env->engine.exec)) {
        /* Where a self-loop's back edge goes (gen_loop_back); the
         * optimiser drops it when nothing branches there. */
        ctx->loop_head = ir_label(ir);
        ctx->has_loop_head = true;
        ir_gen_set_label(ir, ctx->loop_head);
    }

    for (;;) {
        if (ctx->insn_index > 0) {
            fr = fetch_insn(ctx, ctx->pc, &insn, &fault);
        }
        if (fr == FETCH_FAULT) {
            if (ctx->insn_index > 0) {
                /* Let the faulting fetch happen in its own TB, so the TB
                 * so far still runs. */
                gen_cut(ctx, ctx->pc);
                break;
            }
            ctx->insn = &insn;
            insn.raw = 0;
            gen_flush_block_args(ctx);
            gen_raise(ctx, (ctx->pc & 1) ? LINX_TRAP_INST_PC_FAULT : LINX_TRAP_INST_PAGE_FAULT,
                      0, (ctx->pc & 1) ? ctx->pc : fault);
            tb->size = 2;
            break;
        }
        if (ctx->insn_index > ctx->count_base && fr == FETCH_OK &&
            linx_form_is_marker(insn.form) && !linx_insn_continues_block(ctx, &insn)) {
            /* The next marker ends the block: commit, marker not included
             * (or, for a self-loop, the next copy starts there). */
            if (gen_loop_again(ctx)) {
                gen_loop_copy_end(ctx);
                ctx->pc = tb->pc;
                continue;
            }
            gen_commit(ctx, ctx->pc);
            break;
        }
        if (ctx->insn_index > 0) {
            /* Stay within two pages, LINX_TB_MAX_INSNS, one insn per TB
             * when asked. */
            if ((tb->flags & TB_F_ONE_INSN) || ctx->insn_index >= LINX_TB_MAX_INSNS ||
                !same_page(tb->pc, ctx->pc)) {
                gen_cut(ctx, ctx->pc);
                break;
            }
        }
        /* Anything but a BSTOP may observe or fault: CARG/TGT go to env
         * first (a BSTOP commits with them still pending). */
        if (fr != FETCH_OK || (tb->flags & TB_F_TRACE) ||
            (insn.form != LINX_F_BSTOP && insn.form != LINX_F_C_BSTOP)) {
            gen_flush_block_args(ctx);
        }
        /* Breakpoints are decided here, at translation time (tcg/exec.h). */
        if (env->engine.exec && linx_exec_breakpoint_at(env->engine.exec, ctx->pc)) {
            gen_flush_block_args(ctx);
            gen_debug_stop(ctx, ctx->insn_index == ctx->count_base && fr == FETCH_OK &&
                                    linx_form_is_marker(insn.form));
            break;
        }
        if (fr == FETCH_ILLEGAL) {
            ctx->insn = &insn;
            insn.raw = 0;
            ctx->next_pc = ctx->pc + insn.len;
            gen_illegal(ctx);
        } else {
            translate_one(ctx, &insn);
        }
        ctx->insn_index++;
        tb->icount = ctx->insn_index;
        tb->size = (uint32_t)(ctx->next_pc - tb->pc);
        if (ctx->jump == DISAS_NORETURN) {
            break;
        }
        if (ctx->jump == DISAS_COMMIT) {
            gen_commit(ctx, ctx->next_pc);
            break;
        }
        ctx->pc = ctx->next_pc;
    }
}

/* ======================================================================
 * Block state for traps, dumps and the debugger (cpu.h)
 * ====================================================================== */

bool linx_cpu_sync_block_state(CPULinxState *env)
{
    IRContext *ir = ir_context_new();
    TranslationBlock tb;
    DisasContext ctx;
    bool ok;

    memset(&tb, 0, sizeof(tb));
    memset(&ctx, 0, sizeof(ctx));
    ctx.carg_val = ctx.tgt_val = IR_NO_TEMP;
    linx_translate_init(ir);
    ir_reset(ir);
    ctx.env = env;
    ctx.ir = ir;
    ctx.tb = &tb;
    map_globals(&ctx);
    ok = env->pc == env->bpc || linx_block_replay(&ctx, env->bpc, env->pc);
    if (env->pc == env->bpc) {
        memset(&ctx.bs, 0, sizeof(ctx.bs));
        ctx.bs.kind = LINX_BR_FALL;
    }
    if (ok) {
        const LinxBlockState *bs = &ctx.bs;
        env->t_head = bs->t_head;
        env->u_head = bs->u_head;
        for (unsigned k = bs->t_count + 1; k <= LINX_QUEUE_DEPTH; k++) {
            env->tq[(bs->t_head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)] = 0;
        }
        for (unsigned k = bs->u_count + 1; k <= LINX_QUEUE_DEPTH; k++) {
            env->uq[(bs->u_head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)] = 0;
        }
        env->br_kind = bs->kind;
        env->blk_type = bs->type;
        env->hdr_target = bs->has_target ? bs->target : 0;
        env->tgt_set = bs->tgt_set;
        if (!bs->carg_set) {
            env->carg = 0;
        }
        if (!bs->tgt_set) {
            env->tgt = 0;
        }
        for (unsigned i = 0; i < 3; i++) {
            if (!(bs->lb_written & (1u << i))) {
                env->lb[i] = 0;
            }
        }
    }
    ir_context_free(ir);
    return ok;
}

uint64_t linx_cpu_queue_read(const CPULinxState *env, bool u, unsigned k)
{
    const uint64_t *q = u ? env->uq : env->tq;
    uint64_t head = u ? env->u_head : env->t_head;

    if (k < 1 || k > LINX_QUEUE_DEPTH) {
        return 0;
    }
    return q[(head - (k - 1)) & (LINX_QUEUE_DEPTH - 1)];
}
