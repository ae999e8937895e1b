/*
 * Optimiser tests (tcg/optimize.c):
 *   - ir_fold_op()/ir_eval_cond() against the independent C reference of
 *     the op semantics for every pure op and condition;
 *   - whole-pass folding: every pure op on constants becomes one movi of
 *     the reference value; constants and copies propagate through locals;
 *   - algebraic identities, decided branches, unreachable code, unused
 *     labels, dead code (pure ops, IR_CALL_NO_SE calls) and what must stay
 *     (side effects, globals, calls that may write globals, host stores
 *     aliasing globals, discarded temps);
 *   - random programs interpreted before and after the pass leave the
 *     same state (the interpreter is the reference), and the output
 *     passes ir_validate().
 */
#include "test-x86-backend-random-ir.h"

#include "tcg/optimize.h"

#define FOLD_SAMPLES 2000
#define RANDOM_PROGRAMS 3000

/* Ops still present (not dead), in order. */
static unsigned live_ops(const IRContext *ir, IROpcode *ops, unsigned max)
{
    unsigned n = 0;

    for (unsigned i = 0; i < ir->ninsns; i++) {
        if (!ir->insns[i].dead && ir->insns[i].op != IR_insn_start && n < max) {
            ops[n++] = (IROpcode)ir->insns[i].op;
        }
    }
    return n;
}

static const IRInsn *first_op(const IRContext *ir, IROpcode op)
{
    for (unsigned i = 0; i < ir->ninsns; i++) {
        if (!ir->insns[i].dead && ir->insns[i].op == op) {
            return &ir->insns[i];
        }
    }
    return NULL;
}

static unsigned count_op(const IRContext *ir, IROpcode op)
{
    unsigned n = 0;

    for (unsigned i = 0; i < ir->ninsns; i++) {
        n += !ir->insns[i].dead && ir->insns[i].op == op;
    }
    return n;
}

static bool temp_is_const(const IRContext *ir, uint64_t t, uint64_t v)
{
    return ir->temps[t].kind == IR_TEMP_CONST && (uint64_t)ir->temps[t].value == v;
}

static void test_fold_op_matches_reference(void **state)
{
    for (unsigned k = 0; k < NB_PURE_OPS; k++) {
        IROpcode op = pure_ops[k].op;
        for (unsigned n = 0; n < FOLD_SAMPLES; n++) {
            uint64_t in[4] = { rng_interesting(), rng_interesting(), rng_interesting(),
                               rng_interesting() };
            IRCond c = (IRCond)(n % (IR_COND_TSTNE + 1));
            uint64_t got;
            assert_true(ir_fold_op(op, c, in, &got));
            if (got != ref_op(op, c, in)) {
                fail_msg("%s cond %d (%#llx, %#llx): %#llx, expected %#llx", ir_op_info[op].name,
                         c, (unsigned long long)in[0], (unsigned long long)in[1],
                         (unsigned long long)got, (unsigned long long)ref_op(op, c, in));
            }
        }
    }
    for (unsigned c = 0; c <= IR_COND_TSTNE; c++) {
        for (unsigned n = 0; n < FOLD_SAMPLES; n++) {
            uint64_t a = rng_interesting(), b = n & 1 ? a : rng_interesting();
            assert_int_equal(ir_eval_cond((IRCond)c, a, b), ref_cond((IRCond)c, a, b));
        }
    }
    uint64_t in[4] = { 1, 2, 0, 0 }, out;
    assert_false(ir_fold_op(IR_qemu_ld, IR_COND_EQ, in, &out));
    assert_false(ir_fold_op(IR_ld64, IR_COND_EQ, in, &out));
}

