/*
 * The fast e^x, ln x and 1/sqrt x (fpu/fpu-fastmath.h, the
 * FEXP fast path in fpu-exp.c, the TEXP/TLOG/TRSQRT kernels of
 * hw/linx/tepl-kernels.c):
 *
 * - the error bounds docs/fpu.md states, measured against the host's
 *   long double expl()/logl() (64-bit significands: an independent and
 *   2^11 times more precise reference) over every FP16 and BF16 value, FP32
 *   on a stride, random doubles and the points where the methods switch
 *   (k ln2 +- ln2/2 for e^x, sqrt(2) and 1 for ln x); the largest error
 *   found is printed;
 * - the margin the callers prove results with is at least 2^6 times the
 *   bound;
 * - FEXP's fast path gives the double-double path's bits and flags (every
 *   FP16, BF16, E4M3 and E5M2 value, FP32 on a stride, all five modes);
 * - the TEXP, TLOG and TRSQRT kernels give the reference's bits (every
 *   FP16 and BF16 value, FP32 on a stride, through linx_tepl_exec with and
 *   without the reference);
 * - the two-lane forms the kernels use give the scalar forms' bits.
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

#include "hw/linx/tepl.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tile-regs.h"
#include "fpu/fpu-fastmath.h"
#include "fpu/fpu.h"

enum {
    FP32_STRIDE = 4099, /* ~1 M FP32 inputs */
    RANDOM_DOUBLES = 400000,
};

static uint64_t rng = 0x243f6a8885a308d3u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double bits_to_double(uint64_t b)
{
    double d;

    memcpy(&d, &b, sizeof(d));
    return d;
}

/* ---- error bounds ---- */

typedef struct Worst {
    double err;
    double at;
    unsigned long n;
} Worst;

static void exp_point(Worst *w, double x)
{
    long double ref, got;
    double e;

    if (!(x >= -LINX_EXP_FAST_MAX && x <= LINX_EXP_FAST_MAX)) {
        return;
    }
    ref = expl((long double)x);
    got = linx_exp_fast(x);
    {
        /* the two-lane form gives the same bits */
        LinxV2d v = linx_exp_fast2((LinxV2d){ x, -x < LINX_EXP_FAST_MAX ? -x : 0 });
        assert_true(linx_fm_bits(v[0]) == linx_fm_bits((double)got));
    }
    {
        /* and the eight-lane form, in every position */
        unsigned pos = (unsigned)(linx_fm_bits(x) % 8);
        LinxV8d v = { 0, 1, -1, 0.5, -0.5, 2, -2, 3 }, y;
        v[pos] = x;
        linx_exp_fast8(&y, &v);
        assert_true(linx_fm_bits(y[pos]) == linx_fm_bits((double)got));
    }
    e = (double)fabsl((got - ref) / ref);
    w->n++;
    if (e > w->err) {
        w->err = e;
        w->at = x;
    }
}

static void log_point(Worst *w, double x)
{
    long double ref, got;
    double e;

    if (!(x > 0 && x < INFINITY) || x < 0x1p-1022) {
        return;
    }
    ref = logl((long double)x);
    got = linx_log_fast(x);
    {
        LinxV2d v = linx_log_fast2((LinxV2d){ 1.0, x });
        assert_true(linx_fm_bits(v[1]) == linx_fm_bits((double)got));
    }
    w->n++;
    if (ref == 0) {
        assert_true(got == 0); /* ln 1 */
        return;
    }
    e = (double)fabsl((got - ref) / ref);
    if (e > w->err) {
        w->err = e;
        w->at = x;
    }
}

static void for_format_values(void (*fn)(Worst *, double), Worst *w, LinxFpFormat fmt,
                              uint64_t count, uint64_t stride)
{
    LinxFpEnv fe;

    linx_fpenv_init(&fe, LINX_RM_RNE);
    for (uint64_t v = 0; v < count; v += stride) {
        uint64_t d = linx_fcvt_f2f(&fe, v, fmt, LINX_FP64);
        fn(w, bits_to_double(d));
    }
}

static void report(const char *what, const Worst *w)
{
    print_message("%s: %lu inputs, largest relative error %.3g (2^%.2f) at %.17g\n", what, w->n,
                  w->err, w->err > 0 ? log2(w->err) : -INFINITY, w->at);
}

