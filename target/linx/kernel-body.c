/*
 * The TB of a kernel body: the whole kernel (every lane of every group) in
 * one translation, entered from its header with env->resume = TB_F_BODY
 * (kernel.h, docs/kernels.md).
 *
 * Shape of the generated IR:
 *
 *   resume = 0; [checks: VS8 vs vm/vn, ri bound, group size for phases]
 *   lc2 = 0
 * g2: lc1 = 0
 * g1: for each phase:                        (one phase without V.RD/V.SHFL)
 *       lc0 = 0; if LB0 == 0 skip
 *   lane:  <the phase's instructions for lane (lc0, lc1, lc2)>
 *          lc0 += 1; if lc0 <u LB0 goto lane
 *       [helper_kernel_xlane: the cross-lane instruction over the group]
 *     lc1 += 1; if lc1 <u max(LB1, 1) goto g1
 *     lc2 += 1; if lc2 <u max(LB2, 1) goto g2
 *   helper_kernel_end (push TO); pc = env->kern.cont; lookup and jump
 *   out-of-line raises
 *
 * Lanes run in lexicographic order (lc0 fastest), as MSEQ requires and
 * MPAR allows (kernel_execution.json).  The body ends at its first
 * terminator (BSTOP, C.BSTOP or a block start); branches inside it go to
 * labels, to the lane end (a branch to the terminator) or, when they
 * leave the body, to an E_BLOCK(EC_BFETCH) raise.  Nothing here runs per
 * instruction at run time but the instruction's own code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "kernel-internal.h"
#include "kernel-simd.h"
#include "tcg/exec.h"
#include "tcg/log.h"

/* ---------------------------------------------------------------------
 * Decoding the body
 * --------------------------------------------------------------------- */

typedef enum KFetch { KF_OK, KF_FAULT, KF_ILLEGAL } KFetch;

static KFetch kfetch(CPULinxState *env, uint64_t pc, LinxInsn *insn, uint64_t *fault)
{
    uint8_t buf[8];
    unsigned len;

    if (guest_mem_read(env->engine.mem, pc, buf, 2, GM_PROT_EXEC, fault) != GM_OK) {
        return KF_FAULT;
    }
    len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
    if (len > 2 &&
        guest_mem_read(env->engine.mem, pc + 2, buf + 2, len - 2, GM_PROT_EXEC, fault) != GM_OK) {
        return KF_FAULT;
    }
    if (linx_decode(buf, len, insn) != LINX_DECODE_OK) {
        memset(insn, 0, sizeof(*insn));
        insn->len = (uint8_t)len;
        return KF_ILLEGAL;
    }
    return KF_OK;
}

static bool is_terminator(unsigned form)
{
    return form == LINX_F_BSTOP || form == LINX_F_C_BSTOP || linx_form_is_marker(form);
}

static bool is_branch(unsigned form)
{
    switch (form) {
    case LINX_F_B_EQ: case LINX_F_B_NE: case LINX_F_B_LT: case LINX_F_B_GE:
    case LINX_F_B_LTU: case LINX_F_B_GEU: case LINX_F_B_Z: case LINX_F_B_NZ: case LINX_F_J:
        return true;
    default:
        return false;
    }
}

static KBodyInsn *add_insn(KBody *b, uint64_t pc, KInsnKind kind)
{
    KBodyInsn *bi = &b->insns[b->n++];

    memset(bi, 0, sizeof(*bi));
    bi->pc = pc;
    bi->kind = (uint8_t)kind;
    return bi;
}

