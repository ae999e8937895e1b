/*
 * One vector program instruction as host instructions (tcg/vec.h,
 * vector-gen.h).  Each op has an AVX-512 form (EVEX, 16 lanes, k masks)
 * and an AVX2 form (VEX, 8 lanes, vector masks); where the host has no
 * instruction for an access (narrow masked accesses on AVX2, strided
 * stores without scatter, sub-word gathers) a per-lane loop over the
 * block's lane arrays does it.
 *
 * Exceptions of out-of-range lanes (the partial block): AVX-512 masks FP
 * operations with k7 (masked elements raise nothing); AVX2 replaces their
 * operands by 1.0 first, which raises nothing in any operation used.
 */
#include <string.h>

#include "vector-ops.h"

/* d = all ones */
static void ones(VGen *g, int d)
{
    if (g->evex) {
        vg_rr(g, O_PTERNLOG(0), d, d, d);
        imm8(g, 0xff);
    } else {
        vg_rr(g, O_PCMPEQD, d, d, d);
    }
}

void vo_zero(VGen *g, int d)
{
    vg_rr(g, O_PXOR(0), d, d, d);
}

/* shift by imm: d = s op n (op: 6 sll, 2 srl, 4 sra) */
static void shift_imm(VGen *g, bool q, int op, int d, int s, unsigned n)
{
    if (q && op == 4) {
        if (g->evex) {
            vg_rr(g, O_PSRAQ, 4, d, s);
            imm8(g, n);
            return;
        }
        /* AVX2: (s >>u n) | (sign mask << (64 - n)) */
        {
            int t = vg_scratch(g, 4);
            if (n == 0) {
                vg_mov(g, d, s);
                return;
            }
            vo_zero(g, t);
            vg_rr(g, O_PCMPGTQ, t, t, s); /* t = 0 > s: the sign mask */
            if (n >= 63) {
                vg_mov(g, d, t);
                return;
            }
            vg_rr(g, O_SHIFT_Q, 2, d, s);
            imm8(g, n);
            vg_rr(g, O_SHIFT_Q, 6, t, t);
            imm8(g, 64 - n);
            vg_rr(g, O_POR(0), d, d, t);
        }
        return;
    }
    vg_rr(g, q ? O_SHIFT_Q : O_SHIFT_D, op, d, s);
    imm8(g, n);
}

/* A raw mask part for blends (no range): k register (AVX-512) or a
 * scratch vector (AVX2: dword mask for part -1, qword mask of part 0/1). */
int vo_mask_part(VGen *g, uint16_t m, int part, int si)
{
    if (g->evex) {
        int km = vg_kuse(g, m);
        if (part <= 0) {
            return km;
        }
        vx_rr(g->e, false, VX(VX_0F3A, VX_66, 1, 0x30), 0, 6, 0, km, 0, false);
        imm8(g, g->lanes / 2);
        return 6;
    } else {
        int s = vg_scratch(g, si);
        int mr = vg_use(g, m, 0);
        if (part < 0) {
            return mr;
        }
        if (part == 1) {
            vx_rr(g->e, false, O_VEXTRACTI128, VX_256, mr, 0, s, 0, false);
            imm8(g, 1);
            vx_rr(g->e, false, O_PMOVSXDQ, VX_256, s, 0, s, 0, false);
        } else {
            vx_rr(g->e, false, O_PMOVSXDQ, VX_256, s, 0, mr, 0, false);
        }
        return s;
    }
}

/* d = m ? a : b (AVX2, vector mask in register @mk) */
static void vblend(VGen *g, int d, int mk, int a, int b)
{
    vg_rr(g, O_PBLENDVB, d, b, a);
    imm8(g, (unsigned)mk << 4);
}

/* AVX2: narrow two qword masks to one dword mask: d = [lo | hi] */
static void narrow_avx2(VGen *g, int d, int lo, int hi)
{
    vg_rr(g, O_VSHUFPS, d, lo, hi);
    imm8(g, 0x88);
    vg_rr(g, O_VPERMQ, d, 0, d);
    imm8(g, 0xd8);
}

/* Load the stream's lane-0 pointer into @r. */
void vo_stream_ptr(VGen *g, int r, unsigned s)
{
    x86_ld(g->e, OPC_MOV_GvEv | X86_P_W, r, VG_FRAME_REG, (int32_t)offsetof(VecFrame, ptr[s]));
}

/* r += rbx * stride */
bool vo_add_lane_offset(VGen *g, int r, int64_t stride)
{
    if (stride == 0) {
        return true;
    }
    if (!x86_fits_s32(stride) || !x86_fits_s32(stride * (int64_t)VEC_LANES_MAX)) {
        return vg_fail(g, "stride too large");
    }
    x86_imul_rri(g->e, X86_RAX, VG_LANE_REG, (int32_t)stride);
    x86_alu_rr(g->e, X86_ALU_ADD, r, X86_RAX);
    return true;
}

/* ---------------------------------------------------------------------
 * Values
 * --------------------------------------------------------------------- */

static bool op_const(VGen *g, const VecInsn *in)
{
    int32_t off = vg_pool_splat(g, (uint64_t)in->imm, isq(in) ? 8 : 4);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        vg_load_vec(g, vg_def(g, in->d, (int)p), pool_mem(off));
    }
    return true;
}

static bool op_scalar(VGen *g, const VecInsn *in)
{
    VxMem m = frame_mem(offsetof(VecFrame, s) + 8 * (size_t)in->imm);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        vg_bcast(g, vg_def(g, in->d, (int)p), m, isq(in) ? 8 : 4);
    }
    return true;
}

/* d = broadcast of a GPR (32 or 64 bits) */
void vo_bcast_gpr(VGen *g, int d, int r, bool q)
{
    if (g->evex) {
        vg_rr(g, O_PBROADCAST_GPR(q), d, 0, r);
    } else {
        vx_rr(g->e, false, O_MOVD_XG(q), VX_128, d, 0, r, 0, false);
        vg_rr(g, q ? O_PBROADCASTQ(0) : O_PBROADCASTD, d, 0, d);
    }
}

