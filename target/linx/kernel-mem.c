/*
 * Kernel-body memory instructions (kernel-internal.h, docs/kernels.md):
 * V.L* / V.S* in their register-index, immediate, unscaled (.U), bridged
 * (.brg) and tile-local forms, and the atomics V.{LW,LD,SW,SD}.op.
 *
 * `.brg` accesses are guest memory through the checked path (qemu_ld /
 * qemu_st, naturally aligned, faults precise at the instruction); `.local`
 * and the plain forms with a tile base (TA..TD, TO, TS) access the bound
 * tile, bounds- and alignment-checked against its tracked size; stores go
 * to TO and TS only; a guest address is never reachable without `.brg`.
 * EA = base + (C ? lc0 << log2(size) : 0) + offset, where offset is
 * simm24 scaled by the size (unscaled for .U), or the index register
 * << shamt (stores: << (size + shamt) unless .U), the register typed by its
 * RegId10 width.  A v.* access whose lane may be inactive sits behind a
 * branch on p: an inactive lane neither accesses memory nor faults.
 */
#include <stddef.h>

#include "kernel-internal.h"

typedef enum KMemKind { KM_REG, KM_IMM } KMemKind;

typedef struct KMemForm {
    uint16_t form;
    uint8_t lg;       /* log2 access size */
    bool load, sign, imm, unscaled, brg;
} KMemForm;

