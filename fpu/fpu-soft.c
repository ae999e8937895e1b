/*
 * Software floating-point arithmetic: add, multiply, divide, square root
 * and fused multiply-add for every format and rounding mode.
 *
 * Each operation unpacks its operands (fpu-format.c), settles NaNs,
 * infinities and zeros by the IEEE rules, computes the exact result (or
 * the exact result's leading 64 bits plus a sticky bit) with 128-bit
 * integer arithmetic, and rounds once with linx_fp_round_pack().  Working
 * precision: significands have at most 53 bits, so a 128-bit product is
 * exact and a 64-bit quotient or root plus its remainder decides rounding.
 *
 * NaN rule: any NaN operand gives the default NaN, NV if one is signalling
 * (docs/fpu.md).  FMA raises NV for infinity times zero even when the
 * addend is a quiet NaN.
 */
#include "fpu-internal.h"

/* Leading-bit position used for 128-bit significands: two bits of headroom
 * for carries and the alignment of FMA. */
enum {
    WIDE_LEAD = 125,
};

/* ---- Addition ----------------------------------------------------------- */

bool linx_soft_add_exact(const LinxFpParts *a, const LinxFpParts *b,
                         unsigned rm, bool *sign, int32_t *exp,
                         uint64_t *sig)
{
    LinxU128 wa = (LinxU128)a->sig << (WIDE_LEAD - 63);
    LinxU128 wb = (LinxU128)b->sig << (WIDE_LEAD - 63);
    int32_t e = a->exp;
    bool sa = a->sign;
    bool sb = b->sign;
    LinxU128 sum;

    if (a->exp >= b->exp) {
        wb = linx_shr_jam128(wb, a->exp - b->exp);
    } else {
        wa = linx_shr_jam128(wa, b->exp - a->exp);
        e = b->exp;
    }
    if (sa == sb) {
        sum = wa + wb;
        *sign = sa;
    } else if (wa >= wb) {
        sum = wa - wb;
        *sign = sa;
    } else {
        sum = wb - wa;
        *sign = sb;
    }
    if (sum == 0) {
        *sign = rm == LINX_RM_RDN;
        return false;
    }
    *exp = e;
    *sig = linx_narrow128(sum, exp, WIDE_LEAD);
    return true;
}

static uint64_t soft_add(LinxFpEnv *fe, LinxFpFormat fmt, uint64_t abits,
                         uint64_t bbits)
{
    LinxFpParts a = linx_fp_unpack(abits, fmt);
    LinxFpParts b = linx_fp_unpack(bbits, fmt);
    bool sign;
    int32_t exp;
    uint64_t sig;

    if (linx_fp_parts_nan(&a) || linx_fp_parts_nan(&b)) {
        return linx_fp_propagate_nan(fe, fmt, &a, &b, NULL);
    }
    if (a.cls == LINX_FPC_INF) {
        if (b.cls == LINX_FPC_INF && a.sign != b.sign) {
            return linx_fp_invalid(fe, fmt);
        }
        return linx_fp_pack_inf(fe, fmt, a.sign);
    }
    if (b.cls == LINX_FPC_INF) {
        return linx_fp_pack_inf(fe, fmt, b.sign);
    }
    if (a.cls == LINX_FPC_ZERO) {
        if (b.cls == LINX_FPC_ZERO) {
            bool s = a.sign == b.sign ? a.sign : fe->rm == LINX_RM_RDN;
            return linx_fp_pack_zero(fmt, s);
        }
        return bbits & linx_fp_mask(fmt);
    }
    if (b.cls == LINX_FPC_ZERO) {
        return abits & linx_fp_mask(fmt);
    }
    if (!linx_soft_add_exact(&a, &b, fe->rm, &sign, &exp, &sig)) {
        return linx_fp_pack_zero(fmt, sign);
    }
    return linx_fp_round_pack(fe, fmt, fe->rm, sign, exp, sig);
}

/* ---- Multiplication ----------------------------------------------------- */

