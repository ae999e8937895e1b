/*
 * insn_count at a data fault in the middle of a block: the instructions
 * before the faulting one retired (their results are in the registers),
 * so they are counted - under the interpreter, the JIT and the JIT with
 * one instruction per TB alike.  Whole-block TBs add their count at the
 * end of the TB, and a fault used to skip it (0 instead of N); the
 * random-program differential fuzzer found it (tests/guest/
 * linx-difftest.c, tests/guest/difftest/fault-count.s).  The expected
 * counts are the instructions written before the fault, block-start
 * marker included.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel-rig.h"

typedef struct Case {
    const char *what;
    const char *body; /* after "C.BSTART.STD"; faults at its last instruction */
    uint64_t retired; /* instructions before the fault */
    unsigned trapnum;
} Case;

static const Case cases[] = {
    { "load first", "    ldi [zero, 0], ->s0\n", 1, LINX_TRAP_DATA_PAGE_FAULT },
    { "load third", "    addi zero, 1, ->a0\n    addi zero, 2, ->a1\n    ldi [zero, 0], ->s0\n", 3,
      LINX_TRAP_DATA_PAGE_FAULT },
    { "store", "    addi zero, 1, ->a0\n    sdi a0, [zero, 8]\n", 2, LINX_TRAP_DATA_PAGE_FAULT },
    { "misaligned", "    addtpc _start, ->a2\n    addi a0, 1, ->a0\n    lwi.u [a2, 1], ->s0\n", 3,
      LINX_TRAP_DATA_ALIGN_FAULT },
    { "atomic", "    addi zero, 1, ->a0\n    addi zero, 1, ->a1\n    ld.add [zero], a0, ->s0\n", 3,
      LINX_TRAP_DATA_PAGE_FAULT },
    { "dc.zva", "    addi zero, 1, ->a0\n    dc.zva zero\n", 2, LINX_TRAP_DATA_PAGE_FAULT },
};

static void run_case(const Case *c, LinxAccel accel, bool one_insn)
{
    char src[1024];
    LinxExecOptions eo;
    KRig r;

    snprintf(src, sizeof(src),
             "    .text\n    .globl _start\n_start:\n    C.BSTART.STD\n%s    ebreak 0\n"
             "    C.BSTOP\n",
             c->body);
    linx_exec_options_init(&eo);
    eo.accel = accel;
    eo.one_insn_per_tb = one_insn;
    krig_start_opts(&r, src, &eo, false);
    krig_run(&r);
    if (r.excp != EXCP_TRAP || krig_trapnum(&r) != c->trapnum || r.env->insn_count != c->retired) {
        fail_msg("%s (%s%s): excp %d trap %u, insn_count %llu, expected trap %u after %llu",
                 c->what, accel == LINX_ACCEL_JIT ? "jit" : "interp", one_insn ? " one-insn" : "",
                 r.excp, krig_trapnum(&r), (unsigned long long)r.env->insn_count, c->trapnum,
                 (unsigned long long)c->retired);
    }
    /* The instructions before it did retire. */
    if (strstr(c->body, "addi zero, 1, ->a0")) {
        assert_int_equal(r.env->gpr[LINX_REG_A0], 1);
    }
    krig_free(&r);
}

static void test_fault_counts(void **state)
{
    (void)state;
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_case(&cases[i], LINX_ACCEL_INTERP, false);
        run_case(&cases[i], LINX_ACCEL_JIT, false);
        run_case(&cases[i], LINX_ACCEL_JIT, true);
        run_case(&cases[i], LINX_ACCEL_INTERP, true);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_counts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
