/*
 * IR tests: the op table, context bookkeeping (globals survive ir_reset,
 * helper indices are stable), the emitters, the dumper's text and every
 * rule of the validator.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcg/ir.h"

static uint64_t h_add(uint64_t a, uint64_t b)
{
    return a + b;
}

static void h_void(uint64_t a)
{
    (void)a;
}

static void h_noreturn(uint64_t a)
{
    (void)a;
    abort();
}

static const IRHelperInfo info_add = { "add2", (void *)h_add, 2, 1, IR_CALL_NO_RWG, NULL };
static const IRHelperInfo info_noreturn = { "raise", (void *)h_noreturn, 1, 0,
                                            IR_CALL_NORETURN, NULL };
static const IRHelperInfo info_void = { "sink", (void *)h_void, 1, 0, 0, NULL };

/* Run the dumper into a string. */
static char *dump_to_string(const IRContext *ir)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ir_dump(ir, f);
    fclose(f);
    return buf;
}

static bool validates(const IRContext *ir)
{
    return ir_validate(ir, NULL);
}

static void test_op_table(void **state)
{
    /* The table is generated from ir-ops.h: spot-check it. */
    assert_string_equal(ir_op_info[IR_add].name, "add");
    assert_int_equal(ir_op_info[IR_add].nout, 1);
    assert_int_equal(ir_op_info[IR_add].nin, 2);
    assert_int_equal(ir_op_info[IR_brcond].nconst, 2);
    assert_true(ir_op_info[IR_brcond].flags & IR_F_BB_END);
    assert_true(ir_op_info[IR_qemu_st].flags & IR_F_MEM);
    assert_true(ir_op_info[IR_call].flags & IR_F_CALL);
    for (unsigned op = 0; op < IR_NB_OPS; op++) {
        assert_non_null(ir_op_info[op].name);
        assert_non_null(ir_op_info[op].doc);
        assert_true(ir_op_info[op].nout + ir_op_info[op].nin + ir_op_info[op].nconst <=
                    IR_MAX_ARGS);
    }
    assert_string_equal(ir_cond_name(IR_COND_LTU), "ltu");
    assert_string_equal(ir_cond_name(99), "?");
}

static void test_context(void **state)
{
    IRContext *ir = ir_context_new();
    char name[8] = "r1";
    IRTemp g1 = ir_global(ir, 8, name), g2, t, c;

    strcpy(name, "XX"); /* names are copied */
    g2 = ir_global(ir, 16, "r2");
    assert_int_equal(ir->temps[ir->env].kind, IR_TEMP_FIXED);
    assert_int_equal(ir->temps[g1].kind, IR_TEMP_GLOBAL);
    assert_int_equal(ir->temps[g1].env_offset, 8);
    assert_string_equal(ir->temps[g1].name, "r1");
    assert_int_equal(ir->nglobals, 3);

    ir_reset(ir);
    t = ir_temp(ir);
    c = ir_const(ir, -5);
    assert_int_equal(t, 3);
    assert_int_equal(ir->temps[c].kind, IR_TEMP_CONST);
    assert_int_equal(ir->temps[c].value, -5);
    assert_int_equal(ir_label(ir), 0);
    assert_int_equal(ir_label(ir), 1);
    ir_gen_add(ir, t, g1, g2);
    assert_int_equal(ir->ninsns, 1);

    /* Reset drops locals, constants, labels and ops, keeps globals. */
    ir_reset(ir);
    assert_int_equal(ir->ntemps, 3);
    assert_int_equal(ir->ninsns, 0);
    assert_int_equal(ir->nlabels, 0);
    assert_string_equal(ir->temps[g2].name, "r2");

    /* Many ops and temps: the arrays grow. */
    for (int i = 0; i < 5000; i++) {
        IRTemp x = ir_temp(ir);
        ir_gen_movi(ir, x, i);
    }
    assert_int_equal(ir->ninsns, 5000);
    assert_int_equal(ir->insns[4999].args[1], 4999);
    ir_context_free(ir);
}

/* globals_written: which globals an op wrote since the front end last
 * took the bit (only those need an IR_discard at a block commit). */
