/*
 * Floating-point formats: the format table, unpacking, and the one
 * rounding routine every software result goes through.
 *
 * Rounding (linx_fp_round_pack) follows IEEE 754-2019 with the choices of
 * docs/fpu.md: tininess is detected after rounding (the result rounded as
 * if the exponent range were unbounded lies strictly inside +-2^emin), UF
 * is raised only for a tiny inexact result, overflow gives infinity or the
 * largest finite number as the rounding direction says, and the FP8
 * formats may saturate instead (LinxFpEnv.fp8_saturate).  E4M3 has no
 * infinity: where IEEE would deliver one, it delivers NaN.
 */
#include "fpu-internal.h"

const LinxFpFormatInfo linx_fp_format_info[LINX_FP_NUM_FORMATS] = {
    [LINX_FP64] = { "fp64", 64, 11, 52, 1023, true,
                    UINT64_C(0x7ff8000000000000) },
    [LINX_FP32] = { "fp32", 32, 8, 23, 127, true, 0x7fc00000 },
    [LINX_FP16] = { "fp16", 16, 5, 10, 15, true, 0x7e00 },
    [LINX_BF16] = { "bf16", 16, 8, 7, 127, true, 0x7fc0 },
    [LINX_FP8_E4M3] = { "e4m3", 8, 4, 3, 7, false, 0x7f },
    [LINX_FP8_E5M2] = { "e5m2", 8, 5, 2, 15, true, 0x7e },
};

/* Scalar SrcType codes. */
enum {
    SRCTYPE_DOUBLE = 0,
    SRCTYPE_SINGLE = 1,
};

/* FCVT floating-point type codes (isa-manual 05c). */
enum {
    CVT_FP64 = 0,
    CVT_FP32 = 1,
    CVT_FP16 = 4,
    CVT_BF16 = 5,
    CVT_E4M3 = 7,
    CVT_E5M2 = 8,
};

/* ---- Format facts ----------------------------------------------------- */

static bool format_ok(LinxFpFormat fmt)
{
    return (unsigned)fmt < LINX_FP_NUM_FORMATS;
}

unsigned linx_fp_format_bits(LinxFpFormat fmt)
{
    return format_ok(fmt) ? linx_fp_format_info[fmt].bits : 0;
}

const char *linx_fp_format_name(LinxFpFormat fmt)
{
    return format_ok(fmt) ? linx_fp_format_info[fmt].name : "invalid";
}

uint64_t linx_fp_default_nan(LinxFpFormat fmt)
{
    return format_ok(fmt) ? linx_fp_format_info[fmt].default_nan : 0;
}

bool linx_fp_is_nan(uint64_t a, LinxFpFormat fmt)
{
    if (!format_ok(fmt)) {
        return false;
    }
    LinxFpParts p = linx_fp_unpack(a, fmt);
    return linx_fp_parts_nan(&p);
}

bool linx_fp_is_snan(uint64_t a, LinxFpFormat fmt)
{
    return format_ok(fmt) && linx_fp_unpack(a, fmt).cls == LINX_FPC_SNAN;
}

bool linx_fp_format_from_srctype(unsigned srctype, LinxFpFormat *out)
{
    switch (srctype) {
    case SRCTYPE_DOUBLE:
        *out = LINX_FP64;
        return true;
    case SRCTYPE_SINGLE:
        *out = LINX_FP32;
        return true;
    default:
        return false;
    }
}

bool linx_fp_format_from_cvt_type(unsigned code, LinxFpFormat *out)
{
    switch (code) {
    case CVT_FP64:
        *out = LINX_FP64;
        return true;
    case CVT_FP32:
        *out = LINX_FP32;
        return true;
    case CVT_FP16:
        *out = LINX_FP16;
        return true;
    case CVT_BF16:
        *out = LINX_BF16;
        return true;
    case CVT_E4M3:
        *out = LINX_FP8_E4M3;
        return true;
    case CVT_E5M2:
        *out = LINX_FP8_E5M2;
        return true;
    default:
        return false;
    }
}

