/*
 * Register allocator of the x86-64 backend (QEMU-like, on demand).
 *
 * Each temp's value is in one place at a time (X86Temp.loc): a host
 * register, memory (the env field of a global, the spill slot of a local),
 * or a constant not yet materialised.  Registers are taken when an op
 * needs one; when none is free the value whose next use is farthest away
 * (Belady) leaves its register, written back first if memory is stale.
 *
 * Invariants:
 *   - a register has at most one owner (reg_owner[]); rbp (env) and rsp
 *     are never allocated;
 *   - registers of the op being generated are locked and never taken
 *     away from it; scratch registers live for one op only;
 *   - globals may be dirty (newer in a register than in env) only inside
 *     a basic block: they are written back at branches, labels, exits,
 *     helper calls that read globals, and in guest-memory slow paths;
 *   - at a label every global is in memory and no local is live (the IR
 *     rule; a violation is reported, not miscompiled);
 *   - except the pinned global (BackendState.pinned_env_offset): it is
 *     always in X86_PINNED_REG, which is never allocated to anything else;
 *     it is written to env where C code may read it (calls that read
 *     globals, slow paths, env loads of it), reloaded where C code may
 *     have changed it (calls that write globals, env stores to it), and
 *     the epilogue stores it when the JIT returns.
 */
#include <stdlib.h>
#include <string.h>

#include "x86-gen.h"

/* Allocation order: callee-saved registers first (they survive helper
 * calls and need no saving around slow paths), then the ones without a
 * fixed role, then those that shifts (rcx), multiplies (rax, rdx) and
 * calls (argument registers) want. */
static const uint8_t alloc_order[] = {
    X86_RBX, X86_R12, X86_R13, X86_R14, X86_R10, X86_R11, X86_R9,
    X86_R8,  X86_RDI, X86_RSI, X86_RDX, X86_RCX, X86_RAX,
};

#define CALLEE_SAVED_ALLOC                                                              \
    (X86_REG_BIT(X86_RBX) | X86_REG_BIT(X86_R12) | X86_REG_BIT(X86_R13) |              \
     X86_REG_BIT(X86_R14))

static _Noreturn void ra_fatal(X86Gen *g, const char *why, IRTemp t)
{
    fprintf(stderr,
            "linxemu: x86-64 backend: %s (temp %u, op %u of the TB at guest pc 0x%llx)\n",
            why, t, g->cur, g->tb ? (unsigned long long)g->tb->pc : 0ull);
    abort();
}

static bool is_temp_owner(uint32_t owner)
{
    return owner < X86_OWNER_FIXED;
}

/* Temp @i's state at the start of the TB. */
static void init_temp(X86Gen *g, unsigned i)
{
    const IRTempInfo *ti = &g->ir->temps[i];
    X86Temp *ts = &g->temps[i];

    ts->kind = ti->kind;
    ts->reg = 0;
    ts->slot = 0;
    ts->cval = 0;
    ts->has_slot = false;
    ts->active = false;
    ts->pinned = false;
    ts->env_offset = ti->env_offset;
    switch (ti->kind) {
    case IR_TEMP_FIXED:
        ts->loc = X86_VAL_REG;
        ts->reg = X86_ENV_REG;
        ts->mem_coherent = true;
        break;
    case IR_TEMP_GLOBAL:
        ts->loc = X86_VAL_MEM;
        ts->mem_coherent = true;
        if (g->pin_on && ti->env_offset == g->bs->pinned_env_offset &&
            g->pinned_temp == IR_NO_TEMP) {
            /* Its register is its home; env may be older. */
            ts->pinned = true;
            ts->loc = X86_VAL_REG;
            ts->reg = X86_PINNED_REG;
            ts->mem_coherent = false;
            g->reg_owner[X86_PINNED_REG] = i;
            ra_touch_global(g, i);
            g->pinned_temp = i;
        }
        break;
    case IR_TEMP_CONST:
        ts->loc = X86_VAL_CONST;
        ts->cval = ti->value;
        ts->mem_coherent = true;
        break;
    default:
        ts->loc = X86_VAL_DEAD;
        ts->mem_coherent = false;
        break;
    }
}

