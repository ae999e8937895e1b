/*
 * FEXP: e^x for every format.
 *
 * The v0.4 manual gives FEXP no precision bound (13_fsu.adoc has only its
 * encoding), and the LinxISA QEMU calls the host libm, whose last bit
 * differs between libm versions.  linxemu computes e^x to about 100 bits
 * and rounds that once with the guest rounding mode, so results are the
 * same on every host and correctly rounded unless e^x lies within ~2^-100
 * (relative) of a rounding boundary - for FP32 and narrower formats that
 * never happens, for FP64 only in the few known hard cases (docs/fpu.md).
 *
 * Method: x = k*ln2 + r with |r| <= ln2/2, ln2 split in three parts so
 * k*L1 and x - k*L1 are exact; e^r by its Taylor series (24 terms) in
 * double-double arithmetic; the 106-bit result scaled by 2^k goes to
 * linx_fp_round_pack().  The double-double code runs in the host's
 * default RNE mode and relies on every operation being rounded on its own.
 *
 * Special values: e^NaN = default NaN (NV for sNaN), e^+inf = +inf,
 * e^-inf = +0, e^0 = 1 exactly; every other result raises NX, and OF/UF as
 * the rounding routine finds them.
 *
 * Fast path (formats of at most 24 significant bits, |x| <= 708): e^x in
 * double (fpu-fastmath.h, relative error < 2^-50), widened by 2^-44 on
 * both sides; when both ends round to the same result with the same flags
 * in the current mode, that is the result, because the exact value and
 * the 106-bit one lie between them (rounding is monotonic).  Otherwise -
 * about one FP32 input in 2^15, every FP64 input - the double-double path
 * runs.  The results are the same bits either way; tests/unit/test-fpu-exp
 * checks FP16 and BF16 exhaustively in all modes against expl(), and
 * test-fpu-fastmath the fast path against the double-double one
 * (LINX_FP_IMPL_SOFT: the double-double path only).
 */
#include "fpu-fastmath.h"
#include "fpu-internal.h"

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef struct DoubleDouble {
    double hi;
    double lo;
} DoubleDouble;

/* ln2 = LN2_1 + LN2_2 + LN2_3 (+ < 2^-156); LN2_1 has 42 significant bits
 * so k * LN2_1 is exact for |k| < 2^11. */
static const double LN2_1 = 0x1.62e42fefa3800p-1;
static const double LN2_2 = 0x1.ef35793c76730p-45;
static const double LN2_3 = 0x1.f97b57a079a19p-103;
static const double INV_LN2 = 0x1.71547652b82fep+0;
/* Dekker's splitting constant 2^27 + 1. */
static const double SPLITTER = 134217729.0;
/* Beyond these, e^x overflows or underflows every format (FP64 range is
 * about e^-745 .. e^709.8) and |k| stays below 2^11. */
static const double EXP_HUGE = 800.0;

enum {
    TAYLOR_TERMS = 24,
    /* Exponents far outside every format, for the huge/tiny cases. */
    EXP_OUT_OF_RANGE = 1 << 20,
};

/* 1/n! as double-double, n = 0 .. TAYLOR_TERMS (exact rationals rounded
 * to 106 bits). */