bool linx_int_type_valid(unsigned code)
{
    switch (code) {
    case LINX_U64:
    case LINX_U32:
    case LINX_U16:
    case LINX_U8:
    case LINX_S64:
    case LINX_S32:
    case LINX_S16:
    case LINX_S8:
        return true;
    default:
        return false;
    }
}

/* ---- Unpack ------------------------------------------------------------ */

LinxFpParts linx_fp_unpack(uint64_t bits, LinxFpFormat fmt)
{
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    const uint64_t frac_mask = (UINT64_C(1) << fi->frac_bits) - 1;
    const uint32_t exp_all_ones = (1u << fi->exp_bits) - 1;
    LinxFpParts p;

    bits &= linx_fp_mask(fmt);
    p.sign = (bits >> (fi->bits - 1)) & 1;
    uint32_t e = (uint32_t)(bits >> fi->frac_bits) & exp_all_ones;
    uint64_t f = bits & frac_mask;
    p.exp = 0;
    p.sig = 0;

    if (e == exp_all_ones) {
        if (fi->has_inf) {
            if (f == 0) {
                p.cls = LINX_FPC_INF;
            } else if (f >> (fi->frac_bits - 1)) {
                p.cls = LINX_FPC_QNAN;
            } else {
                p.cls = LINX_FPC_SNAN;
            }
            return p;
        }
        if (f == frac_mask) {
            /* E4M3: S.1111.111 is its only NaN; it has no signalling kind. */
            p.cls = LINX_FPC_QNAN;
            return p;
        }
    }
    if (e == 0) {
        if (f == 0) {
            p.cls = LINX_FPC_ZERO;
            return p;
        }
        /* Subnormal: value f * 2^(emin - frac_bits), emin = 1 - bias. */
        int lead = 63 - __builtin_clzll(f);
        p.cls = LINX_FPC_NORMAL;
        p.sig = f << (63 - lead);
        p.exp = 1 - fi->bias - fi->frac_bits + lead;
        return p;
    }
    p.cls = LINX_FPC_NORMAL;
    p.sig = (f | (UINT64_C(1) << fi->frac_bits)) << (63 - fi->frac_bits);
    p.exp = (int32_t)e - fi->bias;
    return p;
}

/* ---- Pack --------------------------------------------------------------- */

uint64_t linx_fp_pack_zero(LinxFpFormat fmt, bool sign)
{
    return sign ? linx_fp_sign_bit(fmt) : 0;
}

/* Largest finite encoding (positive). */
static uint64_t max_finite(LinxFpFormat fmt)
{
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    const uint64_t frac_mask = (UINT64_C(1) << fi->frac_bits) - 1;
    const uint64_t exp_all_ones = (UINT64_C(1) << fi->exp_bits) - 1;

    if (fi->has_inf) {
        return ((exp_all_ones - 1) << fi->frac_bits) | frac_mask;
    }
    return (exp_all_ones << fi->frac_bits) | (frac_mask - 1);
}

static bool is_fp8(LinxFpFormat fmt)
{
    return fmt == LINX_FP8_E4M3 || fmt == LINX_FP8_E5M2;
}

uint64_t linx_fp_pack_inf(const LinxFpEnv *fe, LinxFpFormat fmt, bool sign)
{
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    uint64_t s = sign ? linx_fp_sign_bit(fmt) : 0;

    if (is_fp8(fmt) && fe->fp8_saturate) {
        return s | max_finite(fmt);
    }
    if (!fi->has_inf) {
        return fi->default_nan;
    }
    uint64_t exp_all_ones = (UINT64_C(1) << fi->exp_bits) - 1;
    return s | (exp_all_ones << fi->frac_bits);
}

uint64_t linx_fp_invalid(LinxFpEnv *fe, LinxFpFormat fmt)
{
    fe->flags |= LINX_FPF_NV;
    return linx_fp_format_info[fmt].default_nan;
}

