/*
 * Scalar floating-point helpers: thin wrappers that map FCSR in and out
 * of the fpu library (fpu/fpu.h, the "fpu" developer's IEEE
 * implementation: correctly rounded in all five modes, default NaNs,
 * tininess after rounding; host SSE where that is exact).
 *
 * Formats: SrcType 0 = FP64, 1 = FP32 (linx_fp_format_from_srctype); the
 * translator rejects the reserved codes.  FCVT's DstType and SCVTF/
 * UCVTF's DstType use the convert floating-point table (FP64 0, FP32 1,
 * FP16 4, BF16 5, ...); FCVT[AMNPZ]'s DstType the integer table (u64 0 ..
 * u8 3, s64 8 .. s8 11); SCVTF/UCVTF's SrcType is the integer width
 * (0 = 64, 1 = 32, 2 = 16, 3 = 8 bits) with the signedness of the op.
 * An illegal type combination gives the default NaN / 0 with NV (the
 * translator already refuses the encodings it can classify).
 */
#include <stdint.h>

#include "fpu/fpu.h"

#include "helper-ops.h"
#include "helper-proto.h"

static LinxFpFormat scalar_fmt(unsigned t)
{
    LinxFpFormat f = LINX_FP64;

    linx_fp_format_from_srctype(t, &f);
    return f;
}

uint64_t helper_fp_bin(CPULinxState *env, uint64_t a, uint64_t b, uint64_t desc)
{
    LinxFpFormat f = scalar_fmt((desc >> 8) & 3);
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & 0xff) {
    case LINX_FOP_ADD:
        r = linx_fadd(&fe, a, b, f);
        break;
    case LINX_FOP_SUB:
        r = linx_fsub(&fe, a, b, f);
        break;
    case LINX_FOP_MUL:
        r = linx_fmul(&fe, a, b, f);
        break;
    case LINX_FOP_DIV:
        r = linx_fdiv(&fe, a, b, f);
        break;
    case LINX_FOP_MIN:
        r = linx_fmin(&fe, a, b, f);
        break;
    default:
        r = linx_fmax(&fe, a, b, f);
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

uint64_t helper_fp_fma(CPULinxState *env, uint64_t a, uint64_t b, uint64_t c, uint64_t desc)
{
    LinxFpFormat f = scalar_fmt((desc >> 8) & 3);
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & 0xff) {
    case LINX_FOP_MADD:
        r = linx_fmadd(&fe, a, b, c, f);
        break;
    case LINX_FOP_MSUB:
        r = linx_fmsub(&fe, a, b, c, f);
        break;
    case LINX_FOP_NMADD:
        r = linx_fnmadd(&fe, a, b, c, f);
        break;
    default:
        r = linx_fnmsub(&fe, a, b, c, f);
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

uint64_t helper_fp_un(CPULinxState *env, uint64_t a, uint64_t desc)
{
    LinxFpFormat f = scalar_fmt((desc >> 8) & 3);
    LinxFpEnv fe;
    uint64_t r;

    if ((desc & 0xff) == LINX_FOP_ABS) {
        return linx_fabs(a, f);
    }
    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & 0xff) {
    case LINX_FOP_SQRT:
        r = linx_fsqrt(&fe, a, f);
        break;
    case LINX_FOP_RECIP:
        r = linx_frecip(&fe, a, f);
        break;
    default:
        r = linx_fexp(&fe, a, f);
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

uint64_t helper_fp_cmp(CPULinxState *env, uint64_t a, uint64_t b, uint64_t desc)
{
    LinxFpFormat f = scalar_fmt((desc >> 8) & 3);
    bool sig = desc & LINX_FOP_SIGNALING;
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (desc & 0x7f) {
    case LINX_FOP_EQ:
        r = sig ? linx_feqs(&fe, a, b, f) : linx_feq(&fe, a, b, f);
        break;
    case LINX_FOP_NE:
        r = sig ? linx_fnes(&fe, a, b, f) : linx_fne(&fe, a, b, f);
        break;
    case LINX_FOP_LT:
        r = sig ? linx_flts(&fe, a, b, f) : linx_flt(&fe, a, b, f);
        break;
    default:
        r = sig ? linx_fges(&fe, a, b, f) : linx_fge(&fe, a, b, f);
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}

/* Integer width code of SCVTF/UCVTF's SrcType -> LinxIntType. */
static LinxIntType int_src_type(unsigned code, bool is_signed)
{
    return (LinxIntType)((code & 3) | (is_signed ? LINX_S64 : LINX_U64));
}

/* @desc = kind | SrcType << 8 | DstType << 16 (kinds: helper-ops.h). */
uint64_t helper_fp_cvt(CPULinxState *env, uint64_t a, uint64_t desc)
{
    unsigned kind = desc & 0xff;
    unsigned st = (desc >> 8) & 0x1f;
    unsigned dt = (desc >> 16) & 0x1f;
    static const LinxFpRound f2i_rm[] = {
        [LINX_FCVT_F2I_A] = LINX_RM_RMM, [LINX_FCVT_F2I_M] = LINX_RM_RDN,
        [LINX_FCVT_F2I_N] = LINX_RM_RNE, [LINX_FCVT_F2I_P] = LINX_RM_RUP,
        [LINX_FCVT_F2I_Z] = LINX_RM_RTZ,
    };
    LinxFpFormat to = LINX_FP64;
    LinxFpEnv fe;
    uint64_t r;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    switch (kind) {
    case LINX_FCVT_F2F:
        if (!linx_fp_format_from_cvt_type(dt, &to)) {
            fe.flags |= LINX_FPF_NV;
            r = linx_fp_default_nan(LINX_FP64);
        } else {
            r = linx_fcvt_f2f(&fe, a, scalar_fmt(st), to);
        }
        break;
    case LINX_FCVT_S2F:
    case LINX_FCVT_U2F:
        if (!linx_fp_format_from_cvt_type(dt, &to)) {
            fe.flags |= LINX_FPF_NV;
            r = linx_fp_default_nan(LINX_FP64);
        } else {
            r = linx_fcvt_i2f(&fe, a, int_src_type(st, kind == LINX_FCVT_S2F), to);
        }
        break;
    default:
        if (!linx_int_type_valid(dt) || kind >= sizeof(f2i_rm) / sizeof(f2i_rm[0])) {
            fe.flags |= LINX_FPF_NV;
            r = 0;
        } else {
            r = linx_fcvt_f2i(&fe, a, scalar_fmt(st), (LinxIntType)dt, f2i_rm[kind]);
        }
        break;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    return r;
}
