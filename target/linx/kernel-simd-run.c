/*
 * Kernel bodies in host SIMD, the run-time part (kernel-simd.h,
 * docs/kernels.md "SIMD mode"): helper_ksimd runs one lane group (lc1,
 * lc2 fixed, lc0 over [0, LB0)) through the phases' vector programs, or
 * returns 0 and leaves the group to the lane code.
 *
 * Before any lane runs it proves that running the group block by block,
 * instruction by instruction, gives the lane code's results:
 *   - every access of every lane is in bounds, aligned and permitted: the
 *     footprint [lo, hi) of each access over the group (lane 0's address
 *     plus lane * stride) is one guest_mem_window() (or within the bound
 *     tile), stores touch no translated code and no watchpoint; a lane the
 *     lane code would fault on makes the group run there, so faults stay
 *     precise (lanes before it done, insn_count, TRAPARG0);
 *   - order: within a phase, lane a's access i and lane b's access j
 *     (a != b, one of them a store) touch different bytes.  Same-lane
 *     overlaps (y[l] = f(x[l], y[l]): a load and a store of the same
 *     element) are in program order either way, so in-place updates
 *     qualify; the test is exact for equal strides (which lanes k = b - a
 *     hit the other's bytes is a range of k), and for unequal strides the
 *     footprints must not overlap at all.  Phases and groups run in the
 *     same order in both;
 *   - FP: FCSR.RM must be one MXCSR has (RMM is not); the flags the host
 *     raised are the library's (docs/fpu.md "Host path"), added to FCSR.
 * Gathers are checked block by block in the generated code (VecFrame.g*);
 * a failed check stops before the block and the lane code runs the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "fpu/fpu.h"
#include "hw/core/guest-memory.h"
#include "kernel-internal.h"
#include "kernel-ops.h"
#include "kernel-simd.h"
#include "tcg/exec.h"

#include "helper-proto.h"

/* ---------------------------------------------------------------------
 * Heap memory of large kernels
 * --------------------------------------------------------------------- */

void *linx_kernel_heap(CPULinxState *env, unsigned which, uint64_t bytes)
{
    LinxKernelState *k = &env->kern;

    if (which >= LINX_KHEAP_COUNT || bytes > (UINT64_C(1) << 40)) {
        return NULL;
    }
    if (k->heap_size[which] < bytes) {
        void *p;
        uint64_t n = k->heap_size[which] ? k->heap_size[which] : 4096;
        while (n < bytes) {
            n *= 2;
        }
        p = realloc(k->heap[which], n);
        if (!p) {
            return NULL;
        }
        k->heap[which] = p;
        k->heap_size[which] = n;
    }
    return k->heap[which];
}

void linx_kernel_release(CPULinxState *env)
{
    for (unsigned i = 0; i < LINX_KHEAP_COUNT; i++) {
        free(env->kern.heap[i]);
        env->kern.heap[i] = NULL;
        env->kern.heap_size[i] = 0;
    }
    env->kern.lanes_ptr = env->kern.lanes;
    env->kern.xtmp_ptr = env->kern.xtmp;
}

/* ---------------------------------------------------------------------
 * Uniform scalars
 * --------------------------------------------------------------------- */

static bool cond(unsigned c, uint64_t a, uint64_t b)
{
    switch (c) {
    case VC_EQ: return a == b;
    case VC_NE: return a != b;
    case VC_LT: return (int64_t)a < (int64_t)b;
    case VC_GE: return (int64_t)a >= (int64_t)b;
    case VC_LE: return (int64_t)a <= (int64_t)b;
    case VC_GT: return (a & b) != 0; /* KU_SETC: the and-compare */
    case VC_LTU: return a < b;
    case VC_GEU: return a >= b;
    case VC_LEU: return a <= b;
    default: return a > b;
    }
}

