/*
 * TMA header blocks at translation time (see tma-translate.h): gather the
 * descriptors, plan the block, emit the helper call or the raise.
 *
 * Invariants:
 *   - ctx->tma is a pure function of the header's instructions (like
 *     LinxBlockState), so a resume TB that replays the header prefix
 *     (one-instruction mode, a TB cut in the middle of a header) ends with
 *     the same descriptor as the whole-block translation;
 *   - header descriptors emit no run-time code except B.DIM, which writes
 *     the architectural LB0-2 (trans_cmd.c.inc); register operands are
 *     read at the commit - a header holds only B.* descriptors, so no
 *     register changes between a B.IOR and the commit;
 *   - a LinxTmaBlock is allocated with the TB (linx_exec_tb_alloc) and is
 *     never written after translation.
 *
 * Decisions (docs/tile.md, "Translation"):
 *   - a TSTORE whose B.IOT gives no size (RegSrc = zero, the encoding seed
 *     000's template uses) moves tiles of the size the source tiles have
 *     (seed 000: Row = TileSize / (Col x esize) of the input tile); the
 *     shape is then a run-time value;
 *   - the virt machine's operand-less TMA header is a no-op
 *     (env->tma_empty_header_noop), decided here, once.
 */
#include <inttypes.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "tcg/exec.h"
#include "tile-trap.h"
#include "tma-header.h"
#include "tma-translate.h"
#include "translate-gen.h"
#include "profile.h"


enum {
    TMA_IOTI_CODE_4KB = 8,    /* B.IOTI SizeCode: 2^(8 + 4) bytes */
    TMA_BLOCK_ALIGN = 64,     /* the plan's hot fields share a cache line */
    ARENA_ALIGN_MIN = 16,     /* what linx_exec_tb_alloc guarantees */
    TMA_TRAP_CAUSE_SHIFT = 16, /* helper_tma_raise: trapnum | cause << 16 */
};

bool gen_tma_header_start(DisasContext *ctx)
{
    gen_block_start(ctx, LINX_BR_FALL, LINX_BLK_TMA, false, 0);
    ctx->bs.is_header = true;
    if (!tma_desc_begin(&ctx->tma, ctx->insn)) {
        /* Not a TMA header form: the caller's switch is wrong. */
        return gen_illegal(ctx);
    }
    ctx->tma.lb0_whole = ctx->env->profile->tma_lb0_whole_tile;
    return true;
}

void gen_tma_desc(DisasContext *ctx)
{
    /* Every form trans_is_header_descriptor() admits is one tma_desc_add()
     * knows (B.ATTR / B.HINT are recorded as ignored). */
    (void)tma_desc_add(&ctx->tma, ctx->insn);
}

/* The virt machine's peer rule: no B.ARG/B.DATR, B.IOR, B.IOT(I) or
 * B.DIM (a B.TEXT, B.ATTR, B.HINT or B.IOD may be there). */
static bool header_binds_nothing(const TmaDesc *d)
{
    return d->layout_src == TMA_LSRC_NONE && d->nior == 0 && d->niot == 0 &&
           d->dim_mask == 0 && !d->dim_bad;
}

static const char *const op_names[] = { "TLOAD", "TSTORE", "TMOV" };

static void log_plan(DisasContext *ctx, const LinxTmaBlock *b)
{
    const TmaPlan *p = &b->plan;
    LinxLog *log = ctx->env->engine.exec ? linx_exec_log(ctx->env->engine.exec) : NULL;
    FILE *f;

    if (!linx_log_enabled(log, LINX_LOG_TILE) || ctx->replay) {
        return;
    }
    f = linx_log_file(log);
    fprintf(f, "tile: translate %s at pc 0x%" PRIx64 ": ",
            p->op < sizeof(op_names) / sizeof(op_names[0]) ? op_names[p->op] : "TMA?",
            ctx->bs.bpc);
    if (p->fault.rule != TMA_OK) {
        LinxTileTrap t;

        linx_tile_fault_trap(&p->fault, &t);
        fprintf(f, "constant-illegal (%s): raises trap %u cause 0x%x traparg0 0x%" PRIx64 "\n",
                tma_rule_name((TmaRule)p->fault.rule), t.trapnum, t.cause, t.traparg0);
        return;
    }
    fprintf(f, "%s %s, %u source tile(s), kernel %s, shape %s", tma_layout_name(p->op,
            (TmaLayout)p->layout), linx_dtype_name(p->dtype), p->nsrc,
            p->kernel_name ? p->kernel_name : "(none)",
            p->shape_const ? "constant" : "run time");
    if (p->shape_const) {
        fprintf(f, " %ux%u of %ux%u", p->shape.valid_rows, p->shape.valid_cols,
                p->shape.rows, p->shape.cols);
    }
    fprintf(f, "%s%s\n", p->fast ? ", fast path" : "",
            (b->flags & LINX_TMA_SIZE_FROM_TILE) ? ", size from the source tiles" : "");
}

