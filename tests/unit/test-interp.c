/*
 * Interpreter tests: the value of every op on edge cases (hand-computed
 * expectations), conditions, labels and loops, host and guest memory
 * (TLB hits, fills, sign extension, page-crossing and MMIO slow paths),
 * libffi helper calls with 0..8 arguments in order, chaining through
 * goto_tb and goto_ptr, and exit_request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "tcg/interp.h"
#include "tcg/softmmu.h"

typedef struct Fixture {
    IRContext *ir;
    LinxInterp *it;
    CPULinxState *env;
    IRTemp g[4]; /* gpr[1..4] */
} Fixture;

static int setup(void **state)
{
    Fixture *f = g_new0(Fixture, 1);

    f->ir = ir_context_new();
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof(name), "r%d", i + 1);
        f->g[i] = ir_global(f->ir, (int)offsetof(CPULinxState, gpr[i + 1]), name);
    }
    f->it = interp_new(f->ir);
    f->env = g_new0(CPULinxState, 1);
    linx_tlb_flush(f->env);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    if (f->env->engine.mem) {
        guest_mem_free(f->env->engine.mem);
    }
    interp_free(f->it);
    ir_context_free(f->ir);
    g_free(f->env);
    g_free(f);
    return 0;
}

static TranslationBlock *make_tb(IRContext *ir)
{
    TranslationBlock *tb = g_new0(TranslationBlock, 1);

    assert_true(ir_validate(ir, stderr));
    tb->ir = g_memdup2(ir->insns, ir->ninsns * sizeof(IRInsn));
    tb->nir = ir->ninsns;
    tb->temps = g_memdup2(ir->temps, ir->ntemps * sizeof(IRTempInfo));
    tb->ntemps = ir->ntemps;
    return tb;
}

static void free_tb(TranslationBlock *tb)
{
    interp_tb_release(tb);
    g_free(tb->ir);
    g_free(tb->temps);
    g_free(tb);
}

static uintptr_t run_ir(Fixture *f)
{
    TranslationBlock *tb = make_tb(f->ir);
    uintptr_t r = interp_run_tb(f->it, f->env, tb);

    free_tb(tb);
    return r;
}

/* r1 = op(a[, b]) */
static uint64_t run_op(Fixture *f, IROpcode op, uint64_t a, uint64_t b)
{
    IRContext *ir = f->ir;

    ir_reset(ir);
    if (ir_op_info[op].nin == 1) {
        ir_gen_op2(ir, op, f->g[0], ir_const(ir, (int64_t)a));
    } else {
        ir_gen_op3(ir, op, f->g[0], ir_const(ir, (int64_t)a), ir_const(ir, (int64_t)b));
    }
    ir_gen_exit_tb(ir, 0);
    f->env->gpr[1] = 0xdeadbeef;
    assert_int_equal(run_ir(f), 0);
    return f->env->gpr[1];
}

typedef struct OpVector {
    IROpcode op;
    uint64_t a, b, want;
} OpVector;

#define M1 UINT64_MAX
#define MIN64 UINT64_C(0x8000000000000000)

