/*
 * Cross-lane kernel instructions: the reductions V.RD* and the shuffles
 * V.SHFL* / V.SHFLI* (helper_kernel_xlane, docs/kernels.md "Phases").
 *
 * The body translator splits a body at these instructions: every lane of
 * the group (lc0 in [0, LB0), lc1 and lc2 fixed) runs the phase before,
 * leaving its state in env->kern.lanes_ptr[lc0] in canonical order; then this
 * helper runs the instruction over those records; then the next phase
 * runs for every lane.
 *
 * Reductions combine SrcL over the active lanes (p != 0) in lc0 order and
 * push the result to every lane's destination (a scalar hand ->t/->u, or a
 * vector queue: inactive lanes then receive the merge value, the ring slot
 * the push reuses).  No active lane: the identity (0 for add/or/xor, all
 * ones for and, the type's minimum/maximum for max/min, +0 for fadd, the
 * default NaN for fmax/fmin).
 *
 * Shuffles give lane l the SrcL value of lane j (CUDA-like, lanes split
 * into segments of `width` lanes, 0 or more than LB0 meaning LB0):
 *   up:   j = l - delta, or l when that leaves the segment
 *   down: j = l + delta, or l when that leaves the segment
 *   idx:  j = segment start + idx mod width (l when past LB0)
 *   bfly: j = l ^ mask (l when past LB0)
 * delta / idx = SrcR, width = SrcP (V.SHFL) or imm (V.SHFLI); the
 * butterfly's mask is SrcP or imm.  Every source operand is read per lane.
 */
#include <string.h>

#include "fpu/fpu.h"
#include "kernel-internal.h"
#include "kernel-ops.h"
#include "kernel-simd.h"
#include "tcg/exec.h"

#include "helper-proto.h"

typedef struct XLane {
    CPULinxState *env;
    uint64_t n; /* lanes in the group */
} XLane;

static uint64_t *rec(CPULinxState *env, uint64_t l)
{
    return env->kern.lanes_ptr[l].w;
}

/* Source @code for lane @l, extended by its type unless @raw. */
static uint64_t xread(const XLane *x, unsigned code, uint64_t l, bool raw)
{
    LinxKReg r;
    uint64_t v;

    linx_kreg_src(code, &r);
    switch (r.kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND:
        v = rec(x->env, l)[kc_word(r.queue, r.k - 1u)];
        break;
    case LINX_KR_RI:
        v = x->env->kern.ri[r.index];
        break;
    case LINX_KR_LC:
        v = r.index == 0 ? l : x->env->lc[r.index];
        break;
    case LINX_KR_LB:
        v = x->env->lb[r.index];
        break;
    case LINX_KR_P:
        v = rec(x->env, l)[LINX_KLANE_P];
        break;
    default:
        v = 0;
        break;
    }
    return raw ? v : kop_lane_ext(v, r.size_log2, r.st);
}

static bool active(const XLane *x, uint64_t l)
{
    return rec(x->env, l)[LINX_KLANE_P] != 0;
}

/* Push @v (typed by @dst) into lane @l's destination; false: not a
 * destination a cross-lane instruction can write. */
static bool xwrite(const XLane *x, unsigned dst, uint64_t l, uint64_t v)
{
    LinxKReg d;
    uint64_t *w = rec(x->env, l);
    unsigned b;

    if (!linx_kreg_dst(dst, &d)) {
        return false;
    }
    switch (d.kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND:
        b = kc_word(d.queue, 0);
        v = kop_lane_ext(v, d.size_log2, d.st);
        if (d.kind == LINX_KR_VEC && !w[LINX_KLANE_P]) {
            v = w[b + LINX_KQUEUE_DEPTH - 1]; /* merge: the reused slot's value */
        }
        memmove(&w[b + 1], &w[b], (LINX_KQUEUE_DEPTH - 1) * sizeof(w[0]));
        w[b] = v;
        return true;
    case LINX_KR_P:
        w[LINX_KLANE_P] = v != 0;
        return true;
    case LINX_KR_ZERO:
        return true;
    default:
        return false;
    }
}

static bool valid_src(unsigned code)
{
    LinxKReg r;

    return linx_kreg_src(code, &r);
}

static uint64_t int_min(unsigned lg, bool sign)
{
    return sign ? kop_lane_ext(UINT64_C(1) << ((8u << lg) - 1), lg, true) : 0;
}

static uint64_t int_max(unsigned lg, bool sign)
{
    uint64_t m = lg >= 3 ? UINT64_MAX : (UINT64_C(1) << (8u << lg)) - 1;

    return sign ? m >> 1 : m;
}

