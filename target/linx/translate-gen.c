/*
 * The translator's toolkit (translate-gen.h): operands, helper calls,
 * traps, tracing, block start and block-argument flushes.  Used by the
 * translation loop (translate.c) and the block translators around it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcg/softmmu.h"
#include "translate-gen.h"

IRTemp linx_global(DisasContext *ctx, int off)
{
    IRTemp t = ctx->g[off / 8];

    if (t == IR_NO_TEMP) {
        fprintf(stderr, "linx translate: CPU-state word at offset %d is not an IR global "
                        "(linx_translate_init not called on this IR context?)\n", off);
        abort();
    }
    return t;
}

/* ======================================================================
 * Operands
 * ====================================================================== */

int64_t linx_fld(const DisasContext *ctx, LinxFieldId id)
{
    return linx_insn_field(ctx->insn, id, NULL);
}

bool linx_has_fld(const DisasContext *ctx, LinxFieldId id)
{
    bool present = false;

    linx_insn_field(ctx->insn, id, &present);
    return present;
}

IRTemp gen_temp(DisasContext *ctx)
{
    return ir_temp(ctx->ir);
}

IRTemp gen_const(DisasContext *ctx, int64_t v)
{
    return ir_const(ctx->ir, v);
}

/* ClockHands slot of t#k / u#k (k = 1..4), or -1 when nothing was pushed
 * that deep in this block (the queue reads 0 there). */
static int queue_slot(uint8_t head, uint8_t count, unsigned k)
{
    if (k > count) {
        return -1;
    }
    return (head - (int)(k - 1)) & (LINX_QUEUE_DEPTH - 1);
}

IRTemp gen_read_src(DisasContext *ctx, unsigned code)
{
    int slot;

    code &= 31;
    if (code == LINX_REG_ZERO) {
        return gen_const(ctx, 0);
    }
    if (code < LINX_NUM_GPRS) {
        return cpu_gpr(ctx, code);
    }
    if (code < LINX_REG_U1) {
        slot = queue_slot(ctx->bs.t_head, ctx->bs.t_count, code - LINX_REG_T1 + 1);
        return slot < 0 ? gen_const(ctx, 0) : cpu_field(ctx, tq[slot]);
    }
    slot = queue_slot(ctx->bs.u_head, ctx->bs.u_count, code - LINX_REG_U1 + 1);
    return slot < 0 ? gen_const(ctx, 0) : cpu_field(ctx, uq[slot]);
}

void gen_write_dst(DisasContext *ctx, unsigned code, IRTemp val)
{
    LinxBlockState *bs = &ctx->bs;

    code &= 31;
    if (code == LINX_REG_ZERO) {
        return;
    }
    if (code < LINX_NUM_GPRS) {
        ir_gen_mov(ctx->ir, cpu_gpr(ctx, code), val);
        return;
    }
    if (code == LINX_DST_T) {
        bs->t_head = (bs->t_head + 1) & (LINX_QUEUE_DEPTH - 1);
        bs->t_count += bs->t_count < LINX_QUEUE_DEPTH;
        ir_gen_mov(ctx->ir, cpu_field(ctx, tq[bs->t_head]), val);
        return;
    }
    if (code == LINX_DST_U) {
        bs->u_head = (bs->u_head + 1) & (LINX_QUEUE_DEPTH - 1);
        bs->u_count += bs->u_count < LINX_QUEUE_DEPTH;
        ir_gen_mov(ctx->ir, cpu_field(ctx, uq[bs->u_head]), val);
        return;
    }
    /* Codes 24..29 as a destination: no output. */
}

void gen_sync_queues(DisasContext *ctx)
{
    ir_gen_movi(ctx->ir, cpu_field(ctx, t_head), ctx->bs.t_head);
    ir_gen_movi(ctx->ir, cpu_field(ctx, u_head), ctx->bs.u_head);
}