void ra_init_tb(X86Gen *g)
{
    unsigned first = 0;

    for (int r = 0; r < X86_NB_REGS; r++) {
        g->reg_owner[r] = X86_OWNER_FREE;
    }
    g->reg_owner[X86_RSP] = X86_OWNER_FIXED;
    g->reg_owner[X86_ENV_REG] = X86_OWNER_FIXED;
    g->reg_owner[X86_GUEST_BASE_REG] = X86_OWNER_FIXED;
    g->locked = 0;
    g->nactive = 0;
    g->pin_on = g->bs->pinned_env_offset >= 0;
    g->pinned_temp = IR_NO_TEMP;
    g->pinned_reload = false;
    if (g->pin_on) {
        g->reg_owner[X86_PINNED_REG] = X86_OWNER_FIXED;
    }
    g->ndirty = (g->ir->nglobals + 63) / 64;
    if (g->globals_kept) {
        /* The globals the last TB (or attempt) did not touch are still
         * as initialised (X86Gen.dirty): only the touched ones, in
         * increasing order (the pinned one among them), and the TB's own
         * temps start afresh. */
        init_temp(g, 0);
        for (unsigned w = 0; w < g->ndirty; w++) {
            uint64_t m = g->dirty[w];
            g->dirty[w] = 0;
            for (; m; m &= m - 1) {
                init_temp(g, w * 64 + (unsigned)__builtin_ctzll(m));
            }
        }
        first = g->ir->nglobals;
    } else {
        memset(g->dirty, 0, g->ndirty * sizeof(*g->dirty));
    }
    for (unsigned i = first; i < g->ntemps; i++) {
        init_temp(g, i);
    }
}

/* ------------------------------------------------------------------ */
/* Memory homes                                                        */
/* ------------------------------------------------------------------ */

int32_t ra_slot_offset(X86Gen *g, IRTemp t)
{
    X86Temp *ts = &g->temps[t];

    if (!ts->has_slot) {
        unsigned s = 0;
        while (s < g->slots_high && g->slot_busy[s]) {
            s++;
        }
        if (s == g->slots_high) {
            if (s >= X86_FRAME_MAX_SLOTS) {
                ra_fatal(g, "more live locals than the largest frame holds", t);
            }
            if (!x86_grow((void **)&g->slot_busy, &g->slot_cap, s + 1, 1)) {
                ra_fatal(g, "out of memory", t);
            }
            g->slots_high = s + 1;
        }
        g->slot_busy[s] = 1;
        ts->slot = s;
        ts->has_slot = true;
    }
    return X86_FRAME_SPILL_OFF + 8 * (int32_t)ts->slot;
}

/* Base register and displacement of @t's memory home. */
static int temp_home(X86Gen *g, IRTemp t, int32_t *disp)
{
    if (g->temps[t].kind == IR_TEMP_GLOBAL) {
        *disp = g->temps[t].env_offset;
        return X86_ENV_REG;
    }
    *disp = ra_slot_offset(g, t);
    return X86_RSP;
}

void ra_sync_temp(X86Gen *g, IRTemp t)
{
    X86Temp *ts = &g->temps[t];
    int32_t disp;
    int base;

    if (ts->mem_coherent || (ts->kind != IR_TEMP_GLOBAL && ts->kind != IR_TEMP_LOCAL)) {
        return;
    }
    switch (ts->loc) {
    case X86_VAL_REG:
        base = temp_home(g, t, &disp);
        x86_st(&g->e, OPC_MOV_EvGv | X86_P_W, ts->reg, base, disp);
        break;
    case X86_VAL_CONST:
        base = temp_home(g, t, &disp);
        x86_sti64(&g->e, base, disp, (uint64_t)ts->cval);
        break;
    default:
        return;
    }
    ts->mem_coherent = true;
}

/* Local @t gets a value: remember it for the next label. */
static void track_local(X86Gen *g, IRTemp t)
{
    X86Temp *ts = &g->temps[t];

    if (ts->kind != IR_TEMP_LOCAL || ts->active) {
        return;
    }
    if (!x86_grow((void **)&g->active, &g->active_cap, g->nactive + 1, sizeof(*g->active))) {
        ra_fatal(g, "out of memory", t);
    }
    ts->active = true;
    g->active[g->nactive++] = t;
}

