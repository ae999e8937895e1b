/*
 * Compares (FEQ FNE FLT FGE and the signalling FEQS FNES FLTS FGES) and
 * FMAX/FMIN.
 *
 * All compares are ordered: a NaN operand makes every one of them false,
 * FNE included (docs/fpu.md explains why FNE is "ordered and unequal").
 * +0 and -0 compare equal.  The plain forms are IEEE quiet predicates (NV
 * only for an sNaN operand); the S forms are signalling (NV for any NaN).
 *
 * FMAX/FMIN are IEEE 754-2019 maximumNumber/minimumNumber: a NaN operand,
 * quiet or signalling, yields the other operand; NV for an sNaN; -0 < +0.
 */
#include "fpu-internal.h"

/* A non-NaN encoding mapped to a signed integer that orders like the
 * value: magnitude for positive numbers, negated magnitude for negative
 * ones, so both zeros map to 0. */
static int64_t order_key(uint64_t x, LinxFpFormat fmt)
{
    uint64_t sign = linx_fp_sign_bit(fmt);
    int64_t mag = (int64_t)(x & (sign - 1));

    return (x & sign) ? -mag : mag;
}

LinxFpRelation linx_fcompare(LinxFpEnv *fe, uint64_t a, uint64_t b,
                             LinxFpFormat fmt, bool signaling)
{
    if ((unsigned)fmt >= LINX_FP_NUM_FORMATS) {
        fe->flags |= LINX_FPF_NV;
        return LINX_FREL_UNORDERED;
    }
    a &= linx_fp_mask(fmt);
    b &= linx_fp_mask(fmt);
    LinxFpParts pa = linx_fp_unpack(a, fmt);
    LinxFpParts pb = linx_fp_unpack(b, fmt);
    if (linx_fp_parts_nan(&pa) || linx_fp_parts_nan(&pb)) {
        if (signaling || pa.cls == LINX_FPC_SNAN || pb.cls == LINX_FPC_SNAN) {
            fe->flags |= LINX_FPF_NV;
        }
        return LINX_FREL_UNORDERED;
    }
    int64_t ka = order_key(a, fmt);
    int64_t kb = order_key(b, fmt);
    if (ka < kb) {
        return LINX_FREL_LESS;
    }
    return ka == kb ? LINX_FREL_EQUAL : LINX_FREL_GREATER;
}

uint64_t linx_feq(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return linx_fcompare(fe, a, b, fmt, false) == LINX_FREL_EQUAL;
}

uint64_t linx_fne(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    LinxFpRelation r = linx_fcompare(fe, a, b, fmt, false);
    return r == LINX_FREL_LESS || r == LINX_FREL_GREATER;
}

uint64_t linx_flt(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return linx_fcompare(fe, a, b, fmt, false) == LINX_FREL_LESS;
}

uint64_t linx_fge(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    LinxFpRelation r = linx_fcompare(fe, a, b, fmt, false);
    return r == LINX_FREL_GREATER || r == LINX_FREL_EQUAL;
}

uint64_t linx_feqs(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return linx_fcompare(fe, a, b, fmt, true) == LINX_FREL_EQUAL;
}

uint64_t linx_fnes(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    LinxFpRelation r = linx_fcompare(fe, a, b, fmt, true);
    return r == LINX_FREL_LESS || r == LINX_FREL_GREATER;
}

uint64_t linx_flts(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return linx_fcompare(fe, a, b, fmt, true) == LINX_FREL_LESS;
}

uint64_t linx_fges(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    LinxFpRelation r = linx_fcompare(fe, a, b, fmt, true);
    return r == LINX_FREL_GREATER || r == LINX_FREL_EQUAL;
}

/* maximumNumber (want_max) or minimumNumber. */
static uint64_t min_max(LinxFpEnv *fe, uint64_t a, uint64_t b,
                        LinxFpFormat fmt, bool want_max)
{
    if ((unsigned)fmt >= LINX_FP_NUM_FORMATS) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    a &= linx_fp_mask(fmt);
    b &= linx_fp_mask(fmt);
    LinxFpParts pa = linx_fp_unpack(a, fmt);
    LinxFpParts pb = linx_fp_unpack(b, fmt);
    bool na = linx_fp_parts_nan(&pa);
    bool nb = linx_fp_parts_nan(&pb);
    if (na || nb) {
        if (pa.cls == LINX_FPC_SNAN || pb.cls == LINX_FPC_SNAN) {
            fe->flags |= LINX_FPF_NV;
        }
        if (na && nb) {
            return linx_fp_format_info[fmt].default_nan;
        }
        return na ? b : a;
    }
    int64_t ka = order_key(a, fmt);
    int64_t kb = order_key(b, fmt);
    if (ka == kb) {
        /* Equal values; for +0/-0 the sign decides. */
        bool a_neg = (a & linx_fp_sign_bit(fmt)) != 0;
        return (a_neg == want_max) ? b : a;
    }
    return ((ka > kb) == want_max) ? a : b;
}

uint64_t linx_fmax(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return min_max(fe, a, b, fmt, true);
}

uint64_t linx_fmin(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt)
{
    return min_max(fe, a, b, fmt, false);
}
