/*
 * x86-64 backend tests: every pure IR op against the C reference over
 * random and edge inputs (operands as globals, locals, constants and
 * repeated temps; with the host's BMI/LZCNT/POPCNT and without them),
 * register pressure and spills, helper calls (8 arguments, results,
 * global write-back rules), all branch conditions, TB exits, chaining
 * patches, goto_ptr, frames larger than the static one, host loads and
 * stores that alias globals, and the out_asm listing.
 */
#include "test-x86-backend-fixture.h"

#include "tcg/x86_64/x86-gen.h"

#define SAMPLES_PER_TB 24
#define VARIANTS_PER_OP 40
#define OUT_GLOBAL 8

/* Operand kinds for the op tests. */
enum {
    OPND_GLOBAL,    /* a global (in memory or a register) */
    OPND_LOCAL,     /* a local copied from a global */
    OPND_CONST,     /* a constant temp */
    OPND_REPEAT,    /* the previous operand's temp again */
    OPND_NB_KINDS,
};

/* Build "out = op(inputs)" with random operand kinds; @cval receives the
 * constants used (NULL entry value means "from env->gpr[i]"). */
typedef struct OpShape {
    IRTemp in[4];
    bool is_const[4];
    uint64_t cval[4];
    unsigned src_global[4];
    IRTemp out;
    unsigned out_global;
} OpShape;

static void build_op_tb(JitFixture *f, IROpcode op, IRCond c, unsigned nin, OpShape *s)
{
    IRContext *ir = f->ir;

    ir_reset(ir);
    for (unsigned i = 0; i < nin; i++) {
        unsigned kind = (unsigned)(rng64() % OPND_NB_KINDS);
        s->is_const[i] = false;
        s->src_global[i] = i;
        if (kind == OPND_REPEAT && i == 0) {
            kind = OPND_GLOBAL;
        }
        switch (kind) {
        case OPND_GLOBAL:
            s->in[i] = f->g[i];
            break;
        case OPND_LOCAL:
            s->in[i] = ir_temp(ir);
            ir_gen_mov(ir, s->in[i], f->g[i]);
            break;
        case OPND_CONST:
            s->cval[i] = rng_interesting();
            s->in[i] = ir_const(ir, (int64_t)s->cval[i]);
            s->is_const[i] = true;
            break;
        default:
            s->in[i] = s->in[i - 1];
            s->is_const[i] = s->is_const[i - 1];
            s->cval[i] = s->cval[i - 1];
            s->src_global[i] = s->src_global[i - 1];
            break;
        }
    }
    /* Output: a fresh local, a global, or the global of input 0. */
    switch (rng64() % 3) {
    case 0:
        s->out = ir_temp(ir);
        emit_pure(ir, op, c, s->out, s->in, nin);
        ir_gen_mov(ir, f->g[OUT_GLOBAL], s->out);
        s->out_global = OUT_GLOBAL;
        break;
    case 1:
        emit_pure(ir, op, c, f->g[OUT_GLOBAL], s->in, nin);
        s->out_global = OUT_GLOBAL;
        break;
    default:
        emit_pure(ir, op, c, f->g[0], s->in, nin);
        s->out_global = 0;
        break;
    }
    ir_gen_exit_tb(ir, 0);
}

static void check_op_shape(JitFixture *f, IROpcode op, IRCond c, unsigned nin, const OpShape *s)
{
    for (unsigned n = 0; n < SAMPLES_PER_TB; n++) {
        uint64_t before[NB_TEST_GLOBALS], in[4];
        for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
            before[i] = f->env->gpr[i] = rng_interesting();
        }
        for (unsigned i = 0; i < nin; i++) {
            in[i] = s->is_const[i] ? s->cval[i] : before[s->src_global[i]];
        }
        uint64_t want = ref_op(op, c, in);
        assert_int_equal(fixture_run(f), 0);
        if (f->env->gpr[s->out_global] != want) {
            fail_msg("%s cond %d: inputs %#llx %#llx %#llx %#llx: got %#llx want %#llx",
                     ir_op_info[op].name, c, (unsigned long long)in[0],
                     (unsigned long long)in[1], (unsigned long long)in[2],
                     (unsigned long long)in[3],
                     (unsigned long long)f->env->gpr[s->out_global], (unsigned long long)want);
        }
        for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
            if (i != s->out_global) {
                assert_int_equal(f->env->gpr[i], before[i]);
            }
        }
    }
}

