/*
 * Commit trace, translation side: the block fields of each record
 * (trace-info.h has the rule) are known when the instruction is
 * translated, from the translation-time block state, so a TB_F_TRACE
 * translation passes them to helper_trace_insn as a constant and the
 * interpreter and the JIT write the same rows.  The few facts the rule
 * needs beyond LinxBlockState (the tile header's Function and DataType,
 * the B.IOT/B.IOTI seen) are kept in LinxBlockState.tr_*, so a resume
 * TB's replay rebuilds them like the rest of the block state.
 */
#include "header-form.h"
#include "trace-info.h"
#include "translate-gen.h"

/* The peer's FP/SYS opcode class: its block_kind is "sys" in any block. */
static bool trace_form_is_sys(unsigned form)
{
    switch (form) {
    case LINX_F_ACRC:
    case LINX_F_ACRE:
    case LINX_F_EBREAK:
    case LINX_F_SSRGET:
    case LINX_F_SSRSET:
    case LINX_F_SSRSWAP:
    case LINX_F_HL_SSRGET:
    case LINX_F_HL_SSRSET:
    case LINX_F_FABS:
    case LINX_F_FADD:
    case LINX_F_FSUB:
    case LINX_F_FMUL:
    case LINX_F_FDIV:
    case LINX_F_FEQ:
    case LINX_F_FLT:
    case LINX_F_FGE:
    case LINX_F_FCVT:
    case LINX_F_FCVTZ:
        return true;
    default:
        return false;
    }
}

/* Function (or TileOpcode) of a TMA, CUBE or TEPL header form, -1 for
 * other forms. */
static int trace_header_func(const DisasContext *ctx)
{
    LinxBlockType type;
    unsigned func;

    if (!linx_header_form(ctx->insn, &type, &func) ||
        (type != LINX_BLK_TMA && type != LINX_BLK_CUBE && type != LINX_BLK_TEPL)) {
        return -1;
    }
    return (int)func;
}

uint64_t linx_trace_translate_info(DisasContext *ctx)
{
    LinxBlockState *bs = &ctx->bs;
    unsigned form = ctx->insn->form;
    LinxTraceInfo t = { 0 };
    int func;

    /* Block bookkeeping first: a header and a B.IOT count in their own row. */
    if (ctx->pc == bs->bpc && (func = trace_header_func(ctx)) >= 0) {
        bs->tr_func = (uint16_t)(func & 0x3ff);
        bs->tr_dtype = (uint8_t)(linx_fld(ctx, LINX_FLD_DataType) & 0x1f);
    }
    if (form == LINX_F_B_IOT_G0 || form == LINX_F_B_IOT_G1 || form == LINX_F_B_IOTI_G0 ||
        form == LINX_F_B_IOTI_G1) {
        bs->tr_niot += bs->tr_niot < UINT8_MAX;
        bs->tr_src0 = (uint8_t)(linx_fld(ctx, LINX_FLD_SrcTile0) & 0x1f);
        bs->tr_src1 = (uint8_t)(linx_fld(ctx, LINX_FLD_SrcTile1) & 0x1f);
    }

    if (trace_form_is_sys(form)) {
        t.kind = LINX_TK_SYS;
    } else if (bs->type == LINX_BLK_TMA) {
        t.kind = LINX_TK_TMA;
    } else if (bs->type == LINX_BLK_CUBE) {
        t.kind = LINX_TK_CUBE;
    } else if (bs->type == LINX_BLK_TEPL) {
        t.kind = LINX_TK_TEPL;
    } else if (bs->type == LINX_BLK_VPAR) {
        t.kind = LINX_TK_VPAR;
    } else if (bs->type == LINX_BLK_VSEQ) {
        t.kind = LINX_TK_VSEQ;
    } else if (form == LINX_F_C_BSTART_SYS) {
        t.kind = LINX_TK_SYS;
    } else if (bs->kind == LINX_BR_CALL || bs->kind == LINX_BR_ICALL) {
        t.kind = LINX_TK_CALL;
    } else if (bs->kind == LINX_BR_RET) {
        t.kind = LINX_TK_RET;
    } else {
        t.kind = LINX_TK_SCALAR;
    }
    if (linx_trace_kind_is_tile(t.kind)) {
        t.func = bs->tr_func;
        t.dtype = bs->tr_dtype;
        t.niot = bs->tr_niot;
        t.src0 = bs->tr_src0;
        t.src1 = bs->tr_src1;
    }
    return linx_trace_info_pack(ctx->insn->len, &t);
}
