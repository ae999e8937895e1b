/*
 * Reference model for the floating-point tests: rounds an exact long
 * double value to any LinxFpFormat with host floating-point operations
 * (frexpl/ldexpl and the C rounding functions), an approach independent of
 * the library's integer unpack/round/pack code.  Every value the tests feed
 * it is exact in long double (x87 extended, 64-bit significand): any FP64,
 * any int64/uint64, sums and products of FP16/BF16/FP32 values.
 *
 * Also a random operand generator biased toward the interesting places
 * (zeros, infinities, NaNs, subnormals, the overflow edge, near-equal
 * operands), shared by the randomized tests.
 */
#ifndef TEST_FPU_REF_H
#define TEST_FPU_REF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "fpu/fpu.h"

typedef struct RefFormat {
    int bits, exp_bits, frac_bits;
    bool has_inf;
} RefFormat;

static const RefFormat ref_formats[LINX_FP_NUM_FORMATS] = {
    [LINX_FP64] = { 64, 11, 52, true },
    [LINX_FP32] = { 32, 8, 23, true },
    [LINX_FP16] = { 16, 5, 10, true },
    [LINX_BF16] = { 16, 8, 7, true },
    [LINX_FP8_E4M3] = { 8, 4, 3, false },
    [LINX_FP8_E5M2] = { 8, 5, 2, true },
};

static inline int ref_bias(LinxFpFormat f)
{
    return (1 << (ref_formats[f].exp_bits - 1)) - 1;
}

static inline int ref_emin(LinxFpFormat f)
{
    return 1 - ref_bias(f);
}

/* Largest finite value. */
static inline long double ref_max(LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    int p = r->frac_bits + 1;
    int emax = (1 << r->exp_bits) - 2 - ref_bias(f);
    long double m = ldexpl(1.0L, p) - 1; /* all ones */

    if (!r->has_inf) {
        emax += 1;
        m -= 1; /* E4M3: S.1111.111 is NaN */
    }
    return ldexpl(m, emax - p + 1);
}

/* Value of a non-NaN, non-infinite encoding. */
static inline long double ref_decode(uint64_t x, LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t fr = x & ((1ull << r->frac_bits) - 1);
    int e = (int)((x >> r->frac_bits) & ((1u << r->exp_bits) - 1));
    bool neg = (x >> (r->bits - 1)) & 1;
    long double v;

    if (e == 0) {
        v = ldexpl((long double)fr, ref_emin(f) - r->frac_bits);
    } else {
        v = ldexpl((long double)(fr | (1ull << r->frac_bits)),
                   e - ref_bias(f) - r->frac_bits);
    }
    return neg ? -v : v;
}

/* Round a nonnegative long double holding an integer-or-not value t to an
 * integer in mode rm (sign is the sign of the original value). */
static inline long double ref_rint(long double t, unsigned rm, bool neg)
{
    switch (rm) {
    case LINX_RM_RTZ:
        return truncl(t);
    case LINX_RM_RDN:
        return neg ? ceill(t) : floorl(t);
    case LINX_RM_RUP:
        return neg ? floorl(t) : ceill(t);
    case LINX_RM_RMM:
        return roundl(t);
    default:
        return nearbyintl(t); /* host default mode: ties to even */
    }
}

/* Encoding of a representable finite magnitude v >= 0. */
static inline uint64_t ref_encode(long double v, LinxFpFormat f, bool neg)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t s = neg ? 1ull << (r->bits - 1) : 0;
    int p = r->frac_bits + 1;
    int e;

    if (v == 0) {
        return s;
    }
    frexpl(v, &e);
    e -= 1; /* v in [2^e, 2^(e+1)) */
    if (e < ref_emin(f)) {
        uint64_t m = (uint64_t)ldexpl(v, r->frac_bits - ref_emin(f));
        return s | m;
    }
    uint64_t m = (uint64_t)ldexpl(v, p - 1 - e) - (1ull << r->frac_bits);
    return s | ((uint64_t)(e + ref_bias(f)) << r->frac_bits) | m;
}

typedef struct RefResult {
    uint64_t bits;
    uint8_t flags;
} RefResult;

/* Round the exact finite value x to format f (IEEE 754-2019, tininess after
 * rounding, E4M3 overflow to NaN unless saturating). */
