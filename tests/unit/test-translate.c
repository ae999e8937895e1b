/*
 * Front-end tests: small guest programs built with the mini assembler
 * (linx-mini-asm.h) run through the exec loop, and the resulting
 * registers, memory and traps are checked against values worked out by
 * hand from the ISA rules (digest sections 1.6, 3; semantics_conventions).
 * Every program runs four ways: interpreter and JIT, each with whole-block
 * TBs and with one instruction per TB (which exercises the mid-block
 * resume path: TB_F_RESUME and the block-state replay).
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
#include "target/linx/asm-insn.h"
#include "target/linx/cpu.h"
#include "target/linx/profile.h"
#include "target/linx/header-form.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#include "linx-mini-asm.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA_BASE UINT64_C(0x40000)
#define DATA_SIZE UINT64_C(0x10000)
#define STACK_TOP (DATA_BASE + DATA_SIZE)

/* Register codes. */
enum {
    ZERO = 0, SP = 1, A0 = 2, A1, A2, A3, A4, A5, A6, A7, RA = 10, S0 = 11, S1, S2, S3, S4, S5, S6, S7,
    T1 = 24, T2, T3, T4, U1 = 28, U2, U3, U4, TO_U = 30, TO_T = 31,
};

/* Field shorthands (every value travels as int64_t). */
#define RD(x) LINX_FLD_RegDst, MV(x)
#define RD0(x) LINX_FLD_RegDst0, MV(x)
#define RD1(x) LINX_FLD_RegDst1, MV(x)
#define SL(x) LINX_FLD_SrcL, MV(x)
#define SR(x) LINX_FLD_SrcR, MV(x)
#define SD(x) LINX_FLD_SrcD, MV(x)
#define SRT(x) LINX_FLD_SrcRType, MV(x)
#define SH(x) LINX_FLD_shamt, MV(x)
#define U12(x) LINX_FLD_uimm12, MV(x)
#define S12(x) LINX_FLD_simm12, MV(x)
#define S5(x) LINX_FLD_simm5, MV(x)
#define BR(x) LINX_FLD_BrType, MV(x)
#define E MASM_END

typedef struct Run {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    int excp;
} Run;

typedef void (*SetupFn)(CPULinxState *env);

