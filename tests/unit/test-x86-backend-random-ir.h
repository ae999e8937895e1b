/*
 * Random IR programs for differential tests (JIT vs interpreter, IR
 * before vs after the optimiser).
 *
 * A program is a valid TB body over the fixture's 16 globals: pure ops on
 * globals, locals and constants, guest loads/stores at aligned addresses
 * inside the fixture's mapped memory (so every engine takes the TLB fast
 * path), host loads/stores on env fields that alias globals, helper calls
 * with 0-8 arguments and every flag combination, forward conditional
 * branches, conditional exits, discards, and an exit at the end.  Locals
 * never live across a label (tcg/ir.h).  Everything is reproducible from
 * the fixture's random seed (every random choice is its own statement, so
 * the sequence does not depend on the compiler's argument order).
 *
 * Usage:
 *   random_program(&f, 80);      // fills f.ir
 *   run_interp(&f, it, &tb);     // or fixture_gen + fixture_run
 */
#ifndef LINX_TEST_X86_BACKEND_RANDOM_IR_H
#define LINX_TEST_X86_BACKEND_RANDOM_IR_H

#include <glib.h>

#include "tcg/interp.h"
#include "test-x86-backend-fixture.h"

#define RIR_MAX_POOL 512
#define RIR_MAX_OPEN_LABELS 8
#define RIR_GPR_BYTES (8 * NB_TEST_GLOBALS)

/* ---- Helpers the programs call (all state in their arguments/env). ---- */

static uint64_t rir_mix2(uint64_t a, uint64_t b)
{
    return (a * UINT64_C(0xbf58476d1ce4e5b9)) ^ (b + (a >> 29));
}

static uint64_t rir_sum8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f,
                         uint64_t g, uint64_t h)
{
    return a + 3 * b + 5 * c + 7 * d + 11 * e + 13 * f + 17 * g + 19 * h;
}

static uint64_t rir_env_rw(uint64_t env_p, uint64_t idx, uint64_t v)
{
    CPULinxState *env = (CPULinxState *)(uintptr_t)env_p;
    uint64_t old = env->gpr[idx % NB_TEST_GLOBALS];

    env->gpr[(idx >> 4) % NB_TEST_GLOBALS] = v ^ old;
    return old;
}

static uint64_t rir_env_read(uint64_t env_p, uint64_t idx)
{
    return ((CPULinxState *)(uintptr_t)env_p)->gpr[idx % NB_TEST_GLOBALS] * 3;
}

static void rir_env_poke(uint64_t env_p, uint64_t v)
{
    CPULinxState *env = (CPULinxState *)(uintptr_t)env_p;

    env->gpr[v % NB_TEST_GLOBALS] += v;
}

static uint64_t rir_zero_args(void)
{
    return UINT64_C(0x1234567890abcdef);
}

static const IRHelperInfo rir_helpers[] = {
    { "mix2", (void *)rir_mix2, 2, 1, IR_CALL_NO_RWG | IR_CALL_NO_SE, NULL },
    { "sum8", (void *)rir_sum8, 8, 1, IR_CALL_NO_RWG, NULL },
    { "env_rw", (void *)rir_env_rw, 3, 1, 0, NULL },
    { "env_read", (void *)rir_env_read, 2, 1, IR_CALL_NO_WG | IR_CALL_NO_SE, NULL },
    { "env_poke", (void *)rir_env_poke, 2, 0, 0, NULL },
    { "zero_args", (void *)rir_zero_args, 0, 1, IR_CALL_NO_RWG | IR_CALL_NO_SE, NULL },
};
#define RIR_NB_HELPERS (sizeof(rir_helpers) / sizeof(rir_helpers[0]))

typedef struct RandomIR {
    JitFixture *f;
    IRTemp pool[RIR_MAX_POOL]; /* locals written in the current extended block */
    unsigned npool;
    unsigned max_pool;         /* at most this many (<= RIR_MAX_POOL) */
    unsigned new_local_pct;    /* outputs that are new locals, in percent */
    bool straight;             /* no branches or labels (long-lived locals) */
    IRLabel open[RIR_MAX_OPEN_LABELS]; /* branched to, not yet set */
    unsigned nopen;
} RandomIR;

static IRTemp rir_const(RandomIR *r)
{
    return ir_const(r->f->ir, (int64_t)rng_interesting());
}

/* Any readable temp: a global, a live local, a constant, or env. */
static IRTemp rir_input(RandomIR *r)
{
    unsigned k = (unsigned)(rng64() % 10);

    if (k < (r->straight ? 8u : 4u) && r->npool) {
        return r->pool[rng64() % r->npool];
    }
    if (k < 7) {
        return r->f->g[rng64() % NB_TEST_GLOBALS];
    }
    return rir_const(r);
}

