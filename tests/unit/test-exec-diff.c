/*
 * Differential test of the two backends through the whole exec loop:
 * random toy-ISA programs (toy-isa.h) run under the interpreter and under
 * the JIT (chained, unchained, one instruction per TB, a code buffer so
 * small that it keeps filling up), and everything the
 * guest can observe must agree: how the run ended, trap registers, all
 * registers and the data page.  Programs mix ALU ops, aligned, misaligned
 * and out-of-range loads and stores (faults raised from inside generated
 * code), byte stores, forward jumps, bounded loops and indirect jumps.
 *
 * Without the x86-64 backend in the build, the interpreter is compared
 * with itself in the other modes (still checking chaining and one-insn
 * mode), and the test says so.
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

#include "tcg/engine-config.h"
#include "toy-isa.h"

#define CODE UINT64_C(0x10000)
#define DATA UINT64_C(0x20000)
#define I TOY_INSN
#define NPROGRAMS 300
#define MAX_INSNS 400

/* Registers: r1..r12 random values, r16 = DATA, r17 address scratch,
 * r18 indirect-jump target, r20 + k loop counters. */
enum { R_RAND = 12, R_BASE = 16, R_ADDR = 17, R_JR = 18, R_LOOP = 20 };

typedef struct Prog {
    uint32_t insn[MAX_INSNS];
    unsigned n;
    unsigned block_start[MAX_INSNS]; /* insn index of each MARK */
    bool loop_body[MAX_INSNS];       /* per block: entered only by fall-through */
    unsigned nblocks;
} Prog;

static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static unsigned rnd(unsigned n)
{
    return (unsigned)(rng() % n);
}

static void emit(Prog *p, uint32_t insn)
{
    if (p->n < MAX_INSNS) {
        p->insn[p->n++] = insn;
    }
}

static void emit_random_op(Prog *p)
{
    unsigned a = 1 + rnd(R_RAND), b = 1 + rnd(R_RAND);
    int imm = (int)rnd(256) - 128;

    switch (rnd(10)) {
    case 0:
        emit(p, I(TOY_MOVI, a, 0, imm));
        break;
    case 1:
    case 2:
        emit(p, I(TOY_ADDI, a, 0, imm));
        break;
    case 3:
    case 4:
        emit(p, I(TOY_ADD, a, b, 0));
        break;
    default: {
        /* An access near DATA: mostly aligned and inside the page, some
         * misaligned, some before it (unmapped). */
        int off = rnd(40) == 0 ? imm : (int)(rnd(16) * 8);
        if (rnd(40) == 0) {
            off += 1 + (int)rnd(7);
        }
        emit(p, I(TOY_MOVI, R_ADDR, 0, off));
        emit(p, I(TOY_ADD, R_ADDR, R_BASE, 0));
        switch (rnd(4)) {
        case 0:
            emit(p, I(TOY_LD, a, R_ADDR, 0));
            break;
        case 1:
            emit(p, I(TOY_ST, a, R_ADDR, 0));
            break;
        case 2:
            emit(p, I(TOY_STB, a, R_ADDR, 0));
            break;
        default:
            emit(p, I(TOY_LDU, a, R_ADDR, 0));
            break;
        }
        break;
    }
    }
}

/* A program: blocks of random ops.  A loop body is entered only by
 * fall-through (or the JR to "what follows") from the block before it,
 * which sets its counter last; it ends with a counted BNZ back to its
 * MARK.  Other blocks end with a forward J to a non-loop block, an
 * indirect jump to the next block, or fall through.  The last block
 * halts.  Every branch target and fall-through is a MARK. */
