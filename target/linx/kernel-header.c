/*
 * Commit of kernel, TEPL and CUBE header blocks (kernel.h).
 *
 * At the commit the translator decodes the header's descriptors once more
 * (from the block start to the commit point: a header holds only B.*
 * descriptors, so every operand is a constant or a GPR that cannot change
 * inside it) and decides at translation time everything that does not
 * depend on register values: mandatory descriptors, tile bindings, the
 * TEPL/CUBE operation.  The generated code is then
 *
 *   MPAR/MSEQ/VPAR/VSEQ: store the scalar imports (ri0..) and the header
 *       facts into env->kern, helper_kernel_bind (tiles), and jump to the
 *       body TB (env->resume = TB_F_BODY; goto_tb slot 0 chains to it);
 *   TEPL: helper_tepl(env, packed op, scalar, size, pc), fall through;
 *   CUBE: helper_cube(env, packed op, quant values, size, pc), fall through.
 *
 * Exceptions decided here are raised at the header's BSTART (its BPC):
 * E_BLOCK(EC_BLOCKFMT) with TRAPARG0 = family | detail << 8 for missing or
 * illegal descriptors, in the digest's order B.ARG > B.TEXT > B.IOT >
 * B.IOR > B.DIM; E_BLOCK(EC_BFETCH) for a misaligned B.TEXT (TRAPARG0 =
 * the body address); E_INST(EC_ILLEGAL) for a reserved VSize or TEPL
 * opcode.  docs/kernels.md lists them.
 */
#include <stdlib.h>
#include <string.h>

#include "header-form.h"
#include "hw/core/guest-memory.h"
#include "hw/linx/tepl.h"
#include "hw/linx/tile-cube-fast.h"
#include "kernel-internal.h"
#include "tile-trap.h"
#include "trace-info.h"

enum {
    IOT_DST_NONE = 7,    /* DstTile 7 with size 0: no destination */
    IOT_DST_ACC = 4,
    IOTI_SIZE_MIN = 5,   /* 512 B */
    IOTI_SIZE_MAX = 8,   /* 4 KB */
    IOTI_SIZE_BIAS = 4,  /* bytes = 2^(code + 4) */
    KERNEL_MAX_SRC_TILES = 4, /* TA..TD */
    BARG_FORMAT_FORM = LINX_F_B_ARG_FORMAT,
};

/* The header's descriptors, as decoded at the commit. */
typedef struct KHeader {
    unsigned type, func, dtype;
    bool has_text, has_arg, has_attr;
    uint64_t text;
    unsigned arg_form, arg_format;  /* B.ARG form and (format form) its code */
    unsigned nior;                  /* positional: zeros before a register count */
    uint8_t ior[LINX_KERNEL_MAX_RI + 3];
    unsigned nior_nz;               /* the non-zero registers only (TEPL, CUBE) */
    uint8_t ior_nz[LINX_KERNEL_MAX_RI + 3];
    bool ior_overflow;
    unsigned niot;
    uint32_t iot[LINX_HDR_MAX_IOT];
    bool iot_overflow;
} KHeader;

bool linx_kernel_header_type(unsigned type)
{
    switch (type) {
    case LINX_BLK_MPAR:
    case LINX_BLK_MSEQ:
    case LINX_BLK_VPAR:
    case LINX_BLK_VSEQ:
    case LINX_BLK_TEPL:
    case LINX_BLK_CUBE:
        return true;
    default:
        return false;
    }
}

static bool fetch_at(CPULinxState *env, uint64_t pc, LinxInsn *insn)
{
    uint8_t buf[8];
    unsigned len;

    if (guest_mem_read(env->engine.mem, pc, buf, 2, GM_PROT_EXEC, NULL) != GM_OK) {
        return false;
    }
    len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
    if (len > 2 &&
        guest_mem_read(env->engine.mem, pc + 2, buf + 2, len - 2, GM_PROT_EXEC, NULL) != GM_OK) {
        return false;
    }
    return linx_decode(buf, len, insn) == LINX_DECODE_OK;
}

static void header_start(KHeader *h, const LinxInsn *insn)
{
    LinxBlockType type;
    unsigned func;

    if (linx_header_form(insn, &type, &func)) {
        h->type = type;
        h->func = func;
    }
    h->dtype = (unsigned)linx_insn_field(insn, LINX_FLD_DataType, NULL);
}