static IRTemp rir_output(RandomIR *r)
{
    unsigned k = (unsigned)(rng64() % 10);

    if (k < 2 && r->npool) {
        return r->pool[rng64() % r->npool];
    }
    if (rng64() % 100 >= r->new_local_pct || r->npool == r->max_pool) {
        return r->f->g[rng64() % NB_TEST_GLOBALS];
    }
    IRTemp t = ir_temp(r->f->ir);
    r->pool[r->npool++] = t;
    return t;
}

static void rir_label_set(RandomIR *r, unsigned k)
{
    ir_gen_set_label(r->f->ir, r->open[k]);
    r->open[k] = r->open[--r->nopen];
    r->npool = 0; /* locals die at labels */
}

/* A guest address for an access of 2^s bytes inside the mapped memory. */
static IRTemp rir_guest_addr(RandomIR *r, unsigned s)
{
    IRContext *ir = r->f->ir;
    IRTemp a = ir_temp(ir);

    ir_gen_andi(ir, a, rir_input(r), (int64_t)((GUEST_BYTES - 1) & ~((1u << s) - 1)));
    ir_gen_addi(ir, a, a, (int64_t)GUEST_BASE);
    return a;
}

static void rir_pure(RandomIR *r)
{
    unsigned k = (unsigned)(rng64() % NB_PURE_OPS);
    IRTemp in[4];
    IRCond c = (IRCond)(rng64() % (IR_COND_TSTNE + 1));

    for (unsigned i = 0; i < pure_ops[k].nin; i++) {
        in[i] = rir_input(r);
    }
    emit_pure(r->f->ir, pure_ops[k].op, c, rir_output(r), in, pure_ops[k].nin);
}

static void rir_call(RandomIR *r)
{
    const IRHelperInfo *h = &rir_helpers[rng64() % RIR_NB_HELPERS];
    IRTemp args[IR_MAX_HELPER_ARGS];

    for (unsigned i = 0; i < h->nargs; i++) {
        args[i] = rir_input(r);
    }
    if (h->func == (void *)rir_env_rw || h->func == (void *)rir_env_read ||
        h->func == (void *)rir_env_poke) {
        args[0] = r->f->ir->env;
    }
    ir_gen_call(r->f->ir, h, h->has_ret ? rir_output(r) : IR_NO_TEMP, h->nargs, args);
}

static void rir_env_access(RandomIR *r)
{
    static const IROpcode lds[] = { IR_ld8u, IR_ld8s, IR_ld16u, IR_ld16s,
                                    IR_ld32u, IR_ld32s, IR_ld64 };
    static const unsigned ld_size[] = { 1, 1, 2, 2, 4, 4, 8 };
    static const IROpcode sts[] = { IR_st8, IR_st16, IR_st32, IR_st64 };
    IRContext *ir = r->f->ir;
    int base = (int)offsetof(CPULinxState, gpr[0]);

    if (rng64() & 1) {
        unsigned k = (unsigned)(rng64() % 7);
        int off = (int)(rng64() % (RIR_GPR_BYTES - ld_size[k] + 1));
        ir_gen_ld(ir, lds[k], rir_output(r), ir->env, base + off);
    } else {
        unsigned k = (unsigned)(rng64() % 4);
        int off = (int)(rng64() % (RIR_GPR_BYTES - (1u << k) + 1));
        ir_gen_st(ir, sts[k], rir_input(r), ir->env, base + off);
    }
}

static void rir_step(RandomIR *r)
{
    IRContext *ir = r->f->ir;
    unsigned k = (unsigned)(rng64() % 100);

    if (r->straight && k >= 69 && k < 81) {
        k = 0; /* a pure op instead of control flow */
    }
    if (k < 45) {
        rir_pure(r);
    } else if (k < 52) {
        unsigned s = (unsigned)(rng64() % 4);
        unsigned memop = s | (unsigned)(rng64() & IR_MO_SIGN);
        memop |= (rng64() & 1) ? IR_MO_ALIGN : 0;
        IRTemp a = rir_guest_addr(r, s);
        uint64_t pc = rng64() & 0xffff;
        ir_gen_qemu_ld(ir, rir_output(r), a, memop, pc);
    } else if (k < 58) {
        unsigned s = (unsigned)(rng64() % 4);
        IRTemp a = rir_guest_addr(r, s);
        uint64_t pc = rng64() & 0xffff;
        ir_gen_qemu_st(ir, rir_input(r), a, s | IR_MO_ALIGN, pc);
    } else if (k < 63) {
        rir_env_access(r);
    } else if (k < 69) {
        rir_call(r);
    } else if (k < 75 && r->nopen < RIR_MAX_OPEN_LABELS) {
        IRLabel l = ir_label(ir);
        IRCond c = (IRCond)(rng64() % (IR_COND_TSTNE + 1));
        IRTemp a = rir_input(r), b = rir_input(r);
        r->open[r->nopen++] = l;
        ir_gen_brcond(ir, c, a, b, l);
    } else if (k < 79 && r->nopen) {
        rir_label_set(r, (unsigned)(rng64() % r->nopen));
    } else if (k < 81) {
        /* if (cond) exit */
        IRLabel skip = ir_label(ir);
        IRCond c = (IRCond)(rng64() % (IR_COND_TSTNE + 1));
        IRTemp a = rir_input(r), b = rir_input(r);
        ir_gen_brcond(ir, c, a, b, skip);
        ir_gen_exit_tb(ir, rng64() & 0xfff0);
        ir_gen_set_label(ir, skip);
        r->npool = 0;
    } else if (k < 83 && r->npool) {
        unsigned i = (unsigned)(rng64() % r->npool);
        uint64_t args[1] = { r->pool[i] };
        ir_emit(ir, IR_discard, args);
        r->pool[i] = r->pool[--r->npool];
    } else if (k < 90) {
        /* The input first: a new output local must not be read. */
        IRTemp src = rir_input(r);
        ir_gen_mov(ir, rir_output(r), src);
    } else {
        int64_t v = (int64_t)rng_interesting();
        ir_gen_movi(ir, rir_output(r), v);
    }
}