/* @t is dead: give back its register and slot. */
static void temp_kill(X86Gen *g, IRTemp t)
{
    X86Temp *ts = &g->temps[t];

    if (ts->kind != IR_TEMP_LOCAL) {
        return;
    }
    if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == t) {
        g->reg_owner[ts->reg] = X86_OWNER_FREE;
    }
    if (ts->has_slot) {
        g->slot_busy[ts->slot] = 0;
        ts->has_slot = false;
    }
    ts->loc = X86_VAL_DEAD;
    ts->mem_coherent = false;
}

/* The value in @r goes to memory; @r becomes free. */
static void spill_reg(X86Gen *g, int r)
{
    uint32_t t = g->reg_owner[r];

    if (!is_temp_owner(t)) {
        return;
    }
    ra_sync_temp(g, t);
    g->temps[t].loc = X86_VAL_MEM;
    g->reg_owner[r] = X86_OWNER_FREE;
}

/* ------------------------------------------------------------------ */
/* Choosing registers                                                  */
/* ------------------------------------------------------------------ */

static uint16_t free_regs(const X86Gen *g)
{
    uint16_t m = 0;

    for (int r = 0; r < X86_NB_REGS; r++) {
        if (g->reg_owner[r] == X86_OWNER_FREE) {
            m |= X86_REG_BIT(r);
        }
    }
    return m;
}

static int first_in_order(uint16_t mask)
{
    for (unsigned i = 0; i < sizeof(alloc_order); i++) {
        if (mask & X86_REG_BIT(alloc_order[i])) {
            return alloc_order[i];
        }
    }
    return -1;
}

/* A free register from @allowed (taking one from its owner if needed);
 * not locked yet. */
static int alloc_reg(X86Gen *g, uint16_t allowed, uint16_t prefer)
{
    uint16_t cand = allowed & X86_ALLOCATABLE & ~g->locked;
    uint16_t f = cand & free_regs(g);
    int r;

    if (f) {
        r = first_in_order(f & prefer);
        return r >= 0 ? r : first_in_order(f);
    }
    /* Evict: the farthest next use goes; clean values first on ties. */
    int best = -1;
    uint64_t best_score = 0;
    for (r = 0; r < X86_NB_REGS; r++) {
        uint32_t t = g->reg_owner[r];
        if (!(cand & X86_REG_BIT(r)) || !is_temp_owner(t) || g->temps[t].pinned) {
            continue;
        }
        uint64_t score = (uint64_t)g->temps[t].next_use * 2 + (g->temps[t].mem_coherent ? 1 : 0);
        if (best < 0 || score > best_score) {
            best = r;
            best_score = score;
        }
    }
    if (best < 0) {
        ra_fatal(g, "no register left for the op", IR_NO_TEMP);
    }
    spill_reg(g, best);
    return best;
}

int ra_scratch(X86Gen *g, uint16_t allowed)
{
    int r = alloc_reg(g, allowed, 0);

    g->reg_owner[r] = X86_OWNER_SCRATCH;
    g->locked |= X86_REG_BIT(r);
    return r;
}

/* Move whatever owns @r elsewhere (another register or memory). */
static void vacate(X86Gen *g, int r)
{
    uint32_t t = g->reg_owner[r];

    if (!is_temp_owner(t)) {
        return;
    }
    if ((g->locked & X86_REG_BIT(r)) || g->temps[t].pinned) {
        ra_fatal(g, "register needed twice by one op", t);
    }
    uint16_t f = free_regs(g) & X86_ALLOCATABLE & ~g->locked & ~X86_REG_BIT(r);
    if (f && g->temps[t].next_use != X86_NEVER) {
        int n = first_in_order(f);
        x86_mov_rr(&g->e, n, r);
        g->reg_owner[n] = t;
        g->temps[t].reg = n;
        g->reg_owner[r] = X86_OWNER_FREE;
    } else {
        spill_reg(g, r);
    }
}

void ra_claim(X86Gen *g, int reg)
{
    vacate(g, reg);
    g->reg_owner[reg] = X86_OWNER_SCRATCH;
    g->locked |= X86_REG_BIT(reg);
}

static void load_into(X86Gen *g, IRTemp t, int r)
{
    X86Temp *ts = &g->temps[t];
    int32_t disp;
    int base;

    switch (ts->loc) {
    case X86_VAL_REG:
        x86_mov_rr(&g->e, r, ts->reg);
        break;
    case X86_VAL_MEM:
        base = temp_home(g, t, &disp);
        x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, r, base, disp);
        break;
    case X86_VAL_CONST:
        x86_movi(&g->e, r, (uint64_t)ts->cval);
        break;
    default:
        ra_fatal(g, "local temp read before it is written", t);
    }
}

