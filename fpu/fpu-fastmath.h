/*
 * e^x and ln x in double precision with a known error bound, branch-free
 * so loops over them vectorise: the fast path of FEXP (fpu-exp.c) and of
 * the tile engine's TEXP and TLOG (hw/linx/tepl-kernels.c).
 *
 * Neither is a result by itself.  A caller rounds the value to the target
 * format only after proving the rounding cannot depend on the error: the
 * value widened by LINX_FASTMATH_MARGIN (relative) on both sides must round
 * to the same result (and flags).  The exact value lies inside that
 * interval, and so does every other approximation of it that is at least
 * that good (the 106-bit FEXP, the host libm's ln), so the fast result is
 * bit for bit the one the slow path gives; when the proof fails (about one
 * input in 2^15 for FP32) the caller takes the slow path.  Results never
 * change, only the time.
 *
 * Error bounds (|computed - exact| / |exact|), measured against the host's
 * long double expl/logl by tests/unit/test-fpu-fastmath.c over every
 * FP16, BF16 and (on a stride) FP32 input and random doubles:
 *   linx_exp_fast:  < 2^-LINX_FASTMATH_ERR_BITS for |x| <= LINX_EXP_FAST_MAX
 *   linx_log_fast:  < 2^-LINX_FASTMATH_ERR_BITS for finite normal x > 0
 * LINX_FASTMATH_MARGIN is 2^6 times the bound, which also covers the
 * host libm's ln (glibc documents at most 1 ulp, 2^-52) that TLOG rounds.
 *
 * Method.  exp: k = round(x / ln2) (the 1.5 * 2^52 addition, so no libm
 * call), r = x - k ln2 with ln2 in two parts (k * hi is exact for
 * |k| < 2^11), e^r by its Taylor polynomial of degree 13 (|r| <= 0.347:
 * remainder < 2^-57), scaled by 2^k built in the exponent bits.  ln:
 * x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), s = f/(2+f),
 * ln m = 2 atanh s = 2s + 2s(s^2/3 + s^4/5 + ... + s^22/23) (|s| <= 0.172:
 * remainder < 2^-60), plus e ln2 in two parts.  Contraction is off in the
 * files that include this (the bound was measured without FMA).
 */
#ifndef LINX_FPU_FASTMATH_H
#define LINX_FPU_FASTMATH_H

#include <stdint.h>
#include <string.h>

#define LINX_FASTMATH_ERR_BITS 50
#define LINX_FASTMATH_MARGIN 0x1p-44
/* Beyond this |x|, e^x leaves the double range (or 2^k its normal range). */
#define LINX_EXP_FAST_MAX 708.0

static inline double linx_fm_from_bits(uint64_t b)
{
    double d;

    memcpy(&d, &b, sizeof(d));
    return d;
}

static inline uint64_t linx_fm_bits(double d)
{
    uint64_t b;

    memcpy(&b, &d, sizeof(b));
    return b;
}

/* e^r by its Taylor polynomial of degree 13 in Horner form, for a double
 * or a vector of doubles @r (scalar constants broadcast): every width runs
 * the same operations in the same order, so the same bits. */
#define LINX_EXP_TAYLOR13(p, r)                                                                \
    do {                                                                                       \
        (p) = (p) * (r) + 0x1.1eed8eff8d898p-29; /* 1/12! */                                   \
        (p) = (p) * (r) + 0x1.ae64567f544e4p-26; /* 1/11! */                                   \
        (p) = (p) * (r) + 0x1.27e4fb7789f5cp-22; /* 1/10! */                                   \
        (p) = (p) * (r) + 0x1.71de3a556c734p-19; /* 1/9! */                                    \
        (p) = (p) * (r) + 0x1.a01a01a01a01ap-16; /* 1/8! */                                    \
        (p) = (p) * (r) + 0x1.a01a01a01a01ap-13; /* 1/7! */                                    \
        (p) = (p) * (r) + 0x1.6c16c16c16c17p-10; /* 1/6! */                                    \
        (p) = (p) * (r) + 0x1.1111111111111p-7;  /* 1/5! */                                    \
        (p) = (p) * (r) + 0x1.5555555555555p-5;  /* 1/4! */                                    \
        (p) = (p) * (r) + 0x1.5555555555555p-3;  /* 1/3! */                                    \
        (p) = (p) * (r) + 0.5;                                                                 \
        (p) = (p) * (r) + 1.0;                                                                 \
        (p) = (p) * (r) + 1.0;                                                                 \
    } while (0)