static const OpVector op_vectors[] = {
    { IR_add, M1, 2, 1 },
    { IR_sub, 0, 1, M1 },
    { IR_mul, 0x100000001ull, 0x100000001ull, 0x200000001ull },
    { IR_mul, M1, M1, 1 },
    { IR_mulsh, M1, M1, 0 },
    { IR_mulsh, MIN64, 2, M1 },
    { IR_mulsh, UINT64_C(1) << 62, 4, 1 },
    { IR_muluh, M1, M1, M1 - 1 },
    { IR_muluh, MIN64, 2, 1 },
    { IR_neg, 1, 0, M1 },
    { IR_neg, MIN64, 0, MIN64 },
    { IR_and, 0xff00ff, 0x0ff0f0, 0x0f00f0 },
    { IR_or, 0xf0, 0x0f, 0xff },
    { IR_xor, 0xff, 0x0f, 0xf0 },
    { IR_andc, 0xff, 0x0f, 0xf0 },
    { IR_not, 0, 0, M1 },
    { IR_shl, 1, 65, 2 },
    { IR_shl, 1, 63, MIN64 },
    { IR_shr, MIN64, 63, 1 },
    { IR_shr, M1, 64, M1 },
    { IR_sar, MIN64, 63, M1 },
    { IR_sar, 0x40, 2, 0x10 },
    { IR_rotr, 1, 1, MIN64 },
    { IR_rotr, 0x1234, 0, 0x1234 },
    { IR_rotr, 0x1234, 64, 0x1234 },
    { IR_rotr, 0xf, 4, UINT64_C(0xf000000000000000) },
    { IR_clz, 0, 0, 64 },
    { IR_clz, 1, 0, 63 },
    { IR_clz, MIN64, 0, 0 },
    { IR_ctz, 0, 0, 64 },
    { IR_ctz, 0x100, 0, 8 },
    { IR_ctpop, 0xf0f0, 0, 8 },
    { IR_ctpop, M1, 0, 64 },
    { IR_bswap64, 0x0102030405060708ull, 0, 0x0807060504030201ull },
    { IR_ext8s, 0x80, 0, UINT64_C(0xffffffffffffff80) },
    { IR_ext8u, 0x1ff, 0, 0xff },
    { IR_ext16s, 0x18000, 0, UINT64_C(0xffffffffffff8000) },
    { IR_ext16u, 0x1ffff, 0, 0xffff },
    { IR_ext32s, 0x80000000ull, 0, UINT64_C(0xffffffff80000000) },
    { IR_ext32s, 0x17fffffffull, 0, 0x7fffffff },
    { IR_ext32u, 0x1ffffffffull, 0, 0xffffffff },
    { IR_mov, 42, 0, 42 },
};

static void test_alu_ops(void **state)
{
    Fixture *f = *state;

    for (size_t i = 0; i < sizeof(op_vectors) / sizeof(op_vectors[0]); i++) {
        const OpVector *v = &op_vectors[i];
        uint64_t got = run_op(f, v->op, v->a, v->b);
        if (got != v->want) {
            fail_msg("%s(0x%llx, 0x%llx) = 0x%llx, want 0x%llx", ir_op_info[v->op].name,
                     (unsigned long long)v->a, (unsigned long long)v->b,
                     (unsigned long long)got, (unsigned long long)v->want);
        }
    }
}

static void test_movi(void **state)
{
    Fixture *f = *state;

    ir_reset(f->ir);
    ir_gen_movi(f->ir, f->g[0], -7);
    ir_gen_exit_tb(f->ir, 0);
    run_ir(f);
    assert_int_equal(f->env->gpr[1], (uint64_t)-7);
}

