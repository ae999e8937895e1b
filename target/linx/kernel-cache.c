/*
 * The lane-state cache of the kernel-body translator (kernel-internal.h).
 *
 * Lane state - vt vu vm vn (vector queues), t u (scalar hands), p - is
 * tracked per entry as a constant, an IR local or a word of the lane
 * record (env->kern.lane, or env->kern.lanes_ptr[lc0] in bodies with phases).
 * A push is a rename: entries move down, the new value becomes #1, the old
 * #4 drops (the ring of docs/decisions.md D7).  Nothing is stored until a
 * label forces the record to be canonical (kc_flush): then each entry #e
 * is written to word e of its queue, values that moved since they were
 * loaded being loaded first.  So a straight-line body keeps its whole lane
 * state in host registers, and a lane starts with no code at all.
 */
#include <stddef.h>

#include "kernel-internal.h"

#define KLANE_OFF ((int32_t)offsetof(CPULinxState, kern.lane))
#define KLANES_PTR_OFF ((int32_t)offsetof(CPULinxState, kern.lanes_ptr))

unsigned kc_word(unsigned q, unsigned e)
{
    if (q >= LINX_KQUEUES) {
        return LINX_KLANE_P;
    }
    if (q >= LINX_KQ_T) {
        return LINX_KLANE_SQ + (q - LINX_KQ_T) * LINX_KQUEUE_DEPTH + e;
    }
    return LINX_KLANE_VQ + q * LINX_KQUEUE_DEPTH + e;
}

static void loc_const(KLoc *l, int64_t v)
{
    l->kind = KL_CONST;
    l->value = v;
    l->mem_slot = -1;
    l->temp = IR_NO_TEMP;
}

static void loc_mem(KLoc *l, int slot)
{
    l->kind = KL_MEM;
    l->mem_slot = (int8_t)slot;
    l->temp = IR_NO_TEMP;
}

static void loc_temp(KLoc *l, IRTemp t, int slot)
{
    l->kind = KL_TEMP;
    l->temp = t;
    l->mem_slot = (int8_t)slot;
}

void kc_init_lane(KCtx *k)
{
    for (unsigned q = 0; q < LINX_KQUEUES; q++) {
        for (unsigned e = 0; e < LINX_KQUEUE_DEPTH; e++) {
            loc_const(&k->q[q][e], 0);
        }
    }
    loc_const(&k->p, 1);
    k->base = IR_NO_TEMP;
}

void kc_init_mem(KCtx *k)
{
    for (unsigned q = 0; q < LINX_KQUEUES; q++) {
        for (unsigned e = 0; e < LINX_KQUEUE_DEPTH; e++) {
            loc_mem(&k->q[q][e], (int)e);
        }
    }
    loc_mem(&k->p, 0);
    k->base = IR_NO_TEMP;
}

/* Base temp and offset of record word @w. */
static IRTemp record_addr(KCtx *k, unsigned w, int32_t *off)
{
    IRContext *ir = k->ir;

    if (!k->xlane) {
        *off = KLANE_OFF + 8 * (int32_t)w;
        return ir->env;
    }
    if (k->base == IR_NO_TEMP) {
        /* &env->kern.lanes_ptr[lc0] */
        IRTemp t = ir_temp(ir);
        k->base = ir_temp(ir);
        ir_gen_ld(ir, IR_ld64, t, ir->env, KLANES_PTR_OFF);
        ir_gen_shli(ir, k->base, cpu_field(k->ctx, lc[0]), LINX_KLANE_SHIFT);
        ir_gen_add(ir, k->base, k->base, t);
    }
    *off = 8 * (int32_t)w;
    return k->base;
}

static void load_word(KCtx *k, IRTemp t, unsigned w)
{
    int32_t off;
    IRTemp b = record_addr(k, w, &off);

    ir_gen_ld(k->ir, IR_ld64, t, b, off);
}

static void store_word(KCtx *k, IRTemp v, unsigned w)
{
    int32_t off;
    IRTemp b = record_addr(k, w, &off);

    ir_gen_st(k->ir, IR_st64, v, b, off);
}