static void header_bior(KHeader *h, const LinxInsn *insn)
{
    static const LinxFieldId src[3] = { LINX_FLD_RegSrc0, LINX_FLD_RegSrc1, LINX_FLD_RegSrc2 };
    unsigned codes[3], last = 0;

    for (unsigned i = 0; i < 3; i++) {
        codes[i] = (unsigned)linx_insn_field(insn, src[i], NULL) & 31;
        if (codes[i]) {
            last = i + 1;
        }
    }
    for (unsigned i = 0; i < last; i++) {
        if (h->nior == LINX_KERNEL_MAX_RI) {
            h->ior_overflow = true;
            break;
        }
        h->ior[h->nior++] = (uint8_t)codes[i];
        if (codes[i]) {
            h->ior_nz[h->nior_nz++] = (uint8_t)codes[i];
        }
    }
}

/* Decode the header [bpc, @end) (stopping at BSTOP). */
static void scan_header(DisasContext *ctx, uint64_t end, KHeader *h)
{
    uint64_t pc = ctx->bs.bpc;
    LinxInsn insn;

    memset(h, 0, sizeof(*h));
    for (unsigned n = 0; pc < end && n < LINX_REPLAY_MAX_INSNS; n++) {
        if (!fetch_at(ctx->env, pc, &insn) ||
            (n > 0 && (insn.form == LINX_F_BSTOP || insn.form == LINX_F_C_BSTOP))) {
            break;
        }
        switch (insn.form) {
        case LINX_F_B_TEXT:
            h->has_text = true;
            h->text = pc + (uint64_t)linx_insn_field(&insn, LINX_FLD_simm25, NULL) * 2;
            break;
        case LINX_F_B_ARG_DN2NZ_NORMAL: case LINX_F_B_ARG_DN2ZN_NORMAL: case LINX_F_B_ARG_FORMAT:
        case LINX_F_B_ARG_ND2ZN_NORMAL: case LINX_F_B_ARG_NORM_NORMAL: case LINX_F_B_ARG_NZ2DN_CANON:
        case LINX_F_B_DATR:
            h->has_arg = true;
            h->arg_form = insn.form;
            h->arg_format = (unsigned)linx_insn_field(&insn, LINX_FLD_format, NULL);
            break;
        case LINX_F_B_ATTR:
            h->has_attr = true;
            break;
        case LINX_F_B_IOR:
            header_bior(h, &insn);
            break;
        case LINX_F_B_IOT_G0: case LINX_F_B_IOT_G1: case LINX_F_B_IOTI_G0: case LINX_F_B_IOTI_G1:
            if (h->niot == LINX_HDR_MAX_IOT) {
                h->iot_overflow = true;
            } else {
                h->iot[h->niot++] = (uint32_t)insn.raw;
            }
            break;
        default:
            if (n == 0) {
                header_start(h, &insn);
            }
            break;
        }
        pc += insn.len;
    }
}

/* ---------------------------------------------------------------------
 * B.IOT(I) words
 * --------------------------------------------------------------------- */

static unsigned bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static bool iot_is_imm(uint32_t w)
{
    return bits(w, 14, 12) >= 6; /* B.IOTI (6, 7) vs B.IOT (4, 5) */
}

static bool iot_last(uint32_t w)
{
    return bits(w, 14, 12) & 1;
}

static unsigned iot_size_field(uint32_t w)
{
    return bits(w, 11, 7);
}

static bool iot_has_dst(uint32_t w)
{
    return !(bits(w, 27, 25) == IOT_DST_NONE && iot_size_field(w) == 0);
}

/* Sources in operand order; false when there are more than @max. */
static bool iot_sources(const KHeader *h, uint8_t *src, unsigned max, unsigned *n)
{
    *n = 0;
    for (unsigned i = 0; i < h->niot; i++) {
        for (unsigned s = 0; s < 2; s++) {
            if (!bits(h->iot[i], 28 + s, 28 + s)) {
                if (*n == max) {
                    return false;
                }
                src[(*n)++] = (uint8_t)bits(h->iot[i], 19 + 5 * s, 15 + 5 * s);
            }
        }
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Emission helpers
 * --------------------------------------------------------------------- */

static uint64_t blockfmt(unsigned family, unsigned detail)
{
    return family | detail << 8;
}

/* Raise at @pc and end the TB (the commit already counted the block). */
static void kraise(DisasContext *ctx, unsigned trapnum, unsigned cause, uint64_t arg, uint64_t pc)
{
    IRContext *ir = ctx->ir;

    gen_helper_raise(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, trapnum), gen_const(ctx, cause),
                     gen_const(ctx, (int64_t)arg), gen_const(ctx, (int64_t)pc));
    ir_gen_exit_tb(ir, 0);
    ctx->jump = DISAS_NORETURN;
}

static void raise_blockfmt(DisasContext *ctx, unsigned family, unsigned detail)
{
    kraise(ctx, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BLOCKFMT, 0), blockfmt(family, detail),
           ctx->bs.bpc);
}