static bool op_lane(VGen *g, const VecInsn *in)
{
    static const uint32_t i32[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    static const uint64_t i64[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    int s = vg_scratch(g, 0);

    if (!isq(in)) {
        int32_t off = vg_pool(g, i32, sizeof(i32), 64);
        vo_bcast_gpr(g, s, VG_LANE_REG, false);
        vg_rm(g, O_PADD(0), vg_def(g, in->d, 0), s, pool_mem(off), 0, false);
    } else {
        int32_t off = vg_pool(g, i64, sizeof(i64), 64);
        vo_bcast_gpr(g, s, VG_LANE_REG, true);
        for (unsigned p = 0; p < 2; p++) {
            vg_rm(g, O_PADD(1), vg_def(g, in->d, (int)p), s,
                  pool_mem(off + (int32_t)(p * g->vbytes)), 0, false);
        }
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Integer
 * --------------------------------------------------------------------- */

static void bin(VGen *g, const VecInsn *in, VxOpc o)
{
    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
        vg_rr(g, o, vg_def(g, in->d, (int)p), a, b);
    }
}

/* AVX2 64-bit product: d = a * b mod 2^64 */
static void mul64_avx2(VGen *g, int d, int a, int b)
{
    int t1 = vg_scratch(g, 0), t2 = vg_scratch(g, 1);

    shift_imm(g, true, 2, t1, a, 32);
    vg_rr(g, O_PMULUDQ, t1, t1, b);     /* a.hi * b.lo */
    shift_imm(g, true, 2, t2, b, 32);
    vg_rr(g, O_PMULUDQ, t2, a, t2);     /* a.lo * b.hi */
    vg_rr(g, O_PADD(1), t1, t1, t2);
    shift_imm(g, true, 6, t1, t1, 32);
    vg_rr(g, O_PMULUDQ, d, a, b);       /* a.lo * b.lo */
    vg_rr(g, O_PADD(1), d, d, t1);
}

/* AVX2 64-bit compare-and-select for max/min: d = (a > b) ? x : y */
static bool minmax64_avx2(VGen *g, const VecInsn *in)
{
    bool uns = in->op == VO_UMAX || in->op == VO_UMIN;
    bool max = in->op == VO_SMAX || in->op == VO_UMAX;

    for (unsigned p = 0; p < 2; p++) {
        int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
        int d = vg_def(g, in->d, (int)p), m = vg_scratch(g, 0);
        if (uns) {
            int32_t sb = vg_pool_splat(g, UINT64_C(1) << 63, 8);
            int ta = vg_scratch(g, 1), tb = vg_scratch(g, 2);
            vg_rm(g, O_PXOR(0), ta, a, pool_mem(sb), 0, false);
            vg_rm(g, O_PXOR(0), tb, b, pool_mem(sb), 0, false);
            vg_rr(g, O_PCMPGTQ, m, ta, tb);
        } else {
            vg_rr(g, O_PCMPGTQ, m, a, b);
        }
        if (max) {
            vblend(g, d, m, a, b);
        } else {
            vblend(g, d, m, b, a);
        }
    }
    return true;
}

static bool op_varshift(VGen *g, const VecInsn *in)
{
    bool q = isq(in);

    if (in->op != VO_SARV || !q || g->evex) {
        VxOpc o = in->op == VO_SHLV ? O_PSLLV(q) : in->op == VO_SHRV ? O_PSRLV(q) : O_PSRAV(q);
        bin(g, in, o);
        return true;
    }
    /* AVX2 64-bit arithmetic shift: counts clamped to 63, then
     * (a >>u c) | (sign << (64 - c)). */
    for (unsigned p = 0; p < 2; p++) {
        int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
        int d = vg_def(g, in->d, (int)p);
        int c = vg_scratch(g, 0), m = vg_scratch(g, 1), t = vg_scratch(g, 2);
        int32_t sb = vg_pool_splat(g, UINT64_C(1) << 63, 8);
        int32_t c63 = vg_pool_splat(g, 63 ^ (UINT64_C(1) << 63), 8);
        int32_t s63 = vg_pool_splat(g, 63, 8), s64 = vg_pool_splat(g, 64, 8);
        vg_rm(g, O_PXOR(0), m, b, pool_mem(sb), 0, false);
        vg_rm(g, O_PCMPGTQ, m, m, pool_mem(c63), 0, false); /* b >u 63 */
        vg_load_vec(g, t, pool_mem(s63));
        vblend(g, c, m, t, b);                             /* c = min(b, 63) */
        vg_rr(g, O_PSRLV(1), d, a, c);
        vo_zero(g, t);
        vg_rr(g, O_PCMPGTQ, t, t, a);                      /* sign mask */
        vg_load_vec(g, m, pool_mem(s64));
        vg_rr(g, O_PSUB(1), c, m, c);                      /* 64 - c */
        vg_rr(g, O_PSLLV(1), t, t, c);
        vg_rr(g, O_POR(0), d, d, t);
    }
    return true;
}

static bool op_shift_imm(VGen *g, const VecInsn *in)
{
    int op = in->op == VO_SHLI ? 6 : in->op == VO_SHRI ? 2 : 4;

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p);
        shift_imm(g, isq(in), op, vg_def(g, in->d, (int)p), a, (unsigned)(in->imm & 0xff));
    }
    return true;
}

static bool op_ext(VGen *g, const VecInsn *in)
{
    unsigned w = isq(in) ? 64 : 32, bits = (unsigned)in->imm;

    if (bits == 0 || bits >= w) {
        return vg_fail(g, "bad extension width");
    }
    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p), d = vg_def(g, in->d, (int)p);
        shift_imm(g, isq(in), 6, d, a, w - bits);
        shift_imm(g, isq(in), in->op == VO_SEXT ? 4 : 2, d, d, w - bits);
    }
    return true;
}

static bool op_widen(VGen *g, const VecInsn *in)
{
    VxOpc o = in->imm ? O_PMOVSXDQ : O_PMOVZXDQ;
    int a = vg_use(g, in->a, 0), s = vg_scratch(g, 0);

    /* part 0: the low half of a; part 1: the high half */
    vg_rr(g, o, vg_def(g, in->d, 0), 0, a);
    if (g->evex) {
        vx_rr(g->e, true, O_VEXTRACTI64X4, VX_512, a, 0, s, 0, false);
    } else {
        vx_rr(g->e, false, O_VEXTRACTI128, VX_256, a, 0, s, 0, false);
    }
    imm8(g, 1);
    vg_rr(g, o, vg_def(g, in->d, 1), 0, s);
    return true;
}

static bool op_narrow(VGen *g, const VecInsn *in)
{
    int lo = vg_use(g, in->a, 0), hi = vg_use(g, in->a, 1), d = vg_def(g, in->d, 0);

    if (g->evex) {
        int s = vg_scratch(g, 0);
        /* vpmovqd ymm_d, zmm_lo (reg = source, rm = destination) */
        vx_rr(g->e, true, O_PMOVQD, VX_512, lo, 0, d, 0, false);
        vx_rr(g->e, true, O_PMOVQD, VX_512, hi, 0, s, 0, false);
        vg_rr(g, O_VINSERTI64X4, d, d, s);
        imm8(g, 1);
    } else {
        narrow_avx2(g, d, lo, hi);
    }
    return true;
}

