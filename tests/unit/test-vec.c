/*
 * Vector lane programs (tcg/vec.h) compiled for AVX-512 and AVX2
 * (tcg/x86_64/vector-*.c) against a C reference of the semantics vec.h
 * documents, written here lane by lane: random programs over random
 * data (IEEE special values included), random lane ranges and rounding
 * modes; memory, accumulators, flags and the stop lane must be equal.
 *
 * The reference computes FP operations one lane at a time with scalar
 * host instructions under the same MXCSR (exact IEEE results and
 * flags), canonicalises NaNs itself, and implements maximumNumber, the
 * compares, the FMA fallback rule, gathers' checks and the reductions
 * from their definitions.
 *
 * LINX_VEC_SEED=N runs one program (printed on a mismatch).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcg/code-buffer.h"
#include "tcg/vec.h"

enum {
    NSTREAM_IN = 6,
    NSTREAM_OUT = 4,
    ARR_BYTES = 8192, /* per stream */
    ARR_BIAS = 2048,  /* lane 0's element within the array (negative strides) */
    MAX_LANES = 90,
};

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rnd(Rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static unsigned rn(Rng *r, unsigned n)
{
    return (unsigned)(rnd(r) % n);
}

/* ---------------------------------------------------------------------
 * Host FP operations, one lane, under an MXCSR value (flags collected)
 * --------------------------------------------------------------------- */

static uint32_t ref_mxcsr;
static uint32_t ref_flags;

static void mx_begin(uint32_t *saved)
{
    uint32_t m = ref_mxcsr & ~0x3fu;

    __asm__ volatile("stmxcsr %0" : "=m"(*saved));
    __asm__ volatile("ldmxcsr %0" : : "m"(m));
}

static void mx_end(const uint32_t *saved)
{
    uint32_t m;

    __asm__ volatile("stmxcsr %0" : "=m"(m));
    ref_flags |= m & 0x3d;
    __asm__ volatile("ldmxcsr %0" : : "m"(*saved));
}

typedef enum FOp { F_ADD, F_SUB, F_MUL, F_DIV, F_SQRT, F_FMA } FOp;

static uint64_t host_f32(FOp op, uint32_t a, uint32_t b, uint32_t c)
{
    float x, y, z;
    uint32_t sv, r;

    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    memcpy(&z, &c, 4);
    mx_begin(&sv);
    switch (op) {
    case F_ADD: __asm__ volatile("vaddss %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_SUB: __asm__ volatile("vsubss %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_MUL: __asm__ volatile("vmulss %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_DIV: __asm__ volatile("vdivss %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_SQRT: __asm__ volatile("vsqrtss %1, %1, %0" : "=x"(x) : "x"(x)); break;
    default: __asm__ volatile("vfmadd231ss %2, %1, %0" : "+x"(z) : "x"(x), "x"(y)); x = z; break;
    }
    mx_end(&sv);
    memcpy(&r, &x, 4);
    return r;
}

static uint64_t host_f64(FOp op, uint64_t a, uint64_t b, uint64_t c)
{
    double x, y, z;
    uint32_t sv;
    uint64_t r;

    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    memcpy(&z, &c, 8);
    mx_begin(&sv);
    switch (op) {
    case F_ADD: __asm__ volatile("vaddsd %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_SUB: __asm__ volatile("vsubsd %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_MUL: __asm__ volatile("vmulsd %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_DIV: __asm__ volatile("vdivsd %2, %1, %0" : "=x"(x) : "x"(x), "x"(y)); break;
    case F_SQRT: __asm__ volatile("vsqrtsd %1, %1, %0" : "=x"(x) : "x"(x)); break;
    default: __asm__ volatile("vfmadd231sd %2, %1, %0" : "+x"(z) : "x"(x), "x"(y)); x = z; break;
    }
    mx_end(&sv);
    memcpy(&r, &x, 8);
    return r;
}

static bool is_nan(uint64_t v, bool q)
{
    return q ? (v & INT64_MAX) > UINT64_C(0x7ff0000000000000) : (v & INT32_MAX) > 0x7f800000u;
}

static bool is_snan(uint64_t v, bool q)
{
    return is_nan(v, q) && !(v & (q ? UINT64_C(1) << 51 : UINT64_C(1) << 22));
}

static uint64_t dnan(bool q)
{
    return q ? UINT64_C(0x7ff8000000000000) : 0x7fc00000u;
}

static uint64_t fop(FOp op, bool q, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t r = q ? host_f64(op, a, b, c)
                   : host_f32(op, (uint32_t)a, (uint32_t)b, (uint32_t)c);

    return is_nan(r, q) ? dnan(q) : r;
}

static int64_t fkey(uint64_t v, bool q)
{
    if (q) {
        int64_t s = (int64_t)v;
        return s ^ (int64_t)((uint64_t)(s >> 63) >> 1);
    } else {
        int32_t s = (int32_t)(uint32_t)v;
        return s ^ (int32_t)((uint32_t)(s >> 31) >> 1);
    }
}

/* maximumNumber / minimumNumber; IE for an sNaN operand */
static uint64_t fminmax(bool max, bool q, uint64_t a, uint64_t b)
{
    bool na = is_nan(a, q), nb = is_nan(b, q);

    if (is_snan(a, q) || is_snan(b, q)) {
        ref_flags |= 1;
    }
    if (na && nb) {
        return dnan(q);
    }
    if (na) {
        return b;
    }
    if (nb) {
        return a;
    }
    if (fkey(a, q) == fkey(b, q)) {
        return b;
    }
    return (fkey(a, q) > fkey(b, q)) == max ? a : b;
}

static bool fcmp(unsigned pred, bool q, uint64_t a, uint64_t b)
{
    bool un = is_nan(a, q) || is_nan(b, q);
    double x, y;

    if ((pred & VFC_SIGNAL) ? un : (is_snan(a, q) || is_snan(b, q))) {
        ref_flags |= 1;
    }
    if (un) {
        return false;
    }
    if (q) {
        memcpy(&x, &a, 8);
        memcpy(&y, &b, 8);
    } else {
        float fx, fy;
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        memcpy(&fx, &ua, 4);
        memcpy(&fy, &ub, 4);
        x = fx;
        y = fy;
    }
    switch (pred & 3) {
    case VFC_EQ: return x == y;
    case VFC_NE: return x != y;
    case VFC_LT: return x < y;
    default: return x >= y;
    }
}

/* ---------------------------------------------------------------------
 * The reference interpreter
 * --------------------------------------------------------------------- */

typedef struct Mem {
    uint8_t in[NSTREAM_IN][ARR_BYTES];
    uint8_t out[NSTREAM_OUT][ARR_BYTES];
    uint8_t guest[ARR_BYTES]; /* gathers: guest address = offset */
} Mem;

typedef struct Env {
    int dummy;
} Env;

/* The call target: a mixing function of its arguments. */
static uint64_t call_fn(uint64_t env, uint64_t a, uint64_t b, uint64_t c, uint64_t imm)
{
    uint64_t x = a * 0x9e3779b97f4a7c15u + b * 31 + (c ^ imm);

    return x ^ (x >> 29) ^ (env != 0);
}

/* A block function: out[i] = in[i] * 3 + i + imm for the in-range lanes,
 * 0x5a elsewhere (so writes outside the range would show). */
static void block_fn(void *env, const void *in, void *out, uint64_t bits, uint64_t imm)
{
    bool q = imm >> 63;

    (void)env;
    imm &= 0xffff;
    for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
        uint64_t x = q ? ((const uint64_t *)in)[i] : ((const uint32_t *)in)[i];
        uint64_t r = (bits >> i) & 1 ? x * 3 + i + imm : 0x5a;
        if (q) {
            ((uint64_t *)out)[i] = r;
        } else {
            ((uint32_t *)out)[i] = (uint32_t)r;
        }
    }
}

/* The FMA fallback: canonical-NaN FMA in the host's default mode, plus a
 * mark so the path is visible. */
static uint64_t fma_fallback32(uint64_t env, uint64_t a, uint64_t b, uint64_t c)
{
    (void)env;
    return (a ^ b ^ c) & 0xffffffffu;
}

static uint64_t fma_fallback64(uint64_t env, uint64_t a, uint64_t b, uint64_t c)
{
    (void)env;
    return a ^ (b << 1) ^ (c << 2);
}

/* Gather window callback: the whole guest array is valid except its
 * first 64 bytes; it extends the window to all of that. */
static bool gwin_cb(VecFrame *f, uint64_t lo, uint64_t hi)
{
    if (lo < 64 || hi > ARR_BYTES) {
        return false;
    }
    f->glo = 64;
    f->ghi = ARR_BYTES;
    return true;
}

typedef struct RefState {
    uint64_t v[VEC_MAX_VALS][VEC_LANES_MAX];
} RefState;

static uint64_t ext(uint64_t v, unsigned bits, bool sign)
{
    if (bits >= 64) {
        return v;
    }
    v &= (UINT64_C(1) << bits) - 1;
    if (sign && (v >> (bits - 1))) {
        v |= ~((UINT64_C(1) << bits) - 1);
    }
    return v;
}

static uint64_t trunc_t(uint64_t v, bool q)
{
    return q ? v : (uint32_t)v;
}

static uint64_t ld_mem(const uint8_t *p, unsigned lg, bool sign, bool q)
{
    uint64_t v = 0;

    memcpy(&v, p, 1u << lg);
    return trunc_t(ext(v, 8u << lg, sign), q);
}

/* Run @p over lanes [start, end) in blocks of @L; returns stop. */
static uint64_t ref_run(const VecProg *p, VecFrame *f, unsigned L, RefState *st)
{
    for (uint64_t base = f->start; base < f->end; base += L) {
        unsigned n = f->end - base < L ? (unsigned)(f->end - base) : L;
        uint32_t flags_at_start = ref_flags;
        for (unsigned i = 0; i < p->n; i++) {
            const VecInsn *in = &p->insn[i];
            bool q = in->type == VT_W64, qa = in->aux == VT_W64;
            uint64_t *d = in->d != VEC_NONE ? st->v[in->d] : NULL;
            const uint64_t *a = in->a != VEC_NONE ? st->v[in->a] : NULL;
            const uint64_t *b = in->b != VEC_NONE ? st->v[in->b] : NULL;
            const uint64_t *c = in->c != VEC_NONE ? st->v[in->c] : NULL;
            const uint64_t *m = in->m != VEC_NONE ? st->v[in->m] : NULL;
            unsigned w = q ? 64 : 32;
            /* FMA: a NaN operand among the block's lanes */
            bool fma_slow = false;
            if (in->op == VO_FMA) {
                for (unsigned l = 0; l < n; l++) {
                    fma_slow |= is_nan(a[l], q) || is_nan(b[l], q) || is_nan(c[l], q);
                }
            }
            if (in->op == VO_GATHER) {
                /* checks over the enabled lanes */
                uint64_t lo = UINT64_MAX, hi = 0, size = 1u << (in->aux & 3);
                bool any = false, fail = false;
                for (unsigned l = 0; l < n; l++) {
                    if (m && !m[l]) {
                        continue;
                    }
                    any = true;
                    if ((in->imm & VG_ALIGN) && (a[l] & (size - 1))) {
                        fail = true;
                    }
                    lo = a[l] < lo ? a[l] : lo;
                    hi = a[l] > hi ? a[l] : hi;
                }
                if (any && !fail) {
                    hi += size;
                    if (hi < size) {
                        fail = true;
                    } else if (lo < f->glo || hi > f->ghi) {
                        fail = !f->gwin(f, lo, hi);
                    }
                    for (unsigned j = 0; !fail && j < p->ngather_checks; j++) {
                        if (hi > f->gst_lo[j] && lo < f->gst_hi[j]) {
                            fail = true;
                        }
                    }
                }
                if (fail) {
                    ref_flags = flags_at_start;
                    return base;
                }
            }
            for (unsigned l = 0; l < L; l++) {
                bool inr = l < n, on = inr && (!m || m[l]);
                uint64_t lane = base + l, x = 0;
                if (!inr && in->op != VO_CONST && in->op != VO_SCALAR && in->op != VO_LANE) {
                    if (d) {
                        d[l] = 0;
                    }
                    continue;
                }
                switch (in->op) {
                case VO_CONST: x = trunc_t((uint64_t)in->imm, q); break;
                case VO_SCALAR: x = trunc_t(f->s[in->imm], q); break;
                case VO_LANE: x = trunc_t(lane, q); break;
                case VO_ADD: x = trunc_t(a[l] + b[l], q); break;
                case VO_SUB: x = trunc_t(a[l] - b[l], q); break;
                case VO_MUL: x = trunc_t(a[l] * b[l], q); break;
                case VO_AND: x = a[l] & b[l]; break;
                case VO_OR: x = a[l] | b[l]; break;
                case VO_XOR: x = a[l] ^ b[l]; break;
                case VO_SHLV: x = b[l] >= w ? 0 : trunc_t(a[l] << b[l], q); break;
                case VO_SHRV: x = b[l] >= w ? 0 : a[l] >> b[l]; break;
                case VO_SARV:
                    x = trunc_t((uint64_t)((int64_t)ext(a[l], w, true) >> (b[l] >= w ? w - 1 : b[l])), q);
                    break;
                case VO_SHLI: x = (uint64_t)in->imm >= w ? 0 : trunc_t(a[l] << in->imm, q); break;
                case VO_SHRI: x = (uint64_t)in->imm >= w ? 0 : a[l] >> in->imm; break;
                case VO_SARI: {
                    unsigned s = (uint64_t)in->imm >= w ? w - 1 : (unsigned)in->imm;
                    x = trunc_t((uint64_t)((int64_t)ext(a[l], w, true) >> s), q);
                    break;
                }
                case VO_SMAX: case VO_SMIN: {
                    int64_t sa = (int64_t)ext(a[l], w, true), sb = (int64_t)ext(b[l], w, true);
                    x = (in->op == VO_SMAX ? sa > sb : sa < sb) ? a[l] : b[l];
                    break;
                }
                case VO_UMAX: x = a[l] > b[l] ? a[l] : b[l]; break;
                case VO_UMIN: x = a[l] < b[l] ? a[l] : b[l]; break;
                case VO_SEXT: x = trunc_t(ext(a[l], (unsigned)in->imm, true), q); break;
                case VO_ZEXT: x = ext(a[l], (unsigned)in->imm, false); break;
                case VO_WIDEN: x = ext(a[l], 32, in->imm != 0); break;
                case VO_NARROW: x = (uint32_t)a[l]; break;
                case VO_CMP: {
                    unsigned aw = qa ? 64 : 32;
                    int64_t sa = (int64_t)ext(a[l], aw, true), sb = (int64_t)ext(b[l], aw, true);
                    uint64_t ua = a[l], ub = b[l];
                    switch (in->imm) {
                    case VC_EQ: x = ua == ub; break;
                    case VC_NE: x = ua != ub; break;
                    case VC_LT: x = sa < sb; break;
                    case VC_GE: x = sa >= sb; break;
                    case VC_LE: x = sa <= sb; break;
                    case VC_GT: x = sa > sb; break;
                    case VC_LTU: x = ua < ub; break;
                    case VC_GEU: x = ua >= ub; break;
                    case VC_LEU: x = ua <= ub; break;
                    default: x = ua > ub; break;
                    }
                    break;
                }
                case VO_TESTNZ: x = (a[l] & b[l]) != 0; break;
                case VO_MAND: x = a[l] & b[l]; break;
                case VO_MOR: x = a[l] | b[l]; break;
                case VO_MANDN: x = a[l] & !b[l]; break;
                case VO_MNOT: x = !a[l]; break;
                case VO_MASK2INT: x = a[l]; break;
                case VO_BLEND: x = m[l] ? a[l] : b[l]; break;
                case VO_FADD: x = fop(F_ADD, q, a[l], b[l], 0); break;
                case VO_FSUB: x = fop(F_SUB, q, a[l], b[l], 0); break;
                case VO_FMUL: x = fop(F_MUL, q, a[l], b[l], 0); break;
                case VO_FDIV: x = fop(F_DIV, q, a[l], b[l], 0); break;
                case VO_FSQRT: x = fop(F_SQRT, q, a[l], 0, 0); break;
                case VO_FABS: x = a[l] & (q ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX); break;
                case VO_FMAX: case VO_FMIN: x = fminmax(in->op == VO_FMAX, q, a[l], b[l]); break;
                case VO_FMA:
                    if (fma_slow) {
                        x = ((uint64_t (*)(uint64_t, uint64_t, uint64_t, uint64_t))in->fn)(
                            (uint64_t)(uintptr_t)f->env, a[l], b[l], c[l]);
                        x = trunc_t(x, q);
                    } else {
                        uint64_t sgn = q ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
                        uint64_t xa = a[l], xc = c[l];
                        switch (in->imm & 3) {
                        case VFMA_MSUB: xc ^= sgn; break;
                        case VFMA_NMADD: xa ^= sgn; xc ^= sgn; break;
                        case VFMA_NMSUB: xa ^= sgn; break;
                        default: break;
                        }
                        x = fop(F_FMA, q, xa, b[l], xc);
                    }
                    break;
                case VO_FCMP: x = fcmp((unsigned)in->imm, qa, a[l], b[l]); break;
                case VO_LOAD: {
                    const uint8_t *ptr = f->ptr[in->imm] + (int64_t)lane * p->stream[in->imm].stride;
                    x = on ? ld_mem(ptr, in->aux & 3, in->aux & 4, q) : 0;
                    break;
                }
                case VO_STORE:
                    if (on) {
                        uint8_t *ptr = f->ptr[in->imm] + (int64_t)lane * p->stream[in->imm].stride;
                        memcpy(ptr, &a[l], 1u << (in->aux & 3));
                    }
                    break;
                case VO_GATHER:
                    x = on ? ld_mem((uint8_t *)(uintptr_t)(a[l] + (uint64_t)f->gdelta), in->aux & 3,
                                    in->aux & 4, q)
                           : 0;
                    break;
                case VO_CALL: {
                    uint64_t args[VEC_CALL_ARGS];
                    for (unsigned j = 0; j < VEC_CALL_ARGS; j++) {
                        const uint64_t *src[3] = { a, b, c };
                        uint16_t opv[3] = { in->a, in->b, in->c };
                        switch (in->args[j]) {
                        case VA_ENV: args[j] = (uint64_t)(uintptr_t)f->env; break;
                        case VA_A: case VA_B: case VA_C: {
                            unsigned k = in->args[j] - VA_A;
                            bool wide = p->insn[0].op == 0xff; /* never */
                            (void)wide;
                            args[j] = src[k][l];
                            (void)opv;
                            break;
                        }
                        case VA_IMM: args[j] = (uint64_t)in->call_imm; break;
                        default: args[j] = 0; break;
                        }
                    }
                    x = trunc_t(((uint64_t (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t))
                                     in->fn)(args[0], args[1], args[2], args[3], args[4]),
                                q);
                    break;
                }
                case VO_VCALL:
                    x = trunc_t(a[l] * 3 + l + ((uint64_t)in->call_imm & 0xffff), q);
                    break;
                case VO_RED:
                    if (on) {
                        uint64_t *acc = &f->acc[in->imm][0];
                        uint32_t *acc32 = (uint32_t *)acc;
                        uint64_t cur = q ? acc[l] : acc32[l], v = a[l], r;
                        int64_t sc = (int64_t)ext(cur, w, true), sv = (int64_t)ext(v, w, true);
                        switch (in->aux) {
                        case VR_ADD: r = cur + v; break;
                        case VR_AND: r = cur & v; break;
                        case VR_OR: r = cur | v; break;
                        case VR_XOR: r = cur ^ v; break;
                        case VR_SMAX: r = sv > sc ? v : cur; break;
                        case VR_SMIN: r = sv < sc ? v : cur; break;
                        case VR_UMAX: r = v > cur ? v : cur; break;
                        default: r = v < cur ? v : cur; break;
                        }
                        if (q) {
                            acc[l] = r;
                        } else {
                            acc32[l] = (uint32_t)r;
                        }
                    }
                    break;
                case VO_FRED:
                    if (on && in->aux == VR_FADD) {
                        uint64_t cur = q ? f->acc[in->imm][0] : (uint32_t)f->acc[in->imm][0];
                        uint64_t r = q ? host_f64(F_ADD, cur, a[l], 0)
                                       : host_f32(F_ADD, (uint32_t)cur, (uint32_t)a[l], 0);
                        if (q) {
                            f->acc[in->imm][0] = r;
                        } else {
                            memcpy(&f->acc[in->imm][0], &r, 4);
                        }
                    } else if (on) {
                        uint64_t *acc = &f->acc[in->imm][0], *nan = &f->acc_nan[in->imm][0];
                        uint32_t *acc32 = (uint32_t *)acc, *nan32 = (uint32_t *)nan;
                        uint64_t cur = q ? acc[l] : acc32[l], v = a[l];
                        bool take;
                        f->acc_count[in->imm]++;
                        if (is_nan(v, q)) {
                            if (q) {
                                nan[l] = v;
                            } else {
                                nan32[l] = (uint32_t)v;
                            }
                            if (is_snan(v, q)) {
                                f->acc_snan[in->imm] |= 1;
                            }
                            take = false;
                        } else {
                            take = is_nan(cur, q) ||
                                   (in->aux == VR_FMAX ? fkey(v, q) > fkey(cur, q)
                                                       : fkey(v, q) < fkey(cur, q));
                        }
                        if (take) {
                            if (q) {
                                acc[l] = v;
                            } else {
                                acc32[l] = (uint32_t)v;
                            }
                        }
                    }
                    break;
                default:
                    fail_msg("reference: op %u", in->op);
                }
                if (d) {
                    d[l] = x;
                }
            }
        }
    }
    return f->end;
}

/* ---------------------------------------------------------------------
 * Random programs
 * --------------------------------------------------------------------- */

typedef struct Gen {
    Rng r;
    VecProg *p;
    uint16_t vals[3][256];
    unsigned nv[3];
    unsigned in_streams[NSTREAM_IN], out_streams[NSTREAM_OUT];
    int64_t in_stride[NSTREAM_IN], out_stride[NSTREAM_OUT];
    uint8_t out_lg[NSTREAM_OUT];
    bool gather;
} Gen;

static uint16_t add_val(Gen *g, uint16_t v, VecType t)
{
    if (v != VEC_NONE && g->nv[t] < 256) {
        g->vals[t][g->nv[t]++] = v;
    }
    return v;
}

static uint16_t pick(Gen *g, VecType t)
{
    return g->nv[t] ? g->vals[t][rn(&g->r, g->nv[t])] : VEC_NONE;
}

static uint16_t pick_mask(Gen *g)
{
    return g->nv[VT_MASK] && rn(&g->r, 2) ? pick(g, VT_MASK) : VEC_NONE;
}

static void gen_values(Gen *g, unsigned count)
{
    VecProg *p = g->p;

    for (unsigned i = 0; i < count; i++) {
        VecType t = rn(&g->r, 3) ? (rn(&g->r, 2) ? VT_W32 : VT_W64) : VT_MASK;
        uint16_t a = pick(g, t == VT_MASK ? VT_W32 : t), b = pick(g, t == VT_MASK ? VT_W32 : t);
        uint16_t v = VEC_NONE;
        unsigned k = rn(&g->r, 40);
        if (t == VT_MASK) {
            VecType at = rn(&g->r, 2) ? VT_W32 : VT_W64;
            a = pick(g, at);
            b = pick(g, at);
            if (a == VEC_NONE || b == VEC_NONE) {
                continue;
            }
            switch (k % 6) {
            case 0: v = vec_prog_op(p, VO_CMP, VT_MASK, a, b, VEC_NONE, VEC_NONE, rn(&g->r, 10), at); break;
            case 1: v = vec_prog_op(p, VO_TESTNZ, VT_MASK, a, b, VEC_NONE, VEC_NONE, 0, at); break;
            case 2: v = vec_prog_op(p, VO_FCMP, VT_MASK, a, b, VEC_NONE, VEC_NONE, rn(&g->r, 8), at); break;
            case 3: {
                uint16_t x = pick(g, VT_MASK), y = pick(g, VT_MASK);
                if (x == VEC_NONE || y == VEC_NONE) {
                    continue;
                }
                v = vec_prog_op(p, (VecOp)(VO_MAND + rn(&g->r, 3)), VT_MASK, x, y, VEC_NONE, VEC_NONE, 0, 0);
                break;
            }
            case 4: {
                uint16_t x = pick(g, VT_MASK);
                if (x == VEC_NONE) {
                    continue;
                }
                v = vec_prog_op(p, VO_MNOT, VT_MASK, x, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
                break;
            }
            default: v = vec_prog_op(p, VO_CMP, VT_MASK, a, b, VEC_NONE, VEC_NONE, rn(&g->r, 10), at); break;
            }
            add_val(g, v, VT_MASK);
            continue;
        }
        if (a == VEC_NONE || b == VEC_NONE) {
            continue;
        }
        if (k < 12) {
            static const VecOp ops[] = { VO_ADD, VO_SUB, VO_MUL, VO_AND, VO_OR, VO_XOR,
                                         VO_SMAX, VO_SMIN, VO_UMAX, VO_UMIN, VO_ADD, VO_SUB };
            v = vec_prog_op(p, ops[k], t, a, b, VEC_NONE, VEC_NONE, 0, 0);
        } else if (k < 15) {
            /* variable shifts by small or huge counts */
            uint16_t cnt = rn(&g->r, 2) ? vec_prog_op(p, VO_AND, t, b,
                                                 vec_prog_op(p, VO_CONST, t, VEC_NONE, VEC_NONE, VEC_NONE,
                                                        VEC_NONE, rn(&g->r, 2) ? 63 : 127, 0),
                                                 VEC_NONE, VEC_NONE, 0, 0)
                                        : b;
            v = vec_prog_op(p, (VecOp)(VO_SHLV + (k - 12)), t, a, cnt, VEC_NONE, VEC_NONE, 0, 0);
        } else if (k < 18) {
            v = vec_prog_op(p, (VecOp)(VO_SHLI + (k - 15)), t, a, VEC_NONE, VEC_NONE, VEC_NONE,
                       rn(&g->r, t == VT_W64 ? 70 : 36), 0);
        } else if (k < 20) {
            static const unsigned bits32[] = { 8, 16 }, bits64[] = { 8, 16, 32 };
            v = vec_prog_op(p, k == 18 ? VO_SEXT : VO_ZEXT, t, a, VEC_NONE, VEC_NONE, VEC_NONE,
                       t == VT_W64 ? bits64[rn(&g->r, 3)] : bits32[rn(&g->r, 2)], 0);
        } else if (k < 22) {
            uint16_t x = t == VT_W64 ? pick(g, VT_W32) : pick(g, VT_W64);
            if (x == VEC_NONE) {
                continue;
            }
            v = vec_prog_op(p, t == VT_W64 ? VO_WIDEN : VO_NARROW, t, x, VEC_NONE, VEC_NONE, VEC_NONE,
                       rn(&g->r, 2), 0);
        } else if (k < 24) {
            uint16_t m = pick(g, VT_MASK);
            if (m == VEC_NONE) {
                continue;
            }
            v = vec_prog_op(p, k == 22 ? VO_BLEND : VO_MASK2INT, t, k == 22 ? a : m,
                       k == 22 ? b : VEC_NONE, VEC_NONE, k == 22 ? m : VEC_NONE, 0, 0);
        } else if (k < 32) {
            static const VecOp ops[] = { VO_FADD, VO_FSUB, VO_FMUL, VO_FDIV, VO_FMAX, VO_FMIN,
                                         VO_FSQRT, VO_FABS };
            VecOp o = ops[k - 24];
            v = vec_prog_op(p, o, t, a, o == VO_FSQRT || o == VO_FABS ? VEC_NONE : b, VEC_NONE,
                       VEC_NONE, 0, 0);
        } else if (k < 34) {
            VecInsn in;
            memset(&in, 0, sizeof(in));
            in.op = VO_FMA;
            in.type = (uint8_t)t;
            in.a = a;
            in.b = b;
            in.c = pick(g, t);
            in.m = VEC_NONE;
            in.imm = rn(&g->r, 4);
            in.fn = (uint64_t)(uintptr_t)(t == VT_W64 ? fma_fallback64 : fma_fallback32);
            v = vec_prog_emit(p, &in);
        } else if (k < 35) {
            VecInsn in;
            memset(&in, 0, sizeof(in));
            in.op = VO_CALL;
            in.type = (uint8_t)t;
            in.a = a;
            in.b = rn(&g->r, 2) ? b : VEC_NONE;
            in.c = VEC_NONE;
            in.m = VEC_NONE;
            in.fn = (uint64_t)(uintptr_t)call_fn;
            in.call_imm = (int64_t)rnd(&g->r);
            in.args[0] = VA_ENV;
            in.args[1] = VA_A;
            in.args[2] = in.b != VEC_NONE ? VA_B : VA_IMM;
            in.args[3] = VA_IMM;
            in.args[4] = VA_NONE;
            v = vec_prog_emit(p, &in);
        } else if (k < 36) {
            VecInsn in;
            memset(&in, 0, sizeof(in));
            in.op = VO_VCALL;
            in.type = (uint8_t)t;
            in.a = a;
            in.b = in.c = in.m = VEC_NONE;
            in.fn = (uint64_t)(uintptr_t)block_fn;
            in.call_imm = (int64_t)(rn(&g->r, 1000) | (t == VT_W64 ? UINT64_C(1) << 63 : 0));
            v = vec_prog_emit(p, &in);
        } else if (k < 37) {
            v = vec_prog_op(p, VO_LANE, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
        } else if (k < 38) {
            v = vec_prog_op(p, VO_SCALAR, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, rn(&g->r, 4), 0);
        } else {
            static const int64_t consts[] = { 0, 1, -1, 0x7f800000, 0x3f800000, INT64_MIN, 31, 65 };
            v = vec_prog_op(p, VO_CONST, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, consts[rn(&g->r, 8)], 0);
        }
        add_val(g, v, t);
    }
}

static const int64_t stride_mul[] = { 1, 1, 1, 0, 2, 3, -1 };

/* One op (index @focus into a fixed list) between contiguous loads and
 * a store or reduction: a failure names the op. */
static bool gen_focus(Gen *g, VecProg *p, unsigned focus)
{
    static const VecOp ops[] = {
        VO_ADD, VO_SUB, VO_MUL, VO_AND, VO_OR, VO_XOR, VO_SHLV, VO_SHRV, VO_SARV, VO_SMAX,
        VO_SMIN, VO_UMAX, VO_UMIN, VO_SHLI, VO_SHRI, VO_SARI, VO_SEXT, VO_ZEXT, VO_WIDEN,
        VO_NARROW, VO_CMP, VO_TESTNZ, VO_FCMP, VO_BLEND, VO_FADD, VO_FSUB, VO_FMUL, VO_FDIV,
        VO_FMAX, VO_FMIN, VO_FSQRT, VO_FABS, VO_FMA, VO_CALL, VO_LANE, VO_RED, VO_FRED,
        VO_LOAD, VO_STORE, VO_GATHER,
    };
    unsigned nops = sizeof(ops) / sizeof(ops[0]);
    VecOp op = ops[(focus / 2) % nops];
    VecType t = focus % 2 ? VT_W64 : VT_W32;
    uint16_t a, b, c, m = VEC_NONE, d = VEC_NONE;
    unsigned out;

    if (focus / 2 >= nops) {
        return false;
    }
    memset(g->vals, 0, sizeof(g->vals));
    memset(g->nv, 0, sizeof(g->nv));
    g->p = p;
    vec_prog_init(p);
    for (unsigned s = 0; s < NSTREAM_IN; s++) {
        g->in_stride[s] = op == VO_LOAD ? stride_mul[rn(&g->r, 7)] * 4 : (t == VT_W64 ? 8 : 4);
        g->in_streams[s] = vec_prog_stream(p, g->in_stride[s]);
    }
    for (unsigned s = 0; s < NSTREAM_OUT; s++) {
        g->out_stride[s] = op == VO_STORE ? (stride_mul[rn(&g->r, 7)] ?: 1) * 8 : 8;
        g->out_lg[s] = 3;
        g->out_streams[s] = vec_prog_stream(p, g->out_stride[s]);
    }
    a = vec_prog_op(p, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, g->in_streams[0],
               (uint8_t)(t == VT_W64 ? 3 : 2));
    b = vec_prog_op(p, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, g->in_streams[1],
               (uint8_t)(t == VT_W64 ? 3 : 2));
    c = vec_prog_op(p, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, g->in_streams[2],
               (uint8_t)(t == VT_W64 ? 3 : 2));
    if (rn(&g->r, 2)) {
        m = vec_prog_op(p, VO_CMP, VT_MASK, a, b, VEC_NONE, VEC_NONE, VC_LTU, t);
    }
    switch (op) {
    case VO_SHLI: case VO_SHRI: case VO_SARI:
        d = vec_prog_op(p, op, t, a, VEC_NONE, VEC_NONE, VEC_NONE, rn(&g->r, 70), 0);
        break;
    case VO_SEXT: case VO_ZEXT:
        d = vec_prog_op(p, op, t, a, VEC_NONE, VEC_NONE, VEC_NONE, rn(&g->r, 2) ? 8 : 16, 0);
        break;
    case VO_WIDEN: {
        uint16_t x = vec_prog_op(p, VO_LOAD, VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                            g->in_streams[3], 2);
        d = vec_prog_op(p, VO_WIDEN, VT_W64, x, VEC_NONE, VEC_NONE, VEC_NONE, rn(&g->r, 2), 0);
        t = VT_W64;
        break;
    }
    case VO_NARROW: {
        uint16_t x = vec_prog_op(p, VO_LOAD, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                            g->in_streams[3], 3);
        d = vec_prog_op(p, VO_NARROW, VT_W32, x, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
        t = VT_W32;
        break;
    }
    case VO_CMP: case VO_TESTNZ: case VO_FCMP: {
        uint16_t k = vec_prog_op(p, op, VT_MASK, a, b, VEC_NONE, VEC_NONE,
                            op == VO_CMP ? rn(&g->r, 10) : rn(&g->r, 8), t);
        d = vec_prog_op(p, VO_MASK2INT, t, k, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
        break;
    }
    case VO_BLEND:
        if (m == VEC_NONE) {
            m = vec_prog_op(p, VO_CMP, VT_MASK, a, b, VEC_NONE, VEC_NONE, VC_LT, t);
        }
        d = vec_prog_op(p, VO_BLEND, t, a, b, VEC_NONE, m, 0, 0);
        m = VEC_NONE;
        break;
    case VO_FSQRT: case VO_FABS:
        d = vec_prog_op(p, op, t, a, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
        break;
    case VO_FMA: {
        VecInsn in;
        memset(&in, 0, sizeof(in));
        in.op = VO_FMA;
        in.type = (uint8_t)t;
        in.a = a;
        in.b = b;
        in.c = c;
        in.m = VEC_NONE;
        in.imm = rn(&g->r, 4);
        in.fn = (uint64_t)(uintptr_t)(t == VT_W64 ? fma_fallback64 : fma_fallback32);
        d = vec_prog_emit(p, &in);
        break;
    }
    case VO_CALL: {
        VecInsn in;
        memset(&in, 0, sizeof(in));
        in.op = VO_CALL;
        in.type = (uint8_t)t;
        in.a = a;
        in.b = b;
        in.c = VEC_NONE;
        in.m = VEC_NONE;
        in.fn = (uint64_t)(uintptr_t)call_fn;
        in.call_imm = 12345;
        in.args[0] = VA_ENV;
        in.args[1] = VA_A;
        in.args[2] = VA_B;
        in.args[3] = VA_IMM;
        d = vec_prog_emit(p, &in);
        break;
    }
    case VO_LANE:
        d = vec_prog_op(p, VO_LANE, t, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
        break;
    case VO_RED:
        p->nacc = 1;
        vec_prog_op(p, VO_RED, t, a, VEC_NONE, VEC_NONE, m, 0, (uint8_t)rn(&g->r, 8));
        break;
    case VO_FRED:
        p->nacc = 1;
        vec_prog_op(p, VO_FRED, t, a, VEC_NONE, VEC_NONE, m, 0, (uint8_t)(VR_FADD + rn(&g->r, 3)));
        break;
    case VO_LOAD: {
        unsigned lg = rn(&g->r, t == VT_W64 ? 4 : 3);
        p->stream[g->in_streams[4]].stride = stride_mul[rn(&g->r, 7)] * ((int64_t)1 << lg);
        g->in_stride[4] = p->stream[g->in_streams[4]].stride;
        d = vec_prog_op(p, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, m, g->in_streams[4],
                   (uint8_t)(lg | (rn(&g->r, 2) ? 4 : 0)));
        m = VEC_NONE;
        break;
    }
    case VO_STORE: {
        unsigned lg = rn(&g->r, t == VT_W64 ? 4 : 3);
        p->stream[g->out_streams[1]].stride = (stride_mul[rn(&g->r, 7)] ?: 1) * ((int64_t)1 << lg);
        g->out_stride[1] = p->stream[g->out_streams[1]].stride;
        vec_prog_op(p, VO_STORE, t, a, VEC_NONE, VEC_NONE, m, g->out_streams[1], (uint8_t)lg);
        break;
    }
    case VO_GATHER: {
        unsigned lg = rn(&g->r, 4);
        VecType rt = lg == 3 || rn(&g->r, 2) ? VT_W64 : VT_W32;
        uint16_t x = vec_prog_op(p, VO_LOAD, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                            g->in_streams[3], 3);
        x = vec_prog_op(p, VO_AND, VT_W64, x,
                   vec_prog_op(p, VO_CONST, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, 0xff, 0),
                   VEC_NONE, VEC_NONE, 0, 0);
        x = vec_prog_op(p, VO_SHLI, VT_W64, x, VEC_NONE, VEC_NONE, VEC_NONE, lg, 0);
        x = vec_prog_op(p, VO_ADD, VT_W64, x,
                   vec_prog_op(p, VO_CONST, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                          rn(&g->r, 4) ? 64 : (int64_t)rn(&g->r, 80), 0),
                   VEC_NONE, VEC_NONE, 0, 0);
        d = vec_prog_op(p, VO_GATHER, rt, x, VEC_NONE, VEC_NONE, m, VG_ALIGN,
                   (uint8_t)(lg | (rn(&g->r, 2) ? 4 : 0)));
        p->ngather_checks = rn(&g->r, 2);
        t = rt;
        m = VEC_NONE;
        break;
    }
    default:
        d = vec_prog_op(p, op, t, a, b, VEC_NONE, VEC_NONE, 0, 0);
        break;
    }
    if (d != VEC_NONE) {
        out = g->out_streams[0];
        vec_prog_op(p, VO_STORE, t, d, VEC_NONE, VEC_NONE, m, out, (uint8_t)(t == VT_W64 ? 3 : 2));
    }
    p->nscalars = 4;
    return true;
}

static void gen_program(Gen *g, VecProg *p, unsigned L)
{
    memset(g->vals, 0, sizeof(g->vals));
    memset(g->nv, 0, sizeof(g->nv));
    g->p = p;
    vec_prog_init(p);
    (void)L;
    /* loads from the input streams */
    for (unsigned s = 0; s < NSTREAM_IN; s++) {
        unsigned lg = rn(&g->r, 4);
        VecType t = lg == 3 || rn(&g->r, 3) == 0 ? VT_W64 : VT_W32;
        int64_t stride = stride_mul[rn(&g->r, 7)] * ((int64_t)1 << lg);
        bool sign = rn(&g->r, 2);
        g->in_stride[s] = stride;
        g->in_streams[s] = vec_prog_stream(p, stride);
        add_val(g, vec_prog_op(p, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, pick_mask(g),
                          g->in_streams[s], (uint8_t)(lg | (sign ? 4 : 0))),
                t);
        if (s == 1) {
            gen_values(g, 3);
        }
    }
    /* every eighth program big enough to run out of registers */
    gen_values(g, 4 + rn(&g->r, 20) + (rn(&g->r, 8) == 0 ? 150 : 0));
    /* a gather now and then */
    g->gather = rn(&g->r, 4) == 0;
    if (g->gather) {
        uint16_t idx = pick(g, VT_W64);
        if (idx != VEC_NONE) {
            unsigned lg = rn(&g->r, 4);
            VecType t = lg == 3 || rn(&g->r, 2) ? VT_W64 : VT_W32;
            /* address = 64 + (idx & 0xff) << lg, or an unchecked one */
            uint16_t a = vec_prog_op(p, VO_AND, VT_W64, idx,
                                vec_prog_op(p, VO_CONST, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                                       rn(&g->r, 8) ? 0xff : 0x7ff, 0),
                                VEC_NONE, VEC_NONE, 0, 0);
            a = vec_prog_op(p, VO_SHLI, VT_W64, a, VEC_NONE, VEC_NONE, VEC_NONE, lg, 0);
            a = vec_prog_op(p, VO_ADD, VT_W64, a,
                       vec_prog_op(p, VO_CONST, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE,
                              rn(&g->r, 6) ? 64 : (int64_t)rn(&g->r, 80), 0),
                       VEC_NONE, VEC_NONE, 0, 0);
            add_val(g, vec_prog_op(p, VO_GATHER, t, a, VEC_NONE, VEC_NONE, pick_mask(g), VG_ALIGN,
                              (uint8_t)(lg | (rn(&g->r, 2) ? 4 : 0))),
                    t);
            p->ngather_checks = rn(&g->r, 2);
        }
    }
    gen_values(g, rn(&g->r, 10));
    /* stores */
    for (unsigned s = 0; s < NSTREAM_OUT; s++) {
        VecType t = rn(&g->r, 2) ? VT_W32 : VT_W64;
        uint16_t v = pick(g, t);
        unsigned lg = rn(&g->r, t == VT_W64 ? 4 : 3);
        int64_t stride = stride_mul[rn(&g->r, 7)] * ((int64_t)1 << lg);
        if (stride == 0) {
            stride = (int64_t)1 << lg;
        }
        g->out_stride[s] = stride;
        g->out_lg[s] = (uint8_t)lg;
        g->out_streams[s] = vec_prog_stream(p, stride);
        if (v != VEC_NONE) {
            vec_prog_op(p, VO_STORE, t, v, VEC_NONE, VEC_NONE, pick_mask(g), g->out_streams[s],
                   (uint8_t)lg);
        }
    }
    /* reductions */
    for (unsigned k = 0; k < 4; k++) {
        VecType t = rn(&g->r, 2) ? VT_W32 : VT_W64;
        uint16_t v = pick(g, t);
        if (v == VEC_NONE) {
            continue;
        }
        p->nacc = k + 1;
        if (rn(&g->r, 2)) {
            vec_prog_op(p, VO_RED, t, v, VEC_NONE, VEC_NONE, pick_mask(g), k, (uint8_t)rn(&g->r, 8));
        } else {
            vec_prog_op(p, VO_FRED, t, v, VEC_NONE, VEC_NONE, pick_mask(g), k,
                   (uint8_t)(VR_FADD + rn(&g->r, 3)));
        }
    }
    p->nscalars = 4;
}

/* Random data: integers and FP specials of both widths. */
static void fill(Rng *r, uint8_t *buf, size_t n)
{
    static const uint32_t f32s[] = { 0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                     0x7fa00001, 0xffc12345, 0x00000001, 0x80400000,
                                     0x7f7fffff, 0x00800000, 0x3f800000, 0x40490fdb,
                                     0x0b000000, 0x73000000 };
    static const uint64_t f64s[] = { 0, UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
                                     UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff4000000000001),
                                     UINT64_C(0x0000000000000001), UINT64_C(0x7fefffffffffffff),
                                     UINT64_C(0x3ff0000000000000), UINT64_C(0x0010000000000000),
                                     UINT64_C(0x5ff0000000000000), UINT64_C(0x2000000000000000) };

    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t v = rnd(r);
        switch (rn(r, 8)) {
        case 0: v = f64s[rn(r, sizeof(f64s) / 8)]; break;
        case 1: v = f32s[rn(r, sizeof(f32s) / 4)] | (uint64_t)f32s[rn(r, sizeof(f32s) / 4)] << 32; break;
        case 2: v &= 0xff00ff; break;
        case 3: {
            float a = (float)(int)(rnd(r) % 2001) / 64.0f - 15.0f, b = (float)(int)(rnd(r) % 999) / 8.0f;
            uint32_t x, y;
            memcpy(&x, &a, 4);
            memcpy(&y, &b, 4);
            v = x | (uint64_t)y << 32;
            break;
        }
        case 4: {
            double a = (double)(int64_t)(rnd(r) % 100001) / 3.0 - 1000.0;
            memcpy(&v, &a, 8);
            break;
        }
        default: break;
        }
        memcpy(buf + i, &v, 8);
    }
}

typedef struct Run {
    Mem mem;
    VecFrame f;
    uint64_t stop;
    uint32_t flags;
} Run;

static void setup(Run *run, Rng *r, const Gen *g, uint64_t start, uint64_t end, uint32_t mx)
{
    memset(run, 0, sizeof(*run));
    for (unsigned s = 0; s < NSTREAM_IN; s++) {
        fill(r, run->mem.in[s], ARR_BYTES);
    }
    fill(r, run->mem.guest, ARR_BYTES);
    for (unsigned s = 0; s < NSTREAM_OUT; s++) {
        memset(run->mem.out[s], 0xa5, ARR_BYTES);
    }
    run->f.start = start;
    run->f.end = end;
    run->f.mxcsr = mx;
    run->f.env = &run->f;
    run->f.glo = 64 + 128 * rn(r, 3);
    run->f.ghi = ARR_BYTES / 2;
    run->f.gdelta = (int64_t)(uintptr_t)run->mem.guest;
    run->f.gwin = gwin_cb;
    run->f.gst_lo[0] = rn(r, 2) ? 4096 : 200;
    run->f.gst_hi[0] = run->f.gst_lo[0] + 64;
    for (unsigned i = 0; i < 4; i++) {
        run->f.s[i] = rnd(r);
    }
    for (unsigned s = 0; s < NSTREAM_IN; s++) {
        run->f.ptr[g->in_streams[s]] = run->mem.in[s] + ARR_BIAS;
    }
    for (unsigned s = 0; s < NSTREAM_OUT; s++) {
        run->f.ptr[g->out_streams[s]] = run->mem.out[s] + ARR_BIAS;
    }
    for (unsigned k = 0; k < VEC_MAX_ACC; k++) {
        for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
            run->f.acc[k][i] = rnd(r) & (rn(r, 2) ? UINT64_MAX : 0xffffffff7fffffffu);
            run->f.acc_nan[k][i] = 0;
        }
    }
}

static bool same(const Run *a, const Run *b, char *what, size_t len)
{
    if (a->stop != b->stop) {
        snprintf(what, len, "stop %llu vs %llu", (unsigned long long)a->stop,
                 (unsigned long long)b->stop);
        return false;
    }
    if (a->flags != b->flags) {
        snprintf(what, len, "flags 0x%x vs 0x%x", a->flags, b->flags);
        return false;
    }
    for (unsigned s = 0; s < NSTREAM_OUT; s++) {
        for (unsigned i = 0; i < ARR_BYTES; i++) {
            if (a->mem.out[s][i] != b->mem.out[s][i]) {
                snprintf(what, len, "out stream %u byte %d: %02x vs %02x", s, (int)i - ARR_BIAS,
                         a->mem.out[s][i], b->mem.out[s][i]);
                return false;
            }
        }
    }
    if (memcmp(a->f.acc, b->f.acc, sizeof(a->f.acc)) != 0 ||
        memcmp(a->f.acc_nan, b->f.acc_nan, sizeof(a->f.acc_nan)) != 0 ||
        memcmp(a->f.acc_count, b->f.acc_count, sizeof(a->f.acc_count)) != 0 ||
        memcmp(a->f.acc_snan, b->f.acc_snan, sizeof(a->f.acc_snan)) != 0) {
        for (unsigned k = 0; k < VEC_MAX_ACC; k++) {
            if (a->f.acc_count[k] != b->f.acc_count[k] || a->f.acc_snan[k] != b->f.acc_snan[k]) {
                snprintf(what, len, "acc %u: count %llu snan %llu vs count %llu snan %llu", k,
                         (unsigned long long)a->f.acc_count[k],
                         (unsigned long long)a->f.acc_snan[k],
                         (unsigned long long)b->f.acc_count[k],
                         (unsigned long long)b->f.acc_snan[k]);
                return false;
            }
            for (unsigned i = 0; i < VEC_LANES_MAX; i++) {
                if (a->f.acc[k][i] != b->f.acc[k][i] || a->f.acc_nan[k][i] != b->f.acc_nan[k][i]) {
                    snprintf(what, len, "acc %u[%u]: %016llx/%016llx vs %016llx/%016llx", k, i,
                             (unsigned long long)a->f.acc[k][i],
                             (unsigned long long)a->f.acc_nan[k][i],
                             (unsigned long long)b->f.acc[k][i],
                             (unsigned long long)b->f.acc_nan[k][i]);
                    return false;
                }
            }
        }
        snprintf(what, len, "accumulator counts");
        return false;
    }
    return true;
}

static CodeBuffer cbuf;

static bool run_one(VecIsa isa, uint64_t seed, bool verbose, int focus)
{
    static Gen gen;
    static VecProg prog;
    static Run ref, jit;
    static RefState st;
    Rng r = { seed * 0x9e3779b97f4a7c15u + 1 };
    unsigned L = vec_isa_lanes(isa);
    uint64_t start = rn(&r, 4), end = start + rn(&r, MAX_LANES);
    uint32_t mx = 0x1f80 | (rn(&r, 3) ? 0 : rn(&r, 4) << 13);
    VecFn fn;
    char what[200];
    uint64_t data_seed = rnd(&r);

    if (getenv("LINX_VEC_TRACE")) {
        fprintf(stderr, "seed %llu focus %d\n", (unsigned long long)seed, focus);
    }
    gen.r = r;
    if (focus >= 0) {
        gen_focus(&gen, &prog, (unsigned)focus);
    } else {
        gen_program(&gen, &prog, L);
    }
    code_buffer_reset(&cbuf);
    fn = vec_gen_code(&cbuf, &prog, isa, NULL);
    if (!fn) {
        char why[160];
        if (!vec_prog_check(&prog, why, sizeof(why))) {
            fail_msg("seed %llu: generated program invalid: %s", (unsigned long long)seed, why);
        }
        vec_prog_dump(&prog, stderr);
        fail_msg("seed %llu (%s): no code (LINX_VEC_DEBUG=1 says why)", (unsigned long long)seed,
                 vec_isa_name(isa));
    }
    r.s = data_seed;
    setup(&ref, &r, &gen, start, end, mx);
    r.s = data_seed;
    setup(&jit, &r, &gen, start, end, mx);
    ref_mxcsr = mx;
    ref_flags = 0;
    ref.stop = ref_run(&prog, &ref.f, L, &st);
    ref.flags = ref_flags;
    fn(&jit.f);
    jit.stop = jit.f.stop;
    jit.flags = jit.f.flags;
    /* reference pointers differ only by the memory they point at */
    if (!same(&ref, &jit, what, sizeof(what))) {
        fprintf(stderr, "test-vec: seed %llu focus %d (%s, lanes [%llu, %llu), mxcsr %x): %s\n",
                (unsigned long long)seed, focus, vec_isa_name(isa), (unsigned long long)start,
                (unsigned long long)end, mx, what);
        vec_prog_dump(&prog, stderr);
        return false;
    }
    if (verbose) {
        vec_prog_dump(&prog, stdout);
    }
    return true;
}

static void run_many(VecIsa isa)
{
    const char *one = getenv("LINX_VEC_SEED");
    const char *foc = getenv("LINX_VEC_FOCUS");
    unsigned bad = 0;

    if (one) {
        assert_true(run_one(isa, strtoull(one, NULL, 0), true, foc ? atoi(foc) : -1));
        return;
    }
    /* each op on its own, then random programs */
    for (int focus = 0; focus < 80 && bad < 8; focus++) {
        for (uint64_t seed = 1; seed <= 40 && bad < 8; seed++) {
            bad += !run_one(isa, seed, false, focus);
        }
    }
    {
        const char *cnt = getenv("LINX_VEC_COUNT");
        uint64_t n = cnt ? strtoull(cnt, NULL, 0) : 3000;
        for (uint64_t seed = 1; seed <= n && bad < 5; seed++) {
            bad += !run_one(isa, seed, false, -1);
        }
    }
    assert_int_equal(bad, 0);
}

static void test_avx512(void **state)
{
    (void)state;
    if (vec_host_isa() < VEC_ISA_AVX512) {
        skip();
    }
    run_many(VEC_ISA_AVX512);
}

static void test_avx2(void **state)
{
    (void)state;
    if (vec_host_isa() < VEC_ISA_AVX2) {
        skip();
    }
    run_many(VEC_ISA_AVX2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avx512),
        cmocka_unit_test(test_avx2),
    };

    if (!code_buffer_init(&cbuf, 4 << 20)) {
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