static const struct {
    LinxAccel accel;
    bool one_insn;
    const char *name;
} modes[] = {
    { LINX_ACCEL_INTERP, false, "interp" },
    { LINX_ACCEL_JIT, false, "jit" },
    { LINX_ACCEL_INTERP, true, "interp/one-insn" },
    { LINX_ACCEL_JIT, true, "jit/one-insn" },
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

static void run_start(Run *r, const MiniAsm *a, unsigned mode)
{
    LinxExecOptions opts;
    char err[256];

    assert_false(a->error);
    r->gm = guest_mem_new(UINT64_C(1) << 40);
    assert_non_null(r->gm);
    assert_true(guest_mem_map(r->gm, CODE_BASE, CODE_SIZE,
                              GM_PROT_READ | GM_PROT_WRITE | GM_PROT_EXEC, false));
    assert_true(guest_mem_map(r->gm, DATA_BASE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_int_equal(guest_mem_write(r->gm, a->base, a->buf, a->len, NULL), GM_OK);

    linx_exec_options_init(&opts);
    opts.accel = modes[mode].accel;
    opts.one_insn_per_tb = modes[mode].one_insn;
    opts.trace_commit_path = NULL;
    r->ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(CPULinxState));
    assert_non_null(r->env);
    r->env->engine.mem = r->gm;
    /* The programs here give SrcRType as raw codes in the v0.4 catalog's
     * numbering (0 none .. 3 .neg); test_profile_toolchain switches to the
     * other profile in its setup. */
    r->env->profile = linx_profile(LINX_PROFILE_V04);
    linx_cpu_reset(r->env, a->base, 0);
    r->env->gpr[SP] = STACK_TOP;
    linx_exec_attach_cpu(r->ec, r->env);
}

static void run_go(Run *r)
{
    r->excp = cpu_exec(r->env);
}

static void run_end(Run *r)
{
    linx_exec_free(r->ec);
    guest_mem_free(r->gm);
    free(r->env);
}

static unsigned trapnum(const CPULinxState *env)
{
    return (unsigned)(env->trapno & 0x3f);
}

static unsigned trapcause(const CPULinxState *env)
{
    return (unsigned)((env->trapno >> 24) & 0xffffff);
}

/* Run @a to its EBREAK in every mode and call @check on the state. */
static void run_all_modes(const MiniAsm *a, SetupFn setup, void (*check)(Run *r))
{
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;
        run_start(&r, a, m);
        if (setup) {
            setup(r.env);
        }
        run_go(&r);
        if (r.excp != EXCP_TRAP || trapnum(r.env) != LINX_TRAP_SW_BREAKPOINT) {
            fprintf(stderr, "mode %s: stopped with %d, trapnum %u cause 0x%x at pc 0x%llx\n",
                    modes[m].name, r.excp, trapnum(r.env), trapcause(r.env),
                    (unsigned long long)r.env->pc);
            linx_cpu_dump_state(r.env, stderr);
        }
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(trapnum(r.env), LINX_TRAP_SW_BREAKPOINT);
        check(&r);
        run_end(&r);
    }
}

static void ebreak(MiniAsm *a)
{
    masm(a, LINX_F_EBREAK, LINX_FLD_imm4, MV(0), E);
}

static uint64_t rd64(Run *r, uint64_t addr)
{
    uint64_t v = 0;
    assert_int_equal(guest_mem_read(r->gm, addr, &v, 8, GM_PROT_READ, NULL), GM_OK);
    return v;
}

/* ---------------------------------------------------------------------- */
/* Integer ALU                                                             */
/* ---------------------------------------------------------------------- */

static void check_alu(Run *r)
{
    const uint64_t *g = r->env->gpr;

    assert_int_equal(g[A0], 100);
    assert_int_equal(g[A1], 7);
    assert_int_equal(g[A2], 156);                       /* 100 + (7 << 3) */
    assert_int_equal(g[A3], 99);
    assert_int_equal(g[A4], UINT64_C(0xffffffff80000000)); /* lui sext */
    assert_int_equal(g[A5], UINT64_C(0x7fffffff));         /* ~a4 */
    assert_int_equal(g[A6], (uint64_t)-5);
    assert_int_equal(g[A7], (uint64_t)-10);             /* addw a6, a6 */
    assert_int_equal(g[S0], 7 << 7);                    /* sll by register */
    assert_int_equal(g[S1], UINT64_C(0xffffffff80000000)); /* 0x7fffffff + 1, 32-bit, sext */
    assert_int_equal(g[S2], 100 - 7);                   /* sub a0, a1 */
    assert_int_equal(g[S3], 100 + 7);                   /* add a0, a1.neg.neg */
    assert_int_equal(g[0], 0);
}

static void test_alu(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A0), SL(ZERO), U12(100), E);
    masm(&a, LINX_F_ADDI, RD(A1), SL(ZERO), U12(7), E);
    masm(&a, LINX_F_ADD, RD(A2), SL(A0), SR(A1), SRT(0), SH(3), E);
    masm(&a, LINX_F_SUBI, RD(A3), SL(A0), U12(1), E);
    masm(&a, LINX_F_LUI, RD(A4), LINX_FLD_imm20, MV(0x80000), E);
    masm(&a, LINX_F_XORI, RD(A5), SL(A4), S12(-1), E);
    masm(&a, LINX_F_C_MOVI, RD(A6), S5(-5), E);
    masm(&a, LINX_F_ADDW, RD(A7), SL(A6), SR(A6), SRT(0), SH(0), E);
    masm(&a, LINX_F_SLL, RD(S0), SL(A1), SR(A1), E);
    /* 0x7fffffff + 1 in 32 bits = 0x80000000, sign-extended. */
    masm(&a, LINX_F_ADDIW, RD(S1), SL(A5), U12(1), E);
    masm(&a, LINX_F_SUB, RD(S2), SL(A0), SR(A1), SRT(0), SH(0), E);
    masm(&a, LINX_F_SUB, RD(S3), SL(A0), SR(A1), SRT(3), SH(0), E); /* a0 - (-a1) */
    ebreak(&a);
    assert_true(masm_finish(&a));
    run_all_modes(&a, NULL, check_alu);
}

/* The linx-toolchain profile (docs/decisions.md "Profiles"): SrcRType 0
 * .sw, 1 .uw, 2 .neg/.not, 3 none; compares apply .neg; CSEL picks SrcR
 * when SrcP != 0.  Expected values are C arithmetic on the same inputs. */
static void setup_toolchain(CPULinxState *env)
{
    env->profile = linx_profile(LINX_PROFILE_TOOLCHAIN);
    env->gpr[A0] = 100;
    env->gpr[A1] = UINT64_C(0xffffffff80000007); /* low 32 bits 0x80000007 */
    env->gpr[A2] = DATA_BASE;
}