static void test_globals_written(void **state)
{
    IRContext *ir = ir_context_new();
    IRTemp g1 = ir_global(ir, 8, "r1"), g2 = ir_global(ir, 16, "r2"), t;
    IRTemp r, a[2];

    ir_reset(ir);
    assert_int_equal(ir->globals_written, 0);
    /* Read only: no bit. */
    t = ir_temp(ir);
    ir_gen_add(ir, t, g1, g2);
    assert_false(ir_take_global_written(ir, g1));
    assert_false(ir_take_global_written(ir, g2));
    /* Written: the bit is taken once. */
    ir_gen_mov(ir, g1, t);
    assert_true(ir_take_global_written(ir, g1));
    assert_false(ir_take_global_written(ir, g1));
    assert_false(ir_take_global_written(ir, g2));
    /* A helper's result is an output too. */
    a[0] = ir_const(ir, 1);
    a[1] = ir_const(ir, 2);
    ir_gen_call(ir, &info_add, g2, 2, a);
    assert_true(ir_take_global_written(ir, g2));
    /* A call without outputs writes none (helpers that write env fields
     * leave no newer value for a discard to drop). */
    ir_gen_call(ir, &info_void, IR_NO_TEMP, 1, &g1);
    assert_false(ir_take_global_written(ir, g1));
    /* A label: control may come from anywhere, every bit is set. */
    ir_gen_set_label(ir, ir_label(ir));
    assert_true(ir_take_global_written(ir, g1));
    assert_true(ir_take_global_written(ir, g2));
    assert_true(ir_take_global_written(ir, ir->env));
    assert_false(ir_take_global_written(ir, g1));
    /* A temp that is no global always answers yes (not tracked). */
    r = ir_temp(ir);
    assert_true(ir_take_global_written(ir, r));
    assert_true(ir_take_global_written(ir, r));
    /* ir_reset starts the next TB with no bit set. */
    ir_gen_movi(ir, g1, 7);
    ir_reset(ir);
    assert_false(ir_take_global_written(ir, g1));
    ir_context_free(ir);
}

static void test_helper_indices(void **state)
{
    IRContext *ir = ir_context_new();
    IRTemp r, a[2];

    ir_reset(ir);
    r = ir_temp(ir);
    a[0] = ir_const(ir, 1);
    a[1] = ir_const(ir, 2);
    ir_gen_call(ir, &info_add, r, 2, a);
    ir_gen_call(ir, &info_void, IR_NO_TEMP, 1, &r);
    ir_gen_call(ir, &info_add, r, 2, a);
    assert_int_equal(ir->nhelpers, 2);
    assert_int_equal(ir->insns[0].args[3], 0);
    assert_int_equal(ir->insns[1].args[1], 1);
    assert_int_equal(ir->insns[0].nout, 1);
    assert_int_equal(ir->insns[0].nin, 2);
    assert_int_equal(ir->insns[1].nout, 0);
    assert_int_equal(ir->insns[1].nin, 1);
    /* Indices survive ir_reset. */
    ir_reset(ir);
    assert_int_equal(ir_helper_index(ir, &info_void), 1);
    assert_int_equal(ir_helper_index(ir, &info_add), 0);
    ir_context_free(ir);
}

static void test_dump(void **state)
{
    IRContext *ir = ir_context_new();
    IRTemp sp = ir_global(ir, 8, "sp");
    IRTemp t, r, a[2];
    IRLabel l;
    char *s;

    ir_reset(ir);
    t = ir_temp(ir);
    r = ir_temp(ir);
    l = ir_label(ir);
    ir_gen_insn_start(ir, 0x10002, 1);
    ir_gen_addi(ir, t, sp, 16);
    ir_gen_qemu_ld(ir, t, t, IR_MO_64 | IR_MO_ALIGN, 0x10002);
    a[0] = t;
    a[1] = sp;
    ir_gen_call(ir, &info_add, r, 2, a);
    ir_gen_brcond(ir, IR_COND_EQ, r, ir_const(ir, 0), l);
    ir_gen_ld(ir, IR_ld32s, r, ir->env, -8);
    ir_gen_set_label(ir, l);
    ir_gen_exit_tb(ir, 0);
    s = dump_to_string(ir);
    assert_string_equal(s,
        " ---- 0x10002 (insn 1)\n"
        " add tmp2, sp, $0x10\n"
        " qemu_ld tmp2, tmp2, u64+al, pc=0x10002\n"
        " call add2 tmp3 <- tmp2, sp\n"
        " brcond tmp3, $0x0, eq, $L0\n"
        " ld32s tmp3, env, -0x8\n"
        " $L0:\n"
        " exit_tb 0x0\n");
    free(s);
    ir_context_free(ir);
}

/* A minimal valid TB: one op and an exit. */
static IRContext *valid_prefix(IRTemp *g, IRTemp *t)
{
    IRContext *ir = ir_context_new();

    *g = ir_global(ir, 0, "g");
    ir_reset(ir);
    *t = ir_temp(ir);
    ir_gen_movi(ir, *t, 1);
    return ir;
}

static void test_validate_ok(void **state)
{
    IRTemp g, t, a[2];
    IRContext *ir = valid_prefix(&g, &t);
    IRLabel l = ir_label(ir);

    /* Locals live across brcond on the fall-through path. */
    ir_gen_brcond(ir, IR_COND_NE, t, g, l);
    ir_gen_add(ir, g, g, t);
    ir_gen_goto_tb(ir, 0);
    ir_gen_exit_tb(ir, 0x1000);
    ir_gen_set_label(ir, l);
    a[0] = g;
    a[1] = g;
    ir_gen_call(ir, &info_add, g, 2, a);
    ir_gen_goto_tb(ir, 1);
    ir_gen_exit_tb(ir, 0x1001);
    assert_true(validates(ir));
    ir_context_free(ir);
}

