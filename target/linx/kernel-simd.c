/*
 * Kernel bodies compiled to host SIMD (kernel-simd.h, docs/kernels.md
 * "SIMD mode"): one vector lane program (tcg/vec.h) per phase.
 *
 * The compiler walks the body once, tracking every queue entry, the hands
 * and p as a translation-time value (as kernel-cache.c does for the lane
 * code): a constant, a uniform scalar (the same in every lane, computed
 * in C per group: KSUni) or a per-lane vector value (a VIR value with 32
 * or 64 bits per lane).  A 32-bit form stands for the 64-bit lane value
 * it extends to (sign or zero, recorded), so 32-bit data runs 16 lanes to
 * a register; operations whose low bits depend only on their operands'
 * low bits run in 32 bits whenever the destination keeps at most 32 bits.
 *
 * Semantics are those of kernel-ops.c, kernel-mem.c and kernel-xlane.c
 * for every lane; the run-time part (kernel-simd-run.c) proves before a
 * group runs that running the lanes instruction by instruction, block by
 * block, gives the lane-by-lane results (footprints and aliasing), and
 * leaves every group it cannot prove to the lane code.  The compiler
 * refuses (NULL: the lane code runs the body) anything it does not take:
 * branches, JR, atomics, shuffles, stores without the lane term, bases
 * that are not uniform, FP16/FP8 reductions, illegal encodings (the lane
 * code raises those), more than KS_MAX_INSNS instructions.
 */
#include <stdlib.h>
#include <string.h>

#include "fpu/fpu.h"
#include "helper-ops.h"
#include "kernel-internal.h"
#include "kernel-ops.h"
#include "kernel-simd-internal.h"
#include "tcg/exec.h"

#include "helper-proto.h"

bool ks_fail(KSComp *c)
{
    c->fail = true;
    return false;
}

/* ---------------------------------------------------------------------
 * Uniform scalars
 * --------------------------------------------------------------------- */

static uint16_t uni(KSComp *c, KSUniOp op, uint16_t a, uint16_t b, int64_t imm)
{
    KSProg *sp = c->sp;
    KSUni *u;

    if (sp->nuni >= KS_MAX_UNI || sp->nscalars >= VEC_MAX_SCALARS) {
        ks_fail(c);
        return 0;
    }
    u = &sp->uni[sp->nuni++];
    memset(u, 0, sizeof(*u));
    u->op = (uint8_t)op;
    u->d = (uint16_t)sp->nscalars++;
    u->a = a;
    u->b = b;
    u->imm = imm;
    /* computable as soon as its operands are (the RI/LB/LC/CONST sources
     * at the group's start, a reduction's result after its phase) */
    switch (op) {
    case KU_CONST: case KU_RI: case KU_LB: case KU_LC:
        u->phase = 0;
        break;
    case KU_RED:
        u->phase = (uint8_t)c->phase;
        break;
    default:
        u->phase = c->uphase[a] > c->uphase[b] ? c->uphase[a] : c->uphase[b];
        break;
    }
    c->uphase[u->d] = u->phase;
    c->uext[u->d] = -1;
    c->scal32[u->d] = c->scal64[u->d] = VEC_NONE;
    return u->d;
}

static uint16_t uni_ext(KSComp *c, uint16_t a, unsigned lg, bool sign)
{
    uint16_t d = uni(c, KU_EXT, a, 0, 0);

    if (!c->fail) {
        c->sp->uni[c->sp->nuni - 1].lg = (uint8_t)lg;
        c->sp->uni[c->sp->nuni - 1].sign = sign;
        c->uext[d] = (int8_t)(sign ? EXT_S : EXT_Z);
    }
    return d;
}

/* ---------------------------------------------------------------------
 * Vector values
 * --------------------------------------------------------------------- */

uint16_t ks_vop(KSComp *c, VecOp op, VecType t, uint16_t a, uint16_t b, uint16_t cc, uint16_t m,
                int64_t imm, uint8_t aux)
{
    uint16_t v;

    if (c->fail) {
        return VEC_NONE;
    }
    v = vec_prog_op(c->vp, op, t, a, b, cc, m, imm, aux);
    if (v == VEC_NONE && op != VO_STORE && op != VO_RED && op != VO_FRED) {
        ks_fail(c);
    }
    return v;
}

uint16_t ks_vconst(KSComp *c, int64_t v, bool w64)
{
    return ks_vop(c, VO_CONST, w64 ? VT_W64 : VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, v, 0);
}

static uint16_t vscalar(KSComp *c, uint16_t s, bool w64)
{
    uint16_t *cache = w64 ? &c->scal64[s] : &c->scal32[s];

    if (*cache == VEC_NONE) {
        *cache = ks_vop(c, VO_SCALAR, w64 ? VT_W64 : VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, s,
                   0);
    }
    return *cache;
}

/* A spilled value back in this phase. */
static void reload(KSComp *c, KSV *x)
{
    const KSAccess *a;

    if (x->kind != VK_VAR && x->kind != VK_MASK) {
        return;
    }
    if (x->ph == c->phase) {
        return;
    }
    if (x->spill < 0) {
        ks_fail(c); /* live across a phase but not spilled: a compiler bug */
        return;
    }
    a = &c->sp->acc[c->sp->spill_stream[x->spill]];
    if (x->kind == VK_MASK) {
        uint16_t v = ks_vop(c, VO_LOAD, VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, a->stream, 2);
        x->m = ks_vop(c, VO_TESTNZ, VT_MASK, v, v, VEC_NONE, VEC_NONE, 0, VT_W32);
    } else if (x->spill64) {
        x->v64 = ks_vop(c, VO_LOAD, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, a->stream, 3);
        x->v32 = VEC_NONE;
    } else {
        x->v32 = ks_vop(c, VO_LOAD, VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, a->stream,
                   (uint8_t)(2 | (x->ext == EXT_S ? 4 : 0)));
        x->v64 = VEC_NONE;
    }
    x->ph = (uint8_t)c->phase;
}

KSV ks_kconst(int64_t v)
{
    KSV x;

    memset(&x, 0, sizeof(x));
    x.kind = VK_CONST;
    x.c = v;
    x.spill = -1;
    x.def = -1;
    return x;
}

static KSV kuni(uint16_t s)
{
    KSV x = ks_kconst(0);

    x.kind = VK_UNI;
    x.s = s;
    return x;
}

KSV ks_kvar32(KSComp *c, uint16_t v, unsigned ext)
{
    KSV x = ks_kconst(0);

    x.kind = VK_VAR;
    x.v32 = v;
    x.v64 = VEC_NONE;
    x.ext = (uint8_t)ext;
    x.ph = (uint8_t)c->phase;
    return x;
}

KSV ks_kvar64(KSComp *c, uint16_t v)
{
    KSV x = ks_kconst(0);

    x.kind = VK_VAR;
    x.v64 = v;
    x.v32 = VEC_NONE;
    x.ext = EXT_X;
    x.ph = (uint8_t)c->phase;
    return x;
}

KSV ks_kmask(KSComp *c, uint16_t m)
{
    KSV x = ks_kconst(0);

    x.kind = VK_MASK;
    x.m = m;
    x.ph = (uint8_t)c->phase;
    return x;
}