/* Every condition on pairs that tell signed from unsigned. */
static void test_conditions(void **state)
{
    Fixture *f = *state;
    /* Expected values computed by hand for (a, b):
     *   (-1, 1): eq0 ne1 lt1 ge0 le1 gt0 ltu0 geu1 leu0 gtu1 tsteq0 tstne1
     *   (1, 1):  eq1 ne0 lt0 ge1 le1 gt0 ltu0 geu1 leu1 gtu0 tsteq0 tstne1
     *   (2, 1):  eq0 ne1 lt0 ge1 le0 gt1 ltu0 geu1 leu0 gtu1 tsteq1 tstne0 */
    static const struct {
        uint64_t a, b;
        uint8_t want[IR_NB_CONDS];
    } cases[] = {
        { M1, 1, { 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1 } },
        { 1, 1, { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 } },
        { 2, 1, { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0 } },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (unsigned c = 0; c < IR_NB_CONDS; c++) {
            IRContext *ir = f->ir;
            IRTemp a, b;
            IRLabel l;

            ir_reset(ir);
            a = ir_const(ir, (int64_t)cases[i].a);
            b = ir_const(ir, (int64_t)cases[i].b);
            ir_gen_setcond(ir, (IRCond)c, f->g[0], a, b);
            ir_gen_movcond(ir, (IRCond)c, f->g[1], a, b, ir_const(ir, 11), ir_const(ir, 22));
            l = ir_label(ir);
            ir_gen_movi(ir, f->g[2], 0);
            ir_gen_brcond(ir, (IRCond)c, a, b, l);
            ir_gen_exit_tb(ir, 0);
            ir_gen_set_label(ir, l);
            ir_gen_movi(ir, f->g[2], 1);
            ir_gen_exit_tb(ir, 0);
            run_ir(f);
            if (f->env->gpr[1] != cases[i].want[c] ||
                f->env->gpr[2] != (cases[i].want[c] ? 11u : 22u) ||
                f->env->gpr[3] != cases[i].want[c]) {
                fail_msg("cond %s on (0x%llx, 0x%llx): setcond %llu movcond %llu brcond %llu",
                         ir_cond_name(c), (unsigned long long)cases[i].a,
                         (unsigned long long)cases[i].b, (unsigned long long)f->env->gpr[1],
                         (unsigned long long)f->env->gpr[2], (unsigned long long)f->env->gpr[3]);
            }
        }
    }
}

/* sum 1..100 with a backward branch (state in globals across labels). */
static void test_loop(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    IRLabel top, done;
    uintptr_t r;

    ir_reset(ir);
    top = ir_label(ir);
    done = ir_label(ir);
    ir_gen_movi(ir, f->g[0], 0);   /* sum */
    ir_gen_movi(ir, f->g[1], 100); /* i */
    ir_gen_set_label(ir, top);
    ir_gen_brcond(ir, IR_COND_EQ, f->g[1], ir_const(ir, 0), done);
    ir_gen_add(ir, f->g[0], f->g[0], f->g[1]);
    ir_gen_addi(ir, f->g[1], f->g[1], -1);
    ir_gen_br(ir, top);
    ir_gen_set_label(ir, done);
    ir_gen_exit_tb(ir, 0x40);
    r = run_ir(f);
    assert_int_equal(r, 0x40);
    assert_int_equal(f->env->gpr[1], 5050);
}

static void test_host_memory(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    uint8_t buf[32];
    IRTemp p;

    memset(buf, 0, sizeof(buf));
    buf[3] = 0x80;
    buf[4] = 0xfe;
    buf[5] = 0xff;
    ir_reset(ir);
    p = ir_const(ir, (int64_t)(uintptr_t)(buf + 8));
    ir_gen_ld(ir, IR_ld8s, f->g[0], p, -5);
    ir_gen_ld(ir, IR_ld16s, f->g[1], p, -4); /* unaligned: 0xfffe */
    ir_gen_ld(ir, IR_ld16u, f->g[2], p, -4);
    ir_gen_st(ir, IR_st32, ir_const(ir, 0x11223344), p, 1);
    ir_gen_st(ir, IR_st64, ir_const(ir, -1), p, 8);
    ir_gen_st(ir, IR_st8, ir_const(ir, 0x1ab), p, 16);
    ir_gen_ld(ir, IR_ld32u, f->g[3], p, 1);
    ir_gen_exit_tb(ir, 0);
    run_ir(f);
    assert_int_equal(f->env->gpr[1], UINT64_C(0xffffffffffffff80));
    assert_int_equal(f->env->gpr[2], UINT64_C(0xfffffffffffffffe));
    assert_int_equal(f->env->gpr[3], 0xfffe);
    assert_int_equal(f->env->gpr[4], 0x11223344);
    assert_int_equal(buf[16], 0xff);
    assert_int_equal(buf[23], 0xff);
    assert_int_equal(buf[24], 0xab);
    assert_int_equal(buf[25], 0);

    /* The env temp reads as the CPU-state pointer. */
    ir_reset(ir);
    ir_gen_ld(ir, IR_ld64, f->g[0], ir->env, (int32_t)offsetof(CPULinxState, gpr[4]));
    ir_gen_exit_tb(ir, 0);
    f->env->gpr[4] = 0x5555;
    run_ir(f);
    assert_int_equal(f->env->gpr[1], 0x5555);
}