#define KMEM(f, lg_, ld, sg, im, un, br) { LINX_F_##f, lg_, ld, sg, im, un, br }
#define KMEM2(f, lg_, ld, sg, im, un) KMEM(f, lg_, ld, sg, im, un, false), \
                                      KMEM(f##_BRG, lg_, ld, sg, im, un, true)
static const KMemForm kmem_forms[] = {
    KMEM2(V_LB, 0, true, true, false, false),    KMEM2(V_LBU, 0, true, false, false, false),
    KMEM2(V_LH, 1, true, true, false, false),    KMEM2(V_LHU, 1, true, false, false, false),
    KMEM2(V_LW, 2, true, true, false, false),    KMEM2(V_LWU, 2, true, false, false, false),
    KMEM2(V_LD, 3, true, false, false, false),
    KMEM2(V_LBI, 0, true, true, true, false),    KMEM2(V_LBUI, 0, true, false, true, false),
    KMEM2(V_LHI, 1, true, true, true, false),    KMEM2(V_LHUI, 1, true, false, true, false),
    KMEM2(V_LWI, 2, true, true, true, false),    KMEM2(V_LWUI, 2, true, false, true, false),
    KMEM2(V_LDI, 3, true, false, true, false),
    KMEM2(V_LHI_U, 1, true, true, true, true),   KMEM2(V_LHUI_U, 1, true, false, true, true),
    KMEM2(V_LWI_U, 2, true, true, true, true),   KMEM2(V_LWUI_U, 2, true, false, true, true),
    KMEM2(V_LDI_U, 3, true, false, true, true),
    KMEM2(V_SB, 0, false, false, false, false),  KMEM2(V_SH, 1, false, false, false, false),
    KMEM2(V_SW, 2, false, false, false, false),  KMEM2(V_SD, 3, false, false, false, false),
    KMEM2(V_SH_U, 1, false, false, false, true), KMEM2(V_SW_U, 2, false, false, false, true),
    KMEM2(V_SD_U, 3, false, false, false, true),
    KMEM2(V_SBI, 0, false, false, true, false),  KMEM2(V_SHI, 1, false, false, true, false),
    KMEM2(V_SWI, 2, false, false, true, false),  KMEM2(V_SDI, 3, false, false, true, false),
    KMEM2(V_SHI_U, 1, false, false, true, true), KMEM2(V_SWI_U, 2, false, false, true, true),
    KMEM2(V_SDI_U, 3, false, false, true, true),
};

static const KMemForm *kmem_form(unsigned form)
{
    for (size_t i = 0; i < sizeof(kmem_forms) / sizeof(kmem_forms[0]); i++) {
        if (kmem_forms[i].form == form) {
            return &kmem_forms[i];
        }
    }
    return NULL;
}

/* An access's address: a guest address (GM) or the offset within the
 * tile bound to base @tile (0..5, -1 for GM). */
typedef struct KAddr {
    IRTemp ea;
    int tile;
} KAddr;

/* The base field of @m: SrcR for the immediate stores, SrcL otherwise. */
static LinxFieldId kbase_field(const KMemForm *m)
{
    return m->imm && !m->load ? LINX_FLD_SrcR : LINX_FLD_SrcL;
}

/* Are @m's operands legal (checked before any code, so a predicated
 * access never stops half-way)? */
static bool kmem_legal(KCtx *k, const KMemForm *m)
{
    bool local = kop_fld(k, LINX_FLD_L) != 0;
    LinxKReg b, r;

    if (!linx_kreg_src((unsigned)kop_fld(k, kbase_field(m)), &b)) {
        return false;
    }
    if (b.kind == LINX_KR_TILE) {
        if (m->brg || (!m->load && b.index != LINX_KTILE_TO && b.index != LINX_KTILE_TS)) {
            return false; /* tile bases: never bridged; TA..TD are read-only */
        }
    } else if (!m->brg || local) {
        return false; /* guest memory only through the bridge */
    }
    if (!m->imm && !linx_kreg_src((unsigned)kop_fld(k, LINX_FLD_SrcR), &r)) {
        return false;
    }
    if (!m->load && !linx_kreg_src((unsigned)kop_fld(k, m->imm ? LINX_FLD_SrcL : LINX_FLD_SrcD), &r)) {
        return false;
    }
    return true;
}

static bool kaddr(KCtx *k, const KMemForm *m, KAddr *a)
{
    IRContext *ir = k->ir;
    bool local = kop_fld(k, LINX_FLD_L) != 0;
    LinxFieldId base_f = kbase_field(m);
    LinxKReg b;
    IRTemp base = kop_read_raw(k, (unsigned)kop_fld(k, base_f), &b);
    IRTemp ea = kop_tmp(k);

    if (base == IR_NO_TEMP) {
        return false;
    }
    if (b.kind == LINX_KR_TILE) {
        /* Tile bases: .local, or the plain (seed) form; never .brg. */
        if (m->brg) {
            return false;
        }
        a->tile = b.index;
        ir_gen_movi(ir, ea, 0);
    } else {
        /* Guest memory: only through the bridge. */
        if (!m->brg || local) {
            return false;
        }
        a->tile = -1;
        ir_gen_mov(ir, ea, kop_ext(k, base, b.size_log2, b.st));
    }
    if (kop_fld(k, LINX_FLD_C)) {
        IRTemp t = kop_tmp(k);
        ir_gen_shli(ir, t, cpu_field(k->ctx, lc[0]), m->lg);
        ir_gen_add(ir, ea, ea, t);
    }
    if (m->imm) {
        int64_t off = kop_fld(k, LINX_FLD_simm24);
        if (!m->unscaled) {
            off = (int64_t)((uint64_t)off << m->lg);
        }
        if (off) {
            ir_gen_addi(ir, ea, ea, off);
        }
    } else {
        IRTemp idx = kop_read_field(k, LINX_FLD_SrcR);
        unsigned sh = (unsigned)kop_fld(k, LINX_FLD_shamt) + (!m->load && !m->unscaled ? m->lg : 0);
        if (idx == IR_NO_TEMP) {
            return false;
        }
        if (sh & 63) {
            IRTemp t = kop_tmp(k);
            ir_gen_shli(ir, t, idx, sh & 63);
            idx = t;
        }
        ir_gen_add(ir, ea, ea, idx);
    }
    a->ea = ea;
    return true;
}

static const IROpcode host_ld[2][4] = {
    { IR_ld8u, IR_ld16u, IR_ld32u, IR_ld64 },
    { IR_ld8s, IR_ld16s, IR_ld32s, IR_ld64 },
};
static const IROpcode host_st[4] = { IR_st8, IR_st16, IR_st32, IR_st64 };

/* Host address of a checked tile-local access of 1 << @lg bytes. */
static IRTemp ktile_ptr(KCtx *k, const KAddr *a, unsigned lg)
{
    IRContext *ir = k->ir;
    const KBodyInsn *bi = k->bi;
    IRTemp lim = kop_tmp(k), p = kop_tmp(k);

    /* Tile sizes are multiples of 512, so an aligned offset below the
     * size leaves the whole access inside. */
    ir_gen_st(ir, IR_st64, a->ea, ir->env, KERN_OFF(fault_arg));
    if (lg) {
        ir_gen_brcond(ir, IR_COND_TSTNE, a->ea, kop_cst(k, (1 << lg) - 1),
                      kb_stub(k, LINX_TRAP_DATA_ALIGN_FAULT, 0, 0, true, bi->pc));
    }
    ir_gen_ld(ir, IR_ld64, lim, ir->env, KERN_OFF(tsize[0]) + 8 * a->tile);
    ir_gen_brcond(ir, IR_COND_GEU, a->ea, lim,
                  kb_stub(k, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_PARAM, 0), 0, true,
                          bi->pc));
    ir_gen_ld(ir, IR_ld64, p, ir->env, KERN_OFF(tbase[0]) + 8 * a->tile);
    ir_gen_add(ir, p, p, a->ea);
    return p;
}

