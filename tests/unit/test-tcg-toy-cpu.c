/*
 * tcg/ without any target: the engine runs a toy CPU of its own.
 *
 * This file includes no target/ header (the #error below checks it) and
 * defines its own CPUArchState, with the engine's part (tcg/cpu-engine.h)
 * embedded in the middle of it, its own linx_cpu_engine_offset and its own
 * LinxTargetOps.  It links against the core library, which also holds
 * LinxISA's objects: were any tcg/ object to use a LinxISA symbol, the
 * linker would pull target/linx/exec-target.o in and fail on its second
 * linx_cpu_engine_offset.  So the test building at all shows the engine
 * needs nothing of target/; running shows it works through the ops table:
 *
 *   - a counted loop with a load, an add and a conditional branch (both
 *     goto_tb slots, chaining) and a final store, under the interpreter
 *     and the JIT: the sum and the stored word are checked against the
 *     arithmetic done here;
 *   - memory faults reach the toy's raise_mem_fault with the fault kind,
 *     the address, the direction and the pc of the faulting instruction;
 *   - a branch into a TB the toy marks TB_C_CFI_BAD reaches its
 *     raise_bad_target with the bad pc.
 *
 * The toy ISA (4-byte instructions: opcode, a, b, signed 8-bit imm):
 *   ADDI a, imm   r[a] += imm          LD  a, b   r[a] = mem64[r[b]] (aligned)
 *   ADD  a, b     r[a] += r[b]         ST  a, b   mem64[r[b]] = r[a] (aligned)
 *   BNZ  a, imm   if r[a] != 0 goto pc + 4 * imm
 *   HALT          cpu_exec returns EXCP_EXIT
 *   NOTGT         not a branch target: a TB starting here is TB_C_CFI_BAD
 *                 (executed in line, a no-op)
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "hw/core/guest-memory.h"
#include "tcg/cpu-engine.h"
#include "tcg/cpu-exit.h"
#include "tcg/engine-config.h"
#include "tcg/exec.h"
#include "tcg/target-ops.h"

#ifdef LINX_TARGET_CPU_H
#error "the toy CPU test must not see target/linx/cpu.h"
#endif

#define NREGS 8
#define CODE UINT64_C(0x10000)
#define DATA UINT64_C(0x20000)
#define UNMAPPED UINT64_C(0x90000)

enum { T_ADDI = 1, T_ADD, T_LD, T_ST, T_BNZ, T_HALT, T_NOTGT };

#define TI(op, a, b, imm)                                                                          \
    ((uint32_t)(op) | (uint32_t)(a) << 8 | (uint32_t)(b) << 16 | (uint32_t)(uint8_t)(imm) << 24)

/* The toy's CPU state: registers first (small JIT displacements), the
 * engine's part in the middle, the toy's trap record after it. */
struct CPUArchState {
    uint64_t r[NREGS];
    uint64_t pc;
    uint64_t flags; /* TB lookup flags (always 0: no mid-block entry) */
    CPUEngineState engine;
    /* What the toy's raise functions recorded. */
    unsigned faults;
    GuestFault fault;
    uint64_t fault_addr, fault_pc;
    bool fault_write;
    unsigned bad_targets;
    uint64_t bad_target_pc, bad_target_src;
};

const size_t linx_cpu_engine_offset = offsetof(CPUArchState, engine);

/* Globals are registered first, so r[i] is temp 1 + i and pc 1 + NREGS. */
#define G_R(i) ((IRTemp)(1 + (i)))
#define G_PC ((IRTemp)(1 + NREGS))

