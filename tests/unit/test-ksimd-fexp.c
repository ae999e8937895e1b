/*
 * V.FEXP FP32 in the SIMD mode (target/linx/kernel-simd-math.c: a block of
 * lanes per call, the fpu library's eight-lane fast e^x with FEXP's
 * rounding proof) against linx_fexp() lane by lane: the same result bits
 * for every active lane, inactive lanes untouched, the same FCSR flags,
 * in every rounding mode, through both the AVX-512 code (when the host
 * has it) and the baseline code.  Inputs: the whole FP32 range on a hash
 * stride, the range where e^x is a normal FP32 number densely (the fast
 * path's domain), the ends of that range, and the special values.
 * (linx_fexp() itself is checked against the correctly rounded e^x in
 * test-fpu-exp; the softmax operator suites compare the whole kernel's
 * output with numpy bit for bit.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "target/linx/cpu.h"
#include "fpu/fpu.h"
#include "target/linx/kernel-simd.h"

#define BLOCK VEC_LANES_MAX

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static float f_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

typedef struct Stats {
    unsigned long blocks, lanes;
} Stats;

/* One block through @avx512 / the baseline against linx_fexp per lane. */
static void check_block(CPULinxState *env, const uint32_t *in, uint64_t mask, uint64_t fcsr,
                        bool avx512, Stats *st)
{
    uint32_t got[BLOCK], want[BLOCK];
    LinxFpEnv fe;
    uint64_t want_fcsr;

    for (unsigned i = 0; i < BLOCK; i++) {
        got[i] = want[i] = 0xdead0000u + i; /* inactive lanes keep this */
    }
    linx_fpenv_from_fcsr(&fe, fcsr);
    for (unsigned i = 0; i < BLOCK; i++) {
        if ((mask >> i) & 1) {
            want[i] = (uint32_t)linx_fexp(&fe, in[i], LINX_FP32);
            st->lanes++;
        }
    }
    want_fcsr = linx_fpenv_to_fcsr(&fe, fcsr);
    env->fcsr = fcsr;
    ks_fexp32_block_path(env, in, got, mask, avx512);
    for (unsigned i = 0; i < BLOCK; i++) {
        if (got[i] != want[i]) {
            fail_msg("%s: lane %u of mask 0x%llx, x = 0x%08x (%a), rm %u: got 0x%08x, "
                     "linx_fexp 0x%08x",
                     avx512 ? "avx512" : "baseline", i, (unsigned long long)mask, in[i],
                     (double)f_of(in[i]), (unsigned)((fcsr >> LINX_FP_FCSR_RM_SHIFT) & 7), got[i],
                     want[i]);
        }
    }
    if (env->fcsr != want_fcsr) {
        fail_msg("%s: FCSR 0x%llx, linx_fexp 0x%llx (mask 0x%llx, first x 0x%08x)",
                 avx512 ? "avx512" : "baseline", (unsigned long long)env->fcsr,
                 (unsigned long long)want_fcsr, (unsigned long long)mask, in[0]);
    }
    st->blocks++;
}

static void run_inputs(bool avx512)
{
    CPULinxState *env = calloc(1, sizeof(*env));
    const uint64_t full = (UINT64_C(1) << BLOCK) - 1;
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
        0x7f800001u, 0xffa00000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
        0x00800000u, 0x3f800000u, 0xbf800000u, 0x42b17217u, 0x42b17218u, 0xc2aeac4fu,
        0xc2aeac50u, 0xc2ce8ed0u, 0xc2ce8ed1u, 0xc2cff1b4u, 0xc2cff1b5u, 0x44318000u,
        0xc4318000u, 0x7f7fffffu, 0xff7fffffu, 0x33800000u, 0xb3800000u, 0x3f000000u,
    };
    uint64_t s = 0x9e3779b97f4a7c15u;
    uint32_t in[BLOCK];
    Stats st = { 0, 0 };

    assert_non_null(env);
    /* the special values, every rounding mode, all lanes and random masks */
    for (unsigned rm = LINX_RM_RNE; rm <= LINX_RM_RMM; rm++) {
        for (unsigned k = 0; k < sizeof(special) / sizeof(special[0]); k += BLOCK) {
            for (unsigned i = 0; i < BLOCK; i++) {
                unsigned j = k + i;
                in[i] = special[j < sizeof(special) / sizeof(special[0]) ? j : 0];
            }
            check_block(env, in, full, (uint64_t)rm << LINX_FP_FCSR_RM_SHIFT, avx512, &st);
            check_block(env, in, rng_next(&s) & full, (uint64_t)rm << LINX_FP_FCSR_RM_SHIFT, avx512,
                        &st);
        }
    }
    /* the whole FP32 range on a stride (2^20 values), RNE and the others */
    for (uint32_t n = 0; n < (1u << 20); n += BLOCK) {
        uint64_t fcsr = (uint64_t)(n % (5 * BLOCK) / BLOCK) << LINX_FP_FCSR_RM_SHIFT;
        for (unsigned i = 0; i < BLOCK; i++) {
            in[i] = (n + i) * 0x9e3779b1u;
        }
        check_block(env, in, full, fcsr, avx512, &st);
    }
    /* densely where e^x is a normal FP32 number and around its ends:
     * x in [-104, 89], 2^21 values; some blocks with flags already set
     * and partial masks */
    for (uint32_t n = 0; n < (1u << 21); n += BLOCK) {
        uint64_t r = rng_next(&s);
        uint64_t fcsr = (r & 1) ? 0 : (uint64_t)((r >> 1) & 0x1f); /* sticky flags */
        uint64_t mask = (r >> 8) % 8 == 0 ? (rng_next(&s) & full) : full;
        if ((r >> 16) % 16 == 0) {
            fcsr |= (uint64_t)((r >> 20) % 5) << LINX_FP_FCSR_RM_SHIFT;
        }
        for (unsigned i = 0; i < BLOCK; i++) {
            double u = (double)(rng_next(&s) >> 11) * 0x1p-53;
            in[i] = bits_of((float)(-104.0 + 193.0 * u));
        }
        check_block(env, in, mask, fcsr, avx512, &st);
    }
    print_message("%s: %lu blocks, %lu lanes equal to linx_fexp\n", avx512 ? "avx512" : "baseline",
                  st.blocks, st.lanes);
    assert_true(st.lanes > (1u << 21));
    free(env);
}

static void test_baseline(void **state)
{
    (void)state;
    run_inputs(false);
}

static void test_avx512(void **state)
{
    (void)state;
    if (!__builtin_cpu_supports("avx512f")) {
        skip(); /* the baseline test covers the same operations */
    }
    run_inputs(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_baseline),
        cmocka_unit_test(test_avx512),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
