/*
 * Exec loop tests, with the toy ISA front end (toy-isa.h):
 * loops and chaining (and the same results without chaining), indirect
 * jumps through the lookup helper, CFI (E_BLOCK(EC_CFI) for a branch into
 * a non-marker, none for a resume), memory faults as architectural
 * exceptions, exits and exit requests, self-modifying code, FENCE.I from
 * a helper, unmap/remap of code, fetch faults fixed by a later mmap, the
 * TB-memory limit, several CPUs on one context, single steps, and the JIT
 * path of the loop with a fake backend (gen, chain/unchain patches, a full
 * code buffer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "target/linx/exec-target.h"
#include "target/linx/target-config.h"
#include "tcg/engine-config.h"
#include "tcg/interp.h"
#include "tcg/softmmu.h"
#include "toy-isa.h"

#define CODE UINT64_C(0x10000)
#define DATA UINT64_C(0x20000)
#define I TOY_INSN

typedef struct Machine {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
} Machine;

static void machine_init_opts(Machine *m, const LinxExecOptions *opts)
{
    char err[256] = "";

    m->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(m->gm, CODE, 4 * GUEST_PAGE_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(m->gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    m->ec = linx_exec_new(opts, err, sizeof(err));
    if (!m->ec) {
        fail_msg("linx_exec_new: %s", err);
    }
    m->env = g_new0(CPULinxState, 1);
    m->env->engine.mem = m->gm;
    linx_exec_attach_cpu(m->ec, m->env);
    m->env->pc = CODE;
}

static void machine_init(Machine *m)
{
    LinxExecOptions opts;

    toy_exec_options(&opts);
    machine_init_opts(m, &opts);
}

static void machine_free(Machine *m)
{
    linx_exec_free(m->ec);
    guest_mem_free(m->gm);
    g_free(m->env);
}

static void load(Machine *m, uint64_t addr, const uint32_t *p, size_t n)
{
    toy_load(m->gm, addr, p, n);
}

#define LOAD(m, addr, ...) \
    do { \
        static const uint32_t prog_[] = { __VA_ARGS__ }; \
        load((m), (addr), prog_, sizeof(prog_) / sizeof(prog_[0])); \
    } while (0)

static LinxExecStats stats(Machine *m)
{
    LinxExecStats st;

    linx_exec_get_stats(m->ec, &st);
    return st;
}

static uint64_t trapnum(const CPULinxState *env)
{
    return env->trapno & 0x3f;
}

static uint64_t trapcause(const CPULinxState *env)
{
    return (env->trapno >> 24) & 0xffffff;
}

/* r1 = sum of 1..r2 with a two-block loop; halts with the sum. */
static void load_sum_loop(Machine *m, int n)
{
    LOAD(m, CODE,
         I(TOY_MARK, 0, 0, 0),        /* 0x00 */
         I(TOY_MOVI, 1, 0, 0),
         I(TOY_MOVI, 2, 0, 0),        /* patched below */
         I(TOY_MARK, 0, 0, 0),        /* 0x0c loop: */
         I(TOY_ADD, 1, 2, 0),
         I(TOY_ADDI, 2, 0, -1),
         I(TOY_BNZ, 2, 0, -3),        /* -> 0x0c */
         I(TOY_MARK, 0, 0, 0),
         I(TOY_HALT, 0, 0, 0));
    {
        uint32_t movi = I(TOY_MOVI, 2, 0, n);
        load(m, CODE + 8, &movi, 1);
    }
}

static void test_loop_and_chaining(void **state)
{
    Machine m;
    LinxExecStats st;

    machine_init(&m);
    load_sum_loop(&m, 100);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5050);
    st = stats(&m);
    assert_int_equal(st.tbs_translated, 3);
    assert_true(st.chains >= 2);
    /* Chained: far fewer loop entries than blocks executed. */
    assert_true(st.tbs_executed < 10);
    machine_free(&m);
}