static void run_all_ops(uint32_t features)
{
    JitFixture f;

    fixture_init(&f);
    f.bs.host_features &= features;
    for (unsigned k = 0; k < NB_PURE_OPS; k++) {
        IROpcode op = pure_ops[k].op;
        unsigned nconds = (op == IR_setcond || op == IR_movcond) ? IR_COND_TSTNE + 1 : 1;
        for (unsigned c = 0; c < nconds; c++) {
            for (unsigned v = 0; v < VARIANTS_PER_OP; v++) {
                OpShape s;
                build_op_tb(&f, op, (IRCond)c, pure_ops[k].nin, &s);
                fixture_gen(&f, NULL);
                check_op_shape(&f, op, (IRCond)c, pure_ops[k].nin, &s);
            }
        }
    }
    fixture_fini(&f);
}

static void test_ops_host_features(void **state)
{
    run_all_ops(UINT32_MAX);
}

static void test_ops_baseline_x86_64(void **state)
{
    /* No LZCNT/TZCNT/ANDN/SHLX/POPCNT: BSR/BSF+CMOV, NOT+AND, CL shifts, SWAR. */
    run_all_ops(0);
}

/* Shift counts of 64 and more are taken modulo 64, in every code shape. */
static void test_shift_counts_masked(void **state)
{
    static const IROpcode ops[] = { IR_shl, IR_shr, IR_sar, IR_rotr };
    JitFixture f;

    fixture_init(&f);
    for (unsigned feat = 0; feat < 2; feat++) {
        f.bs.host_features = feat ? f.bs.host_features : 0;
        for (unsigned k = 0; k < 4; k++) {
            for (unsigned cnt = 0; cnt < 200; cnt += 7) {
                /* Register count. */
                ir_reset(f.ir);
                ir_gen_op3(f.ir, ops[k], f.g[2], f.g[0], f.g[1]);
                /* Constant count (not pre-masked). */
                ir_gen_op3(f.ir, ops[k], f.g[3], f.g[0], ir_const(f.ir, cnt));
                ir_gen_exit_tb(f.ir, 0);
                fixture_gen(&f, NULL);
                uint64_t a = UINT64_C(0x8123456789abcdef);
                f.env->gpr[0] = a;
                f.env->gpr[1] = cnt;
                fixture_run(&f);
                uint64_t in[4] = { a, cnt, 0, 0 }; /* ref_op reads up to 4 inputs */
                assert_int_equal(f.env->gpr[2], ref_op(ops[k], 0, in));
                assert_int_equal(f.env->gpr[3], ref_op(ops[k], 0, in));
            }
        }
    }
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* Register pressure                                                   */
/* ------------------------------------------------------------------ */

#define PRESSURE_TEMPS 40

static void test_register_pressure(void **state)
{
    JitFixture f;
    IRTemp t[PRESSURE_TEMPS];
    uint64_t ref[PRESSURE_TEMPS], g[NB_TEST_GLOBALS];

    fixture_init(&f);
    for (unsigned round = 0; round < 20; round++) {
        ir_reset(f.ir);
        /* 40 values live at once: more than the 14 allocatable registers. */
        for (unsigned i = 0; i < PRESSURE_TEMPS; i++) {
            t[i] = ir_temp(f.ir);
            ir_gen_op3(f.ir, IR_mul, t[i], f.g[i % 8], ir_const(f.ir, (int64_t)(i * 2 + 1)));
            ir_gen_addi(f.ir, t[i], t[i], (int64_t)i);
        }
        IRTemp acc = ir_temp(f.ir);
        ir_gen_movi(f.ir, acc, 0);
        for (unsigned i = PRESSURE_TEMPS; i-- > 0;) {
            IRTemp sh = ir_temp(f.ir);
            ir_gen_shri(f.ir, sh, t[i], i % 64);
            ir_gen_xor(f.ir, sh, sh, t[i]);
            ir_gen_add(f.ir, acc, acc, sh);
            ir_gen_mov(f.ir, f.g[8 + (i % 8)], t[i]);
        }
        ir_gen_mov(f.ir, f.g[0], acc);
        ir_gen_exit_tb(f.ir, 0);
        fixture_gen(&f, NULL);

        for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
            g[i] = f.env->gpr[i] = rng_interesting();
        }
        uint64_t acc_ref = 0;
        for (unsigned i = 0; i < PRESSURE_TEMPS; i++) {
            ref[i] = g[i % 8] * (i * 2 + 1) + i;
        }
        for (unsigned i = PRESSURE_TEMPS; i-- > 0;) {
            acc_ref += (ref[i] >> (i % 64)) ^ ref[i];
        }
        fixture_run(&f);
        assert_int_equal(f.env->gpr[0], acc_ref);
        for (unsigned j = 0; j < 8; j++) {
            /* The last write to g[8 + j] is from the smallest i with i % 8 == j. */
            assert_int_equal(f.env->gpr[8 + j], ref[j]);
        }
        for (unsigned i = 1; i < 8; i++) {
            assert_int_equal(f.env->gpr[i], g[i]);
        }
    }
    fixture_fini(&f);
}