/* @t's value now lives in @r (which it owns). */
static void bind(X86Gen *g, IRTemp t, int r)
{
    X86Temp *ts = &g->temps[t];

    if (ts->kind == IR_TEMP_CONST) {
        g->reg_owner[r] = X86_OWNER_SCRATCH;
    } else {
        if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == t) {
            g->reg_owner[ts->reg] = X86_OWNER_FREE;
        }
        if (ts->loc == X86_VAL_MEM) {
            ts->mem_coherent = true;
        }
        ts->loc = X86_VAL_REG;
        ts->reg = r;
        g->reg_owner[r] = t;
        ra_touch_global(g, t);
    }
    g->locked |= X86_REG_BIT(r);
}

int ra_load(X86Gen *g, IRTemp t, uint16_t allowed, uint16_t prefer)
{
    X86Temp *ts = &g->temps[t];
    int r;

    if (ts->loc == X86_VAL_REG) {
        r = ts->reg;
        if (allowed & X86_REG_BIT(r)) {
            g->locked |= X86_REG_BIT(r);
            return r;
        }
        /* Wrong register: copy (as scratch) when another operand holds the
         * original, else move. */
        int n = alloc_reg(g, allowed, prefer);
        x86_mov_rr(&g->e, n, r);
        if ((g->locked & X86_REG_BIT(r)) || ts->kind == IR_TEMP_FIXED || ts->pinned) {
            g->reg_owner[n] = X86_OWNER_SCRATCH;
            g->locked |= X86_REG_BIT(n);
        } else {
            g->reg_owner[r] = X86_OWNER_FREE;
            ts->reg = n;
            g->reg_owner[n] = t;
            g->locked |= X86_REG_BIT(n);
        }
        return n;
    }
    r = alloc_reg(g, allowed, prefer);
    load_into(g, t, r);
    bind(g, t, r);
    return r;
}

void ra_load_fixed(X86Gen *g, IRTemp t, int reg)
{
    X86Temp *ts = &g->temps[t];

    if (ts->loc == X86_VAL_REG && ts->reg == reg) {
        g->locked |= X86_REG_BIT(reg);
        return;
    }
    vacate(g, reg);
    if (ts->loc == X86_VAL_REG &&
        ((g->locked & X86_REG_BIT(ts->reg)) || ts->kind == IR_TEMP_FIXED || ts->pinned)) {
        x86_mov_rr(&g->e, reg, ts->reg);
        g->reg_owner[reg] = X86_OWNER_SCRATCH;
        g->locked |= X86_REG_BIT(reg);
        return;
    }
    load_into(g, t, reg);
    bind(g, t, reg);
}

void ra_copy_into(X86Gen *g, IRTemp t, int reg)
{
    load_into(g, t, reg);
}

bool ra_can_reuse(X86Gen *g, const IRInsn *insn, unsigned k, int reg)
{
    if (reg < 0 || reg == X86_ENV_REG || reg == X86_RSP) {
        return false;
    }
    if (g->reg_owner[reg] == X86_OWNER_SCRATCH) {
        return true;
    }
    return g->reg_owner[reg] == insn->args[k] && x86_arg_dies(g, insn, k);
}

void ra_discard(X86Gen *g, IRTemp t)
{
    if (t >= g->ntemps) {
        return;
    }
    X86Temp *ts = &g->temps[t];
    if (ts->pinned) {
        /* Stays in its register (nothing to drop). */
    } else if (ts->kind == IR_TEMP_GLOBAL) {
        /* The value is dead: drop a newer copy instead of writing it
         * back (env keeps an older value; nothing reads it). */
        if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == t) {
            g->reg_owner[ts->reg] = X86_OWNER_FREE;
        }
        ts->loc = X86_VAL_MEM;
        ts->mem_coherent = true;
    } else {
        temp_kill(g, t);
    }
    ts->next_use = X86_NEVER;
}

bool ra_is_const(X86Gen *g, IRTemp t, int64_t *v)
{
    if (g->temps[t].loc == X86_VAL_CONST) {
        *v = g->temps[t].cval;
        return true;
    }
    return false;
}