static void test_no_chaining_same_result(void **state)
{
    Machine m;
    LinxExecOptions opts;
    LinxExecStats st;

    toy_exec_options(&opts);
    opts.log_mask = LINX_LOG_NOCHAIN;
    machine_init_opts(&m, &opts);
    load_sum_loop(&m, 100);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5050);
    st = stats(&m);
    assert_int_equal(st.chains, 0);
    assert_int_equal(st.tbs_executed, 1 + 100 + 1);
    machine_free(&m);
}

static void test_one_insn_per_tb(void **state)
{
    Machine m;
    LinxExecOptions opts;

    toy_exec_options(&opts);
    opts.one_insn_per_tb = true;
    machine_init_opts(&m, &opts);
    load_sum_loop(&m, 10);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 55);
    /* Every instruction is its own TB (resume TBs inside blocks). */
    assert_int_equal(stats(&m).tbs_translated, 9);
    machine_free(&m);
}

/* JR through the lookup helper; the target is found in the cache. */
static void test_indirect_jump(void **state)
{
    Machine m;

    machine_init(&m);
    LOAD(&m, CODE,
         I(TOY_MARK, 0, 0, 0),       /* 0x00 */
         I(TOY_MOVI, 3, 0, 0x20),    /* r3 = 0x20 (low byte of the target) */
         I(TOY_MOVI, 4, 0, 1),
         I(TOY_JR, 5, 0, 0),         /* r5 = CODE + 0x20 set by the test */
         I(TOY_MARK, 0, 0, 0),       /* 0x10: not reached */
         I(TOY_MOVI, 1, 0, 99),
         I(TOY_HALT, 0, 0, 0),
         I(TOY_MARK, 0, 0, 0),       /* 0x1c */
         I(TOY_MARK, 0, 0, 0),       /* 0x20: target */
         I(TOY_ADDI, 6, 0, 1),
         I(TOY_ADD, 1, 4, 0),
         I(TOY_ADDI, 7, 0, -1),
         I(TOY_BNZ, 7, 0, 3),        /* 0x30: loop again via JR while r7 != 0 */
         I(TOY_MARK, 0, 0, 0),
         I(TOY_HALT, 0, 0, 0),
         I(TOY_MARK, 0, 0, 0),       /* 0x3c */
         I(TOY_JR, 5, 0, 0));
    m.env->gpr[5] = CODE + 0x20;
    m.env->gpr[7] = 50;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 50);
    assert_int_equal(m.env->gpr[6], 50);
    /* The JR targets came from the jump cache / lookup helper, not the
     * loop: few loop entries for 50 indirect jumps. */
    assert_true(stats(&m).tbs_executed < 10);
    machine_free(&m);
}

static void test_cfi(void **state)
{
    Machine m;

    machine_init(&m);
    LOAD(&m, CODE,
         I(TOY_MARK, 0, 0, 0),
         I(TOY_J, 0, 0, 2),          /* -> 0x0c: not a marker */
         I(TOY_MARK, 0, 0, 0),
         I(TOY_MOVI, 1, 0, 7),       /* 0x0c */
         I(TOY_HALT, 0, 0, 0));
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_BLOCK);
    assert_int_equal(trapcause(m.env), (LINX_EC_CFI << 8) | 1);
    assert_true(m.env->trapno & (UINT64_C(1) << 62));
    assert_int_equal(m.env->traparg0, CODE); /* the source block */
    assert_int_equal(m.env->trap_pc, CODE + 0xc);
    /* Entering the same address as a resume is legal. */
    m.env->resume = 1;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 7);
    /* An indirect jump there is refused by the lookup helper and trapped
     * by the loop, also once the TB is cached. */
    LOAD(&m, CODE + 0x40, I(TOY_MARK, 0, 0, 0), I(TOY_JR, 5, 0, 0));
    for (int i = 0; i < 2; i++) {
        m.env->pc = CODE + 0x40;
        m.env->gpr[5] = CODE + 0xc;
        m.env->resume = 0;
        assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
        assert_int_equal(trapnum(m.env), LINX_TRAP_BLOCK);
        assert_int_equal(m.env->traparg0, CODE + 0x40);
        assert_int_equal(m.env->trap_pc, CODE + 0xc);
    }
    machine_free(&m);
}