/* Each pure op on constants becomes "movi g8, value". */
static void test_pass_folds_every_pure_op(void **state)
{
    JitFixture f;

    fixture_init(&f);
    for (unsigned k = 0; k < NB_PURE_OPS; k++) {
        for (unsigned n = 0; n < 200; n++) {
            IROpcode op = pure_ops[k].op;
            IRCond c = (IRCond)(n % (IR_COND_TSTNE + 1));
            uint64_t v[4];
            IRTemp in[4];
            ir_reset(f.ir);
            for (unsigned i = 0; i < pure_ops[k].nin; i++) {
                v[i] = rng_interesting();
                if (n & 1) {
                    in[i] = ir_const(f.ir, (int64_t)v[i]);
                } else {
                    /* Through a local set by movi: constant propagation. */
                    in[i] = ir_temp(f.ir);
                    ir_gen_movi(f.ir, in[i], (int64_t)v[i]);
                }
            }
            emit_pure(f.ir, op, c, f.g[8], in, pure_ops[k].nin);
            ir_gen_exit_tb(f.ir, 0);
            ir_optimize(f.ir);
            assert_true(ir_validate(f.ir, stderr));
            IROpcode ops[8];
            unsigned nops = live_ops(f.ir, ops, 8);
            assert_int_equal(nops, 2);
            const IRInsn *mi = first_op(f.ir, IR_movi);
            const IRInsn *mv = first_op(f.ir, IR_mov);
            uint64_t want = ref_op(op, c, v);
            if (mi) {
                assert_int_equal(mi->args[0], f.g[8]);
                assert_int_equal(mi->args[1], want);
            } else {
                /* A copy of a constant temp is as good as movi. */
                assert_non_null(mv);
                assert_int_equal(mv->args[0], f.g[8]);
                assert_true(temp_is_const(f.ir, mv->args[1], want));
            }
        }
    }
    fixture_fini(&f);
}

static void test_copy_propagation(void **state)
{
    JitFixture f;

    fixture_init(&f);
    /* t = g1; u = t; g2 = u + t  ->  g2 = g1 + g1, the movs die */
    IRTemp t = ir_temp(f.ir), u = ir_temp(f.ir);
    ir_gen_mov(f.ir, t, f.g[1]);
    ir_gen_mov(f.ir, u, t);
    ir_gen_add(f.ir, f.g[2], u, t);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_mov), 0);
    const IRInsn *add = first_op(f.ir, IR_add);
    assert_non_null(add);
    assert_int_equal(add->args[1], f.g[1]);
    assert_int_equal(add->args[2], f.g[1]);

    /* The source changes: the copy keeps the old value. */
    ir_reset(f.ir);
    t = ir_temp(f.ir);
    ir_gen_mov(f.ir, t, f.g[1]);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 1);
    ir_gen_mov(f.ir, f.g[2], t);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    const IRInsn *last_mov = NULL;
    for (unsigned i = 0; i < f.ir->ninsns; i++) {
        if (f.ir->insns[i].op == IR_mov && f.ir->insns[i].args[0] == f.g[2]) {
            last_mov = &f.ir->insns[i];
        }
    }
    assert_non_null(last_mov);
    assert_int_equal(last_mov->args[1], t);

    /* A discarded temp is not resurrected as a copy. */
    ir_reset(f.ir);
    t = ir_temp(f.ir);
    u = ir_temp(f.ir);
    ir_gen_ld(f.ir, IR_ld64, t, f.ir->env, 0x40);
    ir_gen_mov(f.ir, u, t);
    uint64_t d[1] = { t };
    ir_emit(f.ir, IR_discard, d);
    ir_gen_mov(f.ir, f.g[3], u);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_true(ir_validate(f.ir, stderr));
    fixture_fini(&f);
}

static void test_common_subexpressions(void **state)
{
    JitFixture f;

    fixture_init(&f);
    /* Same op, same inputs (commuted): one add left. */
    IRTemp t1 = ir_temp(f.ir), t2 = ir_temp(f.ir);
    ir_gen_add(f.ir, t1, f.g[1], f.g[2]);
    ir_gen_add(f.ir, t2, f.g[2], f.g[1]);
    ir_gen_mov(f.ir, f.g[3], t1);
    ir_gen_mov(f.ir, f.g[4], t2);
    ir_gen_setcond(f.ir, IR_COND_LT, f.g[5], f.g[1], f.g[2]);
    ir_gen_setcond(f.ir, IR_COND_LTU, f.g[6], f.g[1], f.g[2]); /* another condition */
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_add), 1);
    assert_int_equal(count_op(f.ir, IR_setcond), 2);

    /* An input changed in between: both stay. */
    ir_reset(f.ir);
    t1 = ir_temp(f.ir);
    t2 = ir_temp(f.ir);
    ir_gen_add(f.ir, t1, f.g[1], f.g[2]);
    ir_gen_addi(f.ir, f.g[1], f.g[1], 1);
    ir_gen_add(f.ir, t2, f.g[1], f.g[2]);
    ir_gen_mov(f.ir, f.g[3], t1);
    ir_gen_mov(f.ir, f.g[4], t2);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_add), 3);

    /* The earlier result was overwritten: recomputed. */
    ir_reset(f.ir);
    ir_gen_op3(f.ir, IR_xor, f.g[5], f.g[1], f.g[2]);
    ir_gen_mov(f.ir, f.g[7], f.g[5]); /* (so the first xor is not dead) */
    ir_gen_movi(f.ir, f.g[5], 0);
    ir_gen_op3(f.ir, IR_xor, f.g[6], f.g[1], f.g[2]);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_xor), 2);

    /* Not across a label (locals do not live there). */
    ir_reset(f.ir);
    IRLabel l = ir_label(f.ir);
    t1 = ir_temp(f.ir);
    t2 = ir_temp(f.ir);
    ir_gen_op3(f.ir, IR_mul, t1, f.g[1], f.g[2]);
    ir_gen_mov(f.ir, f.g[3], t1);
    ir_gen_brcond(f.ir, IR_COND_EQ, f.g[7], f.g[8], l);
    ir_gen_movi(f.ir, f.g[9], 1);
    ir_gen_set_label(f.ir, l);
    ir_gen_op3(f.ir, IR_mul, t2, f.g[1], f.g[2]);
    ir_gen_mov(f.ir, f.g[4], t2);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_true(ir_validate(f.ir, stderr));
    assert_int_equal(count_op(f.ir, IR_mul), 2);
    fixture_fini(&f);
}

