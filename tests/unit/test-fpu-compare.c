/*
 * Floating-point compare and min/max tests (fpu/fpu-compare.c).
 *
 * - Vectors for FEQ FNE FLT FGE and the signalling FEQS FNES FLTS FGES:
 *   ordered results (a NaN makes every compare 0, FNE included), +0 == -0,
 *   NV for an sNaN (quiet forms) or any NaN (signalling forms).
 * - FMAX/FMIN vectors: IEEE 754-2019 maximumNumber/minimumNumber.
 * - Random FP64/FP32/FP16 operands against the host's C comparisons.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fpu/fpu.h"
#include "test-fpu-ref.h"

enum {
    NV = LINX_FPF_NV,
    RANDOM_ITERS = 200000,
    MAX_REPORTS = 8,
};

/* FP64 constants. */
#define ONE 0x3ff0000000000000ull
#define TWO 0x4000000000000000ull
#define NEG_ONE 0xbff0000000000000ull
#define PZERO 0x0000000000000000ull
#define NZERO 0x8000000000000000ull
#define PINF 0x7ff0000000000000ull
#define NINF 0xfff0000000000000ull
#define QNAN64 0x7ff8000000000000ull
#define NEG_QNAN 0xfff8000000000001ull
#define SNAN64 0x7ff0000000000001ull
#define MIN_SUB 0x0000000000000001ull
#define DN64 0x7ff8000000000000ull

/* Expected results of the eight compares for one operand pair. */
typedef struct CmpVec {
    uint8_t fmt;
    uint64_t a, b;
    uint8_t eq, ne, lt, ge; /* results */
    uint8_t quiet_flags, signal_flags;
} CmpVec;

static const CmpVec cmp_vectors[] = {
    { LINX_FP64, ONE, TWO, 0, 1, 1, 0, 0, 0 },
    { LINX_FP64, TWO, ONE, 0, 1, 0, 1, 0, 0 },
    { LINX_FP64, ONE, ONE, 1, 0, 0, 1, 0, 0 },
    { LINX_FP64, NEG_ONE, ONE, 0, 1, 1, 0, 0, 0 },
    { LINX_FP64, PZERO, NZERO, 1, 0, 0, 1, 0, 0 },
    { LINX_FP64, NZERO, PZERO, 1, 0, 0, 1, 0, 0 },
    { LINX_FP64, NZERO, MIN_SUB, 0, 1, 1, 0, 0, 0 },
    { LINX_FP64, NINF, PINF, 0, 1, 1, 0, 0, 0 },
    { LINX_FP64, PINF, PINF, 1, 0, 0, 1, 0, 0 },
    { LINX_FP64, NINF, 0xffefffffffffffffull, 0, 1, 1, 0, 0, 0 },
    /* NaNs: unordered, every compare is 0. */
    { LINX_FP64, QNAN64, ONE, 0, 0, 0, 0, 0, NV },
    { LINX_FP64, ONE, NEG_QNAN, 0, 0, 0, 0, 0, NV },
    { LINX_FP64, QNAN64, QNAN64, 0, 0, 0, 0, 0, NV },
    { LINX_FP64, SNAN64, ONE, 0, 0, 0, 0, NV, NV },
    { LINX_FP64, QNAN64, SNAN64, 0, 0, 0, 0, NV, NV },
    /* FP32 uses bits 31:0 only. */
    { LINX_FP32, 0xffffffff3f800000ull, 0x3f800000, 1, 0, 0, 1, 0, 0 },
    { LINX_FP32, 0x80000000, 0x00000000, 1, 0, 0, 1, 0, 0 },
    { LINX_FP32, 0xff800000, 0x7f7fffff, 0, 1, 1, 0, 0, 0 },
    { LINX_FP32, 0x7fc00000, 0x3f800000, 0, 0, 0, 0, 0, NV },
    { LINX_FP32, 0x3f800000, 0x7f800001, 0, 0, 0, 0, NV, NV },
    /* Narrow formats. */
    { LINX_FP16, 0x3c00, 0xbc00, 0, 1, 0, 1, 0, 0 },
    { LINX_FP16, 0x7d00, 0x3c00, 0, 0, 0, 0, NV, NV },
    { LINX_BF16, 0x8001, 0x0001, 0, 1, 1, 0, 0, 0 },
    { LINX_FP8_E4M3, 0x7e, 0xfe, 0, 1, 0, 1, 0, 0 },
    { LINX_FP8_E4M3, 0x7f, 0x7e, 0, 0, 0, 0, 0, NV }, /* NaN is quiet */
    { LINX_FP8_E5M2, 0x7c, 0x7b, 0, 1, 0, 1, 0, 0 },
    { LINX_FP8_E5M2, 0x7d, 0x7d, 0, 0, 0, 0, NV, NV },
};