static void test_memory_faults(void **state)
{
    Machine m;

    machine_init(&m);
    LOAD(&m, CODE,
         I(TOY_MARK, 0, 0, 0),
         I(TOY_MOVI, 1, 0, 5),
         I(TOY_LD, 2, 3, 0),      /* 0x08 */
         I(TOY_HALT, 0, 0, 0));
    /* Unmapped. */
    m.env->gpr[3] = 0x7770000;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_DATA_PAGE_FAULT);
    assert_int_equal(trapcause(m.env), LINX_DFSC_TRANSLATION);
    assert_int_equal(m.env->traparg0, 0x7770000);
    assert_int_equal(m.env->trap_pc, CODE + 8);
    assert_int_equal(m.env->pc, CODE + 8);
    /* Misaligned. */
    m.env->pc = CODE;
    m.env->gpr[3] = DATA + 4;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_DATA_ALIGN_FAULT);
    assert_int_equal(m.env->traparg0, DATA + 4);
    /* Not readable. */
    assert_true(guest_mem_protect(m.gm, DATA, GUEST_PAGE_SIZE, GM_PROT_WRITE));
    m.env->pc = CODE;
    m.env->gpr[3] = DATA + 8;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_DATA_PAGE_FAULT);
    assert_int_equal(trapcause(m.env), LINX_DFSC_PERMISSION);
    /* Readable again: the TLB follows the change, the load works. */
    assert_true(guest_mem_protect(m.gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE));
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5);

    /* Stores: read-only page; unaligned access crossing into a hole. */
    LOAD(&m, CODE + 0x100, I(TOY_MARK, 0, 0, 0), I(TOY_ST, 1, 3, 0), I(TOY_HALT, 0, 0, 0));
    assert_true(guest_mem_protect(m.gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ));
    m.env->pc = CODE + 0x100;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapcause(m.env), LINX_DFSC_PERMISSION | LINX_DFAULT_WNR);
    assert_int_equal(m.env->traparg0, DATA + 8);
    LOAD(&m, CODE + 0x200, I(TOY_MARK, 0, 0, 0), I(TOY_LDU, 2, 3, 0), I(TOY_HALT, 0, 0, 0));
    m.env->pc = CODE + 0x200;
    m.env->gpr[3] = DATA + GUEST_PAGE_SIZE - 4;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapcause(m.env), LINX_DFSC_TRANSLATION);
    assert_int_equal(m.env->traparg0, DATA + GUEST_PAGE_SIZE);
    machine_free(&m);
}

static void test_trap_and_exit_request(void **state)
{
    Machine m;

    machine_init(&m);
    LOAD(&m, CODE, I(TOY_MARK, 0, 0, 0), I(TOY_MOVI, 1, 0, 3), I(TOY_TRAP, 50, 0, 0));
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), 50);
    assert_int_equal(m.env->trap_pc, CODE + 8);
    assert_int_equal(m.env->gpr[1], 3);
    /* Illegal (unknown) instruction. */
    LOAD(&m, CODE + 0x40, I(TOY_MARK, 0, 0, 0), I(0xee, 0, 0, 0));
    m.env->pc = CODE + 0x40;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_ILLEGAL_INST);
    /* An exit request stops before the next TB. */
    m.env->pc = CODE;
    m.env->engine.exit_request = 1;
    assert_int_equal(cpu_exec(m.env), EXCP_INTERRUPT);
    assert_int_equal(m.env->engine.exit_request, 0);
    assert_int_equal(m.env->pc, CODE);
    machine_free(&m);
}

/* The program stores a new instruction into a block it already ran; the
 * next run of that block uses the new instruction. */