static void check_toolchain(Run *r)
{
    const uint64_t *g = r->env->gpr;
    uint64_t a1 = UINT64_C(0xffffffff80000007);

    assert_int_equal(g[A3], 100 + a1);                               /* add, 3 = none */
    assert_int_equal(g[A4], 100 + (uint64_t)(int64_t)(int32_t)a1);  /* add .sw (0) */
    assert_int_equal(g[A5], 100 + (uint64_t)(uint32_t)a1);           /* add .uw (1) */
    assert_int_equal(g[A6], 100 - a1);                               /* add .neg (2) */
    assert_int_equal(g[A7], 100 & ~a1);                              /* and .not (2) */
    assert_int_equal(g[S0], 1);                    /* cmp.eq a0, s5.neg: 100 == -(-100) */
    assert_int_equal(g[S1], 100);                  /* csel p=1: SrcR (a0) */
    assert_int_equal(g[S2], a1);                   /* csel p=0: SrcL (a1) */
    assert_int_equal(g[S3], (uint64_t)-100);       /* csel p=1: SrcR .neg */
    assert_int_equal(g[S4], 0x5a);                 /* lb [a2, a0.neg << 0] + 100 bytes */
}

static void test_profile_toolchain(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADD, RD(A3), SL(A0), SR(A1), SRT(3), SH(0), E);
    masm(&a, LINX_F_ADD, RD(A4), SL(A0), SR(A1), SRT(0), SH(0), E);
    masm(&a, LINX_F_ADD, RD(A5), SL(A0), SR(A1), SRT(1), SH(0), E);
    masm(&a, LINX_F_ADD, RD(A6), SL(A0), SR(A1), SRT(2), SH(0), E);
    masm(&a, LINX_F_AND, RD(A7), SL(A0), SR(A1), SRT(2), SH(0), E);
    /* cmp.eq a0, s5.neg with s5 = -100 */
    masm(&a, LINX_F_SUBI, RD(S5), SL(ZERO), U12(100), E);
    masm(&a, LINX_F_CMP_EQ, RD(S0), SL(A0), SR(S5), SRT(2), E);
    masm(&a, LINX_F_ADDI, RD(S6), SL(ZERO), U12(1), E);
    masm(&a, LINX_F_CSEL, RD(S1), SL(A1), SR(A0), LINX_FLD_SrcP, MV(S6), SRT(3), E);
    masm(&a, LINX_F_CSEL, RD(S2), SL(A1), SR(A0), LINX_FLD_SrcP, MV(ZERO), SRT(3), E);
    masm(&a, LINX_F_CSEL, RD(S3), SL(A1), SR(A0), LINX_FLD_SrcP, MV(S6), SRT(2), E);
    /* byte 0x5a at DATA_BASE; a2 = DATA_BASE + 100, index a0.neg = -100 */
    masm(&a, LINX_F_ADDI, RD(S7), SL(ZERO), U12(0x5a), E);
    masm(&a, LINX_F_SBI, SL(S7), SR(A2), S12(0), E);
    masm(&a, LINX_F_ADDI, RD(A2), SL(A2), U12(100), E);
    masm(&a, LINX_F_LB, RD(S4), SL(A2), SR(A0), SRT(2), SH(0), E);
    ebreak(&a);
    run_all_modes(&a, setup_toolchain, check_toolchain);
}

/* ---------------------------------------------------------------------- */
/* ClockHands queues                                                        */
/* ---------------------------------------------------------------------- */

static void check_queues(Run *r)
{
    const uint64_t *g = r->env->gpr;

    assert_int_equal(g[A0], 7); /* t#1 = 5 + 2 */
    assert_int_equal(g[A1], 5);
    assert_int_equal(g[A2], 3);
    assert_int_equal(g[A3], 9);
    assert_int_equal(g[A4], 0); /* u#2 never pushed in this block */
    assert_int_equal(g[A5], 0); /* queues reset at the next block */
    assert_int_equal(g[A6], 42);
}

static void test_queues(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    for (int i = 1; i <= 5; i++) {
        masm(&a, LINX_F_C_MOVI, RD(TO_T), S5(i), E); /* t#1 = 5 .. t#4 = 2 */
    }
    masm(&a, LINX_F_C_ADD, SL(T1), SR(T4), E);      /* -> t: 7 */
    masm(&a, LINX_F_C_MOVR, RD(A0), SL(T1), E);
    masm(&a, LINX_F_C_MOVR, RD(A1), SL(T2), E);
    masm(&a, LINX_F_C_MOVR, RD(A2), SL(T4), E);
    masm(&a, LINX_F_ADDI, RD(TO_U), SL(ZERO), U12(9), E);
    masm(&a, LINX_F_C_MOVR, RD(A3), SL(U1), E);
    masm(&a, LINX_F_C_MOVR, RD(A4), SL(U2), E);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_C_MOVR, RD(A5), SL(T1), E);
    /* Compressed ops read t#1: c.slli t#1, 1 after pushing 21. */
    masm(&a, LINX_F_C_MOVI, RD(TO_T), S5(11), E);
    masm(&a, LINX_F_C_MOVI, RD(TO_T), S5(10), E);
    masm(&a, LINX_F_C_ADD, SL(T1), SR(T2), E);       /* t#1 = 21 */
    masm(&a, LINX_F_C_SLLI, LINX_FLD_uimm5, MV(1), E); /* t#1 = 42 */
    masm(&a, LINX_F_C_MOVR, RD(A6), SL(T1), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    run_all_modes(&a, NULL, check_queues);
}

