/*
 * Self-looping blocks as loops inside their TB (target/linx/translate.c
 * gen_loop_back, docs/backend.md "Loops inside a TB"), run through the
 * real front end and exec loop (LinxISA assembled by linx-as) three ways:
 * JIT with the in-TB loop, JIT without it (LinxExecOptions.no_loop_in_tb:
 * the chained goto_tb after each TB's copies, as before) and the
 * interpreter.  The expected values come from the program text, not from
 * a run:
 *   - a counted loop (sum of n..1) for n = 1..11 (every number of copies
 *     and of trips round the back edge): the sum, the counter, and
 *     insn_count growing by exactly the loop block's 4 instructions per
 *     iteration;
 *   - an endless loop stops at a kick (exit_request, with the exit checks
 *     linux-user and the virt machine turn on for -timeout and signals):
 *     cpu_exec returns EXCP_INTERRUPT with env->pc at the loop block, the
 *     counter and insn_count consistent (3 instructions per iteration),
 *     and continues from there;
 *   - linx_exec_step (the differential tester's and fuzzers' one TB)
 *     comes back from an endless loop after one pass of the TB;
 *   - a debugger breakpoint inside the loop stops before its instruction
 *     on the first iteration, and the loop finishes with the right sum
 *     after the breakpoint is removed;
 *   - a store into the loop's own code (a new immediate for its add): the
 *     TB is invalidated and the loop leaves it at the back edge; the new
 *     code runs from the next TB on, as it did with the chained goto_tb.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"
#include "linx-as.h"
#include "target/linx/cpu.h"
#include "target/linx/exec-target.h"
#include "target/linx/profile.h"
#include "tcg/exec.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define A0 2
#define A1 3
#define A2 4

enum { WAY_JIT_LOOP, WAY_JIT_NOLOOP, WAY_INTERP, NB_WAYS };

typedef struct Run {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    uint64_t sym;          /* the symbol asked for */
} Run;

static void run_init(Run *r, const char *src, const char *sym, int way)
{
    LinxAsOptions o;
    LinxAs *as;
    LinxExecOptions opts;
    uint8_t *img = NULL;
    size_t len = 0;
    char err[256];

    memset(r, 0, sizeof(*r));
    linx_as_default_options(&o);
    o.base = CODE_BASE;
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    linx_as_add_source(as, "loop.s", src, strlen(src));
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &len) ||
        !linx_as_symbol_value(as, sym, &r->sym)) {
        fprintf(stderr, "%s", linx_as_diagnostics(as));
        fail_msg("cannot assemble the loop");
    }
    linx_as_free(as);
    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_non_null(r->gm);
    assert_true(guest_mem_map(r->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false));
    assert_int_equal(guest_mem_write(r->gm, CODE_BASE, img, len, NULL), GM_OK);
    free(img);
    linx_exec_options_init(&opts);
    opts.accel = way == WAY_INTERP ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT;
    opts.no_loop_in_tb = way == WAY_JIT_NOLOOP;
    opts.trace_commit_path = NULL;
    r->ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(*r->env));
    assert_non_null(r->env);
    r->env->engine.mem = r->gm;
    r->env->profile = linx_profile(LINX_PROFILE_TOOLCHAIN);
    linx_cpu_reset(r->env, CODE_BASE, 0);
    linx_exec_attach_cpu(r->ec, r->env);
}

static void run_fini(Run *r)
{
    linx_exec_free(r->ec);
    guest_mem_free(r->gm);
    free(r->env);
}

/* sum = n + (n - 1) + ... + 1, then an EBREAK. */
static const char counted_src[] =
    "    .text\n    .globl _start\n_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addi zero, 0, ->a1\n"
    "loop:\n"
    "    BSTART COND, loop\n"
    "add_insn:\n"
    "    add a1, a0, ->a1\n"
    "    subi a0, 1, ->a0\n"
    "    setc.nei a0, 0\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n";