/* The load itself: a value (typed by the load kind), no predication. */
static bool kload_value(KCtx *k, const KMemForm *m, IRTemp *out)
{
    KAddr a;
    IRTemp v = kop_tmp(k);

    if (!kaddr(k, m, &a)) {
        return false;
    }
    if (a.tile >= 0) {
        ir_gen_ld(k->ir, host_ld[m->sign][m->lg], v, ktile_ptr(k, &a, m->lg), 0);
    } else {
        ir_gen_qemu_ld(k->ir, v, a.ea, m->lg | (m->sign ? IR_MO_SIGN : 0) | IR_MO_ALIGN,
                       k->bi->pc);
    }
    *out = v;
    return true;
}

static bool kstore(KCtx *k, const KMemForm *m)
{
    KAddr a;
    IRTemp v = kop_read_field(k, m->imm ? LINX_FLD_SrcL : LINX_FLD_SrcD);

    if (v == IR_NO_TEMP || !kaddr(k, m, &a)) {
        return false;
    }
    if (a.tile >= 0) {
        if (a.tile != LINX_KTILE_TO && a.tile != LINX_KTILE_TS) {
            return false; /* TA..TD are read-only inputs */
        }
        ir_gen_st(k->ir, host_st[m->lg], v, ktile_ptr(k, &a, m->lg), 0);
    } else {
        ir_gen_qemu_st(k->ir, v, a.ea, m->lg | IR_MO_ALIGN, k->bi->pc);
    }
    return true;
}

/*
 * A memory instruction, predicated when it is v.* and p is not known to
 * be set: the access sits behind a branch on p (the lane record is made
 * canonical first), and a load's merge value travels through
 * env->kern.tmp to the push after the join.
 */
static bool op_mem(KCtx *k, const KMemForm *m)
{
    IRContext *ir = k->ir;
    bool vd = kop_vdomain(k);
    bool pred = vd && !kc_p_active(k);
    LinxKReg d;
    IRLabel l_skip;
    IRTemp v, p;

    if (!kmem_legal(k, m) ||
        (m->load && (!linx_kreg_dst((unsigned)kop_fld(k, LINX_FLD_RegDst), &d) ||
                     (vd && d.kind == LINX_KR_HAND) || d.kind == LINX_KR_P))) {
        return false;
    }
    if (!pred) {
        if (!m->load) {
            return kstore(k, m);
        }
        return kload_value(k, m, &v) && kop_write(k, v, vd, KD_VALUE);
    }
    l_skip = ir_label(ir);
    if (m->load && d.kind == LINX_KR_VEC) {
        ir_gen_st(ir, IR_st64, kc_read(k, d.queue, LINX_KQUEUE_DEPTH), ir->env, KERN_OFF(tmp));
    }
    p = kc_read_p(k);
    kc_count(k);
    kc_flush(k, true);
    ir_gen_brcond(ir, IR_COND_EQ, p, kop_cst(k, 0), l_skip);
    if (m->load) {
        if (!kload_value(k, m, &v)) {
            return false;
        }
        if (d.kind == LINX_KR_VEC) {
            ir_gen_st(ir, IR_st64, kop_ext(k, v, d.size_log2, d.st), ir->env, KERN_OFF(tmp));
        }
    } else if (!kstore(k, m)) {
        return false;
    }
    ir_gen_set_label(ir, l_skip);
    kc_init_mem(k);
    if (m->load && d.kind == LINX_KR_VEC) {
        v = kop_tmp(k);
        ir_gen_ld(ir, IR_ld64, v, ir->env, KERN_OFF(tmp));
        kc_push(k, d.queue, v);
    }
    return true;
}