static bool op_int(VGen *g, const VecInsn *in)
{
    bool q = isq(in);

    switch (in->op) {
    case VO_ADD: bin(g, in, O_PADD(q)); return true;
    case VO_SUB: bin(g, in, O_PSUB(q)); return true;
    case VO_AND: bin(g, in, O_PAND(q)); return true;
    case VO_OR: bin(g, in, O_POR(q)); return true;
    case VO_XOR: bin(g, in, O_PXOR(q)); return true;
    case VO_MUL:
        if (!q) {
            bin(g, in, O_PMULLD);
        } else if (g->evex) {
            bin(g, in, O_PMULLQ);
        } else {
            for (unsigned p = 0; p < 2; p++) {
                int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
                mul64_avx2(g, vg_def(g, in->d, (int)p), a, b);
            }
        }
        return true;
    case VO_SMAX: case VO_SMIN: case VO_UMAX: case VO_UMIN:
        if (q && !g->evex) {
            return minmax64_avx2(g, in);
        }
        bin(g, in, in->op == VO_SMAX ? O_PMAXS(q) : in->op == VO_SMIN ? O_PMINS(q)
                   : in->op == VO_UMAX ? O_PMAXU(q) : O_PMINU(q));
        return true;
    case VO_SHLV: case VO_SHRV: case VO_SARV:
        return op_varshift(g, in);
    case VO_SHLI: case VO_SHRI: case VO_SARI:
        return op_shift_imm(g, in);
    case VO_SEXT: case VO_ZEXT:
        return op_ext(g, in);
    case VO_WIDEN:
        return op_widen(g, in);
    case VO_NARROW:
        return op_narrow(g, in);
    default:
        return false;
    }
}

/* ---------------------------------------------------------------------
 * Compares and masks
 * --------------------------------------------------------------------- */

/* AVX-512: combine two 8-lane compare results k6 (low), k0 (high) */
static void kunpck(VGen *g, int d, int hi, int lo)
{
    vx_rr(g->e, false, O_KUNPCKBW, 1, d, hi, lo, 0, false);
}

static bool op_cmp(VGen *g, const VecInsn *in)
{
    static const uint8_t pred[] = {
        [VC_EQ] = 0, [VC_NE] = 4, [VC_LT] = 1, [VC_GE] = 5, [VC_LE] = 2, [VC_GT] = 6,
        [VC_LTU] = 1, [VC_GEU] = 5, [VC_LEU] = 2, [VC_GTU] = 6,
    };
    bool q = in->aux == VT_W64, uns = in->imm >= VC_LTU;
    unsigned c = (unsigned)in->imm;

    if (c > VC_GTU) {
        return vg_fail(g, "bad condition");
    }
    if (g->evex) {
        VxOpc o = uns ? O_VPCMPU(q) : O_VPCMP(q);
        int d = vg_kdef(g, in->d);
        if (!q) {
            vg_rr(g, o, d, vg_use(g, in->a, 0), vg_use(g, in->b, 0));
            imm8(g, pred[c]);
            return true;
        }
        vg_rr(g, o, 6, vg_use(g, in->a, 0), vg_use(g, in->b, 0));
        imm8(g, pred[c]);
        vg_rr(g, o, 0, vg_use(g, in->a, 1), vg_use(g, in->b, 1));
        imm8(g, pred[c]);
        kunpck(g, d, 0, 6);
        return true;
    }
    /* AVX2: EQ and GT, with operands swapped and results inverted */
    {
        int r[2];
        int d = vg_def(g, in->d, 0);
        bool inv = c == VC_NE || c == VC_GE || c == VC_LE || c == VC_GEU || c == VC_LEU;
        bool swap = c == VC_LT || c == VC_GE || c == VC_LTU || c == VC_GEU;
        bool eq = c == VC_EQ || c == VC_NE;
        for (unsigned p = 0; p < (q ? 2u : 1u); p++) {
            int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
            int t = q ? vg_scratch(g, (int)p) : d;
            if (swap) {
                int x = a;
                a = b;
                b = x;
            }
            if (uns && !eq) {
                int32_t sb = q ? vg_pool_splat(g, UINT64_C(1) << 63, 8)
                               : vg_pool_splat(g, UINT32_C(1) << 31, 4);
                int ta = vg_scratch(g, 2), tb = vg_scratch(g, 3);
                vg_rm(g, O_PXOR(0), ta, a, pool_mem(sb), 0, false);
                vg_rm(g, O_PXOR(0), tb, b, pool_mem(sb), 0, false);
                a = ta;
                b = tb;
            }
            vg_rr(g, eq ? (q ? O_PCMPEQQ : O_PCMPEQD) : (q ? O_PCMPGTQ : O_PCMPGTD), t, a, b);
            r[p] = t;
        }
        if (q) {
            narrow_avx2(g, d, r[0], r[1]);
        }
        if (inv) {
            int32_t all = vg_pool_splat(g, UINT32_MAX, 4);
            vg_rm(g, O_PXOR(0), d, d, pool_mem(all), 0, false);
        }
        return true;
    }
}

static bool op_testnz(VGen *g, const VecInsn *in)
{
    bool q = in->aux == VT_W64;

    if (g->evex) {
        int d = vg_kdef(g, in->d);
        if (!q) {
            vg_rr(g, O_PTESTM(0), d, vg_use(g, in->a, 0), vg_use(g, in->b, 0));
            return true;
        }
        vg_rr(g, O_PTESTM(1), 6, vg_use(g, in->a, 0), vg_use(g, in->b, 0));
        vg_rr(g, O_PTESTM(1), 0, vg_use(g, in->a, 1), vg_use(g, in->b, 1));
        kunpck(g, d, 0, 6);
        return true;
    }
    {
        int d = vg_def(g, in->d, 0), z = vg_scratch(g, 3), r[2];
        int32_t all = vg_pool_splat(g, UINT32_MAX, 4);
        vo_zero(g, z);
        for (unsigned p = 0; p < (q ? 2u : 1u); p++) {
            int t = q ? vg_scratch(g, (int)p) : d;
            vg_rr(g, O_PAND(0), t, vg_use(g, in->a, (int)p), vg_use(g, in->b, (int)p));
            vg_rr(g, q ? O_PCMPEQQ : O_PCMPEQD, t, t, z);
            r[p] = t;
        }
        if (q) {
            narrow_avx2(g, d, r[0], r[1]);
        }
        vg_rm(g, O_PXOR(0), d, d, pool_mem(all), 0, false);
        return true;
    }
}