static void gen_program(Prog *p)
{
    unsigned nblocks = 3 + rnd(10);
    bool loop[16] = { false };
    unsigned fixups[MAX_INSNS], nfix = 0;

    memset(p, 0, sizeof(*p));
    for (unsigned b = 1; b < nblocks; b++) {
        loop[b] = rnd(3) == 0;
    }
    for (unsigned b = 0; b < nblocks; b++) {
        unsigned start = p->n, counter = R_LOOP + (b % 4);

        p->loop_body[p->nblocks] = loop[b];
        p->block_start[p->nblocks++] = start;
        emit(p, I(TOY_MARK, 0, 0, 0));
        if (b == 0) {
            for (unsigned r = 1; r <= R_RAND; r++) {
                emit(p, I(TOY_MOVI, r, 0, (int)rnd(256) - 128));
            }
        }
        for (unsigned k = rnd(6); k > 0; k--) {
            emit_random_op(p);
        }
        if (b + 1 < nblocks && loop[b + 1]) {
            emit(p, I(TOY_MOVI, R_LOOP + ((b + 1) % 4), 0, 1 + rnd(5)));
        }
        if (loop[b]) {
            emit(p, I(TOY_ADDI, counter, 0, -1));
            emit(p, I(TOY_BNZ, counter, 0, -(int)(p->n - start)));
        } else if (rnd(4) == 0) {
            fixups[nfix++] = p->n; /* forward J, patched below */
            emit(p, I(TOY_J, 0, 0, 0));
        } else if (rnd(5) == 0) {
            /* JR to what follows (r19 = CODE, set by the test):
             * r18 = (t / 4) * 16 + (t % 4) * 4 + CODE, t = target index. */
            unsigned t = p->n + 8;
            emit(p, I(TOY_MOVI, R_JR, 0, (int)(t / 4)));
            for (int k = 0; k < 4; k++) {
                emit(p, I(TOY_ADD, R_JR, R_JR, 0));
            }
            emit(p, I(TOY_ADDI, R_JR, 0, (int)(t % 4) * 4));
            emit(p, I(TOY_ADD, R_JR, 19, 0));
            emit(p, I(TOY_JR, R_JR, 0, 0));
        }
    }
    p->block_start[p->nblocks++] = p->n;
    emit(p, I(TOY_MARK, 0, 0, 0));
    emit(p, I(TOY_HALT, 0, 0, 0));

    for (unsigned f = 0; f < nfix; f++) {
        unsigned at = fixups[f], cand[MAX_INSNS], nc = 0;
        for (unsigned b = 0; b < p->nblocks; b++) {
            if (p->block_start[b] > at && !p->loop_body[b] && p->block_start[b] - at < 128) {
                cand[nc++] = p->block_start[b];
            }
        }
        if (nc == 0) {
            p->insn[at] = I(TOY_MOVI, R_RAND, 0, 1);
        } else if (rnd(30) == 0) {
            /* Now and then into the middle of a block: E_BLOCK(EC_CFI). */
            p->insn[at] = I(TOY_J, 0, 0, (int)(cand[rnd(nc)] + 1 - at));
        } else {
            p->insn[at] = I(TOY_J, 0, 0, (int)(cand[rnd(nc)] - at));
        }
    }
}

typedef struct Outcome {
    int excp;
    uint64_t trapno, traparg0, trap_pc, pc;
    int exit_code;
    uint64_t gpr[LINX_NUM_GPRS];
    uint8_t data[GUEST_PAGE_SIZE];
} Outcome;

typedef enum Mode {
    MODE_INTERP,
    MODE_JIT,
    MODE_JIT_NOCHAIN,
    MODE_INTERP_ONE_INSN,
    MODE_JIT_ONE_INSN,
    MODE_JIT_TINY,      /* one insn per TB in a 4 KiB code buffer: it fills up */
    MODE_JIT_NO_WINDOW, /* no direct window: the TLB's addend */
    MODE_JIT_FAR_DATA,  /* the window ends below DATA: its pages are TLB_NOT_DIRECT */
    NB_MODES,
} Mode;

static const char *const mode_names[NB_MODES] = {
    "interp", "jit", "jit-nochain", "interp-one-insn", "jit-one-insn", "jit-tiny",
    "jit-no-window", "jit-far-data",
};

/* Code-buffer flushes seen (the tiny-buffer mode must cause some). */
static uint64_t buffer_fills;