static inline RefResult ref_round(long double x, LinxFpFormat f, unsigned rm,
                                  bool saturate)
{
    const RefFormat *r = &ref_formats[f];
    const int p = r->frac_bits + 1;
    const int emin = ref_emin(f);
    bool neg = signbit(x) != 0;
    long double a = fabsl(x);
    RefResult res = { 0, 0 };
    int e;

    if (a == 0) {
        res.bits = ref_encode(0, f, neg);
        return res;
    }
    frexpl(a, &e);
    e -= 1;
    /* Unbounded-exponent rounding decides tininess. */
    long double unb = ldexpl(ref_rint(ldexpl(a, p - 1 - e), rm, neg),
                             e - p + 1);
    bool tiny = unb < ldexpl(1.0L, emin);
    int q = e < emin ? emin : e; /* exponent of the quantum's binade */
    long double rr = ldexpl(ref_rint(ldexpl(a, p - 1 - q), rm, neg),
                            q - p + 1);
    if (rr != a) {
        res.flags |= LINX_FPF_NX;
        if (tiny) {
            res.flags |= LINX_FPF_UF;
        }
    }
    if (rr > ref_max(f)) {
        bool to_inf = rm == LINX_RM_RNE || rm == LINX_RM_RMM ||
                      (rm == LINX_RM_RUP && !neg) ||
                      (rm == LINX_RM_RDN && neg) || rm > LINX_RM_RMM;
        res.flags |= LINX_FPF_OF | LINX_FPF_NX;
        if (!to_inf || saturate) {
            res.bits = ref_encode(ref_max(f), f, neg);
        } else if (!r->has_inf) {
            res.bits = linx_fp_default_nan(f);
        } else {
            res.bits = (neg ? 1ull << (r->bits - 1) : 0) |
                       (((1ull << r->exp_bits) - 1) << r->frac_bits);
        }
        return res;
    }
    res.bits = ref_encode(rr, f, neg);
    return res;
}

/* ---- Random operands ---------------------------------------------------- */

typedef struct RefRng {
    uint64_t s;
} RefRng;

static inline uint64_t ref_rand(RefRng *g)
{
    uint64_t x = g->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    g->s = x;
    return x;
}

/* An encoding of format f: a mix of special values, values near the
 * subnormal/normal boundary and the overflow edge, and random bits. */
static inline uint64_t ref_operand(RefRng *g, LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    const uint64_t sign = 1ull << (r->bits - 1);
    const uint64_t frac_mask = (1ull << r->frac_bits) - 1;
    const uint64_t exp_all = (1ull << r->exp_bits) - 1;
    uint64_t x = ref_rand(g);
    uint64_t s = (x >> 63) ? sign : 0;
    uint64_t fr = ref_rand(g) & frac_mask;
    uint64_t e;

    switch (x % 18) {
    case 0: /* specials */
        switch ((x >> 8) % 10) {
        case 0:
            return s;
        case 1:
            return s | (exp_all << r->frac_bits);              /* inf */
        case 2:
            return s | (exp_all << r->frac_bits) | frac_mask;  /* NaN */
        case 3:
            return s | (exp_all << r->frac_bits) | 1;          /* sNaN */
        case 4:
            return s | ((exp_all - 1) << r->frac_bits) | frac_mask;
        case 5:
            return s | (1ull << r->frac_bits);                 /* min normal */
        case 6:
            return s | 1;                                      /* min sub */
        case 7:
            return s | ((uint64_t)ref_bias(f) << r->frac_bits); /* 1 */
        case 8:
            return s | frac_mask;                              /* max sub */
        default:
            return s | ((uint64_t)ref_bias(f) << r->frac_bits) | fr;
        }
    case 1:
    case 2: /* subnormal */
        return s | fr;
    case 3:
    case 4: /* near the bottom of the normal range */
        e = 1 + (x >> 8) % 4;
        return s | (e << r->frac_bits) | fr;
    case 5: /* near the top */
        e = exp_all - 1 - (x >> 8) % 4;
        return s | (e << r->frac_bits) | fr;
    case 6:
    case 7:
    case 8: /* around 1 */
        e = ref_bias(f) - 4 + (x >> 8) % 8;
        return s | (e << r->frac_bits) | fr;
    case 9: /* few significant bits (exact results, ties) */
        e = 1 + (x >> 8) % (exp_all - 1);
        return s | (e << r->frac_bits) | (fr & ~(frac_mask >> 3));
    case 10: /* a few ulps below or above 1 */
        if ((x >> 8) & 1) {
            return s | ((uint64_t)(ref_bias(f) - 1) << r->frac_bits) |
                   (frac_mask - (x >> 9) % 4);
        }
        return s | ((uint64_t)ref_bias(f) << r->frac_bits) | (x >> 9) % 4;
    case 11: /* a few ulps around the smallest normal */
        if ((x >> 8) & 1) {
            return s | (frac_mask - (x >> 9) % 4);
        }
        return s | (1ull << r->frac_bits) | (x >> 9) % 4;
    default: /* anything */
        return x >> (64 - r->bits);
    }
}

/* An operand close to @a (cancellation in add/sub, ties in fma). */
static inline uint64_t ref_near(RefRng *g, uint64_t a, LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t d = ref_rand(g) % 8;
    uint64_t x = ref_rand(g) & 1 ? a + d : a - d;

    if (ref_rand(g) & 1) {
        x ^= 1ull << (r->bits - 1);
    }
    return r->bits == 64 ? x : x & ((1ull << r->bits) - 1);
}

#endif /* TEST_FPU_REF_H */