static bool op_mask(VGen *g, const VecInsn *in)
{
    if (g->evex) {
        int a = vg_kuse(g, in->a);
        int b = in->op == VO_MNOT ? 0 : vg_kuse(g, in->b);
        int d = vg_kdef(g, in->d);
        switch (in->op) {
        case VO_MAND: vx_rr(g->e, false, O_KAND, 1, d, a, b, 0, false); break;
        case VO_MOR: vx_rr(g->e, false, O_KOR, 1, d, a, b, 0, false); break;
        case VO_MANDN: vx_rr(g->e, false, O_KANDN, 1, d, b, a, 0, false); break; /* ~b & a */
        default: vx_rr(g->e, false, O_KNOT, 0, d, 0, a, 0, false); break;
        }
        return true;
    }
    {
        int a = vg_use(g, in->a, 0);
        int b = in->op == VO_MNOT ? 0 : vg_use(g, in->b, 0);
        int d = vg_def(g, in->d, 0);
        switch (in->op) {
        case VO_MAND: vg_rr(g, O_PAND(0), d, a, b); break;
        case VO_MOR: vg_rr(g, O_POR(0), d, a, b); break;
        case VO_MANDN: vg_rr(g, O_PANDN(0), d, b, a); break; /* ~b & a */
        default:
            vg_rm(g, O_PXOR(0), d, a, pool_mem(vg_pool_splat(g, UINT32_MAX, 4)), 0, false);
            break;
        }
        return true;
    }
}

static bool op_mask2int(VGen *g, const VecInsn *in)
{
    bool q = isq(in);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int d;
        if (g->evex) {
            int k = vo_mask_part(g, in->a, q ? (int)p : -1, 0);
            d = vg_def(g, in->d, (int)p);
            vg_rr(g, O_PMOVM2(q), d, 0, k);
        } else {
            int m = vo_mask_part(g, in->a, q ? (int)p : -1, 0);
            d = vg_def(g, in->d, (int)p);
            vg_mov(g, d, m);
        }
        shift_imm(g, q, 2, d, d, q ? 63 : 31);
    }
    return true;
}

static bool op_blend(VGen *g, const VecInsn *in)
{
    bool q = isq(in);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
        int k = vo_mask_part(g, in->m, q ? (int)p : -1, 0);
        int d = vg_def(g, in->d, (int)p);
        if (g->evex) {
            /* vpblendm d{k}, b, a: d = k ? a : b */
            vg_rrk(g, O_PBLENDM(q), d, b, a, k, false);
        } else {
            vblend(g, d, k, a, b);
        }
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Floating point
 * --------------------------------------------------------------------- */

/* AVX2, partial block: copy operand @r into scratch @si with the
 * out-of-range lanes replaced by 1.0 (no exception from them). */
static int fp_safe(VGen *g, bool q, int part, int r, int si)
{
    int s = vg_scratch(g, si), m = vg_scratch(g, 0);
    int32_t one = q ? vg_pool_splat(g, UINT64_C(0x3ff0000000000000), 8)
                    : vg_pool_splat(g, 0x3f800000, 4);

    if (g->evex || !g->tail) {
        return r;
    }
    vg_vmask(g, VEC_NONE, q ? part : -1, 0);
    vg_load_vec(g, s, pool_mem(one));
    vblend(g, s, m, r, s);
    return s;
}

/* NaN results become the default NaN. */
static void canon_nan(VGen *g, bool q, int d)
{
    int32_t dn = q ? vg_pool_splat(g, UINT64_C(0x7ff8000000000000), 8)
                   : vg_pool_splat(g, 0x7fc00000, 4);

    if (g->evex) {
        vg_rr(g, O_FP(q, 0xc2), 6, d, d);
        imm8(g, P_UNORD_Q);
        /* vmovdqu32/64 d{k6}, [dn] */
        vg_rm(g, q ? O_MOVDQU64 : O_MOVDQU32, d, 0, pool_mem(dn), 6, false);
    } else {
        int m = vg_scratch(g, 3);
        vg_rr(g, O_FP(q, 0xc2), m, d, d);
        imm8(g, P_UNORD_Q);
        vg_rm(g, O_PBLENDVB, d, d, pool_mem(dn), 0, false);
        imm8(g, (unsigned)m << 4);
    }
}

static bool op_farith(VGen *g, const VecInsn *in)
{
    bool q = isq(in);
    uint8_t opc = in->op == VO_FADD ? 0x58 : in->op == VO_FSUB ? 0x5c : in->op == VO_FMUL ? 0x59
                  : in->op == VO_FDIV ? 0x5e : 0x51;

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = fp_safe(g, q, (int)p, vg_use(g, in->a, (int)p), 1);
        int b = in->op == VO_FSQRT ? 0 : fp_safe(g, q, (int)p, vg_use(g, in->b, (int)p), 2);
        int k = g->evex ? vg_kmask(g, VEC_NONE, q ? (int)p : -1) : 0;
        int d = vg_def(g, in->d, (int)p);
        vg_rrk(g, O_FP(q, opc), d, in->op == VO_FSQRT ? 0 : a, in->op == VO_FSQRT ? a : b, k,
               k != 0);
        canon_nan(g, q, d);
    }
    return true;
}

static bool op_fabs(VGen *g, const VecInsn *in)
{
    bool q = isq(in);
    int32_t m = q ? vg_pool_splat(g, INT64_MAX, 8) : vg_pool_splat(g, INT32_MAX, 4);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p);
        vg_rm(g, O_PAND(q), vg_def(g, in->d, (int)p), a, pool_mem(m), 0, false);
    }
    return true;
}