static void eval_uni(CPULinxState *env, const KSProg *sp, unsigned phase, uint64_t *s)
{
    for (unsigned i = 0; i < sp->nuni; i++) {
        const KSUni *u = &sp->uni[i];
        uint64_t a = s[u->a], b = s[u->b], r;
        if (u->phase != phase) {
            continue;
        }
        switch (u->op) {
        case KU_CONST: r = (uint64_t)u->imm; break;
        case KU_RI: r = env->kern.ri[u->imm]; break;
        case KU_LB: r = env->lb[u->imm]; break;
        case KU_LC: r = env->lc[u->imm]; break;
        case KU_RED: continue; /* set after its phase */
        case KU_EXT: r = kop_lane_ext(a, u->lg, u->sign); break;
        case KU_ADD: r = a + b; break;
        case KU_SUB: r = a - b; break;
        case KU_MUL: r = a * b; break;
        case KU_AND: r = a & b; break;
        case KU_OR: r = a | b; break;
        case KU_XOR: r = a ^ b; break;
        case KU_ANDN: r = a & ~b; break;
        case KU_SHL: r = a << (b & 63); break;
        case KU_SHR: r = a >> (b & 63); break;
        case KU_SAR: r = (uint64_t)((int64_t)a >> (b & 63)); break;
        case KU_NEG: r = 0 - a; break;
        case KU_NOT: r = ~a; break;
        case KU_SMAX: r = (int64_t)a >= (int64_t)b ? a : b; break;
        case KU_SMIN: r = (int64_t)a <= (int64_t)b ? a : b; break;
        case KU_UMAX: r = a >= b ? a : b; break;
        case KU_UMIN: r = a <= b ? a : b; break;
        case KU_SETC: r = cond((unsigned)u->imm, a, b); break;
        case KU_SEL: r = a != 0 ? b : s[u->c]; break;
        case KU_CALL2: r = ((uint64_t (*)(uint64_t, uint64_t))(uintptr_t)u->fn)(a, b); break;
        default: r = helper_bitfield((uint64_t)u->imm, a, 0); break;
        }
        s[u->d] = r;
    }
}

/* ---------------------------------------------------------------------
 * Footprints
 * --------------------------------------------------------------------- */

typedef struct Span {
    uint8_t *host;     /* lane 0's element */
    uintptr_t lo, hi;  /* host bytes touched by the group */
} Span;

/* floor(a / b), b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Do lanes a != b of accesses x (store) and y touch a common byte? */
static bool conflict(const KSAccess *x, const Span *sx, const KSAccess *y, const Span *sy,
                     uint64_t n)
{
    int64_t sizex = 1 << x->lg, sizey = 1 << y->lg, d, s, kmin, kmax, lim = (int64_t)n - 1;

    if (sx->hi <= sy->lo || sy->hi <= sx->lo) {
        return false;
    }
    if (x->stride != y->stride || x->stride == 0) {
        return true;
    }
    /* lane a of x at X + a S, lane b of y at Y + b S: they meet when
     * -sizey < d + k S < sizex, d = Y - X, k = b - a */
    d = (int64_t)((uintptr_t)sy->host - (uintptr_t)sx->host);
    s = x->stride;
    if (s < 0) {
        s = -s;
        d = -d; /* k' = -k covers the same range */
    }
    /* k S > -sizey - d  and  k S < sizex - d */
    kmin = floor_div(-sizey - d, s) + 1;  /* smallest k with k s > -sizey - d */
    kmax = -floor_div(d - sizex, s) - 1;  /* largest k with k s < sizex - d */
    if (kmin < -lim) {
        kmin = -lim;
    }
    if (kmax > lim) {
        kmax = lim;
    }
    if (kmin > kmax) {
        return false;
    }
    return !(kmin == 0 && kmax == 0);
}

static bool stores_ok(CPULinxState *env, uint64_t lo, uint64_t hi)
{
    for (uint64_t pg = lo & GUEST_PAGE_MASK; pg < hi; pg += GUEST_PAGE_SIZE) {
        if (guest_mem_is_code(env->engine.mem, pg) ||
            (env->engine.exec && linx_exec_page_watched(env->engine.exec, pg))) {
            return false;
        }
    }
    return true;
}