/* Extensions of values already extended that way become copies; others
 * stay (an unsigned 16-bit load is not sign-extended from 16 bits). */
static void test_known_extensions(void **state)
{
    static const struct {
        unsigned memop;  /* how the value was loaded */
        IROpcode ext;
        bool removed;
    } cases[] = {
        { IR_MO_16, IR_ext16u, true },   { IR_MO_16, IR_ext16s, false },
        { IR_MO_16, IR_ext32s, true },   { IR_MO_16, IR_ext8u, false },
        { IR_MO_32 | IR_MO_SIGN, IR_ext32s, true },
        { IR_MO_32 | IR_MO_SIGN, IR_ext32u, false },
        { IR_MO_8 | IR_MO_SIGN, IR_ext16s, true },
        { IR_MO_8 | IR_MO_SIGN, IR_ext8u, false },
        { IR_MO_64, IR_ext32u, false },
    };
    JitFixture f;

    fixture_init(&f);
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        ir_reset(f.ir);
        IRTemp v = ir_temp(f.ir);
        ir_gen_qemu_ld(f.ir, v, f.g[1], cases[k].memop, 0x10);
        ir_gen_op2(f.ir, cases[k].ext, f.g[2], v);
        ir_gen_exit_tb(f.ir, 0);
        ir_optimize(f.ir);
        assert_int_equal(count_op(f.ir, cases[k].ext), cases[k].removed ? 0 : 1);
    }
    /* setcond is 0/1; an and with a mask covering every possible bit goes. */
    ir_reset(f.ir);
    IRTemp c = ir_temp(f.ir), v = ir_temp(f.ir);
    ir_gen_setcond(f.ir, IR_COND_LT, c, f.g[1], f.g[2]);
    ir_gen_op2(f.ir, IR_ext8u, f.g[3], c);
    ir_gen_qemu_ld(f.ir, v, f.g[1], IR_MO_16, 0x10);
    ir_gen_andi(f.ir, f.g[4], v, 0xffff);
    ir_gen_andi(f.ir, f.g[5], v, 0xfff);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_ext8u), 0);
    assert_int_equal(count_op(f.ir, IR_and), 1);
    fixture_fini(&f);
}