/* Low 32 bits of @x per lane (W32). */
uint16_t ks_as32(KSComp *c, KSV *x)
{
    reload(c, x);
    switch (x->kind) {
    case VK_CONST: return ks_vconst(c, x->c, false);
    case VK_UNI: return vscalar(c, x->s, false);
    case VK_MASK: return ks_vop(c, VO_MASK2INT, VT_W32, x->m, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
    default:
        if (x->v32 == VEC_NONE) {
            x->v32 = ks_vop(c, VO_NARROW, VT_W32, x->v64, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
            x->ext = EXT_X;
        }
        return x->v32;
    }
}

/* The whole 64-bit value per lane (W64). */
uint16_t ks_as64(KSComp *c, KSV *x)
{
    reload(c, x);
    switch (x->kind) {
    case VK_CONST: return ks_vconst(c, x->c, true);
    case VK_UNI: return vscalar(c, x->s, true);
    case VK_MASK: return ks_vop(c, VO_MASK2INT, VT_W64, x->m, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
    default:
        if (x->v64 == VEC_NONE) {
            if (x->ext == EXT_X) {
                ks_fail(c); /* a value whose upper half is unknown */
                return VEC_NONE;
            }
            x->v64 = ks_vop(c, VO_WIDEN, VT_W64, x->v32, VEC_NONE, VEC_NONE, VEC_NONE,
                       x->ext == EXT_S, 0);
        }
        return x->v64;
    }
}

/* The extension the 32-bit form implies, or -1 when none is known. */
static int ext_of(const KSComp *c, const KSV *x)
{
    switch (x->kind) {
    case VK_CONST:
        return x->c == (int64_t)(int32_t)x->c ? EXT_S
               : x->c == (int64_t)(uint32_t)x->c ? EXT_Z : -1;
    case VK_UNI: return c->uext[x->s];
    case VK_MASK: return EXT_Z;
    default:
        if (x->ph != c->phase) {
            return x->spill >= 0 && !x->spill64 ? x->ext : -1;
        }
        return x->v32 != VEC_NONE && x->ext != EXT_X ? x->ext : -1;
    }
}

static uint16_t as_mask(KSComp *c, KSV *x)
{
    reload(c, x);
    if (x->kind == VK_MASK) {
        return x->m;
    }
    {
        int e = ext_of(c, x);
        bool w = e < 0;
        uint16_t v = w ? ks_as64(c, x) : ks_as32(c, x);
        return ks_vop(c, VO_TESTNZ, VT_MASK, v, v, VEC_NONE, VEC_NONE, 0, w ? VT_W64 : VT_W32);
    }
}

/* p as a mask; VEC_NONE when every lane is known active. */
static uint16_t pmask(KSComp *c)
{
    if (c->p.kind == VK_CONST && c->p.c) {
        return VEC_NONE;
    }
    if (c->p.kind == VK_CONST) {
        c->p = ks_kmask(c, ks_vop(c, VO_MNOT, VT_MASK,
                          ks_vop(c, VO_CMP, VT_MASK, ks_vconst(c, 0, false), ks_vconst(c, 0, false), VEC_NONE,
                            VEC_NONE, VC_EQ, VT_W32),
                          VEC_NONE, VEC_NONE, VEC_NONE, 0, 0));
    }
    return as_mask(c, &c->p);
}

/* ---------------------------------------------------------------------
 * Operands
 * --------------------------------------------------------------------- */

/* @x extended from its low 8 << lg bits (lg < 3). */
static KSV ext_val(KSComp *c, KSV x, unsigned lg, bool sign)
{
    uint16_t v;

    if (lg >= 3) {
        return x;
    }
    switch (x.kind) {
    case VK_CONST: return ks_kconst((int64_t)kop_lane_ext((uint64_t)x.c, lg, sign));
    case VK_UNI: return kuni(uni_ext(c, x.s, lg, sign));
    default:
        v = ks_as32(c, &x);
        if (lg < 2) {
            v = ks_vop(c, sign ? VO_SEXT : VO_ZEXT, VT_W32, v, VEC_NONE, VEC_NONE, VEC_NONE, 8 << lg, 0);
        }
        return ks_kvar32(c, v, sign ? EXT_S : EXT_Z);
    }
}

/* Raw value of RegId10 source @code. */
bool ks_rd_raw(KSComp *c, unsigned code, KSV *out, LinxKReg *r)
{
    if (!linx_kreg_src(code, r)) {
        return ks_fail(c);
    }
    switch (r->kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND:
        *out = c->q[r->queue][r->k - 1];
        return true;
    case LINX_KR_RI:
        *out = kuni(uni(c, KU_RI, 0, 0, r->index));
        return true;
    case LINX_KR_LB:
        *out = kuni(uni(c, KU_LB, 0, 0, r->index));
        return true;
    case LINX_KR_LC:
        if (r->index) {
            *out = kuni(uni(c, KU_LC, 0, 0, r->index));
        } else {
            /* lc0 < 2^31 here (helper_ksimd): its 32-bit form zero-extends */
            if (c->lane32 == VEC_NONE) {
                c->lane32 = ks_vop(c, VO_LANE, VT_W32, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
            }
            *out = ks_kvar32(c, c->lane32, EXT_Z);
        }
        return true;
    case LINX_KR_P:
        if (c->p.kind == VK_MASK) {
            *out = c->p;
        } else {
            *out = c->p; /* CONST 1 or UNI 0/1 */
        }
        return true;
    case LINX_KR_ZERO:
    case LINX_KR_TILE:
        *out = ks_kconst(0);
        return true;
    default:
        return ks_fail(c);
    }
}

static bool rd_int(KSComp *c, unsigned code, KSV *out)
{
    LinxKReg r;

    if (!ks_rd_raw(c, code, out, &r)) {
        return false;
    }
    *out = ext_val(c, *out, r.size_log2, r.st);
    return !c->fail;
}

static bool rd_field(KSComp *c, LinxFieldId id, KSV *out)
{
    return kop_has(&c->k, id) ? rd_int(c, (unsigned)kop_fld(&c->k, id), out) : ks_fail(c);
}

/* ---------------------------------------------------------------------
 * Results
 * --------------------------------------------------------------------- */

/* d = m ? a : b for two values. */
static KSV blend(KSComp *c, uint16_t m, KSV a, KSV b)
{
    int ea = ext_of(c, &a), eb = ext_of(c, &b);

    if (ea >= 0 && ea == eb) {
        uint16_t v = ks_vop(c, VO_BLEND, VT_W32, ks_as32(c, &a), ks_as32(c, &b), VEC_NONE, m, 0, 0);
        return ks_kvar32(c, v, (unsigned)ea);
    }
    return ks_kvar64(c, ks_vop(c, VO_BLEND, VT_W64, ks_as64(c, &a), ks_as64(c, &b), VEC_NONE, m, 0, 0));
}

static void push(KSComp *c, unsigned q, KSV v)
{
    for (unsigned e = LINX_KQUEUE_DEPTH - 1; e > 0; e--) {
        c->q[q][e] = c->q[q][e - 1];
    }
    v.def = (int16_t)c->k.index;
    c->q[q][0] = v;
}

/* Write @v to RegDst, as kop_write does (typed, predicated when @vd). */
bool ks_wr(KSComp *c, KSV v, bool vd, bool compare)
{
    LinxKReg d;

    if (!linx_kreg_dst((unsigned)kop_fld(&c->k, LINX_FLD_RegDst), &d)) {
        return ks_fail(c);
    }
    switch (d.kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND: {
        KSV t;
        if (d.kind == LINX_KR_HAND && vd) {
            return ks_fail(c);
        }
        if (v.kind == VK_MASK) {
            v = ks_kvar32(c, ks_as32(c, &v), EXT_Z);
        }
        t = ext_val(c, v, d.size_log2, d.st);
        if (d.size_log2 >= 3 && t.kind == VK_VAR && t.v64 == VEC_NONE && t.ext == EXT_X) {
            return ks_fail(c);
        }
        if (vd && pmask(c) != VEC_NONE) {
            t = blend(c, pmask(c), t, c->q[d.queue][LINX_KQUEUE_DEPTH - 1]);
        }
        push(c, d.queue, t);
        return !c->fail;
    }
    case LINX_KR_P: {
        uint16_t m;
        if (vd && !compare) {
            return ks_fail(c);
        }
        if (v.kind == VK_CONST || v.kind == VK_UNI) {
            if (!vd || pmask(c) == VEC_NONE) {
                c->p = v.kind == VK_CONST ? ks_kconst(v.c != 0)
                                          : kuni(uni(c, KU_SETC, v.s, v.s, VC_GT));
                return !c->fail;
            }
        }
        m = as_mask(c, &v);
        if (vd && pmask(c) != VEC_NONE) {
            m = ks_vop(c, VO_MAND, VT_MASK, m, pmask(c), VEC_NONE, VEC_NONE, 0, 0);
        }
        c->p = ks_kmask(c, m);
        c->p.def = (int16_t)c->k.index;
        return !c->fail;
    }
    case LINX_KR_ZERO:
        return true;
    default:
        return ks_fail(c);
    }
}

bool ks_vdom(KSComp *c)
{
    return kop_vdomain(&c->k);
}

static unsigned dst_lg(KSComp *c)
{
    LinxKReg d;

    if (!linx_kreg_dst((unsigned)kop_fld(&c->k, LINX_FLD_RegDst), &d)) {
        return 3;
    }
    return d.kind == LINX_KR_VEC || d.kind == LINX_KR_HAND ? d.size_log2 : 3;
}

/* ---------------------------------------------------------------------
 * Integer operations
 * --------------------------------------------------------------------- */

typedef enum KAlu {
    A_ADD, A_SUB, A_AND, A_OR, A_XOR, A_SHL, A_SHR, A_SAR, A_MUL, A_MADD,
} KAlu;

static const KSUniOp alu_uni[] = {
    [A_ADD] = KU_ADD, [A_SUB] = KU_SUB, [A_AND] = KU_AND, [A_OR] = KU_OR, [A_XOR] = KU_XOR,
    [A_SHL] = KU_SHL, [A_SHR] = KU_SHR, [A_SAR] = KU_SAR, [A_MUL] = KU_MUL,
};

static int64_t fold(KAlu op, uint64_t a, uint64_t b)
{
    switch (op) {
    case A_ADD: return (int64_t)(a + b);
    case A_SUB: return (int64_t)(a - b);
    case A_AND: return (int64_t)(a & b);
    case A_OR: return (int64_t)(a | b);
    case A_XOR: return (int64_t)(a ^ b);
    case A_SHL: return (int64_t)(a << (b & 63));
    case A_SHR: return (int64_t)(a >> (b & 63));
    case A_SAR: return (int64_t)a >> (b & 63);
    default: return (int64_t)(a * b);
    }
}

static bool uniform(const KSV *x)
{
    return x->kind == VK_CONST || x->kind == VK_UNI;
}

static KSV as_uni(KSComp *c, KSV x)
{
    return x.kind == VK_UNI ? x : kuni(uni(c, KU_CONST, 0, 0, x.c));
}

/* SrcR modifiers for the 64-bit (and uniform) paths: .sw .uw .neg/.not,
 * then << shamt. */
static KSV srcr64(KSComp *c, KSV r, unsigned type, bool logic, unsigned sh)
{
    if (type == 1 || type == 2) {
        r = ext_val(c, r, 2, type == 1);
    } else if (type == 3) {
        if (r.kind == VK_CONST) {
            r = ks_kconst(logic ? ~r.c : (int64_t)(0 - (uint64_t)r.c));
        } else if (r.kind == VK_UNI) {
            r = kuni(uni(c, logic ? KU_NOT : KU_NEG, r.s, 0, 0));
        } else {
            uint16_t v = ks_as64(c, &r);
            r = ks_kvar64(c, logic ? ks_vop(c, VO_XOR, VT_W64, v, ks_vconst(c, -1, true), VEC_NONE, VEC_NONE, 0, 0)
                                : ks_vop(c, VO_SUB, VT_W64, ks_vconst(c, 0, true), v, VEC_NONE, VEC_NONE, 0, 0));
        }
    }
    if (sh) {
        if (r.kind == VK_CONST) {
            r = ks_kconst((int64_t)((uint64_t)r.c << sh));
        } else if (r.kind == VK_UNI) {
            r = kuni(uni(c, KU_SHL, r.s, uni(c, KU_CONST, 0, 0, sh), 0));
        } else {
            r = ks_kvar64(c, ks_vop(c, VO_SHLI, VT_W64, ks_as64(c, &r), VEC_NONE, VEC_NONE, VEC_NONE, sh, 0));
        }
    }
    return r;
}

/* The same for the 32-bit path: only the low 32 bits matter. */
static uint16_t srcr32(KSComp *c, KSV *r, unsigned type, bool logic, unsigned sh)
{
    uint16_t v = ks_as32(c, r);

    if (type == 3) {
        v = logic ? ks_vop(c, VO_XOR, VT_W32, v, ks_vconst(c, -1, false), VEC_NONE, VEC_NONE, 0, 0)
                  : ks_vop(c, VO_SUB, VT_W32, ks_vconst(c, 0, false), v, VEC_NONE, VEC_NONE, 0, 0);
    }
    if (sh) {
        v = ks_vop(c, VO_SHLI, VT_W32, v, VEC_NONE, VEC_NONE, VEC_NONE, sh, 0);
    }
    return v;
}

static bool alu(KSComp *c, KAlu op, KSV l, KSV r, KSV *a, unsigned rtype, unsigned sh)
{
    static const VecOp vop[] = {
        [A_ADD] = VO_ADD, [A_SUB] = VO_SUB, [A_AND] = VO_AND, [A_OR] = VO_OR, [A_XOR] = VO_XOR,
        [A_SHL] = VO_SHLV, [A_SHR] = VO_SHRV, [A_SAR] = VO_SARV, [A_MUL] = VO_MUL,
    };
    bool logic = op == A_AND || op == A_OR || op == A_XOR;
    bool vd = ks_vdom(c);
    unsigned dlg = dst_lg(c);
    bool shift = op == A_SHL || op == A_SHR || op == A_SAR;

    /* uniform: in C, once per group */
    if (uniform(&l) && uniform(&r) && (!a || uniform(a)) && !c->fail) {
        KSV rr = srcr64(c, r, rtype, logic, sh), res;
        if (l.kind == VK_CONST && rr.kind == VK_CONST && (!a || a->kind == VK_CONST)) {
            res = ks_kconst(op == A_MADD ? (int64_t)((uint64_t)l.c * (uint64_t)rr.c + (uint64_t)a->c)
                                      : fold(op, (uint64_t)l.c, (uint64_t)rr.c));
        } else if (op == A_MADD) {
            KSV la = as_uni(c, l), ra = as_uni(c, rr), aa = as_uni(c, *a);
            res = kuni(uni(c, KU_ADD, uni(c, KU_MUL, la.s, ra.s, 0), aa.s, 0));
        } else {
            KSV la = as_uni(c, l), ra = as_uni(c, rr);
            res = kuni(uni(c, alu_uni[op], la.s, ra.s, 0));
        }
        return ks_wr(c, res, vd, false);
    }
    if (dlg <= 2 && op != A_SHR && op != A_SAR) {
        /* low bits from low bits: 32 lanes of 32 bits */
        uint16_t vl = ks_as32(c, &l), vr, v;
        if (shift) {
            vr = ks_vop(c, VO_AND, VT_W32, srcr32(c, &r, rtype, false, 0), ks_vconst(c, 63, false), VEC_NONE,
                   VEC_NONE, 0, 0);
        } else {
            vr = srcr32(c, &r, rtype, logic, sh);
        }
        if (op == A_MADD) {
            v = ks_vop(c, VO_ADD, VT_W32, ks_vop(c, VO_MUL, VT_W32, vl, vr, VEC_NONE, VEC_NONE, 0, 0),
                  ks_as32(c, a), VEC_NONE, VEC_NONE, 0, 0);
        } else {
            v = ks_vop(c, vop[op], VT_W32, vl, vr, VEC_NONE, VEC_NONE, 0, 0);
        }
        return ks_wr(c, ks_kvar32(c, v, EXT_X), vd, false);
    }
    if (dlg <= 2 && shift && ext_of(c, &l) >= 0) {
        /* right shifts of a 32-bit form: arithmetic for sign-extended
         * values (the bits above 31 are copies of bit 31), logical for
         * zero-extended ones */
        int e = ext_of(c, &l);
        uint16_t vr = ks_vop(c, VO_AND, VT_W32, ks_as32(c, &r), ks_vconst(c, 63, false), VEC_NONE, VEC_NONE,
                        0, 0);
        uint16_t v = ks_vop(c, e == EXT_S ? VO_SARV : VO_SHRV, VT_W32, ks_as32(c, &l), vr, VEC_NONE,
                       VEC_NONE, 0, 0);
        return ks_wr(c, ks_kvar32(c, v, EXT_X), vd, false);
    }
    {
        KSV rr = shift ? r : srcr64(c, r, rtype, logic, sh);
        uint16_t vl = ks_as64(c, &l), vr = ks_as64(c, &rr), v;
        if (shift) {
            vr = ks_vop(c, VO_AND, VT_W64, vr, ks_vconst(c, 63, true), VEC_NONE, VEC_NONE, 0, 0);
        }
        if (op == A_MADD) {
            v = ks_vop(c, VO_ADD, VT_W64, ks_vop(c, VO_MUL, VT_W64, vl, vr, VEC_NONE, VEC_NONE, 0, 0),
                  ks_as64(c, a), VEC_NONE, VEC_NONE, 0, 0);
        } else {
            v = ks_vop(c, vop[op], VT_W64, vl, vr, VEC_NONE, VEC_NONE, 0, 0);
        }
        return ks_wr(c, ks_kvar64(c, v), vd, false);
    }
}

static bool op_rr(KSComp *c, KAlu op, bool mods)
{
    KSV l, r;
    unsigned type = mods ? (unsigned)kop_srcr_mod(&c->k) : 0;
    unsigned sh = mods ? (unsigned)kop_fld(&c->k, LINX_FLD_shamt) & 63 : 0;

    if (!rd_field(c, LINX_FLD_SrcL, &l) || !rd_field(c, LINX_FLD_SrcR, &r)) {
        return false;
    }
    return alu(c, op, l, r, NULL, type, sh);
}

static bool op_ri(KSComp *c, KAlu op, int64_t imm)
{
    KSV l;

    if (!rd_field(c, LINX_FLD_SrcL, &l)) {
        return false;
    }
    return alu(c, op, l, ks_kconst(imm), NULL, 0, 0);
}

static bool op_madd(KSComp *c)
{
    KSV l, r, a;

    if (!rd_field(c, LINX_FLD_SrcL, &l) || !rd_field(c, LINX_FLD_SrcR, &r) ||
        !rd_field(c, LINX_FLD_SrcD, &a)) {
        return false;
    }
    return alu(c, A_MADD, l, r, &a, 0, 0);
}

static bool srcl_signed(KSComp *c)
{
    LinxKReg r;

    return linx_kreg_src((unsigned)kop_fld(&c->k, LINX_FLD_SrcL), &r) && r.st;
}

/* Compare two values as 64-bit integers: a mask.  32-bit compares when
 * both sides extend the same way (see kernel-simd.c's header). */
static uint16_t cmp(KSComp *c, VecCond cond, KSV *l, KSV *r)
{
    int el = ext_of(c, l), er = ext_of(c, r);

    if (el >= 0 && el == er) {
        if (el == EXT_Z) {
            /* zero-extended: signed 64-bit order is unsigned 32-bit order */
            static const VecCond u[] = { [VC_EQ] = VC_EQ, [VC_NE] = VC_NE, [VC_LT] = VC_LTU,
                                         [VC_GE] = VC_GEU, [VC_LE] = VC_LEU, [VC_GT] = VC_GTU,
                                         [VC_LTU] = VC_LTU, [VC_GEU] = VC_GEU, [VC_LEU] = VC_LEU,
                                         [VC_GTU] = VC_GTU };
            cond = u[cond];
        }
        return ks_vop(c, VO_CMP, VT_MASK, ks_as32(c, l), ks_as32(c, r), VEC_NONE, VEC_NONE, cond, VT_W32);
    }
    return ks_vop(c, VO_CMP, VT_MASK, ks_as64(c, l), ks_as64(c, r), VEC_NONE, VEC_NONE, cond, VT_W64);
}

static bool op_minmax(KSComp *c, bool max)
{
    KSV l, r;
    bool s = srcl_signed(c);

    if (!rd_field(c, LINX_FLD_SrcL, &l) || !rd_field(c, LINX_FLD_SrcR, &r)) {
        return false;
    }
    if (uniform(&l) && uniform(&r)) {
        KSV la = as_uni(c, l), ra = as_uni(c, r);
        KSUniOp op = max ? (s ? KU_SMAX : KU_UMAX) : (s ? KU_SMIN : KU_UMIN);
        return ks_wr(c, kuni(uni(c, op, la.s, ra.s, 0)), ks_vdom(c), false);
    }
    /* l when l >= r (max) / l <= r (min), as the lane code's movcond */
    {
        uint16_t m = cmp(c, max ? (s ? VC_GE : VC_GEU) : (s ? VC_LE : VC_LEU), &l, &r);
        return ks_wr(c, blend(c, m, l, r), ks_vdom(c), false);
    }
}

typedef enum KCmp { KC_EQ, KC_NE, KC_LT, KC_GE, KC_LTU, KC_GEU, KC_AND, KC_OR } KCmp;

static bool op_cmp(KSComp *c, KCmp k, bool imm)
{
    static const VecCond conds[] = { [KC_EQ] = VC_EQ, [KC_NE] = VC_NE, [KC_LT] = VC_LT,
                                     [KC_GE] = VC_GE, [KC_LTU] = VC_LTU, [KC_GEU] = VC_GEU };
    KSV l, r;
    uint16_t m;

    if (!rd_field(c, LINX_FLD_SrcL, &l)) {
        return false;
    }
    if (imm) {
        r = ks_kconst(kop_has(&c->k, LINX_FLD_uimm12) ? kop_fld(&c->k, LINX_FLD_uimm12)
                                                    : kop_fld(&c->k, LINX_FLD_simm12));
    } else if (!rd_field(c, LINX_FLD_SrcR, &r)) {
        return false;
    }
    if (uniform(&l) && uniform(&r)) {
        KSV la = as_uni(c, l), ra = as_uni(c, r), res;
        if (k == KC_AND || k == KC_OR) {
            uint16_t t = uni(c, k == KC_AND ? KU_AND : KU_OR, la.s, ra.s, 0);
            res = kuni(uni(c, KU_SETC, t, t, VC_GT));
        } else {
            res = kuni(uni(c, KU_SETC, la.s, ra.s, conds[k]));
        }
        return ks_wr(c, res, ks_vdom(c), true);
    }
    if (k == KC_AND || k == KC_OR) {
        int el = ext_of(c, &l), er = ext_of(c, &r);
        bool w = !(el >= 0 && el == er);
        uint16_t a = w ? ks_as64(c, &l) : ks_as32(c, &l), b = w ? ks_as64(c, &r) : ks_as32(c, &r);
        VecType t = w ? VT_W64 : VT_W32;
        if (k == KC_OR) {
            a = ks_vop(c, VO_OR, t, a, b, VEC_NONE, VEC_NONE, 0, 0);
            b = a;
        }
        m = ks_vop(c, VO_TESTNZ, VT_MASK, a, b, VEC_NONE, VEC_NONE, 0, t);
    } else {
        m = cmp(c, conds[k], &l, &r);
    }
    return ks_wr(c, ks_kmask(c, m), ks_vdom(c), true);
}

static bool op_select(KSComp *c, bool psel)
{
    KSV cc, l, r;
    uint16_t m;

    if (psel) {
        cc = c->p;
    } else if (!rd_field(c, LINX_FLD_SrcP, &cc)) {
        return false;
    }
    if (!rd_field(c, LINX_FLD_SrcL, &l) || !rd_field(c, LINX_FLD_SrcR, &r)) {
        return false;
    }
    if (kop_srcr_mod(&c->k) == LINX_SRCR_NEG) {
        r = srcr64(c, r, 3, false, 0);
    }
    if (uniform(&cc) && uniform(&l) && uniform(&r)) {
        KSV ca = as_uni(c, cc), la = as_uni(c, l), ra = as_uni(c, r);
        uint16_t d = uni(c, KU_SEL, ca.s, la.s, 0);
        if (!c->fail) {
            KSUni *u = &c->sp->uni[c->sp->nuni - 1];
            u->c = ra.s;
            if (c->uphase[ra.s] > u->phase) {
                u->phase = c->uphase[ra.s];
                c->uphase[d] = u->phase;
            }
        }
        return ks_wr(c, kuni(d), ks_vdom(c), false);
    }
    if (cc.kind == VK_CONST) {
        return ks_wr(c, cc.c ? l : r, ks_vdom(c), false);
    }
    m = as_mask(c, &cc);
    return ks_wr(c, blend(c, m, l, r), ks_vdom(c), false);
}

/* A per-lane call of an integer helper(a, b) (or a uniform one in C). */
static bool op_call2(KSComp *c, uint64_t fn, KSV l, KSV r)
{
    VecInsn in;

    if (uniform(&l) && uniform(&r)) {
        KSV la = as_uni(c, l), ra = as_uni(c, r);
        uint16_t d = uni(c, KU_CALL2, la.s, ra.s, 0);
        if (!c->fail) {
            c->sp->uni[c->sp->nuni - 1].fn = fn;
        }
        return ks_wr(c, kuni(d), ks_vdom(c), false);
    }
    memset(&in, 0, sizeof(in));
    in.op = VO_CALL;
    in.type = VT_W64;
    in.a = ks_as64(c, &l);
    in.b = ks_as64(c, &r);
    in.c = in.m = VEC_NONE;
    in.fn = fn;
    in.args[0] = VA_A;
    in.args[1] = VA_B;
    if (c->fail) {
        return false;
    }
    return ks_wr(c, ks_kvar64(c, vec_prog_emit(c->vp, &in)), ks_vdom(c), false);
}

static bool op_divrem(KSComp *c, bool rem)
{
    KSV l, r;
    bool s = srcl_signed(c);
    uint64_t fn = rem ? (s ? (uint64_t)(uintptr_t)helper_rem : (uint64_t)(uintptr_t)helper_remu)
                      : (s ? (uint64_t)(uintptr_t)helper_div : (uint64_t)(uintptr_t)helper_divu);

    if (!rd_field(c, LINX_FLD_SrcL, &l) || !rd_field(c, LINX_FLD_SrcR, &r)) {
        return false;
    }
    return op_call2(c, fn, l, r);
}

static bool op_bitfield(KSComp *c, unsigned bf)
{
    KSV l;
    unsigned m = (unsigned)kop_fld(&c->k, bf == LINX_BF_REV ? LINX_FLD_immr : LINX_FLD_imms) & 63;
    unsigned n = ((unsigned)kop_fld(&c->k, LINX_FLD_imml) & 63) + 1;
    int64_t desc = (int64_t)(bf | m << 8 | n << 16);
    VecInsn in;

    if (!rd_field(c, LINX_FLD_SrcL, &l)) {
        return false;
    }
    if (uniform(&l)) {
        KSV la = as_uni(c, l);
        return ks_wr(c, kuni(uni(c, KU_BITF, la.s, 0, desc)), ks_vdom(c), false);
    }
    memset(&in, 0, sizeof(in));
    in.op = VO_CALL;
    in.type = VT_W64;
    in.a = ks_as64(c, &l);
    in.b = in.c = in.m = VEC_NONE;
    in.fn = (uint64_t)(uintptr_t)helper_bitfield;
    in.call_imm = desc;
    in.args[0] = VA_IMM;
    in.args[1] = VA_A;
    in.args[2] = VA_NONE;
    if (c->fail) {
        return false;
    }
    return ks_wr(c, ks_kvar64(c, vec_prog_emit(c->vp, &in)), ks_vdom(c), false);
}

/* ---------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------- */

typedef struct KMemF {
    uint16_t form;
    uint8_t lg;
    bool load, sign, imm, unscaled, brg;
} KMemF;

#define KM(f, lg_, ld, sg, im, un, br) { LINX_F_##f, lg_, ld, sg, im, un, br }
#define KM2(f, lg_, ld, sg, im, un) KM(f, lg_, ld, sg, im, un, false), \
                                    KM(f##_BRG, lg_, ld, sg, im, un, true)
static const KMemF kmem[] = {
    KM2(V_LB, 0, true, true, false, false),    KM2(V_LBU, 0, true, false, false, false),
    KM2(V_LH, 1, true, true, false, false),    KM2(V_LHU, 1, true, false, false, false),
    KM2(V_LW, 2, true, true, false, false),    KM2(V_LWU, 2, true, false, false, false),
    KM2(V_LD, 3, true, false, false, false),
    KM2(V_LBI, 0, true, true, true, false),    KM2(V_LBUI, 0, true, false, true, false),
    KM2(V_LHI, 1, true, true, true, false),    KM2(V_LHUI, 1, true, false, true, false),
    KM2(V_LWI, 2, true, true, true, false),    KM2(V_LWUI, 2, true, false, true, false),
    KM2(V_LDI, 3, true, false, true, false),
    KM2(V_LHI_U, 1, true, true, true, true),   KM2(V_LHUI_U, 1, true, false, true, true),
    KM2(V_LWI_U, 2, true, true, true, true),   KM2(V_LWUI_U, 2, true, false, true, true),
    KM2(V_LDI_U, 3, true, false, true, true),
    KM2(V_SB, 0, false, false, false, false),  KM2(V_SH, 1, false, false, false, false),
    KM2(V_SW, 2, false, false, false, false),  KM2(V_SD, 3, false, false, false, false),
    KM2(V_SH_U, 1, false, false, false, true), KM2(V_SW_U, 2, false, false, false, true),
    KM2(V_SD_U, 3, false, false, false, true),
    KM2(V_SBI, 0, false, false, true, false),  KM2(V_SHI, 1, false, false, true, false),
    KM2(V_SWI, 2, false, false, true, false),  KM2(V_SDI, 3, false, false, true, false),
    KM2(V_SHI_U, 1, false, false, true, true), KM2(V_SWI_U, 2, false, false, true, true),
    KM2(V_SDI_U, 3, false, false, true, true),
};

static const KMemF *kmem_of(unsigned form)
{
    for (size_t i = 0; i < sizeof(kmem) / sizeof(kmem[0]); i++) {
        if (kmem[i].form == form) {
            return &kmem[i];
        }
    }
    return NULL;
}

static int new_stream(KSComp *c, int64_t stride)
{
    if (c->nstreams >= VEC_MAX_STREAMS) {
        ks_fail(c);
        return 0;
    }
    c->stride[c->nstreams] = stride;
    return (int)c->nstreams++;
}

static KSAccess *new_access(KSComp *c, KSAccessKind kind, unsigned lg, bool store, int64_t stride)
{
    KSAccess *a;

    if (c->sp->nacc >= KS_MAX_ACCESS) {
        ks_fail(c);
        return NULL;
    }
    a = &c->sp->acc[c->sp->nacc++];
    memset(a, 0, sizeof(*a));
    a->kind = (uint8_t)kind;
    a->phase = (uint8_t)c->phase;
    a->lg = (uint8_t)lg;
    a->store = store;
    a->stride = stride;
    a->stream = (uint8_t)new_stream(c, stride);
    return a;
}

static bool op_mem(KSComp *c, const KMemF *m)
{
    LinxFieldId base_f = m->imm && !m->load ? LINX_FLD_SrcR : LINX_FLD_SrcL;
    bool local = kop_fld(&c->k, LINX_FLD_L) != 0;
    bool lane = kop_fld(&c->k, LINX_FLD_C) != 0;
    bool vd = ks_vdom(c);
    uint16_t msk = vd ? pmask(c) : VEC_NONE;
    LinxKReg b, d;
    KSV base, off, addr, idx;
    int tile = -1;
    KSAccess *a;

    if (!linx_kreg_src((unsigned)kop_fld(&c->k, base_f), &b)) {
        return ks_fail(c);
    }
    if (b.kind == LINX_KR_TILE) {
        if (m->brg || (!m->load && b.index != LINX_KTILE_TO && b.index != LINX_KTILE_TS)) {
            return ks_fail(c);
        }
        tile = b.index;
        base = ks_kconst(0);
    } else {
        if (!m->brg || local || !rd_int(c, (unsigned)kop_fld(&c->k, base_f), &base)) {
            return ks_fail(c);
        }
    }
    if (m->load && (!linx_kreg_dst((unsigned)kop_fld(&c->k, LINX_FLD_RegDst), &d) ||
                    (vd && d.kind == LINX_KR_HAND) || d.kind == LINX_KR_P ||
                    d.kind == LINX_KR_RESERVED)) {
        return ks_fail(c);
    }
    if (m->imm) {
        int64_t o = kop_fld(&c->k, LINX_FLD_simm24);
        off = ks_kconst(m->unscaled ? o : (int64_t)((uint64_t)o << m->lg));
    } else {
        unsigned sh = ((unsigned)kop_fld(&c->k, LINX_FLD_shamt) +
                       (!m->load && !m->unscaled ? m->lg : 0)) & 63;
        if (!rd_field(c, LINX_FLD_SrcR, &idx)) {
            return false;
        }
        off = srcr64(c, idx, 0, false, sh);
    }
    if (c->fail) {
        return false;
    }
    if (!uniform(&base) || !uniform(&off)) {
        /* per-lane addresses: a gather (bridged loads only) */
        uint16_t av;
        if (!m->load || tile >= 0 || c->body->nphases > 1 || c->store_seen) {
            return ks_fail(c);
        }
        av = ks_vop(c, VO_ADD, VT_W64, ks_as64(c, &base), ks_as64(c, &off), VEC_NONE, VEC_NONE, 0, 0);
        if (lane) {
            uint16_t l = ks_vop(c, VO_LANE, VT_W64, VEC_NONE, VEC_NONE, VEC_NONE, VEC_NONE, 0, 0);
            av = ks_vop(c, VO_ADD, VT_W64, av,
                   ks_vop(c, VO_SHLI, VT_W64, l, VEC_NONE, VEC_NONE, VEC_NONE, m->lg, 0), VEC_NONE,
                   VEC_NONE, 0, 0);
        }
        c->sp->gathers = true;
        {
            VecType t = m->lg == 3 ? VT_W64 : VT_W32;
            uint16_t v = ks_vop(c, VO_GATHER, t, av, VEC_NONE, VEC_NONE, msk, VG_ALIGN,
                           (uint8_t)(m->lg | (m->sign ? 4 : 0)));
            KSV x = t == VT_W64 ? ks_kvar64(c, v) : ks_kvar32(c, v, m->sign ? EXT_S : EXT_Z);
            return ks_wr(c, x, vd, false);
        }
    }
    /* lane 0's address, uniform; lane l's: + l * stride */
    if (base.kind == VK_CONST && off.kind == VK_CONST) {
        addr = kuni(uni(c, KU_CONST, 0, 0, (int64_t)((uint64_t)base.c + (uint64_t)off.c)));
    } else {
        KSV ba = as_uni(c, base), oa = as_uni(c, off);
        addr = kuni(uni(c, KU_ADD, ba.s, oa.s, 0));
    }
    if (!m->load && !lane) {
        return ks_fail(c); /* every lane stores to one place */
    }
    a = new_access(c, tile >= 0 ? KA_TILE : KA_GUEST, m->lg, !m->load,
                   lane ? (int64_t)1 << m->lg : 0);
    if (!a || c->fail) {
        return ks_fail(c);
    }
    a->tile = (uint8_t)(tile >= 0 ? tile : 0);
    a->base = addr.s;
    if (c->uphase[addr.s] != 0) {
        return ks_fail(c); /* checked before any phase runs */
    }
    if (m->load) {
        VecType t = m->lg == 3 ? VT_W64 : VT_W32;
        uint16_t v = ks_vop(c, VO_LOAD, t, VEC_NONE, VEC_NONE, VEC_NONE, msk, a->stream,
                       (uint8_t)(m->lg | (m->sign ? 4 : 0)));
        KSV x = t == VT_W64 ? ks_kvar64(c, v) : ks_kvar32(c, v, m->sign ? EXT_S : EXT_Z);
        return ks_wr(c, x, vd, false);
    } else {
        KSV val;
        uint16_t v;
        if (!rd_field(c, m->imm ? LINX_FLD_SrcL : LINX_FLD_SrcD, &val)) {
            return false;
        }
        v = m->lg == 3 ? ks_as64(c, &val) : ks_as32(c, &val);
        c->store_seen = true;
        vec_prog_op(c->vp, VO_STORE, m->lg == 3 ? VT_W64 : VT_W32, v, VEC_NONE, VEC_NONE, msk,
                    a->stream, m->lg);
        return !c->fail;
    }
}

/* ---------------------------------------------------------------------
 * Instructions
 * --------------------------------------------------------------------- */

static bool ks_insn(KSComp *c)
{
    unsigned form = kop_cur(&c->k)->form;
    const KMemF *m = kmem_of(form);

    if (m) {
        return op_mem(c, m);
    }
    switch (form) {
    case LINX_F_V_ADD: return op_rr(c, A_ADD, true);
    case LINX_F_V_SUB: return op_rr(c, A_SUB, true);
    case LINX_F_V_AND: return op_rr(c, A_AND, true);
    case LINX_F_V_OR: return op_rr(c, A_OR, true);
    case LINX_F_V_XOR: return op_rr(c, A_XOR, true);
    case LINX_F_V_ADDI: return op_ri(c, A_ADD, kop_fld(&c->k, LINX_FLD_uimm12));
    case LINX_F_V_SUBI: return op_ri(c, A_SUB, kop_fld(&c->k, LINX_FLD_uimm12));
    case LINX_F_V_ANDI: return op_ri(c, A_AND, kop_fld(&c->k, LINX_FLD_simm12));
    case LINX_F_V_ORI: return op_ri(c, A_OR, kop_fld(&c->k, LINX_FLD_simm12));
    case LINX_F_V_XORI: return op_ri(c, A_XOR, kop_fld(&c->k, LINX_FLD_simm12));
    case LINX_F_V_SLL: return op_rr(c, A_SHL, false);
    case LINX_F_V_SRL: return op_rr(c, A_SHR, false);
    case LINX_F_V_SRA: return op_rr(c, A_SAR, false);
    case LINX_F_V_SLLI: return op_ri(c, A_SHL, kop_fld(&c->k, LINX_FLD_shamt) & 63);
    case LINX_F_V_SRLI: return op_ri(c, A_SHR, kop_fld(&c->k, LINX_FLD_shamt) & 63);
    case LINX_F_V_SRAI: return op_ri(c, A_SAR, kop_fld(&c->k, LINX_FLD_shamt) & 63);
    case LINX_F_V_MUL: return op_rr(c, A_MUL, false);
    case LINX_F_V_MADD: return op_madd(c);
    case LINX_F_V_DIV: return op_divrem(c, false);
    case LINX_F_V_REM: return op_divrem(c, true);
    case LINX_F_V_MAX: return op_minmax(c, true);
    case LINX_F_V_MIN: return op_minmax(c, false);
    case LINX_F_V_BXU: return op_bitfield(c, LINX_BF_BXU);
    case LINX_F_V_BXS: return op_bitfield(c, LINX_BF_BXS);
    case LINX_F_V_CLZ: return op_bitfield(c, LINX_BF_CLZ);
    case LINX_F_V_CTZ: return op_bitfield(c, LINX_BF_CTZ);
    case LINX_F_V_BCNT: return op_bitfield(c, LINX_BF_BCNT);
    case LINX_F_V_BIC: return op_bitfield(c, LINX_BF_BIC);
    case LINX_F_V_BIS: return op_bitfield(c, LINX_BF_BIS);
    case LINX_F_V_REV: return op_bitfield(c, LINX_BF_REV);
    case LINX_F_V_CMP_EQ: return op_cmp(c, KC_EQ, false);
    case LINX_F_V_CMP_NE: return op_cmp(c, KC_NE, false);
    case LINX_F_V_CMP_LT: return op_cmp(c, KC_LT, false);
    case LINX_F_V_CMP_GE: return op_cmp(c, KC_GE, false);
    case LINX_F_V_CMP_LTU: return op_cmp(c, KC_LTU, false);
    case LINX_F_V_CMP_GEU: return op_cmp(c, KC_GEU, false);
    case LINX_F_V_CMP_AND: return op_cmp(c, KC_AND, false);
    case LINX_F_V_CMP_OR: return op_cmp(c, KC_OR, false);
    case LINX_F_V_CMP_EQI: return op_cmp(c, KC_EQ, true);
    case LINX_F_V_CMP_NEI: return op_cmp(c, KC_NE, true);
    case LINX_F_V_CMP_LTI: return op_cmp(c, KC_LT, true);
    case LINX_F_V_CMP_GEI: return op_cmp(c, KC_GE, true);
    case LINX_F_V_CMP_LTUI: return op_cmp(c, KC_LTU, true);
    case LINX_F_V_CMP_GEUI: return op_cmp(c, KC_GEU, true);
    case LINX_F_V_CMP_ANDI: return op_cmp(c, KC_AND, true);
    case LINX_F_V_CMP_ORI: return op_cmp(c, KC_OR, true);
    case LINX_F_V_CSEL: return op_select(c, false);
    case LINX_F_V_PSEL: return op_select(c, true);
    case LINX_F_V_FADD: return ks_op_fp(c, KFP_ADD, 2);
    case LINX_F_V_FSUB: return ks_op_fp(c, KFP_SUB, 2);
    case LINX_F_V_FMUL: return ks_op_fp(c, KFP_MUL, 2);
    case LINX_F_V_FDIV: return ks_op_fp(c, KFP_DIV, 2);
    case LINX_F_V_FMAX: return ks_op_fp(c, KFP_MAX, 2);
    case LINX_F_V_FMIN: return ks_op_fp(c, KFP_MIN, 2);
    case LINX_F_V_FEQ: return ks_op_fp(c, KFP_EQ, 2);
    case LINX_F_V_FNE: return ks_op_fp(c, KFP_NE, 2);
    case LINX_F_V_FLT: return ks_op_fp(c, KFP_LT, 2);
    case LINX_F_V_FGE: return ks_op_fp(c, KFP_GE, 2);
    case LINX_F_V_FEQS: return ks_op_fp(c, KFP_EQ | KFP_SIGNALING, 2);
    case LINX_F_V_FNES: return ks_op_fp(c, KFP_NE | KFP_SIGNALING, 2);
    case LINX_F_V_FLTS: return ks_op_fp(c, KFP_LT | KFP_SIGNALING, 2);
    case LINX_F_V_FGES: return ks_op_fp(c, KFP_GE | KFP_SIGNALING, 2);
    case LINX_F_V_FMADD: return ks_op_fp(c, KFP_MADD, 3);
    case LINX_F_V_FMSUB: return ks_op_fp(c, KFP_MSUB, 3);
    case LINX_F_V_FNMADD: return ks_op_fp(c, KFP_NMADD, 3);
    case LINX_F_V_FNMSUB: return ks_op_fp(c, KFP_NMSUB, 3);
    case LINX_F_V_FABS: return ks_op_fp(c, KFP_ABS, 1);
    case LINX_F_V_FSQRT: return ks_op_fp(c, KFP_SQRT, 1);
    case LINX_F_V_FRECIP: return ks_op_fp(c, KFP_RECIP, 1);
    case LINX_F_V_FEXP: return ks_op_fp(c, KFP_EXP, 1);
    case LINX_F_V_FCLASS: return ks_op_fp(c, KFP_CLASS, 1);
    case LINX_F_V_FCVT: return ks_op_cvt(c, KCVT_F2F);
    case LINX_F_V_FCVTI: return ks_op_cvt(c, KCVT_F2I);
    case LINX_F_V_ICVT: return ks_op_cvt(c, KCVT_I2I);
    case LINX_F_V_ICVTF: return ks_op_cvt(c, KCVT_I2F);
    default:
        return ks_fail(c); /* atomics, anything else */
    }
}

/* ---------------------------------------------------------------------
 * Liveness of queue values (for spills across phases)
 * --------------------------------------------------------------------- */

/* Queue reads and the push of instruction @in (RegId10 fields). */
static void reads_pushes(const LinxInsn *in, int16_t reads[][2], unsigned *nr, int *push)
{
    static const LinxFieldId srcs[] = { LINX_FLD_SrcL, LINX_FLD_SrcR, LINX_FLD_SrcD,
                                        LINX_FLD_SrcP, LINX_FLD_SrcA };
    LinxKReg r;
    bool present;

    *nr = 0;
    *push = -1;
    for (unsigned i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
        unsigned code = (unsigned)linx_insn_field(in, srcs[i], &present);
        if (present && linx_kreg_src(code, &r) &&
            (r.kind == LINX_KR_VEC || r.kind == LINX_KR_HAND)) {
            reads[*nr][0] = r.queue;
            reads[*nr][1] = (int16_t)(r.k - 1);
            (*nr)++;
        }
    }
    {
        unsigned code = (unsigned)linx_insn_field(in, LINX_FLD_RegDst, &present);
        if (present && linx_kreg_dst(code, &r) &&
            (r.kind == LINX_KR_VEC || r.kind == LINX_KR_HAND)) {
            *push = r.queue;
        }
    }
}

static void liveness(KSComp *c)
{
    int16_t def[LINX_KQUEUES][LINX_KQUEUE_DEPTH];

    memset(def, 0xff, sizeof(def));
    for (unsigned i = 0; i <= KS_MAX_INSNS; i++) {
        c->last_read[i] = -1;
    }
    for (unsigned i = 0; i < c->body->n; i++) {
        int16_t reads[5][2];
        unsigned nr;
        int q;
        reads_pushes(&c->body->insns[i].insn, reads, &nr, &q);
        for (unsigned k = 0; k < nr; k++) {
            int16_t d = def[reads[k][0]][reads[k][1]];
            if (d >= 0) {
                c->last_read[d] = (int16_t)i;
            }
        }
        if (q >= 0) {
            int16_t merge = def[q][LINX_KQUEUE_DEPTH - 1];
            if (merge >= 0) {
                c->last_read[merge] = (int16_t)i; /* a predicated push reads it */
            }
            for (unsigned e = LINX_KQUEUE_DEPTH - 1; e > 0; e--) {
                def[q][e] = def[q][e - 1];
            }
            def[q][0] = (int16_t)i;
        }
    }
}

/* ---------------------------------------------------------------------
 * Phases
 * --------------------------------------------------------------------- */

static void phase_begin(KSComp *c)
{
    vec_prog_init(c->vp);
    for (unsigned i = 0; i < KS_MAX_UNI; i++) {
        c->scal32[i] = c->scal64[i] = VEC_NONE;
    }
    c->lane32 = VEC_NONE;
}

/* Give every per-lane value still read after insn @at a spill buffer. */
static void spill_live(KSComp *c, unsigned at)
{
    KSV *vals[LINX_KQUEUES * LINX_KQUEUE_DEPTH + 1];
    unsigned n = 0;

    for (unsigned q = 0; q < LINX_KQUEUES; q++) {
        for (unsigned e = 0; e < LINX_KQUEUE_DEPTH; e++) {
            vals[n++] = &c->q[q][e];
        }
    }
    vals[n++] = &c->p;
    for (unsigned i = 0; i < n && !c->fail; i++) {
        KSV *x = vals[i];
        KSAccess *a;
        bool p = x == &c->p;
        if ((x->kind != VK_VAR && x->kind != VK_MASK) || x->spill >= 0) {
            continue;
        }
        if (!p && (x->def < 0 || c->last_read[x->def] <= (int)at)) {
            continue; /* not read again */
        }
        if (c->sp->nspill >= KS_MAX_SPILL) {
            ks_fail(c);
            return;
        }
        reload(c, x);
        if (x->kind == VK_MASK) {
            a = new_access(c, KA_SPILL, 2, true, 4);
            if (!a) {
                return;
            }
            vec_prog_op(c->vp, VO_STORE, VT_W32, ks_as32(c, x), VEC_NONE, VEC_NONE, VEC_NONE,
                        a->stream, 2);
        } else if (x->v32 != VEC_NONE && x->ext != EXT_X) {
            a = new_access(c, KA_SPILL, 2, true, 4);
            if (!a) {
                return;
            }
            vec_prog_op(c->vp, VO_STORE, VT_W32, x->v32, VEC_NONE, VEC_NONE, VEC_NONE, a->stream, 2);
            x->spill64 = false;
        } else {
            a = new_access(c, KA_SPILL, 3, true, 8);
            if (!a) {
                return;
            }
            vec_prog_op(c->vp, VO_STORE, VT_W64, ks_as64(c, x), VEC_NONE, VEC_NONE, VEC_NONE,
                        a->stream, 3);
            x->spill64 = true;
        }
        c->sp->spill_stream[c->sp->nspill] = (uint8_t)(a - c->sp->acc);
        c->sp->spill_lg[c->sp->nspill] = a->lg;
        x->spill = (int8_t)c->sp->nspill++;
        /* the same value in other slots shares the buffer */
        for (unsigned j = i + 1; j < n; j++) {
            KSV *y = vals[j];
            if (y->kind == x->kind && y->ph == x->ph && y->v32 == x->v32 && y->v64 == x->v64 &&
                y->m == x->m && y->spill < 0) {
                y->spill = x->spill;
                y->spill64 = x->spill64;
                y->ext = x->ext;
            }
        }
    }
}

/* Generate the host code of the current phase. */
static bool phase_end(KSComp *c)
{
    VecFn fn;

    if (c->fail) {
        return false;
    }
    c->vp->nstreams = c->nstreams;
    for (unsigned i = 0; i < c->nstreams; i++) {
        c->vp->stream[i].stride = c->stride[i];
    }
    c->vp->nscalars = c->sp->nscalars;
    if (c->sp->gathers) {
        /* gathers check against every guest store of the body */
        for (unsigned i = 0; i < c->sp->nacc; i++) {
            if (c->sp->acc[i].store && c->sp->acc[i].kind == KA_GUEST) {
                c->vp->ngather_checks++;
            }
        }
        if (c->vp->ngather_checks > VEC_MAX_GATHER_CHECKS) {
            return ks_fail(c);
        }
    }
    fn = linx_exec_gen_vec(c->k.ctx->env->engine.exec, c->vp);
    if (!fn) {
        return ks_fail(c);
    }
    c->sp->fn[c->phase] = fn;
    return true;
}

/* The reduction ending phase c->phase (kernel-xlane.c semantics). */
static bool barrier(KSComp *c, const KBodyInsn *bi)
{
    uint64_t desc = kop_barrier_desc(&bi->insn);
    unsigned op = desc & KX_OP_MASK;
    unsigned srcl = (desc >> KX_SRCL_SHIFT) & KX_CODE_MASK;
    unsigned dst = (desc >> KX_DST_SHIFT) & KX_CODE_MASK;
    KSRed *r = &c->sp->red[c->phase];
    LinxKReg s, d;
    KSV v;
    uint16_t m = pmask(c);

    if (op < KX_RDADD || op > KX_RDFMIN || !linx_kreg_src(srcl, &s) || !linx_kreg_dst(dst, &d) ||
        d.kind == LINX_KR_RESERVED ||
        (d.kind != LINX_KR_VEC && d.kind != LINX_KR_HAND && d.kind != LINX_KR_P &&
         d.kind != LINX_KR_ZERO)) {
        return ks_fail(c);
    }
    memset(r, 0, sizeof(*r));
    r->op = (uint8_t)op;
    r->acc = 0;
    r->src_lg = s.size_log2;
    r->src_sign = s.st;
    r->dst_lg = d.size_log2;
    r->dst_sign = d.st;
    r->dst_p = d.kind == LINX_KR_P;
    c->vp->nacc = 1;
    if (op >= KX_RDFADD) {
        static const uint8_t vr[] = { [KX_RDFADD] = VR_FADD, [KX_RDFMAX] = VR_FMAX,
                                      [KX_RDFMIN] = VR_FMIN };
        if (s.size_log2 < 2 || !ks_rd_raw(c, srcl, &v, &s)) {
            return ks_fail(c);
        }
        r->fmt = s.size_log2 == 3 ? LINX_FP64 : LINX_FP32;
        r->w64 = s.size_log2 == 3;
        r->vr = vr[op];
        c->sp->fp = true;
        vec_prog_op(c->vp, VO_FRED, r->w64 ? VT_W64 : VT_W32, r->w64 ? ks_as64(c, &v) : ks_as32(c, &v),
                    VEC_NONE, VEC_NONE, m, 0, r->vr);
    } else {
        if (!rd_int(c, srcl, &v)) {
            return false;
        }
        if (op == KX_RDADD || s.size_log2 == 3) {
            static const uint8_t vr[] = { [KX_RDADD] = VR_ADD, [KX_RDAND] = VR_AND,
                                          [KX_RDOR] = VR_OR, [KX_RDXOR] = VR_XOR };
            r->w64 = true;
            r->vr = op == KX_RDMAX ? (s.st ? VR_SMAX : VR_UMAX)
                    : op == KX_RDMIN ? (s.st ? VR_SMIN : VR_UMIN) : vr[op];
            vec_prog_op(c->vp, VO_RED, VT_W64, ks_as64(c, &v), VEC_NONE, VEC_NONE, m, 0, r->vr);
        } else {
            static const uint8_t vr[] = { [KX_RDAND] = VR_AND, [KX_RDOR] = VR_OR,
                                          [KX_RDXOR] = VR_XOR };
            r->w64 = false;
            r->sign32 = s.st;
            r->vr = op == KX_RDMAX ? (s.st ? VR_SMAX : VR_UMAX)
                    : op == KX_RDMIN ? (s.st ? VR_SMIN : VR_UMIN) : vr[op];
            vec_prog_op(c->vp, VO_RED, VT_W32, ks_as32(c, &v), VEC_NONE, VEC_NONE, m, 0, r->vr);
        }
    }
    spill_live(c, c->k.index);
    if (!phase_end(c)) {
        return false;
    }
    /* the next phase starts with the result */
    c->phase++;
    phase_begin(c);
    r->res = uni(c, KU_RED, 0, 0, c->phase - 1);
    if (c->fail) {
        return false;
    }
    switch (d.kind) {
    case LINX_KR_HAND:
        push(c, d.queue, kuni(r->res));
        break;
    case LINX_KR_VEC:
        if (pmask(c) != VEC_NONE) {
            push(c, d.queue, blend(c, pmask(c), kuni(r->res), c->q[d.queue][LINX_KQUEUE_DEPTH - 1]));
        } else {
            push(c, d.queue, kuni(r->res));
        }
        break;
    case LINX_KR_P:
        c->p = kuni(r->res); /* the run-time part stores r != 0 for ->p */
        break;
    default:
        break;
    }
    return !c->fail;
}

const KSProg *ks_compile(KCtx *k)
{
    const KBody *b = k->body;
    LinxExecContext *ec = k->ctx->env->engine.exec;
    const char *off = getenv("LINX_KERNEL_NOSIMD");
    KSComp *c;
    KSProg *sp, *out = NULL;
    VecProg *vp;

    if (!ec || linx_exec_vec_isa(ec) == VEC_ISA_NONE || b->n == 0 || b->n > KS_MAX_INSNS ||
        b->nphases > KS_MAX_PHASES || linx_kernel_lanewise_from_env() ||
        (off && off[0] && strcmp(off, "0") != 0)) {
        return NULL;
    }
    for (unsigned i = 0; i < b->n; i++) {
        if ((b->insns[i].kind != KI_OP && b->insns[i].kind != KI_BARRIER) ||
            b->insns[i].is_target) {
            return NULL;
        }
    }
    c = calloc(1, sizeof(*c));
    sp = calloc(1, sizeof(*sp));
    vp = malloc(sizeof(*vp));
    if (!c || !sp || !vp) {
        free(c);
        free(sp);
        free(vp);
        return NULL;
    }
    c->sp = sp;
    c->vp = vp;
    c->body = (KBody *)b;
    c->k.ctx = k->ctx;
    sp->nphases = b->nphases;
    for (unsigned q = 0; q < LINX_KQUEUES; q++) {
        for (unsigned e = 0; e < LINX_KQUEUE_DEPTH; e++) {
            c->q[q][e] = ks_kconst(0);
        }
    }
    c->p = ks_kconst(1);
    liveness(c);
    phase_begin(c);
    for (unsigned i = 0; i < b->n && !c->fail; i++) {
        const KBodyInsn *bi = &b->insns[i];
        c->k.bi = bi;
        c->k.index = i;
        if (bi->kind == KI_BARRIER) {
            barrier(c, bi);
        } else {
            sp->ninsns[c->phase]++;
            if (!ks_insn(c)) {
                ks_fail(c);
            }
        }
    }
    if (!c->fail && phase_end(c) && c->phase + 1 == b->nphases) {
        out = linx_exec_tb_alloc(ec, sizeof(*out));
        memcpy(out, sp, sizeof(*out));
    }
    free(c);
    free(sp);
    free(vp);
    return out;
}