/* More simultaneously live spilled locals than the static frame has slots. */
static void test_frame_extension(void **state)
{
    enum { N = X86_FRAME_STATIC_SLOTS + 100 };
    JitFixture f;
    IRTemp *t = calloc(N, sizeof(*t));

    fixture_init(&f);
    for (unsigned i = 0; i < N; i++) {
        t[i] = ir_temp(f.ir);
        ir_gen_addi(f.ir, t[i], f.g[i % 4], (int64_t)i * 3);
    }
    IRTemp acc = ir_temp(f.ir);
    ir_gen_movi(f.ir, acc, 0);
    for (unsigned i = 0; i < N; i++) {
        ir_gen_xor(f.ir, acc, acc, t[i]);
        ir_gen_shli(f.ir, acc, acc, 1);
    }
    ir_gen_mov(f.ir, f.g[5], acc);
    ir_gen_goto_tb(f.ir, 0);
    ir_gen_movi(f.ir, f.g[6], 5);
    ir_gen_exit_tb(f.ir, 0x10);
    fixture_gen(&f, NULL);
    TranslationBlock big = f.tb;

    /* A small TB to chain to. */
    ir_reset(f.ir);
    ir_gen_addi(f.ir, f.g[7], f.g[7], 1);
    ir_gen_exit_tb(f.ir, 0x20);
    fixture_gen(&f, NULL);

    for (unsigned i = 0; i < 4; i++) {
        f.env->gpr[i] = rng64();
    }
    uint64_t r = 0;
    for (unsigned i = 0; i < N; i++) {
        r ^= f.env->gpr[i % 4] + (uint64_t)i * 3;
        r <<= 1;
    }
    /* Unchained, twice: the stack must be balanced after the first run. */
    for (unsigned k = 0; k < 2; k++) {
        f.env->gpr[5] = f.env->gpr[6] = 0;
        assert_int_equal(fixture_run_tb(&f, &big), 0x10);
        assert_int_equal(f.env->gpr[5], r);
        assert_int_equal(f.env->gpr[6], 5);
    }
    /* Chained into the small TB, twice. */
    backend_set_jmp(&f.bs, &f.cb, &big, 0, &f.tb);
    for (unsigned k = 0; k < 2; k++) {
        f.env->gpr[5] = f.env->gpr[6] = f.env->gpr[7] = 0;
        assert_int_equal(fixture_run_tb(&f, &big), 0x20);
        assert_int_equal(f.env->gpr[5], r);
        assert_int_equal(f.env->gpr[6], 0);
        assert_int_equal(f.env->gpr[7], 1);
    }
    free(t);
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* Helper calls                                                        */
/* ------------------------------------------------------------------ */

static uint64_t helper_weigh8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                              uint64_t f, uint64_t g, uint64_t h)
{
    return a * 1 + b * 3 + c * 5 + d * 7 + e * 11 + f * 13 + g * 17 + h * 19 + (a ^ h);
}