/* V.{LW,LD,SW,SD}.{ADD,AND,OR,XOR,MAX,MIN} [SrcL], SrcR (-> RegDst):
 * atomic read-modify-write of guest memory; loads return the old value.
 * MAX/MIN are signed when SrcR's type is. */
bool kop_atomic(KCtx *k, unsigned op, unsigned lg, bool ret)
{
    IRContext *ir = k->ir;
    LinxKReg b, r;
    IRTemp base, val, d = kop_tmp(k), p;
    bool vd = kop_vdomain(k);
    bool pred = vd && !kc_p_active(k);
    IRLabel l_skip = 0;
    LinxKReg dr;

    if (!linx_kreg_src((unsigned)kop_fld(k, LINX_FLD_SrcR), &r) ||
        !linx_kreg_src((unsigned)kop_fld(k, LINX_FLD_SrcL), &b) || b.kind == LINX_KR_TILE) {
        return false;
    }
    if (op == LINX_AMO_SMAX || op == LINX_AMO_SMIN) {
        op = r.st ? op : (op == LINX_AMO_SMAX ? LINX_AMO_UMAX : LINX_AMO_UMIN);
    }
    if (ret && (!linx_kreg_dst((unsigned)kop_fld(k, LINX_FLD_RegDst), &dr) ||
                (vd && dr.kind == LINX_KR_HAND) || dr.kind == LINX_KR_P)) {
        return false;
    }
    if (pred) {
        l_skip = ir_label(ir);
        if (ret && dr.kind == LINX_KR_VEC) {
            ir_gen_st(ir, IR_st64, kc_read(k, dr.queue, LINX_KQUEUE_DEPTH), ir->env,
                      KERN_OFF(tmp));
        }
        p = kc_read_p(k);
        kc_count(k);
        kc_flush(k, true);
        ir_gen_brcond(ir, IR_COND_EQ, p, kop_cst(k, 0), l_skip);
    }
    base = kop_read_raw(k, (unsigned)kop_fld(k, LINX_FLD_SrcL), &b);
    val = kop_read_int(k, (unsigned)kop_fld(k, LINX_FLD_SrcR));
    gen_helper_amo(k->ctx, d, ir->env, kop_ext(k, base, b.size_log2, b.st), val,
                   kop_cst(k, (int64_t)(op | lg << 8)), kop_cst(k, (int64_t)k->bi->pc));
    if (!pred) {
        return !ret || kop_write(k, d, vd, KD_VALUE);
    }
    if (ret && dr.kind == LINX_KR_VEC) {
        ir_gen_st(ir, IR_st64, kop_ext(k, d, dr.size_log2, dr.st), ir->env, KERN_OFF(tmp));
    }
    ir_gen_set_label(ir, l_skip);
    kc_init_mem(k);
    if (ret && dr.kind == LINX_KR_VEC) {
        IRTemp v = kop_tmp(k);
        ir_gen_ld(ir, IR_ld64, v, ir->env, KERN_OFF(tmp));
        kc_push(k, dr.queue, v);
    }
    return true;
}

bool kop_is_mem(unsigned form)
{
    return kmem_form(form) != NULL;
}

bool kop_mem(KCtx *k)
{
    return op_mem(k, kmem_form(kop_cur(k)->form));
}