static void test_self_modifying_code(void **state)
{
    Machine m;
    uint32_t patched = I(TOY_ADDI, 1, 0, 100);

    machine_init(&m);
    LOAD(&m, CODE,
         I(TOY_MARK, 0, 0, 0),      /* 0x00 */
         I(TOY_MOVI, 1, 0, 0),
         I(TOY_MOVI, 7, 0, 2),      /* two rounds */
         I(TOY_MARK, 0, 0, 0),      /* 0x0c: round */
         I(TOY_ADDI, 1, 0, 1),      /* 0x10: patched to ADDI r1, 100 */
         I(TOY_ST, 8, 9, 0),        /* store r8 at r9 (= CODE + 0x10) */
         I(TOY_ADDI, 7, 0, -1),
         I(TOY_BNZ, 7, 0, -4),      /* -> 0x0c */
         I(TOY_MARK, 0, 0, 0),
         I(TOY_HALT, 0, 0, 0));
    /* ST writes 8 bytes: the patched ADDI and the ST itself again. */
    m.env->gpr[8] = (uint64_t)patched | (uint64_t)I(TOY_ST, 8, 9, 0) << 32;
    m.env->gpr[9] = CODE + 0x10;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    /* Round 1 adds 1 (the store lands after the ADDI ran), round 2 runs
     * the new code and adds 100. */
    assert_int_equal(m.env->exit_code, 101);
    assert_true(stats(&m).invalidations >= 1);
    machine_free(&m);
}

static void test_fence_i_flush(void **state)
{
    Machine m;
    LinxExecStats st;

    machine_init(&m);
    LOAD(&m, CODE,
         I(TOY_MARK, 0, 0, 0),
         I(TOY_MOVI, 1, 0, 4),
         I(TOY_FENCEI, 0, 0, 0),
         I(TOY_ADDI, 1, 0, 1),
         I(TOY_MARK, 0, 0, 0),
         I(TOY_HALT, 0, 0, 0));
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5);
    st = stats(&m);
    assert_int_equal(st.flushes, 1);
    /* Flushing outside cpu_exec is immediate. */
    linx_tb_flush(m.env);
    assert_int_equal(stats(&m).flushes, 2);
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    machine_free(&m);
}

/* Unmapping and re-mapping code with different contents (no FENCE.I)
 * runs the new code; so does mapping a page that faulted before. */
static void test_code_remap_and_fetch_fault(void **state)
{
    Machine m;
    const uint64_t far = 0x80000;

    machine_init(&m);
    LOAD(&m, CODE, I(TOY_MARK, 0, 0, 0), I(TOY_MOVI, 1, 0, 1), I(TOY_HALT, 0, 0, 0));
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 1);
    assert_true(guest_mem_unmap(m.gm, CODE, GUEST_PAGE_SIZE));
    assert_true(guest_mem_map(m.gm, CODE, GUEST_PAGE_SIZE, GM_PROT_ALL, false));
    LOAD(&m, CODE, I(TOY_MARK, 0, 0, 0), I(TOY_MOVI, 1, 0, 2), I(TOY_HALT, 0, 0, 0));
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 2);

    /* Fetch from an unmapped page: instruction page fault. */
    m.env->pc = far;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_INST_PAGE_FAULT);
    assert_int_equal(m.env->traparg0, far);
    /* Map it (as an mmap would) and retry: the fault TB is gone. */
    assert_true(guest_mem_map(m.gm, far, GUEST_PAGE_SIZE, GM_PROT_ALL, false));
    LOAD(&m, far, I(TOY_MARK, 0, 0, 0), I(TOY_MOVI, 1, 0, 3), I(TOY_HALT, 0, 0, 0));
    m.env->pc = far;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 3);
    /* Taking EXEC away stops cached code. */
    assert_true(guest_mem_protect(m.gm, far, GUEST_PAGE_SIZE, GM_PROT_READ));
    m.env->pc = far;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(trapnum(m.env), LINX_TRAP_INST_PAGE_FAULT);
    machine_free(&m);
}

static void test_tb_memory_limit(void **state)
{
    Machine m;
    LinxExecOptions opts;

    toy_exec_options(&opts);
    opts.max_tb_memory = 1; /* flush before every translation */
    machine_init_opts(&m, &opts);
    load_sum_loop(&m, 20);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 210);
    assert_true(stats(&m).flushes >= 2);
    machine_free(&m);
}

/* Two CPUs on one context: own registers and jump caches, shared TBs;
 * both see a mapping change made between their runs. */
