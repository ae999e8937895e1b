/*
 * Floating-point conversion tests (fpu/fpu-convert.c).
 *
 * - Known vectors for float->float, float->int (saturation, NV, NX, -0.0,
 *   RMM ties) and int->float in all rounding modes.
 * - Exhaustive decoding of FP16, BF16, E4M3 and E5M2 against an
 *   independent decoder, and of FP16 against the host's F16C unit.
 * - FP32 -> FP16/BF16/E4M3/E5M2 in every mode against the long double
 *   reference model (test-fpu-ref.h), over every code's neighbourhood
 *   (value, midpoints, one ulp either side) and random FP32 values; FP32
 *   -> FP16 also against F16C (VCVTPS2PH with MXCSR flags).
 * - Random float->int and int->float against the reference model.
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
    NX = LINX_FPF_NX,
    UF = LINX_FPF_UF,
    OF = LINX_FPF_OF,
    DZ = LINX_FPF_DZ,
    NV = LINX_FPF_NV,
    NUM_RM = 5,
    RANDOM_ITERS = 100000,
    MAX_REPORTS = 8,
};

#define ALL5(x) { x, x, x, x, x }

static uint32_t f32_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof(x));
    return x;
}

static float f32_from(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof(f));
    return f;
}

/* ---- Float to float vectors ---------------------------------------------- */

typedef struct CvtVec {
    uint8_t from, to;
    uint64_t a;
    uint64_t r[NUM_RM];
    uint8_t f[NUM_RM];
} CvtVec;

