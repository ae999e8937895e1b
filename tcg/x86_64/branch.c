/*
 * x86-64 code for control flow: labels, br/brcond, the TB exits (goto_tb,
 * exit_tb, goto_ptr) and helper calls.
 *
 * Block boundaries: before any branch or exit every dirty global is
 * written back; at a label every global is in memory and no local is
 * live (tcg/ir.h), so all paths into a label agree on where values are.
 * The exception is the pinned global (BackendState.pinned_env_offset):
 * its home is X86_PINNED_REG in every TB, the epilogue stores it.
 * Locals may stay in registers across a brcond (fall-through only).  A
 * brcond writes dirty globals back on its taken path only: "jcc stub",
 * and the stub, emitted after the TB's slow paths, stores them and jumps
 * to the label; the fall-through path keeps them dirty in registers (in an
 * unrolled loop only the exit that is taken pays for the stores).
 *
 * goto_tb n: a 5-byte "jmp rel32" whose rel32 is 4-byte aligned (so
 * backend_set_jmp() can retarget it with one atomic store), initially
 * jumping to the next instruction, which is the exit_tb that returns
 * "tb | n" to the exec loop.  Once chained it jumps to the next TB's code.
 *
 * Helper calls (SysV AMD64): arguments 1-6 in rdi, rsi, rdx, rcx, r8, r9,
 * 7-8 at [rsp], [rsp + 8] (the frame reserves them; rsp stays 16-byte
 * aligned), result in rax.  Values live across the call move to free
 * callee-saved registers or to memory; argument registers are filled by
 * one parallel move (cycles broken with xchg).
 */
#include <stddef.h>
#include <stdlib.h>

#include "x86-gen.h"

const uint8_t x86_arg_regs[X86_NB_ARG_REGS] = {
    X86_RDI, X86_RSI, X86_RDX, X86_RCX, X86_R8, X86_R9,
};

/* rel32 of a goto_tb jump must be 4-byte aligned: the opcode byte sits at
 * 3 (mod 4). */
#define GOTO_TB_ALIGN 4
#define GOTO_TB_PHASE 3

static void add_label_ref(X86Gen *g, size_t field, uint32_t label)
{
    if (label >= g->ir->nlabels ||
        !x86_grow((void **)&g->label_refs, &g->label_refs_cap, g->nlabel_refs + 1,
                  sizeof(*g->label_refs))) {
        fprintf(stderr, "linxemu: x86-64 backend: branch to unknown label %u\n", label);
        abort();
    }
    g->label_refs[g->nlabel_refs++] = (X86LabelRef){ .field = (uint32_t)field, .label = label };
}

void x86_resolve_labels(X86Gen *g)
{
    for (unsigned i = 0; i < g->nlabel_refs; i++) {
        const X86LabelRef *r = &g->label_refs[i];
        if (g->label_pos[r->label] < 0) {
            fprintf(stderr, "linxemu: x86-64 backend: label %u is used but never set (TB at "
                    "guest pc 0x%llx)\n", r->label, (unsigned long long)g->tb->pc);
            abort();
        }
        x86_patch_rel32(&g->e, r->field, (size_t)g->label_pos[r->label]);
    }
}

void x86_restore_frame(X86Gen *g)
{
    if (g->frame_ext) {
        x86_alu_ri(&g->e, X86_ALU_ADD, X86_RSP, (int32_t)g->frame_ext);
    }
}