static void test_counted_loop(void **state)
{
    (void)state;
    for (int way = 0; way < NB_WAYS; way++) {
        uint64_t count_prev = 0;
        for (uint64_t n = 1; n <= 11; n++) {
            Run r;
            run_init(&r, counted_src, "loop", way);
            r.env->gpr[A0] = n;
            int excp = cpu_exec(r.env);
            assert_int_not_equal(excp, EXCP_INTERRUPT);
            assert_int_equal(r.env->gpr[A0], 0);
            assert_int_equal(r.env->gpr[A1], n * (n + 1) / 2);
            if (n > 1) {
                /* One more trip: the loop block's 4 instructions. */
                assert_int_equal(r.env->insn_count - count_prev, 4);
            }
            count_prev = r.env->insn_count;
            run_fini(&r);
        }
    }
}

/* a1 counts forever (a0 stays 1). */
static const char endless_src[] =
    "    .text\n    .globl _start\n_start:\n"
    "    C.BSTART.STD FALL\n"
    "    addi zero, 0, ->a1\n"
    "    addi zero, 1, ->a0\n"
    "spin:\n"
    "    BSTART COND, spin\n"
    "    addi a1, 1, ->a1\n"
    "    setc.nei a0, 0\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n";

static void *kick_later(void *arg)
{
    struct timespec ts = { 0, 20 * 1000 * 1000 };

    nanosleep(&ts, NULL);
    linx_cpu_kick(arg);
    return NULL;
}

static void test_kick_stops_loop(void **state)
{
    (void)state;
    for (int way = 0; way < NB_WAYS; way++) {
        Run r;
        uint64_t a1_prev = 0;
        run_init(&r, endless_src, "spin", way);
        linx_exec_set_exit_check(r.ec, true);
        for (int round = 0; round < 2; round++) {
            pthread_t t;
            assert_int_equal(pthread_create(&t, NULL, kick_later, r.env), 0);
            int excp = cpu_exec(r.env);
            pthread_join(t, NULL);
            assert_int_equal(excp, EXCP_INTERRUPT);
            assert_int_equal(r.env->pc, r.sym);
            assert_true(r.env->gpr[A1] > a1_prev);
            /* _start's 3 instructions, then 3 per iteration. */
            assert_int_equal(r.env->insn_count, 3 + 3 * r.env->gpr[A1]);
            a1_prev = r.env->gpr[A1];
        }
        run_fini(&r);
    }
}

/* linx_exec_step runs one TB: an endless loop inside it comes back after
 * one pass (at most the TB's copies of the loop block), at the loop. */
static void test_step_runs_one_pass(void **state)
{
    (void)state;
    for (int way = 0; way < NB_WAYS; way++) {
        Run r;
        uint64_t prev = 0;
        run_init(&r, endless_src, "spin", way);
        for (int step = 0; step < 6; step++) {
            linx_exec_step(r.env, way == WAY_INTERP ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT);
            if (step > 0) {
                assert_int_equal(r.env->pc, r.sym);
                assert_true(r.env->gpr[A1] > prev && r.env->gpr[A1] - prev <= 16);
            }
            prev = r.env->gpr[A1];
        }
        run_fini(&r);
    }
}

static void test_breakpoint_in_loop(void **state)
{
    (void)state;
    for (int way = 0; way < NB_WAYS; way++) {
        Run r;
        uint64_t add_pc;
        run_init(&r, counted_src, "add_insn", way);
        add_pc = r.sym;
        r.env->gpr[A0] = 7;
        assert_true(linx_exec_breakpoint_insert(r.ec, add_pc));
        assert_int_equal(cpu_exec(r.env), EXCP_DEBUG);
        assert_int_equal(r.env->pc, add_pc);
        assert_int_equal(r.env->gpr[A1], 0);
        assert_int_equal(r.env->gpr[A0], 7);
        /* Move it to the next instruction (as gdb steps over one): the
         * add has run, the subi not. */
        assert_true(linx_exec_breakpoint_remove(r.ec, add_pc));
        assert_true(linx_exec_breakpoint_insert(r.ec, add_pc + 4));
        assert_int_equal(cpu_exec(r.env), EXCP_DEBUG);
        assert_int_equal(r.env->pc, add_pc + 4);
        assert_int_equal(r.env->gpr[A1], 7);
        assert_int_equal(r.env->gpr[A0], 7);
        /* And back: the next stop is the second iteration's add. */
        assert_true(linx_exec_breakpoint_remove(r.ec, add_pc + 4));
        assert_true(linx_exec_breakpoint_insert(r.ec, add_pc));
        assert_int_equal(cpu_exec(r.env), EXCP_DEBUG);
        assert_int_equal(r.env->pc, add_pc);
        assert_int_equal(r.env->gpr[A1], 7);
        assert_int_equal(r.env->gpr[A0], 6);
        assert_true(linx_exec_breakpoint_remove(r.ec, add_pc));
        assert_int_not_equal(cpu_exec(r.env), EXCP_DEBUG);
        assert_int_equal(r.env->gpr[A0], 0);
        assert_int_equal(r.env->gpr[A1], 28);
        run_fini(&r);
    }
}

