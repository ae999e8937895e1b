/*
 * The CFI trap names its source: a branch into an address that is not a
 * block start raises E_BLOCK(EC_CFI) kind CFI_BAD_TARGET with TRAPARG0 =
 * the start of the block whose commit branched and the trap pc = the bad
 * target (docs/engine.md "How a guest block runs").  env->bpc is stale
 * there (the commit discards BPC), so the exec loop takes the source from
 * the TB it just left (direct edges: tb->jmp_src_bpc) or from env->bpc as
 * the front end stored it before an indirect jump's lookup.  Each shape
 * (DIRECT, COND taken, IND, RET) follows another block, so a stale BPC
 * would name that one; every case runs under the interpreter and the
 * JIT, with whole-block and one-instruction TBs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#include "linx-mini-asm.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define STACK_BASE UINT64_C(0x40000)
#define STACK_SIZE UINT64_C(0x10000)

enum { ZERO = 0, SP = 1, A0 = 2, A1 = 3, RA = 10 };
enum { L_BAD = 1 };

typedef enum Shape {
    SHAPE_DIRECT,
    SHAPE_COND,
    SHAPE_IND,
    SHAPE_RET,
    NB_SHAPES,
} Shape;

static const char *const shape_names[NB_SHAPES] = { "direct", "cond", "ind", "ret" };

static const struct {
    LinxAccel accel;
    bool one_insn;
} modes[] = {
    { LINX_ACCEL_INTERP, false },
    { LINX_ACCEL_JIT, false },
    { LINX_ACCEL_INTERP, true },
    { LINX_ACCEL_JIT, true },
};

/* Instructions that retire before the trap: the block before the source
 * (2) and the source block. */
static const uint64_t retired[NB_SHAPES] = { 2 + 2, 2 + 2, 2 + 3, 2 + 3 };

/* Build the program; returns the source block's pc, *bad the target. */
static uint64_t build(MiniAsm *a, Shape shape, uint64_t *bad)
{
    uint64_t src;

    masm_init(a, CODE_BASE);
    /* A block before the source: a stale BPC would name it. */
    masm(a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, MV(LINX_BR_FALL), MASM_END);
    masm(a, LINX_F_ADDI, LINX_FLD_RegDst, MV(A0), LINX_FLD_SrcL, MV(ZERO), LINX_FLD_uimm12,
         MV(1), MASM_END);
    switch (shape) {
    case SHAPE_DIRECT:
        src = masm_br(a, LINX_F_C_BSTART_DIRECT, LINX_FLD_simm12, 2, L_BAD, MASM_END);
        masm(a, LINX_F_C_BSTOP, MASM_END);
        break;
    case SHAPE_COND:
        src = masm_br(a, LINX_F_C_BSTART_COND, LINX_FLD_simm12, 2, L_BAD, MASM_END);
        masm(a, LINX_F_C_SETC_EQ, LINX_FLD_SrcL, MV(ZERO), LINX_FLD_SrcR, MV(ZERO), MASM_END);
        break;
    case SHAPE_IND:
        src = masm(a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, MV(LINX_BR_IND), MASM_END);
        masm(a, LINX_F_C_SETC_TGT, LINX_FLD_SrcL, MV(A1), MASM_END);
        masm(a, LINX_F_C_BSTOP, MASM_END);
        break;
    default:
        src = masm(a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, MV(LINX_BR_RET), MASM_END);
        masm(a, LINX_F_C_SETC_TGT, LINX_FLD_SrcL, MV(RA), MASM_END);
        masm(a, LINX_F_C_BSTOP, MASM_END);
        break;
    }
    masm(a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, MV(LINX_BR_FALL), MASM_END);
    masm(a, LINX_F_ADDI, LINX_FLD_RegDst, MV(A0), LINX_FLD_SrcL, MV(ZERO), LINX_FLD_uimm12,
         MV(2), MASM_END);
    masm_label(a, L_BAD);
    *bad = masm(a, LINX_F_ADDI, LINX_FLD_RegDst, MV(A0), LINX_FLD_SrcL, MV(ZERO),
                LINX_FLD_uimm12, MV(3), MASM_END);
    masm(a, LINX_F_EBREAK, LINX_FLD_imm4, MV(0), MASM_END);
    assert_true(masm_finish(a));
    return src;
}

/* A CPU with @a's code at CODE_BASE and a stack, in @mode; *ecp and *gmp
 * are freed by finish(). */