static const DoubleDouble INV_FACT[TAYLOR_TERMS + 1] = {
    { 0x1.0000000000000p+0, 0.0 },
    { 0x1.0000000000000p+0, 0.0 },
    { 0x1.0000000000000p-1, 0.0 },
    { 0x1.5555555555555p-3, 0x1.5555555555555p-57 },
    { 0x1.5555555555555p-5, 0x1.5555555555555p-59 },
    { 0x1.1111111111111p-7, 0x1.1111111111111p-63 },
    { 0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65 },
    { 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73 },
    { 0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76 },
    { 0x1.71de3a556c734p-19, -0x1.c154f8ddc6c00p-73 },
    { 0x1.27e4fb7789f5cp-22, 0x1.cbbc05b4fa99ap-76 },
    { 0x1.ae64567f544e4p-26, -0x1.c062e06d1f209p-80 },
    { 0x1.1eed8eff8d898p-29, -0x1.2aec959e14c06p-83 },
    { 0x1.6124613a86d09p-33, 0x1.f28e0cc748ebep-87 },
    { 0x1.93974a8c07c9dp-37, 0x1.05d6f8a2efd1fp-92 },
    { 0x1.ae7f3e733b81fp-41, 0x1.1d8656b0ee8cbp-97 },
    { 0x1.ae7f3e733b81fp-45, 0x1.1d8656b0ee8cbp-101 },
    { 0x1.952c77030ad4ap-49, 0x1.ac981465ddc6cp-103 },
    { 0x1.6827863b97d97p-53, 0x1.eec01221a8b0bp-107 },
    { 0x1.2f49b46814157p-57, 0x1.2650f61dbdcb4p-112 },
    { 0x1.e542ba4020225p-62, 0x1.ea72b4afe3c2fp-120 },
    { 0x1.71b8ef6dcf572p-66, -0x1.d043ae40c4647p-120 },
    { 0x1.0ce396db7f853p-70, -0x1.aebcdbd20331cp-124 },
    { 0x1.761b41316381ap-75, -0x1.3423c7d91404fp-130 },
    { 0x1.f2cf01972f578p-80, -0x1.9ada5fcc1ab14p-135 },
};

/* ---- Double-double arithmetic (error-free transforms) ------------------ */

static DoubleDouble two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    DoubleDouble r = { s, (a - (s - bb)) + (b - bb) };
    return r;
}

/* Requires |a| >= |b| (or a == 0). */
static DoubleDouble fast_two_sum(double a, double b)
{
    double s = a + b;
    DoubleDouble r = { s, b - (s - a) };
    return r;
}

static void split(double a, double *hi, double *lo)
{
    double t = SPLITTER * a;
    *hi = t - (t - a);
    *lo = a - *hi;
}

/* Exact product a*b = hi + lo (no overflow: |a|, |b| < 2^996). */
static DoubleDouble two_prod(double a, double b)
{
    double ah, al, bh, bl;
    double p = a * b;

    split(a, &ah, &al);
    split(b, &bh, &bl);
    DoubleDouble r = { p, ((ah * bh - p) + ah * bl + al * bh) + al * bl };
    return r;
}

static DoubleDouble dd_add(DoubleDouble x, DoubleDouble y)
{
    DoubleDouble s = two_sum(x.hi, y.hi);
    DoubleDouble t = two_sum(x.lo, y.lo);

    s.lo += t.hi;
    s = fast_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return fast_two_sum(s.hi, s.lo);
}

static DoubleDouble dd_mul(DoubleDouble x, DoubleDouble y)
{
    DoubleDouble p = two_prod(x.hi, y.hi);

    p.lo += x.hi * y.lo + x.lo * y.hi;
    return fast_two_sum(p.hi, p.lo);
}

static DoubleDouble dd_neg(DoubleDouble x)
{
    DoubleDouble r = { -x.hi, -x.lo };
    return r;
}

/* ---- e^x ----------------------------------------------------------------- */

static double double_from_bits(uint64_t x)
{
    double d;
    __builtin_memcpy(&d, &x, sizeof(d));
    return d;
}

static uint64_t bits_from_double(double d)
{
    uint64_t x;
    __builtin_memcpy(&x, &d, sizeof(x));
    return x;
}

/* e^x for finite nonzero x in [-EXP_HUGE, EXP_HUGE], as the leading 64 bits
 * (plus sticky) of ~106-bit precision: (-1)^0 * sig * 2^(exp - 63). */