/* The footprint of access @a over lanes [0, n): its host span and the
 * lane-0 pointer; false when the lane code must run the group. */
static bool footprint(CPULinxState *env, const KSProg *sp, const KSAccess *a, const uint64_t *s,
                      uint64_t n, uint8_t *spill, uint64_t *spill_off, Span *out, uint64_t *glo,
                      uint64_t *ghi)
{
    uint64_t size = UINT64_C(1) << a->lg, base = s[a->base];
    int64_t span;
    uint64_t lo, hi;

    if (__builtin_mul_overflow(a->stride, (int64_t)(n - 1), &span)) {
        return false;
    }
    if (a->kind == KA_SPILL) {
        out->host = spill + *spill_off;
        out->lo = (uintptr_t)out->host;
        out->hi = out->lo + n * size;
        *spill_off += (n * size + 63) & ~UINT64_C(63);
        return true;
    }
    if ((base & (size - 1)) || ((uint64_t)a->stride & (size - 1))) {
        return false; /* a lane is misaligned: the lane code raises */
    }
    lo = span < 0 ? base + (uint64_t)span : base;
    hi = (span < 0 ? base : base + (uint64_t)span) + size;
    if ((span < 0 && lo > base) || (span > 0 && hi - size < base) || hi < lo) {
        return false; /* wraps around */
    }
    if (a->kind == KA_TILE) {
        uint64_t lim = env->kern.tsize[a->tile];
        if (hi > lim) {
            return false;
        }
        out->host = (uint8_t *)(uintptr_t)env->kern.tbase[a->tile] + base;
        out->lo = (uintptr_t)env->kern.tbase[a->tile] + lo;
        out->hi = (uintptr_t)env->kern.tbase[a->tile] + hi;
        return true;
    }
    {
        uint8_t *host = NULL;
        uint64_t fault = 0;
        if (guest_mem_window(env->engine.mem, lo, 1, hi - lo, hi - lo,
                             a->store ? GM_PROT_WRITE : GM_PROT_READ, &host, &fault) != GM_OK ||
            !host || (a->store && !stores_ok(env, lo, hi))) {
            return false;
        }
        out->host = host + (base - lo);
        out->lo = (uintptr_t)host;
        out->hi = (uintptr_t)host + (hi - lo);
        *glo = lo;
        *ghi = hi;
    }
    (void)sp;
    return true;
}

/* Gathers: make a readable window holding [lo, hi) (guest): the widest of
 * a few candidates that is one host-contiguous RAM range (2 MiB, then
 * 64 KiB around it, then exactly), so the next blocks' addresses likely
 * fall inside too. */
