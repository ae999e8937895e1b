/*
 * Floating-point operations of kernel bodies compiled to host SIMD
 * (kernel-simd.c, docs/kernels.md "SIMD mode"): FP32/FP64 arithmetic,
 * compares and FMA as vector ops, e^x a block at a time, everything else
 * (FP16/FP8, class, conversions) through the library per lane.
 */
#include <string.h>

#include "fpu/fpu.h"
#include "helper-ops.h"
#include "kernel-ops.h"
#include "kernel-simd-internal.h"
#include "tcg/exec.h"

#include "helper-proto.h"


static bool fp_fmt(KSComp *c, unsigned *fmt, unsigned *lg)
{
    static const unsigned by_lg[4] = { LINX_FP8_E4M3, LINX_FP16, LINX_FP32, LINX_FP64 };
    LinxKReg r;

    if (!linx_kreg_src((unsigned)kop_fld(&c->k, LINX_FLD_SrcL), &r) || r.st) {
        return ks_fail(c);
    }
    *lg = r.size_log2 & 3;
    *fmt = by_lg[*lg];
    return true;
}

static bool rd_fp(KSComp *c, LinxFieldId id, KSV *out)
{
    LinxKReg r;

    return kop_has(&c->k, id) ? ks_rd_raw(c, (unsigned)kop_fld(&c->k, id), out, &r) : ks_fail(c);
}

/* Per-lane helper call: d = fn(env, a[, b[, c]], desc). */
static KSV call_fp(KSComp *c, uint64_t fn, unsigned n, KSV *ops, int64_t desc)
{
    VecInsn in;

    memset(&in, 0, sizeof(in));
    in.op = VO_CALL;
    in.type = VT_W64;
    in.a = ks_as64(c, &ops[0]);
    in.b = n > 1 ? ks_as64(c, &ops[1]) : VEC_NONE;
    in.c = n > 2 ? ks_as64(c, &ops[2]) : VEC_NONE;
    in.m = VEC_NONE;
    in.fn = fn;
    in.call_imm = desc;
    in.args[0] = VA_ENV;
    for (unsigned i = 0; i < n; i++) {
        in.args[1 + i] = (uint8_t)(VA_A + i);
    }
    in.args[1 + n] = VA_IMM;
    if (c->fail) {
        return ks_kconst(0);
    }
    return ks_kvar64(c, vec_prog_emit(c->vp, &in));
}

/* FMA fallbacks: the library through helper_kfp3 (flags into FCSR). */
#define FMA_FB(name, op, fmt)                                                                  \
    static uint64_t name(uint64_t env, uint64_t a, uint64_t b, uint64_t cc)                    \
    {                                                                                          \
        return helper_kfp3((CPULinxState *)(uintptr_t)env, a, b, cc,                            \
                           (uint64_t)((op) | (fmt) << KFP_FMT_SHIFT));                           \
    }
FMA_FB(fma_fb32_0, KFP_MADD, LINX_FP32)
FMA_FB(fma_fb32_1, KFP_MSUB, LINX_FP32)
FMA_FB(fma_fb32_2, KFP_NMADD, LINX_FP32)
FMA_FB(fma_fb32_3, KFP_NMSUB, LINX_FP32)
FMA_FB(fma_fb64_0, KFP_MADD, LINX_FP64)
FMA_FB(fma_fb64_1, KFP_MSUB, LINX_FP64)
FMA_FB(fma_fb64_2, KFP_NMADD, LINX_FP64)
FMA_FB(fma_fb64_3, KFP_NMSUB, LINX_FP64)

static uint64_t (*const fma_fb[2][4])(uint64_t, uint64_t, uint64_t, uint64_t) = {
    { fma_fb32_0, fma_fb32_1, fma_fb32_2, fma_fb32_3 },
    { fma_fb64_0, fma_fb64_1, fma_fb64_2, fma_fb64_3 },
};