/* Raise @f at the block's pc (E_BLOCK / E_INST / ...), recording the rule. */
void gen_tile_fault_raise(DisasContext *ctx, const TmaFault *f)
{
    LinxTileTrap t;

    linx_tile_fault_trap(f, &t);
    gen_tile_trap_raise(ctx, f->rule, &t);
}

void gen_tile_trap_raise(DisasContext *ctx, unsigned rule, const LinxTileTrap *t)
{
    IRContext *ir = ctx->ir;

    gen_helper_tma_raise(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, rule),
                         gen_const(ctx, t->trapnum | (int64_t)t->cause << TMA_TRAP_CAUSE_SHIFT),
                         gen_const(ctx, (int64_t)t->traparg0),
                         gen_const(ctx, (int64_t)ctx->bs.bpc));
    ir_gen_exit_tb(ir, 0);
    ctx->jump = DISAS_NORETURN;
}

/* A register operand of the plan as a temp (0 when the plan has none). */
static IRTemp gen_operand(DisasContext *ctx, unsigned reg)
{
    return reg ? gen_read_src(ctx, reg) : gen_const(ctx, 0);
}

bool linx_tma_block_plan(LinxTmaBlock *b, const TmaDesc *desc, const TmaOptions *opts,
                         uint64_t pc, uint32_t flags)
{
    TmaDesc d = *desc;
    TmaOptions env_opts;

    memset(b, 0, sizeof(*b));
    if (!opts) {
        tma_options_from_env(&env_opts);
        opts = &env_opts;
    }
    if (d.func == TMA_OP_TSTORE && d.niot > 0 && d.size_is_reg && d.size == LINX_REG_ZERO &&
        !d.size_mixed) {
        /* No size given: the sources' own size, read at run time.  The
         * fast path bets on 4 KB sources (tma_exec_prepared checks). */
        d.size_is_reg = false;
        d.size = TMA_IOTI_CODE_4KB;
        tma_plan(&d, opts, &b->fast_plan);
        d.size_is_reg = true;
        d.size = LINX_REG_SP; /* any register: makes tma_plan treat the size as dynamic */
        flags |= LINX_TMA_SIZE_FROM_TILE;
    }
    tma_plan(&d, opts, &b->plan);
    if (flags & LINX_TMA_SIZE_FROM_TILE) {
        b->plan.size_reg = LINX_REG_ZERO;
    } else {
        b->fast_plan = b->plan;
    }
    b->pc = pc;
    b->flags = flags;
    /* Logging needs the general path. */
    b->prepared = !(flags & LINX_TMA_LOG) && b->plan.fault.rule == TMA_OK &&
                  tma_xfer_prepare(&b->fast_plan, &b->xfer);
    return b->plan.fault.rule == TMA_OK;
}

bool gen_tma_commit(DisasContext *ctx)
{
    LinxExecContext *ec = ctx->env->engine.exec;
    LinxTmaBlock local, *b;
    const TmaPlan *p;
    uintptr_t mem;
    uint32_t flags = 0;
    const struct TcgTileMove *jit;
    IRTemp size;

    if (ctx->env->tma_empty_header_noop && header_binds_nothing(&ctx->tma)) {
        return true;
    }
    if (ec && linx_log_enabled(linx_exec_log(ec), LINX_LOG_TILE)) {
        flags |= LINX_TMA_LOG;
    }
    if (!linx_tma_block_plan(&local, &ctx->tma, NULL, ctx->bs.bpc, flags)) {
        log_plan(ctx, &local);
        gen_tile_fault_raise(ctx, &local.plan.fault);
        return false;
    }
    log_plan(ctx, &local);
    if (!ec) {
        /* No exec context to own the block: cannot happen under cpu_exec. */
        gen_illegal(ctx);
        return false;
    }
    mem = (uintptr_t)linx_exec_tb_alloc(ec, sizeof(*b) + TMA_BLOCK_ALIGN - ARENA_ALIGN_MIN);
    b = (LinxTmaBlock *)((mem + TMA_BLOCK_ALIGN - 1) & ~(uintptr_t)(TMA_BLOCK_ALIGN - 1));
    *b = local;
    p = &b->plan;
    size = (p->dyn & TMA_DYN_SIZE) ? gen_operand(ctx, p->size_reg) : gen_const(ctx, 0);
    jit = linx_tma_jit_plan(ec, b);
    if (jit) {
        gen_helper_tma_jit(ctx, IR_NO_TEMP, ctx->ir->env, gen_const(ctx, (int64_t)(uintptr_t)b),
                           gen_operand(ctx, p->base_reg), gen_operand(ctx, p->stride_reg), size,
                           gen_const(ctx, (int64_t)(uintptr_t)jit));
        return true;
    }
    gen_helper_tma(ctx, IR_NO_TEMP, ctx->ir->env, gen_const(ctx, (int64_t)(uintptr_t)b),
                   gen_operand(ctx, p->base_reg), gen_operand(ctx, p->stride_reg), size);
    return true;
}