bool ra_const_s32(X86Gen *g, IRTemp t, int32_t *v)
{
    int64_t c;

    if (ra_is_const(g, t, &c) && x86_fits_s32(c)) {
        *v = (int32_t)c;
        return true;
    }
    return false;
}

int ra_out_reg(X86Gen *g, const IRInsn *insn, int in_k, int in_reg, uint16_t avoid)
{
    if (in_k >= 0 && in_reg >= 0 && !(avoid & X86_REG_BIT(in_reg)) &&
        ra_can_reuse(g, insn, insn->nout + (unsigned)in_k, in_reg)) {
        return in_reg;
    }
    /* The output's own register: its old value is being overwritten. */
    if (insn->nout) {
        X86Temp *ds = &g->temps[insn->args[0]];
        if (ds->loc == X86_VAL_REG && ds->kind != IR_TEMP_FIXED &&
            !(g->locked & X86_REG_BIT(ds->reg)) && !(avoid & X86_REG_BIT(ds->reg))) {
            g->locked |= X86_REG_BIT(ds->reg);
            return ds->reg;
        }
    }
    int r = alloc_reg(g, X86_ALLOCATABLE & ~avoid, 0);
    g->locked |= X86_REG_BIT(r);
    return r;
}

/* ------------------------------------------------------------------ */
/* Outputs and the end of an op                                        */
/* ------------------------------------------------------------------ */

void ra_set_output_reg(X86Gen *g, IRTemp t, int reg)
{
    X86Temp *ts = &g->temps[t];
    uint32_t owner = g->reg_owner[reg];

    if (ts->kind == IR_TEMP_FIXED || ts->kind == IR_TEMP_CONST) {
        ra_fatal(g, "write to the env temp or a constant", t);
    }
    if (ts->pinned) {
        if (reg != X86_PINNED_REG) {
            /* Computed elsewhere: into the pinned register; @reg is free
             * after the op. */
            x86_mov_rr(&g->e, X86_PINNED_REG, reg);
            if (is_temp_owner(owner) && owner != t) {
                temp_kill(g, owner);
            }
            g->reg_owner[reg] = X86_OWNER_SCRATCH;
            g->locked |= X86_REG_BIT(reg);
        }
        ts->mem_coherent = false;
        ra_touch_global(g, t);
        return;
    }
    if (ts->loc == X86_VAL_REG && ts->reg != reg && g->reg_owner[ts->reg] == t) {
        g->reg_owner[ts->reg] = X86_OWNER_FREE;
    }
    if (is_temp_owner(owner) && owner != t) {
        /* A dying input handed its register over. */
        temp_kill(g, owner);
    }
    g->reg_owner[reg] = t;
    g->locked |= X86_REG_BIT(reg);
    ts->loc = X86_VAL_REG;
    ts->reg = reg;
    ts->mem_coherent = false;
    ra_touch_global(g, t);
    track_local(g, t);
}

void ra_store_output(X86Gen *g, IRTemp t, int reg)
{
    X86Temp *ts = &g->temps[t];
    int32_t disp;
    int base;

    if (ts->kind != IR_TEMP_GLOBAL || ts->pinned) {
        ra_fatal(g, "direct store of a temp that is not a global", t);
    }
    base = temp_home(g, t, &disp);
    x86_st(&g->e, OPC_MOV_EvGv | X86_P_W, reg, base, disp);
    if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == t) {
        g->reg_owner[ts->reg] = X86_OWNER_FREE;
    }
    ts->loc = X86_VAL_MEM;
    ts->mem_coherent = true;
}

void ra_set_output_const(X86Gen *g, IRTemp t, uint64_t v)
{
    X86Temp *ts = &g->temps[t];

    if (ts->kind == IR_TEMP_FIXED || ts->kind == IR_TEMP_CONST) {
        ra_fatal(g, "write to the env temp or a constant", t);
    }
    if (ts->pinned) {
        x86_movi(&g->e, X86_PINNED_REG, v);
        ts->mem_coherent = false;
        ra_touch_global(g, t);
        return;
    }
    if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == t) {
        g->reg_owner[ts->reg] = X86_OWNER_FREE;
    }
    ts->loc = X86_VAL_CONST;
    ts->cval = (int64_t)v;
    ts->mem_coherent = false;
    ra_touch_global(g, t);
    track_local(g, t);
}