static void run_program(const Prog *p, Mode mode, Outcome *o)
{
    LinxExecOptions opts;
    LinxExecContext *ec;
    uint64_t window = mode == MODE_JIT_NO_WINDOW ? 0
                    : mode == MODE_JIT_FAR_DATA ? DATA : GUEST_MEM_WINDOW_MAX;
    GuestMemory *gm = guest_mem_new_window(GUEST_MEM_LIMIT_DEFAULT, window);
    CPULinxState *env = g_new0(CPULinxState, 1);
    char err[256];

    toy_exec_options(&opts);
    opts.accel = mode == MODE_INTERP || mode == MODE_INTERP_ONE_INSN ? LINX_ACCEL_INTERP
                                                                     : LINX_ACCEL_JIT;
    if (mode == MODE_JIT_TINY) {
        opts.code_buffer_size = 4096;
    }
    opts.log_mask = mode == MODE_JIT_NOCHAIN ? LINX_LOG_NOCHAIN : 0;
    opts.one_insn_per_tb = mode == MODE_INTERP_ONE_INSN || mode == MODE_JIT_ONE_INSN ||
                           mode == MODE_JIT_TINY;
    assert_true(guest_mem_map(gm, CODE, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_EXEC, false));
    assert_true(guest_mem_map(gm, DATA, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    toy_load(gm, CODE, p->insn, p->n);
    ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(ec);
    if (LINX_HAVE_JIT) {
        assert_int_equal(linx_exec_accel(ec), opts.accel);
    }
    env->engine.mem = gm;
    linx_exec_attach_cpu(ec, env);
    env->pc = CODE;
    env->gpr[R_BASE] = DATA;
    env->gpr[19] = CODE;

    memset(o, 0, sizeof(*o));
    o->excp = cpu_exec(env);
    o->trapno = env->trapno;
    o->traparg0 = env->traparg0;
    o->trap_pc = env->trap_pc;
    o->pc = o->excp == EXCP_TRAP ? env->pc : 0;
    o->exit_code = env->exit_code;
    memcpy(o->gpr, env->gpr, sizeof(o->gpr));
    assert_int_equal(guest_mem_read(gm, DATA, o->data, sizeof(o->data), GM_PROT_READ, NULL),
                     GM_OK);
    {
        LinxExecStats st;
        linx_exec_get_stats(ec, &st);
        buffer_fills += st.buffer_full;
    }
    linx_exec_free(ec);
    guest_mem_free(gm);
    g_free(env);
}

static bool same_outcome(const Outcome *a, const Outcome *b)
{
    return a->excp == b->excp && a->trapno == b->trapno && a->traparg0 == b->traparg0 &&
           a->trap_pc == b->trap_pc && a->pc == b->pc && a->exit_code == b->exit_code &&
           !memcmp(a->gpr, b->gpr, sizeof(a->gpr)) && !memcmp(a->data, b->data, sizeof(a->data));
}

static void report_diff(const Prog *p, unsigned prog, Mode m, const Outcome *a,
                        const Outcome *b)
{
    fprintf(stderr, "program %u differs under %s: excp %d/%d trapno 0x%llx/0x%llx "
            "traparg0 0x%llx/0x%llx\n", prog, mode_names[m], a->excp, b->excp,
            (unsigned long long)a->trapno, (unsigned long long)b->trapno,
            (unsigned long long)a->traparg0, (unsigned long long)b->traparg0);
    for (unsigned r = 0; r < LINX_NUM_GPRS; r++) {
        if (a->gpr[r] != b->gpr[r]) {
            fprintf(stderr, "  r%u: 0x%llx vs 0x%llx\n", r, (unsigned long long)a->gpr[r],
                    (unsigned long long)b->gpr[r]);
        }
    }
    for (unsigned i = 0; i < p->n; i++) {
        fprintf(stderr, "  %04x: %08x\n", i * 4, p->insn[i]);
    }
}

static void test_random_programs(void **state)
{
    Prog *p = g_new0(Prog, 1);
    Outcome *ref = g_new0(Outcome, 1), *o = g_new0(Outcome, 1);
    unsigned traps = 0, exits = 0, kinds[64] = { 0 };

    if (!LINX_HAVE_JIT) {
        printf("exec-diff: no JIT backend in this build; comparing interpreter modes only\n");
    }
    rng_state = 0x243f6a8885a308d3ull;
    for (unsigned prog = 0; prog < NPROGRAMS; prog++) {
        gen_program(p);
        run_program(p, MODE_INTERP, ref);
        traps += ref->excp == EXCP_TRAP;
        if (ref->excp == EXCP_TRAP) {
            kinds[MIN(ref->trapno & 0x3f, 63)]++;
        }
        exits += ref->excp == EXCP_EXIT;
        for (Mode m = MODE_JIT; m < NB_MODES; m++) {
            run_program(p, m, o);
            if (!same_outcome(ref, o)) {
                report_diff(p, prog, m, ref, o);
                fail_msg("program %u: %s disagrees with the interpreter", prog, mode_names[m]);
            }
        }
    }
    printf("exec-diff: %u programs, %u exits, %u traps, %d modes agree\n", NPROGRAMS, exits,
           traps, NB_MODES);
    for (unsigned k = 0; k < 64; k++) {
        if (kinds[k]) {
            printf("exec-diff:   trapnum %u: %u\n", k, kinds[k]);
        }
    }
    printf("exec-diff: %llu full code buffers flushed\n", (unsigned long long)buffer_fills);
    if (LINX_HAVE_JIT) {
        assert_true(buffer_fills > 0);
    }
    /* The generator must exercise both endings. */
    assert_true(traps > NPROGRAMS / 20);
    assert_true(exits > NPROGRAMS / 5);
    g_free(p);
    g_free(ref);
    g_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