static uint64_t helper_write_g5(uint64_t env_p, uint64_t v)
{
    CPULinxState *env = (CPULinxState *)(uintptr_t)env_p;
    uint64_t old = env->gpr[5];

    env->gpr[5] = v;
    return old;
}

static uint64_t helper_read_g3(uint64_t env_p)
{
    return ((CPULinxState *)(uintptr_t)env_p)->gpr[3];
}

static uint64_t helper_mix(uint64_t a, uint64_t b)
{
    return (a * UINT64_C(0x9e3779b97f4a7c15)) ^ (b >> 3);
}

static void helper_store_to(uint64_t env_p, uint64_t idx, uint64_t v)
{
    ((CPULinxState *)(uintptr_t)env_p)->gpr[idx] = v;
}

static const IRHelperInfo h_weigh8 = { "weigh8", (void *)helper_weigh8, 8, 1, 0, NULL };
static const IRHelperInfo h_write_g5 = { "write_g5", (void *)helper_write_g5, 2, 1, 0, NULL };
static const IRHelperInfo h_read_g3 = { "read_g3", (void *)helper_read_g3, 1, 1, IR_CALL_NO_WG,
                                        NULL };
static const IRHelperInfo h_mix = { "mix", (void *)helper_mix, 2, 1,
                                    IR_CALL_NO_RWG | IR_CALL_NO_SE, NULL };
static const IRHelperInfo h_store_to = { "store_to", (void *)helper_store_to, 3, 0, 0, NULL };

static void test_call_eight_args(void **state)
{
    JitFixture f;

    fixture_init(&f);
    for (unsigned round = 0; round < 200; round++) {
        IRTemp args[8];
        uint64_t val[8], g[NB_TEST_GLOBALS];
        ir_reset(f.ir);
        for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
            g[i] = f.env->gpr[i] = rng_interesting();
        }
        for (unsigned i = 0; i < 8; i++) {
            switch (rng64() % 4) {
            case 0:
                args[i] = f.g[i];
                val[i] = g[i];
                break;
            case 1:
                val[i] = rng_interesting();
                args[i] = ir_const(f.ir, (int64_t)val[i]);
                break;
            case 2:
                args[i] = ir_temp(f.ir);
                ir_gen_addi(f.ir, args[i], f.g[i], 1);
                val[i] = g[i] + 1;
                break;
            default:
                args[i] = i ? args[i - 1] : f.g[0];
                val[i] = i ? val[i - 1] : g[0];
                break;
            }
        }
        IRTemp r = ir_temp(f.ir);
        ir_gen_call(f.ir, &h_weigh8, r, 8, args);
        ir_gen_mov(f.ir, f.g[9], r);
        ir_gen_exit_tb(f.ir, 0);
        fixture_gen(&f, NULL);
        fixture_run(&f);
        assert_int_equal(f.env->gpr[9], helper_weigh8(val[0], val[1], val[2], val[3], val[4],
                                                       val[5], val[6], val[7]));
        for (unsigned i = 0; i < 8; i++) {
            assert_int_equal(f.env->gpr[i], g[i]);
        }
    }
    fixture_fini(&f);
}

/* Globals are written back before calls that read them and reloaded after
 * calls that may write them; values live across calls survive. */