/* ---------------------------------------------------------------------- */
/* Blocks: COND loop, fused call, FENTRY/FRET.STK, RET block               */
/* ---------------------------------------------------------------------- */

enum { L_LOOP = 1, L_AFTER, L_FUNC, L_RET, L_RET2, L_FUNC2 };

static void check_blocks(Run *r)
{
    const uint64_t *g = r->env->gpr;

    assert_int_equal(g[A1], 15);  /* 5 + 4 + 3 + 2 + 1 */
    assert_int_equal(g[A0], 0);
    assert_int_equal(g[A2], 11);  /* executed in the call block */
    assert_int_equal(g[A3], 42);  /* set by the callee */
    assert_int_equal(g[A4], 77);  /* after the return */
    assert_int_equal(g[A5], 99);  /* second callee, returned through a RET block */
    assert_int_equal(g[SP], STACK_TOP);
}

static void test_blocks(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A0), SL(ZERO), U12(5), E);
    masm(&a, LINX_F_ADDI, RD(A1), SL(ZERO), U12(0), E);
    /* loop: a1 += a0; a0 -= 1; repeat while a0 != 0 */
    masm_label(&a, L_LOOP);
    masm_br(&a, LINX_F_C_BSTART_COND, LINX_FLD_simm12, 2, L_LOOP, E);
    masm(&a, LINX_F_ADD, RD(A1), SL(A1), SR(A0), SRT(0), SH(0), E);
    masm(&a, LINX_F_SUBI, RD(A0), SL(A0), U12(1), E);
    masm(&a, LINX_F_C_SETC_NE, SL(A0), SR(ZERO), E);
    /* call block: BSTART simm25 + c.setret (fused CALL) */
    masm_br(&a, LINX_F_BSTART_DIRECT, LINX_FLD_simm25, 2, L_FUNC, E);
    masm_br(&a, LINX_F_C_SETRET, LINX_FLD_uimm5, 2, L_RET, E);
    masm(&a, LINX_F_ADDI, RD(A2), SL(ZERO), U12(11), E);
    masm_label(&a, L_RET);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A4), SL(ZERO), U12(77), E);
    /* second call through an explicit CALL header and an HL.SETRET */
    masm_br(&a, LINX_F_HL_BSTART_STD_CALL, LINX_FLD_simm, 1, L_FUNC2, E);
    masm_br(&a, LINX_F_HL_SETRET, LINX_FLD_imm32, 2, L_RET2, E);
    masm_label(&a, L_RET2);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    ebreak(&a);
    /* callee 1: FENTRY [ra ~ ra], 16; body; FRET.STK */
    masm_label(&a, L_FUNC);
    masm(&a, LINX_F_FENTRY, LINX_FLD_SrcBegin, MV(RA), LINX_FLD_SrcEnd, MV(RA),
         LINX_FLD_uimm, MV(16), E);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A3), SL(ZERO), U12(42), E);
    masm(&a, LINX_F_ADDI, RD(RA), SL(ZERO), U12(0), E); /* clobber: FRET reloads it */
    masm(&a, LINX_F_FRET_STK, LINX_FLD_DstBegin, MV(RA), LINX_FLD_DstEnd, MV(RA),
         LINX_FLD_uimm, MV(16), E);
    /* callee 2: returns through C.BSTART.STD RET + c.setc.tgt ra */
    masm_label(&a, L_FUNC2);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A5), SL(ZERO), U12(99), E);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_RET), E);
    masm(&a, LINX_F_C_SETC_TGT, SL(RA), E);
    masm(&a, LINX_F_C_BSTOP, E);
    assert_true(masm_finish(&a));
    run_all_modes(&a, NULL, check_blocks);
}

/* ---------------------------------------------------------------------- */
/* Loads and stores                                                        */
/* ---------------------------------------------------------------------- */

static void setup_data(CPULinxState *env)
{
    env->gpr[A0] = DATA_BASE;
    env->gpr[A1] = UINT64_C(0x8877665544332211);
}

