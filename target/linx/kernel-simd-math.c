/*
 * Transcendental lane operations of the SIMD mode, a block of lanes per
 * call (VO_VCALL, tcg/vec.h): V.FEXP on FP32 through the fpu library's
 * fast e^x (fpu-fastmath.h, the eight-lane linx_exp_fast8, docs/fpu.md F12;
 * AVX-512 code on hosts that have it)
 * with the same proof FEXP's fast path makes, so every result and flag is
 * the one linx_fexp() gives for that lane:
 *
 *   y = e^x in double (relative error < 2^-50); the value widened by
 *   LINX_FASTMATH_MARGIN on both sides rounds to one FP32 value, a normal
 *   number (so OF and UF are impossible): that is the correctly rounded
 *   e^x, and the flags are NX (x != 0) or none (x = 0, e^0 = 1 exactly).
 *
 * Everything else (another rounding mode than RNE, NaN, |x| > 708,
 * results near the FP32 range's ends, a widened value rounding two ways)
 * calls linx_fexp() for that lane.  Runs with the host's default MXCSR
 * (VO_VCALL), which rounds the double-to-float conversions to nearest.
 */
#include <string.h>

#include "fpu/fpu-fastmath.h"
#include "fpu/fpu.h"
#include "cpu.h"
#include "kernel-simd.h"

/* The bounds of fpu-fastmath.h were measured without contraction. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef float KsV8f __attribute__((vector_size(32)));
typedef int32_t KsV8i __attribute__((vector_size(32)));
typedef uint32_t KsV8u __attribute__((vector_size(32)));

/* Lanes [i0, i0 + 8) whose bits are set; the rest of out[] stays. */
static inline __attribute__((always_inline)) void fexp8(LinxFpEnv *fe, bool rne, const uint32_t *in,
                                                        uint32_t *out, unsigned bits, uint8_t *nx)
{
    KsV8f xf, rf, lof, hif;
    KsV8u r, xi, old, e;
    KsV8i ok32, good, act;
    LinxV8d x, y, mg;
    LinxV8i ok;

    memcpy(&xf, in, sizeof(xf));
    x = __builtin_convertvector(xf, LinxV8d);
    ok = (x >= -LINX_EXP_FAST_MAX) & (x <= LINX_EXP_FAST_MAX); /* not NaN */
    x = (LinxV8d)((LinxV8u)ok & (LinxV8u)x);
    linx_exp_fast8(&y, &x);
    mg = (LinxV8d)((LinxV8u)y & UINT64_C(0x7fffffffffffffff)) * LINX_FASTMATH_MARGIN;
    rf = __builtin_convertvector(y, KsV8f);
    lof = __builtin_convertvector(y - mg, KsV8f);
    hif = __builtin_convertvector(y + mg, KsV8f);
    r = (KsV8u)rf;
    e = (r >> 23) & 0xff;
    ok32 = __builtin_convertvector(ok, KsV8i);
    good = ok32 & (lof == hif) & (KsV8i)(e >= 2) & (KsV8i)(e <= 253);
    act = (KsV8i){ 1, 2, 4, 8, 16, 32, 64, 128 };
    act = (act & (int32_t)bits) != 0;
    memcpy(&xi, in, sizeof(xi));
    memcpy(&old, out, sizeof(old));
    if (rne) {
        KsV8i fast = act & good;
        KsV8i nz = (KsV8i)((xi & 0x7fffffffu) != 0);
        KsV8u merged = ((KsV8u)fast & r) | (~(KsV8u)fast & old);
        memcpy(out, &merged, sizeof(merged));
        for (unsigned j = 0; j < 8; j++) {
            *nx |= (fast[j] & nz[j]) != 0;
        }
        act &= ~good;
    }
    for (unsigned j = 0; j < 8; j++) {
        if (act[j]) { /* not proven (or not RNE): the library */
            out[j] = (uint32_t)linx_fexp(fe, in[j], LINX_FP32);
        }
    }
}

static inline __attribute__((always_inline)) void fexp_block(void *envp, const uint32_t *in,
                                                             uint32_t *out, uint64_t bits)
{
    CPULinxState *env = envp;
    LinxFpEnv fe;
    bool rne = ((env->fcsr & LINX_FP_FCSR_RM_MASK) >> LINX_FP_FCSR_RM_SHIFT) == LINX_RM_RNE;
    uint8_t nx = 0;

    linx_fpenv_from_fcsr(&fe, env->fcsr);
    for (unsigned i0 = 0; i0 < VEC_LANES_MAX; i0 += 8) {
        unsigned b = (unsigned)(bits >> i0) & 0xff;
        if (b) {
            fexp8(&fe, rne, in + i0, out + i0, b, &nx);
        }
    }
    if (nx) {
        fe.flags |= LINX_FPF_NX;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
}

/* The same code for AVX-512 hosts (a vector of 8 doubles per operation)
 * and for the rest (SSE2 pieces); contraction stays off in both. */
__attribute__((target("avx512f"))) static void fexp_block_avx512(void *envp, const uint32_t *in,
                                                                 uint32_t *out, uint64_t bits)
{
    fexp_block(envp, in, out, bits);
}

static void fexp_block_base(void *envp, const uint32_t *in, uint32_t *out, uint64_t bits)
{
    fexp_block(envp, in, out, bits);
}

void ks_fexp32_block_path(void *envp, const uint32_t *in, uint32_t *out, uint64_t bits,
                          bool avx512)
{
    if (avx512) {
        fexp_block_avx512(envp, in, out, bits);
    } else {
        fexp_block_base(envp, in, out, bits);
    }
}

void ks_fexp32_block(void *envp, const uint32_t *in, uint32_t *out, uint64_t bits, uint64_t imm)
{
    (void)imm;
    ks_fexp32_block_path(envp, in, out, bits, __builtin_cpu_supports("avx512f"));
}
