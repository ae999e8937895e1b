/*
 * FEXP tests (fpu/fpu-exp.c).
 *
 * - FP64 vectors in all five modes, from a 80-digit decimal evaluation of
 *   e^x (Python decimal), including overflow and subnormal results.
 * - Special values: e^0 = 1 exactly, e^-inf = +0, e^+inf = +inf, NaNs.
 * - FP16 and BF16 exhaustively, FP32 on a stride and FP64 at random, in
 *   every mode, against the host's expl() (64-bit precision) rounded by the
 *   reference model; inputs whose e^x lies within 2^-60 of a rounding
 *   boundary are skipped, since expl cannot decide them.
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
    NX = LINX_FPF_NX,
    UF = LINX_FPF_UF,
    OF = LINX_FPF_OF,
    NV = LINX_FPF_NV,
    NUM_RM = 5,
    FP32_STRIDE = 9973,
    FP64_RANDOM = 20000,
    MAX_REPORTS = 8,
};

#define ALL5(x) { x, x, x, x, x }

typedef struct ExpVec {
    uint64_t x;
    uint64_t r[NUM_RM];
    uint8_t f[NUM_RM];
} ExpVec;

static const ExpVec exp64_vectors[] = {
    { 0x3ff0000000000000ull, /* 1 */
      { 0x4005bf0a8b145769ull, 0x4005bf0a8b145769ull, 0x4005bf0a8b14576aull,
        0x4005bf0a8b145769ull, 0x4005bf0a8b145769ull }, ALL5(NX) },
    { 0xbff0000000000000ull, /* -1 */
      { 0x3fd78b56362cef38ull, 0x3fd78b56362cef37ull, 0x3fd78b56362cef38ull,
        0x3fd78b56362cef37ull, 0x3fd78b56362cef38ull }, ALL5(NX) },
    { 0x3fe0000000000000ull, /* 0.5 */
      { 0x3ffa61298e1e069cull, 0x3ffa61298e1e069bull, 0x3ffa61298e1e069cull,
        0x3ffa61298e1e069bull, 0x3ffa61298e1e069cull }, ALL5(NX) },
    { 0x4024000000000000ull, /* 10 */
      { 0x40d5829dcf950560ull, 0x40d5829dcf95055full, 0x40d5829dcf950560ull,
        0x40d5829dcf95055full, 0x40d5829dcf950560ull }, ALL5(NX) },
    { 0xc024000000000000ull, /* -10 */
      { 0x3f07cd79b5647c9bull, 0x3f07cd79b5647c9aull, 0x3f07cd79b5647c9bull,
        0x3f07cd79b5647c9aull, 0x3f07cd79b5647c9bull }, ALL5(NX) },
    { 0x3f50624dd2f1a9fcull, /* 0.001 */
      { 0x3ff0041919b7ee34ull, 0x3ff0041919b7ee33ull, 0x3ff0041919b7ee34ull,
        0x3ff0041919b7ee33ull, 0x3ff0041919b7ee34ull }, ALL5(NX) },
    { 0xbf50624dd2f1a9fcull, /* -0.001 */
      { 0x3feff7cfe56f1a9eull, 0x3feff7cfe56f1a9dull, 0x3feff7cfe56f1a9eull,
        0x3feff7cfe56f1a9dull, 0x3feff7cfe56f1a9eull }, ALL5(NX) },
    { 0x3ddb7cdfd9d7bdbbull, /* 1e-10 */
      { 0x3ff000000006df38ull, 0x3ff000000006df37ull, 0x3ff000000006df38ull,
        0x3ff000000006df37ull, 0x3ff000000006df38ull }, ALL5(NX) },
    { 0x3e10000000000000ull, /* 2^-30 */
      { 0x3ff0000000400000ull, 0x3ff0000000400000ull, 0x3ff0000000400001ull,
        0x3ff0000000400000ull, 0x3ff0000000400000ull }, ALL5(NX) },
    { 0x4059000000000000ull, /* 100 */
      { 0x48f3494a9b171bf5ull, 0x48f3494a9b171bf4ull, 0x48f3494a9b171bf5ull,
        0x48f3494a9b171bf4ull, 0x48f3494a9b171bf5ull }, ALL5(NX) },
    { 0xc059000000000000ull, /* -100 */
      { 0x36ea8c1f14e2af5dull, 0x36ea8c1f14e2af5cull, 0x36ea8c1f14e2af5dull,
        0x36ea8c1f14e2af5cull, 0x36ea8c1f14e2af5dull }, ALL5(NX) },
    { 0x4086280000000000ull, /* 709 */
      { 0x7fdd422d2be5dc9bull, 0x7fdd422d2be5dc9aull, 0x7fdd422d2be5dc9bull,
        0x7fdd422d2be5dc9aull, 0x7fdd422d2be5dc9bull }, ALL5(NX) },
    { 0xc085e00000000000ull, /* -700 */
      { 0x00d14f2b0fb9307full, 0x00d14f2b0fb9307full, 0x00d14f2b0fb93080ull,
        0x00d14f2b0fb9307full, 0x00d14f2b0fb9307full }, ALL5(NX) },
    { 0xc086240000000000ull, /* -708.5: subnormal */
      { 0x000e6cf6d08897acull, 0x000e6cf6d08897abull, 0x000e6cf6d08897acull,
        0x000e6cf6d08897abull, 0x000e6cf6d08897acull }, ALL5(UF | NX) },
    { 0xc087480000000000ull, /* -745 */
      { 1, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { 0xc087440000000000ull, /* -744.5 */
      { 1, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { 0xc08f400000000000ull, /* -1000 */
      { 0, 0, 1, 0, 0 }, ALL5(UF | NX) },
    { 0x4086300000000000ull, /* 710: overflow */
      { 0x7ff0000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
        0x7fefffffffffffffull, 0x7ff0000000000000ull }, ALL5(OF | NX) },
    { 0x7fefffffffffffffull, /* max */
      { 0x7ff0000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
        0x7fefffffffffffffull, 0x7ff0000000000000ull }, ALL5(OF | NX) },
    { 0xffefffffffffffffull, /* -max */
      { 0, 0, 1, 0, 0 }, ALL5(UF | NX) },
    /* Specials. */
    { 0, ALL5(0x3ff0000000000000ull), ALL5(0) },
    { 0x8000000000000000ull, ALL5(0x3ff0000000000000ull), ALL5(0) },
    { 0x7ff0000000000000ull, ALL5(0x7ff0000000000000ull), ALL5(0) },
    { 0xfff0000000000000ull, ALL5(0), ALL5(0) },
    { 0xfff8000000000000ull, ALL5(0x7ff8000000000000ull), ALL5(0) },
    { 0x7ff0000000000001ull, ALL5(0x7ff8000000000000ull), ALL5(NV) },
};

static void test_exp64_vectors(void **state)
{
    int bad = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(exp64_vectors) / sizeof(exp64_vectors[0]);
         i++) {
        const ExpVec *v = &exp64_vectors[i];
        for (unsigned rm = 0; rm < NUM_RM; rm++) {
            LinxFpEnv fe;
            linx_fpenv_init(&fe, (LinxFpRound)rm);
            uint64_t r = linx_fexp(&fe, v->x, LINX_FP64);
            if (r != v->r[rm] || fe.flags != v->f[rm]) {
                print_message("exp(%#llx) rm %u: got %#llx/%#x want "
                              "%#llx/%#x\n", (unsigned long long)v->x, rm,
                              (unsigned long long)r, fe.flags,
                              (unsigned long long)v->r[rm], v->f[rm]);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

static void test_exp_specials(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_init(&fe, LINX_RM_RNE);
    assert_int_equal(linx_fexp(&fe, 0x80000000, LINX_FP32), 0x3f800000);
    assert_int_equal(linx_fexp(&fe, 0x0000, LINX_FP16), 0x3c00);
    assert_int_equal(linx_fexp(&fe, 0x00, LINX_FP8_E4M3), 0x38);
    assert_int_equal(linx_fexp(&fe, 0xff800000, LINX_FP32), 0);
    assert_int_equal(linx_fexp(&fe, 0x7c00, LINX_FP16), 0x7c00);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fexp(&fe, 0x7fa00000, LINX_FP32), 0x7fc00000);
    assert_int_equal(fe.flags, NV);
    fe.flags = 0;
    /* E4M3: e^8 = 2981 overflows to NaN; saturating gives 448. */
    assert_int_equal(linx_fexp(&fe, 0x50, LINX_FP8_E4M3), 0x7f);
    assert_int_equal(fe.flags, OF | NX);
    fe.fp8_saturate = true;
    assert_int_equal(linx_fexp(&fe, 0x50, LINX_FP8_E4M3), 0x7e);
    /* Garbage above bit 31 is ignored. */
    fe.flags = 0;
    assert_int_equal(linx_fexp(&fe, 0xffffffff00000000ull, LINX_FP32),
                     0x3f800000);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fexp(&fe, 0, (LinxFpFormat)12), 0);
    assert_int_equal(fe.flags, NV);

    /* e^x for |x| below an ulp: 1 or its neighbour, as the mode says. */
    static const uint64_t up[NUM_RM] = {
        0x3f800000, 0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000,
    };
    static const uint64_t down[NUM_RM] = {
        0x3f800000, 0x3f7fffff, 0x3f800000, 0x3f7fffff, 0x3f800000,
    };
    for (unsigned rm = 0; rm < NUM_RM; rm++) {
        linx_fpenv_init(&fe, (LinxFpRound)rm);
        assert_int_equal(linx_fexp(&fe, 0x1c800000, LINX_FP32), up[rm]);
        assert_int_equal(linx_fexp(&fe, 0x9c800000, LINX_FP32), down[rm]);
        assert_int_equal(linx_fexp(&fe, 0x00000001, LINX_FP32), up[rm]);
        assert_int_equal(fe.flags, NX);
    }
}

/* ---- Against expl ------------------------------------------------------- */

/* Check exp(a) in format f and mode rm against expl; returns 1 on a
 * mismatch, 0 on a match or an undecidable case. */
static int check_exp(uint64_t a, LinxFpFormat f, unsigned rm, int *reports,
                     int *checked)
{
    const RefFormat *r = &ref_formats[f];
    uint64_t e = (a >> r->frac_bits) & ((1ull << r->exp_bits) - 1);

    if (e == (1ull << r->exp_bits) - 1 ||
        (a & ((1ull << (r->bits - 1)) - 1)) == 0) {
        return 0; /* specials are in the vector tests */
    }
    long double x = ref_decode(a, f);
    long double y = expl(x);
    if (!isfinite(y) || y == 0) {
        return 0;
    }
    const long double eps = 0x1p-60L;
    RefResult want = ref_round(y, f, rm, false);
    RefResult lo = ref_round(y * (1 - eps), f, rm, false);
    RefResult hi = ref_round(y * (1 + eps), f, rm, false);
    if (lo.bits != want.bits || hi.bits != want.bits ||
        lo.flags != want.flags || hi.flags != want.flags) {
        return 0; /* too close to a boundary for a 64-bit reference */
    }
    want.flags |= NX; /* e^x of a nonzero number is never exact */
    (*checked)++;

    LinxFpEnv fe;
    linx_fpenv_init(&fe, (LinxFpRound)rm);
    uint64_t got = linx_fexp(&fe, a, f);
    if (got == want.bits && fe.flags == want.flags) {
        return 0;
    }
    if ((*reports)++ < MAX_REPORTS) {
        print_message("exp %s %#llx rm %u: got %#llx/%#x want %#llx/%#x\n",
                      linx_fp_format_name(f), (unsigned long long)a, rm,
                      (unsigned long long)got, fe.flags,
                      (unsigned long long)want.bits, want.flags);
    }
    return 1;
}

static void test_exp_half_exhaustive(void **state)
{
    static const LinxFpFormat fmts[] = { LINX_FP16, LINX_BF16 };
    int bad = 0, reports = 0, checked = 0;

    (void)state;
    for (unsigned fi = 0; fi < 2; fi++) {
        for (uint64_t a = 0; a < 0x10000; a++) {
            for (unsigned rm = 0; rm < NUM_RM; rm++) {
                bad += check_exp(a, fmts[fi], rm, &reports, &checked);
            }
        }
    }
    assert_true(checked > 2 * 5 * 30000);
    assert_int_equal(bad, 0);
}

static void test_exp_fp32_stride(void **state)
{
    int bad = 0, reports = 0, checked = 0;
    unsigned rm = 0;

    (void)state;
    for (uint64_t a = 0; a < 0x43000000; a += FP32_STRIDE) {
        bad += check_exp(a, LINX_FP32, rm, &reports, &checked);
        bad += check_exp(a | 0x80000000u, LINX_FP32, (rm + 1) % NUM_RM,
                         &reports, &checked);
        rm = (rm + 2) % NUM_RM;
    }
    assert_true(checked > 100000);
    assert_int_equal(bad, 0);
}

static void test_exp_fp64_random(void **state)
{
    RefRng g = { 0xbb67ae8584caa73bull };
    int bad = 0, reports = 0, checked = 0;

    (void)state;
    for (unsigned i = 0; i < FP64_RANDOM; i++) {
        /* |x| from 2^-60 to 2^10, uniform in the exponent. */
        uint64_t ex = 1023 - 60 + ref_rand(&g) % 71;
        uint64_t a = (ex << 52) | (ref_rand(&g) >> 12) |
                     (ref_rand(&g) & (1ull << 63));
        bad += check_exp(a, LINX_FP64, (unsigned)(i % NUM_RM), &reports,
                         &checked);
    }
    assert_true(checked > FP64_RANDOM / 2);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exp64_vectors),
        cmocka_unit_test(test_exp_specials),
        cmocka_unit_test(test_exp_half_exhaustive),
        cmocka_unit_test(test_exp_fp32_stride),
        cmocka_unit_test(test_exp_fp64_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