static bool gather_window(VecFrame *f, uint64_t lo, uint64_t hi)
{
    static const uint64_t align[] = { UINT64_C(1) << 21, UINT64_C(1) << 16, 1 };
    CPULinxState *env = f->opaque;

    if (hi <= lo) {
        return false;
    }
    for (unsigned i = 0; i < sizeof(align) / sizeof(align[0]); i++) {
        uint64_t wlo = lo & ~(align[i] - 1), whi = (hi + align[i] - 1) & ~(align[i] - 1);
        uint8_t *host = NULL;
        uint64_t fault = 0;
        if (whi < hi ||
            guest_mem_window(env->engine.mem, wlo, 1, whi - wlo, whi - wlo, GM_PROT_READ, &host,
                             &fault) != GM_OK ||
            !host) {
            continue;
        }
        f->glo = wlo;
        f->ghi = whi;
        f->gdelta = (int64_t)((uintptr_t)host - wlo);
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------------
 * Reductions (kernel-xlane.c semantics)
 * --------------------------------------------------------------------- */

static uint64_t red_ident(unsigned vr, bool w64)
{
    switch (vr) {
    case VR_AND: case VR_UMIN: return UINT64_MAX;
    case VR_SMAX: return w64 ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN;
    case VR_SMIN: return w64 ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX;
    default: return 0;
    }
}

static uint64_t combine(unsigned vr, bool w64, uint64_t a, uint64_t b)
{
    int64_t sa = w64 ? (int64_t)a : (int32_t)a, sb = w64 ? (int64_t)b : (int32_t)b;

    switch (vr) {
    case VR_ADD: return a + b;
    case VR_AND: return a & b;
    case VR_OR: return a | b;
    case VR_XOR: return a ^ b;
    case VR_SMAX: return sa >= sb ? a : b;
    case VR_SMIN: return sa <= sb ? a : b;
    case VR_UMAX: return a >= b ? a : b;
    default: return a <= b ? a : b;
    }
}

static void red_init(VecFrame *f, const KSRed *r)
{
    if (r->vr == VR_FADD) {
        f->acc[0][0] = 0; /* +0: the sum starts there */
        return;
    }
    if (r->vr == VR_FMAX || r->vr == VR_FMIN) {
        uint64_t dn = linx_fp_default_nan((LinxFpFormat)r->fmt);
        for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
            if (r->w64) {
                f->acc[0][i] = dn;
            } else {
                ((uint32_t *)f->acc[0])[i] = (uint32_t)dn;
            }
            f->acc_nan[0][i] = 0;
        }
        f->acc_count[0] = 0;
        f->acc_snan[0] = 0;
        return;
    }
    for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
        if (r->w64) {
            f->acc[0][i] = red_ident(r->vr, true);
        } else {
            ((uint32_t *)f->acc[0])[i] = (uint32_t)red_ident(r->vr, false);
        }
    }
}

static int64_t fp_key(uint64_t v, bool q)
{
    if (q) {
        return (int64_t)v ^ (int64_t)((uint64_t)((int64_t)v >> 63) >> 1);
    }
    return (int32_t)((uint32_t)v ^ ((uint32_t)((int32_t)(uint32_t)v >> 31) >> 1));
}

/* The reduction's value, and FCSR flags it raises. */
static uint64_t red_result(CPULinxState *env, const VecFrame *f, const KSRed *r)
{
    bool q = r->w64;
    LinxFpFormat fmt = (LinxFpFormat)r->fmt;

    if (r->vr == VR_FADD) {
        uint64_t v = q ? f->acc[0][0] : (uint32_t)f->acc[0][0];
        return linx_fp_is_nan(v, fmt) ? linx_fp_default_nan(fmt) : v;
    }
    if (r->vr == VR_FMAX || r->vr == VR_FMIN) {
        uint64_t best = linx_fp_default_nan(fmt);
        bool have = false;
        for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
            uint64_t v = q ? f->acc[0][i] : ((const uint32_t *)f->acc[0])[i];
            if (linx_fp_is_nan(v, fmt)) {
                continue;
            }
            if (!have || (r->vr == VR_FMAX ? fp_key(v, q) > fp_key(best, q)
                                            : fp_key(v, q) < fp_key(best, q))) {
                best = v;
                have = true;
            }
        }
        if (f->acc_count[0] == 1 && !have) {
            /* one lane, a NaN: its own bits (no operation ran on it) */
            for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
                uint64_t v = q ? f->acc_nan[0][i] : ((const uint32_t *)f->acc_nan[0])[i];
                if (linx_fp_is_nan(v, fmt)) {
                    return v;
                }
            }
        }
        if (f->acc_count[0] >= 2 && f->acc_snan[0]) {
            env->fcsr |= LINX_FPF_NV;
        }
        return best;
    }
    {
        uint64_t acc = red_ident(r->vr, q);
        for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
            acc = combine(r->vr, q, acc, q ? f->acc[0][i] : ((const uint32_t *)f->acc[0])[i]);
        }
        return q ? acc : kop_lane_ext(acc, 2, r->sign32);
    }
}

/* MXCSR exception flags -> FCSR (IE NV, ZE DZ, OE OF, UE UF, PE NX) */
static uint64_t fcsr_flags(uint32_t mx)
{
    return ((mx & 0x01) ? LINX_FPF_NV : 0) | ((mx & 0x04) ? LINX_FPF_DZ : 0) |
           ((mx & 0x08) ? LINX_FPF_OF : 0) | ((mx & 0x10) ? LINX_FPF_UF : 0) |
           ((mx & 0x20) ? LINX_FPF_NX : 0);
}