void x86_parallel_move(X86Emitter *e, const uint8_t *dst, const uint8_t *src, unsigned n)
{
    uint8_t d[X86_NB_REGS], s[X86_NB_REGS];
    unsigned m = 0;

    for (unsigned i = 0; i < n; i++) {
        if (dst[i] != src[i]) {
            d[m] = dst[i];
            s[m++] = src[i];
        }
    }
    while (m > 0) {
        bool progress = false;
        for (unsigned i = 0; i < m; i++) {
            bool dst_is_src = false;
            for (unsigned j = 0; j < m; j++) {
                dst_is_src |= j != i && s[j] == d[i];
            }
            if (!dst_is_src) {
                x86_mov_rr(e, d[i], s[i]);
                d[i] = d[m - 1];
                s[i] = s[m - 1];
                m--;
                progress = true;
                break;
            }
        }
        if (!progress) {
            /* Only cycles are left: swap one pair and redirect readers. */
            uint8_t a = s[0], b = d[0];
            x86_xchg(e, a, b);
            for (unsigned j = 1; j < m; j++) {
                if (s[j] == b) {
                    s[j] = a;
                } else if (s[j] == a) {
                    s[j] = b;
                }
            }
            d[0] = d[m - 1];
            s[0] = s[m - 1];
            m--;
            /* Moves that became "r -> r" are done. */
            for (unsigned j = 0; j < m;) {
                if (d[j] == s[j]) {
                    d[j] = d[m - 1];
                    s[j] = s[m - 1];
                    m--;
                } else {
                    j++;
                }
            }
        }
    }
}

void x86_emit_call(X86Gen *g, const void *target)
{
    /* rax is neither an argument register nor live here. */
    x86_call_to(&g->e, (uintptr_t)target, X86_RAX);
}

/* ------------------------------------------------------------------ */
/* Helper calls                                                        */
/* ------------------------------------------------------------------ */

typedef struct ArgSource {
    uint8_t kind; /* X86ValLoc: REG, MEM or CONST */
    uint8_t reg;
    uint8_t base;
    int32_t disp;
    uint64_t value;
} ArgSource;

static void arg_source(X86Gen *g, IRTemp t, ArgSource *a)
{
    X86Temp *ts = &g->temps[t];

    a->kind = ts->loc;
    switch (ts->loc) {
    case X86_VAL_REG:
        a->reg = ts->reg;
        break;
    case X86_VAL_CONST:
        a->value = (uint64_t)ts->cval;
        break;
    case X86_VAL_MEM:
        if (ts->kind == IR_TEMP_GLOBAL) {
            a->base = X86_ENV_REG;
            a->disp = ts->env_offset;
        } else {
            a->base = X86_RSP;
            a->disp = ra_slot_offset(g, t);
        }
        break;
    default:
        fprintf(stderr, "linxemu: x86-64 backend: helper argument temp %u read before it "
                "is written\n", t);
        abort();
    }
}

/* ------------------------------------------------------------------ */
/* The lookup helper, inline                                           */
/* ------------------------------------------------------------------ */

_Static_assert(offsetof(TranslationBlock, cflags) == offsetof(TranslationBlock, flags) + 4,
               "flags and cflags compared as one qword");

/* Register holding env->pc's current value (globals are in memory now). */
static int lookup_pc_reg(X86Gen *g, int scratch)
{
    const int32_t off = g->bs->pc_offset;

    for (unsigned i = 0; i < g->ir->nglobals && i < g->ntemps; i++) {
        const X86Temp *ts = &g->temps[i];
        if (ts->kind == IR_TEMP_GLOBAL && ts->env_offset == off && ts->loc == X86_VAL_REG) {
            return ts->reg;
        }
    }
    x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, scratch, X86_ENV_REG, off);
    return scratch;
}

/*
 * helper_lookup_tb_ptr's fast path in line (the globals are in env and
 * the call-clobbered registers free, as for the call):
 *
 *     rorx rax, P, 1; rorx rdx, P, 1 + BITS; xor rax, rdx; and eax, SIZE - 1
 *     mov  rax, [rbp + rax*8 + tb_jmp_cache]   ; TB or NULL
 *     test rax, rax;                jz  miss
 *     cmp  P, [rax + pc];           jne miss
 *     cmp  qword [rax + flags], F;  jne miss   ; flags == context flags, cflags == 0
 *     cmp  qword [rbp + resume], 0; jne miss   ; (then the CPU adds no flag)
 *     mov  rax, [rax + host_code];  jmp done
 *   miss:
 *     mov  rdi, rbp; call lookup_slow           ; the helper itself
 *   done:                                        ; rax = where goto_ptr goes
 *
 * The helper also refuses to chain while env->engine.exit_request is set: like a
 * chained goto_tb, the probe leaves that to the TB_F_EXIT_CHECK test at the
 * target's entry.  cflags == 0 excludes TB_C_CFI_BAD (invalid TBs are
 * never in the jump cache).
 */