/* The loop rewrites the 32-bit word of its own "addi a1, 1" with a2 (an
 * "addi a1, 100") on the iteration where a0 reaches 5 (counting down from
 * 20), and a3 counts iterations.  The new word is used from the first TB
 * entered after the store: in this TB (4 copies) the copies after the
 * store still run the old code, so the expected sum depends only on where
 * the TB boundaries are - the same for all three ways: the in-TB loop
 * must leave at the back edge of the invalidated TB, as the unchained
 * goto_tb did. */
static const char smc_src[] =
    "    .text\n    .globl _start\n_start:\n"
    "    C.BSTART.STD FALL\n"
    "    c.movr a0, ->a3\n" /* 16 bits: puts "patch" on a word boundary */
    "    addi zero, 0, ->a1\n"
    "    addi zero, 20, ->a0\n"
    "loop:\n"
    "    BSTART COND, loop\n"
    "patch:\n"
    "    addi a1, 1, ->a1\n"
    "    subi a0, 1, ->a0\n"
    "    cmp.eqi a0, 5, ->t\n"
    "    csel t#1, a5, a4, ->t\n"
    "    swi a2, [t#1, 0]\n"
    "    setc.nei a0, 0\n"
    "    C.BSTART.STD FALL\n"
    "    ebreak 0\n";

static void test_store_into_loop_code(void **state)
{
    uint64_t sums[NB_WAYS];

    (void)state;
    for (int way = 0; way < NB_WAYS; way++) {
        Run r;
        uint32_t old_word, new_word;
        LinxAsOptions o;
        LinxAs *as;
        uint8_t *img = NULL;
        size_t len = 0;
        static const char one[] = "    .text\n    addi a1, 100, ->a1\n";

        run_init(&r, smc_src, "patch", way);
        assert_int_equal(guest_mem_debug_rw(r.gm, r.sym, &old_word, 4, false), GM_OK);
        linx_as_default_options(&o);
        o.format = LINX_AS_FMT_BIN;
        as = linx_as_new(&o);
        linx_as_add_source(as, "one.s", one, strlen(one));
        assert_true(linx_as_assemble(as) && linx_as_output(as, &img, &len));
        assert_int_equal(len, 4);
        memcpy(&new_word, img, 4);
        free(img);
        linx_as_free(as);
        assert_int_not_equal(old_word, new_word);
        /* The store goes to &patch (a4) when a0 == 5, else to a scratch
         * word in a page without code (a5). */
        r.env->gpr[A2] = new_word;
        r.env->gpr[6] = r.sym;
        r.env->gpr[7] = CODE_BASE + 0x8000;
        cpu_exec(r.env);
        assert_int_equal(r.env->gpr[A0], 0);
        sums[way] = r.env->gpr[A1];
        /* Iterations before the store add 1; at least the last 4 (after
         * the next TB boundary at the latest) add 100. */
        assert_true(sums[way] >= 15 + 4 * 100);
        assert_true(sums[way] <= 15 + 5 * 100);
        run_fini(&r);
    }
    assert_int_equal(sums[WAY_JIT_LOOP], sums[WAY_JIT_NOLOOP]);
    assert_int_equal(sums[WAY_JIT_LOOP], sums[WAY_INTERP]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counted_loop),
        cmocka_unit_test(test_kick_stops_loop),
        cmocka_unit_test(test_step_runs_one_pass),
        cmocka_unit_test(test_breakpoint_in_loop),
        cmocka_unit_test(test_store_into_loop_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