/* The value of @l (queue @q: its record words), loading it if needed. */
static IRTemp loc_value(KCtx *k, KLoc *l, unsigned q)
{
    IRTemp t;

    switch (l->kind) {
    case KL_CONST:
        return ir_const(k->ir, l->value);
    case KL_TEMP:
        return l->temp;
    default:
        t = ir_temp(k->ir);
        load_word(k, t, kc_word(q, (unsigned)l->mem_slot));
        loc_temp(l, t, l->mem_slot);
        return t;
    }
}

IRTemp kc_read(KCtx *k, unsigned q, unsigned kidx)
{
    return loc_value(k, &k->q[q][(kidx - 1) & (LINX_KQUEUE_DEPTH - 1)], q);
}

void kc_push(KCtx *k, unsigned q, IRTemp v)
{
    KLoc *e = k->q[q];

    for (unsigned i = LINX_KQUEUE_DEPTH - 1; i > 0; i--) {
        e[i] = e[i - 1];
    }
    if (kir_is_const(k->ir, v)) {
        loc_const(&e[0], kir_const_value(k->ir, v));
    } else {
        /* A private copy: @v may be a global or be written again. */
        IRTemp t = ir_temp(k->ir);
        ir_gen_mov(k->ir, t, v);
        loc_temp(&e[0], t, -1);
    }
}

IRTemp kc_read_p(KCtx *k)
{
    return loc_value(k, &k->p, LINX_KQUEUES);
}

void kc_write_p(KCtx *k, IRTemp v)
{
    if (kir_is_const(k->ir, v)) {
        loc_const(&k->p, kir_const_value(k->ir, v));
    } else {
        IRTemp t = ir_temp(k->ir);
        ir_gen_mov(k->ir, t, v);
        loc_temp(&k->p, t, -1);
    }
}

bool kc_p_active(const KCtx *k)
{
    return k->p.kind == KL_CONST && k->p.value != 0;
}

/* Does entry @l (queue @q, position @e) need a store to be canonical? */
static bool needs_store(const KLoc *l, unsigned e)
{
    return !((l->kind == KL_MEM || l->kind == KL_TEMP) && l->mem_slot == (int)e);
}

void kc_flush(KCtx *k, bool keep)
{
    KLoc *all[LINX_KQUEUES * LINX_KQUEUE_DEPTH + 1];
    unsigned pos[LINX_KQUEUES * LINX_KQUEUE_DEPTH + 1], words[LINX_KQUEUES * LINX_KQUEUE_DEPTH + 1];
    unsigned n = 0;

    for (unsigned q = 0; q <= LINX_KQUEUES; q++) {
        for (unsigned e = 0; e < (q < LINX_KQUEUES ? (unsigned)LINX_KQUEUE_DEPTH : 1u); e++) {
            KLoc *l = q < LINX_KQUEUES ? &k->q[q][e] : &k->p;
            if (needs_store(l, e)) {
                all[n] = l;
                pos[n] = q;
                words[n] = kc_word(q, e);
                n++;
            }
        }
    }
    /* Loads of moved record words first: the stores may overwrite them. */
    for (unsigned i = 0; i < n; i++) {
        if (all[i]->kind == KL_MEM) {
            loc_value(k, all[i], pos[i]);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        IRTemp v = all[i]->kind == KL_CONST ? ir_const(k->ir, all[i]->value) : all[i]->temp;
        store_word(k, v, words[i]);
    }
    if (keep) {
        for (unsigned q = 0; q <= LINX_KQUEUES; q++) {
            for (unsigned e = 0; e < (q < LINX_KQUEUES ? (unsigned)LINX_KQUEUE_DEPTH : 1u); e++) {
                KLoc *l = q < LINX_KQUEUES ? &k->q[q][e] : &k->p;
                if (l->kind == KL_TEMP) {
                    l->mem_slot = (int8_t)e;
                } else if (l->kind == KL_CONST) {
                    /* stays a constant; the record holds it too */
                } else {
                    loc_mem(l, (int)e);
                }
            }
        }
        /* Constants keep no record slot; the next flush stores them
         * again (cheap, and rare: only around predicated accesses). */
    } else {
        kc_init_mem(k);
    }
}

void kc_count(KCtx *k)
{
    IRTemp c = cpu_field(k->ctx, insn_count);

    if (k->count) {
        ir_gen_addi(k->ir, c, c, k->count);
        k->count = 0;
    }
}