static void test_call_globals_and_live_values(void **state)
{
    JitFixture f;
    enum { LIVE = 20 };
    IRTemp t[LIVE];

    fixture_init(&f);
    for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
        f.env->gpr[i] = i * 100;
    }
    IRTemp envt = f.ir->env;
    for (unsigned i = 0; i < LIVE; i++) {
        t[i] = ir_temp(f.ir);
        ir_gen_addi(f.ir, t[i], f.g[i % 6], (int64_t)i);
    }
    /* g3 dirty in a register; the NO_WG helper must read the new value. */
    ir_gen_addi(f.ir, f.g[3], f.g[3], 7);
    IRTemp r1 = ir_temp(f.ir);
    IRTemp a1[1] = { envt };
    ir_gen_call(f.ir, &h_read_g3, r1, 1, a1);
    ir_gen_mov(f.ir, f.g[10], r1);
    /* g5 cached, then written by a helper: later reads see the new value. */
    ir_gen_mov(f.ir, f.g[11], f.g[5]);
    IRTemp r2 = ir_temp(f.ir);
    IRTemp a2[2] = { envt, ir_const(f.ir, 4242) };
    ir_gen_call(f.ir, &h_write_g5, r2, 2, a2);
    ir_gen_mov(f.ir, f.g[12], f.g[5]);
    ir_gen_mov(f.ir, f.g[13], r2);
    /* A pure helper with every call-clobbered register holding something. */
    IRTemp r3 = ir_temp(f.ir);
    IRTemp a3[2] = { t[0], t[LIVE - 1] };
    ir_gen_call(f.ir, &h_mix, r3, 2, a3);
    IRTemp acc = ir_temp(f.ir);
    ir_gen_mov(f.ir, acc, r3);
    for (unsigned i = 0; i < LIVE; i++) {
        ir_gen_add(f.ir, acc, acc, t[i]);
    }
    ir_gen_mov(f.ir, f.g[14], acc);
    /* A helper without result storing through env. */
    IRTemp a4[3] = { envt, ir_const(f.ir, 15), t[3] };
    ir_gen_call(f.ir, &h_store_to, IR_NO_TEMP, 3, a4);
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    fixture_run(&f);

    uint64_t sum = helper_mix(0 * 100 + 0, ((LIVE - 1) % 6) * 100 + LIVE - 1);
    for (unsigned i = 0; i < LIVE; i++) {
        sum += (i % 6) * 100 + i;
    }
    assert_int_equal(f.env->gpr[3], 307);
    assert_int_equal(f.env->gpr[10], 307);
    assert_int_equal(f.env->gpr[11], 500);
    assert_int_equal(f.env->gpr[5], 4242);
    assert_int_equal(f.env->gpr[12], 4242);
    assert_int_equal(f.env->gpr[13], 500);
    assert_int_equal(f.env->gpr[14], sum);
    assert_int_equal(f.env->gpr[15], 303);
    fixture_fini(&f);
}

/* The call flags decide what is written back: a helper declared
 * IR_CALL_NO_RWG sees env as it was (the dirty value stays in a register),
 * one that reads globals sees the new value. */
static const IRHelperInfo h_read_g3_norwg = { "read_g3_norwg", (void *)helper_read_g3, 1, 1,
                                              IR_CALL_NO_RWG, NULL };