static const CvtVec f2f_vectors[] = {
    /* FP64 -> FP32 (vectors from the exact rational model) */
    { LINX_FP64, LINX_FP32, 0x3fb999999999999aull,
      { 0x3dcccccd, 0x3dcccccc, 0x3dcccccd, 0x3dcccccc, 0x3dcccccd },
      ALL5(NX) },
    { LINX_FP64, LINX_FP32, 0xbfb999999999999aull,
      { 0xbdcccccd, 0xbdcccccd, 0xbdcccccc, 0xbdcccccc, 0xbdcccccd },
      ALL5(NX) },
    { LINX_FP64, LINX_FP32, 0x7e37e43c8800759cull, /* 1e300 */
      { 0x7f800000, 0x7f7fffff, 0x7f800000, 0x7f7fffff, 0x7f800000 },
      ALL5(OF | NX) },
    { LINX_FP64, LINX_FP32, 0x47efffffe0000000ull, /* FP32 max: exact */
      ALL5(0x7f7fffff), ALL5(0) },
    { LINX_FP64, LINX_FP32, 0x47effffff0000000ull, /* max + ulp/2 */
      { 0x7f800000, 0x7f7fffff, 0x7f800000, 0x7f7fffff, 0x7f800000 },
      { OF | NX, NX, OF | NX, NX, OF | NX } },
    { LINX_FP64, LINX_FP32, 0x358dee7a4ad4b81full, /* 1e-50 */
      { 0, 0, 1, 0, 0 }, ALL5(UF | NX) },
    { LINX_FP64, LINX_FP32, 0x3690000000000000ull, /* 2^-150: a tie */
      { 0, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { LINX_FP64, LINX_FP32, 0x36a8000000000000ull, /* 1.5 * 2^-149 */
      { 2, 1, 2, 1, 2 }, ALL5(UF | NX) },
    { LINX_FP64, LINX_FP32, 0x36a0000000000000ull, /* 2^-149 exact */
      ALL5(1), ALL5(0) },
    { LINX_FP64, LINX_FP32, 0x8000000000000000ull, ALL5(0x80000000),
      ALL5(0) },
    { LINX_FP64, LINX_FP32, 0xfff0000000000000ull, ALL5(0xff800000),
      ALL5(0) },
    { LINX_FP64, LINX_FP32, 0xfff8000000000001ull, ALL5(0x7fc00000),
      ALL5(0) },
    { LINX_FP64, LINX_FP32, 0x7ff0000000000001ull, ALL5(0x7fc00000),
      ALL5(NV) },
    /* FP32 -> FP64 is exact; NaNs become the default NaN. */
    { LINX_FP32, LINX_FP64, 0x00000001, ALL5(0x36a0000000000000ull),
      ALL5(0) },
    { LINX_FP32, LINX_FP64, 0xff7fffff, ALL5(0xc7efffffe0000000ull),
      ALL5(0) },
    { LINX_FP32, LINX_FP64, 0x7fa00000, ALL5(0x7ff8000000000000ull),
      ALL5(NV) },
    { LINX_FP32, LINX_FP64, 0xffc00001, ALL5(0x7ff8000000000000ull),
      ALL5(0) },
    { LINX_FP32, LINX_FP64, 0x123456783f800000ull,
      ALL5(0x3ff0000000000000ull), ALL5(0) },
    /* FP32 -> FP16 */
    { LINX_FP32, LINX_FP16, 0x3dcccccd,
      { 0x2e66, 0x2e66, 0x2e67, 0x2e66, 0x2e66 }, ALL5(NX) },
    { LINX_FP32, LINX_FP16, 0x477ff000, /* 65520 */
      { 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0x7c00 },
      { OF | NX, NX, OF | NX, NX, OF | NX } },
    { LINX_FP32, LINX_FP16, 0x477fef00, /* 65519 */
      { 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0x7bff },
      { NX, NX, OF | NX, NX, NX } },
    { LINX_FP32, LINX_FP16, 0x33000000, /* 2^-25: half the min subnormal */
      { 0, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { LINX_FP32, LINX_FP16, 0x33400000, /* 1.5 * 2^-25 */
      { 1, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { LINX_FP32, LINX_FP16, 0x38800000, /* 2^-14 exact */
      ALL5(0x0400), ALL5(0) },
    { LINX_FP32, LINX_FP16, 0x7f800000, ALL5(0x7c00), ALL5(0) },
    { LINX_FP32, LINX_FP16, 0x7f800001, ALL5(0x7e00), ALL5(NV) },
    /* FP32 -> BF16 */
    { LINX_FP32, LINX_BF16, 0x3dcccccd,
      { 0x3dcd, 0x3dcc, 0x3dcd, 0x3dcc, 0x3dcd }, ALL5(NX) },
    { LINX_FP32, LINX_BF16, 0x7f7fffff,
      { 0x7f80, 0x7f7f, 0x7f80, 0x7f7f, 0x7f80 },
      { OF | NX, NX, OF | NX, NX, OF | NX } },
    { LINX_FP32, LINX_BF16, 0x3f808000, /* 1 + 2^-8: a tie */
      { 0x3f80, 0x3f80, 0x3f81, 0x3f80, 0x3f81 }, ALL5(NX) },
    { LINX_FP32, LINX_BF16, 0x00000001, /* subnormals are kept */
      { 0, 0, 1, 0, 0 }, ALL5(UF | NX) },
    { LINX_FP32, LINX_BF16, 0x00010000, ALL5(0x0001), ALL5(0) },
    { LINX_FP32, LINX_BF16, 0xffc00000, ALL5(0x7fc0), ALL5(0) },
    /* BF16/FP16 -> FP32 is exact. */
    { LINX_BF16, LINX_FP32, 0x0001, ALL5(0x00010000), ALL5(0) },
    { LINX_FP16, LINX_FP32, 0x0001, ALL5(0x33800000), ALL5(0) },
    { LINX_FP16, LINX_FP32, 0xfbff, ALL5(0xc77fe000), ALL5(0) },
    { LINX_FP16, LINX_BF16, 0x3555, /* 1/3 in FP16 to 8 bits */
      { 0x3eab, 0x3eaa, 0x3eab, 0x3eaa, 0x3eab }, ALL5(NX) },
    /* FP8: E4M3 has no infinity; overflow and infinity become NaN. */
    { LINX_FP32, LINX_FP8_E4M3, 0x43e00000, /* 448 = max */
      ALL5(0x7e), ALL5(0) },
    { LINX_FP32, LINX_FP8_E4M3, 0x43e80000, /* 464: tie, even is 448 */
      { 0x7e, 0x7e, 0x7f, 0x7e, 0x7f },
      { NX, NX, OF | NX, NX, OF | NX } },
    { LINX_FP32, LINX_FP8_E4M3, 0x447a0000, /* 1000 */
      { 0x7f, 0x7e, 0x7f, 0x7e, 0x7f }, ALL5(OF | NX) },
    { LINX_FP32, LINX_FP8_E4M3, 0xc47a0000, /* -1000 */
      { 0x7f, 0x7f, 0xfe, 0xfe, 0x7f }, ALL5(OF | NX) },
    { LINX_FP32, LINX_FP8_E4M3, 0x7f800000, ALL5(0x7f), ALL5(NV) },
    { LINX_FP32, LINX_FP8_E4M3, 0x3b000000, /* 2^-9: min subnormal */
      ALL5(0x01), ALL5(0) },
    { LINX_FP32, LINX_FP8_E4M3, 0x3a800000, /* 2^-10: a tie at zero */
      { 0, 0, 1, 0, 1 }, ALL5(UF | NX) },
    { LINX_FP32, LINX_FP8_E4M3, 0x3f900000, /* 1.125 */
      ALL5(0x39), ALL5(0) },
    { LINX_FP32, LINX_FP8_E4M3, 0x3f980000, /* 1.1875: tie 1.125/1.25 */
      { 0x3a, 0x39, 0x3a, 0x39, 0x3a }, ALL5(NX) },
    /* E5M2 is IEEE-like: max 57344, infinity 0x7c. */
    { LINX_FP32, LINX_FP8_E5M2, 0x47600000, ALL5(0x7b), ALL5(0) },
    { LINX_FP32, LINX_FP8_E5M2, 0x47800000, /* 65536 */
      { 0x7c, 0x7b, 0x7c, 0x7b, 0x7c }, ALL5(OF | NX) },
    { LINX_FP32, LINX_FP8_E5M2, 0x37800000, /* 2^-16: min subnormal */
      ALL5(0x01), ALL5(0) },
    { LINX_FP32, LINX_FP8_E5M2, 0xff800000, ALL5(0xfc), ALL5(0) },
    { LINX_FP32, LINX_FP8_E5M2, 0x7fc00000, ALL5(0x7e), ALL5(0) },
    /* FP8 -> wider is exact. */
    { LINX_FP8_E4M3, LINX_FP32, 0x7e, ALL5(0x43e00000), ALL5(0) },
    { LINX_FP8_E4M3, LINX_FP32, 0xff, ALL5(0x7fc00000), ALL5(0) },
    { LINX_FP8_E4M3, LINX_FP32, 0x78, ALL5(0x43800000), ALL5(0) },
    { LINX_FP8_E5M2, LINX_FP16, 0x7d, ALL5(0x7e00), ALL5(NV) },
    { LINX_FP8_E5M2, LINX_FP16, 0x01, ALL5(0x0100), ALL5(0) },
    { LINX_FP8_E5M2, LINX_FP32, 0xfc, ALL5(0xff800000), ALL5(0) },
};

static void test_f2f_vectors(void **state)
{
    int bad = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(f2f_vectors) / sizeof(f2f_vectors[0]);
         i++) {
        const CvtVec *v = &f2f_vectors[i];
        for (unsigned rm = 0; rm < NUM_RM; rm++) {
            LinxFpEnv fe;
            linx_fpenv_init(&fe, (LinxFpRound)rm);
            uint64_t r = linx_fcvt_f2f(&fe, v->a, v->from, v->to);
            if (r != v->r[rm] || fe.flags != v->f[rm]) {
                print_message("f2f %zu %s->%s %#llx rm %u: got %#llx/%#x "
                              "want %#llx/%#x\n", i,
                              linx_fp_format_name(v->from),
                              linx_fp_format_name(v->to),
                              (unsigned long long)v->a, rm,
                              (unsigned long long)r, fe.flags,
                              (unsigned long long)v->r[rm], v->f[rm]);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* FP8 saturation: overflow and infinity give +-max, NaN stays NaN. */
static void test_fp8_saturate(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_init(&fe, LINX_RM_RNE);
    fe.fp8_saturate = true;
    assert_int_equal(linx_fcvt_f2f(&fe, 0x447a0000, LINX_FP32,
                                   LINX_FP8_E4M3), 0x7e);
    assert_int_equal(fe.flags, OF | NX);
    fe.flags = 0;
    assert_int_equal(linx_fcvt_f2f(&fe, 0xff800000, LINX_FP32,
                                   LINX_FP8_E4M3), 0xfe);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fcvt_f2f(&fe, 0x7f800000, LINX_FP32,
                                   LINX_FP8_E5M2), 0x7b);
    assert_int_equal(linx_fcvt_f2f(&fe, 0xc7800000, LINX_FP32,
                                   LINX_FP8_E5M2), 0xfb);
    fe.flags = 0;
    assert_int_equal(linx_fcvt_f2f(&fe, 0x7fc00000, LINX_FP32,
                                   LINX_FP8_E4M3), 0x7f);
    assert_int_equal(fe.flags, 0);
    /* Saturation applies to FP8 only. */
    assert_int_equal(linx_fcvt_f2f(&fe, 0x7f800000, LINX_FP32, LINX_FP16),
                     0x7c00);
}

/* ---- Exhaustive decoding -------------------------------------------------- */

static void test_decode_exhaustive(void **state)
{
    static const LinxFpFormat fmts[] = {
        LINX_FP16, LINX_BF16, LINX_FP8_E4M3, LINX_FP8_E5M2,
    };
    int bad = 0;

    (void)state;
    for (unsigned fi = 0; fi < 4; fi++) {
        LinxFpFormat f = fmts[fi];
        const RefFormat *r = &ref_formats[f];
        for (uint64_t x = 0; x < (1ull << r->bits); x++) {
            LinxFpEnv fe = { 0 };
            uint64_t got = linx_fcvt_f2f(&fe, x, f, LINX_FP64);
            uint64_t e = (x >> r->frac_bits) & ((1u << r->exp_bits) - 1);
            uint64_t fr = x & ((1u << r->frac_bits) - 1);
            bool top = e == (1u << r->exp_bits) - 1;
            uint64_t want;
            uint8_t wflags = 0;
            if (top && r->has_inf && fr != 0) {
                want = 0x7ff8000000000000ull;
                wflags = (fr >> (r->frac_bits - 1)) ? 0 : NV;
            } else if (top && !r->has_inf && fr == (1u << r->frac_bits) - 1) {
                want = 0x7ff8000000000000ull;
            } else if (top && r->has_inf) {
                want = (x >> (r->bits - 1)) ? 0xfff0000000000000ull
                                            : 0x7ff0000000000000ull;
            } else {
                double d = (double)ref_decode(x, f);
                memcpy(&want, &d, sizeof(want));
            }
            if (got != want || fe.flags != wflags) {
                if (bad++ < MAX_REPORTS) {
                    print_message("decode %s %#llx: got %#llx/%#x want "
                                  "%#llx/%#x\n", linx_fp_format_name(f),
                                  (unsigned long long)x,
                                  (unsigned long long)got, fe.flags,
                                  (unsigned long long)want, wflags);
                }
            }
        }
    }
    /* Known landmarks. */
    assert_true(ref_max(LINX_FP8_E4M3) == 448.0L);
    assert_true(ref_max(LINX_FP8_E5M2) == 57344.0L);
    assert_true(ref_max(LINX_FP16) == 65504.0L);
    assert_int_equal(bad, 0);
}

/* ---- Narrowing conversions against the reference model -------------------- */

static int check_narrow(uint32_t x, LinxFpFormat to, unsigned rm,
                        int *reports)
{
    LinxFpEnv fe;
    float f = f32_from(x);
    RefResult want;

    linx_fpenv_init(&fe, (LinxFpRound)rm);
    uint64_t got = linx_fcvt_f2f(&fe, x, LINX_FP32, to);
    if (isnan(f)) {
        want.bits = linx_fp_default_nan(to);
        want.flags = (x & 0x00400000) ? 0 : NV;
    } else if (isinf(f)) {
        if (ref_formats[to].has_inf) {
            want.bits = ((uint64_t)(x >> 31) << (ref_formats[to].bits - 1)) |
                        (((1ull << ref_formats[to].exp_bits) - 1)
                         << ref_formats[to].frac_bits);
            want.flags = 0;
        } else {
            want.bits = linx_fp_default_nan(to);
            want.flags = NV;
        }
    } else {
        want = ref_round((long double)f, to, rm, false);
    }
    if (got == want.bits && fe.flags == want.flags) {
        return 0;
    }
    if ((*reports)++ < MAX_REPORTS) {
        print_message("fp32 %#x -> %s rm %u: got %#llx/%#x want %#llx/%#x\n",
                      x, linx_fp_format_name(to), rm,
                      (unsigned long long)got, fe.flags,
                      (unsigned long long)want.bits, want.flags);
    }
    return 1;
}

static void test_narrow_reference(void **state)
{
    static const LinxFpFormat fmts[] = {
        LINX_FP16, LINX_BF16, LINX_FP8_E4M3, LINX_FP8_E5M2,
    };
    RefRng g = { 0x452821e638d01377ull };
    int bad = 0, reports = 0;

    (void)state;
    for (unsigned fi = 0; fi < 4; fi++) {
        LinxFpFormat to = fmts[fi];
        const RefFormat *r = &ref_formats[to];
        /* Around every positive code: the value, one FP32 ulp either side,
         * the midpoint to the next code and one ulp either side of it. */
        for (uint64_t code = 0; code < (1ull << (r->bits - 1)); code++) {
            uint64_t e = code >> r->frac_bits;
            if (e == (1u << r->exp_bits) - 1 && r->has_inf) {
                break;
            }
            long double v = ref_decode(code, to);
            long double next = code + 1 < (1ull << (r->bits - 1))
                               ? ref_decode(code + 1, to) : v * 2;
            float pts[2] = { (float)v, (float)((v + next) / 2) };
            for (unsigned k = 0; k < 2; k++) {
                uint32_t base = f32_bits(pts[k]);
                for (int d = -1; d <= 1; d++) {
                    uint32_t x = base + (uint32_t)d;
                    for (unsigned rm = 0; rm < NUM_RM; rm++) {
                        bad += check_narrow(x, to, rm, &reports);
                        bad += check_narrow(x | 0x80000000u, to, rm,
                                            &reports);
                    }
                }
            }
        }
        for (unsigned i = 0; i < RANDOM_ITERS; i++) {
            uint32_t x = (uint32_t)ref_operand(&g, LINX_FP32);
            bad += check_narrow(x, to, (unsigned)(ref_rand(&g) % NUM_RM),
                                &reports);
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- FP16 against the host F16C unit ------------------------------------- */

#if defined(__x86_64__)
/* VCVTPS2PH with rounding immediate @rm (0 RNE, 1 down, 2 up, 3 toward
 * zero) and the MXCSR flags it raises. */
static uint16_t f16c_narrow(uint32_t x, unsigned rm, uint32_t *mxcsr)
{
    uint32_t clear, old, st;
    float in = f32_from(x);
    unsigned out;

    __asm__ volatile("stmxcsr %0" : "=m"(old));
    clear = old & ~0x3fu;
    switch (rm) {
    case 0:
        __asm__ volatile("ldmxcsr %[c]\n\tvcvtps2ph $0, %[i], %[o]\n\t"
                         "stmxcsr %[s]\n\tldmxcsr %[old]"
                         : [o] "=x"(out), [s] "=m"(st)
                         : [i] "x"(in), [c] "m"(clear), [old] "m"(old));
        break;
    case 1:
        __asm__ volatile("ldmxcsr %[c]\n\tvcvtps2ph $1, %[i], %[o]\n\t"
                         "stmxcsr %[s]\n\tldmxcsr %[old]"
                         : [o] "=x"(out), [s] "=m"(st)
                         : [i] "x"(in), [c] "m"(clear), [old] "m"(old));
        break;
    case 2:
        __asm__ volatile("ldmxcsr %[c]\n\tvcvtps2ph $2, %[i], %[o]\n\t"
                         "stmxcsr %[s]\n\tldmxcsr %[old]"
                         : [o] "=x"(out), [s] "=m"(st)
                         : [i] "x"(in), [c] "m"(clear), [old] "m"(old));
        break;
    default:
        __asm__ volatile("ldmxcsr %[c]\n\tvcvtps2ph $3, %[i], %[o]\n\t"
                         "stmxcsr %[s]\n\tldmxcsr %[old]"
                         : [o] "=x"(out), [s] "=m"(st)
                         : [i] "x"(in), [c] "m"(clear), [old] "m"(old));
        break;
    }
    *mxcsr = st;
    return (uint16_t)out;
}

static uint8_t flags_of(uint32_t st)
{
    return (uint8_t)(((st & 0x01) ? NV : 0) | ((st & 0x08) ? OF : 0) |
                     ((st & 0x10) ? UF : 0) | ((st & 0x20) ? NX : 0));
}
#endif

static void test_fp16_vs_f16c(void **state)
{
    (void)state;
#if defined(__x86_64__)
    unsigned a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
                     : "a"(1), "c"(0));
    if (!(c & (1u << 29))) { /* F16C */
        skip();
    }
    RefRng g = { 0xbe5466cf34e90c6cull };
    int bad = 0;

    /* Every FP32 whose exponent is in or near the FP16 range, mantissas
     * strided (low bits of the stride exercise ties and sticky bits). */
    for (uint32_t e = 100; e < 146; e++) {
        for (uint32_t m = 0; m < (1u << 23); m += 4093) {
            for (unsigned variant = 0; variant < 3; variant++) {
                uint32_t x = (e << 23) | (variant == 0 ? m
                             : variant == 1 ? (m & ~0x1fffu) | 0x1000
                                            : (m & ~0x1fffu));
                if (ref_rand(&g) & 1) {
                    x |= 0x80000000u;
                }
                for (unsigned rm = 0; rm < 4; rm++) {
                    uint32_t st;
                    uint16_t want = f16c_narrow(x, rm, &st);
                    LinxFpEnv fe;
                    linx_fpenv_init(&fe, (LinxFpRound)rm);
                    uint64_t got = linx_fcvt_f2f(&fe, x, LINX_FP32,
                                                 LINX_FP16);
                    if (got != want || fe.flags != flags_of(st)) {
                        if (bad++ < MAX_REPORTS) {
                            print_message("f16c %#x rm %u: got %#llx/%#x "
                                          "want %#x/%#x\n", x, rm,
                                          (unsigned long long)got, fe.flags,
                                          want, flags_of(st));
                        }
                    }
                }
            }
        }
    }
    /* FP16 -> FP32 for every non-NaN code. */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
            continue;
        }
        float out;
        __asm__("vcvtph2ps %1, %0" : "=x"(out) : "x"(h));
        LinxFpEnv fe = { 0 };
        if (linx_fcvt_f2f(&fe, h, LINX_FP16, LINX_FP32) != f32_bits(out) ||
            fe.flags) {
            bad++;
        }
    }
    assert_int_equal(bad, 0);
#else
    skip();
#endif
}

/* ---- Float to integer ---------------------------------------------------- */

typedef struct F2IVec {
    uint8_t from, to;
    uint64_t a;
    uint64_t r[NUM_RM];
    uint8_t f[NUM_RM];
} F2IVec;

#define S64(x) ((uint64_t)(int64_t)(x))

static const F2IVec f2i_vectors[] = {
    /* -0.0 is 0 with no flag. */
    { LINX_FP64, LINX_S64, 0x8000000000000000ull, ALL5(0), ALL5(0) },
    { LINX_FP32, LINX_U32, 0x80000000, ALL5(0), ALL5(0) },
    /* 2.5 and -2.5: the five modes, RMM ties away. */
    { LINX_FP64, LINX_S32, 0x4004000000000000ull, { 2, 2, 3, 2, 3 },
      ALL5(NX) },
    { LINX_FP64, LINX_S32, 0xc004000000000000ull,
      { S64(-2), S64(-3), S64(-2), S64(-2), S64(-3) }, ALL5(NX) },
    { LINX_FP32, LINX_S64, 0x3fc00000, /* 1.5 */ { 2, 1, 2, 1, 2 },
      ALL5(NX) },
    { LINX_FP32, LINX_S64, 0x3f000000, /* 0.5 */ { 0, 0, 1, 0, 1 },
      ALL5(NX) },
    { LINX_FP32, LINX_S64, 0xbf000000, /* -0.5 */
      { 0, S64(-1), 0, 0, S64(-1) }, ALL5(NX) },
    /* Unsigned: -0.5 rounding to 0 is NX only; to -1 it is NV and 0. */
    { LINX_FP32, LINX_U32, 0xbf000000, { 0, 0, 0, 0, 0 },
      { NX, NV, NX, NX, NV } },
    { LINX_FP64, LINX_U64, 0xbff0000000000000ull, ALL5(0), ALL5(NV) },
    /* NaN gives the maximum, infinities saturate; all NV. */
    { LINX_FP64, LINX_S32, 0x7ff8000000000000ull, ALL5(0x7fffffff),
      ALL5(NV) },
    { LINX_FP64, LINX_S32, 0xfff8000000000000ull, ALL5(0x7fffffff),
      ALL5(NV) },
    { LINX_FP32, LINX_U64, 0x7fc00000, ALL5(UINT64_MAX), ALL5(NV) },
    { LINX_FP64, LINX_S64, 0x7ff0000000000000ull, ALL5(INT64_MAX),
      ALL5(NV) },
    { LINX_FP64, LINX_S32, 0xfff0000000000000ull, ALL5(S64(INT32_MIN)),
      ALL5(NV) },
    { LINX_FP64, LINX_U32, 0xfff0000000000000ull, ALL5(0), ALL5(NV) },
    /* Range edges. */
    { LINX_FP64, LINX_S32, 0x41e0000000000000ull, /* 2^31 */
      ALL5(0x7fffffff), ALL5(NV) },
    { LINX_FP64, LINX_S32, 0xc1e0000000000000ull, /* -2^31 */
      ALL5(S64(INT32_MIN)), ALL5(0) },
    { LINX_FP64, LINX_S32, 0x41dfffffffe00000ull, /* 2^31 - 0.5 */
      { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff },
      { NV, NX, NV, NX, NV } },
    { LINX_FP64, LINX_S32, 0xc1e0000000100000ull, /* -2^31 - 0.5 */
      { S64(INT32_MIN), S64(INT32_MIN), S64(INT32_MIN), S64(INT32_MIN),
        S64(INT32_MIN) },
      { NX, NV, NX, NX, NV } },
    { LINX_FP64, LINX_U32, 0x41effffffff00000ull, /* 2^32 - 0.5 */
      ALL5(0xffffffff), { NV, NX, NV, NX, NV } },
    { LINX_FP64, LINX_U64, 0x43efffffffffffffull, /* 2^64 - 2048 */
      ALL5(0xfffffffffffff800ull), ALL5(0) },
    { LINX_FP64, LINX_U64, 0x43f0000000000000ull, /* 2^64 */
      ALL5(UINT64_MAX), ALL5(NV) },
    { LINX_FP64, LINX_S64, 0x43e0000000000000ull, /* 2^63 */
      ALL5(INT64_MAX), ALL5(NV) },
    { LINX_FP64, LINX_S64, 0xc3e0000000000000ull, /* -2^63 */
      ALL5(S64(INT64_MIN)), ALL5(0) },
    { LINX_FP64, LINX_U64, 0x4415af1d78b58c40ull, /* 1e20 */
      ALL5(UINT64_MAX), ALL5(NV) },
    /* Narrow integer types. */
    { LINX_FP32, LINX_S8, 0x42fecccd, /* 127.4 */
      { 127, 127, 127, 127, 127 }, { NX, NX, NV, NX, NX } },
    { LINX_FP32, LINX_S8, 0x43000000, /* 128 */ ALL5(127), ALL5(NV) },
    { LINX_FP32, LINX_S8, 0xc3013333, /* -129.2 */ ALL5(S64(-128)),
      ALL5(NV) },
    { LINX_FP32, LINX_S8, 0xc300999a, /* -128.6 */
      { S64(-128), S64(-128), S64(-128), S64(-128), S64(-128) },
      { NV, NV, NX, NX, NV } },
    { LINX_FP32, LINX_U8, 0x437f8000, /* 255.5 */
      ALL5(255), { NV, NX, NV, NX, NV } },
    { LINX_FP32, LINX_U16, 0x477fff80, /* 65535.5 */
      ALL5(65535), { NV, NX, NV, NX, NV } },
    { LINX_FP32, LINX_S16, 0xc7000000, /* -32768 */ ALL5(S64(-32768)),
      ALL5(0) },
    /* Tiny values. */
    { LINX_FP64, LINX_S64, 0x0000000000000001ull, { 0, 0, 1, 0, 0 },
      ALL5(NX) },
    { LINX_FP64, LINX_S64, 0x8000000000000001ull, { 0, S64(-1), 0, 0, 0 },
      ALL5(NX) },
    /* Other formats. */
    { LINX_FP16, LINX_S32, 0x7bff, ALL5(65504), ALL5(0) },
    { LINX_BF16, LINX_U8, 0x4380, /* 256 */ ALL5(255), ALL5(NV) },
    { LINX_FP8_E4M3, LINX_S16, 0xfe, ALL5(S64(-448)), ALL5(0) },
    { LINX_FP8_E4M3, LINX_S16, 0x7f, ALL5(0x7fff), ALL5(NV) },
};

static void test_f2i_vectors(void **state)
{
    int bad = 0;

    (void)state;
    for (size_t i = 0; i < sizeof(f2i_vectors) / sizeof(f2i_vectors[0]);
         i++) {
        const F2IVec *v = &f2i_vectors[i];
        for (unsigned rm = 0; rm < NUM_RM; rm++) {
            LinxFpEnv fe;
            linx_fpenv_init(&fe, LINX_RM_RNE);
            uint64_t r = linx_fcvt_f2i(&fe, v->a, v->from, v->to,
                                       (LinxFpRound)rm);
            if (r != v->r[rm] || fe.flags != v->f[rm]) {
                print_message("f2i %zu %#llx rm %u: got %#llx/%#x want "
                              "%#llx/%#x\n", i, (unsigned long long)v->a, rm,
                              (unsigned long long)r, fe.flags,
                              (unsigned long long)v->r[rm], v->f[rm]);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

static const LinxIntType int_types[] = {
    LINX_U64, LINX_U32, LINX_U16, LINX_U8,
    LINX_S64, LINX_S32, LINX_S16, LINX_S8,
};

static void int_range(LinxIntType t, long double *lo, long double *hi)
{
    unsigned w = 64u >> (t & 3);

    if (t & 8) {
        *lo = -ldexpl(1.0L, (int)w - 1);
        *hi = ldexpl(1.0L, (int)w - 1) - 1;
    } else {
        *lo = 0;
        *hi = ldexpl(1.0L, (int)w) - 1;
    }
}

static uint64_t as_register(long double v, LinxIntType t)
{
    if (t & 8) {
        return (uint64_t)(int64_t)v;
    }
    return (uint64_t)v;
}

static void test_f2i_random(void **state)
{
    static const LinxFpFormat fmts[] = { LINX_FP64, LINX_FP32, LINX_FP16 };
    RefRng g = { 0xc0ac29b7c97c50ddull };
    int bad = 0;

    (void)state;
    for (unsigned i = 0; i < RANDOM_ITERS * 2; i++) {
        LinxFpFormat fmt = fmts[i % 3];
        LinxIntType t = int_types[ref_rand(&g) % 8];
        unsigned rm = (unsigned)(ref_rand(&g) % NUM_RM);
        uint64_t a = ref_operand(&g, fmt);
        if (i % 4 == 0) {
            /* A value near the integer range edges. */
            long double lo, hi;
            int_range(t, &lo, &hi);
            long double v = (ref_rand(&g) & 1 ? hi : lo) +
                            (long double)((int)(ref_rand(&g) % 5) - 2) / 2;
            LinxFpEnv tmp = { .rm = LINX_RM_RTZ };
            double d = (double)v;
            uint64_t db;
            memcpy(&db, &d, sizeof(db));
            a = linx_fcvt_f2f(&tmp, db, LINX_FP64, fmt);
        }
        const RefFormat *rf = &ref_formats[fmt];
        uint64_t e = (a >> rf->frac_bits) & ((1ull << rf->exp_bits) - 1);
        bool neg = (a >> (rf->bits - 1)) & 1;
        long double lo, hi;
        int_range(t, &lo, &hi);
        uint64_t want;
        uint8_t wf = 0;
        if (e == (1ull << rf->exp_bits) - 1) {
            bool nan = (a & ((1ull << rf->frac_bits) - 1)) != 0;
            want = as_register(nan || !neg ? hi : lo, t);
            wf = NV;
        } else {
            long double v = ref_decode(a, fmt);
            long double r = ref_rint(fabsl(v), rm, neg);
            r = neg ? -r : r;
            if (r < lo || r > hi) {
                want = as_register(r < lo ? lo : hi, t);
                wf = NV;
            } else {
                want = as_register(r, t);
                wf = r != v ? NX : 0;
            }
        }
        LinxFpEnv fe;
        linx_fpenv_init(&fe, LINX_RM_RNE);
        uint64_t got = linx_fcvt_f2i(&fe, a, fmt, t, (LinxFpRound)rm);
        if (got != want || fe.flags != wf) {
            if (bad++ < MAX_REPORTS) {
                print_message("f2i %s %#llx type %u rm %u: got %#llx/%#x "
                              "want %#llx/%#x\n", linx_fp_format_name(fmt),
                              (unsigned long long)a, t, rm,
                              (unsigned long long)got, fe.flags,
                              (unsigned long long)want, wf);
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- Integer to float ---------------------------------------------------- */

static void test_i2f_vectors(void **state)
{
    LinxFpEnv fe;

    (void)state;
    /* 2^53 + 1 -> FP64 in each mode. */
    static const uint64_t r53[NUM_RM] = {
        0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000001ull,
        0x4340000000000000ull, 0x4340000000000001ull,
    };
    for (unsigned rm = 0; rm < NUM_RM; rm++) {
        linx_fpenv_init(&fe, (LinxFpRound)rm);
        assert_int_equal(linx_fcvt_i2f(&fe, (1ull << 53) + 1, LINX_S64,
                                       LINX_FP64), r53[rm]);
        assert_int_equal(fe.flags, NX);
    }
    linx_fpenv_init(&fe, LINX_RM_RNE);
    assert_int_equal(linx_fcvt_i2f(&fe, (uint64_t)INT64_MIN, LINX_S64,
                                   LINX_FP64), 0xc3e0000000000000ull);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fcvt_i2f(&fe, UINT64_MAX, LINX_U64, LINX_FP64),
                     0x43f0000000000000ull);
    assert_int_equal(fe.flags, NX);
    linx_fpenv_init(&fe, LINX_RM_RDN);
    assert_int_equal(linx_fcvt_i2f(&fe, UINT64_MAX, LINX_U64, LINX_FP64),
                     0x43efffffffffffffull);
    /* The integer is the low bits of the register. */
    linx_fpenv_init(&fe, LINX_RM_RNE);
    assert_int_equal(linx_fcvt_i2f(&fe, 0xffffffffull, LINX_S32, LINX_FP64),
                     0xbff0000000000000ull);
    assert_int_equal(linx_fcvt_i2f(&fe, 0x12345678ffffffffull, LINX_U32,
                                   LINX_FP64), 0x41efffffffe00000ull);
    assert_int_equal(linx_fcvt_i2f(&fe, 0xff80, LINX_S8, LINX_FP32),
                     0xc3000000);
    assert_int_equal(linx_fcvt_i2f(&fe, 0, LINX_S64, LINX_FP32), 0);
    assert_int_equal(fe.flags, 0);
    assert_int_equal(linx_fcvt_i2f(&fe, 16777217, LINX_S32, LINX_FP32),
                     0x4b800000);
    assert_int_equal(fe.flags, NX);
    /* Overflow of narrow formats. */
    fe.flags = 0;
    assert_int_equal(linx_fcvt_i2f(&fe, 65520, LINX_U32, LINX_FP16), 0x7c00);
    assert_int_equal(fe.flags, OF | NX);
    fe.flags = 0;
    assert_int_equal(linx_fcvt_i2f(&fe, 65519, LINX_U32, LINX_FP16), 0x7bff);
    assert_int_equal(fe.flags, NX);
    fe.flags = 0;
    assert_int_equal(linx_fcvt_i2f(&fe, 500, LINX_S16, LINX_FP8_E4M3), 0x7f);
    assert_int_equal(fe.flags, OF | NX);
}

static void test_i2f_random(void **state)
{
    static const LinxFpFormat fmts[] = {
        LINX_FP64, LINX_FP32, LINX_FP16, LINX_BF16, LINX_FP8_E4M3,
        LINX_FP8_E5M2,
    };
    RefRng g = { 0x3f84d5b5b5470917ull };
    int bad = 0;

    (void)state;
    for (unsigned i = 0; i < RANDOM_ITERS * 2; i++) {
        LinxIntType t = int_types[ref_rand(&g) % 8];
        LinxFpFormat fmt = fmts[ref_rand(&g) % 6];
        unsigned rm = (unsigned)(ref_rand(&g) % NUM_RM);
        uint64_t a = ref_rand(&g) >> (ref_rand(&g) % 64);
        unsigned w = 64u >> (t & 3);
        uint64_t v = w == 64 ? a : a & ((1ull << w) - 1);
        long double x;
        if ((t & 8) && (v >> (w - 1))) {
            x = -(long double)((w == 64 ? 0 : (1ull << w)) - v);
        } else {
            x = (long double)v;
        }
        RefResult want = { 0, 0 };
        if (x != 0) {
            want = ref_round(x, fmt, rm, false);
        }
        LinxFpEnv fe;
        linx_fpenv_init(&fe, (LinxFpRound)rm);
        uint64_t got = linx_fcvt_i2f(&fe, a, t, fmt);
        if (got != want.bits || fe.flags != want.flags) {
            if (bad++ < MAX_REPORTS) {
                print_message("i2f %#llx type %u -> %s rm %u: got %#llx/%#x "
                              "want %#llx/%#x\n", (unsigned long long)a, t,
                              linx_fp_format_name(fmt), rm,
                              (unsigned long long)got, fe.flags,
                              (unsigned long long)want.bits, want.flags);
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- Bulk conversion and type codes -------------------------------------- */

static void test_bulk(void **state)
{
    uint8_t src[4 * 64], dst[2 * 64];
    RefRng g = { 0x9216d5d98979fb1bull };
    LinxFpEnv bulk, one;

    (void)state;
    for (unsigned i = 0; i < 64; i++) {
        uint32_t x = (uint32_t)ref_operand(&g, LINX_FP32);
        for (unsigned k = 0; k < 4; k++) {
            src[4 * i + k] = (uint8_t)(x >> (8 * k));
        }
    }
    linx_fpenv_init(&bulk, LINX_RM_RUP);
    linx_fpenv_init(&one, LINX_RM_RUP);
    linx_fcvt_buf(&bulk, dst, LINX_BF16, src, LINX_FP32, 64);
    for (unsigned i = 0; i < 64; i++) {
        uint32_t x = src[4 * i] | src[4 * i + 1] << 8 |
                     (uint32_t)src[4 * i + 2] << 16 |
                     (uint32_t)src[4 * i + 3] << 24;
        uint64_t want = linx_fcvt_f2f(&one, x, LINX_FP32, LINX_BF16);
        assert_int_equal(dst[2 * i] | dst[2 * i + 1] << 8, want);
    }
    assert_int_equal(bulk.flags, one.flags);
    /* A bad format is NV, and nothing is written. */
    memset(dst, 0xaa, sizeof(dst));
    linx_fcvt_buf(&bulk, dst, (LinxFpFormat)42, src, LINX_FP32, 4);
    assert_true(bulk.flags & NV);
    assert_int_equal(dst[0], 0xaa);
}

/* The bulk shortcuts (F16C, BF16 integer rounding) against the software
 * path and the scalar conversion, on unaligned buffers with NaNs, every
 * rounding mode and lengths that are not multiples of the group size. */
static void test_bulk_paths(void **state)
{
    static const LinxFpFormat pairs[][2] = {
        { LINX_FP32, LINX_FP16 }, { LINX_FP16, LINX_FP32 },
        { LINX_FP32, LINX_BF16 }, { LINX_BF16, LINX_FP32 },
        { LINX_FP32, LINX_FP8_E4M3 }, { LINX_FP64, LINX_FP32 },
    };
    static const size_t lengths[] = { 1, 3, 4, 5, 8, 1023 };
    enum { MAXN = 1023 };
    static uint8_t src[8 * MAXN + 1], fast[8 * MAXN + 1], soft[8 * MAXN + 1];
    RefRng g = { 0x2ffd72dbd01adfb7ull };
    int bad = 0;

    (void)state;
    for (unsigned p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
        LinxFpFormat from = pairs[p][0], to = pairs[p][1];
        unsigned sb = linx_fp_format_bits(from) / 8;
        unsigned db = linx_fp_format_bits(to) / 8;
        for (unsigned li = 0; li < sizeof(lengths) / sizeof(lengths[0]);
             li++) {
            size_t n = lengths[li];
            for (unsigned rm = 0; rm < NUM_RM; rm++) {
                for (size_t i = 0; i < n; i++) {
                    uint64_t x = ref_operand(&g, from);
                    for (unsigned k = 0; k < sb; k++) {
                        src[1 + i * sb + k] = (uint8_t)(x >> (8 * k));
                    }
                }
                LinxFpEnv fe_fast, fe_soft, fe_one;
                linx_fpenv_init(&fe_fast, (LinxFpRound)rm);
                linx_fpenv_init(&fe_soft, (LinxFpRound)rm);
                linx_fpenv_init(&fe_one, (LinxFpRound)rm);
                fe_soft.impl = LINX_FP_IMPL_SOFT;
                linx_fcvt_buf(&fe_fast, fast + 1, to, src + 1, from, n);
                linx_fcvt_buf(&fe_soft, soft + 1, to, src + 1, from, n);
                bool ok = memcmp(fast + 1, soft + 1, n * db) == 0 &&
                          fe_fast.flags == fe_soft.flags;
                for (size_t i = 0; i < n && ok; i++) {
                    uint64_t x = 0, y = 0;
                    for (unsigned k = 0; k < sb; k++) {
                        x |= (uint64_t)src[1 + i * sb + k] << (8 * k);
                    }
                    for (unsigned k = 0; k < db; k++) {
                        y |= (uint64_t)soft[1 + i * db + k] << (8 * k);
                    }
                    ok = linx_fcvt_f2f(&fe_one, x, from, to) == y;
                }
                ok = ok && fe_one.flags == fe_soft.flags;
                if (!ok && bad++ < MAX_REPORTS) {
                    print_message("bulk %s->%s n %zu rm %u: flags fast %#x "
                                  "soft %#x scalar %#x\n",
                                  linx_fp_format_name(from),
                                  linx_fp_format_name(to), n, rm,
                                  fe_fast.flags, fe_soft.flags, fe_one.flags);
                }
            }
        }
    }
    assert_int_equal(bad, 0);
}

static void test_type_codes(void **state)
{
    LinxFpFormat f;

    (void)state;
    assert_true(linx_fp_format_from_srctype(0, &f) && f == LINX_FP64);
    assert_true(linx_fp_format_from_srctype(1, &f) && f == LINX_FP32);
    assert_false(linx_fp_format_from_srctype(2, &f));
    assert_false(linx_fp_format_from_srctype(3, &f));
    assert_true(linx_fp_format_from_cvt_type(0, &f) && f == LINX_FP64);
    assert_true(linx_fp_format_from_cvt_type(1, &f) && f == LINX_FP32);
    assert_true(linx_fp_format_from_cvt_type(4, &f) && f == LINX_FP16);
    assert_true(linx_fp_format_from_cvt_type(5, &f) && f == LINX_BF16);
    assert_true(linx_fp_format_from_cvt_type(7, &f) && f == LINX_FP8_E4M3);
    assert_true(linx_fp_format_from_cvt_type(8, &f) && f == LINX_FP8_E5M2);
    for (unsigned c = 0; c < 32; c++) {
        bool ok = linx_fp_format_from_cvt_type(c, &f);
        assert_int_equal(ok, c <= 1 || c == 4 || c == 5 || c == 7 || c == 8);
        assert_int_equal(linx_int_type_valid(c), (c & 7) < 4 && c < 12);
    }
    assert_int_equal(linx_fp_format_bits(LINX_FP8_E5M2), 8);
    assert_int_equal(linx_fp_format_bits((LinxFpFormat)9), 0);
    assert_string_equal(linx_fp_format_name((LinxFpFormat)9), "invalid");
    assert_true(linx_fp_is_snan(0x7d, LINX_FP8_E5M2));
    assert_false(linx_fp_is_snan(0x7f, LINX_FP8_E4M3));
    assert_true(linx_fp_is_nan(0xff, LINX_FP8_E4M3));
    assert_false(linx_fp_is_nan(0x7e, LINX_FP8_E4M3));
    /* Bad types are NV with a zero result. */
    LinxFpEnv fe = { 0 };
    assert_int_equal(linx_fcvt_f2i(&fe, 0, LINX_FP64, (LinxIntType)5,
                                   LINX_RM_RNE), 0);
    assert_int_equal(fe.flags, NV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f2f_vectors),
        cmocka_unit_test(test_fp8_saturate),
        cmocka_unit_test(test_decode_exhaustive),
        cmocka_unit_test(test_narrow_reference),
        cmocka_unit_test(test_fp16_vs_f16c),
        cmocka_unit_test(test_f2i_vectors),
        cmocka_unit_test(test_f2i_random),
        cmocka_unit_test(test_i2f_vectors),
        cmocka_unit_test(test_i2f_random),
        cmocka_unit_test(test_bulk),
        cmocka_unit_test(test_bulk_paths),
        cmocka_unit_test(test_type_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