/* The successor of a TEPL/CUBE header (translate.c's gen_goto_fall). */
static void goto_fall(DisasContext *ctx, uint64_t fall, bool bad_fall)
{
    IRContext *ir = ctx->ir;

    if (bad_fall) {
        kraise(ctx, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_CFI, LINX_CFI_MISSING_NEXT_MARKER),
               ctx->pc, ctx->pc);
        return;
    }
    ir_gen_goto_tb(ir, 0);
    ir_gen_movi(ir, cpu_field(ctx, pc), (int64_t)fall);
    ir_gen_exit_tb(ir, (uint64_t)(uintptr_t)ctx->tb | 0);
}

/* The destination size operand of B.IOT(I) word @w: a constant or the
 * size register's value. */
static IRTemp iot_size_value(DisasContext *ctx, uint32_t w)
{
    if (iot_is_imm(w)) {
        return gen_const(ctx, (int64_t)1 << (iot_size_field(w) + IOTI_SIZE_BIAS));
    }
    return gen_read_src(ctx, iot_size_field(w));
}

/* Checks shared by every header: B.IOT order and destination.  Returns
 * the index of the destination descriptor (-1: none), or -2 after raising. */
static int check_iots(DisasContext *ctx, const KHeader *h, bool dst_required)
{
    int dst = -1;

    if (h->iot_overflow) {
        raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_BAD_VALUE);
        return -2;
    }
    for (unsigned i = 0; i < h->niot; i++) {
        uint32_t w = h->iot[i];
        if (i + 1 < h->niot && iot_last(w)) {
            raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO); /* after "last" */
            return -2;
        }
        if (!iot_has_dst(w)) {
            continue;
        }
        if (dst >= 0) {
            raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO); /* one output */
            return -2;
        }
        if (bits(w, 27, 25) >= IOT_DST_ACC ||
            (iot_is_imm(w) && (iot_size_field(w) < IOTI_SIZE_MIN ||
                               iot_size_field(w) > IOTI_SIZE_MAX))) {
            raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_BAD_VALUE);
            return -2;
        }
        dst = (int)i;
    }
    if (dst < 0 && dst_required) {
        raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO);
        return -2;
    }
    return dst;
}

/* ---------------------------------------------------------------------
 * MPAR / MSEQ / VPAR / VSEQ
 * --------------------------------------------------------------------- */