static void test_call_flags_write_back(void **state)
{
    JitFixture f;
    IRTemp a[1];

    fixture_init(&f);
    a[0] = f.ir->env;
    IRTemp r1 = ir_temp(f.ir), r2 = ir_temp(f.ir);
    ir_gen_addi(f.ir, f.g[3], f.g[3], 1);
    ir_gen_call(f.ir, &h_read_g3_norwg, r1, 1, a);
    ir_gen_call(f.ir, &h_read_g3, r2, 1, a);
    ir_gen_mov(f.ir, f.g[4], r1);
    ir_gen_mov(f.ir, f.g[5], r2);
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    f.env->gpr[3] = 10;
    fixture_run(&f);
    assert_int_equal(f.env->gpr[4], 10); /* not written back for NO_RWG */
    assert_int_equal(f.env->gpr[5], 11);
    assert_int_equal(f.env->gpr[3], 11);
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* Branches and exits                                                  */
/* ------------------------------------------------------------------ */

static void test_brcond_all_conditions(void **state)
{
    JitFixture f;

    fixture_init(&f);
    for (unsigned c = 0; c <= IR_COND_TSTNE; c++) {
        for (unsigned shape = 0; shape < 3; shape++) {
            uint64_t k = rng_interesting();
            ir_reset(f.ir);
            IRLabel taken = ir_label(f.ir);
            IRTemp b = shape == 0 ? f.g[1] : ir_const(f.ir, (int64_t)k);
            IRTemp a = shape == 2 ? ir_temp(f.ir) : f.g[0];
            if (shape == 2) {
                ir_gen_mov(f.ir, a, f.g[0]);
            }
            /* A dirty global before the branch must reach memory on both paths. */
            ir_gen_addi(f.ir, f.g[4], f.g[4], 1);
            ir_gen_brcond(f.ir, (IRCond)c, a, b, taken);
            ir_gen_movi(f.ir, f.g[2], 5);
            ir_gen_exit_tb(f.ir, 0);
            ir_gen_set_label(f.ir, taken);
            ir_gen_movi(f.ir, f.g[2], 9);
            ir_gen_exit_tb(f.ir, 0);
            fixture_gen(&f, NULL);
            for (unsigned n = 0; n < 64; n++) {
                uint64_t x = rng_interesting(), y = shape ? k : rng_interesting();
                f.env->gpr[0] = x;
                f.env->gpr[1] = y;
                f.env->gpr[4] = 10;
                fixture_run(&f);
                assert_int_equal(f.env->gpr[2], ref_cond((IRCond)c, x, y) ? 9 : 5);
                assert_int_equal(f.env->gpr[4], 11);
            }
        }
    }
    fixture_fini(&f);
}

/* A loop: backward branch to a label, globals canonical at the label. */
static void test_loop(void **state)
{
    JitFixture f;

    fixture_init(&f);
    IRLabel top = ir_label(f.ir);
    ir_gen_movi(f.ir, f.g[1], 0);
    ir_gen_set_label(f.ir, top);
    ir_gen_add(f.ir, f.g[1], f.g[1], f.g[0]);
    ir_gen_addi(f.ir, f.g[0], f.g[0], -1);
    ir_gen_brcond(f.ir, IR_COND_NE, f.g[0], ir_const(f.ir, 0), top);
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    f.env->gpr[0] = 1000;
    fixture_run(&f);
    assert_int_equal(f.env->gpr[1], 500500);
    assert_int_equal(f.env->gpr[0], 0);
    fixture_fini(&f);
}

static void test_exit_values(void **state)
{
    static const uint64_t vals[] = { 0, 1, 0x7fffffff, 0x80000000, UINT64_C(0xfffffffffffffffc),
                                     UINT64_C(0x123456789abcdef0) };
    JitFixture f;

    fixture_init(&f);
    for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        ir_reset(f.ir);
        ir_gen_movi(f.ir, f.g[7], (int64_t)vals[i] ^ 0x55);
        ir_gen_exit_tb(f.ir, vals[i]);
        fixture_gen(&f, NULL);
        assert_int_equal(fixture_run(&f), vals[i]);
        assert_int_equal(f.env->gpr[7], vals[i] ^ 0x55);
    }
    fixture_fini(&f);
}

static void gen_into(JitFixture *f, TranslationBlock *tb, uint64_t pc)
{
    memset(tb, 0, sizeof(*tb));
    tb->pc = pc;
    assert_true(backend_gen_tb(&f->bs, &f->cb, f->ir, tb, NULL));
}

static void test_chaining(void **state)
{
    JitFixture f;
    TranslationBlock a, b;

    fixture_init(&f);
    /* TB b: g1 += 100, exit 0. */
    ir_reset(f.ir);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 100);
    ir_gen_exit_tb(f.ir, 0);
    gen_into(&f, &b, 0x2000);
    /* TB a: g1 += 1 (dirty before the jump), goto_tb 1, exit a|1. */
    ir_reset(f.ir);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 1);
    ir_gen_goto_tb(f.ir, 1);
    ir_gen_exit_tb(f.ir, (uintptr_t)&a | 1);
    gen_into(&f, &a, 0x1000);
    assert_int_equal(a.jmp_insn_offset[0], UINT32_MAX);
    assert_int_not_equal(a.jmp_insn_offset[1], UINT32_MAX);
    /* The rel32 is 4-byte aligned for an atomic patch. */
    assert_int_equal(((uintptr_t)a.host_code + a.jmp_insn_offset[1] + 1) % 4, 0);
    assert_int_equal(a.jmp_reset_offset[1], a.jmp_insn_offset[1] + 5);

    f.env->gpr[1] = 0;
    assert_int_equal(fixture_run_tb(&f, &a), (uintptr_t)&a | 1);
    assert_int_equal(f.env->gpr[1], 1);
    backend_set_jmp(&f.bs, &f.cb, &a, 1, &b);
    assert_int_equal(fixture_run_tb(&f, &a), 0);
    assert_int_equal(f.env->gpr[1], 102);
    backend_set_jmp(&f.bs, &f.cb, &a, 1, NULL);
    assert_int_equal(fixture_run_tb(&f, &a), (uintptr_t)&a | 1);
    assert_int_equal(f.env->gpr[1], 103);
    fixture_fini(&f);
}