static void toy_translate_init(IRContext *ir)
{
    static const char *const names[NREGS] = { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7" };

    for (unsigned i = 0; i < NREGS; i++) {
        assert_int_equal(ir_global(ir, (int)offsetof(CPUArchState, r[i]), names[i]), G_R(i));
    }
    assert_int_equal(ir_global(ir, (int)offsetof(CPUArchState, pc), "pc"), G_PC);
}

static void toy_halt(CPUArchState *env)
{
    linx_cpu_exit_with(env, EXCP_EXIT);
}

static const IRHelperInfo toy_halt_info = { "toy_halt", (void *)toy_halt, 1,
                                            0,          IR_CALL_NORETURN, NULL };

static void gen_goto(IRContext *ir, TranslationBlock *tb, unsigned slot, uint64_t dest)
{
    ir_gen_goto_tb(ir, slot);
    ir_gen_movi(ir, G_PC, (int64_t)dest);
    ir_gen_exit_tb(ir, (uint64_t)(uintptr_t)tb | slot);
}

static void toy_translate(CPUArchState *env, IRContext *ir, TranslationBlock *tb)
{
    uint64_t pc = tb->pc, fault;
    uint32_t insn;

    ir_reset(ir);
    tb->size = 4;
    for (unsigned n = 0;; n++, pc += 4) {
        unsigned op, a, b;
        int64_t imm;

        if (guest_mem_read(cpu_engine(env)->mem, pc, &insn, 4, GM_PROT_EXEC, &fault) != GM_OK) {
            fail_msg("toy: fetch at 0x%" PRIx64 " faulted", pc);
        }
        op = insn & 0xff;
        a = (insn >> 8) & 0xff;
        b = (insn >> 16) & 0xff;
        imm = (int8_t)(insn >> 24);
        if (n == 0 && op == T_NOTGT && !(tb->flags & TB_F_RESUME)) {
            tb->cflags |= TB_C_CFI_BAD;
            ir_gen_exit_tb(ir, 0);
            return;
        }
        tb->icount = n + 1;
        tb->size = (uint32_t)(pc + 4 - tb->pc);
        ir_gen_insn_start(ir, pc, n);
        switch (op) {
        case T_ADDI:
            ir_gen_addi(ir, G_R(a % NREGS), G_R(a % NREGS), imm);
            break;
        case T_ADD:
            ir_gen_add(ir, G_R(a % NREGS), G_R(a % NREGS), G_R(b % NREGS));
            break;
        case T_LD:
            ir_gen_qemu_ld(ir, G_R(a % NREGS), G_R(b % NREGS), IR_MO_64 | IR_MO_ALIGN, pc);
            break;
        case T_ST:
            ir_gen_qemu_st(ir, G_R(a % NREGS), G_R(b % NREGS), IR_MO_64 | IR_MO_ALIGN, pc);
            break;
        case T_NOTGT:
            break;
        case T_BNZ: {
            IRLabel taken = ir_label(ir);
            ir_gen_brcond(ir, IR_COND_NE, G_R(a % NREGS), ir_const(ir, 0), taken);
            gen_goto(ir, tb, 1, pc + 4);
            ir_gen_set_label(ir, taken);
            gen_goto(ir, tb, 0, pc + 4 * (uint64_t)imm);
            return;
        }
        case T_HALT:
        default: {
            IRTemp args[1] = { ir->env };
            ir_gen_movi(ir, G_PC, (int64_t)pc);
            ir_gen_call(ir, &toy_halt_info, IR_NO_TEMP, 1, args);
            ir_gen_exit_tb(ir, 0);
            return;
        }
        }
    }
}

static void toy_raise_mem_fault(CPUArchState *env, GuestFault f, uint64_t addr, bool is_write,
                                uint64_t pc)
{
    env->faults++;
    env->fault = f;
    env->fault_addr = addr;
    env->fault_write = is_write;
    env->fault_pc = pc;
    env->pc = pc;
    linx_cpu_exit_trap(env, false);
}

static void toy_raise_bad_target(CPUArchState *env, uint64_t src_block, uint64_t pc)
{
    env->bad_targets++;
    env->bad_target_src = src_block;
    env->bad_target_pc = pc;
    env->pc = pc;
    linx_cpu_exit_trap(env, false);
}

static const LinxTargetOps toy_cpu_ops = {
    .name = "toy-cpu",
    .translate_init = toy_translate_init,
    .translate = toy_translate,
    .pc_offset = offsetof(CPUArchState, pc),
    .tb_flags_offset = offsetof(CPUArchState, flags),
    .tb_flags_mask = TB_F_RESUME,
    .insn_count_offset = -1,
    .raise_mem_fault = toy_raise_mem_fault,
    .raise_bad_target = toy_raise_bad_target,
};

typedef struct Machine {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPUArchState *env;
} Machine;

static void machine_init(Machine *m, LinxAccel accel, const uint32_t *prog, size_t n)
{
    LinxExecOptions opts;
    char err[256] = "";

    linx_exec_options_defaults(&opts);
    opts.accel = accel;
    opts.trace_commit_path = NULL;
    opts.target = &toy_cpu_ops;
    m->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(m->gm, CODE, GUEST_PAGE_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(m->gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_int_equal(guest_mem_debug_rw(m->gm, CODE, (void *)prog, n * 4, true), GM_OK);
    m->ec = linx_exec_new(&opts, err, sizeof(err));
    if (!m->ec) {
        fail_msg("linx_exec_new: %s", err);
    }
    m->env = g_new0(CPUArchState, 1);
    m->env->engine.mem = m->gm;
    linx_exec_attach_cpu(m->ec, m->env);
    m->env->pc = CODE;
}

static void machine_free(Machine *m)
{
    linx_exec_free(m->ec);
    guest_mem_free(m->gm);
    g_free(m->env);
}

/* Both engines where the build has the JIT. */
static const LinxAccel accels[] = {
    LINX_ACCEL_INTERP,
#if LINX_HAVE_JIT
    LINX_ACCEL_JIT,
#endif
};

/* sum = 5 * mem[DATA] by a loop; mem[DATA + 8] = sum. */
static void run_loop(LinxAccel accel)
{
    static const uint32_t prog[] = {
        TI(T_ADDI, 2, 0, 5),  /* r2 = 5 (counter) */
        TI(T_LD, 3, 1, 0),    /* loop: r3 = mem[r1] */
        TI(T_ADD, 4, 3, 0),   /* r4 += r3 */
        TI(T_ADDI, 2, 0, -1), /* r2 -= 1 */
        TI(T_BNZ, 2, 0, -3),  /* back to loop while r2 != 0 */
        TI(T_ST, 4, 5, 0),    /* mem[r5] = r4 */
        TI(T_HALT, 0, 0, 0),
    };
    const uint64_t v = UINT64_C(0x123456789);
    uint64_t out = 0;
    Machine m;

    machine_init(&m, accel, prog, G_N_ELEMENTS(prog));
    assert_int_equal(linx_exec_accel(m.ec), accel);
    assert_int_equal(guest_mem_debug_rw(m.gm, DATA, (void *)&v, 8, true), GM_OK);
    m.env->r[1] = DATA;
    m.env->r[5] = DATA + 8;
    assert_int_equal(cpu_exec(m.env), EXCP_EXIT);
    assert_int_equal(m.env->r[4], 5 * v);
    assert_int_equal(m.env->r[2], 0);
    assert_int_equal(m.env->pc, CODE + 6 * 4);
    assert_int_equal(guest_mem_debug_rw(m.gm, DATA + 8, &out, 8, false), GM_OK);
    assert_int_equal(out, 5 * v);
    assert_int_equal(m.env->faults + m.env->bad_targets, 0);
    machine_free(&m);
}

static void run_faults(LinxAccel accel)
{
    static const uint32_t prog[] = {
        TI(T_ADDI, 7, 0, 1), /* r7 = 1 */
        TI(T_LD, 3, 6, 0),   /* r3 = mem[r6]: r6 unmapped */
        TI(T_HALT, 0, 0, 0),
    };
    Machine m;

    machine_init(&m, accel, prog, G_N_ELEMENTS(prog));
    m.env->r[6] = UNMAPPED;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(m.env->faults, 1);
    assert_int_equal(m.env->fault, GM_FAULT_UNMAPPED);
    assert_int_equal(m.env->fault_addr, UNMAPPED);
    assert_false(m.env->fault_write);
    assert_int_equal(m.env->fault_pc, CODE + 4);
    assert_int_equal(m.env->r[7], 1); /* the instruction before it ran */

    /* A misaligned store, then one to a read-only page. */
    m.env->pc = CODE + 4;
    m.env->r[6] = DATA + 4;
    assert_true(guest_mem_write(m.gm, CODE + 4, &(uint32_t){ TI(T_ST, 3, 6, 0) }, 4, NULL) ==
                GM_OK);
    linx_tb_flush(m.env);
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(m.env->faults, 2);
    assert_int_equal(m.env->fault, GM_FAULT_ALIGN);
    assert_int_equal(m.env->fault_addr, DATA + 4);
    assert_true(m.env->fault_write);

    assert_true(guest_mem_protect(m.gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ));
    m.env->r[6] = DATA;
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(m.env->faults, 3);
    assert_int_equal(m.env->fault, GM_FAULT_PROT);
    assert_int_equal(m.env->fault_addr, DATA);
    assert_true(m.env->fault_write);
    assert_int_equal(m.env->fault_pc, CODE + 4);
    machine_free(&m);
}

static void run_bad_target(LinxAccel accel)
{
    static const uint32_t prog[] = {
        TI(T_ADDI, 1, 0, 1),                       /* r1 = 1 */
        TI(T_BNZ, 1, 0, 2),                        /* goto CODE + 12 */
        TI(T_HALT, 0, 0, 0), TI(T_NOTGT, 0, 0, 0), /* CODE + 12: not a branch target */
        TI(T_HALT, 0, 0, 0),
    };
    Machine m;

    machine_init(&m, accel, prog, G_N_ELEMENTS(prog));
    assert_int_equal(cpu_exec(m.env), EXCP_TRAP);
    assert_int_equal(m.env->bad_targets, 1);
    assert_int_equal(m.env->bad_target_pc, CODE + 12);
    assert_int_equal(m.env->bad_target_src, 0); /* the toy records no source block */
    assert_int_equal(m.env->faults, 0);
    machine_free(&m);
}

static void test_loop(void **state)
{
    (void)state;
    for (unsigned i = 0; i < G_N_ELEMENTS(accels); i++) {
        run_loop(accels[i]);
    }
}

static void test_faults(void **state)
{
    (void)state;
    for (unsigned i = 0; i < G_N_ELEMENTS(accels); i++) {
        run_faults(accels[i]);
    }
}

static void test_bad_target(void **state)
{
    (void)state;
    for (unsigned i = 0; i < G_N_ELEMENTS(accels); i++) {
        run_bad_target(accels[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_bad_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