static void gen_kernel_launch(DisasContext *ctx, const KHeader *h, uint64_t fall, bool bad_fall)
{
    IRContext *ir = ctx->ir;
    const LinxBlockState *bs = &ctx->bs;
    uint8_t src[KERNEL_MAX_SRC_TILES];
    unsigned nsrc = 0;
    uint64_t packed_src;
    IRTemp dst_size = gen_const(ctx, 0);
    unsigned dst_hand = LINX_KTILE_NONE;
    int d;

    if (ctx->env->profile->empty_kernel_header_noop && !h->has_text && !h->has_arg &&
        !h->has_attr && h->nior == 0 && h->niot == 0 && !bs->lb_written) {
        /* "C.BSTART.VPAR; C.BSTOP": a no-op, as the LinxISA cycle model and
         * the peer's own tests use it (docs/decisions.md "Profiles"). */
        goto_fall(ctx, fall, bad_fall);
        return;
    }
    if (h->func > LINX_HDR_MODE_VS16) {
        /* VS32 / VS64 are reserved in v0.4. */
        kraise(ctx, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), bs->bpc, bs->bpc);
        return;
    }
    if (!h->has_text) {
        raise_blockfmt(ctx, LINX_DESC_TEXT, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (h->niot && !iot_sources(h, src, KERNEL_MAX_SRC_TILES, &nsrc)) {
        raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO);
        return;
    }
    d = check_iots(ctx, h, false);
    if (d == -2) {
        return;
    }
    if (h->ior_overflow) {
        raise_blockfmt(ctx, LINX_DESC_IOR, LINX_BLOCKFMT_BAD_VALUE);
        return;
    }
    if (!bs->lb_written) {
        raise_blockfmt(ctx, LINX_DESC_DIM, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (h->text & 1) {
        kraise(ctx, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BFETCH, 0), h->text, bs->bpc);
        return;
    }
    if (bad_fall) {
        goto_fall(ctx, fall, true);
        return;
    }
    /* Loop bounds: LB0 defaults to 1 (seed 004); LB1/LB2 not written read
     * 0, which the lane loops count as 1. */
    for (unsigned i = 0; i < 3; i++) {
        if (!(bs->lb_written & (1u << i))) {
            ir_gen_movi(ir, cpu_field(ctx, lb[i]), i == 0 ? 1 : 0);
        }
    }
    for (unsigned i = 0; i < h->nior; i++) {
        ir_gen_st(ir, IR_st64, gen_read_src(ctx, h->ior[i]), ir->env, KERN_OFF(ri[0]) + 8 * (int32_t)i);
    }
    ir_gen_st(ir, IR_st64, gen_const(ctx, h->nior), ir->env, KERN_OFF(nri));
    ir_gen_st(ir, IR_st64, gen_const(ctx, h->func == LINX_HDR_MODE_VS8), ir->env, KERN_OFF(vs8));
    ir_gen_st(ir, IR_st64, gen_const(ctx, (int64_t)fall), ir->env, KERN_OFF(cont));
    ir_gen_st(ir, IR_st64, gen_const(ctx, (int64_t)bs->bpc), ir->env, KERN_OFF(hdr_pc));
    if (ctx->tb->flags & TB_F_TRACE) {
        /* The block_kind of the body's trace rows (docs/engine.md). */
        unsigned tk = h->type == LINX_BLK_MSEQ || h->type == LINX_BLK_VSEQ ? LINX_TK_VSEQ
                                                                          : LINX_TK_VPAR;
        ir_gen_st(ir, IR_st64, gen_const(ctx, tk), ir->env, KERN_OFF(trace_kind));
    }
    packed_src = nsrc;
    for (unsigned i = 0; i < nsrc; i++) {
        packed_src |= (uint64_t)src[i] << (LINX_KBIND_SRC_SHIFT + LINX_KBIND_SRC_BITS * i);
    }
    if (d >= 0) {
        dst_hand = bits(h->iot[d], 27, 25);
        dst_size = iot_size_value(ctx, h->iot[d]);
    }
    gen_helper_kernel_bind(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, (int64_t)packed_src),
                           gen_const(ctx, dst_hand), dst_size);
    /* Into the body: its own TB (key: body pc, TB_F_BODY). */
    ir_gen_movi(ir, cpu_field(ctx, resume), TB_F_BODY);
    ir_gen_goto_tb(ir, 0);
    ir_gen_movi(ir, cpu_field(ctx, pc), (int64_t)h->text);
    ir_gen_exit_tb(ir, (uint64_t)(uintptr_t)ctx->tb | 0);
}

/* ---------------------------------------------------------------------
 * TEPL
 * --------------------------------------------------------------------- */