static void test_identities(void **state)
{
    static const struct {
        IROpcode op;
        int64_t k;       /* constant second operand (or INT64_MIN: the same temp) */
        bool to_mov;     /* result: mov of the first operand (else movi .value) */
        uint64_t value;
    } cases[] = {
        { IR_add, 0, true, 0 },          { IR_sub, 0, true, 0 },
        { IR_or, 0, true, 0 },           { IR_xor, 0, true, 0 },
        { IR_and, -1, true, 0 },         { IR_mul, 1, true, 0 },
        { IR_shl, 0, true, 0 },          { IR_shr, 64, true, 0 },
        { IR_sar, 128, true, 0 },        { IR_rotr, 0, true, 0 },
        { IR_andc, 0, true, 0 },         { IR_and, 0, false, 0 },
        { IR_mul, 0, false, 0 },         { IR_or, -1, false, UINT64_MAX },
        { IR_andc, -1, false, 0 },       { IR_muluh, 1, false, 0 },
        { IR_xor, INT64_MIN, false, 0 }, { IR_sub, INT64_MIN, false, 0 },
        { IR_andc, INT64_MIN, false, 0 }, { IR_and, INT64_MIN, true, 0 },
        { IR_or, INT64_MIN, true, 0 },
    };
    JitFixture f;

    fixture_init(&f);
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        ir_reset(f.ir);
        IRTemp b = cases[k].k == INT64_MIN ? f.g[1] : ir_const(f.ir, cases[k].k);
        ir_gen_op3(f.ir, cases[k].op, f.g[2], f.g[1], b);
        ir_gen_exit_tb(f.ir, 0);
        ir_optimize(f.ir);
        if (cases[k].to_mov) {
            const IRInsn *m = first_op(f.ir, IR_mov);
            assert_non_null(m);
            assert_int_equal(m->args[1], f.g[1]);
        } else {
            const IRInsn *m = first_op(f.ir, IR_movi);
            assert_non_null(m);
            assert_int_equal(m->args[1], cases[k].value);
        }
        assert_null(first_op(f.ir, cases[k].op));
    }
    /* Constants move to the second operand of commutative ops. */
    ir_reset(f.ir);
    ir_gen_op3(f.ir, IR_add, f.g[2], ir_const(f.ir, 5), f.g[1]);
    ir_gen_setcond(f.ir, IR_COND_LT, f.g[3], ir_const(f.ir, 5), f.g[1]);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    const IRInsn *add = first_op(f.ir, IR_add), *set = first_op(f.ir, IR_setcond);
    assert_int_equal(add->args[1], f.g[1]);
    assert_true(temp_is_const(f.ir, add->args[2], 5));
    assert_int_equal(set->args[1], f.g[1]);
    assert_int_equal(set->args[3], IR_COND_GT); /* 5 < x  ==  x > 5 */
    fixture_fini(&f);
}

static void test_branches_and_unreachable_code(void **state)
{
    JitFixture f;

    fixture_init(&f);
    /* Taken constant branch: becomes br; the code after it goes. */
    IRLabel l = ir_label(f.ir);
    IRTemp t = ir_temp(f.ir);
    ir_gen_movi(f.ir, t, 3);
    ir_gen_brcond(f.ir, IR_COND_LTU, t, ir_const(f.ir, 4), l);
    ir_gen_movi(f.ir, f.g[1], 1);
    ir_gen_qemu_st(f.ir, f.g[1], f.g[2], IR_MO_32, 0x10);
    ir_gen_exit_tb(f.ir, 0x100);
    ir_gen_set_label(f.ir, l);
    ir_gen_movi(f.ir, f.g[1], 2);
    ir_gen_exit_tb(f.ir, 0x200);
    ir_optimize(f.ir);
    assert_true(ir_validate(f.ir, stderr));
    IROpcode ops[8];
    unsigned n = live_ops(f.ir, ops, 8);
    /* br to the label that follows it is gone too; the label is unused. */
    assert_int_equal(n, 2);
    assert_int_equal(ops[0], IR_movi);
    assert_int_equal(ops[1], IR_exit_tb);
    assert_int_equal(first_op(f.ir, IR_exit_tb)->args[0], 0x200);

    /* Not-taken branch disappears; the label becomes unused and goes. */
    ir_reset(f.ir);
    l = ir_label(f.ir);
    ir_gen_brcond(f.ir, IR_COND_GT, f.g[1], f.g[1], l);
    ir_gen_movi(f.ir, f.g[1], 1);
    ir_gen_set_label(f.ir, l);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    n = live_ops(f.ir, ops, 8);
    assert_int_equal(n, 2);
    assert_int_equal(ops[0], IR_movi);

    /* setcond/movcond with decided conditions. */
    ir_reset(f.ir);
    ir_gen_setcond(f.ir, IR_COND_LEU, f.g[1], f.g[2], f.g[2]);
    ir_gen_setcond(f.ir, IR_COND_NEVER, f.g[3], f.g[2], f.g[4]);
    ir_gen_movcond(f.ir, IR_COND_EQ, f.g[5], ir_const(f.ir, 1), ir_const(f.ir, 2), f.g[6],
                   f.g[7]);
    ir_gen_movcond(f.ir, IR_COND_LT, f.g[8], f.g[1], f.g[2], f.g[9], f.g[9]);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_int_equal(count_op(f.ir, IR_setcond) + count_op(f.ir, IR_movcond), 0);
    const IRInsn *m0 = first_op(f.ir, IR_movi);
    assert_int_equal(m0->args[0], f.g[1]);
    assert_int_equal(m0->args[1], 1);
    fixture_fini(&f);
}

