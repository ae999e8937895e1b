/*
 * One kernel-body instruction (V.*) for the current lane, as IR
 * (kernel-internal.h; semantics and decisions: docs/kernels.md).
 *
 * Operands are RegId10 codes (kernel-regid.c).  Integer sources are read
 * extended to 64 bits by their own type (.sw sign-extends 32 bits, .uh
 * zero-extends 16, .d is the whole value); the operation works on those
 * 64-bit values and the result is converted to the destination type
 * (truncated, then sign- or zero-extended by its s bit).  FP operands are
 * the low bits of the format their width names (d FP64, w FP32, h FP16,
 * b FP8 E4M3); the FP work is done by the fpu library (helper_kfp*).
 *
 * Domains (kernel_execution.json): an instruction naming a vector queue
 * is v.*: it is predicated by the lane's p; otherwise it is l.* and runs
 * regardless of p.  A v.* may not write a scalar destination (->t, ->u)
 * and only compares may write ->p.  For an inactive lane (p = 0), a v.*
 * queue push receives the value of the ring slot it reuses (the old #4:
 * "merge"), a compare writing ->p writes 0, and loads, stores and atomics
 * do not access memory.
 *
 * Loads, stores and atomics are in kernel-mem.c.
 */
#include <stddef.h>

#include "fpu/fpu.h"
#include "kernel-internal.h"

/* Operation codes of helper_kfp* / helper_kcvt / helper_kernel_xlane
 * (kernel-helpers.c decodes the same values). */
#include "kernel-ops.h"

/* ---------------------------------------------------------------------
 * Operands
 * --------------------------------------------------------------------- */

const LinxInsn *kop_cur(const KCtx *k)
{
    return &k->bi->insn;
}

int64_t kop_fld(const KCtx *k, LinxFieldId id)
{
    return linx_insn_field(kop_cur(k), id, NULL);
}

LinxSrcRMod kop_srcr_mod(const KCtx *k)
{
    return linx_srcr_mod(k->ctx->env->profile, kop_fld(k, LINX_FLD_SrcRType));
}

bool kop_has(const KCtx *k, LinxFieldId id)
{
    bool present = false;

    linx_insn_field(kop_cur(k), id, &present);
    return present;
}

IRTemp kop_tmp(KCtx *k)
{
    return ir_temp(k->ir);
}

IRTemp kop_cst(KCtx *k, int64_t v)
{
    return ir_const(k->ir, v);
}

/* Extend the low 8 << @lg bits of @v (sign or zero). */
IRTemp kop_ext(KCtx *k, IRTemp v, unsigned lg, bool sign)
{
    static const IROpcode ext[2][3] = {
        { IR_ext8u, IR_ext16u, IR_ext32u },
        { IR_ext8s, IR_ext16s, IR_ext32s },
    };
    IRTemp t;

    if (lg >= 3) {
        return v;
    }
    t = kop_tmp(k);
    ir_gen_op2(k->ir, ext[sign][lg], t, v);
    return t;
}

/* Raw 64-bit value of source @code; IR_NO_TEMP when it names nothing. */
IRTemp kop_read_raw(KCtx *k, unsigned code, LinxKReg *r)
{
    IRTemp t;

    if (!linx_kreg_src(code, r)) {
        return IR_NO_TEMP;
    }
    switch (r->kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND:
        return kc_read(k, r->queue, r->k);
    case LINX_KR_RI:
        t = kop_tmp(k);
        ir_gen_ld(k->ir, IR_ld64, t, k->ir->env, KERN_OFF(ri[0]) + 8 * r->index);
        return t;
    case LINX_KR_LC:
        return cpu_field(k->ctx, lc[r->index]);
    case LINX_KR_LB:
        return cpu_field(k->ctx, lb[r->index]);
    case LINX_KR_P:
        return kc_read_p(k);
    default: /* ZERO; a tile base as a value is its offset 0 */
        return kop_cst(k, 0);
    }
}