static void check_mem(Run *r)
{
    const uint64_t *g = r->env->gpr;

    assert_int_equal(rd64(r, DATA_BASE + 8), UINT64_C(0x8877665544332211));
    assert_int_equal(g[A2], UINT64_C(0x8877665544332211));
    assert_int_equal(g[A3], UINT64_C(0xffffffffffffff88));   /* lb of byte 7, sext */
    assert_int_equal(g[A4], UINT64_C(0x88));                 /* lbu */
    assert_int_equal(g[A5], UINT64_C(0xffffffff88776655));   /* lwi [a0+8+4] */
    assert_int_equal(g[A6], UINT64_C(0x88776655));           /* lwui */
    assert_int_equal(g[A7], UINT64_C(0x6655));               /* lhu reg offset, shamt */
    assert_int_equal(rd64(r, DATA_BASE + 16), UINT64_C(0x2211));  /* shi */
    assert_int_equal(g[S0], DATA_BASE + 24);                 /* post-index writeback */
    assert_int_equal(g[S1], UINT64_C(0x8877665544332211));   /* loaded at the old base */
    assert_int_equal(g[S2], UINT64_C(0x2211));               /* pair: [a0+16] */
    assert_int_equal(g[S3], 0);                              /* pair: [a0+24] */
}

static void test_loads_stores(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_SDI, SL(A1), SR(A0), S12(1), E);          /* [a0 + 8] = a1 */
    masm(&a, LINX_F_LDI, RD(A2), SL(A0), S12(1), E);
    masm(&a, LINX_F_LBI, RD(A3), SL(A0), S12(15), E);
    masm(&a, LINX_F_LBUI, RD(A4), SL(A0), S12(15), E);
    masm(&a, LINX_F_LWI, RD(A5), SL(A0), S12(3), E);
    masm(&a, LINX_F_LWUI, RD(A6), SL(A0), S12(3), E);
    masm(&a, LINX_F_ADDI, RD(S0), SL(ZERO), U12(6), E);
    masm(&a, LINX_F_LHU, RD(A7), SL(A0), SR(S0), SRT(0), SH(1), E); /* [a0 + 12] */
    masm(&a, LINX_F_SHI, SL(A1), SR(A0), S12(8), E);           /* [a0 + 16] = 0x2211 */
    masm(&a, LINX_F_ADDI, RD(S0), SL(A0), U12(8), E);
    masm(&a, LINX_F_HL_LDI_PO, RD0(S1), RD1(S0), SL(S0), LINX_FLD_simm17, MV(2), E);
    masm(&a, LINX_F_HL_LDIP, RD0(S2), RD1(S3), SL(A0), LINX_FLD_simm17, MV(2), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    run_all_modes(&a, setup_data, check_mem);
}

/* ---------------------------------------------------------------------- */
/* Division edge cases                                                     */
/* ---------------------------------------------------------------------- */

static void setup_div(CPULinxState *env)
{
    env->gpr[A0] = UINT64_C(0x8000000000000000);
    env->gpr[A1] = UINT64_MAX; /* -1 */
    env->gpr[A2] = 0;
    env->gpr[A3] = 7;
}

static void check_div(Run *r)
{
    const uint64_t *g = r->env->gpr;

    assert_int_equal(g[A4], UINT64_C(0x8000000000000000)); /* MIN / -1 */
    assert_int_equal(g[A5], 0);                             /* MIN % -1 */
    assert_int_equal(g[A6], 0);                             /* 7 / 0 */
    assert_int_equal(g[A7], 7);                             /* 7 % 0 */
    assert_int_equal(g[S0], UINT64_C(0xffffffff80000000));  /* divw: 0x80000000 / -1 */
    assert_int_equal(g[S1], UINT64_MAX / 7);                /* divu */
}

static void test_division(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_DIV, RD(A4), SL(A0), SR(A1), E);
    masm(&a, LINX_F_REM, RD(A5), SL(A0), SR(A1), E);
    masm(&a, LINX_F_DIV, RD(A6), SL(A3), SR(A2), E);
    masm(&a, LINX_F_REM, RD(A7), SL(A3), SR(A2), E);
    masm(&a, LINX_F_LUI, RD(S0), LINX_FLD_imm20, MV(0x80000), E);
    masm(&a, LINX_F_DIVW, RD(S0), SL(S0), SR(A1), E);
    masm(&a, LINX_F_DIVU, RD(S1), SL(A1), SR(A3), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    run_all_modes(&a, setup_div, check_div);
}

/* ---------------------------------------------------------------------- */
/* Traps                                                                   */
/* ---------------------------------------------------------------------- */

#define ANY_ARG UINT64_MAX

/* Run @a expecting a trap (not the EBREAK) in every mode. */
static void expect_trap(const MiniAsm *a, SetupFn setup, unsigned tn, unsigned cause,
                        uint64_t traparg0, uint64_t pc)
{
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;
        run_start(&r, a, m);
        if (setup) {
            setup(r.env);
        }
        run_go(&r);
        if (r.excp != EXCP_TRAP || trapnum(r.env) != tn) {
            fprintf(stderr, "mode %s: got %d trapnum %u cause 0x%x pc 0x%llx\n", modes[m].name,
                    r.excp, trapnum(r.env), trapcause(r.env), (unsigned long long)r.env->pc);
        }
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(trapnum(r.env), tn);
        assert_int_equal(trapcause(r.env), cause);
        if (traparg0 != ANY_ARG) {
            assert_int_equal(r.env->traparg0, traparg0);
        }
        assert_int_equal(r.env->trap_pc, pc);
        run_end(&r);
    }
}