static void test_exp_bound(void **state)
{
    Worst w = { 0, 0, 0 };

    (void)state;
    assert_true(LINX_FASTMATH_MARGIN >= 0x1p6 * ldexp(1.0, -LINX_FASTMATH_ERR_BITS));
    for_format_values(exp_point, &w, LINX_FP16, 1u << 16, 1);
    for_format_values(exp_point, &w, LINX_BF16, 1u << 16, 1);
    for_format_values(exp_point, &w, LINX_FP32, UINT64_C(1) << 32, FP32_STRIDE);
    for (unsigned i = 0; i < RANDOM_DOUBLES; i++) {
        exp_point(&w, (double)(next() >> 11) * 0x1p-53 * 1416.0 - 708.0);
        exp_point(&w, ((double)(next() >> 11) * 0x1p-53 - 0.5) * 4.0);
    }
    /* where k changes: x = (k +- 1/2) ln 2, and around them */
    for (int k = -1021; k <= 1021; k++) {
        double mid = ((double)k + 0.5) * 0x1.62e42fefa39efp-1;
        for (int d = -3; d <= 3; d++) {
            exp_point(&w, nextafter(mid, d < 0 ? -INFINITY : INFINITY) + d * 0x1p-40);
            exp_point(&w, mid + d * 0x1p-45);
        }
        exp_point(&w, (double)k * 0x1.62e42fefa39efp-1);
    }
    report("e^x", &w);
    assert_true(w.n > 1000000);
    assert_true(w.err < ldexp(1.0, -LINX_FASTMATH_ERR_BITS));
}

static void test_log_bound(void **state)
{
    Worst w = { 0, 0, 0 };

    (void)state;
    for_format_values(log_point, &w, LINX_FP16, 1u << 16, 1);
    for_format_values(log_point, &w, LINX_BF16, 1u << 16, 1);
    for_format_values(log_point, &w, LINX_FP32, UINT64_C(1) << 32, FP32_STRIDE);
    for (unsigned i = 0; i < RANDOM_DOUBLES; i++) {
        /* every exponent, and close to 1 (ln x near 0) */
        log_point(&w, bits_to_double((next() >> 2) & UINT64_C(0x7fefffffffffffff)));
        log_point(&w, 1.0 + ((double)(next() >> 11) * 0x1p-53 - 0.5) * 0x1p-10);
    }
    for (int d = -200; d <= 200; d++) {
        log_point(&w, 1.0 + d * 0x1p-52);
        log_point(&w, 0x1.6a09e667f3bccp+0 + d * 0x1p-52); /* the sqrt(2) switch */
        log_point(&w, 0x1.6a09e667f3bccp-1 + d * 0x1p-53);
    }
    report("ln x", &w);
    assert_true(w.n > 1000000);
    assert_true(w.err < ldexp(1.0, -LINX_FASTMATH_ERR_BITS));
}

/* ---- FEXP: fast path == double-double path ---- */

static void exp_same(LinxFpFormat fmt, uint64_t a, unsigned *fast)
{
    for (unsigned rm = 0; rm <= LINX_RM_RMM; rm++) {
        LinxFpEnv f1, f2;
        uint64_t r1, r2;
        linx_fpenv_init(&f1, rm);
        linx_fpenv_init(&f2, rm);
        f2.impl = LINX_FP_IMPL_SOFT;
        r1 = linx_fexp(&f1, a, fmt);
        r2 = linx_fexp(&f2, a, fmt);
        if (r1 != r2 || f1.flags != f2.flags) {
            fail_msg("FEXP %s 0x%llx rm %u: fast 0x%llx flags 0x%x, double-double 0x%llx "
                     "flags 0x%x",
                     linx_fp_format_name(fmt), (unsigned long long)a, rm,
                     (unsigned long long)r1, f1.flags, (unsigned long long)r2, f2.flags);
        }
        *fast += 1;
    }
}