/* The pinned register from env (C code may have changed the field). */
static void reload_pinned(X86Gen *g)
{
    x86_ld(&g->e, OPC_MOV_GvEv | X86_P_W, X86_PINNED_REG, X86_ENV_REG,
           g->bs->pinned_env_offset);
    if (g->pinned_temp != IR_NO_TEMP) {
        g->temps[g->pinned_temp].mem_coherent = true;
    }
    g->pinned_reload = false;
}

void ra_end_op(X86Gen *g, const IRInsn *insn)
{
    const uint32_t *next = &g->next_after[(size_t)g->cur * IR_MAX_ARGS];

    for (unsigned k = insn->nout; k < (unsigned)insn->nout + insn->nin; k++) {
        IRTemp t = (IRTemp)insn->args[k];
        bool is_out = false;
        for (unsigned o = 0; o < insn->nout; o++) {
            is_out |= insn->args[o] == t;
        }
        if (is_out) {
            continue;
        }
        g->temps[t].next_use = next[k];
        if (x86_arg_dies(g, insn, k)) {
            temp_kill(g, t);
        }
    }
    for (unsigned k = 0; k < insn->nout; k++) {
        IRTemp t = (IRTemp)insn->args[k];
        g->temps[t].next_use = next[k];
        if (next[k] == X86_NEVER) {
            temp_kill(g, t);
        }
    }
    for (int r = 0; r < X86_NB_REGS; r++) {
        if (g->reg_owner[r] == X86_OWNER_SCRATCH) {
            g->reg_owner[r] = X86_OWNER_FREE;
        }
    }
    g->locked = 0;
    if (g->pinned_reload) {
        reload_pinned(g);
    }
}

bool ra_temp_live_after(X86Gen *g, const IRInsn *insn, IRTemp t)
{
    X86Temp *ts = &g->temps[t];
    bool is_in = false;

    if (ts->kind != IR_TEMP_LOCAL) {
        return true;
    }
    for (unsigned k = 0; k < insn->nout; k++) {
        if (insn->args[k] == t) {
            return false; /* the old value is overwritten here */
        }
    }
    for (unsigned k = insn->nout; k < (unsigned)insn->nout + insn->nin; k++) {
        if (insn->args[k] == t) {
            is_in = true;
            if (!x86_arg_dies(g, insn, k)) {
                return true;
            }
        }
    }
    return !is_in && ts->next_use != X86_NEVER;
}

/* ------------------------------------------------------------------ */
/* Globals and block boundaries                                        */
/* ------------------------------------------------------------------ */

void ra_sync_globals(X86Gen *g)
{
    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        if (g->temps[i].kind == IR_TEMP_GLOBAL) {
            ra_sync_temp(g, i);
        }
    }
}

void ra_sync_globals_at_boundary(X86Gen *g)
{
    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        if (g->temps[i].kind == IR_TEMP_GLOBAL && !g->temps[i].pinned) {
            ra_sync_temp(g, i);
        }
    }
}

void ra_drop_globals(X86Gen *g, uint16_t regs)
{
    if (g->pin_on && regs == X86_ALLOCATABLE) {
        reload_pinned(g);
    }
    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        X86Temp *ts = &g->temps[i];
        if (ts->kind != IR_TEMP_GLOBAL || ts->pinned) {
            continue;
        }
        if (ts->loc == X86_VAL_REG && (regs & X86_REG_BIT(ts->reg))) {
            ra_sync_temp(g, i);
            g->reg_owner[ts->reg] = X86_OWNER_FREE;
            ts->loc = X86_VAL_MEM;
        } else if (ts->loc == X86_VAL_CONST && regs == X86_ALLOCATABLE) {
            ra_sync_temp(g, i);
            ts->loc = X86_VAL_MEM;
        }
    }
}

void ra_env_access(X86Gen *g, int64_t off, unsigned size, bool is_store)
{
    if (g->pin_on && is_store && off < (int64_t)g->bs->pinned_env_offset + 8 &&
        (int64_t)g->bs->pinned_env_offset < off + (int64_t)size) {
        g->pinned_reload = true; /* after the store (ra_end_op) */
    }
    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        X86Temp *ts = &g->temps[i];
        if (ts->kind != IR_TEMP_GLOBAL || off >= (int64_t)ts->env_offset + 8 ||
            (int64_t)ts->env_offset >= off + (int64_t)size) {
            continue;
        }
        ra_sync_temp(g, i);
        if (ts->pinned) {
            continue;
        }
        if (is_store) {
            if (ts->loc == X86_VAL_REG) {
                if (g->locked & X86_REG_BIT(ts->reg)) {
                    /* The stored value itself: keep the register, it is
                     * the op's operand; memory becomes the home. */
                    g->reg_owner[ts->reg] = X86_OWNER_SCRATCH;
                } else {
                    g->reg_owner[ts->reg] = X86_OWNER_FREE;
                }
            }
            ts->loc = X86_VAL_MEM;
        }
    }
}