static uint64_t soft_mul(LinxFpEnv *fe, LinxFpFormat fmt, uint64_t abits,
                         uint64_t bbits)
{
    LinxFpParts a = linx_fp_unpack(abits, fmt);
    LinxFpParts b = linx_fp_unpack(bbits, fmt);
    bool sign = a.sign ^ b.sign;

    if (linx_fp_parts_nan(&a) || linx_fp_parts_nan(&b)) {
        return linx_fp_propagate_nan(fe, fmt, &a, &b, NULL);
    }
    if (a.cls == LINX_FPC_INF || b.cls == LINX_FPC_INF) {
        if (a.cls == LINX_FPC_ZERO || b.cls == LINX_FPC_ZERO) {
            return linx_fp_invalid(fe, fmt);
        }
        return linx_fp_pack_inf(fe, fmt, sign);
    }
    if (a.cls == LINX_FPC_ZERO || b.cls == LINX_FPC_ZERO) {
        return linx_fp_pack_zero(fmt, sign);
    }
    /* sig_a * sig_b * 2^(ea + eb - 126): leading bit at 126 or 127. */
    LinxU128 prod = (LinxU128)a.sig * b.sig;
    int32_t exp = a.exp + b.exp;
    uint64_t sig = linx_narrow128(prod, &exp, 126);
    return linx_fp_round_pack(fe, fmt, fe->rm, sign, exp, sig);
}

/* ---- Division ----------------------------------------------------------- */

static uint64_t soft_div(LinxFpEnv *fe, LinxFpFormat fmt, uint64_t abits,
                         uint64_t bbits)
{
    LinxFpParts a = linx_fp_unpack(abits, fmt);
    LinxFpParts b = linx_fp_unpack(bbits, fmt);
    bool sign = a.sign ^ b.sign;

    if (linx_fp_parts_nan(&a) || linx_fp_parts_nan(&b)) {
        return linx_fp_propagate_nan(fe, fmt, &a, &b, NULL);
    }
    if (a.cls == LINX_FPC_INF) {
        if (b.cls == LINX_FPC_INF) {
            return linx_fp_invalid(fe, fmt);
        }
        return linx_fp_pack_inf(fe, fmt, sign);
    }
    if (b.cls == LINX_FPC_INF) {
        return linx_fp_pack_zero(fmt, sign);
    }
    if (b.cls == LINX_FPC_ZERO) {
        if (a.cls == LINX_FPC_ZERO) {
            return linx_fp_invalid(fe, fmt);
        }
        fe->flags |= LINX_FPF_DZ;
        return linx_fp_pack_inf(fe, fmt, sign);
    }
    if (a.cls == LINX_FPC_ZERO) {
        return linx_fp_pack_zero(fmt, sign);
    }
    /* q = floor(sig_a * 2^64 / sig_b) lies in [2^63, 2^65). */
    LinxU128 num = (LinxU128)a.sig << 64;
    LinxU128 q = num / b.sig;
    bool rem = (num % b.sig) != 0;
    int32_t exp = a.exp - b.exp;
    uint64_t sig;
    if (q >> 64) {
        sig = (uint64_t)(q >> 1) | (uint64_t)(q & 1) | rem;
    } else {
        sig = (uint64_t)q | rem;
        exp -= 1;
    }
    return linx_fp_round_pack(fe, fmt, fe->rm, sign, exp, sig);
}

/* ---- Square root -------------------------------------------------------- */

/* floor(sqrt(n)) for n in [2^126, 2^128); *inexact tells whether n is not
 * a perfect square.  A double estimate, one Newton step and a final
 * correction give the exact integer root. */
static uint64_t isqrt128(LinxU128 n, bool *inexact)
{
    double est = __builtin_sqrt((double)n);
    LinxU128 r;

    if (est >= 18446744073709551615.0) {
        r = UINT64_MAX;
    } else {
        r = (uint64_t)est;
    }
    r = (r + n / r) >> 1;
    if (r > UINT64_MAX) {
        r = UINT64_MAX;
    }
    while (r * r > n) {
        r--;
    }
    while (r < UINT64_MAX && n - r * r > 2 * r) {
        r++;
    }
    *inexact = r * r != n;
    return (uint64_t)r;
}

static uint64_t soft_sqrt(LinxFpEnv *fe, LinxFpFormat fmt, uint64_t abits)
{
    LinxFpParts a = linx_fp_unpack(abits, fmt);

    if (linx_fp_parts_nan(&a)) {
        return linx_fp_propagate_nan(fe, fmt, &a, NULL, NULL);
    }
    if (a.cls == LINX_FPC_ZERO) {
        return abits & linx_fp_mask(fmt);
    }
    if (a.sign) {
        return linx_fp_invalid(fe, fmt);
    }
    if (a.cls == LINX_FPC_INF) {
        return linx_fp_pack_inf(fe, fmt, false);
    }
    /* Scale so the exponent left over is even and n is in [2^126, 2^128):
     * sqrt(sig * 2^(e-63)) = sqrt(sig << s) * 2^((e - 63 - s) / 2). */
    int s = (a.exp & 1) ? 64 : 63;
    LinxU128 n = (LinxU128)a.sig << s;
    bool inexact;
    uint64_t root = isqrt128(n, &inexact);
    int32_t exp = 63 + (a.exp - 63 - s) / 2;
    return linx_fp_round_pack(fe, fmt, fe->rm, false, exp, root | inexact);
}