uint64_t linx_fp_propagate_nan(LinxFpEnv *fe, LinxFpFormat fmt,
                               const LinxFpParts *a, const LinxFpParts *b,
                               const LinxFpParts *c)
{
    if ((a && a->cls == LINX_FPC_SNAN) || (b && b->cls == LINX_FPC_SNAN) ||
        (c && c->cls == LINX_FPC_SNAN)) {
        fe->flags |= LINX_FPF_NV;
    }
    return linx_fp_format_info[fmt].default_nan;
}

/* ---- Rounding ----------------------------------------------------------- */

/* Result of an overflow: infinity (or its stand-in) for the directions that
 * round away from the finite range, else the largest finite number. */
static uint64_t overflow_result(const LinxFpEnv *fe, LinxFpFormat fmt,
                                unsigned rm, bool sign)
{
    bool to_inf;

    switch (rm) {
    case LINX_RM_RTZ:
        to_inf = false;
        break;
    case LINX_RM_RDN:
        to_inf = sign;
        break;
    case LINX_RM_RUP:
        to_inf = !sign;
        break;
    default:
        to_inf = true;
        break;
    }
    if (to_inf) {
        return linx_fp_pack_inf(fe, fmt, sign);
    }
    return (sign ? linx_fp_sign_bit(fmt) : 0) | max_finite(fmt);
}

uint64_t linx_fp_round_pack(LinxFpEnv *fe, LinxFpFormat fmt, unsigned rm,
                            bool sign, int32_t exp, uint64_t sig)
{
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    const int prec = fi->frac_bits + 1;
    const int shift = 64 - prec;
    const uint64_t half = UINT64_C(1) << (shift - 1);
    const uint64_t rmask = (UINT64_C(1) << shift) - 1;
    const uint64_t frac_mask = (UINT64_C(1) << fi->frac_bits) - 1;
    const int32_t emin = 1 - fi->bias;
    const uint64_t maxf = max_finite(fmt);
    const int32_t emax = (int32_t)(maxf >> fi->frac_bits) - fi->bias;
    const uint64_t s = sign ? linx_fp_sign_bit(fmt) : 0;
    bool tiny = false;

    if (sig == 0) {
        return s;
    }
    if (exp > emax + 1) {
        fe->flags |= LINX_FPF_OF | LINX_FPF_NX;
        return overflow_result(fe, fmt, rm, sign);
    }
    if (exp < emin) {
        /* Tiny unless rounding to full precision (unbounded exponent)
         * carries the value up to exactly 2^emin. */
        tiny = true;
        if (exp == emin - 1) {
            uint64_t kept = sig >> shift;
            uint64_t rbits = sig & rmask;
            if (rbits && linx_fp_round_up(rm, sign, rbits, half, kept & 1) &&
                ((kept + 1) >> prec)) {
                tiny = false;
            }
        }
        sig = linx_shr_jam64(sig, emin - exp);
        exp = emin;
    }

    uint64_t kept = sig >> shift;
    uint64_t rbits = sig & rmask;
    if (rbits) {
        fe->flags |= LINX_FPF_NX;
        if (tiny) {
            fe->flags |= LINX_FPF_UF;
        }
        if (linx_fp_round_up(rm, sign, rbits, half, kept & 1)) {
            kept++;
            if (kept >> prec) {
                kept >>= 1;
                exp++;
            }
        }
    }

    /* kept < 2^(prec-1) only on the subnormal path (exp == emin). */
    uint64_t biased = (kept >> (prec - 1)) ? (uint64_t)(exp + fi->bias) : 0;
    uint64_t enc = (biased << fi->frac_bits) | (kept & frac_mask);
    if (enc > maxf) {
        fe->flags |= LINX_FPF_OF | LINX_FPF_NX;
        return overflow_result(fe, fmt, rm, sign);
    }
    return s | enc;
}