/* Integer source @code extended by its RegId10 type. */
IRTemp kop_read_int(KCtx *k, unsigned code)
{
    LinxKReg r;
    IRTemp v = kop_read_raw(k, code, &r);

    return v == IR_NO_TEMP ? v : kop_ext(k, v, r.size_log2, r.st);
}

IRTemp kop_read_field(KCtx *k, LinxFieldId id)
{
    return kop_read_int(k, (unsigned)kop_fld(k, id));
}

/* Does the instruction name a vector queue (the v.* domain)? */
bool kop_vdomain(const KCtx *k)
{
    static const LinxFieldId srcs[] = { LINX_FLD_SrcL, LINX_FLD_SrcR, LINX_FLD_SrcD,
                                        LINX_FLD_SrcP, LINX_FLD_SrcA };
    LinxKReg r;

    for (unsigned i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
        if (kop_has(k, srcs[i]) && linx_kreg_src((unsigned)kop_fld(k, srcs[i]), &r) &&
            r.kind == LINX_KR_VEC) {
            return true;
        }
    }
    return kop_has(k, LINX_FLD_RegDst) && linx_kreg_dst((unsigned)kop_fld(k, LINX_FLD_RegDst), &r) &&
           r.kind == LINX_KR_VEC;
}

/* p != 0 as a temp (known-active lanes never get here). */
static IRTemp active(KCtx *k)
{
    return kc_read_p(k);
}


/* Write @v to RegDst (typed, predicated).  False: not a destination this
 * instruction may write (illegal). */
bool kop_write(KCtx *k, IRTemp v, bool vd, KDst how)
{
    IRContext *ir = k->ir;
    LinxKReg d;
    IRTemp t;

    if (!linx_kreg_dst((unsigned)kop_fld(k, LINX_FLD_RegDst), &d)) {
        return false;
    }
    switch (d.kind) {
    case LINX_KR_VEC:
    case LINX_KR_HAND:
        if (d.kind == LINX_KR_HAND && vd) {
            return false; /* v.* -> scalar destination */
        }
        v = kop_ext(k, v, d.size_log2, d.st);
        if (vd && !kc_p_active(k)) {
            t = kop_tmp(k);
            ir_gen_movcond(ir, IR_COND_NE, t, active(k), kop_cst(k, 0), v,
                           kc_read(k, d.queue, LINX_KQUEUE_DEPTH));
            v = t;
        }
        kc_push(k, d.queue, v);
        return true;
    case LINX_KR_P:
        if (vd && how != KD_COMPARE) {
            return false;
        }
        t = kop_tmp(k);
        ir_gen_setcond(ir, IR_COND_NE, t, v, kop_cst(k, 0));
        if (vd && !kc_p_active(k)) {
            ir_gen_and(ir, t, t, active(k)); /* inactive lanes write 0 */
        }
        kc_write_p(k, t);
        return true;
    case LINX_KR_ZERO:
        return true;
    default:
        return false;
    }
}

/* SrcR with its SrcRType modifier (.sw, .uw, .neg/.not; the code per the
 * ISA profile) and <<shamt. */
static IRTemp ksrcr(KCtx *k, IRTemp r, bool logic, bool use_shamt)
{
    IRContext *ir = k->ir;
    unsigned type = kop_srcr_mod(k);
    unsigned sh = use_shamt ? (unsigned)kop_fld(k, LINX_FLD_shamt) & 63 : 0;
    IRTemp t;

    if (type == 0 && sh == 0) {
        return r;
    }
    t = kop_tmp(k);
    switch (type) {
    case 1:
        ir_gen_op2(ir, IR_ext32s, t, r);
        break;
    case 2:
        ir_gen_op2(ir, IR_ext32u, t, r);
        break;
    case 3:
        ir_gen_op2(ir, logic ? IR_not : IR_neg, t, r);
        break;
    default:
        ir_gen_mov(ir, t, r);
        break;
    }
    if (sh) {
        ir_gen_shli(ir, t, t, sh);
    }
    return t;
}

/* ---------------------------------------------------------------------
 * Integer ALU
 * --------------------------------------------------------------------- */