static int find_insn(const KBody *b, uint64_t pc)
{
    unsigned lo = 0, hi = b->n;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (b->insns[mid].pc < pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < b->n && b->insns[lo].pc == pc ? (int)lo : -1;
}

/* Decode from @start to the terminator, classify every instruction. */
static void scan_body(CPULinxState *env, uint64_t start, KBody *b)
{
    uint64_t pc = start, limit = (start & GUEST_PAGE_MASK) + 2 * GUEST_PAGE_SIZE;
    bool has_jr = false;
    unsigned phase = 0;

    memset(b, 0, sizeof(*b));
    b->start = start;
    b->max_ri = -1;
    b->insns = calloc(LINX_KBODY_MAX_INSNS + 1, sizeof(KBodyInsn));
    for (;;) {
        LinxInsn insn;
        uint64_t fault = 0;
        KFetch f;
        KBodyInsn *bi;

        if (b->n == LINX_KBODY_MAX_INSNS || pc + 2 > limit) {
            add_insn(b, pc, KI_TOO_LONG);
            b->end = pc;
            b->bytes = pc - start;
            break;
        }
        f = kfetch(env, pc, &insn, &fault);
        if (f == KF_OK && pc + insn.len > limit) {
            add_insn(b, pc, KI_TOO_LONG);
            b->end = pc;
            b->bytes = pc - start;
            break;
        }
        if (f == KF_FAULT) {
            add_insn(b, pc, KI_FETCH_FAULT)->fault_addr = (pc & 1) ? pc : fault;
            b->end = pc;
            b->bytes = pc - start;
            break;
        }
        if (f == KF_OK && is_terminator(insn.form)) {
            b->end = pc;
            b->bytes = pc + insn.len - start;
            break;
        }
        bi = add_insn(b, pc, KI_ILLEGAL);
        bi->insn = insn;
        bi->phase = (uint8_t)phase;
        if (f == KF_OK) {
            bool vmvn;
            int ri;
            if (kop_is_barrier(insn.form)) {
                bi->kind = phase + 1 < LINX_KBODY_MAX_PHASES ? KI_BARRIER : KI_UNSUPPORTED;
                phase += bi->kind == KI_BARRIER;
            } else if (kop_is_lane_op(insn.form)) {
                bi->kind = KI_OP;
            } else if (is_branch(insn.form)) {
                bi->kind = KI_BRANCH;
            } else if (insn.form == LINX_F_JR) {
                bi->kind = KI_JR;
                has_jr = true;
            }
            if (bi->kind == KI_OP || bi->kind == KI_BARRIER) {
                kop_operand_facts(&insn, &vmvn, &ri); /* RegId10 operands */
            } else {
                vmvn = false;
                ri = -1;
            }
            if (vmvn && !b->uses_vmvn) {
                b->uses_vmvn = true;
                b->vmvn_pc = pc;
            }
            if (ri > b->max_ri) {
                b->max_ri = ri;
                b->max_ri_pc = pc;
            }
        }
        pc += insn.len ? insn.len : 2;
    }
    b->nphases = phase + 1;
    /* Branch targets; branches may not leave their phase. */
    for (unsigned i = 0; i < b->n; i++) {
        KBodyInsn *bi = &b->insns[i];
        int64_t off;
        int t;
        if (bi->kind == KI_JR && b->nphases > 1) {
            bi->kind = KI_UNSUPPORTED;
        }
        if (bi->kind != KI_BRANCH) {
            continue;
        }
        off = bi->insn.form == LINX_F_B_Z || bi->insn.form == LINX_F_B_NZ ||
                      bi->insn.form == LINX_F_J
                  ? linx_insn_field(&bi->insn, LINX_FLD_simm22, NULL)
                  : linx_insn_field(&bi->insn, LINX_FLD_simm12, NULL);
        bi->target_pc = bi->pc + (uint64_t)(off * 2);
        t = find_insn(b, bi->target_pc);
        if (bi->target_pc == b->end && b->insns[b->n - 1].kind < KI_FETCH_FAULT) {
            bi->target = KT_END;
        } else if (t < 0 || b->insns[t].kind >= KI_FETCH_FAULT) {
            bi->target = KT_ESCAPE;
        } else {
            bi->target = t;
        }
        if (b->nphases > 1) {
            bool same = bi->target == KT_ESCAPE ||
                        (bi->target == KT_END ? bi->phase == b->nphases - 1
                                              : b->insns[t].phase == bi->phase);
            if (!same) {
                bi->kind = KI_UNSUPPORTED;
                continue;
            }
        }
        if (bi->target >= 0) {
            if (b->insns[bi->target].kind == KI_BARRIER) {
                bi->target = KT_END; /* the end of this phase's lane */
            } else {
                b->insns[bi->target].is_target = true;
            }
        }
    }
    if (has_jr) {
        /* A computed jump may land on any instruction. */
        for (unsigned i = 0; i < b->n; i++) {
            b->insns[i].is_target = true;
        }
    }
}

/* ---------------------------------------------------------------------
 * Raises
 * --------------------------------------------------------------------- */

IRLabel kb_stub(KCtx *k, unsigned trapnum, unsigned cause, uint64_t arg, bool dynamic,
                uint64_t pc)
{
    KStub *s;

    for (unsigned i = 0; i < k->nstubs; i++) {
        s = &k->stubs[i];
        if (s->trapnum == trapnum && s->cause == cause && s->arg == arg &&
            s->arg_dynamic == dynamic && s->pc == pc) {
            return s->label;
        }
    }
    if (k->nstubs == LINX_KBODY_MAX_STUBS) {
        /* Cannot happen for a body within the instruction limit. */
        abort();
    }
    s = &k->stubs[k->nstubs++];
    s->label = ir_label(k->ir);
    s->trapnum = trapnum;
    s->cause = cause;
    s->arg = arg;
    s->arg_dynamic = dynamic;
    s->pc = pc;
    return s->label;
}

static void kb_raise(KCtx *k, unsigned trapnum, unsigned cause, uint64_t arg, uint64_t pc)
{
    kc_count(k);
    ir_gen_br(k->ir, kb_stub(k, trapnum, cause, arg, false, pc));
    k->dead = true;
}

void kb_illegal(KCtx *k)
{
    kb_raise(k, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0), k->bi->pc, k->bi->pc);
}

