/*
 * Randomized cross-checks of the floating-point library.
 *
 * - Software path against host path (SSE/FMA with MXCSR flag capture) for
 *   FP32/FP64 add, sub, mul, div, sqrt, fma in RNE, RDN, RUP and RTZ, and
 *   the automatic path (RNE shortcut) against both, with and without NX
 *   already set: results and flags must agree bit for bit.
 * - RMM, which x86 lacks: FP32 against the long double reference model
 *   (test-fpu-ref.h); FP64 add/mul against a tie analysis built on
 *   error-free transforms; FP64 div/sqrt (which have no ties) against RNE;
 *   FMA against the RDN/RUP bracket.
 * - FP16 and BF16 arithmetic in all modes against the reference model.
 *
 * Operands come from a biased generator (specials, subnormals, overflow
 * edge, near-equal values).  LINX_FPU_CROSS_ITERS scales the iteration
 * count (default 20000 per format, operation and mode, about 2.5 million
 * operations in all); mismatches are printed, at most a few per check.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fpu/fpu.h"
#include "test-fpu-ref.h"

enum {
    DEFAULT_ITERS = 20000,
    MAX_REPORTS = 8,
    NUM_HOST_RM = 4, /* RNE RDN RUP RTZ */
};

typedef enum CrossOp {
    C_ADD,
    C_SUB,
    C_MUL,
    C_DIV,
    C_SQRT,
    C_FMA,
    C_NUM_OPS,
} CrossOp;

static const char *const cross_names[] = {
    "add", "sub", "mul", "div", "sqrt", "fma",
};

static unsigned iterations(void)
{
    const char *s = getenv("LINX_FPU_CROSS_ITERS");
    unsigned long n = s ? strtoul(s, NULL, 0) : 0;

    return n ? (unsigned)n : DEFAULT_ITERS;
}

static uint64_t do_op(LinxFpEnv *fe, CrossOp op, LinxFpFormat fmt,
                      uint64_t a, uint64_t b, uint64_t c)
{
    switch (op) {
    case C_ADD:
        return linx_fadd(fe, a, b, fmt);
    case C_SUB:
        return linx_fsub(fe, a, b, fmt);
    case C_MUL:
        return linx_fmul(fe, a, b, fmt);
    case C_DIV:
        return linx_fdiv(fe, a, b, fmt);
    case C_SQRT:
        return linx_fsqrt(fe, a, fmt);
    default:
        return linx_fmadd(fe, a, b, c, fmt);
    }
}

typedef struct Outcome {
    uint64_t r;
    uint8_t flags;
} Outcome;

static Outcome run(CrossOp op, LinxFpFormat fmt, unsigned rm, LinxFpImpl impl,
                   uint8_t preset, uint64_t a, uint64_t b, uint64_t c)
{
    LinxFpEnv fe;
    Outcome o;

    linx_fpenv_init(&fe, (LinxFpRound)rm);
    fe.impl = (uint8_t)impl;
    fe.flags = preset;
    o.r = do_op(&fe, op, fmt, a, b, c);
    o.flags = fe.flags;
    return o;
}

/* Operands for one trial: b is often close to a (cancellation), c often
 * close to -a*b (fma cancellation). */
static void operands(RefRng *g, CrossOp op, LinxFpFormat fmt, uint64_t *a,
                     uint64_t *b, uint64_t *c)
{
    *a = ref_operand(g, fmt);
    *b = (ref_rand(g) % 4 == 0) ? ref_near(g, *a, fmt) : ref_operand(g, fmt);
    *c = ref_operand(g, fmt);
    if (op == C_FMA && ref_rand(g) % 3 == 0) {
        LinxFpEnv fe = { .impl = LINX_FP_IMPL_SOFT };
        uint64_t p = linx_fmul(&fe, *a, *b, fmt);
        *c = ref_near(g, linx_fneg(p, fmt), fmt);
    }
}

