/*
 * Public arithmetic entry points: FADD FSUB FMUL FDIV FSQRT FRECIP, the FMA
 * family, FABS and negation.
 *
 * Each call picks its implementation (docs/fpu.md, "Host path"):
 *  1. RNE, FP32/FP64, no NaN operand: the RNE shortcut of fpu-host.c;
 *  2. RNE/RDN/RUP/RTZ, FP32/FP64, no NaN operand: host instruction with
 *     MXCSR flag capture;
 *  3. everything else (RMM, reserved modes, FP16/BF16/FP8, NaN operands,
 *     non-x86 hosts): the software path of fpu-soft.c.
 * LinxFpEnv.impl can force the software or the MXCSR path (tests, bench).
 *
 * Subtraction and the negated FMA forms flip operand sign bits before the
 * one rounding, which is exact and keeps directed rounding right
 * (-(a*b) - c is rounded as one value, not negated after rounding).  NaN
 * operands are unaffected: their result is the default NaN either way.
 */
#include "fpu-internal.h"

static bool valid_format(LinxFpFormat fmt)
{
    return (unsigned)fmt < LINX_FP_NUM_FORMATS;
}

/* Infinity shifted left by one (sign dropped): anything above is NaN. */
#define F64_INF_SHL1 UINT64_C(0xffe0000000000000)
#define F32_INF_SHL1 UINT32_C(0xff000000)

/* NaN test on raw bits, cheap enough for the fast path. */
static bool nan_bits(uint64_t x, LinxFpFormat fmt)
{
    switch (fmt) {
    case LINX_FP64:
        return (x << 1) > F64_INF_SHL1;
    case LINX_FP32:
        return (uint32_t)(x << 1) > F32_INF_SHL1;
    default:
        return linx_fp_is_nan(x, fmt);
    }
}

static uint64_t arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                      uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t r;

    if (!valid_format(fmt)) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    a &= linx_fp_mask(fmt);
    b &= linx_fp_mask(fmt);
    c &= linx_fp_mask(fmt);
    if (fe->impl != LINX_FP_IMPL_SOFT &&
        (fmt == LINX_FP64 || fmt == LINX_FP32) &&
        fe->rm <= LINX_RM_RTZ && !nan_bits(a, fmt) &&
        (op == LINX_FPOP_SQRT || !nan_bits(b, fmt)) &&
        (op != LINX_FPOP_FMA || !nan_bits(c, fmt))) {
        if (fe->impl == LINX_FP_IMPL_AUTO && fe->rm == LINX_RM_RNE &&
            linx_host_fast_rne(fe, op, fmt, a, b, c, &r)) {
            return r;
        }
        if (linx_host_arith(fe, op, fmt, a, b, c, &r)) {
            return r;
        }
    }
    return linx_soft_arith(fe, op, fmt, a, b, c);
}

static uint64_t flip_sign(uint64_t x, LinxFpFormat fmt)
{
    return valid_format(fmt) ? x ^ linx_fp_sign_bit(fmt) : x;
}

uint64_t linx_fadd(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_ADD, fmt, a, b, 0);
}

uint64_t linx_fsub(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_ADD, fmt, a, flip_sign(b, fmt), 0);
}

uint64_t linx_fmul(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_MUL, fmt, a, b, 0);
}

uint64_t linx_fdiv(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_DIV, fmt, a, b, 0);
}

uint64_t linx_fsqrt(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_SQRT, fmt, a, 0, 0);
}

uint64_t linx_frecip(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt)
{
    if (!valid_format(fmt)) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    uint64_t one = (uint64_t)fi->bias << fi->frac_bits;
    return arith(fe, LINX_FPOP_DIV, fmt, one, a, 0);
}

uint64_t linx_fmadd(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                    LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_FMA, fmt, a, b, c);
}

uint64_t linx_fmsub(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                    LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_FMA, fmt, a, b, flip_sign(c, fmt));
}

uint64_t linx_fnmadd(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                     LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_FMA, fmt, flip_sign(a, fmt), b,
                 flip_sign(c, fmt));
}

uint64_t linx_fnmsub(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                     LinxFpFormat fmt)
{
    return arith(fe, LINX_FPOP_FMA, fmt, flip_sign(a, fmt), b, c);
}

uint64_t linx_fabs(uint64_t a, LinxFpFormat fmt)
{
    if (!valid_format(fmt)) {
        return 0;
    }
    return a & linx_fp_mask(fmt) & ~linx_fp_sign_bit(fmt);
}

uint64_t linx_fneg(uint64_t a, LinxFpFormat fmt)
{
    if (!valid_format(fmt)) {
        return 0;
    }
    return (a & linx_fp_mask(fmt)) ^ linx_fp_sign_bit(fmt);
}