static void emit_stubs(KCtx *k)
{
    IRContext *ir = k->ir;

    for (unsigned i = 0; i < k->nstubs; i++) {
        const KStub *s = &k->stubs[i];
        IRTemp arg = ir_const(ir, (int64_t)s->arg);
        ir_gen_set_label(ir, s->label);
        if (s->arg_dynamic) {
            arg = ir_temp(ir);
            ir_gen_ld(ir, IR_ld64, arg, ir->env, KERN_OFF(fault_arg));
        }
        gen_helper_raise(k->ctx, IR_NO_TEMP, ir->env, ir_const(ir, s->trapnum),
                         ir_const(ir, s->cause), arg, ir_const(ir, (int64_t)s->pc));
        ir_gen_exit_tb(ir, 0);
    }
}

/* ---------------------------------------------------------------------
 * Branches
 * --------------------------------------------------------------------- */

/* A 5-bit source of B.EQ..B.GEU/JR: zero, or the lane's t#k / u#k.
 * GPRs are not readable in a body (scalar imports come through ri*). */
static bool read5(KCtx *k, unsigned code, IRTemp *out)
{
    code &= 31;
    if (code == LINX_REG_ZERO) {
        *out = ir_const(k->ir, 0);
    } else if (code >= LINX_REG_T1 && code < LINX_REG_U1) {
        *out = kc_read(k, LINX_KQ_T, code - LINX_REG_T1 + 1);
    } else if (code >= LINX_REG_U1) {
        *out = kc_read(k, LINX_KQ_U, code - LINX_REG_U1 + 1);
    } else {
        return false;
    }
    return true;
}

/* Commit trace (TB_F_TRACE): the row of body instruction @bi, one per
 * lane that runs it, or (@xlane) one per lane of the group for a
 * cross-lane instruction (docs/engine.md "Commit trace: kernel bodies"). */
static void kb_trace(KCtx *k, const KBodyInsn *bi, bool xlane)
{
    IRContext *ir = k->ir;

    if (!(k->ctx->tb->flags & TB_F_TRACE)) {
        return;
    }
    gen_helper_trace_kbody(k->ctx, IR_NO_TEMP, ir->env, ir_const(ir, (int64_t)bi->pc),
                           ir_const(ir, (int64_t)bi->insn.raw),
                           ir_const(ir, (int64_t)(bi->insn.len | (xlane ? 0x100 : 0))));
}

static IRLabel target_label(KCtx *k, const KBodyInsn *bi)
{
    if (bi->target == KT_END) {
        k->lane_end_used = true;
        return k->l_lane_end;
    }
    if (bi->target == KT_ESCAPE) {
        return kb_stub(k, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BFETCH, 0), bi->target_pc, false,
                       bi->pc);
    }
    return k->body->insns[bi->target].label;
}

static void kb_branch(KCtx *k)
{
    static const IRCond conds[] = {
        [LINX_F_B_EQ] = IR_COND_EQ, [LINX_F_B_NE] = IR_COND_NE, [LINX_F_B_LT] = IR_COND_LT,
        [LINX_F_B_GE] = IR_COND_GE, [LINX_F_B_LTU] = IR_COND_LTU, [LINX_F_B_GEU] = IR_COND_GEU,
    };
    IRContext *ir = k->ir;
    const KBodyInsn *bi = k->bi;
    unsigned form = bi->insn.form;
    IRTemp l, r;
    IRCond c;

    if (form == LINX_F_J) {
        kb_trace(k, bi, false);
        kc_count(k);
        kc_flush(k, false);
        ir_gen_br(ir, target_label(k, bi));
        k->dead = true;
        return;
    }
    if (form == LINX_F_B_Z || form == LINX_F_B_NZ) {
        l = kc_read_p(k);
        r = ir_const(ir, 0);
        c = form == LINX_F_B_Z ? IR_COND_EQ : IR_COND_NE;
    } else {
        if (!read5(k, (unsigned)linx_insn_field(&bi->insn, LINX_FLD_SrcL, NULL), &l) ||
            !read5(k, (unsigned)linx_insn_field(&bi->insn, LINX_FLD_SrcR, NULL), &r)) {
            kb_illegal(k);
            return;
        }
        c = conds[form];
    }
    kb_trace(k, bi, false); /* before it leaves the straight line */
    kc_count(k);
    kc_flush(k, true);
    ir_gen_brcond(ir, c, l, r, target_label(k, bi));
}

