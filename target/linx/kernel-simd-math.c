/*
 * Transcendental lane operations of the SIMD mode, a block of lanes per
 * call (VO_VCALL, tcg/vec.h): V.FEXP on FP32 through the fpu library's
 * fast e^x (fpu-fastmath.h, the two-lane linx_exp_fast2, docs/fpu.md F12)
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

typedef float KsV2f __attribute__((vector_size(8)));

void ks_fexp32_block(void *envp, const uint32_t *in, uint32_t *out, uint64_t bits, uint64_t imm)
{
    CPULinxState *env = envp;
    LinxFpEnv fe;
    bool rne = ((env->fcsr & LINX_FP_FCSR_RM_MASK) >> LINX_FP_FCSR_RM_SHIFT) == LINX_RM_RNE;
    uint8_t nx = 0;

    (void)imm;
    linx_fpenv_from_fcsr(&fe, env->fcsr);
    for (unsigned i0 = 0; i0 < VEC_LANES_MAX; i0 += 2) {
        KsV2f xf, lof, hif, rf;
        LinxV2d x, y, mg;
        LinxV2i ok;
        if (!((bits >> i0) & 3)) {
            continue;
        }
        memcpy(&xf, in + i0, sizeof(xf));
        x = __builtin_convertvector(xf, LinxV2d);
        ok = (x >= -LINX_EXP_FAST_MAX) & (x <= LINX_EXP_FAST_MAX); /* not NaN */
        x = (LinxV2d)((LinxV2u)ok & (LinxV2u)x);
        y = linx_exp_fast2(x);
        mg = (LinxV2d)((LinxV2u)y & UINT64_C(0x7fffffffffffffff)) * LINX_FASTMATH_MARGIN;
        rf = __builtin_convertvector(y, KsV2f);
        lof = __builtin_convertvector(y - mg, KsV2f);
        hif = __builtin_convertvector(y + mg, KsV2f);
        for (unsigned j = 0; j < 2; j++) {
            unsigned i = i0 + j;
            uint32_t r;
            if (!((bits >> i) & 1)) {
                continue;
            }
            memcpy(&r, &rf[j], 4);
            if (rne && ok[j] && lof[j] == hif[j] && ((r >> 23) & 0xff) >= 2 &&
                ((r >> 23) & 0xff) <= 253) {
                out[i] = r;
                nx |= (in[i] & 0x7fffffffu) != 0;
            } else {
                out[i] = (uint32_t)linx_fexp(&fe, in[i], LINX_FP32);
            }
        }
    }
    if (nx) {
        fe.flags |= LINX_FPF_NX;
    }
    env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
}