bool ks_op_fp(KSComp *c, unsigned kop, unsigned nops)
{
    static const LinxFieldId f[3] = { LINX_FLD_SrcL, LINX_FLD_SrcR, LINX_FLD_SrcA };
    unsigned fmt = 0, lg = 0;
    KSV ops[3];
    bool q;
    VecType t;

    if (!fp_fmt(c, &fmt, &lg)) {
        return false;
    }
    for (unsigned i = 0; i < nops; i++) {
        if (!rd_fp(c, f[i], &ops[i])) {
            return false;
        }
    }
    if (kop == KFP_EXP && lg == 2) {
        /* a block at a time through the library's fast e^x (same bits) */
        VecInsn in;
        uint16_t v;
        memset(&in, 0, sizeof(in));
        in.op = VO_VCALL;
        in.type = VT_W32;
        in.a = ks_as32(c, &ops[0]);
        in.b = in.c = in.m = VEC_NONE;
        in.fn = (uint64_t)(uintptr_t)ks_fexp32_block;
        if (c->fail) {
            return false;
        }
        v = vec_prog_emit(c->vp, &in);
        return ks_wr(c, ks_kvar32(c, v, EXT_Z), ks_vdom(c), false);
    }
    if (lg < 2 || kop == KFP_EXP || kop == KFP_CLASS) {
        /* the library per lane */
        uint64_t fn = nops == 1 ? (uint64_t)(uintptr_t)helper_kfp1
                      : nops == 2 ? (uint64_t)(uintptr_t)helper_kfp2
                                  : (uint64_t)(uintptr_t)helper_kfp3;
        KSV r = call_fp(c, fn, nops, ops, (int64_t)(kop | fmt << KFP_FMT_SHIFT));
        return ks_wr(c, r, ks_vdom(c), (kop & KFP_OP_MASK) >= KFP_EQ);
    }
    c->sp->fp = true;
    q = lg == 3;
    t = q ? VT_W64 : VT_W32;
#define OPV(i) (q ? ks_as64(c, &ops[i]) : ks_as32(c, &ops[i]))
    switch (kop & KFP_OP_MASK) {
    case KFP_ADD: case KFP_SUB: case KFP_MUL: case KFP_DIV: case KFP_MAX: case KFP_MIN: {
        static const VecOp vo[] = { [KFP_ADD] = VO_FADD, [KFP_SUB] = VO_FSUB,
                                    [KFP_MUL] = VO_FMUL, [KFP_DIV] = VO_FDIV,
                                    [KFP_MAX] = VO_FMAX, [KFP_MIN] = VO_FMIN };
        uint16_t a = OPV(0), b = OPV(1);
        uint16_t v = ks_vop(c, vo[kop & KFP_OP_MASK], t, a, b, VEC_NONE, VEC_NONE, 0, 0);
        return ks_wr(c, q ? ks_kvar64(c, v) : ks_kvar32(c, v, EXT_Z), ks_vdom(c), false);
    }
    case KFP_SQRT: case KFP_ABS: {
        uint16_t v = ks_vop(c, (kop & KFP_OP_MASK) == KFP_SQRT ? VO_FSQRT : VO_FABS, t, OPV(0), VEC_NONE,
                       VEC_NONE, VEC_NONE, 0, 0);
        return ks_wr(c, q ? ks_kvar64(c, v) : ks_kvar32(c, v, EXT_Z), ks_vdom(c), false);
    }
    case KFP_RECIP: {
        uint16_t one = ks_vconst(c, q ? INT64_C(0x3ff0000000000000) : 0x3f800000, q);
        uint16_t v = ks_vop(c, VO_FDIV, t, one, OPV(0), VEC_NONE, VEC_NONE, 0, 0);
        return ks_wr(c, q ? ks_kvar64(c, v) : ks_kvar32(c, v, EXT_Z), ks_vdom(c), false);
    }
    case KFP_MADD: case KFP_MSUB: case KFP_NMADD: case KFP_NMSUB: {
        static const uint8_t var[] = { [KFP_MADD] = VFMA_MADD, [KFP_MSUB] = VFMA_MSUB,
                                       [KFP_NMADD] = VFMA_NMADD, [KFP_NMSUB] = VFMA_NMSUB };
        VecInsn in;
        uint16_t v;
        memset(&in, 0, sizeof(in));
        in.op = VO_FMA;
        in.type = (uint8_t)t;
        in.a = OPV(0);
        in.b = OPV(1);
        in.c = OPV(2);
        in.m = VEC_NONE;
        in.imm = var[kop & KFP_OP_MASK];
        in.fn = (uint64_t)(uintptr_t)fma_fb[q][in.imm];
        if (c->fail) {
            return false;
        }
        v = vec_prog_emit(c->vp, &in);
        return ks_wr(c, q ? ks_kvar64(c, v) : ks_kvar32(c, v, EXT_Z), ks_vdom(c), false);
    }
    case KFP_EQ: case KFP_NE: case KFP_LT: case KFP_GE: {
        unsigned pred = (kop & KFP_OP_MASK) - KFP_EQ;
        uint16_t a = OPV(0), b = OPV(1);
        uint16_t m = ks_vop(c, VO_FCMP, VT_MASK, a, b, VEC_NONE, VEC_NONE,
                       pred | ((kop & KFP_SIGNALING) ? VFC_SIGNAL : 0), (uint8_t)t);
        return ks_wr(c, ks_kmask(c, m), ks_vdom(c), true);
    }
    default:
        return ks_fail(c);
    }
#undef OPV
}

bool ks_op_cvt(KSComp *c, unsigned kind)
{
    unsigned st = (unsigned)kop_fld(&c->k, LINX_FLD_SrcType) & 31;
    unsigned dt = (unsigned)kop_fld(&c->k, LINX_FLD_DstType) & 31;
    bool src_fp = kind == KCVT_F2F || kind == KCVT_F2I;
    bool dst_fp = kind == KCVT_F2F || kind == KCVT_I2F;
    LinxFpFormat f;
    KSV a;

    if ((src_fp ? !linx_fp_format_from_cvt_type(st, &f) : !linx_int_type_valid(st)) ||
        (dst_fp ? !linx_fp_format_from_cvt_type(dt, &f) : !linx_int_type_valid(dt)) ||
        !rd_fp(c, LINX_FLD_SrcL, &a)) {
        return ks_fail(c);
    }
    return ks_wr(c,
              call_fp(c, (uint64_t)(uintptr_t)helper_kcvt, 1, &a,
                      (int64_t)(kind | st << KCVT_SRC_SHIFT | dt << KCVT_DST_SHIFT)),
              ks_vdom(c), false);
}