/* ---------------------------------------------------------------------
 * The group
 * --------------------------------------------------------------------- */

uint64_t helper_ksimd(CPULinxState *env, uint64_t prog)
{
    const KSProg *sp = (const KSProg *)(uintptr_t)prog;
    uint64_t n = env->lb[0], rm = (env->fcsr & LINX_FP_FCSR_RM_MASK) >> LINX_FP_FCSR_RM_SHIFT;
    uint64_t spill_bytes = 0, spill_off = 0, done = 0;
    Span span[KS_MAX_ACCESS];
    uint64_t glo[KS_MAX_ACCESS], ghi[KS_MAX_ACCESS];
    uint8_t *spill = NULL;
    VecFrame f;
    unsigned ngst = 0;

    if (n == 0 || n > KS_MAX_LANES || (sp->fp && rm == LINX_RM_RMM)) {
        return 0;
    }
    f.start = 0;
    f.end = n;
    f.flags = 0;
    f.mxcsr = 0x1f80u | (uint32_t)(rm <= LINX_RM_RTZ ? rm : 0) << 13;
    f.env = env;
    f.opaque = env;
    f.glo = f.ghi = 0;
    f.gdelta = 0;
    f.gwin = gather_window;
    eval_uni(env, sp, 0, f.s);
    for (unsigned i = 0; i < sp->nspill; i++) {
        spill_bytes += ((n << sp->spill_lg[i]) + 63) & ~UINT64_C(63);
    }
    if (spill_bytes) {
        spill = linx_kernel_heap(env, LINX_KHEAP_SPILL, spill_bytes);
        if (!spill) {
            return 0;
        }
    }
    for (unsigned i = 0; i < sp->nacc; i++) {
        const KSAccess *a = &sp->acc[i];
        glo[i] = ghi[i] = 0;
        if (!footprint(env, sp, a, f.s, n, spill, &spill_off, &span[i], &glo[i], &ghi[i])) {
            return 0;
        }
        f.ptr[a->stream] = span[i].host;
        if (sp->gathers && a->store && a->kind == KA_GUEST) {
            f.gst_lo[ngst] = glo[i];
            f.gst_hi[ngst] = ghi[i];
            ngst++;
        }
    }
    for (unsigned i = 0; i < sp->nacc; i++) {
        for (unsigned j = 0; j < sp->nacc; j++) {
            const KSAccess *x = &sp->acc[i], *y = &sp->acc[j];
            if (x->store && x->phase == y->phase && (i != j || x->stride != 0) &&
                conflict(x, &span[i], y, &span[j], n)) {
                return 0;
            }
        }
    }
    for (unsigned ph = 0; ph < sp->nphases; ph++) {
        if (ph > 0) {
            eval_uni(env, sp, ph, f.s);
        }
        if (ph + 1 < sp->nphases) {
            red_init(&f, &sp->red[ph]);
        }
        sp->fn[ph](&f);
        if (f.stop != n) {
            /* a gather's check failed (single-phase bodies only) */
            done = f.stop;
            env->insn_count += done * sp->ninsns[0];
            env->kern.vec_lanes += done;
            env->fcsr |= fcsr_flags(f.flags);
            return done;
        }
        env->insn_count += n * sp->ninsns[ph];
        if (ph + 1 < sp->nphases) {
            const KSRed *r = &sp->red[ph];
            uint64_t v;
            env->fcsr |= fcsr_flags(f.flags); /* before the result's own NV */
            f.flags = 0;
            v = red_result(env, &f, r);
            f.s[r->res] = r->dst_p ? v != 0 : kop_lane_ext(v, r->dst_lg, r->dst_sign);
            env->insn_count += n; /* the cross-lane instruction, once per lane */
        }
    }
    env->fcsr |= fcsr_flags(f.flags);
    env->kern.vec_lanes += n;
    return n;
}