static void test_two_cpus(void **state)
{
    Machine m;
    CPULinxState *env2 = g_new0(CPULinxState, 1);
    uint64_t v = 11;

    machine_init(&m);
    env2->engine.mem = m.gm;
    env2->engine.cpu_index = 1;
    linx_exec_attach_cpu(m.ec, env2);
    LOAD(&m, CODE, I(TOY_MARK, 0, 0, 0), I(TOY_LD, 1, 3, 0), I(TOY_ADD, 1, 4, 0),
         I(TOY_HALT, 0, 0, 0));
    assert_int_equal(guest_mem_write(m.gm, DATA, &v, 8, NULL), GM_OK);
    m.env->gpr[3] = env2->gpr[3] = DATA;
    m.env->gpr[4] = 1;
    env2->gpr[4] = 2;
    env2->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(cpu_exec(env2), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 12);
    assert_int_equal(env2->exit_code, 13);
    assert_int_equal(stats(&m).tbs_translated, 1);
    /* Unmap the data: both TLBs forget it (ASan would catch a stale hit). */
    assert_true(guest_mem_unmap(m.gm, DATA, GUEST_PAGE_SIZE));
    m.env->pc = env2->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(cpu_exec(env2), EXCP_TRAP);
    assert_int_equal(trapnum(env2), LINX_TRAP_DATA_PAGE_FAULT);
    linx_exec_detach_cpu(m.ec, env2);
    assert_null(env2->engine.exec);
    g_free(env2);
    machine_free(&m);
}

/* Steps @env TB by TB with the interpreter until the guest exits; the
 * number of steps (at most 100, every step but the last returns 0). */
static int step_until_exit(CPULinxState *env)
{
    int steps = 0;

    for (;;) {
        int r = linx_exec_step(env, LINX_ACCEL_INTERP);
        steps++;
        if (r == EXCP_EXIT) {
            return steps;
        }
        assert_int_equal(r, 0);
        assert_true(steps < 100);
    }
}

static void test_step(void **state)
{
    Machine m;
    int steps;

    machine_init(&m);
    load_sum_loop(&m, 5);
    /* Run a chained program once so chains exist, then step TB by TB. */
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    m.env->pc = CODE;
    steps = step_until_exit(m.env);
    assert_int_equal(m.env->exit_code, 15);
    assert_int_equal(steps, 1 + 5 + 1);
    /* The TB cache answers for any (pc, flags). */
    assert_non_null(linx_exec_tb_find(m.env, CODE, 0));
    machine_free(&m);
}

/* Under the JIT a TB keeps no op list (translation cost,
 * docs/performance.md); stepping it with the interpreter flushes once and
 * translates again with the list kept.  Same sum (1 + ... + 5 = 15) and
 * the same number of steps as under -accel interp (test_step). */
static void test_step_interp_under_jit(void **state)
{
    Machine m;
    LinxExecOptions opts;
    int steps;

    if (!LINX_HAVE_JIT) {
        skip();
    }
    toy_exec_options(&opts);
    opts.accel = LINX_ACCEL_JIT;
    machine_init_opts(&m, &opts);
    assert_int_equal(linx_exec_accel(m.ec), LINX_ACCEL_JIT);
    load_sum_loop(&m, 5);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 15);
    {
        TranslationBlock *tb = linx_exec_tb_find(m.env, CODE, 0);
        assert_non_null(tb);
        assert_null(tb->ir);
        assert_non_null(tb->host_code);
    }
    m.env->pc = CODE;
    m.env->exit_code = 0;
    steps = step_until_exit(m.env);
    assert_int_equal(m.env->exit_code, 15);
    assert_int_equal(steps, 1 + 5 + 1);
    {
        TranslationBlock *tb = linx_exec_tb_find(m.env, CODE, 0);
        assert_non_null(tb->ir);
        assert_true(tb->nir > 0);
    }
    /* The JIT runs the TBs made with their op list the same way. */
    m.env->pc = CODE;
    m.env->exit_code = 0;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 15);
    machine_free(&m);
}