/* JR SrcL, label: to pc + (simm12 << 1) + SrcL, which must be an
 * instruction of the body (or its terminator). */
static void kb_jr(KCtx *k)
{
    IRContext *ir = k->ir;
    const KBodyInsn *bi = k->bi;
    const KBody *b = k->body;
    IRTemp t = ir_temp(ir), v;

    if (!read5(k, (unsigned)linx_insn_field(&bi->insn, LINX_FLD_SrcL, NULL), &v)) {
        kb_illegal(k);
        return;
    }
    kb_trace(k, bi, false);
    ir_gen_addi(ir, t, v,
                (int64_t)(bi->pc + (uint64_t)linx_insn_field(&bi->insn, LINX_FLD_simm12, NULL) * 2));
    ir_gen_st(ir, IR_st64, t, ir->env, KERN_OFF(fault_arg));
    kc_count(k);
    kc_flush(k, true);
    for (unsigned i = 0; i < b->n; i++) {
        if (b->insns[i].kind < KI_FETCH_FAULT) {
            ir_gen_brcond(ir, IR_COND_EQ, t, ir_const(ir, (int64_t)b->insns[i].pc),
                          b->insns[i].label);
        }
    }
    if (b->insns[b->n - 1].kind < KI_FETCH_FAULT) {
        k->lane_end_used = true;
        ir_gen_brcond(ir, IR_COND_EQ, t, ir_const(ir, (int64_t)b->end), k->l_lane_end);
    }
    ir_gen_br(ir, kb_stub(k, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BFETCH, 0), 0, true, bi->pc));
    k->dead = true;
}

/* ---------------------------------------------------------------------
 * Lanes, phases, groups
 * --------------------------------------------------------------------- */

static void log_unsupported(KCtx *k)
{
    LinxExecContext *ec = k->ctx->env->engine.exec;
    LinxLog *log = ec ? linx_exec_log(ec) : NULL;

    if (log && linx_log_enabled(log, LINX_LOG_UNIMP)) {
        linx_log_printf(log, "linx kernel body 0x%" PRIx64 ": the instruction at 0x%" PRIx64
                             " (a branch across a cross-lane operation, or a computed jump"
                             " in a body with one) is not supported; it raises"
                             " E_INST(EC_ILLEGAL)\n", k->body->start, k->bi->pc);
    }
}

/* Translate instructions [first, last) of one phase for the current lane. */
static void translate_lane(KCtx *k, unsigned first, unsigned last)
{
    IRContext *ir = k->ir;
    KBody *b = k->body;

    for (unsigned i = first; i < last; i++) {
        const KBodyInsn *bi = &b->insns[i];
        k->bi = bi;
        k->index = i;
        if (bi->is_target) {
            if (!k->dead) {
                kc_count(k);
                kc_flush(k, false);
            }
            ir_gen_set_label(ir, bi->label);
            kc_init_mem(k);
            k->dead = false;
        }
        if (k->dead) {
            continue;
        }
        ir_gen_insn_start(ir, bi->pc, i);
        k->count++;
        switch (bi->kind) {
        case KI_OP:
            if (!kop_translate(k)) {
                kb_illegal(k);
            } else if (!k->dead) {
                kb_trace(k, bi, false);
            }
            break;
        case KI_BRANCH:
            kb_branch(k);
            break;
        case KI_JR:
            kb_jr(k);
            break;
        case KI_FETCH_FAULT:
            k->count--;
            kb_raise(k, (bi->pc & 1) ? LINX_TRAP_INST_PC_FAULT : LINX_TRAP_INST_PAGE_FAULT, 0,
                     bi->fault_addr, bi->pc);
            break;
        case KI_TOO_LONG:
            k->count--;
            kb_raise(k, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_BFETCH, 0), bi->pc, bi->pc);
            break;
        case KI_UNSUPPORTED:
            log_unsupported(k);
            kb_illegal(k);
            break;
        default:
            kb_illegal(k);
            break;
        }
    }
}