static void gen_lookup_inline(X86Gen *g)
{
    X86Emitter *e = &g->e;
    const int h = X86_RAX, t = X86_RDX;
    int p = lookup_pc_reg(g, X86_RCX);
    size_t miss[5], done;
    unsigned n = 0;
    int32_t extra = (int32_t)(g->tb->flags & TB_F_CONTEXT_MASK);

    if (g->bs->host_features & X86_FEAT_BMI2) {
        x86_rorx(e, h, p, 1);
        x86_rorx(e, t, p, 1 + LINX_TB_JMP_CACHE_BITS);
    } else {
        x86_mov_rr(e, h, p);
        x86_shift_ri(e, X86_SHIFT_SHR, h, 1);
        x86_mov_rr(e, t, p);
        x86_shift_ri(e, X86_SHIFT_SHR, t, 1 + LINX_TB_JMP_CACHE_BITS);
    }
    x86_alu_rr(e, X86_ALU_XOR, h, t);
    x86_alu_ri(e, X86_ALU_AND, h, LINX_TB_JMP_CACHE_SIZE - 1);
    x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, h, X86_ENV_REG, h, 3,
                  (int32_t)(linx_cpu_engine_offset + offsetof(CPUEngineState, tb_jmp_cache)));
    x86_test_rr(e, h, h);
    miss[n++] = x86_jcc_rel32(e, X86_CC_E);
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, p, h, X86_NO_REG, 0,
                  (int32_t)offsetof(TranslationBlock, pc));
    miss[n++] = x86_jcc_rel32(e, X86_CC_NE);
    x86_modrm_mem(e, OPC_GRP1_EvIz | X86_P_W, X86_ALU_CMP, h, X86_NO_REG, 0,
                  (int32_t)offsetof(TranslationBlock, flags));
    x86_u32(e, (uint32_t)extra);
    miss[n++] = x86_jcc_rel32(e, X86_CC_NE);
    x86_modrm_mem(e, OPC_GRP1_EvIb | X86_P_W, X86_ALU_CMP, X86_ENV_REG, X86_NO_REG, 0,
                  g->bs->tb_flags_offset);
    x86_byte(e, 0);
    miss[n++] = x86_jcc_rel32(e, X86_CC_NE);
    x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, h, h, X86_NO_REG, 0,
                  (int32_t)offsetof(TranslationBlock, host_code));
    done = x86_jmp_rel32(e);
    for (unsigned i = 0; i < n; i++) {
        x86_patch_rel32(e, miss[i], e->pos);
    }
    x86_mov_rr(e, x86_arg_regs[0], X86_ENV_REG);
    x86_emit_call(g, (const void *)g->bs->lookup_slow);
    x86_patch_rel32(e, done, e->pos);
}