static void test_breakpoints(void **state)
{
    Machine m;

    machine_init(&m);
    load_sum_loop(&m, 4);
    /* Run once so translations exist: inserting must invalidate them. */
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_true(linx_exec_breakpoint_insert(m.ec, CODE + 0x10)); /* ADD in the loop */
    assert_false(linx_exec_breakpoint_insert(m.ec, CODE + 0x10));
    assert_true(linx_exec_breakpoint_at(m.ec, CODE + 0x10));
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_DEBUG);
    assert_int_equal(m.env->pc, CODE + 0x10);
    assert_int_equal(m.env->resume, 1);
    assert_int_equal(m.env->gpr[2], 4); /* stopped before the first ADD */
    assert_true(linx_exec_breakpoint_remove(m.ec, CODE + 0x10));
    assert_false(linx_exec_breakpoint_remove(m.ec, CODE + 0x10));
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 10);
    /* At a block start (entered by a branch): resume = 0. */
    assert_true(linx_exec_breakpoint_insert(m.ec, CODE + 0x0c));
    assert_true(linx_exec_breakpoint_insert(m.ec, CODE + 0x1c));
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_DEBUG);
    assert_int_equal(m.env->pc, CODE + 0x0c);
    assert_int_equal(m.env->resume, 0);
    linx_exec_breakpoint_remove_all(m.ec);
    assert_false(linx_exec_breakpoint_at(m.ec, CODE + 0x1c));
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    machine_free(&m);
}

static void test_single_step(void **state)
{
    Machine m;
    unsigned steps = 0;

    machine_init(&m);
    load_sum_loop(&m, 3);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT); /* chained translations exist */
    m.env->pc = CODE;
    linx_exec_set_single_step(m.ec, true);
    for (;;) {
        int r = cpu_exec(m.env);
        steps++;
        if (r == EXCP_EXIT) {
            break;
        }
        assert_int_equal(r, EXCP_DEBUG);
        assert_true(steps < 100);
    }
    /* 3 instructions before the loop, 4 per round, MARK + HALT. */
    assert_int_equal(steps, 3 + 3 * 4 + 2);
    assert_int_equal(m.env->exit_code, 6);
    linx_exec_set_single_step(m.ec, false);
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    machine_free(&m);
}

/* ---- the JIT path of the loop, with a fake backend ---- */

typedef struct FakeJit {
    LinxInterp *interp;
    unsigned gens, set_jmps, unsets, fail_next_gen;
} FakeJit;

/* One fake backend at a time (the entry has no context argument). */
static FakeJit fake;

static uintptr_t fake_entry(CPULinxState *env, const void *code)
{
    return interp_run_tb(fake.interp, env, (TranslationBlock *)(uintptr_t)code);
}

static bool fake_init(BackendState *bs, CodeBuffer *cb)
{
    bs->entry = fake_entry;
    bs->exit_addr = NULL;
    /* A pretend prologue. */
    code_buffer_begin(cb);
    code_buffer_emit8(cb, 0xc3);
    return code_buffer_commit(cb) != NULL;
}

static bool fake_gen_tb(BackendState *bs, CodeBuffer *cb, IRContext *ir, TranslationBlock *tb,
                        FILE *log)
{
    if (fake.fail_next_gen) {
        fake.fail_next_gen--;
        return false;
    }
    fake.gens++;
    tb->host_code = tb; /* the "host code" is the TB, run by the interpreter */
    return true;
}

static void fake_set_jmp(BackendState *bs, CodeBuffer *cb, TranslationBlock *tb, unsigned n,
                         const TranslationBlock *dest)
{
    if (dest) {
        fake.set_jmps++;
    } else {
        fake.unsets++;
    }
}

static const LinxBackendOps fake_ops = { fake_init, fake_gen_tb, fake_set_jmp, true };