static void test_goto_ptr(void **state)
{
    JitFixture f;
    TranslationBlock a, b;

    fixture_init(&f);
    ir_reset(f.ir);
    ir_gen_movi(f.ir, f.g[2], 77);
    ir_gen_exit_tb(f.ir, 0x40);
    gen_into(&f, &b, 0x2000);
    ir_reset(f.ir);
    ir_gen_addi(f.ir, f.g[3], f.g[3], 5);
    IRTemp p = ir_temp(f.ir);
    ir_gen_mov(f.ir, p, f.g[0]);
    ir_gen_goto_ptr(f.ir, p);
    gen_into(&f, &a, 0x1000);
    /* To another TB's code. */
    f.env->gpr[0] = (uintptr_t)b.host_code;
    f.env->gpr[3] = 1;
    assert_int_equal(fixture_run_tb(&f, &a), 0x40);
    assert_int_equal(f.env->gpr[2], 77);
    assert_int_equal(f.env->gpr[3], 6);
    /* To the epilogue's "return 0". */
    f.env->gpr[0] = (uintptr_t)f.bs.exit_addr;
    f.env->gpr[2] = 0;
    assert_int_equal(fixture_run_tb(&f, &a), 0);
    assert_int_equal(f.env->gpr[2], 0);
    assert_int_equal(f.env->gpr[3], 11);
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* Host loads and stores                                               */
/* ------------------------------------------------------------------ */

static void test_host_ld_st(void **state)
{
    JitFixture f;
    uint8_t buf[64];
    static const IROpcode lds[] = { IR_ld8u, IR_ld8s, IR_ld16u, IR_ld16s,
                                    IR_ld32u, IR_ld32s, IR_ld64 };
    static const IROpcode sts[] = { IR_st8, IR_st16, IR_st32, IR_st64 };

    fixture_init(&f);
    for (unsigned i = 0; i < sizeof(buf); i++) {
        buf[i] = (uint8_t)(0x81 + i * 37);
    }
    IRTemp base = ir_const(f.ir, (int64_t)(uintptr_t)buf);
    for (unsigned k = 0; k < 7; k++) {
        ir_gen_ld(f.ir, lds[k], f.g[k], base, 8 + (int)k * 3);
    }
    for (unsigned k = 0; k < 4; k++) {
        ir_gen_st(f.ir, sts[k], f.g[8], base, 40 + (int)k * 4);
    }
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    f.env->gpr[8] = UINT64_C(0xf1e2d3c4b5a69788);
    fixture_run(&f);

    uint64_t raw;
    for (unsigned k = 0; k < 7; k++) {
        memcpy(&raw, buf + 8 + k * 3, 8);
        uint64_t want;
        switch (lds[k]) {
        case IR_ld8u:
            want = (uint8_t)raw;
            break;
        case IR_ld8s:
            want = (uint64_t)(int64_t)(int8_t)raw;
            break;
        case IR_ld16u:
            want = (uint16_t)raw;
            break;
        case IR_ld16s:
            want = (uint64_t)(int64_t)(int16_t)raw;
            break;
        case IR_ld32u:
            want = (uint32_t)raw;
            break;
        case IR_ld32s:
            want = (uint64_t)(int64_t)(int32_t)raw;
            break;
        default:
            want = raw;
            break;
        }
        assert_int_equal(f.env->gpr[k], want);
    }
    assert_int_equal(buf[40], 0x88);
    assert_int_equal(buf[41], (uint8_t)(0x81 + 41 * 37)); /* st8 wrote one byte */
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    memcpy(&v16, buf + 44, 2);
    memcpy(&v32, buf + 48, 4);
    memcpy(&v64, buf + 52, 8);
    assert_int_equal(v16, 0x9788);
    assert_int_equal(v32, 0xb5a69788);
    assert_int_equal(v64, UINT64_C(0xf1e2d3c4b5a69788));
    fixture_fini(&f);
}

/* ld/st on env fields that are globals see and update the global. */
static void test_env_access_aliases_globals(void **state)
{
    JitFixture f;
    int off3 = (int)offsetof(CPULinxState, gpr[3]);
    int off4 = (int)offsetof(CPULinxState, gpr[4]);

    fixture_init(&f);
    IRTemp t = ir_temp(f.ir);
    ir_gen_addi(f.ir, f.g[3], f.g[3], 1);               /* dirty in a register */
    ir_gen_ld(f.ir, IR_ld64, t, f.ir->env, off3);       /* must see it */
    ir_gen_mov(f.ir, f.g[6], t);
    ir_gen_mov(f.ir, f.g[7], f.g[4]);                   /* g4 cached */
    ir_gen_st(f.ir, IR_st8, ir_const(f.ir, 0x5a), f.ir->env, off4); /* partial store */
    ir_gen_mov(f.ir, f.g[8], f.g[4]);                   /* must reload */
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, NULL);
    f.env->gpr[3] = 41;
    f.env->gpr[4] = 0x1122334455667788;
    fixture_run(&f);
    assert_int_equal(f.env->gpr[6], 42);
    assert_int_equal(f.env->gpr[7], 0x1122334455667788);
    assert_int_equal(f.env->gpr[8], 0x112233445566775a);
    assert_int_equal(f.env->gpr[4], 0x112233445566775a);
    fixture_fini(&f);
}