void x86_gen_call(X86Gen *g, const IRInsn *insn)
{
    const uint64_t idx = insn->args[insn->nout + insn->nin];
    const IRHelperInfo *h = idx < g->ir->nhelpers ? g->ir->helpers[idx] : NULL;
    ArgSource src[IR_MAX_HELPER_ARGS];
    unsigned nargs = insn->nin;

    if (!h || nargs > IR_MAX_HELPER_ARGS) {
        fprintf(stderr, "linxemu: x86-64 backend: bad helper call (index %llu, %u args)\n",
                (unsigned long long)idx, nargs);
        abort();
    }
    for (unsigned i = 0; i < nargs; i++) {
        arg_source(g, (IRTemp)insn->args[insn->nout + i], &src[i]);
    }
    if (!(h->flags & IR_CALL_NO_RWG)) {
        ra_sync_globals(g);
    }
    ra_evict_call_clobbered(g, insn);
    if (h == g->bs->lookup_info && g->bs->lookup_slow && nargs == 1 && insn->nout == 1) {
        gen_lookup_inline(g);
        ra_set_output_reg(g, (IRTemp)insn->args[0], X86_RET_REG);
        return;
    }

    /* Stack arguments first: they read registers and memory but write
     * neither. */
    for (unsigned i = X86_NB_ARG_REGS; i < nargs; i++) {
        int32_t slot = X86_FRAME_ARGS_OFF + 8 * (int32_t)(i - X86_NB_ARG_REGS);
        switch (src[i].kind) {
        case X86_VAL_REG:
            x86_st(&g->e, OPC_MOV_EvGv | X86_P_W, src[i].reg, X86_RSP, slot);
            break;
        case X86_VAL_CONST:
            x86_sti64(&g->e, X86_RSP, slot, src[i].value);
            break;
        default:
            /* Memory to memory without a register: push [m]; pop [rsp + slot]
             * (pop computes an rsp-based address after incrementing rsp). */
            x86_modrm_mem(&g->e, OPC_GRP5_Ev, X86_EXT5_PUSH, src[i].base, X86_NO_REG, 0,
                          src[i].disp);
            x86_modrm_mem(&g->e, OPC_POP_Ev, 0, X86_RSP, X86_NO_REG, 0, slot);
            break;
        }
    }
    /* Register arguments: register sources by a parallel move, then loads
     * and constants (which read no argument register). */
    uint8_t dst[X86_NB_ARG_REGS], from[X86_NB_ARG_REGS];
    unsigned n = 0;
    for (unsigned i = 0; i < nargs && i < X86_NB_ARG_REGS; i++) {
        if (src[i].kind == X86_VAL_REG) {
            dst[n] = x86_arg_regs[i];
            from[n++] = src[i].reg;
        }
    }
    x86_parallel_move(&g->e, dst, from, n);
    for (unsigned i = 0; i < nargs && i < X86_NB_ARG_REGS; i++) {
        if (src[i].kind == X86_VAL_MEM) {
            x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, x86_arg_regs[i], src[i].base, src[i].disp);
        } else if (src[i].kind == X86_VAL_CONST) {
            x86_movi(&g->e, x86_arg_regs[i], src[i].value);
        }
    }
    if ((h->flags & IR_CALL_TILE_MOVE) && nargs == 6 && src[5].kind == X86_VAL_CONST &&
        src[5].value != 0) {
        size_t done;

        if (x86_gen_tile_move(g, (const struct TcgTileMove *)(uintptr_t)src[5].value, &done)) {
            x86_emit_call(g, h->func);
            x86_patch_rel32(&g->e, done, g->e.pos);
        } else {
            x86_emit_call(g, h->func);
        }
    } else {
        x86_emit_call(g, h->func);
    }

    if (h->flags & IR_CALL_NORETURN) {
        g->unreachable = true;
        return;
    }
    if (!(h->flags & (IR_CALL_NO_RWG | IR_CALL_NO_WG))) {
        /* The helper may have written globals: reload them when needed. */
        ra_drop_globals(g, X86_ALLOCATABLE);
    }
    if (insn->nout) {
        ra_set_output_reg(g, (IRTemp)insn->args[0], X86_RET_REG);
    }
}

/* ------------------------------------------------------------------ */
/* Branches and exits                                                  */
/* ------------------------------------------------------------------ */

/* The loop whose back edge (or head) is the current op, or NULL. */
static const X86Loop *loop_at(const X86Gen *g, uint32_t label, bool head)
{
    if (!g->label_loop || label >= g->ir->nlabels || g->label_loop[label] < 0) {
        return NULL;
    }
    const X86Loop *lp = &g->loops[g->label_loop[label]];
    return (head ? lp->head_op : lp->back_op) == g->cur ? lp : NULL;
}

/* Back edge of a loop (find_loops): the other globals go to env as at
 * any branch; the loop's globals go into the registers the head expects
 * (register moves, loads from env for those a call or an env access
 * dropped, constants).  A global the loop never writes is clean at the
 * head, so it must be clean here too. */