static void test_jit_path(void **state)
{
    Machine m;
    LinxExecOptions opts;
    LinxExecStats st;

    memset(&fake, 0, sizeof(fake));
    toy_exec_options(&opts);
    opts.accel = LINX_ACCEL_JIT;
    opts.backend = &fake_ops;
    opts.code_buffer_size = 64 * 1024;
    machine_init_opts(&m, &opts);
    assert_int_equal(linx_exec_accel(m.ec), LINX_ACCEL_JIT);
    fake.interp = interp_new(linx_exec_ir(m.ec));
    load_sum_loop(&m, 100);
    fake.fail_next_gen = 1; /* the first translation finds the buffer full */
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5050);
    st = stats(&m);
    assert_int_equal(st.buffer_full, 1);
    assert_int_equal(fake.gens, 3);
    assert_int_equal(fake.set_jmps, st.chains);
    assert_true(fake.set_jmps >= 2);
    /* Invalidating chained code unpatches the jumps into it. */
    {
        uint32_t nop = I(TOY_MARK, 0, 0, 0);
        assert_int_equal(guest_mem_write(m.gm, CODE + 0x0c, &nop, 4, NULL), GM_OK);
    }
    assert_true(fake.unsets >= 1);
    linx_exec_free(m.ec);
    m.ec = NULL;
    interp_free(fake.interp);
    guest_mem_free(m.gm);
    g_free(m.env);
}

/* linx_exec_unchain (a machine stopping): every chained jump is undone
 * and the jump cache emptied, but no TB is dropped, so the next run
 * translates nothing and chains again. */
static void test_unchain_keeps_tbs(void **state)
{
    Machine m;
    LinxExecOptions opts;
    LinxExecStats st;
    unsigned jmps;

    memset(&fake, 0, sizeof(fake));
    toy_exec_options(&opts);
    opts.accel = LINX_ACCEL_JIT;
    opts.backend = &fake_ops;
    opts.code_buffer_size = 64 * 1024;
    machine_init_opts(&m, &opts);
    fake.interp = interp_new(linx_exec_ir(m.ec));
    load_sum_loop(&m, 100);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    st = stats(&m);
    jmps = fake.set_jmps;
    assert_true(jmps >= 2);
    linx_exec_unchain(m.env);
    assert_int_equal(fake.unsets, jmps); /* every chained slot undone */
    for (unsigned i = 0; i < LINX_TB_JMP_CACHE_SIZE; i++) {
        assert_null(m.env->engine.tb_jmp_cache[i]);
    }
    assert_int_equal(stats(&m).invalidations, st.invalidations);
    assert_int_equal(stats(&m).flushes, st.flushes);
    m.env->pc = CODE;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 5050);
    assert_int_equal(stats(&m).tbs_translated, st.tbs_translated);
    assert_true(fake.set_jmps > jmps); /* chained again */
    linx_exec_free(m.ec);
    m.ec = NULL;
    interp_free(fake.interp);
    guest_mem_free(m.gm);
    g_free(m.env);
}

/* A TB that cannot fit even in an empty code buffer: a clear message and
 * exit status 1, not a crash (run in a child process). */
static void test_jit_buffer_too_small(void **state)
{
    pid_t pid;
    int status = 0;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        Machine m;
        LinxExecOptions opts;

        memset(&fake, 0, sizeof(fake));
        toy_exec_options(&opts);
        opts.accel = LINX_ACCEL_JIT;
        opts.backend = &fake_ops;
        machine_init_opts(&m, &opts);
        fake.interp = interp_new(linx_exec_ir(m.ec));
        load_sum_loop(&m, 3);
        fake.fail_next_gen = 1000;
        cpu_exec(m.env);
        _exit(99); /* not reached */
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
}

static void test_jit_fallback(void **state)
{
    LinxExecOptions opts;
    LinxExecContext *ec;
    char err[128];

    toy_exec_options(&opts);
    opts.accel = LINX_ACCEL_JIT;
    opts.backend = NULL;
    ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(ec);
    /* Without a backend in the build, -accel jit runs the interpreter. */
    assert_int_equal(linx_exec_accel(ec), LINX_HAVE_JIT ? LINX_ACCEL_JIT : LINX_ACCEL_INTERP);
    linx_exec_free(ec);
}

/* The engine logs through the target's hooks (LinxTargetOps), not
 * LinxISA's: -d in_asm shows the toy's disassembly and raw bytes, -d cpu
 * the toy's state.  Expected lines from the program and the toy's formats
 * (toy-isa.c), written down here. */
