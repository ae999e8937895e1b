/*
 * backend_gen_tb(): one optimised IR list -> x86-64 host code.
 *
 * Steps:
 *   1. liveness (backward): for every temp operand of every op, the index
 *      of the next op that reads the same temp (X86_NEVER when none), so
 *      the allocator knows which inputs die where and which value to
 *      evict (farthest next use);
 *   2. code, op by op (alu.c, mem.c, branch.c), after an optional
 *      "sub rsp, frame_ext" when the TB needs more spill slots than the
 *      static frame (then generation runs a second time with that size);
 *   3. the out-of-line slow paths and brcond write-back stubs, label
 *      fixups;
 *   4. commit to the code buffer, fill the TB's host fields, and list the
 *      code with capstone when asked (-d out_asm).
 * Nothing is committed when the buffer is full: the caller flushes and
 * translates again.
 */
#include <stdlib.h>
#include <string.h>

#include "x86-gen.h"

#define TB_CODE_ALIGN 16

bool x86_grow(void **arr, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap) {
        return true;
    }
    unsigned n = *cap ? *cap : 16;
    while (n < need) {
        n *= 2;
    }
    void *p = realloc(*arr, (size_t)n * elem);
    if (!p) {
        return false;
    }
    memset((uint8_t *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
    *arr = p;
    *cap = n;
    return true;
}

bool x86_arg_dies(X86Gen *g, const IRInsn *insn, unsigned k)
{
    const uint32_t *next = &g->next_after[(size_t)g->cur * IR_MAX_ARGS];
    IRTemp t = (IRTemp)insn->args[k];

    if (k < insn->nout) {
        return next[k] == X86_NEVER;
    }
    for (unsigned o = 0; o < insn->nout; o++) {
        if (insn->args[o] == t) {
            return true; /* overwritten by this op */
        }
    }
    return g->temps[t].kind == IR_TEMP_LOCAL && next[k] == X86_NEVER;
}

static bool op_ends_flow(const X86Gen *g, const IRInsn *insn)
{
    if (insn->op == IR_br || insn->op == IR_exit_tb || insn->op == IR_goto_ptr) {
        return true;
    }
    if (insn->op == IR_brcond) {
        return insn->args[2] == IR_COND_ALWAYS;
    }
    if (insn->op == IR_call) {
        uint64_t idx = insn->args[insn->nout + insn->nin];
        return idx < g->ir->nhelpers && (g->ir->helpers[idx]->flags & IR_CALL_NORETURN);
    }
    return false;
}

/* Allocation order of the loop registers (callee-saved first, as the
 * allocator's; r14 only when it is not the pinned global's). */
static const uint8_t loop_reg_order[] = {
    X86_RBX, X86_R12, X86_R13, X86_R14, X86_R10, X86_R11, X86_R9, X86_R8,
};

/* Is global @t the pinned one (or an alias of its field)? */
static bool is_pinned_field(const X86Gen *g, IRTemp t)
{
    return g->bs->pinned_env_offset >= 0 &&
           g->ir->temps[t].env_offset == (int32_t)g->bs->pinned_env_offset;
}

/*
 * Loops inside the TB: a set_label whose only reference is one later br.
 * Everything else about labels is as usual (globals in memory at every
 * other label), so any other shape simply gets no loop registers.  The
 * loop's globals: those whose first access after the label is a read
 * (not written or discarded first, never discarded in the loop), most
 * read first, at most X86_LOOP_MAX_GLOBALS.
 */
static bool find_loops(X86Gen *g)
{
    IRContext *ir = g->ir;
    unsigned nl = ir->nlabels;
    uint32_t *def, *refs, *ref_op;
    bool ok = true;

    g->nloops = 0;
    if (nl == 0) {
        return true;
    }
    def = malloc(nl * sizeof(*def));
    refs = calloc(nl, sizeof(*refs));
    ref_op = malloc(nl * sizeof(*ref_op));
    g->label_loop = malloc(nl * sizeof(*g->label_loop));
    if (!def || !refs || !ref_op || !g->label_loop) {
        ok = false;
        goto out;
    }
    for (unsigned l = 0; l < nl; l++) {
        def[l] = X86_NEVER;
        g->label_loop[l] = -1;
    }
    for (unsigned i = 0; i < ir->ninsns; i++) {
        const IRInsn *insn = &ir->insns[i];
        uint64_t l;
        if (insn->dead) {
            continue;
        }
        if (insn->op == IR_set_label) {
            l = insn->args[0];
            if (l < nl) {
                def[l] = i;
            }
        } else if (insn->op == IR_br || insn->op == IR_brcond) {
            l = insn->op == IR_br ? insn->args[0] : insn->args[3];
            if (l < nl) {
                refs[l]++;
                /* Only an unconditional backward branch makes a loop. */
                ref_op[l] = insn->op == IR_br && def[l] != X86_NEVER ? i : X86_NEVER;
            }
        }
    }
    for (unsigned l = 0; l < nl; l++) {
        if (refs[l] != 1 || ref_op[l] == X86_NEVER || def[l] == X86_NEVER) {
            continue;
        }
        uint32_t h = def[l], b = ref_op[l];
        enum { UNSEEN, READ_FIRST, OTHER };
        uint8_t *state = calloc(ir->nglobals ? ir->nglobals : 1, 1);
        uint32_t *reads = calloc(ir->nglobals ? ir->nglobals : 1, sizeof(*reads));
        uint32_t *first = calloc(ir->nglobals ? ir->nglobals : 1, sizeof(*first));
        bool *wr = calloc(ir->nglobals ? ir->nglobals : 1, sizeof(*wr));
        if (!state || !reads || !first || !wr ||
            !x86_grow((void **)&g->loops, &g->loops_cap, g->nloops + 1,
                      sizeof(*g->loops))) {
            free(state), free(reads), free(first), free(wr);
            ok = false;
            goto out;
        }
        for (uint32_t i = h + 1; i < b; i++) {
            const IRInsn *insn = &ir->insns[i];
            if (insn->dead || insn->op == IR_insn_start) {
                continue;
            }
            if (insn->op == IR_discard) {
                IRTemp t = (IRTemp)insn->args[0];
                if (t < ir->nglobals) {
                    state[t] = OTHER; /* never a loop register */
                    wr[t] = true;
                }
                continue;
            }
            for (unsigned k = insn->nout; k < (unsigned)insn->nout + insn->nin; k++) {
                IRTemp t = (IRTemp)insn->args[k];
                if (t < ir->nglobals && ir->temps[t].kind == IR_TEMP_GLOBAL) {
                    if (state[t] == UNSEEN) {
                        state[t] = READ_FIRST;
                        first[t] = i;
                    }
                    if (state[t] == READ_FIRST) {
                        reads[t]++;
                    }
                }
            }
            for (unsigned k = 0; k < insn->nout; k++) {
                IRTemp t = (IRTemp)insn->args[k];
                if (t < ir->nglobals) {
                    if (state[t] == UNSEEN) {
                        state[t] = OTHER;
                    }
                    wr[t] = true;
                }
            }
        }
        X86Loop *lp = &g->loops[g->nloops];
        unsigned maxn = X86_LOOP_MAX_GLOBALS, nregs = 0;
        uint8_t regs[X86_LOOP_MAX_GLOBALS];
        memset(lp, 0, sizeof(*lp));
        for (unsigned k = 0; k < sizeof(loop_reg_order) && nregs < maxn; k++) {
            if (loop_reg_order[k] == X86_PINNED_REG && g->bs->pinned_env_offset >= 0) {
                continue;
            }
            regs[nregs++] = loop_reg_order[k];
        }
        lp->head_op = h;
        lp->back_op = b;
        while (lp->n < nregs) {
            IRTemp best = IR_NO_TEMP;
            for (unsigned t = 0; t < ir->nglobals; t++) {
                if (state[t] == READ_FIRST && reads[t] > 0 && !is_pinned_field(g, t) &&
                    (best == IR_NO_TEMP || reads[t] > reads[best])) {
                    best = t;
                }
            }
            if (best == IR_NO_TEMP) {
                break;
            }
            lp->glob[lp->n] = best;
            lp->reg[lp->n] = regs[lp->n];
            lp->written[lp->n] = wr[best];
            lp->first_read[lp->n] = first[best];
            lp->n++;
            reads[best] = 0;
        }
        free(state), free(reads), free(first), free(wr);
        if (lp->n > 0) {
            g->label_loop[l] = (int32_t)g->nloops++;
        }
    }
out:
    free(def);
    free(refs);
    free(ref_op);
    return ok;
}

/* Backward pass; @first_use receives each temp's first reader. */
static void compute_liveness(X86Gen *g, uint32_t *first_use)
{
    IRContext *ir = g->ir;

    for (unsigned t = 0; t < g->ntemps; t++) {
        first_use[t] = X86_NEVER;
    }
    for (unsigned i = ir->ninsns; i-- > 0;) {
        const IRInsn *insn = &ir->insns[i];
        uint32_t *next = &g->next_after[(size_t)i * IR_MAX_ARGS];

        if (insn->dead) {
            continue;
        }
        if (op_ends_flow(g, insn)) {
            /* What follows runs only from a label, where no local is live. */
            for (unsigned t = ir->nglobals; t < g->ntemps; t++) {
                if (g->temps[t].kind == IR_TEMP_LOCAL) {
                    first_use[t] = X86_NEVER;
                }
            }
        }
        if (insn->op == IR_br && insn->args[0] < ir->nlabels && g->label_loop &&
            g->label_loop[insn->args[0]] >= 0 &&
            g->loops[g->label_loop[insn->args[0]]].back_op == i) {
            /* The back edge reads the loop's globals (into its registers). */
            const X86Loop *lp = &g->loops[g->label_loop[insn->args[0]]];
            for (unsigned k = 0; k < lp->n; k++) {
                first_use[lp->glob[k]] = i;
            }
            continue;
        }
        if (insn->op == IR_discard) {
            if (insn->args[0] < g->ntemps) {
                first_use[insn->args[0]] = X86_NEVER;
            }
            continue;
        }
        for (unsigned k = 0; k < insn->nout; k++) {
            next[k] = first_use[insn->args[k]];
        }
        for (unsigned k = 0; k < insn->nout; k++) {
            first_use[insn->args[k]] = X86_NEVER;
        }
        for (unsigned k = insn->nout; k < (unsigned)insn->nout + insn->nin; k++) {
            next[k] = first_use[insn->args[k]];
        }
        for (unsigned k = insn->nout; k < (unsigned)insn->nout + insn->nin; k++) {
            first_use[insn->args[k]] = i;
        }
    }
}

static bool check_operands(const X86Gen *g, const IRInsn *insn, unsigned i)
{
    if (insn->op >= IR_NB_OPS || (unsigned)insn->nout + insn->nin + insn->nconst > IR_MAX_ARGS) {
        fprintf(stderr, "linxemu: x86-64 backend: malformed op %u (opcode %u)\n", i, insn->op);
        return false;
    }
    for (unsigned k = 0; k < (unsigned)insn->nout + insn->nin; k++) {
        if (insn->args[k] >= g->ntemps) {
            fprintf(stderr, "linxemu: x86-64 backend: op %u (%s) names temp %llu of %u\n", i,
                    ir_op_info[insn->op].name, (unsigned long long)insn->args[k], g->ntemps);
            return false;
        }
    }
    return true;
}

static void add_mark(X86Gen *g, uint64_t pc)
{
    if (x86_grow((void **)&g->marks, &g->marks_cap, g->nmarks + 1, sizeof(*g->marks))) {
        g->marks[g->nmarks++] = (X86InsnMark){ .pos = (uint32_t)g->e.pos, .pc = pc };
    }
}

/* One generation attempt with the frame size in g->frame_ext. */
static void gen_body(X86Gen *g, const uint32_t *first_use, bool want_marks)
{
    IRContext *ir = g->ir;

    ra_init_tb(g);
    for (unsigned t = 0; t < g->ntemps; t++) {
        g->temps[t].next_use = first_use[t];
    }
    if (g->frame_ext) {
        x86_alu_ri(&g->e, X86_ALU_SUB, X86_RSP, (int32_t)g->frame_ext);
    }
    for (unsigned i = 0; i < ir->ninsns && !g->failed; i++) {
        const IRInsn *insn = &ir->insns[i];

        if (insn->dead) {
            continue;
        }
        g->cur = i;
        if (g->unreachable && insn->op != IR_set_label) {
            continue;
        }
        switch (insn->op) {
        case IR_insn_start:
            if (want_marks) {
                add_mark(g, insn->args[0]);
            }
            continue;
        case IR_discard:
            ra_discard(g, (IRTemp)insn->args[0]);
            continue;
        default:
            break;
        }
        if (!x86_gen_alu(g, insn) && !x86_gen_mem(g, insn) && !x86_gen_branch(g, insn)) {
            fprintf(stderr, "linxemu: x86-64 backend: no code for op %s\n",
                    ir_op_info[insn->op].name);
            abort();
        }
        ra_end_op(g, insn);
    }
    if (!g->unreachable) {
        fprintf(stderr, "linxemu: x86-64 backend: the op list of the TB at guest pc 0x%llx "
                "runs off its end (needs exit_tb, goto_ptr or br last)\n",
                (unsigned long long)g->tb->pc);
        abort();
    }
    g->body_end = g->e.pos;
    x86_gen_slow_paths(g);
    x86_gen_branch_stubs(g);
    x86_resolve_labels(g);
}

static void gen_reset(X86Gen *g, uint8_t *buf, uintptr_t rx, size_t cap)
{
    g->e = (X86Emitter){ .buf = buf, .rx_base = rx, .cap = cap };
    for (unsigned l = 0; l < g->ir->nlabels; l++) {
        g->label_pos[l] = -1;
    }
    g->nlabel_refs = 0;
    g->nslow = 0;
    g->nstubs = 0;
    g->nsync = 0;
    g->nmarks = 0;
    g->unreachable = false;
    g->fuse_op = X86_NEVER;
    g->nslots = X86_FRAME_STATIC_SLOTS + g->frame_ext / 8;
    if (g->slot_busy) {
        memset(g->slot_busy, 0, g->slots_high); /* busy slots are below slots_high */
    }
    g->slots_high = 0;
    g->tb->jmp_insn_offset[0] = g->tb->jmp_insn_offset[1] = UINT32_MAX;
    g->tb->jmp_reset_offset[0] = g->tb->jmp_reset_offset[1] = UINT32_MAX;
}

/* The per-TB arrays live in the IR context's backend scratch between
 * TBs (IRContext.pass_scratch): they only grow, and nothing is cleared
 * that the next TB does not use.  X86_SCRATCH_ARRAYS lists them. */
#define X86_SCRATCH_ARRAYS(X)                                                            \
    X(temps, temps_cap)                                                                  \
    X(next_after, next_after_cap)                                                        \
    X(label_pos, label_pos_cap)                                                          \
    X(first_use, first_use_cap)                                                          \
    X(label_refs, label_refs_cap)                                                        \
    X(slow, slow_cap)                                                                    \
    X(stubs, stubs_cap)                                                                  \
    X(sync, sync_cap)                                                                    \
    X(marks, marks_cap)                                                                  \
    X(slot_busy, slot_cap)                                                               \
    X(active, active_cap)                                                                \
    X(dirty, dirty_cap)

typedef struct X86Scratch {
#define X86_SCRATCH_FIELD(arr, cap) void *arr; unsigned cap;
    X86_SCRATCH_ARRAYS(X86_SCRATCH_FIELD)
#undef X86_SCRATCH_FIELD
    /* What the globals' temps[] entries were last made for (X86Gen.
     * globals_kept); bs NULL: nothing yet. */
    const BackendState *globals_bs;
    int32_t globals_pin;
    unsigned globals_n;
} X86Scratch;

static void scratch_free(void *p)
{
    X86Scratch *sc = p;

#define X86_SCRATCH_FREE(arr, cap) free(sc->arr);
    X86_SCRATCH_ARRAYS(X86_SCRATCH_FREE)
#undef X86_SCRATCH_FREE
    free(sc);
}

/* Borrow the context's arrays for @g; NULL when out of memory. */
static X86Scratch *scratch_take(X86Gen *g)
{
    IRContext *ir = g->ir;
    X86Scratch *sc = ir->pass_scratch[IR_SCRATCH_BACKEND].p;

    if (!sc) {
        sc = calloc(1, sizeof(*sc));
        if (!sc) {
            return NULL;
        }
        ir->pass_scratch[IR_SCRATCH_BACKEND].p = sc;
        ir->pass_scratch[IR_SCRATCH_BACKEND].free = scratch_free;
    }
#define X86_SCRATCH_TAKE(arr, cap) g->arr = sc->arr; g->cap = sc->cap;
    X86_SCRATCH_ARRAYS(X86_SCRATCH_TAKE)
#undef X86_SCRATCH_TAKE
    return sc;
}

/* Give the (possibly grown) arrays back; the spill-slot map is left all
 * free for the next TB. */
static void scratch_give(X86Gen *g, X86Scratch *sc)
{
    if (g->slot_busy) {
        memset(g->slot_busy, 0, g->slots_high);
    }
#define X86_SCRATCH_GIVE(arr, cap) sc->arr = g->arr; sc->cap = g->cap;
    X86_SCRATCH_ARRAYS(X86_SCRATCH_GIVE)
#undef X86_SCRATCH_GIVE
}

bool backend_gen_tb(BackendState *bs, CodeBuffer *cb, IRContext *ir, TranslationBlock *tb,
                    FILE *log_asm)
{
    X86Gen g = { .bs = bs, .ir = ir, .tb = tb, .ntemps = ir->ntemps };
    size_t start = (cb->used + TB_CODE_ALIGN - 1) & ~(size_t)(TB_CODE_ALIGN - 1);
    unsigned ndirty = (ir->nglobals + 63) / 64;
    X86Scratch *sc;
    bool ok = true;

    if (start >= cb->size) {
        return false;
    }
    sc = scratch_take(&g);
    if (!sc ||
        !x86_grow((void **)&g.temps, &g.temps_cap, g.ntemps ? g.ntemps : 1, sizeof(*g.temps)) ||
        !x86_grow((void **)&g.next_after, &g.next_after_cap,
                  ir->ninsns ? ir->ninsns * IR_MAX_ARGS : 1, sizeof(uint32_t)) ||
        !x86_grow((void **)&g.label_pos, &g.label_pos_cap, ir->nlabels ? ir->nlabels : 1,
                  sizeof(*g.label_pos)) ||
        !x86_grow((void **)&g.first_use, &g.first_use_cap, g.ntemps ? g.ntemps : 1,
                  sizeof(*g.first_use)) ||
        !x86_grow((void **)&g.dirty, &g.dirty_cap, ndirty ? ndirty : 1, sizeof(*g.dirty))) {
        if (sc) {
            scratch_give(&g, sc);
        }
        return false;
    }
    for (unsigned i = 0; i < ir->ninsns; i++) {
        if (!ir->insns[i].dead && !check_operands(&g, &ir->insns[i], i)) {
            abort();
        }
    }
    if (!find_loops(&g)) {
        free(g.label_loop);
        free(g.loops);
        scratch_give(&g, sc);
        return false;
    }
    compute_liveness(&g, g.first_use);
    g.globals_kept = sc->globals_bs == bs && sc->globals_pin == bs->pinned_env_offset &&
                     sc->globals_n == ir->nglobals && ir->nglobals <= g.ntemps;
    sc->globals_bs = bs;
    sc->globals_pin = bs->pinned_env_offset;
    sc->globals_n = ir->nglobals;

    uint8_t *buf = cb->rw + start;
    uintptr_t rx = (uintptr_t)cb->rx + start;
    for (int attempt = 0; attempt < 2; attempt++) {
        gen_reset(&g, buf, rx, cb->size - start);
        gen_body(&g, g.first_use, log_asm != NULL);
        if (g.slots_high <= g.nslots || g.e.overflow) {
            break;
        }
        /* More live spills than the static frame holds: grow the frame. */
        g.frame_ext = ((g.slots_high - X86_FRAME_STATIC_SLOTS) * 8 + 15) & ~15u;
        g.globals_kept = true; /* what this attempt touched is in dirty */
    }
    if (g.e.overflow || g.failed || g.slots_high > g.nslots) {
        ok = false;
    } else {
        tb->host_code = cb->rx + start;
        tb->host_size = (uint32_t)g.e.pos;
        cb->used = start + g.e.pos;
        /* The builder is idle again (tcg/code-buffer.h: start == used). */
        cb->start = cb->cur = cb->used;
        cb->overflow = false;
        x86_report_fault_sites(&g, tb->host_code);
        if (log_asm) {
            x86_disas_tb(log_asm, &g, buf, g.e.pos);
        }
    }
    free(g.label_loop);
    free(g.loops);
    scratch_give(&g, sc);
    return ok;
}