static void gen_loop_back_edge(X86Gen *g, const X86Loop *lp, uint32_t label)
{
    uint8_t dst[X86_LOOP_MAX_GLOBALS], src[X86_LOOP_MAX_GLOBALS];
    unsigned nmov = 0, i;

    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        X86Temp *ts = &g->temps[i];
        bool in_loop = false;
        for (unsigned k = 0; k < lp->n; k++) {
            in_loop |= lp->glob[k] == i && lp->written[k];
        }
        if (ts->kind == IR_TEMP_GLOBAL && !ts->pinned && !in_loop) {
            ra_sync_temp(g, i);
        }
    }
    for (unsigned k = 0; k < lp->n; k++) {
        const X86Temp *ts = &g->temps[lp->glob[k]];
        if (ts->loc == X86_VAL_REG) {
            dst[nmov] = lp->reg[k];
            src[nmov++] = ts->reg;
        }
    }
    x86_parallel_move(&g->e, dst, src, nmov);
    for (unsigned k = 0; k < lp->n; k++) {
        const X86Temp *ts = &g->temps[lp->glob[k]];
        if (ts->loc == X86_VAL_CONST) {
            x86_movi(&g->e, lp->reg[k], (uint64_t)ts->cval);
        } else if (ts->loc != X86_VAL_REG) {
            x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, lp->reg[k], X86_ENV_REG, ts->env_offset);
        }
    }
    add_label_ref(g, x86_jmp_rel32(&g->e), label);
    g->unreachable = true;
    /* Nothing falls through: the next label must not store anything. */
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        if (g->temps[i].kind == IR_TEMP_GLOBAL && !g->temps[i].pinned) {
            g->temps[i].mem_coherent = true;
        }
    }
}

/* Head of a loop: the loop's globals are loaded into their registers
 * before the label; from the label on they are there, dirty when the
 * loop writes them (the back edge brings newer values than env). */
static void gen_loop_head(X86Gen *g, const X86Loop *lp)
{
    for (unsigned k = 0; k < lp->n; k++) {
        IRTemp t = lp->glob[k];
        X86Temp *ts = &g->temps[t];
        int r = lp->reg[k];
        if (g->reg_owner[r] != X86_OWNER_FREE || ts->kind != IR_TEMP_GLOBAL || ts->pinned) {
            fprintf(stderr, "linxemu: x86-64 backend: loop register %d not free at the head "
                    "(TB at guest pc 0x%llx)\n", r, (unsigned long long)g->tb->pc);
            abort();
        }
        x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, r, X86_ENV_REG, ts->env_offset);
        ra_touch_global(g, t);
        ts->loc = X86_VAL_REG;
        ts->reg = (uint8_t)r;
        ts->mem_coherent = !lp->written[k];
        ts->next_use = lp->first_read[k];
        g->reg_owner[r] = t;
    }
}

static void gen_br(X86Gen *g, uint32_t label)
{
    const X86Loop *lp = loop_at(g, label, false);

    if (lp) {
        gen_loop_back_edge(g, lp, label);
        return;
    }
    ra_sync_globals_at_boundary(g);
    add_label_ref(g, x86_jmp_rel32(&g->e), label);
    g->unreachable = true;
}

static void gen_brcond(X86Gen *g, const IRInsn *insn)
{
    IRCond c = (IRCond)insn->args[2];
    uint32_t label = (uint32_t)insn->args[3];

    if (c == IR_COND_NEVER) {
        return;
    }
    if (c == IR_COND_ALWAYS) {
        gen_br(g, label);
        return;
    }
    X86Cond cc = x86_gen_compare(g, c, (IRTemp)insn->args[0], (IRTemp)insn->args[1]);
    uint32_t nsync;
    uint32_t sync_start = ra_record_dirty_globals(g, &nsync, true);

    if (nsync == 0) {
        add_label_ref(g, x86_jcc_rel32(&g->e, cc), label);
        return;
    }
    /* Dirty globals are written back on the taken path only, out of line
     * (the label wants them in memory); the fall-through path keeps them
     * in registers. */
    if (!x86_grow((void **)&g->stubs, &g->stubs_cap, g->nstubs + 1, sizeof(*g->stubs))) {
        g->failed = true;
        return;
    }
    g->stubs[g->nstubs++] = (X86BranchStub){
        .jcc_field = (uint32_t)x86_jcc_rel32(&g->e, cc),
        .label = label,
        .sync_start = sync_start,
        .sync_count = nsync,
    };
}