/* lcN += 1; if lcN <u bound goto @again (bound 0 counts as 1 unless @lb0) */
static void loop_next(KCtx *k, unsigned n, bool lb0, IRLabel again)
{
    IRContext *ir = k->ir;
    IRTemp lc = cpu_field(k->ctx, lc[n]);
    IRTemp lb = cpu_field(k->ctx, lb[n]);

    ir_gen_addi(ir, lc, lc, 1);
    if (!lb0) {
        IRTemp t = ir_temp(ir);
        ir_gen_movcond(ir, IR_COND_EQ, t, lb, ir_const(ir, 0), ir_const(ir, 1), lb);
        lb = t;
    }
    ir_gen_brcond(ir, IR_COND_LTU, lc, lb, again);
}

static void translate_phase(KCtx *k, unsigned first, unsigned last, bool first_phase,
                            bool last_phase)
{
    IRContext *ir = k->ir;
    IRLabel l_lane = ir_label(ir), l_done = ir_label(ir);

    if (k->simd && k->body->nphases == 1) {
        /* helper_ksimd ran lanes [0, lc0) and lc0 < LB0: the rest from lc0 */
    } else if (k->vec) {
        /* Vector mode runs what it can; the lanes below run the rest. */
        gen_helper_kvec(k->ctx, cpu_field(k->ctx, lc[0]), ir->env,
                        ir_const(ir, (int64_t)(uintptr_t)k->vec));
        ir_gen_brcond(ir, IR_COND_GEU, cpu_field(k->ctx, lc[0]), cpu_field(k->ctx, lb[0]),
                      l_done);
    } else {
        ir_gen_movi(ir, cpu_field(k->ctx, lc[0]), 0);
        ir_gen_brcond(ir, IR_COND_EQ, cpu_field(k->ctx, lb[0]), ir_const(ir, 0), l_done);
    }
    ir_gen_set_label(ir, l_lane);
    if (first_phase) {
        kc_init_lane(k);
    } else {
        kc_init_mem(k);
    }
    k->dead = false;
    k->count = 0;
    k->l_lane_end = ir_label(ir);
    k->lane_end_used = false;
    translate_lane(k, first, last);
    if (!k->dead) {
        kc_count(k);
        if (!last_phase) {
            kc_flush(k, false); /* the cross-lane step reads the records */
        }
    }
    if (k->lane_end_used) {
        ir_gen_set_label(ir, k->l_lane_end);
    }
    k->dead = false;
    loop_next(k, 0, true, l_lane);
    ir_gen_set_label(ir, l_done);
}

/* At the body's entry: facts the header decides (docs/kernels.md). */
static void entry_checks(KCtx *k)
{
    IRContext *ir = k->ir;
    const KBody *b = k->body;
    IRTemp t;

    if (b->uses_vmvn) {
        t = ir_temp(ir);
        ir_gen_ld(ir, IR_ld64, t, ir->env, KERN_OFF(vs8));
        ir_gen_brcond(ir, IR_COND_NE, t, ir_const(ir, 0),
                      kb_stub(k, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0),
                              b->vmvn_pc, false, b->vmvn_pc));
    }
    if (b->max_ri >= 0) {
        t = ir_temp(ir);
        ir_gen_ld(ir, IR_ld64, t, ir->env, KERN_OFF(nri));
        ir_gen_brcond(ir, IR_COND_LEU, t, ir_const(ir, b->max_ri),
                      kb_stub(k, LINX_TRAP_ILLEGAL_INST, LINX_CAUSE(LINX_EC_ILLEGAL, 0),
                              b->max_ri_pc, false, b->max_ri_pc));
    }
    if (b->nphases > 1) {
        /* lane records for LB0 lanes (heap ones beyond the inline 1024) */
        gen_helper_kernel_lanes(k->ctx, IR_NO_TEMP, ir->env, ir_const(ir, (int64_t)b->start));
    }
}