static CPULinxState *start(MiniAsm *a, unsigned mode, LinxExecContext **ecp,
                           GuestMemory **gmp)
{
    GuestMemory *gm = guest_mem_new(UINT64_C(1) << 40);
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxExecOptions opts;
    char err[256];

    assert_non_null(env);
    assert_true(guest_mem_map(gm, CODE_BASE, CODE_SIZE, GM_PROT_READ | GM_PROT_EXEC, false));
    assert_true(guest_mem_map(gm, STACK_BASE, STACK_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_int_equal(guest_mem_debug_rw(gm, a->base, a->buf, a->len, true), GM_OK);
    linx_exec_options_init(&opts);
    opts.accel = modes[mode].accel;
    opts.one_insn_per_tb = modes[mode].one_insn;
    opts.trace_commit_path = NULL;
    *ecp = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(*ecp);
    env->engine.mem = gm;
    linx_cpu_reset(env, a->base, 0);
    env->gpr[SP] = STACK_BASE + STACK_SIZE;
    *gmp = gm;
    return env;
}

static void finish(CPULinxState *env, LinxExecContext *ec, GuestMemory *gm)
{
    linx_exec_free(ec);
    guest_mem_free(gm);
    free(env);
}

static void run_case(Shape shape, unsigned mode)
{
    static MiniAsm a;
    uint64_t bad, src = build(&a, shape, &bad);
    LinxExecContext *ec;
    GuestMemory *gm;
    CPULinxState *env = start(&a, mode, &ec, &gm);
    int excp;

    env->gpr[A1] = bad;
    env->gpr[RA] = bad;
    linx_exec_attach_cpu(ec, env);

    excp = cpu_exec(env);
    if (excp != EXCP_TRAP || env->traparg0 != src) {
        fprintf(stderr, "%s, mode %u: excp %d trapno 0x%llx traparg0 0x%llx (source 0x%llx)\n",
                shape_names[shape], mode, excp, (unsigned long long)env->trapno,
                (unsigned long long)env->traparg0, (unsigned long long)src);
    }
    assert_int_equal(excp, EXCP_TRAP);
    assert_int_equal(env->trapno & 0x3f, LINX_TRAP_BLOCK);
    assert_int_equal((env->trapno >> 24) & 0xffffff,
                     LINX_CAUSE(LINX_EC_CFI, LINX_CFI_BAD_TARGET));
    assert_int_equal(env->traparg0, src);
    assert_int_equal(env->trap_pc, bad);
    assert_int_equal(env->gpr[A0], 1); /* the block after the source never ran */
    assert_int_equal(env->insn_count, retired[shape]);
    finish(env, ec, gm);
}

/*
 * A block that falls through into an instruction that is not a block
 * start (CFI_MISSING_NEXT_MARKER, decided at translation time when the
 * next instruction is on the same page): its instructions retire once.
 * The commit counted them and the trap counted them again (a program
 * whose last block stored to the virt EXIT register and ended at data
 * reported its block twice in LINX_INSN_COUNT).  @cond: a COND block whose
 * branch is not taken, else a FALL block.
 */
static void run_fall_case(bool cond, unsigned mode)
{
    static MiniAsm a;
    LinxExecContext *ec;
    GuestMemory *gm;
    CPULinxState *env;
    int excp;

    masm_init(&a, CODE_BASE);
    if (cond) {
        masm_br(&a, LINX_F_C_BSTART_COND, LINX_FLD_simm12, 2, L_BAD, MASM_END);
        masm(&a, LINX_F_C_SETC_NE, LINX_FLD_SrcL, MV(ZERO), LINX_FLD_SrcR, MV(ZERO), MASM_END);
    } else {
        masm(&a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, MV(LINX_BR_FALL), MASM_END);
    }
    masm(&a, LINX_F_ADDI, LINX_FLD_RegDst, MV(A0), LINX_FLD_SrcL, MV(ZERO), LINX_FLD_uimm12,
         MV(1), MASM_END);
    masm(&a, LINX_F_C_BSTOP, MASM_END);
    masm_label(&a, L_BAD);
    masm(&a, LINX_F_ADDI, LINX_FLD_RegDst, MV(A0), LINX_FLD_SrcL, MV(ZERO), LINX_FLD_uimm12,
         MV(3), MASM_END);
    masm(&a, LINX_F_EBREAK, LINX_FLD_imm4, MV(0), MASM_END);
    assert_true(masm_finish(&a));

    env = start(&a, mode, &ec, &gm);
    linx_exec_attach_cpu(ec, env);
    excp = cpu_exec(env);
    assert_int_equal(excp, EXCP_TRAP);
    assert_int_equal(env->trapno & 0x3f, LINX_TRAP_BLOCK);
    assert_int_equal((env->trapno >> 24) & 0xffffff,
                     LINX_CAUSE(LINX_EC_CFI, LINX_CFI_MISSING_NEXT_MARKER));
    assert_int_equal(env->gpr[A0], 1);
    if (env->insn_count != (cond ? 4 : 3)) {
        fprintf(stderr, "%s, mode %u: insn_count %llu\n", cond ? "cond" : "fall", mode,
                (unsigned long long)env->insn_count);
    }
    assert_int_equal(env->insn_count, cond ? 4 : 3);
    finish(env, ec, gm);
}

static void test_cfi_fall_count(void **state)
{
    for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
        run_fall_case(false, m);
        run_fall_case(true, m);
    }
}

static void test_cfi_source(void **state)
{
    for (unsigned s = 0; s < NB_SHAPES; s++) {
        for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
            run_case((Shape)s, m);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfi_source),
        cmocka_unit_test(test_cfi_fall_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