static bool op_fcmp(VGen *g, const VecInsn *in)
{
    static const uint8_t quiet[] = { P_EQ_OQ, P_NEQ_OQ, P_LT_OQ, P_GE_OQ };
    static const uint8_t loud[] = { P_EQ_OS, P_NEQ_OS, P_LT_OS, P_GE_OS };
    bool q = in->aux == VT_W64;
    unsigned pr = (in->imm & VFC_SIGNAL) ? loud[in->imm & 3] : quiet[in->imm & 3];

    if (g->evex) {
        int d = vg_kdef(g, in->d);
        int a = vg_use(g, in->a, 0), b = vg_use(g, in->b, 0);
        int k = vg_kmask(g, VEC_NONE, -1);
        vg_rrk(g, O_FP(false, 0xc2), d, a, b, k, false);
        imm8(g, pr);
        return true;
    }
    {
        int d = vg_def(g, in->d, 0), r[2];
        for (unsigned p = 0; p < (q ? 2u : 1u); p++) {
            int a = fp_safe(g, q, (int)p, vg_use(g, in->a, (int)p), 1);
            int b = fp_safe(g, q, (int)p, vg_use(g, in->b, (int)p), 2);
            int t = q ? vg_scratch(g, 3 - (int)p) : d;
            if (q && p == 1) {
                t = d;
            }
            vg_rr(g, O_FP(q, 0xc2), t, a, b);
            imm8(g, pr);
            r[p] = t;
        }
        if (q) {
            /* r[0] in scratch 3, r[1] in d */
            int s = vg_scratch(g, 2);
            vg_mov(g, s, r[1]);
            narrow_avx2(g, d, r[0], s);
        }
        return true;
    }
}

/* The FP64 compare on AVX-512 with the range mask: both halves into
 * separate registers, then combined. */
static bool op_fcmp64_evex(VGen *g, const VecInsn *in)
{
    static const uint8_t quiet[] = { P_EQ_OQ, P_NEQ_OQ, P_LT_OQ, P_GE_OQ };
    static const uint8_t loud[] = { P_EQ_OS, P_NEQ_OS, P_LT_OS, P_GE_OS };
    unsigned pr = (in->imm & VFC_SIGNAL) ? loud[in->imm & 3] : quiet[in->imm & 3];
    int d = vg_kdef(g, in->d);
    int a0 = vg_use(g, in->a, 0), b0 = vg_use(g, in->b, 0);
    int a1 = vg_use(g, in->a, 1), b1 = vg_use(g, in->b, 1);
    int k;

    /* high half first into d (not k6/k7), then low half into k0 */
    k = vg_kmask(g, VEC_NONE, 1);
    vg_rrk(g, O_FP(true, 0xc2), d, a1, b1, k, false);
    imm8(g, pr);
    k = vg_kmask(g, VEC_NONE, 0);
    vg_rrk(g, O_FP(true, 0xc2), 0, a0, b0, k, false);
    imm8(g, pr);
    kunpck(g, d, d, 0);
    return true;
}

/*
 * FMA.  A block holding a NaN operand (in range) calls the fallback for
 * every lane (the host's NaN rules are not the library's); others use the
 * host FMA.
 */

static bool op_fma(VGen *g, const VecInsn *in)
{
    static const uint8_t opc[] = { 0xa8, 0xaa, 0xae, 0xac }; /* madd msub nmadd nmsub */
    bool q = isq(in);
    unsigned np = nparts(in->type), nfix = 0;
    size_t fix[6], to_done;

    if (in->fn == 0) {
        return vg_fail(g, "FMA without a fallback");
    }
    /* Every register either path needs is allocated before the split, so
     * both paths leave the allocator in the same state. */
    for (unsigned p = 0; p < np; p++) {
        vg_use(g, in->a, (int)p);
        vg_use(g, in->b, (int)p);
        vg_use(g, in->c, (int)p);
        vg_def(g, in->d, (int)p);
    }
    /* any NaN among a, b, c (in range)?  Integer compares of |x| with
     * infinity: the check raises no FP exception. */
    for (unsigned p = 0; p < np; p++) {
        uint16_t ops[3] = { in->a, in->b, in->c };
        int32_t inf = q ? vg_pool_splat(g, UINT64_C(0x7ff0000000000000), 8)
                        : vg_pool_splat(g, 0x7f800000, 4);
        int32_t absm = q ? vg_pool_splat(g, INT64_MAX, 8) : vg_pool_splat(g, INT32_MAX, 4);
        int t = vg_scratch(g, 3);
        for (unsigned i = 0; i < 3; i++) {
            int x = vg_use(g, ops[i], (int)p);
            vg_rm(g, O_PAND(q), t, x, pool_mem(absm), 0, false);
            if (g->evex) {
                int k = vg_kmask(g, VEC_NONE, q ? (int)p : -1);
                vg_rm(g, O_VPCMPU(q), 0, t, pool_mem(inf), k, false);
                imm8(g, 6);
                vx_rr(g->e, false, O_KORTEST, 0, 0, 0, 0, 0, false);
            } else {
                vg_rm(g, q ? O_PCMPGTQ : O_PCMPGTD, t, t, pool_mem(inf), 0, false);
                if (vg_vmask(g, VEC_NONE, q ? (int)p : -1, 0)) {
                    vg_rr(g, O_PAND(0), t, t, vg_scratch(g, 0));
                }
                vx_rr(g->e, false, O_PTEST, VX_256, t, 0, t, 0, false);
            }
            fix[nfix++] = x86_jcc_rel32(g->e, X86_CC_NE);
        }
    }
    /* fast path: the host FMA (d = a; d = d * b + c) */
    for (unsigned p = 0; p < np; p++) {
        int d = vg_def(g, in->d, (int)p);
        int a = fp_safe(g, q, (int)p, vg_use(g, in->a, (int)p), 1);
        int b, c, k;
        vg_mov(g, d, a);
        b = fp_safe(g, q, (int)p, vg_use(g, in->b, (int)p), 1);
        c = fp_safe(g, q, (int)p, vg_use(g, in->c, (int)p), 2);
        k = g->evex ? vg_kmask(g, VEC_NONE, q ? (int)p : -1) : 0;
        vg_rrk(g, VX(VX_0F38, VX_66, q, opc[in->imm & 3]), d, b, c, k, k != 0);
        canon_nan(g, q, d);
    }
    to_done = x86_jmp_rel32(g->e);
    for (unsigned i = 0; i < nfix; i++) {
        x86_patch_rel32(g->e, fix[i], g->e->pos);
    }
    if (!vo_call_lanes(g, in, in->fn, in->d)) {
        return false;
    }
    x86_patch_rel32(g->e, to_done, g->e->pos);
    return true;
}

/*
 * maximumNumber / minimumNumber without FP flags: an sNaN operand (in
 * range) sets IE in f->flags; a NaN loses to a number; both NaN: the
 * default NaN; otherwise the larger (smaller) by the integer key
 * x ^ ((x >>s w-1) >>u 1), which orders -0 below +0.
 */
static void fp_key(VGen *g, bool q, int d, int s)
{
    shift_imm(g, q, 4, d, s, q ? 63 : 31);
    shift_imm(g, q, 2, d, d, 1);
    vg_rr(g, O_PXOR(q), d, d, s);
}