/* TB_F_EXIT_CHECK: leave before anything runs, re-entering the body. */
static void exit_check(KCtx *k)
{
    IRContext *ir = k->ir;
    IRTemp req = ir_temp(ir);
    IRLabel l_run = ir_label(ir);

    ir_gen_ld(ir, IR_ld32s, req, ir->env, (int32_t)offsetof(CPULinxState, engine.exit_request));
    ir_gen_brcond(ir, IR_COND_EQ, req, ir_const(ir, 0), l_run);
    ir_gen_movi(ir, cpu_field(k->ctx, pc), (int64_t)k->ctx->tb->pc);
    ir_gen_movi(ir, cpu_field(k->ctx, resume), TB_F_BODY);
    ir_gen_exit_tb(ir, 0);
    ir_gen_set_label(ir, l_run);
}

void linx_kernel_translate_body(DisasContext *ctx)
{
    IRContext *ir = ctx->ir;
    TranslationBlock *tb = ctx->tb;
    KBody body;
    KCtx kc;
    KCtx *k = &kc;
    IRLabel l_g1 = ir_label(ir), l_g2 = ir_label(ir), l_gend = ir_label(ir);
    IRTemp cont;
    unsigned first = 0;

    scan_body(ctx->env, tb->pc, &body);
    memset(k, 0, sizeof(*k));
    k->ctx = ctx;
    k->ir = ir;
    k->body = &body;
    k->xlane = body.nphases > 1;
    k->stubs = calloc(LINX_KBODY_MAX_STUBS, sizeof(KStub));
    if (!body.insns || !k->stubs) {
        fprintf(stderr, "linxemu: out of memory translating a kernel body\n");
        exit(EXIT_FAILURE);
    }
    for (unsigned i = 0; i < body.n; i++) {
        if (body.insns[i].is_target) {
            body.insns[i].label = ir_label(ir);
        }
    }
    /* The SIMD and vector modes run lanes without per-instruction code:
     * not when tracing. */
    k->simd = (tb->flags & TB_F_TRACE) ? NULL : ks_compile(k);
    k->vec = (tb->flags & TB_F_TRACE) || k->simd ? NULL : kv_compile(k);
    tb->size = (uint32_t)(body.bytes ? body.bytes : 2);
    tb->icount = body.n;

    if (tb->flags & TB_F_EXIT_CHECK) {
        exit_check(k);
    }
    ir_gen_movi(ir, cpu_field(ctx, resume), 0);
    entry_checks(k);

    ir_gen_movi(ir, cpu_field(ctx, lc[2]), 0);
    ir_gen_set_label(ir, l_g2);
    ir_gen_movi(ir, cpu_field(ctx, lc[1]), 0);
    ir_gen_set_label(ir, l_g1);
    if (k->simd) {
        /* The group in host SIMD; lc0 = the first lane not run (LB0: all,
         * 0 for bodies with phases when the lane code must run it). */
        gen_helper_ksimd(ctx, cpu_field(ctx, lc[0]), ir->env,
                         ir_const(ir, (int64_t)(uintptr_t)k->simd));
        ir_gen_brcond(ir, IR_COND_GEU, cpu_field(ctx, lc[0]), cpu_field(ctx, lb[0]), l_gend);
    }
    for (unsigned ph = 0; ph < body.nphases; ph++) {
        unsigned last = first;
        while (last < body.n && !(body.insns[last].kind == KI_BARRIER &&
                                  body.insns[last].phase == ph)) {
            last++;
        }
        translate_phase(k, first, last, ph == 0, ph + 1 == body.nphases);
        if (last < body.n) {
            /* The cross-lane instruction, over the group's lane records. */
            const KBodyInsn *bi = &body.insns[last];
            ir_gen_insn_start(ir, bi->pc, last);
            gen_helper_kernel_xlane(ctx, IR_NO_TEMP, ir->env,
                                    ir_const(ir, (int64_t)kop_barrier_desc(&bi->insn)),
                                    ir_const(ir, (int64_t)bi->pc));
            /* It retires once per lane of the group (LB0 lanes), as its
             * trace rows say. */
            ir_gen_add(ir, cpu_field(ctx, insn_count), cpu_field(ctx, insn_count),
                       cpu_field(ctx, lb[0]));
            kb_trace(k, bi, true);
        }
        first = last + 1;
    }
    ir_gen_set_label(ir, l_gend);
    loop_next(k, 1, false, l_g1);
    loop_next(k, 2, false, l_g2);

    gen_helper_kernel_end(ctx, IR_NO_TEMP, ir->env);
    cont = ir_temp(ir);
    ir_gen_ld(ir, IR_ld64, cont, ir->env, KERN_OFF(cont));
    ir_gen_mov(ir, cpu_field(ctx, pc), cont);
    ir_gen_lookup_and_goto_ptr(ir);
    emit_stubs(k);

    free(k->stubs);
    free(body.insns);
}