static uint64_t helper_pure(uint64_t a)
{
    return a + 1;
}

static const IRHelperInfo h_pure = { "pure", (void *)helper_pure, 1, 1,
                                     IR_CALL_NO_RWG | IR_CALL_NO_SE, NULL };
static const IRHelperInfo h_effect = { "effect", (void *)helper_pure, 1, 1, IR_CALL_NO_RWG,
                                       NULL };
static const IRHelperInfo h_reads = { "reads", (void *)helper_pure, 1, 1, IR_CALL_NO_WG, NULL };
static const IRHelperInfo h_writes = { "writes", (void *)helper_pure, 1, 1, 0, NULL };

static void test_dead_code(void **state)
{
    JitFixture f;

    fixture_init(&f);
    IRTemp a = ir_temp(f.ir), b = ir_temp(f.ir), c = ir_temp(f.ir), d = ir_temp(f.ir);
    IRTemp e = ir_temp(f.ir);
    ir_gen_add(f.ir, a, f.g[1], f.g[2]);            /* unused: goes */
    ir_gen_call(f.ir, &h_pure, b, 1, &a);           /* unused, pure: goes */
    ir_gen_call(f.ir, &h_effect, c, 1, &f.g[1]);    /* side effect: stays */
    ir_gen_qemu_ld(f.ir, d, f.g[3], IR_MO_64, 0x4); /* may fault: stays */
    ir_gen_ld(f.ir, IR_ld64, e, f.ir->env, 0x80);   /* unused host load: goes */
    ir_gen_addi(f.ir, f.g[4], f.g[4], 1);           /* global: stays */
    ir_gen_st(f.ir, IR_st32, f.g[4], f.ir->env, 0x300);
    ir_gen_exit_tb(f.ir, 0);
    ir_optimize(f.ir);
    assert_true(ir_validate(f.ir, stderr));
    IROpcode ops[16];
    unsigned n = live_ops(f.ir, ops, 16);
    assert_int_equal(n, 5);
    assert_int_equal(ops[0], IR_call);
    assert_int_equal(ops[1], IR_qemu_ld);
    assert_int_equal(ops[2], IR_add);
    assert_int_equal(ops[3], IR_st32);
    assert_int_equal(ops[4], IR_exit_tb);
    /* Compacted: no dead ops left behind. */
    for (unsigned i = 0; i < f.ir->ninsns; i++) {
        assert_false(f.ir->insns[i].dead);
    }
    fixture_fini(&f);
}

/* A write to a global that is discarded or written again before anything
 * can observe it goes; anything that may look at env in between keeps it. */
/* Flags 0: may read and write globals. */
static const IRHelperInfo h_global_reader = { "global_reader", (void *)helper_pure, 1, 1, 0,
                                              NULL };

static void test_dead_global_writes(void **state)
{
    JitFixture f;

    fixture_init(&f);
    for (unsigned k = 0; k < 8; k++) {
        ir_reset(f.ir);
        IRLabel l = ir_label(f.ir);
        IRTemp t = ir_temp(f.ir);
        bool redefine = k == 1 || k == 6 || k == 7;
        unsigned want = k <= 2 ? 0 : 1; /* adds into g5 left */
        ir_gen_add(f.ir, f.g[5], f.g[1], f.g[2]); /* the write in question */
        switch (k) {
        case 0: /* nothing in between, then a discard: dead */
        case 1: /* written again: dead */
            break;
        case 2: /* ops on other temps: still dead */
            ir_gen_sub(f.ir, f.g[6], f.g[1], f.g[3]);
            break;
        case 3: /* a guest load may fault: its handler reads env */
            ir_gen_qemu_ld(f.ir, t, f.g[3], IR_MO_64, 0x4);
            break;
        case 4: /* a helper that may read globals */
            ir_gen_call(f.ir, &h_global_reader, t, 1, &f.g[1]);
            break;
        case 5: /* a branch: the taken path leaves with globals in env */
            ir_gen_brcond(f.ir, IR_COND_EQ, f.g[1], f.g[2], l);
            break;
        case 6: /* a host load from env */
            ir_gen_ld(f.ir, IR_ld64, f.g[7], f.ir->env, 0x80);
            break;
        default: /* read, then written again */
            ir_gen_mov(f.ir, f.g[8], f.g[5]);
            break;
        }
        if (redefine) {
            ir_gen_movi(f.ir, f.g[5], 9);
        } else {
            ir_emit(f.ir, IR_discard, (uint64_t[]){ f.g[5] });
        }
        ir_gen_exit_tb(f.ir, 0);
        if (k == 5) {
            ir_gen_set_label(f.ir, l);
            ir_gen_exit_tb(f.ir, 1);
        }
        ir_optimize(f.ir);
        assert_true(ir_validate(f.ir, stderr));
        if (count_op(f.ir, IR_add) != want) {
            ir_dump(f.ir, stderr);
            fail_msg("case %u: %u adds left, want %u", k, count_op(f.ir, IR_add), want);
        }
    }
    fixture_fini(&f);
}