/* Unless @cc: IE in MXCSR (with the other flags, so a bail-out's
 * restore of the block's MXCSR takes it back too). */
static void set_ie_if(VGen *g, X86Cond cc)
{
    size_t skip = x86_jcc_rel32(g->e, cc);

    vx_stmxcsr(g->e, X86_RSP, VG_TMP32);
    x86_modrm_mem(g->e, OPC_GRP1_EvIb, X86_ALU_OR, X86_RSP, X86_NO_REG, 0, VG_TMP32);
    x86_byte(g->e, 1);
    vx_ldmxcsr(g->e, X86_RSP, VG_TMP32);
    x86_patch_rel32(g->e, skip, g->e->pos);
}

static bool op_fminmax(VGen *g, const VecInsn *in)
{
    bool q = isq(in), max = in->op == VO_FMAX;
    int32_t inf = q ? vg_pool_splat(g, UINT64_C(0x7ff0000000000000), 8)
                    : vg_pool_splat(g, 0x7f800000, 4);
    int32_t absm = q ? vg_pool_splat(g, INT64_MAX, 8) : vg_pool_splat(g, INT32_MAX, 4);
    int32_t qb = q ? vg_pool_splat(g, UINT64_C(1) << 51, 8) : vg_pool_splat(g, 1u << 22, 4);
    int32_t dn = q ? vg_pool_splat(g, UINT64_C(0x7ff8000000000000), 8)
                   : vg_pool_splat(g, 0x7fc00000, 4);

    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p), b = vg_use(g, in->b, (int)p);
        int d = vg_def(g, in->d, (int)p);
        int s0 = vg_scratch(g, 0), s1 = vg_scratch(g, 1), s2 = vg_scratch(g, 2);
        int s3 = vg_scratch(g, 3);
        if (g->evex) {
            int k;
            /* sNaN operands in range: IE */
            for (int i = 0; i < 2; i++) {
                int x = i ? b : a;
                k = vg_kmask(g, VEC_NONE, q ? (int)p : -1);
                vg_rm(g, O_PAND(q), s0, x, pool_mem(absm), 0, false);
                vg_rm(g, O_VPCMPU(q), 6, s0, pool_mem(inf), k, false); /* isnan & range */
                imm8(g, 6);
                vg_rm(g, O_PTESTNM(q), 0, x, pool_mem(qb), 6, false);   /* quiet bit clear */
                vx_rr(g->e, false, O_KORTEST, 0, 0, 0, 0, 0, false);
                set_ie_if(g, X86_CC_E);
            }
            fp_key(g, q, s0, a);
            fp_key(g, q, s1, b);
            /* d = (key a > key b) == max ? a : b */
            vg_rr(g, O_VPCMP(q), 6, s0, s1);
            imm8(g, max ? 6 : 1);
            vg_rrk(g, O_PBLENDM(q), d, b, a, 6, false);
            /* NaN a: b; NaN b: a; both: default NaN */
            vg_rm(g, O_PAND(q), s2, a, pool_mem(absm), 0, false);
            vg_rm(g, O_VPCMPU(q), 6, s2, pool_mem(inf), 0, false);
            imm8(g, 6);
            vg_rrk(g, O_MOVDQA(q), d, 0, b, 6, false);
            vg_rm(g, O_PAND(q), s3, b, pool_mem(absm), 0, false);
            vg_rm(g, O_VPCMPU(q), 6, s3, pool_mem(inf), 0, false);
            imm8(g, 6);
            vg_rrk(g, O_MOVDQA(q), d, 0, a, 6, false);
            vg_rm(g, O_VPCMPU(q), 6, s2, pool_mem(inf), 6, false); /* both */
            imm8(g, 6);
            vg_rm(g, q ? O_MOVDQU64 : O_MOVDQU32, d, 0, pool_mem(dn), 6, false);
        } else {
            /* AVX2: NaN masks by signed compares of |x| with inf */
            VxOpc gt = q ? O_PCMPGTQ : O_PCMPGTD;
            for (int i = 0; i < 2; i++) {
                int x = i ? b : a;
                vg_rm(g, O_PAND(0), s0, x, pool_mem(absm), 0, false);
                vg_rm(g, gt, s0, s0, pool_mem(inf), 0, false);        /* isnan */
                vg_rm(g, O_PAND(0), s1, x, pool_mem(qb), 0, false);
                vg_rm(g, q ? O_PCMPEQQ : O_PCMPEQD, s1, s1, pool_mem(vg_pool_splat(g, 0, 8)), 0,
                      false);                                         /* quiet bit clear */
                vg_rr(g, O_PAND(0), s0, s0, s1);
                if (g->tail) {
                    vg_vmask(g, VEC_NONE, q ? (int)p : -1, 1);
                    vg_rr(g, O_PAND(0), s0, s0, s1);
                }
                vx_rr(g->e, false, O_PTEST, VX_256, s0, 0, s0, 0, false);
                set_ie_if(g, X86_CC_E);
            }
            fp_key(g, q, s0, a);
            fp_key(g, q, s1, b);
            if (max) {
                vg_rr(g, gt, s0, s0, s1);
            } else {
                vg_rr(g, gt, s0, s1, s0);
            }
            vblend(g, d, s0, a, b);
            vg_rm(g, O_PAND(0), s2, a, pool_mem(absm), 0, false);
            vg_rm(g, gt, s2, s2, pool_mem(inf), 0, false);            /* nan a */
            vblend(g, d, s2, b, d);
            vg_rm(g, O_PAND(0), s3, b, pool_mem(absm), 0, false);
            vg_rm(g, gt, s3, s3, pool_mem(inf), 0, false);            /* nan b */
            vblend(g, d, s3, a, d);
            vg_rr(g, O_PAND(0), s2, s2, s3);
            vg_load_vec(g, s3, pool_mem(dn));
            vblend(g, d, s2, s3, d);
        }
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Accumulators
 * --------------------------------------------------------------------- */

static int32_t acc_off(int64_t k, unsigned part, unsigned vbytes)
{
    return (int32_t)(offsetof(VecFrame, acc) + (size_t)k * sizeof(((VecFrame *)0)->acc[0]) +
                     part * vbytes);
}