static int report(int *count, const char *what, CrossOp op, LinxFpFormat fmt,
                  unsigned rm, uint64_t a, uint64_t b, uint64_t c,
                  Outcome got, Outcome want)
{
    if ((*count)++ < MAX_REPORTS) {
        print_message("%s: %s %s rm %u (%#llx, %#llx, %#llx): got %#llx/%#x "
                      "want %#llx/%#x\n", what, linx_fp_format_name(fmt),
                      cross_names[op], rm, (unsigned long long)a,
                      (unsigned long long)b, (unsigned long long)c,
                      (unsigned long long)got.r, got.flags,
                      (unsigned long long)want.r, want.flags);
    }
    return 1;
}

static bool same(Outcome x, Outcome y)
{
    return x.r == y.r && x.flags == y.flags;
}

/* ---- Software path against the host path --------------------------------- */

static bool host_has_fma(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

static void test_soft_vs_host(void **state)
{
    static const LinxFpFormat fmts[] = { LINX_FP64, LINX_FP32 };
    RefRng g = { 0x243f6a8885a308d3ull };
    unsigned n = iterations();
    int bad = 0, reports = 0;

    (void)state;
#if !defined(__x86_64__)
    skip();
#endif
    for (unsigned fi = 0; fi < 2; fi++) {
        LinxFpFormat fmt = fmts[fi];
        for (unsigned op = 0; op < C_NUM_OPS; op++) {
            if (op == C_FMA && !host_has_fma()) {
                continue;
            }
            for (unsigned rm = 0; rm < NUM_HOST_RM; rm++) {
                for (unsigned i = 0; i < n; i++) {
                    uint64_t a, b, c;
                    operands(&g, (CrossOp)op, fmt, &a, &b, &c);
                    Outcome s = run(op, fmt, rm, LINX_FP_IMPL_SOFT, 0, a, b,
                                    c);
                    Outcome h = run(op, fmt, rm, LINX_FP_IMPL_HOST, 0, a, b,
                                    c);
                    Outcome x = run(op, fmt, rm, LINX_FP_IMPL_AUTO, 0, a, b,
                                    c);
                    Outcome y = run(op, fmt, rm, LINX_FP_IMPL_AUTO,
                                    LINX_FPF_NX, a, b, c);
                    Outcome s_nx = { s.r, s.flags | LINX_FPF_NX };
                    if (!same(s, h)) {
                        bad += report(&reports, "soft/host", op, fmt, rm, a,
                                      b, c, s, h);
                    }
                    if (!same(x, s)) {
                        bad += report(&reports, "auto/soft", op, fmt, rm, a,
                                      b, c, x, s);
                    }
                    if (!same(y, s_nx)) {
                        bad += report(&reports, "auto+NX/soft", op, fmt, rm,
                                      a, b, c, y, s_nx);
                    }
                }
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- RMM ------------------------------------------------------------------ */

/* Exact value of a finite encoding as long double (FP32/FP16/BF16/FP64). */
static long double value(uint64_t x, LinxFpFormat fmt)
{
    return ref_decode(x, fmt);
}

static bool finite_bits(uint64_t x, LinxFpFormat fmt)
{
    const RefFormat *r = &ref_formats[fmt];
    uint64_t e = (x >> r->frac_bits) & ((1ull << r->exp_bits) - 1);

    return e != (1ull << r->exp_bits) - 1;
}

/* Exact a op b in long double, or false if not exact (or not finite).
 * Quotients and roots of FP16/BF16 values are not exact, but their long
 * double value is as good: an inexact quotient or root of p-bit numbers
 * lies at least ~2^-(2p+2) (relative) away from every p-bit number and
 * midpoint, far beyond long double's 2^-64. */
static bool exact_result(CrossOp op, LinxFpFormat fmt, uint64_t a, uint64_t b,
                         uint64_t c, long double *out)
{
    if (!finite_bits(a, fmt) || !finite_bits(b, fmt) ||
        !finite_bits(c, fmt)) {
        return false;
    }
    long double x = value(a, fmt), y = value(b, fmt), z = value(c, fmt);
    long double r, p, t;
    bool narrow = fmt == LINX_FP16 || fmt == LINX_BF16;

    switch (op) {
    case C_SUB:
        y = -y;
        /* fall through */
    case C_ADD:
        r = x + y;
        t = r - x; /* TwoSum: is the long double sum exact? */
        if ((x - (r - t)) + (y - t) != 0) {
            return false;
        }
        break;
    case C_MUL:
        if (fmt == LINX_FP64) {
            return false;
        }
        r = x * y; /* <= 48-bit significands: exact */
        break;
    case C_FMA:
        if (!narrow) {
            return false;
        }
        p = x * y;
        r = p + z;
        t = r - p;
        if ((p - (r - t)) + (z - t) != 0) {
            return false;
        }
        break;
    case C_DIV:
        if (!narrow || y == 0) {
            return false;
        }
        r = x / y;
        break;
    case C_SQRT:
        if (!narrow || x < 0) {
            return false;
        }
        r = sqrtl(x);
        break;
    default:
        return false;
    }
    if (!isfinite(r)) {
        return false;
    }
    *out = r;
    return true;
}

/* Reference outcome.  Exact zeros are left to the vector tests (their
 * sign rules) except x - x, which is +0, or -0 in RDN. */
static bool reference(CrossOp op, LinxFpFormat fmt, unsigned rm, uint64_t a,
                      uint64_t b, uint64_t c, Outcome *want)
{
    const uint64_t sign = 1ull << (ref_formats[fmt].bits - 1);
    long double r;

    if (!exact_result(op, fmt, a, b, c, &r)) {
        return false;
    }
    if (r == 0) {
        bool cancel = (op == C_ADD || op == C_SUB) && value(a, fmt) != 0;
        if (!cancel) {
            return false;
        }
        want->r = rm == LINX_RM_RDN ? sign : 0;
        want->flags = 0;
        return true;
    }
    RefResult rr = ref_round(r, fmt, rm, false);
    want->r = rr.bits;
    want->flags = rr.flags;
    return true;
}

static void test_fp32_rmm_reference(void **state)
{
    RefRng g = { 0x13198a2e03707344ull };
    unsigned n = iterations();
    int bad = 0, reports = 0, checked = 0;
    static const CrossOp ops[] = { C_ADD, C_SUB, C_MUL };

    (void)state;
    for (unsigned oi = 0; oi < 3; oi++) {
        for (unsigned i = 0; i < n * 2; i++) {
            uint64_t a, b, c;
            Outcome want;
            operands(&g, ops[oi], LINX_FP32, &a, &b, &c);
            if (!reference(ops[oi], LINX_FP32, LINX_RM_RMM, a, b, c, &want)) {
                continue;
            }
            checked++;
            Outcome got = run(ops[oi], LINX_FP32, LINX_RM_RMM,
                              LINX_FP_IMPL_AUTO, 0, a, b, c);
            if (!same(got, want)) {
                bad += report(&reports, "rmm/ref", ops[oi], LINX_FP32,
                              LINX_RM_RMM, a, b, c, got, want);
            }
        }
    }
    assert_true(checked > (int)n);
    assert_int_equal(bad, 0);
}

static double dbl(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof(d));
    return d;
}

static uint64_t bits_of(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof(x));
    return x;
}

/* RMM from the RNE result s and the exact error err = exact - s. */
static uint64_t rmm_from_rne(double s, double err)
{
    if (err == 0) {
        return bits_of(s);
    }
    int e;
    frexp(s, &e);
    double ulp = ldexp(1.0, e - 53);
    bool toward_zero = signbit(err) != signbit(s);
    bool pow2 = (bits_of(s) & ((1ull << 52) - 1)) == 0;
    double half_gap = (pow2 && toward_zero) ? ulp / 4 : ulp / 2;
    if (fabs(err) == half_gap && !toward_zero) {
        return bits_of(nextafter(s, signbit(s) ? -INFINITY : INFINITY));
    }
    return bits_of(s);
}

static void test_fp64_rmm(void **state)
{
    RefRng g = { 0xa4093822299f31d0ull };
    unsigned n = iterations();
    int bad = 0, reports = 0, checked = 0;

    (void)state;
    for (unsigned op = 0; op < C_NUM_OPS; op++) {
        for (unsigned i = 0; i < n; i++) {
            uint64_t a, b, c;
            operands(&g, (CrossOp)op, LINX_FP64, &a, &b, &c);
            Outcome rne = run(op, LINX_FP64, LINX_RM_RNE, LINX_FP_IMPL_AUTO,
                              0, a, b, c);
            Outcome got = run(op, LINX_FP64, LINX_RM_RMM, LINX_FP_IMPL_AUTO,
                              0, a, b, c);
            double s = dbl(rne.r);
            Outcome want = rne;

            /* Only normal results well above the subnormal range. */
            if (!isfinite(s) || fabs(s) < 0x1p-960 || fabs(s) > 0x1p1020) {
                continue;
            }
            if (op == C_ADD || op == C_SUB) {
                double x = dbl(a);
                double y = op == C_SUB ? -dbl(b) : dbl(b);
                double bb = s - x;
                double err = (x - (s - bb)) + (y - bb);
                want.r = rmm_from_rne(s, err);
            } else if (op == C_MUL) {
                double err = fma(dbl(a), dbl(b), -s);
                want.r = rmm_from_rne(s, err);
            } else if (op == C_FMA) {
                /* No cheap exact reference: RMM lies in [RDN, RUP] and has
                 * RNE's flags. */
                Outcome lo = run(op, LINX_FP64, LINX_RM_RDN,
                                 LINX_FP_IMPL_SOFT, 0, a, b, c);
                Outcome hi = run(op, LINX_FP64, LINX_RM_RUP,
                                 LINX_FP_IMPL_SOFT, 0, a, b, c);
                if (got.r == lo.r || got.r == hi.r) {
                    want.r = got.r;
                }
            }
            /* div and sqrt results cannot be ties: RMM equals RNE. */
            checked++;
            if (!same(got, want)) {
                bad += report(&reports, "rmm64", op, LINX_FP64, LINX_RM_RMM,
                              a, b, c, got, want);
            }
        }
    }
    assert_true(checked > (int)n);
    assert_int_equal(bad, 0);
}

/* ---- FP16 / BF16 arithmetic ----------------------------------------------- */

static void test_half_arith_reference(void **state)
{
    static const LinxFpFormat fmts[] = { LINX_FP16, LINX_BF16 };
    RefRng g = { 0x082efa98ec4e6c89ull };
    unsigned n = iterations();
    int bad = 0, reports = 0, checked = 0;

    (void)state;
    for (unsigned fi = 0; fi < 2; fi++) {
        for (unsigned op = 0; op < C_NUM_OPS; op++) {
            for (unsigned rm = 0; rm <= LINX_RM_RMM; rm++) {
                for (unsigned i = 0; i < n / 2; i++) {
                    uint64_t a, b, c;
                    Outcome want;
                    operands(&g, (CrossOp)op, fmts[fi], &a, &b, &c);
                    if (!reference(op, fmts[fi], rm, a, b, c, &want)) {
                        continue;
                    }
                    checked++;
                    Outcome got = run(op, fmts[fi], rm, LINX_FP_IMPL_AUTO, 0,
                                      a, b, c);
                    if (!same(got, want)) {
                        bad += report(&reports, "half/ref", op, fmts[fi], rm,
                                      a, b, c, got, want);
                    }
                }
            }
        }
    }
    assert_true(checked > (int)n);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soft_vs_host),
        cmocka_unit_test(test_fp32_rmm_reference),
        cmocka_unit_test(test_fp64_rmm),
        cmocka_unit_test(test_half_arith_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