/* ---- Fused multiply-add ------------------------------------------------- */

static uint64_t soft_fma(LinxFpEnv *fe, LinxFpFormat fmt, uint64_t abits,
                         uint64_t bbits, uint64_t cbits)
{
    LinxFpParts a = linx_fp_unpack(abits, fmt);
    LinxFpParts b = linx_fp_unpack(bbits, fmt);
    LinxFpParts c = linx_fp_unpack(cbits, fmt);
    bool psign = a.sign ^ b.sign;
    bool inf_times_zero =
        (a.cls == LINX_FPC_INF && b.cls == LINX_FPC_ZERO) ||
        (a.cls == LINX_FPC_ZERO && b.cls == LINX_FPC_INF);

    if (linx_fp_parts_nan(&a) || linx_fp_parts_nan(&b) ||
        linx_fp_parts_nan(&c)) {
        if (inf_times_zero) {
            fe->flags |= LINX_FPF_NV;
        }
        return linx_fp_propagate_nan(fe, fmt, &a, &b, &c);
    }
    if (inf_times_zero) {
        return linx_fp_invalid(fe, fmt);
    }
    if (a.cls == LINX_FPC_INF || b.cls == LINX_FPC_INF) {
        if (c.cls == LINX_FPC_INF && c.sign != psign) {
            return linx_fp_invalid(fe, fmt);
        }
        return linx_fp_pack_inf(fe, fmt, psign);
    }
    if (c.cls == LINX_FPC_INF) {
        return linx_fp_pack_inf(fe, fmt, c.sign);
    }
    if (a.cls == LINX_FPC_ZERO || b.cls == LINX_FPC_ZERO) {
        if (c.cls == LINX_FPC_ZERO) {
            bool s = psign == c.sign ? psign : fe->rm == LINX_RM_RDN;
            return linx_fp_pack_zero(fmt, s);
        }
        return cbits & linx_fp_mask(fmt);
    }

    /* Exact product, leading bit moved to WIDE_LEAD (the bits shifted out
     * are zero: the product of two <= 53-bit significands has <= 106). */
    LinxU128 prod = (LinxU128)a.sig * b.sig;
    int32_t pexp = a.exp + b.exp;
    if (prod >> 127) {
        pexp++;
        prod = linx_shr_jam128(prod, 127 - WIDE_LEAD);
    } else {
        prod = linx_shr_jam128(prod, 126 - WIDE_LEAD);
    }
    if (c.cls == LINX_FPC_ZERO) {
        uint64_t sig = linx_narrow128(prod, &pexp, WIDE_LEAD);
        return linx_fp_round_pack(fe, fmt, fe->rm, psign, pexp, sig);
    }

    LinxU128 wc = (LinxU128)c.sig << (WIDE_LEAD - 63);
    int32_t exp = pexp;
    if (pexp >= c.exp) {
        wc = linx_shr_jam128(wc, pexp - c.exp);
    } else {
        prod = linx_shr_jam128(prod, c.exp - pexp);
        exp = c.exp;
    }
    LinxU128 sum;
    bool sign;
    if (psign == c.sign) {
        sum = prod + wc;
        sign = psign;
    } else if (prod >= wc) {
        sum = prod - wc;
        sign = psign;
    } else {
        sum = wc - prod;
        sign = c.sign;
    }
    if (sum == 0) {
        return linx_fp_pack_zero(fmt, fe->rm == LINX_RM_RDN);
    }
    uint64_t sig = linx_narrow128(sum, &exp, WIDE_LEAD);
    return linx_fp_round_pack(fe, fmt, fe->rm, sign, exp, sig);
}

/* ---- Dispatch ----------------------------------------------------------- */

uint64_t linx_soft_arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                         uint64_t a, uint64_t b, uint64_t c)
{
    switch (op) {
    case LINX_FPOP_ADD:
        return soft_add(fe, fmt, a, b);
    case LINX_FPOP_MUL:
        return soft_mul(fe, fmt, a, b);
    case LINX_FPOP_DIV:
        return soft_div(fe, fmt, a, b);
    case LINX_FPOP_SQRT:
        return soft_sqrt(fe, fmt, a);
    case LINX_FPOP_FMA:
        return soft_fma(fe, fmt, a, b, c);
    }
    return linx_fp_invalid(fe, fmt);
}