static void test_validate_rules(void **state)
{
    IRTemp g, t, u, a[2];
    IRContext *ir;
    IRLabel l;

    /* Local read before written. */
    ir = valid_prefix(&g, &t);
    u = ir_temp(ir);
    ir_gen_add(ir, g, u, t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Local live across a label. */
    ir = valid_prefix(&g, &t);
    l = ir_label(ir);
    ir_gen_set_label(ir, l);
    ir_gen_mov(ir, g, t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Runs off the end. */
    ir = valid_prefix(&g, &t);
    ir_gen_mov(ir, g, t);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Empty list. */
    ir = ir_context_new();
    ir_reset(ir);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Writing a constant or env. */
    ir = valid_prefix(&g, &t);
    ir_gen_mov(ir, ir_const(ir, 3), t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_mov(ir, ir->env, t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Branch to a label never set, label out of range, set twice. */
    ir = valid_prefix(&g, &t);
    ir_gen_br(ir, ir_label(ir));
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_br(ir, 7);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    l = ir_label(ir);
    ir_gen_set_label(ir, l);
    ir_gen_set_label(ir, l);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Bad condition, bad memop, temp out of range, unknown opcode. */
    ir = valid_prefix(&g, &t);
    ir_gen_setcond(ir, (IRCond)40, g, t, t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_qemu_ld(ir, g, t, 0x40, 0);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_add(ir, g, t, 999);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_exit_tb(ir, 0);
    ir->insns[0].op = IR_NB_OPS + 3;
    assert_false(validates(ir));
    ir_context_free(ir);

    /* goto_tb: slot range, reuse, must be followed by exit_tb. */
    ir = valid_prefix(&g, &t);
    ir_gen_goto_tb(ir, 2);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_goto_tb(ir, 0);
    ir_gen_exit_tb(ir, 0);
    ir_gen_goto_tb(ir, 0);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_goto_tb(ir, 0);
    ir_gen_mov(ir, g, t); /* the unchained path stores the pc: fine */
    ir_gen_exit_tb(ir, 0);
    assert_true(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_goto_tb(ir, 0);
    ir_gen_br(ir, ir_label(ir));
    assert_false(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_goto_tb(ir, 0);
    ir_gen_qemu_st(ir, t, t, IR_MO_8, 0);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Calls: argument count must match the helper. */
    ir = valid_prefix(&g, &t);
    a[0] = t;
    a[1] = t;
    ir_gen_call(ir, &info_add, g, 2, a);
    ir_gen_exit_tb(ir, 0);
    assert_true(validates(ir));
    ir->insns[1].nin = 1;
    assert_false(validates(ir));
    ir->insns[1].nin = 2;
    ir->insns[1].args[3] = 55; /* helper index */
    assert_false(validates(ir));
    ir_context_free(ir);

    /* A list may end in a call that never returns (the optimiser drops
     * the unreachable exit_tb after it); an ordinary call may not. */
    ir = valid_prefix(&g, &t);
    ir_gen_call(ir, &info_noreturn, IR_NO_TEMP, 1, &t);
    assert_true(validates(ir));
    ir_context_free(ir);
    ir = valid_prefix(&g, &t);
    ir_gen_call(ir, &info_void, IR_NO_TEMP, 1, &t);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Op counts that contradict the table. */
    ir = valid_prefix(&g, &t);
    ir_gen_exit_tb(ir, 0);
    ir->insns[0].nin = 2;
    assert_false(validates(ir));
    ir_context_free(ir);

    /* discard kills a local. */
    ir = valid_prefix(&g, &t);
    {
        uint64_t arg = t;
        ir_emit(ir, IR_discard, &arg);
    }
    ir_gen_mov(ir, g, t);
    ir_gen_exit_tb(ir, 0);
    assert_false(validates(ir));
    ir_context_free(ir);

    /* Dead ops are ignored. */
    ir = valid_prefix(&g, &t);
    u = ir_temp(ir);
    ir_gen_mov(ir, g, u);
    ir->insns[ir->ninsns - 1].dead = 1;
    ir_gen_exit_tb(ir, 0);
    assert_true(validates(ir));
    ir_context_free(ir);
}

static void test_validate_message(void **state)
{
    IRTemp g, t;
    IRContext *ir = valid_prefix(&g, &t);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ir_gen_mov(ir, g, t);
    assert_false(ir_validate(ir, f));
    fclose(f);
    assert_non_null(strstr(buf, "run off its end"));
    free(buf);
    ir_context_free(ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_table),
        cmocka_unit_test(test_context),
        cmocka_unit_test(test_globals_written),
        cmocka_unit_test(test_helper_indices),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_validate_ok),
        cmocka_unit_test(test_validate_rules),
        cmocka_unit_test(test_validate_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