static bool op_rr(KCtx *k, IROpcode op, bool srcr_mods, bool logic)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r = kop_read_field(k, LINX_FLD_SrcR);
    IRTemp d = kop_tmp(k);

    if (l == IR_NO_TEMP || r == IR_NO_TEMP) {
        return false;
    }
    if (srcr_mods) {
        r = ksrcr(k, r, logic, true);
    }
    ir_gen_op3(k->ir, op, d, l, r);
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

static bool op_ri(KCtx *k, IROpcode op, int64_t imm)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp d = kop_tmp(k);

    if (l == IR_NO_TEMP) {
        return false;
    }
    ir_gen_op3(k->ir, op, d, l, kop_cst(k, imm));
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

/* Signedness of DIV/REM/MIN/MAX: SrcL's type. */
static bool srcl_signed(const KCtx *k)
{
    LinxKReg r;

    return linx_kreg_src((unsigned)kop_fld(k, LINX_FLD_SrcL), &r) && r.st;
}

static bool op_divrem(KCtx *k, bool rem)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r = kop_read_field(k, LINX_FLD_SrcR);
    IRTemp d = kop_tmp(k);
    bool s = srcl_signed(k);

    if (l == IR_NO_TEMP || r == IR_NO_TEMP) {
        return false;
    }
    if (rem) {
        s ? gen_helper_rem(k->ctx, d, l, r) : gen_helper_remu(k->ctx, d, l, r);
    } else {
        s ? gen_helper_div(k->ctx, d, l, r) : gen_helper_divu(k->ctx, d, l, r);
    }
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

static bool op_minmax(KCtx *k, bool max)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r = kop_read_field(k, LINX_FLD_SrcR);
    IRTemp d = kop_tmp(k);
    bool s = srcl_signed(k);

    if (l == IR_NO_TEMP || r == IR_NO_TEMP) {
        return false;
    }
    ir_gen_movcond(k->ir, max ? (s ? IR_COND_GE : IR_COND_GEU) : (s ? IR_COND_LE : IR_COND_LEU),
                   d, l, r, l, r);
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

static bool op_madd(KCtx *k)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r = kop_read_field(k, LINX_FLD_SrcR);
    IRTemp a = kop_read_field(k, LINX_FLD_SrcD);
    IRTemp d = kop_tmp(k);

    if (l == IR_NO_TEMP || r == IR_NO_TEMP || a == IR_NO_TEMP) {
        return false;
    }
    ir_gen_op3(k->ir, IR_mul, d, l, r);
    ir_gen_add(k->ir, d, d, a);
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