static void exp_core(double x, int32_t *exp, uint64_t *sig)
{
    double k = __builtin_round(x * INV_LN2);
    double r_hi = x - k * LN2_1; /* exact (Sterbenz) */
    DoubleDouble r = { r_hi, 0.0 };

    r = dd_add(r, dd_neg(two_prod(k, LN2_2)));
    r = dd_add(r, dd_neg((DoubleDouble){ k * LN2_3, 0.0 }));

    DoubleDouble p = INV_FACT[TAYLOR_TERMS];
    for (int n = TAYLOR_TERMS - 1; n >= 0; n--) {
        p = dd_add(dd_mul(p, r), INV_FACT[n]);
    }

    /* p is in [0.7, 1.5]: combine hi + lo exactly, then scale by 2^k. */
    LinxFpParts hi = linx_fp_unpack(bits_from_double(p.hi), LINX_FP64);
    LinxFpParts lo = linx_fp_unpack(bits_from_double(p.lo), LINX_FP64);
    bool sign = false;
    if (lo.cls == LINX_FPC_ZERO ||
        !linx_soft_add_exact(&hi, &lo, LINX_RM_RNE, &sign, exp, sig)) {
        *exp = hi.exp;
        *sig = hi.sig;
    }
    *exp += (int32_t)k;
    *sig |= 1; /* e^x is irrational here: never exact */
}

/* The fast path: true with the result in *out (flags raised in @fe) when
 * e^x widened by the fast bound's margin rounds the same at both ends. */
static bool exp_fast_round(LinxFpEnv *fe, LinxFpFormat fmt, double x, uint64_t *out)
{
    LinxFpParts y = linx_fp_unpack(bits_from_double(linx_exp_fast(x)), LINX_FP64);
    /* the margin in units of sig (bit 63 = 1): 2^-44 * 2^63, plus 1 */
    uint64_t d = (UINT64_C(1) << 19) + 1, lo, hi;
    LinxFpEnv flo = *fe, fhi = *fe;
    uint64_t rlo, rhi;

    if (y.cls != LINX_FPC_NORMAL || y.sig - d < (UINT64_C(1) << 63) || y.sig + d < y.sig) {
        return false; /* too near a power of two to widen simply: the slow path */
    }
    lo = (y.sig - d) | 1;
    hi = (y.sig + d) | 1;
    flo.flags = fhi.flags = 0;
    rlo = linx_fp_round_pack(&flo, fmt, fe->rm, false, y.exp, lo);
    rhi = linx_fp_round_pack(&fhi, fmt, fe->rm, false, y.exp, hi);
    if (rlo != rhi || flo.flags != fhi.flags) {
        return false;
    }
    fe->flags |= flo.flags;
    *out = rlo;
    return true;
}

uint64_t linx_fexp(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt)
{
    if ((unsigned)fmt >= LINX_FP_NUM_FORMATS) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    const LinxFpFormatInfo *fi = &linx_fp_format_info[fmt];
    LinxFpParts p = linx_fp_unpack(a, fmt);
    int32_t exp;
    uint64_t sig;

    switch (p.cls) {
    case LINX_FPC_QNAN:
    case LINX_FPC_SNAN:
        return linx_fp_propagate_nan(fe, fmt, &p, NULL, NULL);
    case LINX_FPC_INF:
        return p.sign ? linx_fp_pack_zero(fmt, false)
                      : linx_fp_pack_inf(fe, fmt, false);
    case LINX_FPC_ZERO:
        return (uint64_t)fi->bias << fi->frac_bits; /* 1.0 */
    default:
        break;
    }

    /* Every format's values are exact in double. */
    LinxFpEnv exact = { 0 };
    double x = double_from_bits(fmt == LINX_FP64 ? a :
                                linx_fcvt_f2f(&exact, a, fmt, LINX_FP64));
    if (fi->frac_bits < 24 && fe->impl != LINX_FP_IMPL_SOFT && x >= -LINX_EXP_FAST_MAX &&
        x <= LINX_EXP_FAST_MAX && exp_fast_round(fe, fmt, x, &sig)) {
        return sig;
    }
    if (x > EXP_HUGE) {
        exp = EXP_OUT_OF_RANGE;
        sig = UINT64_C(1) << 63;
    } else if (x < -EXP_HUGE) {
        exp = -EXP_OUT_OF_RANGE;
        sig = (UINT64_C(1) << 63) | 1;
    } else {
        exp_core(x, &exp, &sig);
    }
    return linx_fp_round_pack(fe, fmt, fe->rm, false, exp, sig);
}