static void gen_tepl_commit(DisasContext *ctx, const KHeader *h, uint64_t fall, bool bad_fall)
{
    IRContext *ir = ctx->ir;
    const LinxBlockState *bs = &ctx->bs;
    const LinxTeplOpInfo *oi = linx_tepl_op_info(h->func);
    uint8_t src[2] = { 0, 0 };
    unsigned nsrc = 0;
    uint64_t desc;
    IRTemp scalar = gen_const(ctx, 0);
    int d;

    if (!oi) {
        /* TRAPARG0 = the BPC; the report names tepl-bad-op. */
        const LinxTileTrap t = { .trapnum = LINX_TRAP_ILLEGAL_INST,
                                 .cause = LINX_CAUSE(LINX_EC_ILLEGAL, 0),
                                 .traparg0 = bs->bpc };

        gen_tile_trap_raise(ctx, LINX_TEPL_BAD_OP, &t);
        return;
    }
    if (oi->needs_arg && !h->has_arg) {
        raise_blockfmt(ctx, LINX_DESC_ARG, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (h->has_text) {
        raise_blockfmt(ctx, LINX_DESC_TEXT, LINX_BLOCKFMT_COMBO);
        return;
    }
    if (h->niot == 0) {
        raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (!iot_sources(h, src, 2, &nsrc) || nsrc != oi->nsrc) {
        raise_blockfmt(ctx, LINX_DESC_IOT, LINX_BLOCKFMT_COMBO);
        return;
    }
    d = check_iots(ctx, h, true);
    if (d < 0) {
        return;
    }
    if (oi->needs_ior && h->nior_nz == 0) {
        raise_blockfmt(ctx, LINX_DESC_IOR, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (!(bs->lb_written & 1)) {
        raise_blockfmt(ctx, LINX_DESC_DIM, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (bad_fall) {
        goto_fall(ctx, fall, true);
        return;
    }
    for (unsigned i = 1; i < 3; i++) {
        if (!(bs->lb_written & (1u << i))) {
            ir_gen_movi(ir, cpu_field(ctx, lb[i]), 0);
        }
    }
    if (h->nior_nz) {
        scalar = gen_read_src(ctx, h->ior_nz[0]);
    }
    desc = linx_tepl_pack(h->func, h->dtype, nsrc, src, bits(h->iot[d], 27, 25),
                          h->has_arg ? h->arg_format : 0, linx_tepl_reference_from_env());
    gen_helper_tepl(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, (int64_t)desc), scalar,
                    iot_size_value(ctx, h->iot[d]), gen_const(ctx, (int64_t)bs->bpc));
    goto_fall(ctx, fall, false);
}

/* ---------------------------------------------------------------------
 * CUBE
 * --------------------------------------------------------------------- */

static void gen_cube_commit(DisasContext *ctx, const KHeader *h, uint64_t fall, bool bad_fall)
{
    IRContext *ir = ctx->ir;
    const LinxBlockState *bs = &ctx->bs;
    bool cvt = h->func == LINX_KCUBE_ACCCVT;
    /* linx-toolchain: the compiler's CUBE headers have no B.ARG, its
     * ACCCVT no B.DIM or B.IOR (docs/decisions.md D8). */
    bool compiled = ctx->env->profile->cube_compiled_forms;
    uint8_t src[3] = { 0, 0, 0 };
    unsigned nsrc = 0, dst_kind = 0, quant = 0;
    IRTemp q0 = gen_const(ctx, 0), q1 = gen_const(ctx, 0), dst_size = gen_const(ctx, 0);
    uint64_t desc;

    /* Mandatory descriptors in the digest's order (as the tile engine). */
    if (!h->has_arg && !compiled) {
        raise_blockfmt(ctx, LINX_DESC_ARG, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (h->has_text) {
        raise_blockfmt(ctx, LINX_DESC_TEXT, LINX_BLOCKFMT_COMBO);
        return;
    }
    if (h->niot == 0 || h->iot_overflow) {
        raise_blockfmt(ctx, LINX_DESC_IOT, h->niot ? LINX_BLOCKFMT_BAD_VALUE : LINX_BLOCKFMT_MISSING);
        return;
    }
    if (cvt && h->nior_nz == 0 && !compiled) {
        raise_blockfmt(ctx, LINX_DESC_IOR, LINX_BLOCKFMT_MISSING);
        return;
    }
    if ((bs->lb_written & 7) != 7 && !(cvt && compiled)) {
        raise_blockfmt(ctx, LINX_DESC_DIM, LINX_BLOCKFMT_MISSING);
        return;
    }
    if (bad_fall) {
        goto_fall(ctx, fall, true);
        return;
    }
    if (!iot_sources(h, src, 3, &nsrc)) {
        nsrc = 4; /* more than three: the cube rejects it */
    }
    /* The first descriptor names the ACCCVT destination. */
    dst_kind = bits(h->iot[0], 27, 25);
    dst_size = cvt ? iot_size_value(ctx, h->iot[0]) : gen_const(ctx, 0);
    if (cvt) {
        quant = h->has_arg && h->arg_form == BARG_FORMAT_FORM ? h->arg_format : 0;
        q0 = h->nior_nz ? gen_read_src(ctx, h->ior_nz[0]) : gen_const(ctx, 0);
        if (h->nior_nz >= 2) {
            q1 = gen_read_src(ctx, h->ior_nz[1]);
        }
    }
    desc = linx_kcube_pack(h->func, h->dtype, nsrc, src, dst_kind, quant, h->nior_nz >= 2,
                           linx_cube_reference_from_env());
    gen_helper_cube(ctx, IR_NO_TEMP, ir->env, gen_const(ctx, (int64_t)desc), q0, q1, dst_size,
                    gen_const(ctx, (int64_t)bs->bpc));
    goto_fall(ctx, fall, false);
}

/* ---------------------------------------------------------------------
 * Entry
 * --------------------------------------------------------------------- */

void gen_kernel_header_commit(DisasContext *ctx, uint64_t fall, bool bad_fall)
{
    KHeader h;

    /* gen_commit counted the block already: raises here must not again. */
    ctx->count_base = ctx->insn_index;
    scan_header(ctx, fall, &h);
    switch (ctx->bs.type) {
    case LINX_BLK_TEPL:
        gen_tepl_commit(ctx, &h, fall, bad_fall);
        break;
    case LINX_BLK_CUBE:
        gen_cube_commit(ctx, &h, fall, bad_fall);
        break;
    default:
        gen_kernel_launch(ctx, &h, fall, bad_fall);
        break;
    }
}