/* Fill f->ir with a random program of about @nops steps, keeping up to
 * @max_pool locals live at once (@straight: no branches, so they live
 * long: register pressure, spills, frames larger than the static one). */
static void random_program_ex(JitFixture *f, unsigned nops, unsigned max_pool,
                              unsigned new_local_pct, bool straight)
{
    RandomIR r = { .f = f, .max_pool = max_pool, .new_local_pct = new_local_pct,
                   .straight = straight };

    ir_reset(f->ir);
    for (unsigned i = 0; i < nops; i++) {
        if (rng64() % 8 == 0) {
            ir_gen_insn_start(f->ir, GUEST_BASE + 4 * i, i);
        }
        rir_step(&r);
    }
    while (r.nopen) {
        rir_label_set(&r, 0);
    }
    if (rng64() & 1) {
        ir_gen_goto_tb(f->ir, 0);
        ir_gen_exit_tb(f->ir, 0x7770);
    } else {
        ir_gen_exit_tb(f->ir, rng64() & 0xfff0);
    }
}

static inline void random_program(JitFixture *f, unsigned nops)
{
    random_program_ex(f, nops, 64, 60, false);
}

/* Machine state a program can change. */
typedef struct RIRState {
    uint64_t gpr[NB_TEST_GLOBALS];
    uint8_t mem[GUEST_BYTES];
    uintptr_t ret;
} RIRState;

static void rir_randomize(JitFixture *f)
{
    for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
        f->env->gpr[i] = rng_interesting();
    }
    for (unsigned i = 0; i < GUEST_BYTES; i += 8) {
        uint64_t v = rng64();
        memcpy(f->mem + i, &v, 8);
    }
}

static void rir_save(const JitFixture *f, RIRState *s, uintptr_t ret)
{
    memcpy(s->gpr, f->env->gpr, sizeof(s->gpr));
    memcpy(s->mem, f->mem, GUEST_BYTES);
    s->ret = ret;
}

static void rir_load(JitFixture *f, const RIRState *s)
{
    memcpy(f->env->gpr, s->gpr, sizeof(s->gpr));
    memcpy(f->mem, s->mem, GUEST_BYTES);
}

static void rir_expect_same(const RIRState *want, const RIRState *got, const char *what,
                            unsigned seed)
{
    if (want->ret != got->ret) {
        fail_msg("%s (program %u): exit value %#lx, expected %#lx", what, seed,
                 (unsigned long)got->ret, (unsigned long)want->ret);
    }
    for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
        if (want->gpr[i] != got->gpr[i]) {
            fail_msg("%s (program %u): g%u = %#llx, expected %#llx", what, seed, i,
                     (unsigned long long)got->gpr[i], (unsigned long long)want->gpr[i]);
        }
    }
    if (memcmp(want->mem, got->mem, GUEST_BYTES) != 0) {
        fail_msg("%s (program %u): guest memory differs", what, seed);
    }
}

/* Run f->ir (copied into a TB, as the exec loop keeps it) in the
 * interpreter; returns the exit value. */
static uintptr_t run_interp(JitFixture *f, LinxInterp *it)
{
    TranslationBlock tb = { 0 };
    uintptr_t r;

    tb.pc = GUEST_BASE;
    tb.ir = g_memdup2(f->ir->insns, f->ir->ninsns * sizeof(IRInsn));
    tb.nir = f->ir->ninsns;
    tb.temps = g_memdup2(f->ir->temps, f->ir->ntemps * sizeof(IRTempInfo));
    tb.ntemps = f->ir->ntemps;
    r = interp_run_tb(it, f->env, &tb);
    interp_tb_release(&tb);
    g_free(tb.ir);
    g_free(tb.temps);
    return r;
}

#endif /* LINX_TEST_X86_BACKEND_RANDOM_IR_H */