/* ======================================================================
 * Helpers, traps
 * ====================================================================== */

void gen_call(DisasContext *ctx, const IRHelperInfo *h, IRTemp ret, unsigned nargs,
              const IRTemp *args)
{
    ir_gen_call(ctx->ir, h, ret, nargs, args);
}

uint64_t gen_mem_pc(const DisasContext *ctx)
{
    return linx_pc_with_retired(ctx->pc, ctx->insn_index - ctx->count_base);
}

void gen_raise(DisasContext *ctx, unsigned trapnum, unsigned cause, uint64_t traparg0)
{
    IRTemp c = cpu_field(ctx, insn_count);

    /* The instructions of this TB before the trapping one retired. */
    if (ctx->insn_index > ctx->count_base) {
        ir_gen_addi(ctx->ir, c, c, ctx->insn_index - ctx->count_base);
    }
    gen_helper_raise(ctx, IR_NO_TEMP, ctx->ir->env, gen_const(ctx, trapnum),
                     gen_const(ctx, cause), gen_const(ctx, (int64_t)traparg0),
                     gen_const(ctx, (int64_t)ctx->pc));
    ir_gen_exit_tb(ctx->ir, 0);
    ctx->jump = DISAS_NORETURN;
}

void gen_trace_mem(DisasContext *ctx, bool store, IRTemp addr, IRTemp val, unsigned lg)
{
    IRContext *ir = ctx->ir;
    int off = (int)offsetof(CPULinxState, trace_mem);

    if (!(ctx->tb->flags & TB_F_TRACE) || ctx->replay) {
        return;
    }
    ir_gen_st(ir, IR_st64, gen_const(ctx, (1 << (lg & 3)) | (store ? 0x100 : 0)), ir->env, off);
    ir_gen_st(ir, IR_st64, addr, ir->env, off + 8);
    ir_gen_st(ir, IR_st64, val, ir->env, off + 16);
}

void gen_trace_insn(DisasContext *ctx)
{
    const LinxInsn *insn = ctx->insn;

    if (!(ctx->tb->flags & TB_F_TRACE) || ctx->traced) {
        return;
    }
    ctx->traced = true;
    gen_helper_trace_insn(ctx, IR_NO_TEMP, ctx->ir->env, gen_const(ctx, (int64_t)ctx->pc),
                          gen_const(ctx, (int64_t)insn->raw),
                          gen_const(ctx, (int64_t)linx_trace_translate_info(ctx)));
}

bool gen_illegal(DisasContext *ctx)
{
    gen_raise(ctx, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), ctx->pc);
    return true;
}

/* ======================================================================
 * Block structure
 * ====================================================================== */

void gen_block_start(DisasContext *ctx, LinxBranchKind kind, LinxBlockType type,
                     bool has_target, uint64_t target)
{
    LinxBlockState *bs = &ctx->bs;

    memset(bs, 0, sizeof(*bs));
    bs->bpc = ctx->pc;
    bs->kind = kind;
    bs->type = type;
    bs->has_target = has_target;
    bs->target = target;
    bs->setret_ok = kind == LINX_BR_CALL || kind == LINX_BR_ICALL;
    /* BPC is the one piece of block state kept current in env: traps and
     * resume TBs start from it. */
    ir_gen_movi(ctx->ir, cpu_field(ctx, bpc), (int64_t)ctx->pc);
}

void gen_flush_block_args(DisasContext *ctx)
{
    if (ctx->carg_val != IR_NO_TEMP) {
        ir_gen_mov(ctx->ir, cpu_field(ctx, carg), ctx->carg_val);
        ctx->carg_val = IR_NO_TEMP;
    }
    if (ctx->tgt_val != IR_NO_TEMP) {
        ir_gen_mov(ctx->ir, cpu_field(ctx, tgt), ctx->tgt_val);
        ctx->tgt_val = IR_NO_TEMP;
    }
}