static uint64_t reduce(const XLane *x, unsigned op, unsigned srcl)
{
    CPULinxState *env = x->env;
    LinxKReg r;
    LinxFpFormat fmt = LINX_FP32;
    LinxFpEnv fe;
    bool fp = op == KX_RDFADD || op == KX_RDFMAX || op == KX_RDFMIN;
    bool any = false;
    uint64_t acc = 0;

    linx_kreg_src(srcl, &r);
    if (fp) {
        static const LinxFpFormat by_lg[4] = { LINX_FP8_E4M3, LINX_FP16, LINX_FP32, LINX_FP64 };
        fmt = by_lg[r.size_log2 & 3];
        linx_fpenv_from_fcsr(&fe, env->fcsr);
    }
    switch (op) {
    case KX_RDAND: acc = UINT64_MAX; break;
    case KX_RDMAX: acc = int_min(r.size_log2, r.st); break;
    case KX_RDMIN: acc = int_max(r.size_log2, r.st); break;
    case KX_RDFMAX: case KX_RDFMIN: acc = linx_fp_default_nan(fmt); break;
    default: acc = 0; break;
    }
    for (uint64_t l = 0; l < x->n; l++) {
        uint64_t v;
        if (!active(x, l)) {
            continue;
        }
        v = xread(x, srcl, l, fp);
        switch (op) {
        case KX_RDADD: acc += v; break;
        case KX_RDAND: acc &= v; break;
        case KX_RDOR: acc |= v; break;
        case KX_RDXOR: acc ^= v; break;
        case KX_RDMAX:
            acc = (r.st ? (int64_t)v > (int64_t)acc : v > acc) ? v : acc;
            break;
        case KX_RDMIN:
            acc = (r.st ? (int64_t)v < (int64_t)acc : v < acc) ? v : acc;
            break;
        case KX_RDFADD: acc = any ? linx_fadd(&fe, acc, v, fmt) : linx_fadd(&fe, 0, v, fmt); break;
        case KX_RDFMAX: acc = any ? linx_fmax(&fe, acc, v, fmt) : v; break;
        default: acc = any ? linx_fmin(&fe, acc, v, fmt) : v; break;
        }
        any = true;
    }
    if (fp) {
        env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
    }
    return acc;
}

static uint64_t shuffle_src(uint64_t l, uint64_t n, unsigned op, uint64_t delta, uint64_t width)
{
    uint64_t s, e, j;

    if (op == KX_SHFL_BFLY) {
        j = l ^ width; /* width carries the mask */
        return j < n ? j : l;
    }
    if (width == 0 || width > n) {
        width = n;
    }
    s = l / width * width;
    e = s + width < n ? s + width : n;
    switch (op) {
    case KX_SHFL_UP:
        return delta <= l - s ? l - delta : l;
    case KX_SHFL_DOWN:
        return delta < e - l ? l + delta : l;
    default:
        j = s + delta % width;
        return j < n ? j : l;
    }
}

void helper_kernel_xlane(CPULinxState *env, uint64_t desc, uint64_t pc)
{
    XLane x = { env, env->lb[0] };
    unsigned op = desc & KX_OP_MASK;
    unsigned srcl = (desc >> KX_SRCL_SHIFT) & KX_CODE_MASK;
    unsigned srcr = (desc >> KX_SRCR_SHIFT) & KX_CODE_MASK;
    unsigned srcp = (desc >> KX_SRCP_SHIFT) & KX_CODE_MASK;
    unsigned dst = (desc >> KX_DST_SHIFT) & KX_CODE_MASK;
    uint64_t imm = (desc >> KX_IMM_SHIFT) & KX_IMM_MASK;
    bool has_imm = desc & KX_HAS_IMM;
    LinxKReg d;

    if (!valid_src(srcl) || !linx_kreg_dst(dst, &d) ||
        (op >= KX_SHFL_UP && op != KX_SHFL_BFLY && !valid_src(srcr)) ||
        (op >= KX_SHFL_UP && !has_imm && !valid_src(srcp)) ||
        (op >= KX_SHFL_UP && d.kind == LINX_KR_HAND) || d.kind == LINX_KR_RESERVED) {
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), pc, pc);
    }
    if (op < KX_SHFL_UP) {
        uint64_t r = reduce(&x, op, srcl);
        for (uint64_t l = 0; l < x.n; l++) {
            xwrite(&x, dst, l, r);
        }
        return;
    }
    for (uint64_t l = 0; l < x.n; l++) {
        uint64_t delta = op == KX_SHFL_BFLY ? 0 : xread(&x, srcr, l, false);
        uint64_t width = has_imm ? imm : xread(&x, srcp, l, false);
        env->kern.xtmp_ptr[l] = xread(&x, srcl, shuffle_src(l, x.n, op, delta, width), false);
    }
    for (uint64_t l = 0; l < x.n; l++) {
        xwrite(&x, dst, l, env->kern.xtmp_ptr[l]);
    }
}

/* At the entry of a body with phases: lane records for LB0 lanes (the
 * inline ones, or heap records for larger groups). */
void helper_kernel_lanes(CPULinxState *env, uint64_t pc)
{
    uint64_t n = env->lb[0];
    LinxKernelLane *lanes;
    uint64_t *xtmp;

    if (n <= LINX_KERNEL_XLANE_MAX) {
        env->kern.lanes_ptr = env->kern.lanes;
        env->kern.xtmp_ptr = env->kern.xtmp;
        return;
    }
    lanes = n > (UINT64_C(1) << 32) ? NULL
                                    : linx_kernel_heap(env, LINX_KHEAP_LANES,
                                                       n * sizeof(LinxKernelLane));
    xtmp = lanes ? linx_kernel_heap(env, LINX_KHEAP_XTMP, n * sizeof(uint64_t)) : NULL;
    if (!lanes || !xtmp) {
        /* more lanes than the host can hold records for */
        linx_raise_exception(env, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_PARAM, 0), n, pc);
    }
    env->kern.lanes_ptr = lanes;
    env->kern.xtmp_ptr = xtmp;
}