/* A DIRECT branch to an address that is not a block start. */
static void test_cfi_direct(void **state)
{
    static MiniAsm a;
    uint64_t bpc, bad;

    masm_init(&a, CODE_BASE);
    bpc = masm_br(&a, LINX_F_C_BSTART_DIRECT, LINX_FLD_simm12, 2, 1, E);
    masm(&a, LINX_F_C_BSTOP, E);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm_label(&a, 1);
    bad = masm(&a, LINX_F_ADDI, RD(A0), SL(ZERO), U12(1), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    /* TRAPARG0 should be the branching block (bpc); the exec loop raises
     * this trap itself and reports the target, so it is not checked. */
    (void)bpc;
    expect_trap(&a, NULL, LINX_TRAP_BLOCK, LINX_CAUSE(LINX_EC_CFI, LINX_CFI_BAD_TARGET), ANY_ARG,
                bad);
}

/* Code up to the end of an executable page whose next page is not
 * executable (the front end reads code ahead within a page,
 * fetch_bytes): the instruction that straddles the boundary raises the
 * instruction page fault at its pc with the first unfetchable byte (the
 * next page) as TRAPARG0, after the instructions before it ran; one that
 * starts in the next page faults there. */
#define NX_PAGE (CODE_BASE + 0x1000)

static void setup_nx_page(CPULinxState *env)
{
    assert_true(guest_mem_protect(env->engine.mem, NX_PAGE, GUEST_PAGE_SIZE,
                                  GM_PROT_READ | GM_PROT_WRITE));
}

static void test_fetch_at_page_end(void **state)
{
    static MiniAsm a, b;
    uint64_t pc;

    masm_init(&a, NX_PAGE - 8);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A0), SL(ZERO), U12(1), E);
    pc = masm(&a, LINX_F_ADDI, RD(A1), SL(ZERO), U12(2), E); /* NX_PAGE - 2 .. + 2 */
    ebreak(&a);
    assert_true(masm_finish(&a));
    assert_int_equal(pc, NX_PAGE - 2);
    expect_trap(&a, setup_nx_page, LINX_TRAP_INST_PAGE_FAULT, 0, NX_PAGE, NX_PAGE - 2);

    masm_init(&b, NX_PAGE - 6);
    masm(&b, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&b, LINX_F_ADDI, RD(A0), SL(ZERO), U12(1), E);
    pc = masm(&b, LINX_F_ADDI, RD(A1), SL(ZERO), U12(2), E); /* NX_PAGE */
    ebreak(&b);
    assert_true(masm_finish(&b));
    assert_int_equal(pc, NX_PAGE);
    expect_trap(&b, setup_nx_page, LINX_TRAP_INST_PAGE_FAULT, 0, NX_PAGE, NX_PAGE);
}