void x86_gen_branch_stubs(X86Gen *g)
{
    for (unsigned i = 0; i < g->nstubs; i++) {
        const X86BranchStub *s = &g->stubs[i];
        x86_patch_rel32(&g->e, s->jcc_field, g->e.pos);
        x86_emit_sync(g, s->sync_start, s->sync_count);
        add_label_ref(g, x86_jmp_rel32(&g->e), s->label);
    }
}

static void gen_goto_tb(X86Gen *g, unsigned slot)
{
    X86Emitter *e = &g->e;

    ra_sync_globals_at_boundary(g);
    x86_restore_frame(g);
    x86_align(e, GOTO_TB_ALIGN, GOTO_TB_PHASE);
    if (slot < 2) {
        g->tb->jmp_insn_offset[slot] = (uint32_t)e->pos;
    }
    /* E9 00000000: jump to the next instruction until chained. */
    x86_jmp_rel32(e);
    if (slot < 2) {
        g->tb->jmp_reset_offset[slot] = (uint32_t)e->pos;
    }
    /* Unchained: the ops up to exit_tb run in this TB's frame again. */
    if (g->frame_ext) {
        x86_alu_ri(e, X86_ALU_SUB, X86_RSP, (int32_t)g->frame_ext);
    }
}

static void gen_exit_tb(X86Gen *g, uint64_t val)
{
    ra_sync_globals_at_boundary(g);
    x86_restore_frame(g);
    if (val == 0) {
        x86_jmp_to(&g->e, (uintptr_t)g->bs->exit_addr);
    } else {
        x86_movi(&g->e, X86_RET_REG, val);
        x86_jmp_to(&g->e, (uintptr_t)g->bs->ret_addr);
    }
    g->unreachable = true;
}

static void gen_goto_ptr(X86Gen *g, IRTemp ptr)
{
    int r = ra_load(g, ptr, X86_ANY_REG, 0);

    ra_sync_globals_at_boundary(g);
    x86_restore_frame(g);
    x86_jmp_reg(&g->e, r);
    g->unreachable = true;
}

static void gen_set_label(X86Gen *g, uint32_t label)
{
    if (label >= g->ir->nlabels) {
        fprintf(stderr, "linxemu: x86-64 backend: set_label of unknown label %u\n", label);
        abort();
    }
    ra_sync_globals_at_boundary(g);
    ra_at_label(g);
    const X86Loop *lp = loop_at(g, label, true);
    if (lp) {
        gen_loop_head(g, lp);
    }
    g->label_pos[label] = (int64_t)g->e.pos;
    g->unreachable = false;
}

bool x86_gen_branch(X86Gen *g, const IRInsn *insn)
{
    switch (insn->op) {
    case IR_set_label:
        gen_set_label(g, (uint32_t)insn->args[0]);
        return true;
    case IR_br:
        gen_br(g, (uint32_t)insn->args[0]);
        return true;
    case IR_brcond:
        gen_brcond(g, insn);
        return true;
    case IR_goto_tb:
        gen_goto_tb(g, (unsigned)insn->args[0]);
        return true;
    case IR_exit_tb:
        gen_exit_tb(g, insn->args[0]);
        return true;
    case IR_goto_ptr:
        gen_goto_ptr(g, (IRTemp)insn->args[0]);
        return true;
    case IR_call:
        x86_gen_call(g, insn);
        return true;
    default:
        return false;
    }
}