/* Its leading coefficient, 1/13!: the value p starts from. */
#define LINX_EXP_TAYLOR13_C13 0x1.6124613a86d09p-33

/* e^x for |x| <= LINX_EXP_FAST_MAX (anything else: not a meaningful
 * result; callers test the range first).  Only double arithmetic and
 * 64-bit integer adds and shifts, so SSE2 vectorises it. */
static inline double linx_exp_fast(double x)
{
    const double inv_ln2 = 0x1.71547652b82fep+0;
    const double ln2_hi = 0x1.62e42fefa3800p-1; /* 42 bits: k * ln2_hi exact */
    const double ln2_lo = 0x1.ef35793c76730p-45;
    const double shift = 0x1.8p52;
    double t = x * inv_ln2 + shift;         /* round(x / ln2) in the low bits */
    double k = t - shift;
    double r = (x - k * ln2_hi) - k * ln2_lo;
    /* 2^k: (k + 1023) << 52, with k = bits(t) - bits(shift) */
    uint64_t scale = (linx_fm_bits(t) + (UINT64_C(1023) - linx_fm_bits(shift))) << 52;
    double p = LINX_EXP_TAYLOR13_C13;

    LINX_EXP_TAYLOR13(p, r);
    return p * linx_fm_from_bits(scale);
}

/* ln x for finite normal x > 0 (anything else: not a meaningful result).
 * Vectorisable like linx_exp_fast (the exponent becomes a double by the
 * 2^52 trick, not by an int64 conversion). */
static inline double linx_log_fast(double x)
{
    const double ln2_hi = 0x1.62e42fefa3800p-1;
    const double ln2_lo = 0x1.ef35793c76730p-45;
    uint64_t b = linx_fm_bits(x);
    /* m in [1, 2); past sqrt(2) use m / 2 and e + 1 */
    double m = linx_fm_from_bits((b & UINT64_C(0x000fffffffffffff)) |
                                 UINT64_C(0x3ff0000000000000));
    /* 2^52 + biased exponent, minus 2^52 + 1023: e exactly */
    double e = linx_fm_from_bits(UINT64_C(0x4330000000000000) | (b >> 52)) -
               (0x1p52 + 1023.0);
    int big = m > 0x1.6a09e667f3bccp+0; /* sqrt(2) rounded down */
    double mm = big ? m * 0.5 : m;
    double ed = big ? e + 1.0 : e;
    double f = mm - 1.0;                /* exact (Sterbenz) */
    double s = f / (2.0 + f);
    double z = s * s;
    double q = 1.0 / 23;
    q = q * z + 1.0 / 21;
    q = q * z + 1.0 / 19;
    q = q * z + 1.0 / 17;
    q = q * z + 1.0 / 15;
    q = q * z + 1.0 / 13;
    q = q * z + 1.0 / 11;
    q = q * z + 1.0 / 9;
    q = q * z + 1.0 / 7;
    q = q * z + 1.0 / 5;
    q = q * z + 1.0 / 3;
    /* ln m = 2s + 2s * z q, as f - s f + 2 s z q (f = 2s + s f exactly in
     * real numbers; this keeps the leading term f exact) */
    return ed * ln2_hi + ((f - s * f + 2.0 * s * (z * q)) + ed * ln2_lo);
}

/*
 * Two at a time (GCC/clang vector extensions, one SSE2 operation per
 * line): the same operations in the same order as the scalar functions,
 * so the same results bit for bit (test-fpu-fastmath compares them);
 * lanes outside the functions' domains give meaningless values.
 */