static void test_out_asm_listing(void **state)
{
    JitFixture f;
    char text[8192];
    FILE *log = tmpfile();

    assert_non_null(log);
    fixture_init(&f);
    ir_gen_insn_start(f.ir, 0x10abc, 0);
    ir_gen_add(f.ir, f.g[0], f.g[1], f.g[2]);
    ir_gen_qemu_ld(f.ir, f.g[3], f.g[0], IR_MO_64 | IR_MO_ALIGN, 0x10abc);
    ir_gen_exit_tb(f.ir, 0);
    fixture_gen(&f, log);
    rewind(log);
    size_t n = fread(text, 1, sizeof(text) - 1, log);
    text[n] = 0;
    fclose(log);
    assert_non_null(strstr(text, "OUT: [guest pc 0x40000"));
    assert_non_null(strstr(text, "-- guest 0x10abc"));
    assert_non_null(strstr(text, "lea"));
    assert_non_null(strstr(text, "-- slow paths"));
    assert_non_null(strstr(text, "call"));
    fixture_fini(&f);
}

/* A full buffer fails cleanly and commits nothing. */
static void test_buffer_full(void **state)
{
    JitFixture f;

    fixture_init(&f);
    for (unsigned i = 0; i < 20; i++) {
        ir_gen_addi(f.ir, f.g[i % 8], f.g[(i + 1) % 8], (int64_t)i << 33);
    }
    ir_gen_exit_tb(f.ir, 0);
    f.cb.used = f.cb.size - 32;
    size_t used = f.cb.used;
    TranslationBlock tb = { 0 };
    assert_false(backend_gen_tb(&f.bs, &f.cb, f.ir, &tb, NULL));
    assert_int_equal(f.cb.used, used);
    assert_null(tb.host_code);
    code_buffer_reset(&f.cb);
    assert_true(backend_gen_tb(&f.bs, &f.cb, f.ir, &tb, NULL));
    fixture_fini(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ops_host_features),
        cmocka_unit_test(test_ops_baseline_x86_64),
        cmocka_unit_test(test_shift_counts_masked),
        cmocka_unit_test(test_register_pressure),
        cmocka_unit_test(test_frame_extension),
        cmocka_unit_test(test_call_eight_args),
        cmocka_unit_test(test_call_globals_and_live_values),
        cmocka_unit_test(test_call_flags_write_back),
        cmocka_unit_test(test_brcond_all_conditions),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_exit_values),
        cmocka_unit_test(test_chaining),
        cmocka_unit_test(test_goto_ptr),
        cmocka_unit_test(test_host_ld_st),
        cmocka_unit_test(test_env_access_aliases_globals),
        cmocka_unit_test(test_out_asm_listing),
        cmocka_unit_test(test_buffer_full),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