/* Bitfield ops through the scalar ISA's helper (M, N as in trans_alu). */
static bool op_bitfield(KCtx *k, unsigned bf)
{
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp d = kop_tmp(k);
    unsigned m = (unsigned)kop_fld(k, bf == LINX_BF_REV ? LINX_FLD_immr : LINX_FLD_imms) & 63;
    unsigned n = ((unsigned)kop_fld(k, LINX_FLD_imml) & 63) + 1;

    if (l == IR_NO_TEMP) {
        return false;
    }
    gen_helper_bitfield(k->ctx, d, kop_cst(k, (int64_t)(bf | m << 8 | n << 16)), l, kop_cst(k, 0));
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

/* ---------------------------------------------------------------------
 * Compares and selects
 * --------------------------------------------------------------------- */

typedef enum KCmp { KC_EQ, KC_NE, KC_LT, KC_GE, KC_LTU, KC_GEU, KC_AND, KC_OR } KCmp;

static bool op_cmp(KCtx *k, KCmp c, bool imm)
{
    static const IRCond conds[] = {
        [KC_EQ] = IR_COND_EQ,  [KC_NE] = IR_COND_NE,   [KC_LT] = IR_COND_LT,
        [KC_GE] = IR_COND_GE,  [KC_LTU] = IR_COND_LTU, [KC_GEU] = IR_COND_GEU,
        [KC_AND] = IR_COND_NE, [KC_OR] = IR_COND_NE,
    };
    IRContext *ir = k->ir;
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r, d = kop_tmp(k);

    if (imm) {
        r = kop_cst(k, kop_has(k, LINX_FLD_uimm12) ? kop_fld(k, LINX_FLD_uimm12) : kop_fld(k, LINX_FLD_simm12));
    } else {
        r = kop_read_field(k, LINX_FLD_SrcR);
    }
    if (l == IR_NO_TEMP || r == IR_NO_TEMP) {
        return false;
    }
    if (c == KC_AND || c == KC_OR) {
        IRTemp t = kop_tmp(k);
        ir_gen_op3(ir, c == KC_AND ? IR_and : IR_or, t, l, r);
        ir_gen_setcond(ir, IR_COND_NE, d, t, kop_cst(k, 0));
    } else {
        ir_gen_setcond(ir, conds[c], d, l, r);
    }
    return kop_write(k, d, kop_vdomain(k), KD_COMPARE);
}

/* V.CSEL SrcP, SrcL, SrcR<.neg>: SrcP != 0 ? SrcL : SrcR;
 * V.PSEL p, SrcL, SrcR<.neg>: the lane's p selects.  The SrcRType code of
 * .neg is the ISA profile's; the polarity is the one V.CSEL/V.PSEL have in
 * every source (only the scalar CSEL differs between profiles,
 * docs/decisions.md). */
static bool op_select(KCtx *k, bool psel)
{
    IRTemp c = psel ? kc_read_p(k) : kop_read_field(k, LINX_FLD_SrcP);
    IRTemp l = kop_read_field(k, LINX_FLD_SrcL);
    IRTemp r = kop_read_field(k, LINX_FLD_SrcR);
    IRTemp d = kop_tmp(k);

    if (c == IR_NO_TEMP || l == IR_NO_TEMP || r == IR_NO_TEMP) {
        return false;
    }
    if (kop_srcr_mod(k) == LINX_SRCR_NEG) {
        IRTemp t = kop_tmp(k);
        ir_gen_op2(k->ir, IR_neg, t, r);
        r = t;
    }
    ir_gen_movcond(k->ir, IR_COND_NE, d, c, kop_cst(k, 0), l, r);
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

/* ---------------------------------------------------------------------
 * Floating point and conversions
 * --------------------------------------------------------------------- */

/* FP format of RegId10 source @id: its width; false for the reserved
 * t = 1 or an operand that names nothing. */
static bool fp_format(KCtx *k, LinxFieldId id, unsigned *fmt)
{
    static const unsigned by_lg[4] = { LINX_FP8_E4M3, LINX_FP16, LINX_FP32, LINX_FP64 };
    LinxKReg r;

    if (!linx_kreg_src((unsigned)kop_fld(k, id), &r) || r.st) {
        return false;
    }
    *fmt = by_lg[r.size_log2 & 3];
    return true;
}

static IRTemp kread_fp(KCtx *k, LinxFieldId id)
{
    LinxKReg r;

    return kop_read_raw(k, (unsigned)kop_fld(k, id), &r);
}

static bool op_fp2(KCtx *k, unsigned op)
{
    unsigned fmt;
    IRTemp a = kread_fp(k, LINX_FLD_SrcL), b = kread_fp(k, LINX_FLD_SrcR), d = kop_tmp(k);

    if (!fp_format(k, LINX_FLD_SrcL, &fmt) || a == IR_NO_TEMP || b == IR_NO_TEMP) {
        return false;
    }
    gen_helper_kfp2(k->ctx, d, k->ir->env, a, b, kop_cst(k, (int64_t)(op | fmt << KFP_FMT_SHIFT)));
    return kop_write(k, d, kop_vdomain(k), op >= KFP_EQ ? KD_COMPARE : KD_VALUE);
}

static bool op_fp3(KCtx *k, unsigned op)
{
    unsigned fmt;
    IRTemp a = kread_fp(k, LINX_FLD_SrcL), b = kread_fp(k, LINX_FLD_SrcR);
    IRTemp c = kread_fp(k, LINX_FLD_SrcA), d = kop_tmp(k);

    if (!fp_format(k, LINX_FLD_SrcL, &fmt) || a == IR_NO_TEMP || b == IR_NO_TEMP ||
        c == IR_NO_TEMP) {
        return false;
    }
    gen_helper_kfp3(k->ctx, d, k->ir->env, a, b, c,
                    kop_cst(k, (int64_t)(op | fmt << KFP_FMT_SHIFT)));
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

static bool op_fp1(KCtx *k, unsigned op)
{
    unsigned fmt;
    IRTemp a = kread_fp(k, LINX_FLD_SrcL), d = kop_tmp(k);

    if (!fp_format(k, LINX_FLD_SrcL, &fmt) || a == IR_NO_TEMP) {
        return false;
    }
    gen_helper_kfp1(k->ctx, d, k->ir->env, a, kop_cst(k, (int64_t)(op | fmt << KFP_FMT_SHIFT)));
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

static bool op_cvt(KCtx *k, unsigned kind)
{
    unsigned st = (unsigned)kop_fld(k, LINX_FLD_SrcType) & 31;
    unsigned dt = (unsigned)kop_fld(k, LINX_FLD_DstType) & 31;
    bool src_fp = kind == KCVT_F2F || kind == KCVT_F2I;
    bool dst_fp = kind == KCVT_F2F || kind == KCVT_I2F;
    LinxFpFormat f;
    IRTemp a = kread_fp(k, LINX_FLD_SrcL), d = kop_tmp(k);

    /* Reserved types make the encoding illegal (manual 05c). */
    if (a == IR_NO_TEMP || (src_fp ? !linx_fp_format_from_cvt_type(st, &f)
                                   : !linx_int_type_valid(st)) ||
        (dst_fp ? !linx_fp_format_from_cvt_type(dt, &f) : !linx_int_type_valid(dt))) {
        return false;
    }
    gen_helper_kcvt(k->ctx, d, k->ir->env, a,
                    kop_cst(k, (int64_t)(kind | st << KCVT_SRC_SHIFT | dt << KCVT_DST_SHIFT)));
    return kop_write(k, d, kop_vdomain(k), KD_VALUE);
}

/* ---------------------------------------------------------------------
 * Dispatch
 * --------------------------------------------------------------------- */

bool kop_is_barrier(unsigned form)
{
    return (form >= LINX_F_V_RDADD && form <= LINX_F_V_RDXOR) ||
           (form >= LINX_F_V_SHFL_BFLY && form <= LINX_F_V_SHFLI_UP);
}

bool kop_is_lane_op(unsigned form)
{
    const LinxFormInfo *fi = linx_form(form);

    return fi->uop == LINX_UOP_VEC && !kop_is_barrier(form);
}

void kop_operand_facts(const LinxInsn *insn, bool *vmvn, int *max_ri)
{
    static const LinxFieldId fields[] = { LINX_FLD_SrcL, LINX_FLD_SrcR, LINX_FLD_SrcD,
                                          LINX_FLD_SrcP, LINX_FLD_SrcA, LINX_FLD_RegDst };
    LinxKReg r;

    *vmvn = false;
    *max_ri = -1;
    for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        bool present = false;
        unsigned code = (unsigned)linx_insn_field(insn, fields[i], &present);
        bool ok;
        if (!present) {
            continue;
        }
        ok = fields[i] == LINX_FLD_RegDst ? linx_kreg_dst(code, &r) : linx_kreg_src(code, &r);
        if (!ok) {
            continue;
        }
        if (r.kind == LINX_KR_VEC && (r.queue == LINX_KQ_VM || r.queue == LINX_KQ_VN)) {
            *vmvn = true;
        }
        if (r.kind == LINX_KR_RI && (int)r.index > *max_ri) {
            *max_ri = r.index;
        }
    }
}

uint64_t kop_barrier_desc(const LinxInsn *insn)
{
    static const struct {
        uint16_t form;
        uint8_t op;
    } ops[] = {
        { LINX_F_V_RDADD, KX_RDADD },      { LINX_F_V_RDAND, KX_RDAND },
        { LINX_F_V_RDOR, KX_RDOR },        { LINX_F_V_RDXOR, KX_RDXOR },
        { LINX_F_V_RDMAX, KX_RDMAX },      { LINX_F_V_RDMIN, KX_RDMIN },
        { LINX_F_V_RDFADD, KX_RDFADD },    { LINX_F_V_RDFMAX, KX_RDFMAX },
        { LINX_F_V_RDFMIN, KX_RDFMIN },    { LINX_F_V_SHFL_UP, KX_SHFL_UP },
        { LINX_F_V_SHFL_DOWN, KX_SHFL_DOWN }, { LINX_F_V_SHFL_IDX, KX_SHFL_IDX },
        { LINX_F_V_SHFL_BFLY, KX_SHFL_BFLY }, { LINX_F_V_SHFLI_UP, KX_SHFL_UP },
        { LINX_F_V_SHFLI_DOWN, KX_SHFL_DOWN }, { LINX_F_V_SHFLI_IDX, KX_SHFL_IDX },
        { LINX_F_V_SHFLI_BFLY, KX_SHFL_BFLY },
    };
    bool has_imm = false;
    uint64_t d = KX_NONE;
    uint64_t imm;

    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (ops[i].form == insn->form) {
            d = ops[i].op;
        }
    }
    imm = (uint64_t)linx_insn_field(insn, LINX_FLD_imm, &has_imm) & KX_IMM_MASK;
    d |= ((uint64_t)linx_insn_field(insn, LINX_FLD_SrcL, NULL) & KX_CODE_MASK) << KX_SRCL_SHIFT;
    d |= ((uint64_t)linx_insn_field(insn, LINX_FLD_SrcR, NULL) & KX_CODE_MASK) << KX_SRCR_SHIFT;
    d |= ((uint64_t)linx_insn_field(insn, LINX_FLD_SrcP, NULL) & KX_CODE_MASK) << KX_SRCP_SHIFT;
    d |= ((uint64_t)linx_insn_field(insn, LINX_FLD_RegDst, NULL) & KX_CODE_MASK) << KX_DST_SHIFT;
    d |= imm << KX_IMM_SHIFT;
    if (has_imm) {
        d |= KX_HAS_IMM;
    }
    /* V.SHFL[I].BFLY have no SrcR: their lane mask is SrcP / imm. */
    return d;
}

bool kop_translate(KCtx *k)
{
    unsigned form = kop_cur(k)->form;
    if (kop_is_mem(form)) {
        return kop_mem(k);
    }
    switch (form) {
    case LINX_F_V_ADD: return op_rr(k, IR_add, true, false);
    case LINX_F_V_SUB: return op_rr(k, IR_sub, true, false);
    case LINX_F_V_AND: return op_rr(k, IR_and, true, true);
    case LINX_F_V_OR: return op_rr(k, IR_or, true, true);
    case LINX_F_V_XOR: return op_rr(k, IR_xor, true, true);
    case LINX_F_V_ADDI: return op_ri(k, IR_add, kop_fld(k, LINX_FLD_uimm12));
    case LINX_F_V_SUBI: return op_ri(k, IR_sub, kop_fld(k, LINX_FLD_uimm12));
    case LINX_F_V_ANDI: return op_ri(k, IR_and, kop_fld(k, LINX_FLD_simm12));
    case LINX_F_V_ORI: return op_ri(k, IR_or, kop_fld(k, LINX_FLD_simm12));
    case LINX_F_V_XORI: return op_ri(k, IR_xor, kop_fld(k, LINX_FLD_simm12));
    case LINX_F_V_SLL: return op_rr(k, IR_shl, false, false);
    case LINX_F_V_SRL: return op_rr(k, IR_shr, false, false);
    case LINX_F_V_SRA: return op_rr(k, IR_sar, false, false);
    case LINX_F_V_SLLI: return op_ri(k, IR_shl, kop_fld(k, LINX_FLD_shamt) & 63);
    case LINX_F_V_SRLI: return op_ri(k, IR_shr, kop_fld(k, LINX_FLD_shamt) & 63);
    case LINX_F_V_SRAI: return op_ri(k, IR_sar, kop_fld(k, LINX_FLD_shamt) & 63);
    case LINX_F_V_MUL: return op_rr(k, IR_mul, false, false);
    case LINX_F_V_MADD: return op_madd(k);
    case LINX_F_V_DIV: return op_divrem(k, false);
    case LINX_F_V_REM: return op_divrem(k, true);
    case LINX_F_V_MAX: return op_minmax(k, true);
    case LINX_F_V_MIN: return op_minmax(k, false);
    case LINX_F_V_BXU: return op_bitfield(k, LINX_BF_BXU);
    case LINX_F_V_BXS: return op_bitfield(k, LINX_BF_BXS);
    case LINX_F_V_CLZ: return op_bitfield(k, LINX_BF_CLZ);
    case LINX_F_V_CTZ: return op_bitfield(k, LINX_BF_CTZ);
    case LINX_F_V_BCNT: return op_bitfield(k, LINX_BF_BCNT);
    case LINX_F_V_BIC: return op_bitfield(k, LINX_BF_BIC);
    case LINX_F_V_BIS: return op_bitfield(k, LINX_BF_BIS);
    case LINX_F_V_REV: return op_bitfield(k, LINX_BF_REV);
    case LINX_F_V_CMP_EQ: return op_cmp(k, KC_EQ, false);
    case LINX_F_V_CMP_NE: return op_cmp(k, KC_NE, false);
    case LINX_F_V_CMP_LT: return op_cmp(k, KC_LT, false);
    case LINX_F_V_CMP_GE: return op_cmp(k, KC_GE, false);
    case LINX_F_V_CMP_LTU: return op_cmp(k, KC_LTU, false);
    case LINX_F_V_CMP_GEU: return op_cmp(k, KC_GEU, false);
    case LINX_F_V_CMP_AND: return op_cmp(k, KC_AND, false);
    case LINX_F_V_CMP_OR: return op_cmp(k, KC_OR, false);
    case LINX_F_V_CMP_EQI: return op_cmp(k, KC_EQ, true);
    case LINX_F_V_CMP_NEI: return op_cmp(k, KC_NE, true);
    case LINX_F_V_CMP_LTI: return op_cmp(k, KC_LT, true);
    case LINX_F_V_CMP_GEI: return op_cmp(k, KC_GE, true);
    case LINX_F_V_CMP_LTUI: return op_cmp(k, KC_LTU, true);
    case LINX_F_V_CMP_GEUI: return op_cmp(k, KC_GEU, true);
    case LINX_F_V_CMP_ANDI: return op_cmp(k, KC_AND, true);
    case LINX_F_V_CMP_ORI: return op_cmp(k, KC_OR, true);
    case LINX_F_V_CSEL: return op_select(k, false);
    case LINX_F_V_PSEL: return op_select(k, true);
    case LINX_F_V_FADD: return op_fp2(k, KFP_ADD);
    case LINX_F_V_FSUB: return op_fp2(k, KFP_SUB);
    case LINX_F_V_FMUL: return op_fp2(k, KFP_MUL);
    case LINX_F_V_FDIV: return op_fp2(k, KFP_DIV);
    case LINX_F_V_FMAX: return op_fp2(k, KFP_MAX);
    case LINX_F_V_FMIN: return op_fp2(k, KFP_MIN);
    case LINX_F_V_FEQ: return op_fp2(k, KFP_EQ);
    case LINX_F_V_FNE: return op_fp2(k, KFP_NE);
    case LINX_F_V_FLT: return op_fp2(k, KFP_LT);
    case LINX_F_V_FGE: return op_fp2(k, KFP_GE);
    case LINX_F_V_FEQS: return op_fp2(k, KFP_EQ | KFP_SIGNALING);
    case LINX_F_V_FNES: return op_fp2(k, KFP_NE | KFP_SIGNALING);
    case LINX_F_V_FLTS: return op_fp2(k, KFP_LT | KFP_SIGNALING);
    case LINX_F_V_FGES: return op_fp2(k, KFP_GE | KFP_SIGNALING);
    case LINX_F_V_FMADD: return op_fp3(k, KFP_MADD);
    case LINX_F_V_FMSUB: return op_fp3(k, KFP_MSUB);
    case LINX_F_V_FNMADD: return op_fp3(k, KFP_NMADD);
    case LINX_F_V_FNMSUB: return op_fp3(k, KFP_NMSUB);
    case LINX_F_V_FABS: return op_fp1(k, KFP_ABS);
    case LINX_F_V_FSQRT: return op_fp1(k, KFP_SQRT);
    case LINX_F_V_FRECIP: return op_fp1(k, KFP_RECIP);
    case LINX_F_V_FEXP: return op_fp1(k, KFP_EXP);
    case LINX_F_V_FCLASS: return op_fp1(k, KFP_CLASS);
    case LINX_F_V_FCVT: return op_cvt(k, KCVT_F2F);
    case LINX_F_V_FCVTI: return op_cvt(k, KCVT_F2I);
    case LINX_F_V_ICVT: return op_cvt(k, KCVT_I2I);
    case LINX_F_V_ICVTF: return op_cvt(k, KCVT_I2F);
    case LINX_F_V_LW_ADD: return kop_atomic(k, LINX_AMO_ADD, 2, true);
    case LINX_F_V_LW_AND: return kop_atomic(k, LINX_AMO_AND, 2, true);
    case LINX_F_V_LW_OR: return kop_atomic(k, LINX_AMO_OR, 2, true);
    case LINX_F_V_LW_XOR: return kop_atomic(k, LINX_AMO_XOR, 2, true);
    case LINX_F_V_LW_MAX: return kop_atomic(k, LINX_AMO_SMAX, 2, true);
    case LINX_F_V_LW_MIN: return kop_atomic(k, LINX_AMO_SMIN, 2, true);
    case LINX_F_V_LD_ADD: return kop_atomic(k, LINX_AMO_ADD, 3, true);
    case LINX_F_V_LD_AND: return kop_atomic(k, LINX_AMO_AND, 3, true);
    case LINX_F_V_LD_OR: return kop_atomic(k, LINX_AMO_OR, 3, true);
    case LINX_F_V_LD_XOR: return kop_atomic(k, LINX_AMO_XOR, 3, true);
    case LINX_F_V_LD_MAX: return kop_atomic(k, LINX_AMO_SMAX, 3, true);
    case LINX_F_V_LD_MIN: return kop_atomic(k, LINX_AMO_SMIN, 3, true);
    case LINX_F_V_SW_ADD: return kop_atomic(k, LINX_AMO_ADD, 2, false);
    case LINX_F_V_SW_AND: return kop_atomic(k, LINX_AMO_AND, 2, false);
    case LINX_F_V_SW_OR: return kop_atomic(k, LINX_AMO_OR, 2, false);
    case LINX_F_V_SW_XOR: return kop_atomic(k, LINX_AMO_XOR, 2, false);
    case LINX_F_V_SW_MAX: return kop_atomic(k, LINX_AMO_SMAX, 2, false);
    case LINX_F_V_SW_MIN: return kop_atomic(k, LINX_AMO_SMIN, 2, false);
    case LINX_F_V_SD_ADD: return kop_atomic(k, LINX_AMO_ADD, 3, false);
    case LINX_F_V_SD_AND: return kop_atomic(k, LINX_AMO_AND, 3, false);
    case LINX_F_V_SD_OR: return kop_atomic(k, LINX_AMO_OR, 3, false);
    case LINX_F_V_SD_XOR: return kop_atomic(k, LINX_AMO_XOR, 3, false);
    case LINX_F_V_SD_MAX: return kop_atomic(k, LINX_AMO_SMAX, 3, false);
    case LINX_F_V_SD_MIN: return kop_atomic(k, LINX_AMO_SMIN, 3, false);
    default:
        return false;
    }
}