static bool op_red(VGen *g, const VecInsn *in)
{
    bool q = isq(in);
    unsigned op = in->aux;
    VxOpc o;
    uint64_t ident;

    switch (op) {
    case VR_ADD: o = O_PADD(q); ident = 0; break;
    case VR_AND: o = O_PAND(q); ident = UINT64_MAX; break;
    case VR_OR: o = O_POR(q); ident = 0; break;
    case VR_XOR: o = O_PXOR(q); ident = 0; break;
    case VR_SMAX: o = O_PMAXS(q); ident = q ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN; break;
    case VR_SMIN: o = O_PMINS(q); ident = q ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX; break;
    case VR_UMAX: o = O_PMAXU(q); ident = 0; break;
    case VR_UMIN: o = O_PMINU(q); ident = UINT64_MAX; break;
    default: return vg_fail(g, "bad reduction");
    }
    for (unsigned p = 0; p < nparts(in->type); p++) {
        int a = vg_use(g, in->a, (int)p), s = vg_scratch(g, 1);
        VxMem acc = frame_mem((size_t)acc_off(in->imm, p, g->vbytes));
        vg_load_vec(g, s, acc);
        if (g->evex) {
            int k = vg_kmask(g, in->m, q ? (int)p : -1);
            vg_rrk(g, o, s, s, a, k, false);
        } else {
            int v = a;
            if (vg_vmask(g, in->m, q ? (int)p : -1, 0)) {
                int t = vg_scratch(g, 2);
                vg_load_vec(g, t, pool_mem(vg_pool_splat(g, ident, q ? 8 : 4)));
                vblend(g, t, vg_scratch(g, 0), a, t);
                v = t;
            }
            if (q && (op == VR_SMAX || op == VR_SMIN || op == VR_UMAX || op == VR_UMIN)) {
                /* no 64-bit max/min on AVX2: compare and blend */
                int m = vg_scratch(g, 0), x = v, y = s;
                if (op == VR_UMAX || op == VR_UMIN) {
                    int32_t sb = vg_pool_splat(g, UINT64_C(1) << 63, 8);
                    int ta = vg_scratch(g, 3);
                    vg_rm(g, O_PXOR(0), ta, v, pool_mem(sb), 0, false);
                    vg_rm(g, O_PXOR(0), m, s, pool_mem(sb), 0, false);
                    vg_rr(g, O_PCMPGTQ, m, ta, m);
                } else {
                    vg_rr(g, O_PCMPGTQ, m, x, y);
                }
                if (op == VR_SMAX || op == VR_UMAX) {
                    vblend(g, s, m, x, y);
                } else {
                    vblend(g, s, m, y, x);
                }
            } else {
                vg_rr(g, o, s, s, v);
            }
        }
        vg_store_vec(g, s, acc);
    }
    return true;
}

static bool op_fred_add(VGen *g, const VecInsn *in)
{
    X86Emitter *e = g->e;
    bool q = isq(in), test = in->m != VEC_NONE || g->tail;
    unsigned esz = q ? 8 : 4;
    int s = vg_scratch(g, 1);
    VxMem acc = frame_mem((size_t)acc_off(in->imm, 0, g->vbytes));

    vg_store_arr(g, in->a, 0);
    if (test) {
        vg_lane_bits(g, in->m);
    }
    vx_rm(e, g->evex, O_MOVSS_LD(q), VX_128, s, 0, acc, 0, false, false);
    for (unsigned i = 0; i < g->lanes; i++) {
        size_t skip = 0;
        if (test) {
            x86_test_ri(e, VG_BITS_REG, (int32_t)(1u << i));
            skip = x86_jcc_rel32(e, X86_CC_E);
        }
        vx_rm(e, g->evex, O_ADDSS(q), VX_128, s, s, stack_mem(vg_arr(0) + (int32_t)(i * esz)), 0,
              false, false);
        if (test) {
            x86_patch_rel32(e, skip, e->pos);
        }
    }
    vx_rm(e, g->evex, O_MOVSS_ST(q), VX_128, s, 0, acc, 0, false, false);
    return true;
}