void ra_evict_call_clobbered(X86Gen *g, const IRInsn *insn)
{
    for (int r = 0; r < X86_NB_REGS; r++) {
        uint32_t t = g->reg_owner[r];
        if (!(X86_CALL_CLOBBERED & X86_REG_BIT(r)) || !is_temp_owner(t)) {
            continue;
        }
        X86Temp *ts = &g->temps[t];
        if (!ra_temp_live_after(g, insn, t)) {
            if (ts->kind == IR_TEMP_LOCAL) {
                g->reg_owner[r] = X86_OWNER_FREE;
                ts->loc = X86_VAL_DEAD;
            } else {
                spill_reg(g, r);
            }
            continue;
        }
        uint16_t f = free_regs(g) & CALLEE_SAVED_ALLOC & ~g->locked;
        if (ts->kind == IR_TEMP_LOCAL && f) {
            int n = first_in_order(f);
            x86_mov_rr(&g->e, n, r);
            g->reg_owner[n] = t;
            ts->reg = n;
            g->reg_owner[r] = X86_OWNER_FREE;
        } else {
            spill_reg(g, r);
        }
    }
}

void ra_at_label(X86Gen *g)
{
    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        X86Temp *ts = &g->temps[i];
        if (ts->pinned) {
            /* Other paths into the label may not have stored it. */
            ts->mem_coherent = false;
        } else if (ts->kind == IR_TEMP_GLOBAL) {
            ra_sync_temp(g, i);
            if (ts->loc == X86_VAL_REG && g->reg_owner[ts->reg] == i) {
                g->reg_owner[ts->reg] = X86_OWNER_FREE;
            }
            ts->loc = X86_VAL_MEM;
        }
    }
    /* Only locals defined since the last label can hold a value. */
    for (unsigned k = 0; k < g->nactive; k++) {
        IRTemp i = g->active[k];
        X86Temp *ts = &g->temps[i];
        if (ts->loc != X86_VAL_DEAD) {
            /* Uses before this op were in code that cannot run. */
            if (ts->next_use != X86_NEVER && ts->next_use > g->cur) {
                ra_fatal(g, "IR rule broken: local temp live across a label", i);
            }
            temp_kill(g, i);
        }
        ts->active = false;
    }
    g->nactive = 0;
}

uint32_t ra_record_dirty_globals(X86Gen *g, uint32_t *count, bool branch)
{
    uint32_t start = g->nsync;

    unsigned i;
    RA_FOR_EACH_TOUCHED_GLOBAL(g, i) {
        X86Temp *ts = &g->temps[i];
        if (ts->kind != IR_TEMP_GLOBAL || ts->mem_coherent || (branch && ts->pinned) ||
            (ts->loc != X86_VAL_REG && ts->loc != X86_VAL_CONST)) {
            continue;
        }
        if (!x86_grow((void **)&g->sync, &g->sync_cap, g->nsync + 1, sizeof(*g->sync))) {
            ra_fatal(g, "out of memory", i);
        }
        X86SyncEntry *s = &g->sync[g->nsync++];
        s->env_offset = ts->env_offset;
        s->reg = ts->loc == X86_VAL_REG ? ts->reg : X86_NO_REG;
        s->value = (uint64_t)ts->cval;
    }
    *count = g->nsync - start;
    return start;
}

uint16_t ra_live_clobbered(X86Gen *g, const IRInsn *insn)
{
    uint16_t m = 0;

    for (int r = 0; r < X86_NB_REGS; r++) {
        uint32_t t = g->reg_owner[r];
        if ((X86_CALL_CLOBBERED & X86_REG_BIT(r)) && is_temp_owner(t) &&
            ra_temp_live_after(g, insn, t)) {
            m |= X86_REG_BIT(r);
        }
    }
    return m;
}