static void test_target_ops_logs(void **state)
{
    Machine m;
    LinxExecOptions opts;
    char *log = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&log, &len);

    assert_non_null(f);
    toy_exec_options(&opts);
    opts.log_mask = LINX_LOG_IN_ASM | LINX_LOG_CPU;
    opts.log_file = f;
    machine_init_opts(&m, &opts);
    load_sum_loop(&m, 3);
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->exit_code, 6);
    machine_free(&m);
    fclose(f);
    /* MOVI r2, 3 at CODE + 8: bytes 02 02 00 03, shown as the word. */
    assert_non_null(strstr(log, "0x0000000000010008:  03000202           MOVI a=2 b=0 c=3\n"));
    assert_non_null(strstr(log, "0x0000000000010014:  ff000203           ADDI a=2 b=0 c=-1\n"));
    assert_non_null(strstr(log, "HALT a=0 b=0 c=0\n"));
    /* The state before the loop's first run (r1 = 0, r2 = 3) and before
     * the last block (r1 = 6, r2 = 0). */
    assert_non_null(strstr(log, "toy pc=0x1000c r1=0 r2=3 r3=0\n"));
    assert_non_null(strstr(log, "toy pc=0x1001c r1=6 r2=0 r3=0\n"));
    free(log);
}

static void test_setup_errors(void **state)
{
    LinxExecOptions opts;
    LinxExecContext *ec;
    CPULinxState *env = g_new0(CPULinxState, 1);
    char err[256] = "";

    /* No exec context: cpu_exec refuses cleanly. */
    assert_int_equal(cpu_exec(env), EXCP_HALTED);
    g_free(env);
    /* The engine alone knows no target: none given is refused. */
    linx_exec_options_defaults(&opts);
    opts.trace_commit_path = NULL;
    opts.accel = LINX_ACCEL_INTERP;
    assert_null(linx_exec_new(&opts, err, sizeof(err)));
    assert_non_null(strstr(err, "no front end"));
    /* LinxISA's options: refused only when the build has no translator. */
    linx_exec_options_init(&opts);
    opts.trace_commit_path = NULL;
    opts.accel = LINX_ACCEL_INTERP;
    ec = linx_exec_new(&opts, err, sizeof(err));
    if (LINX_HAVE_TRANSLATOR) {
        assert_non_null(ec);
        linx_exec_free(ec);
    } else {
        assert_null(ec);
        assert_non_null(strstr(err, "no front end"));
    }
    /* Unwritable log and trace files. */
    toy_exec_options(&opts);
    opts.log_path = "/nonexistent-dir/log";
    assert_null(linx_exec_new(&opts, err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent-dir/log"));
    toy_exec_options(&opts);
    opts.trace_commit_path = "/nonexistent-dir/trace";
    assert_null(linx_exec_new(&opts, err, sizeof(err)));
    assert_non_null(strstr(err, "/nonexistent-dir/trace"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_and_chaining),
        cmocka_unit_test(test_no_chaining_same_result),
        cmocka_unit_test(test_one_insn_per_tb),
        cmocka_unit_test(test_indirect_jump),
        cmocka_unit_test(test_cfi),
        cmocka_unit_test(test_memory_faults),
        cmocka_unit_test(test_trap_and_exit_request),
        cmocka_unit_test(test_self_modifying_code),
        cmocka_unit_test(test_fence_i_flush),
        cmocka_unit_test(test_code_remap_and_fetch_fault),
        cmocka_unit_test(test_tb_memory_limit),
        cmocka_unit_test(test_two_cpus),
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_step_interp_under_jit),
        cmocka_unit_test(test_breakpoints),
        cmocka_unit_test(test_single_step),
        cmocka_unit_test(test_jit_path),
        cmocka_unit_test(test_unchain_keeps_tbs),
        cmocka_unit_test(test_jit_buffer_too_small),
        cmocka_unit_test(test_jit_fallback),
        cmocka_unit_test(test_setup_errors),
        cmocka_unit_test(test_target_ops_logs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