static void test_misaligned(void **state)
{
    static MiniAsm a;
    uint64_t pc;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(&a, LINX_F_ADDI, RD(A0), SL(A0), U12(4), E);
    pc = masm(&a, LINX_F_LDI, RD(A2), SL(A0), S12(0), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    expect_trap(&a, setup_data, LINX_TRAP_DATA_ALIGN_FAULT, 0, DATA_BASE + 4, pc);
}

/* ---------------------------------------------------------------------- */
/* Self-looping COND blocks (several copies per TB, translate.c)           */
/* ---------------------------------------------------------------------- */

enum { L_SELF = 20 };

/* Loop N times: a1 += a0, store CYCLE, a0 -= 1; the SETC.AND reads
 * ClockHands entries that the commit discards. */
static void build_self_loop(MiniAsm *a, unsigned n, bool fault)
{
    masm_init(a, CODE_BASE);
    masm(a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    masm(a, LINX_F_ADDI, RD(A1), SL(ZERO), U12(0), E);
    masm(a, LINX_F_ADDI, RD(A0), SL(ZERO), U12(n), E);
    masm_label(a, L_SELF);
    masm_br(a, LINX_F_C_BSTART_COND, LINX_FLD_simm12, 2, L_SELF, E);
    masm(a, LINX_F_ADD, RD(A1), SL(A1), SR(A0), SRT(0), SH(0), E);
    masm(a, LINX_F_SSRGET, RD(TO_T), LINX_FLD_SSR_ID, MV(LINX_SSR_CYCLE), E);
    if (fault) {
        masm(a, LINX_F_LDI, RD(A3), SL(A2), S12(0), E);
    } else {
        masm(a, LINX_F_SDI, SL(T1), SR(A2), S12(0), E);
    }
    masm(a, LINX_F_ADDI, RD(A2), SL(A2), U12(fault ? 0x800 : 8), E);
    masm(a, LINX_F_SUBI, RD(A0), SL(A0), U12(1), E);
    masm(a, LINX_F_CMP_NEI, RD(TO_T), SL(A0), S12(0), E);
    masm(a, LINX_F_C_MOVI, RD(TO_T), S5(-1), E);
    masm(a, LINX_F_SETC_AND, SL(T1), SR(T2), SRT(0), E); /* (-1 & (a0 != 0)) != 0 */
    masm(a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    ebreak(a);
    assert_true(masm_finish(a));
}

static void setup_loop(CPULinxState *env)
{
    env->gpr[A2] = DATA_BASE;
}

/* The last 0x800-byte steps of the data area: iteration 5 reads past it. */
static void setup_loop_fault(CPULinxState *env)
{
    env->gpr[A2] = DATA_BASE + DATA_SIZE - 4 * 0x800;
}

static void test_self_loop(void **state)
{
    static MiniAsm a;

    /* 1..9 iterations: every copy is the last one for some n, and n > 4
     * chains the TB to itself. */
    for (unsigned n = 1; n <= 9; n++) {
        build_self_loop(&a, n, false);
        for (unsigned m = 0; m < NMODES; m++) {
            Run r;
            run_start(&r, &a, m);
            setup_loop(r.env);
            run_go(&r);
            assert_int_equal(r.excp, EXCP_TRAP);
            assert_int_equal(trapnum(r.env), LINX_TRAP_SW_BREAKPOINT);
            assert_int_equal(r.env->gpr[A1], n * (n + 1) / 2);
            assert_int_equal(r.env->gpr[A0], 0);
            assert_int_equal(r.env->gpr[A2], DATA_BASE + 8 * n);
            /* CYCLE in iteration k: 3 + 9 (k - 1) + 2 instructions before */
            for (unsigned k = 1; k <= n; k++) {
                assert_int_equal(rd64(&r, DATA_BASE + 8 * (k - 1)), 5 + 9 * (k - 1));
            }
            /* retired: 3, 9 per iteration, the FALL marker (EBREAK traps) */
            assert_int_equal(r.env->insn_count, 3 + 9 * n + 1);
            run_end(&r);
        }
    }
    /* A fault in the fifth iteration (the second copy of the second
     * TB run): precise pc and registers. */
    build_self_loop(&a, 9, true);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;
        run_start(&r, &a, m);
        setup_loop_fault(r.env);
        run_go(&r);
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(trapnum(r.env), LINX_TRAP_DATA_PAGE_FAULT);
        assert_int_equal(r.env->traparg0, DATA_BASE + DATA_SIZE);
        assert_int_equal(r.env->trap_pc, CODE_BASE + 10 + 2 + 4 + 4);
        assert_int_equal(r.env->gpr[A1], 9 + 8 + 7 + 6 + 5);
        assert_int_equal(r.env->gpr[A0], 5);
        assert_int_equal(r.env->bpc, CODE_BASE + 10);
        run_end(&r);
    }
}

/* ---------------------------------------------------------------------- */
/* MCOPY/MSET: host memmove/memset in one region, chunks across regions    */
/* ---------------------------------------------------------------------- */

#define MC(op, d, s, n)                                                                 \
    masm(&a, op, LINX_FLD_RegSrc0, MV(d), LINX_FLD_RegSrc1, MV(s), LINX_FLD_RegSrc2, MV(n), E)

static void setup_mcopy(CPULinxState *env)
{
    env->gpr[A0] = DATA_BASE;          /* 0x40000: 16 bytes 0..15 */
    env->gpr[A1] = DATA_BASE + 4;      /* overlapping, forward copy */
    env->gpr[A2] = DATA_BASE + 0x100;  /* MSET area */
    env->gpr[A3] = DATA_BASE + DATA_SIZE - 8; /* spans into the next region */
    env->gpr[A4] = 16;
    env->gpr[A5] = 0x1a5;
    env->gpr[A6] = 12;
    env->gpr[A7] = DATA_BASE + 0x200;
}

static void test_mcopy(void **state)
{
    static MiniAsm a;

    masm_init(&a, CODE_BASE);
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    MC(LINX_F_MCOPY, A1, A0, A6);   /* memmove [a0+4, 12] <- [a0, 12] */
    MC(LINX_F_MSET, A2, A5, A4);    /* 16 x 0xa5 */
    MC(LINX_F_MCOPY, A3, A2, A4);   /* across the region boundary */
    MC(LINX_F_MCOPY, A7, A3, A4);   /* and back */
    masm(&a, LINX_F_C_BSTART_STD, BR(LINX_BR_FALL), E);
    ebreak(&a);
    assert_true(masm_finish(&a));
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;
        uint8_t init[16], got[16];
        run_start(&r, &a, m);
        /* a second region right after the data area: not host-contiguous */
        assert_true(guest_mem_map(r.gm, DATA_BASE + DATA_SIZE, 0x1000,
                                  GM_PROT_READ | GM_PROT_WRITE, false));
        for (unsigned i = 0; i < 16; i++) {
            init[i] = (uint8_t)i;
        }
        assert_int_equal(guest_mem_write(r.gm, DATA_BASE, init, 16, NULL), GM_OK);
        setup_mcopy(r.env);
        run_go(&r);
        assert_int_equal(r.excp, EXCP_TRAP);
        assert_int_equal(trapnum(r.env), LINX_TRAP_SW_BREAKPOINT);
        assert_int_equal(guest_mem_read(r.gm, DATA_BASE, got, 16, GM_PROT_READ, NULL), GM_OK);
        for (unsigned i = 0; i < 16; i++) {
            assert_int_equal(got[i], i < 4 ? i : i - 4);
        }
        assert_int_equal(rd64(&r, DATA_BASE + DATA_SIZE - 8), UINT64_C(0xa5a5a5a5a5a5a5a5));
        assert_int_equal(rd64(&r, DATA_BASE + DATA_SIZE), UINT64_C(0xa5a5a5a5a5a5a5a5));
        assert_int_equal(rd64(&r, DATA_BASE + 0x200), UINT64_C(0xa5a5a5a5a5a5a5a5));
        assert_int_equal(rd64(&r, DATA_BASE + 0x208), UINT64_C(0xa5a5a5a5a5a5a5a5));
        assert_int_equal(rd64(&r, DATA_BASE + 0x210), 0);
        run_end(&r);
    }
}

/* The block a header marker starts (header-form.h), aliases included;
 * a non-header form is not one. */
static void test_header_forms(void **state)
{
    static const struct {
        const char *text;
        int type; /* -1: not a header */
        int func; /* -1: not checked */
    } cases[] = {
        { "BSTART.TMA TLOAD, FP32", LINX_BLK_TMA, 0 },
        { "BSTART.TMA TSTORE, FP32", LINX_BLK_TMA, 1 },
        { "BSTART.TMA TMOV, INT8", LINX_BLK_TMA, 2 },
        { "BSTART.CUBE TMATMUL, INT8", LINX_BLK_CUBE, 0 },
        { "BSTART.TMATMUL.ACC FP16", LINX_BLK_CUBE, 2 },
        { "BSTART.CUBE ACCCVT, INT32", LINX_BLK_CUBE, 8 },
        { "BSTART.TEPL TSUB, INT32", LINX_BLK_TEPL, -1 },
        { "BSTART.FIXP 3, INT32", LINX_BLK_FIXP, 3 },
        { "BSTART.MPAR VS8", LINX_BLK_MPAR, LINX_HDR_MODE_VS8 },
        { "BSTART.VSEQ VS16", LINX_BLK_VSEQ, LINX_HDR_MODE_VS16 },
        { "C.BSTART.MPAR", LINX_BLK_MPAR, LINX_HDR_MODE_VS16 },
        { "C.BSTART.VPAR", LINX_BLK_VPAR, LINX_HDR_MODE_VS16 },
        { "C.BSTART.STD", -1, -1 },
        { "addi a0, 1, ->a0", -1, -1 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        LinxAsmEnv env = { .pc = 0x10000, .final = true };
        LinxAsmResult r;
        LinxAsmError e;
        LinxInsn insn;
        LinxBlockType type = LINX_BLK_STD;
        unsigned func = 0;
        bool is_header;

        if (!linx_asm_insn(cases[i].text, &env, &r, &e)) {
            fail_msg("'%s': %s", cases[i].text, e.msg);
        }
        assert_int_equal(linx_decode(r.bytes, r.len, &insn), LINX_DECODE_OK);
        is_header = linx_header_form(&insn, &type, &func);
        if (is_header != (cases[i].type >= 0) || (is_header && (int)type != cases[i].type) ||
            (is_header && cases[i].func >= 0 && (int)func != cases[i].func)) {
            fail_msg("'%s': header %d type %d func %u", cases[i].text, is_header, (int)type,
                     func);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu),
        cmocka_unit_test(test_profile_toolchain),
        cmocka_unit_test(test_header_forms),
        cmocka_unit_test(test_queues),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_loads_stores),
        cmocka_unit_test(test_division),
        cmocka_unit_test(test_cfi_direct),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_fetch_at_page_end),
        cmocka_unit_test(test_self_loop),
        cmocka_unit_test(test_mcopy),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