/* maximumNumber / minimumNumber accumulation (see VecFrame) */
static bool op_fred_minmax(VGen *g, const VecInsn *in)
{
    X86Emitter *e = g->e;
    bool q = isq(in), max = in->aux == VR_FMAX;
    int32_t inf = q ? vg_pool_splat(g, UINT64_C(0x7ff0000000000000), 8)
                    : vg_pool_splat(g, 0x7f800000, 4);
    int32_t absm = q ? vg_pool_splat(g, INT64_MAX, 8) : vg_pool_splat(g, INT32_MAX, 4);
    int32_t qb = q ? vg_pool_splat(g, UINT64_C(1) << 51, 8) : vg_pool_splat(g, 1u << 22, 4);
    size_t cnt = offsetof(VecFrame, acc_count) + 8 * (size_t)in->imm;
    size_t snan = offsetof(VecFrame, acc_snan) + 8 * (size_t)in->imm;
    size_t nanoff = offsetof(VecFrame, acc_nan) + (size_t)in->imm * sizeof(((VecFrame *)0)->acc[0]);

    /* count += popcount(enabled) */
    vg_lane_bits(g, in->m);
    x86_modrm_rr(e, OPC_POPCNT, VG_BITS_REG, VG_BITS_REG);
    x86_modrm_mem(e, OPC_ALU_EvGv(X86_ALU_ADD) | X86_P_W, VG_BITS_REG, VG_FRAME_REG, X86_NO_REG, 0,
                  (int32_t)cnt);
    for (unsigned p = 0; p < nparts(in->type); p++) {
        int v = vg_use(g, in->a, (int)p);
        int s0 = vg_scratch(g, 0), s1 = vg_scratch(g, 1), s2 = vg_scratch(g, 2);
        int s3 = vg_scratch(g, 3);
        VxMem acc = frame_mem((size_t)acc_off(in->imm, p, g->vbytes));
        VxMem nan = frame_mem(nanoff + p * g->vbytes);
        if (g->evex) {
            int k = vg_kmask(g, in->m, q ? (int)p : -1);
            /* k6 = enabled */
            if (k == 0) {
                vx_rr(e, false, O_KXNOR, 1, 6, 6, 6, 0, false);
            } else if (k != 6) {
                vx_rr(e, false, O_KMOV_KK, 0, 6, 0, k, 0, false);
            }
            /* k0 = enabled & isnan(v) */
            vg_rm(g, O_PAND(q), s0, v, pool_mem(absm), 0, false);
            vg_rm(g, O_VPCMPU(q), 0, s0, pool_mem(inf), 6, false);
            imm8(g, 6);
            /* eax = enabled; k6 = NaN lanes: the NaN values, sNaN flag */
            vx_rr(e, false, O_KMOV_GK, 0, X86_RAX, 0, 6, 0, false);
            vx_rr(e, false, O_KMOV_KK, 0, 6, 0, 0, 0, false);
            vg_load_vec(g, s1, nan);
            vg_rrk(g, O_MOVDQA(q), s1, 0, v, 6, false);
            vg_store_vec(g, s1, nan);
            vg_rm(g, O_PTESTNM(q), 0, v, pool_mem(qb), 6, false);
            vx_rr(e, false, O_KORTEST, 0, 0, 0, 0, 0, false);
            {
                size_t skip = x86_jcc_rel32(e, X86_CC_E);
                x86_modrm_mem(e, OPC_GRP1_EvIb | X86_P_W, X86_ALU_OR, VG_FRAME_REG, X86_NO_REG, 0,
                              (int32_t)snan);
                x86_byte(e, 1);
                x86_patch_rel32(e, skip, e->pos);
            }
            /* k6 = enabled & !isnan(v) */
            vx_rr(e, false, O_KMOV_KG, 0, 0, 0, X86_RAX, 0, false);
            vx_rr(e, false, O_KANDN, 1, 6, 6, 0, 0, false);
            vg_load_vec(g, s2, acc);
            fp_key(g, q, s0, v);
            fp_key(g, q, s1, s2);
            /* k0 = k6 & key(v) > key(acc) (max) */
            vg_rrk(g, O_VPCMP(q), 0, s0, s1, 6, false);
            imm8(g, max ? 6 : 1);
            /* k6 = k6 & isnan(acc) */
            vg_rm(g, O_PAND(q), s3, s2, pool_mem(absm), 0, false);
            vg_rm(g, O_VPCMPU(q), 6, s3, pool_mem(inf), 6, false);
            imm8(g, 6);
            vx_rr(e, false, O_KOR, 1, 6, 6, 0, 0, false);
            vg_rrk(g, O_MOVDQA(q), s2, 0, v, 6, false);
            vg_store_vec(g, s2, acc);
        } else {
            VxOpc gt = q ? O_PCMPGTQ : O_PCMPGTD;
            int32_t zero8 = vg_pool_splat(g, 0, 8);
            bool masked = vg_vmask(g, in->m, q ? (int)p : -1, 3); /* s3 = enabled */
            if (!masked) {
                ones(g, s3);
            }
            /* s0 = enabled & isnan(v) */
            vg_rm(g, O_PAND(0), s0, v, pool_mem(absm), 0, false);
            vg_rm(g, gt, s0, s0, pool_mem(inf), 0, false);
            vg_rr(g, O_PAND(0), s0, s0, s3);
            vg_load_vec(g, s1, nan);
            vblend(g, s1, s0, v, s1);
            vg_store_vec(g, s1, nan);
            vg_rm(g, O_PAND(0), s1, v, pool_mem(qb), 0, false);
            vg_rm(g, q ? O_PCMPEQQ : O_PCMPEQD, s1, s1, pool_mem(zero8), 0, false);
            vg_rr(g, O_PAND(0), s1, s1, s0);
            vx_rr(e, false, O_PTEST, VX_256, s1, 0, s1, 0, false);
            {
                size_t skip = x86_jcc_rel32(e, X86_CC_E);
                x86_modrm_mem(e, OPC_GRP1_EvIb | X86_P_W, X86_ALU_OR, VG_FRAME_REG, X86_NO_REG, 0,
                              (int32_t)snan);
                x86_byte(e, 1);
                x86_patch_rel32(e, skip, e->pos);
            }
            /* s3 = enabled & !isnan(v) */
            vg_rr(g, O_PANDN(0), s3, s0, s3);
            /* s0 = key(v) > key(acc) | isnan(acc) */
            vg_load_vec(g, s2, acc);
            fp_key(g, q, s0, v);
            fp_key(g, q, s1, s2);
            if (max) {
                vg_rr(g, gt, s0, s0, s1);
            } else {
                vg_rr(g, gt, s0, s1, s0);
            }
            vg_rm(g, O_PAND(0), s1, s2, pool_mem(absm), 0, false);
            vg_rm(g, gt, s1, s1, pool_mem(inf), 0, false);
            vg_rr(g, O_POR(0), s0, s0, s1);
            vg_rr(g, O_PAND(0), s0, s0, s3);
            vblend(g, s2, s0, v, s2);
            vg_store_vec(g, s2, acc);
        }
    }
    return true;
}

/* ---------------------------------------------------------------------
 * Dispatch
 * --------------------------------------------------------------------- */

bool vg_insn(VGen *g, const VecInsn *in)
{
    switch (in->op) {
    case VO_CONST: return op_const(g, in);
    case VO_SCALAR: return op_scalar(g, in);
    case VO_LANE: return op_lane(g, in);
    case VO_ADD: case VO_SUB: case VO_MUL: case VO_AND: case VO_OR: case VO_XOR:
    case VO_SHLV: case VO_SHRV: case VO_SARV: case VO_SMAX: case VO_SMIN: case VO_UMAX:
    case VO_UMIN: case VO_SHLI: case VO_SHRI: case VO_SARI: case VO_SEXT: case VO_ZEXT:
    case VO_WIDEN: case VO_NARROW:
        return op_int(g, in);
    case VO_CMP: return op_cmp(g, in);
    case VO_TESTNZ: return op_testnz(g, in);
    case VO_MAND: case VO_MOR: case VO_MANDN: case VO_MNOT: return op_mask(g, in);
    case VO_MASK2INT: return op_mask2int(g, in);
    case VO_BLEND: return op_blend(g, in);
    case VO_FADD: case VO_FSUB: case VO_FMUL: case VO_FDIV: case VO_FSQRT:
        return op_farith(g, in);
    case VO_FABS: return op_fabs(g, in);
    case VO_FMAX: case VO_FMIN: return op_fminmax(g, in);
    case VO_FMA: return op_fma(g, in);
    case VO_FCMP:
        if (g->evex && in->aux == VT_W64) {
            return op_fcmp64_evex(g, in);
        }
        return op_fcmp(g, in);
    case VO_LOAD: return vo_op_load(g, in);
    case VO_STORE: return vo_op_store(g, in);
    case VO_GATHER: return vo_op_gather(g, in);
    case VO_CALL: return vo_call_lanes(g, in, in->fn, in->d);
    case VO_VCALL: return vo_call_block(g, in);
    case VO_RED: return op_red(g, in);
    case VO_FRED:
        return in->aux == VR_FADD ? op_fred_add(g, in) : op_fred_minmax(g, in);
    default:
        return vg_fail(g, "unknown op");
    }
}