/* What the optimiser knows about a global dies where the global may change. */
static void test_global_facts_invalidated(void **state)
{
    JitFixture f;
    int off1 = (int)offsetof(CPULinxState, gpr[1]);

    fixture_init(&f);
    for (unsigned k = 0; k < 4; k++) {
        ir_reset(f.ir);
        ir_gen_movi(f.ir, f.g[1], 5);
        IRTemp r = ir_temp(f.ir);
        switch (k) {
        case 0:
            ir_gen_call(f.ir, &h_writes, r, 1, &f.g[2]);
            break;
        case 1:
            ir_gen_st(f.ir, IR_st8, f.g[2], f.ir->env, off1 + 7);
            ir_gen_movi(f.ir, r, 0);
            break;
        case 2:
            ir_gen_call(f.ir, &h_reads, r, 1, &f.g[2]);
            break;
        default:
            ir_gen_st(f.ir, IR_st64, f.g[2], f.ir->env, off1 + 8);
            ir_gen_movi(f.ir, r, 0);
            break;
        }
        ir_gen_addi(f.ir, f.g[3], f.g[1], 1);
        ir_gen_add(f.ir, f.g[4], f.g[4], r);
        ir_gen_exit_tb(f.ir, 0);
        ir_optimize(f.ir);
        bool folded = false;
        for (unsigned i = 0; i < f.ir->ninsns; i++) {
            const IRInsn *in = &f.ir->insns[i];
            if (in->op == IR_movi && in->args[0] == f.g[3] && in->args[1] == 6) {
                folded = true;
            }
        }
        /* Only the NO_WG call (2) and the store to the next field (3) keep g1 known. */
        assert_int_equal(folded, k >= 2);
    }
    fixture_fini(&f);
}

/* Random programs: interpreter before == interpreter after. */
static void test_random_programs_keep_semantics(void **state)
{
    JitFixture f;
    static RIRState init, want, got;

    fixture_init(&f);
    LinxInterp *it = interp_new(f.ir);
    unsigned before_ops = 0, after_ops = 0;
    for (unsigned p = 0; p < RANDOM_PROGRAMS; p++) {
        random_program(&f, 60 + p % 60);
        assert_true(ir_validate(f.ir, stderr));
        rir_randomize(&f);
        rir_save(&f, &init, 0);
        rir_save(&f, &want, run_interp(&f, it));
        before_ops += f.ir->ninsns;
        ir_optimize(f.ir);
        after_ops += f.ir->ninsns;
        if (!ir_validate(f.ir, stderr)) {
            ir_dump(f.ir, stderr);
            fail_msg("invalid IR after the optimiser (program %u)", p);
        }
        rir_load(&f, &init);
        rir_save(&f, &got, run_interp(&f, it));
        rir_expect_same(&want, &got, "after ir_optimize", p);
        /* A second pass finds nothing more to change semantics. */
        ir_optimize(f.ir);
        rir_load(&f, &init);
        rir_save(&f, &got, run_interp(&f, it));
        rir_expect_same(&want, &got, "after a second ir_optimize", p);
    }
    /* The random programs have plenty to fold. */
    assert_true(after_ops < before_ops * 9 / 10);
    interp_free(it);
    fixture_fini(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_op_matches_reference),
        cmocka_unit_test(test_pass_folds_every_pure_op),
        cmocka_unit_test(test_copy_propagation),
        cmocka_unit_test(test_common_subexpressions),
        cmocka_unit_test(test_known_extensions),
        cmocka_unit_test(test_identities),
        cmocka_unit_test(test_branches_and_unreachable_code),
        cmocka_unit_test(test_dead_code),
        cmocka_unit_test(test_dead_global_writes),
        cmocka_unit_test(test_global_facts_invalidated),
        cmocka_unit_test(test_random_programs_keep_semantics),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