typedef struct Dev {
    uint64_t last_off, value;
    unsigned size, reads, writes;
} Dev;

static bool dev_read(void *opaque, uint64_t off, unsigned size, uint64_t *v)
{
    Dev *d = opaque;

    d->reads++;
    d->last_off = off;
    d->size = size;
    *v = d->value;
    return true;
}

static bool dev_write(void *opaque, uint64_t off, unsigned size, uint64_t v)
{
    Dev *d = opaque;

    d->writes++;
    d->last_off = off;
    d->size = size;
    d->value = v;
    return true;
}

static const GuestMMIOOps dev_ops = { dev_read, dev_write };

static void test_guest_memory(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    const uint64_t base = 0x40000;
    uint8_t bytes[16];
    uint64_t v = 0;
    Dev dev = { .value = 0x8899aabbccddeeffull };

    f->env->engine.mem = gm;
    assert_true(guest_mem_map(gm, base, 2 * GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map_mmio(gm, 0x90000, GUEST_PAGE_SIZE, &dev_ops, &dev));
    for (int i = 0; i < 16; i++) {
        bytes[i] = (uint8_t)(0xf0 + i);
    }
    assert_int_equal(guest_mem_write(gm, base + GUEST_PAGE_SIZE - 8, bytes, 16, NULL), GM_OK);

    ir_reset(ir);
    /* Aligned loads with sign/zero extension (first one fills the TLB). */
    ir_gen_qemu_ld(ir, f->g[0], ir_const(ir, base + GUEST_PAGE_SIZE - 8),
                   IR_MO_32 | IR_MO_SIGN | IR_MO_ALIGN, 0x100);
    ir_gen_qemu_ld(ir, f->g[1], ir_const(ir, base + GUEST_PAGE_SIZE - 8), IR_MO_16 | IR_MO_ALIGN,
                   0x100);
    /* Unaligned 8-byte load crossing into the next page (slow path). */
    ir_gen_qemu_ld(ir, f->g[2], ir_const(ir, base + GUEST_PAGE_SIZE - 3), IR_MO_64, 0x104);
    /* A store, then MMIO. */
    ir_gen_qemu_st(ir, ir_const(ir, 0x1122334455667788), ir_const(ir, base + 16),
                   IR_MO_64 | IR_MO_ALIGN, 0x108);
    ir_gen_qemu_ld(ir, f->g[3], ir_const(ir, 0x90010), IR_MO_32 | IR_MO_ALIGN, 0x10c);
    ir_gen_qemu_st(ir, ir_const(ir, 0x77), ir_const(ir, 0x90008), IR_MO_8, 0x110);
    ir_gen_exit_tb(ir, 0);
    run_ir(f);
    assert_int_equal(f->env->gpr[1], UINT64_C(0xfffffffff3f2f1f0));
    assert_int_equal(f->env->gpr[2], 0xf1f0);
    assert_int_equal(f->env->gpr[3], UINT64_C(0xfcfbfaf9f8f7f6f5));
    assert_int_equal(guest_mem_read(gm, base + 16, &v, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x1122334455667788);
    assert_int_equal(f->env->gpr[4], 0x8899aabbccddeeffull & 0xffffffff);
    assert_int_equal(dev.reads, 1);
    assert_int_equal(dev.writes, 1);
    assert_int_equal(dev.last_off, 8);
    assert_int_equal(dev.size, 1);
    assert_int_equal(dev.value, 0x77);
    /* The TLB now caches the RAM page (fast path on the next access). */
    assert_int_equal(linx_tlb_entry(f->env, base)->addr_read, base);
    assert_int_equal(linx_tlb_entry(f->env, 0x90000)->addr_read, 0x90000 | TLB_MMIO);
}

/* ---- helpers through libffi ---- */

static uint64_t h0(void)
{
    return 1000;
}

static uint64_t h8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f,
                   uint64_t g, uint64_t h)
{
    return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f + 1000000 * g +
           10000000 * h;
}

static uint64_t h_env_r2(uint64_t envp)
{
    /* Helpers see globals as the IR left them. */
    return ((CPULinxState *)(uintptr_t)envp)->gpr[2] * 2;
}

static void h_set_r4(uint64_t envp, uint64_t v)
{
    ((CPULinxState *)(uintptr_t)envp)->gpr[4] = v;
}

static const IRHelperInfo info_h0 = { "h0", (void *)h0, 0, 1, IR_CALL_NO_RWG, NULL };
static const IRHelperInfo info_h8 = { "h8", (void *)h8, 8, 1, IR_CALL_NO_RWG, NULL };
static const IRHelperInfo info_env_r2 = { "env_r2", (void *)h_env_r2, 1, 1, IR_CALL_NO_WG, NULL };
static const IRHelperInfo info_set_r4 = { "set_r4", (void *)h_set_r4, 2, 0, 0, NULL };

static void test_helper_calls(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    IRTemp a[8], two[2];
    InterpStats st;

    ir_reset(ir);
    ir_gen_call(ir, &info_h0, f->g[0], 0, NULL);
    for (int i = 0; i < 8; i++) {
        a[i] = ir_const(ir, i + 1);
    }
    ir_gen_call(ir, &info_h8, f->g[1], 8, a);
    ir_gen_movi(ir, f->g[1], 21);
    a[0] = ir->env;
    ir_gen_call(ir, &info_env_r2, f->g[2], 1, a);
    two[0] = ir->env;
    two[1] = ir_const(ir, 99);
    ir_gen_call(ir, &info_set_r4, IR_NO_TEMP, 2, two);
    ir_gen_exit_tb(ir, 0);
    run_ir(f);
    assert_int_equal(f->env->gpr[1], 1000);
    assert_int_equal(f->env->gpr[3], 42);
    assert_int_equal(f->env->gpr[4], 99);
    interp_get_stats(f->it, &st);
    assert_int_equal(st.calls, 4);

    /* Argument order. */
    ir_reset(ir);
    ir_gen_call(ir, &info_h8, f->g[0], 8, (IRTemp[]){ ir_const(ir, 1), ir_const(ir, 2),
                ir_const(ir, 3), ir_const(ir, 4), ir_const(ir, 5), ir_const(ir, 6),
                ir_const(ir, 7), ir_const(ir, 8) });
    ir_gen_exit_tb(ir, 0);
    run_ir(f);
    assert_int_equal(f->env->gpr[1], 87654321);
}

/* ---- chaining ---- */

static TranslationBlock *tb_with_goto(Fixture *f, int64_t value, unsigned slot)
{
    IRContext *ir = f->ir;

    ir_reset(ir);
    ir_gen_addi(ir, f->g[0], f->g[0], value);
    ir_gen_goto_tb(ir, slot);
    ir_gen_exit_tb(ir, 0x1000 | slot);
    return make_tb(ir);
}

static void test_chaining(void **state)
{
    Fixture *f = *state;
    TranslationBlock *a = tb_with_goto(f, 1, 0);
    TranslationBlock *b = tb_with_goto(f, 10, 1);
    InterpStats st;

    f->env->gpr[1] = 0;
    assert_int_equal(interp_run_tb(f->it, f->env, a), 0x1000);
    assert_int_equal(f->env->gpr[1], 1);
    /* Chain a -> b: one call runs both, b's exit is returned. */
    a->jmp_dest[0] = b;
    assert_int_equal(interp_run_tb(f->it, f->env, a), 0x1001);
    assert_int_equal(f->env->gpr[1], 12);
    interp_get_stats(f->it, &st);
    assert_int_equal(st.chained, 1);
    /* A loop a -> b -> a stops at exit_request. */
    b->jmp_dest[1] = a;
    f->env->engine.exit_request = 1;
    assert_int_equal(interp_run_tb(f->it, f->env, a), 0x1000);
    assert_int_equal(f->env->gpr[1], 13);
    f->env->engine.exit_request = 0;
    /* Chaining off: every TB returns. */
    interp_set_chaining(f->it, false);
    assert_int_equal(interp_run_tb(f->it, f->env, a), 0x1000);
    interp_set_chaining(f->it, true);
    free_tb(a);
    free_tb(b);
}

static uint64_t h_ret(uint64_t v)
{
    return v;
}

static const IRHelperInfo info_ret = { "ret", (void *)h_ret, 1, 1, IR_CALL_NO_RWG, NULL };

static void test_goto_ptr(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    TranslationBlock *target, *src;
    IRTemp t;

    ir_reset(ir);
    ir_gen_movi(ir, f->g[1], 77);
    ir_gen_exit_tb(ir, 0x2000);
    target = make_tb(ir);

    ir_reset(ir);
    t = ir_temp(ir);
    ir_gen_call(ir, &info_ret, t, 1, &f->g[0]);
    ir_gen_goto_ptr(ir, t);
    src = make_tb(ir);

    f->env->gpr[1] = 0; /* lookup "fails": back to the loop */
    assert_int_equal(interp_run_tb(f->it, f->env, src), 0);
    f->env->gpr[1] = (uint64_t)(uintptr_t)target;
    f->env->gpr[2] = 0;
    assert_int_equal(interp_run_tb(f->it, f->env, src), 0x2000);
    assert_int_equal(f->env->gpr[2], 77);
    free_tb(src);
    free_tb(target);
}

/* A TB keeps working when run on another CPU state (rebinding). */
static void test_two_envs(void **state)
{
    Fixture *f = *state;
    CPULinxState *env2 = g_new0(CPULinxState, 1);
    TranslationBlock *tb;

    ir_reset(f->ir);
    ir_gen_addi(f->ir, f->g[0], f->g[0], 5);
    ir_gen_exit_tb(f->ir, 0);
    tb = make_tb(f->ir);
    f->env->gpr[1] = 1;
    env2->gpr[1] = 100;
    interp_run_tb(f->it, f->env, tb);
    interp_run_tb(f->it, env2, tb);
    interp_run_tb(f->it, f->env, tb);
    assert_int_equal(f->env->gpr[1], 11);
    assert_int_equal(env2->gpr[1], 105);
    free_tb(tb);
    g_free(env2);
}

/* Many temps: the frame grows and old TBs rebind. */
static void test_many_temps(void **state)
{
    Fixture *f = *state;
    IRContext *ir = f->ir;
    TranslationBlock *small, *big;
    IRTemp prev;

    ir_reset(ir);
    ir_gen_addi(ir, f->g[0], f->g[0], 1);
    ir_gen_exit_tb(ir, 0);
    small = make_tb(ir);
    interp_run_tb(f->it, f->env, small);

    ir_reset(ir);
    prev = ir_temp(ir);
    ir_gen_movi(ir, prev, 1);
    for (int i = 0; i < 3000; i++) {
        IRTemp t = ir_temp(ir);
        ir_gen_add(ir, t, prev, prev);
        prev = t;
        if (i == 9) {
            ir_gen_mov(ir, f->g[1], t); /* 2^10 */
        }
    }
    ir_gen_exit_tb(ir, 0);
    big = make_tb(ir);
    f->env->gpr[1] = 0;
    interp_run_tb(f->it, f->env, big);
    interp_run_tb(f->it, f->env, small);
    assert_int_equal(f->env->gpr[2], 1024);
    assert_int_equal(f->env->gpr[1], 1);
    free_tb(small);
    free_tb(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_alu_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_movi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_conditions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_helper_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chaining, setup, teardown),
        cmocka_unit_test_setup_teardown(test_goto_ptr, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_envs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_temps, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