typedef double LinxV2d __attribute__((vector_size(16)));
typedef uint64_t LinxV2u __attribute__((vector_size(16)));
typedef int64_t LinxV2i __attribute__((vector_size(16)));

static inline LinxV2d linx_v2d(double v)
{
    return (LinxV2d){ v, v };
}

static inline LinxV2d linx_exp_fast2(LinxV2d x)
{
    const LinxV2d shift = linx_v2d(0x1.8p52);
    LinxV2d t = x * linx_v2d(0x1.71547652b82fep+0) + shift;
    LinxV2d k = t - shift;
    LinxV2d r = (x - k * linx_v2d(0x1.62e42fefa3800p-1)) - k * linx_v2d(0x1.ef35793c76730p-45);
    LinxV2u scale = ((LinxV2u)t + (UINT64_C(1023) - linx_fm_bits(0x1.8p52))) << 52;
    LinxV2d p = linx_v2d(LINX_EXP_TAYLOR13_C13);

    LINX_EXP_TAYLOR13(p, r);
    return p * (LinxV2d)scale;
}

/*
 * Eight at a time: the same operations again, for callers compiled for
 * AVX-512 (one operation per line there, four SSE2 ones elsewhere); the
 * constants are the scalar function's, broadcast (test-fpu-fastmath
 * compares the bits).
 */
typedef double LinxV8d __attribute__((vector_size(64)));
typedef uint64_t LinxV8u __attribute__((vector_size(64)));
typedef int64_t LinxV8i __attribute__((vector_size(64)));

/* (Through pointers: a 64-byte vector argument's ABI depends on AVX-512.) */
static inline __attribute__((always_inline)) void linx_exp_fast8(LinxV8d *out, const LinxV8d *in)
{
    const LinxV8d x = *in;
    const double shift = 0x1.8p52;
    LinxV8d t = x * 0x1.71547652b82fep+0 + shift;
    LinxV8d k = t - shift;
    LinxV8d r = (x - k * 0x1.62e42fefa3800p-1) - k * 0x1.ef35793c76730p-45;
    LinxV8u scale = ((LinxV8u)t + (UINT64_C(1023) - linx_fm_bits(shift))) << 52;
    LinxV8d p = (LinxV8d){ 0 } + LINX_EXP_TAYLOR13_C13;

    LINX_EXP_TAYLOR13(p, r);
    *out = p * (LinxV8d)scale;
}

static inline LinxV2d linx_log_fast2(LinxV2d x)
{
    LinxV2u b = (LinxV2u)x;
    LinxV2d m = (LinxV2d)((b & UINT64_C(0x000fffffffffffff)) | UINT64_C(0x3ff0000000000000));
    LinxV2d e = (LinxV2d)(UINT64_C(0x4330000000000000) | (b >> 52)) - (0x1p52 + 1023.0);
    LinxV2u big = (LinxV2u)(m > 0x1.6a09e667f3bccp+0); /* all ones where m > sqrt(2) */
    LinxV2d mm = (LinxV2d)((big & (LinxV2u)(m * 0.5)) | (~big & (LinxV2u)m));
    LinxV2d ed = (LinxV2d)((big & (LinxV2u)(e + 1.0)) | (~big & (LinxV2u)e));
    LinxV2d f = mm - 1.0;
    LinxV2d s = f / (2.0 + f);
    LinxV2d z = s * s;
    LinxV2d q = linx_v2d(1.0 / 23);
    q = q * z + 1.0 / 21;
    q = q * z + 1.0 / 19;
    q = q * z + 1.0 / 17;
    q = q * z + 1.0 / 15;
    q = q * z + 1.0 / 13;
    q = q * z + 1.0 / 11;
    q = q * z + 1.0 / 9;
    q = q * z + 1.0 / 7;
    q = q * z + 1.0 / 5;
    q = q * z + 1.0 / 3;
    return ed * 0x1.62e42fefa3800p-1 + ((f - s * f + 2.0 * s * (z * q)) + ed * 0x1.ef35793c76730p-45);
}

#endif /* LINX_FPU_FASTMATH_H */