static void test_fexp_fast_same(void **state)
{
    unsigned n = 0;

    (void)state;
    for (uint64_t a = 0; a < (1u << 16); a++) {
        exp_same(LINX_FP16, a, &n);
        exp_same(LINX_BF16, a, &n);
    }
    for (uint64_t a = 0; a < 256; a++) {
        exp_same(LINX_FP8_E4M3, a, &n);
        exp_same(LINX_FP8_E5M2, a, &n);
    }
    for (uint64_t a = 0; a < (UINT64_C(1) << 32); a += 65537 * 3) {
        exp_same(LINX_FP32, a, &n);
    }
    print_message("FEXP: %u results compared\n", n);
}

/* ---- TEPL kernels == reference ---- */

/* Run @opcode over @n elements of @dtype from @in (ND tiles of 4 KB, one
 * row per 1024 bytes) with the kernels and with the reference; compare. */
static void tepl_compare(unsigned opcode, unsigned dtype, const uint8_t *in, size_t n)
{
    const LinxDTypeInfo *di = linx_dtype_info(dtype);
    size_t per = 4096 / di->size;

    for (size_t off = 0; off < n; off += per) {
        size_t cnt = n - off < per ? n - off : per;
        uint8_t out[2][4096];
        for (int ref = 0; ref < 2; ref++) {
            LinxTileState *ts = linx_tile_state_new();
            LinxTileSlot *s = linx_tile_push_slot(ts, LINX_HAND_U);
            LinxTileMeta m;
            LinxTeplOp op;
            TmaFault f;
            memset(s->data, 0, 4096);
            memcpy(s->data, in + off * di->size, cnt * di->size);
            memset(&m, 0, sizeof(m));
            m.bytes = 4096;
            m.dtype = (uint8_t)dtype;
            m.layout = LINX_TL_ND;
            linx_tile_push_commit(ts, LINX_HAND_U, &m);
            memset(&op, 0, sizeof(op));
            op.opcode = (uint16_t)opcode;
            op.dtype = (uint8_t)dtype;
            op.nsrc = 1;
            op.src[0] = linx_tile_id(LINX_HAND_U, 1);
            op.dst_kind = LINX_HAND_T;
            op.dst_bytes = 4096;
            op.lb[0] = 1024 / di->size;
            op.lb[1] = 4;
            op.lb[2] = 1024 / di->size;
            assert_true(linx_tepl_exec(ts, &op, ref, &f));
            memcpy(out[ref], linx_tile_get(ts, linx_tile_id(LINX_HAND_T, 1))->data, 4096);
            linx_tile_state_free(ts);
        }
        for (size_t i = 0; i < cnt; i++) {
            uint64_t a = 0, x = 0, y = 0;
            memcpy(&a, in + (off + i) * di->size, di->size);
            memcpy(&x, out[0] + i * di->size, di->size);
            memcpy(&y, out[1] + i * di->size, di->size);
            if (x != y) {
                fail_msg("%s %s of 0x%llx: kernel 0x%llx, reference 0x%llx",
                         linx_tepl_op_info(opcode)->name, di->name, (unsigned long long)a,
                         (unsigned long long)x, (unsigned long long)y);
            }
        }
    }
}

static void test_tepl_kernels_same(void **state)
{
    static const unsigned ops[] = { LINX_TEPL_TEXP, LINX_TEPL_TLOG, LINX_TEPL_TRSQRT };
    size_t n32 = 0;
    uint16_t *h = malloc(65536 * sizeof(*h));
    uint32_t *w = malloc(((UINT64_C(1) << 32) / FP32_STRIDE + 1) * sizeof(*w));

    (void)state;
    for (uint32_t i = 0; i < 65536; i++) {
        h[i] = (uint16_t)i;
    }
    for (uint64_t a = 0; a < (UINT64_C(1) << 32); a += FP32_STRIDE) {
        w[n32++] = (uint32_t)a;
    }
    for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
        tepl_compare(ops[o], LINX_DT_FP16, (const uint8_t *)h, 65536);
        tepl_compare(ops[o], LINX_DT_BF16, (const uint8_t *)h, 65536);
        tepl_compare(ops[o], LINX_DT_FP32, (const uint8_t *)w, n32);
    }
    free(h);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exp_bound),
        cmocka_unit_test(test_log_bound),
        cmocka_unit_test(test_fexp_fast_same),
        cmocka_unit_test(test_tepl_kernels_same),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