static void test_compare_vectors(void **state)
{
    int bad = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(cmp_vectors) / sizeof(cmp_vectors[0]);
         i++) {
        const CmpVec *v = &cmp_vectors[i];
        LinxFpFormat f = (LinxFpFormat)v->fmt;
        LinxFpEnv q[4], s[4];
        uint64_t rq[4], rs[4];
        for (int k = 0; k < 4; k++) {
            linx_fpenv_init(&q[k], LINX_RM_RNE);
            linx_fpenv_init(&s[k], LINX_RM_RNE);
        }
        rq[0] = linx_feq(&q[0], v->a, v->b, f);
        rq[1] = linx_fne(&q[1], v->a, v->b, f);
        rq[2] = linx_flt(&q[2], v->a, v->b, f);
        rq[3] = linx_fge(&q[3], v->a, v->b, f);
        rs[0] = linx_feqs(&s[0], v->a, v->b, f);
        rs[1] = linx_fnes(&s[1], v->a, v->b, f);
        rs[2] = linx_flts(&s[2], v->a, v->b, f);
        rs[3] = linx_fges(&s[3], v->a, v->b, f);
        const uint8_t want[4] = { v->eq, v->ne, v->lt, v->ge };
        for (int k = 0; k < 4; k++) {
            if (rq[k] != want[k] || rs[k] != want[k] ||
                q[k].flags != v->quiet_flags ||
                s[k].flags != v->signal_flags) {
                print_message("compare %zu (%#llx, %#llx) #%d: quiet %llu/%#x"
                              " signalling %llu/%#x want %u/%#x/%#x\n", i,
                              (unsigned long long)v->a,
                              (unsigned long long)v->b, k,
                              (unsigned long long)rq[k], q[k].flags,
                              (unsigned long long)rs[k], s[k].flags, want[k],
                              v->quiet_flags, v->signal_flags);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

static void test_fcompare_relation(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_init(&fe, LINX_RM_RNE);
    assert_int_equal(linx_fcompare(&fe, ONE, TWO, LINX_FP64, false),
                     LINX_FREL_LESS);
    assert_int_equal(linx_fcompare(&fe, TWO, ONE, LINX_FP64, false),
                     LINX_FREL_GREATER);
    assert_int_equal(linx_fcompare(&fe, NZERO, PZERO, LINX_FP64, true),
                     LINX_FREL_EQUAL);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fcompare(&fe, QNAN64, ONE, LINX_FP64, false),
                     LINX_FREL_UNORDERED);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fcompare(&fe, QNAN64, ONE, LINX_FP64, true),
                     LINX_FREL_UNORDERED);
    assert_int_equal(fe.flags, NV);
    fe.flags = 0;
    assert_int_equal(linx_fcompare(&fe, ONE, ONE, (LinxFpFormat)77, false),
                     LINX_FREL_UNORDERED);
    assert_int_equal(fe.flags, NV);
}

/* ---- FMAX / FMIN ----------------------------------------------------------- */

typedef struct MinMaxVec {
    uint8_t fmt;
    uint64_t a, b;
    uint64_t max, min;
    uint8_t flags;
} MinMaxVec;

static const MinMaxVec minmax_vectors[] = {
    { LINX_FP64, ONE, TWO, TWO, ONE, 0 },
    { LINX_FP64, TWO, NEG_ONE, TWO, NEG_ONE, 0 },
    { LINX_FP64, NINF, PINF, PINF, NINF, 0 },
    /* -0 < +0, whatever the operand order. */
    { LINX_FP64, NZERO, PZERO, PZERO, NZERO, 0 },
    { LINX_FP64, PZERO, NZERO, PZERO, NZERO, 0 },
    { LINX_FP64, NZERO, NZERO, NZERO, NZERO, 0 },
    /* A NaN loses to a number; quiet NaN raises nothing. */
    { LINX_FP64, QNAN64, ONE, ONE, ONE, 0 },
    { LINX_FP64, NEG_ONE, NEG_QNAN, NEG_ONE, NEG_ONE, 0 },
    /* 2019 maximumNumber: an sNaN also loses, with NV. */
    { LINX_FP64, SNAN64, ONE, ONE, ONE, NV },
    { LINX_FP64, TWO, SNAN64, TWO, TWO, NV },
    /* Both NaN: the default NaN. */
    { LINX_FP64, QNAN64, NEG_QNAN, DN64, DN64, 0 },
    { LINX_FP64, SNAN64, QNAN64, DN64, DN64, NV },
    /* Numbers come back unchanged (subnormals too). */
    { LINX_FP64, MIN_SUB, NZERO, MIN_SUB, NZERO, 0 },
    { LINX_FP32, 0xdeadbeef3f800000ull, 0x40000000, 0x40000000, 0x3f800000,
      0 },
    { LINX_FP32, 0x80000000, 0x00000000, 0x00000000, 0x80000000, 0 },
    { LINX_FP32, 0x7fc00000, 0xc0000000, 0xc0000000, 0xc0000000, 0 },
    { LINX_FP32, 0xff800001, 0x7fc00000, 0x7fc00000, 0x7fc00000, NV },
    { LINX_FP16, 0xfc00, 0x7bff, 0x7bff, 0xfc00, 0 },
    { LINX_BF16, 0x7f81, 0x3f80, 0x3f80, 0x3f80, NV },
    { LINX_FP8_E4M3, 0xff, 0x7e, 0x7e, 0x7e, 0 },
    { LINX_FP8_E4M3, 0xff, 0x7f, 0x7f, 0x7f, 0 },
};

static void test_minmax_vectors(void **state)
{
    int bad = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(minmax_vectors) / sizeof(minmax_vectors[0]);
         i++) {
        const MinMaxVec *v = &minmax_vectors[i];
        LinxFpEnv fmax_env, fmin_env;
        linx_fpenv_init(&fmax_env, LINX_RM_RNE);
        linx_fpenv_init(&fmin_env, LINX_RM_RNE);
        uint64_t mx = linx_fmax(&fmax_env, v->a, v->b, v->fmt);
        uint64_t mn = linx_fmin(&fmin_env, v->a, v->b, v->fmt);
        if (mx != v->max || mn != v->min || fmax_env.flags != v->flags ||
            fmin_env.flags != v->flags) {
            print_message("minmax %zu (%#llx, %#llx): max %#llx/%#x min "
                          "%#llx/%#x want %#llx %#llx /%#x\n", i,
                          (unsigned long long)v->a, (unsigned long long)v->b,
                          (unsigned long long)mx, fmax_env.flags,
                          (unsigned long long)mn, fmin_env.flags,
                          (unsigned long long)v->max,
                          (unsigned long long)v->min, v->flags);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- Random operands against the host -------------------------------------- */

static bool is_nan_bits(uint64_t x, LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t e = (x >> r->frac_bits) & ((1ull << r->exp_bits) - 1);

    return e == (1ull << r->exp_bits) - 1 &&
           (x & ((1ull << r->frac_bits) - 1)) != 0;
}

static bool is_snan_bits(uint64_t x, LinxFpFormat f)
{
    return is_nan_bits(x, f) &&
           !((x >> (ref_formats[f].frac_bits - 1)) & 1);
}

static long double val(uint64_t x, LinxFpFormat f)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t e = (x >> r->frac_bits) & ((1ull << r->exp_bits) - 1);

    if (e == (1ull << r->exp_bits) - 1) {
        return (x >> (r->bits - 1)) & 1 ? -INFINITY : INFINITY;
    }
    return ref_decode(x, f);
}

static void test_random_against_host(void **state)
{
    static const LinxFpFormat fmts[] = { LINX_FP64, LINX_FP32, LINX_FP16 };
    RefRng g = { 0x6a09e667f3bcc908ull };
    int bad = 0;

    (void)state;
    for (unsigned i = 0; i < RANDOM_ITERS; i++) {
        LinxFpFormat f = fmts[i % 3];
        uint64_t a = ref_operand(&g, f);
        uint64_t b = ref_rand(&g) % 4 ? ref_operand(&g, f)
                                      : ref_near(&g, a, f);
        bool nan = is_nan_bits(a, f) || is_nan_bits(b, f);
        bool snan = is_snan_bits(a, f) || is_snan_bits(b, f);
        long double x = nan ? 0 : val(a, f), y = nan ? 0 : val(b, f);
        LinxFpEnv q, s, m;
        linx_fpenv_init(&q, LINX_RM_RNE);
        linx_fpenv_init(&s, LINX_RM_RNE);
        linx_fpenv_init(&m, LINX_RM_RNE);

        uint64_t lt = linx_flt(&q, a, b, f);
        uint64_t ge = linx_fges(&s, a, b, f);
        uint64_t eq = linx_feq(&q, a, b, f);
        uint64_t ne = linx_fne(&q, a, b, f);
        bool ok = lt == (!nan && x < y) && ge == (!nan && x >= y) &&
                  eq == (!nan && x == y) && ne == (!nan && x != y) &&
                  q.flags == (snan ? NV : 0) && s.flags == (nan ? NV : 0);

        /* maximumNumber: the larger number; -0 < +0; NaNs lose. */
        uint64_t mx = linx_fmax(&m, a, b, f);
        uint64_t want;
        if (is_nan_bits(a, f) && is_nan_bits(b, f)) {
            want = linx_fp_default_nan(f);
        } else if (is_nan_bits(a, f)) {
            want = b;
        } else if (is_nan_bits(b, f)) {
            want = a;
        } else if (x == y) {
            want = signbit(x) ? b : a;
        } else {
            want = x > y ? a : b;
        }
        ok = ok && mx == want && m.flags == (snan ? NV : 0);
        if (!ok && bad++ < MAX_REPORTS) {
            print_message("%s (%#llx, %#llx): lt %llu ge %llu eq %llu ne %llu"
                          " flags %#x/%#x max %#llx/%#x (want %#llx)\n",
                          linx_fp_format_name(f), (unsigned long long)a,
                          (unsigned long long)b, (unsigned long long)lt,
                          (unsigned long long)ge, (unsigned long long)eq,
                          (unsigned long long)ne, q.flags, s.flags,
                          (unsigned long long)mx, m.flags,
                          (unsigned long long)want);
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_vectors),
        cmocka_unit_test(test_fcompare_relation),
        cmocka_unit_test(test_minmax_vectors),
        cmocka_unit_test(test_random_against_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
