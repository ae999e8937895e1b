/*
 * linx-difftest: the random-program differential fuzzer.  Random valid
 * LinxISA programs (difftest-gen.h: scalar blocks from the ISA catalog,
 * calls, loops, tile headers with legal and illegal parameters, MPAR/MSEQ
 * kernels) run three ways - the IR interpreter, the JIT, and the JIT with
 * one instruction per TB (which exercises the mid-block resume path) -
 * and the final GPRs, FCSR, trap state (exception, TRAPNO, TRAPARG0, trap
 * pc, pc), the retired-instruction count, the lane counters and the whole
 * RAM buffer must be equal.
 *
 *   linx-difftest [-n COUNT] [-seconds S] [-seed N] [-v] [-l] [-p]
 *                 [-no-tiles] [-no-kernels] [-o FILE] [-f PROGRAM.s]
 *
 * -n runs COUNT programs from seed N (default 1) on; -seconds stops after
 * S seconds as well (CI runs it bounded that way); -seed N alone runs that
 * one program (reproducing a failure); -p prints the program; -l lists
 * the catalog forms scalar bodies draw from; -f runs a program file (a
 * minimised one) the three ways and prints the differences.  On a mismatch the program
 * is minimised (lines deleted while the same runs still disagree), the
 * minimised text is written to FILE (default difftest-fail-SEED.s) and
 * printed with the differences, and the exit status is 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "difftest-gen.h"
#include "hw/core/guest-memory.h"
#include "target/linx/tile-engine.h"
#include "hw/linx/tile-regs.h"
#include "linx-as.h"
#include "target/linx/cpu.h"
#include "target/linx/insn-table.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define MINIMISE_ROUNDS 2000

typedef struct Result {
    bool assembled;
    int excp;
    uint64_t gpr[LINX_NUM_GPRS];
    uint64_t fcsr, insn_count, trapno, traparg0, trap_pc, pc, lc[3];
    uint8_t ram[DT_RAM_SIZE];
} Result;

typedef struct Runner {
    LinxExecContext *ec;
    CPULinxState *env;
    LinxTileEngine engine;
    const char *name;
} Runner;

typedef struct Difftest {
    Runner rn[3]; /* interpreter, JIT, JIT one-insn-per-TB */
    Result res[3];
    uint8_t *code;
    size_t code_len;
} Difftest;

static bool runner_init(Runner *rn, const char *name, LinxAccel accel, bool one_insn)
{
    LinxExecOptions opts;
    char err[256];

    linx_exec_options_init(&opts);
    opts.accel = accel;
    opts.one_insn_per_tb = one_insn;
    opts.trace_commit_path = NULL;
    rn->ec = linx_exec_new(&opts, err, sizeof(err));
    rn->env = calloc(1, sizeof(CPULinxState));
    rn->name = name;
    if (!rn->ec || !rn->env) {
        fprintf(stderr, "difftest: %s\n", rn->ec ? "out of memory" : err);
        return false;
    }
    linx_tile_engine_init(&rn->engine, NULL);
    return true;
}

static void runner_free(Runner *rn)
{
    if (rn->ec) {
        linx_exec_free(rn->ec);
    }
    free(rn->env);
}

/* Assemble @text at DT_CODE_BASE into dt->code; false with the messages
 * in @diag (malloc'ed) when it does not assemble. */
static bool assemble(Difftest *dt, const char *text, char **diag)
{
    LinxAsOptions o;
    LinxAs *as;
    bool ok;

    linx_as_default_options(&o);
    o.format = LINX_AS_FMT_BIN;
    o.base = DT_CODE_BASE;
    as = linx_as_new(&o);
    linx_as_add_source(as, "t.s", text, strlen(text));
    free(dt->code);
    dt->code = NULL;
    ok = linx_as_assemble(as) && linx_as_output(as, &dt->code, &dt->code_len) &&
         dt->code_len <= DT_CODE_SIZE;
    if (diag) {
        *diag = ok ? NULL : strdup(linx_as_diagnostics(as));
    }
    linx_as_free(as);
    return ok;
}

static void ram_pattern(uint8_t *ram, uint64_t seed)
{
    uint64_t x = seed * UINT64_C(0xD1B54A32D192ED03) + 7;

    for (size_t i = 0; i < DT_RAM_SIZE; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ram[i] = (uint8_t)x;
    }
}

static bool run_one(Difftest *dt, Runner *rn, uint64_t seed, Result *res)
{
    GuestMemory *gm = guest_mem_new(UINT64_C(1) << 40);
    CPULinxState *env = rn->env;
    static uint8_t ram[DT_RAM_SIZE];

    ram_pattern(ram, seed);
    if (!gm || !guest_mem_map(gm, DT_CODE_BASE, DT_CODE_SIZE, GM_PROT_READ | GM_PROT_EXEC, false) ||
        !guest_mem_map(gm, DT_RAM_BASE, DT_RAM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false) ||
        !guest_mem_map(gm, DT_STACK_TOP - DT_STACK_SIZE, DT_STACK_SIZE,
                       GM_PROT_READ | GM_PROT_WRITE, false) ||
        guest_mem_debug_rw(gm, DT_CODE_BASE, dt->code, dt->code_len, true) != GM_OK ||
        guest_mem_debug_rw(gm, DT_RAM_BASE, ram, DT_RAM_SIZE, true) != GM_OK) {
        fprintf(stderr, "difftest: cannot set up memory\n");
        return false;
    }
    memset(env, 0, sizeof(*env));
    env->engine.mem = gm;
    linx_cpu_reset(env, DT_CODE_BASE, 0);
    env->gpr[1] = DT_STACK_TOP; /* sp */
    env->tiles = linx_tile_state_new();
    env->block_engine = linx_tile_block_engine;
    env->block_engine_opaque = &rn->engine;
    env->engine.exec = rn->ec;
    linx_exec_attach_cpu(rn->ec, env);
    linx_tb_flush(env);
    res->assembled = true;
    res->excp = cpu_exec(env);
    memcpy(res->gpr, env->gpr, sizeof(res->gpr));
    res->fcsr = env->fcsr;
    res->insn_count = env->insn_count;
    res->trapno = env->trapno;
    res->traparg0 = env->traparg0;
    res->trap_pc = env->trap_pc;
    res->pc = env->pc;
    memcpy(res->lc, env->lc, sizeof(res->lc));
    guest_mem_debug_rw(gm, DT_RAM_BASE, res->ram, DT_RAM_SIZE, false);
    linx_exec_detach_cpu(rn->ec, env);
    linx_tile_state_free(env->tiles);
    guest_mem_free(gm);
    return true;
}

/* Differences between @a and @b, printed when @out; their number. */
static unsigned compare(const char *what, const Result *a, const Result *b, FILE *out)
{
    unsigned diffs = 0;

#define CMP(field)                                                                                 \
    if (a->field != b->field) {                                                                    \
        if (out) {                                                                                 \
            fprintf(out, "  %s: " #field " 0x%" PRIx64 " vs 0x%" PRIx64 "\n", what,                \
                    (uint64_t)a->field, (uint64_t)b->field);                                       \
        }                                                                                          \
        diffs++;                                                                                   \
    }
    CMP(excp);
    CMP(trapno);
    CMP(traparg0);
    CMP(trap_pc);
    CMP(pc);
    CMP(fcsr);
    CMP(insn_count);
    CMP(lc[0]);
    CMP(lc[1]);
    CMP(lc[2]);
#undef CMP
    for (unsigned i = 0; i < LINX_NUM_GPRS; i++) {
        if (a->gpr[i] != b->gpr[i]) {
            if (out) {
                fprintf(out, "  %s: r%u 0x%" PRIx64 " vs 0x%" PRIx64 "\n", what, i, a->gpr[i],
                        b->gpr[i]);
            }
            diffs++;
        }
    }
    for (unsigned i = 0; i < DT_RAM_SIZE; i++) {
        if (a->ram[i] != b->ram[i]) {
            if (out) {
                fprintf(out, "  %s: RAM[0x%x] 0x%02x vs 0x%02x (first difference)\n", what, i,
                        a->ram[i], b->ram[i]);
            }
            diffs++;
            break;
        }
    }
    return diffs;
}

/* Run @text three ways; 1 when the runs disagree, 0 when they agree, -1
 * when it does not assemble (or cannot be run). */
static int check_text(Difftest *dt, const char *text, uint64_t seed, FILE *out)
{
    unsigned d;

    if (!assemble(dt, text, NULL)) {
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        if (!run_one(dt, &dt->rn[k], seed, &dt->res[k])) {
            return -1;
        }
    }
    d = compare("interp vs jit", &dt->res[0], &dt->res[1], out);
    d += compare("interp vs jit one-insn", &dt->res[0], &dt->res[2], out);
    return d ? 1 : 0;
}

/* A program that assembles: lines the assembler refuses (a catalog
 * encoding whose printed text it reads differently) are left out. */
static bool make_assemblable(Difftest *dt, DtProgram *p)
{
    for (int round = 0; round < 8; round++) {
        char *text = difftest_program_text(p), *diag = NULL;
        bool ok = assemble(dt, text, &diag);
        free(text);
        if (ok) {
            return true;
        }
        /* Drop each line a message names ("t.s:LINE:COL: error:"). */
        bool dropped = false;
        for (const char *q = diag; q && (q = strstr(q, "t.s:")); q += 4) {
            unsigned ln = (unsigned)strtoul(q + 4, NULL, 10), seen = 0;
            for (unsigned i = 0; i < p->n; i++) {
                seen += p->keep[i];
                if (p->keep[i] && seen == ln && difftest_line_droppable(p, i)) {
                    p->keep[i] = false;
                    dropped = true;
                    break;
                }
            }
        }
        if (!dropped) {
            fprintf(stderr, "difftest: a generated program does not assemble:\n%s", diag);
            free(diag);
            return false;
        }
        free(diag);
    }
    return false;
}

/* Delete lines while the runs still disagree (ddmin over droppable lines:
 * chunks halving down to single lines). */
static void minimise(Difftest *dt, DtProgram *p, uint64_t seed)
{
    unsigned rounds = 0;

    for (unsigned chunk = p->n / 2; chunk >= 1 && rounds < MINIMISE_ROUNDS; chunk /= 2) {
        bool progress = true;
        while (progress && rounds < MINIMISE_ROUNDS) {
            progress = false;
            for (unsigned start = 0; start < p->n && rounds < MINIMISE_ROUNDS; start += chunk) {
                unsigned dropped[4096], nd = 0;
                for (unsigned i = start; i < p->n && i < start + chunk && nd < 4096; i++) {
                    if (p->keep[i] && difftest_line_droppable(p, i)) {
                        p->keep[i] = false;
                        dropped[nd++] = i;
                    }
                }
                if (!nd) {
                    continue;
                }
                char *text = difftest_program_text(p);
                int r = check_text(dt, text, seed, NULL);
                free(text);
                rounds++;
                if (r == 1) {
                    progress = true; /* still fails without them */
                } else {
                    for (unsigned k = 0; k < nd; k++) {
                        p->keep[dropped[k]] = true;
                    }
                }
            }
        }
        if (chunk == 1) {
            break;
        }
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: linx-difftest [-n COUNT] [-seconds S] [-seed N] [-v] [-l] [-p]\n"
                    "                     [-no-tiles] [-no-kernels] [-o FILE] [-f PROGRAM.s]\n");
}

int main(int argc, char **argv)
{
    unsigned long count = 1000;
    double seconds = 0;
    uint64_t seed0 = 1;
    bool one = false, verbose = false, list = false, print = false;
    const char *out_path = NULL, *file = NULL;
    DtGenOptions go = { true, true };
    Difftest *dt = calloc(1, sizeof(*dt));
    unsigned long ran = 0, traps = 0, tile_traps = 0;
    struct timespec t0, t1;
    int status = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "-n") && has) {
            count = strtoul(argv[++i], NULL, 0);
        } else if ((!strcmp(a, "-seed") || !strcmp(a, "-s")) && has) {
            seed0 = strtoull(argv[++i], NULL, 0);
            one = !strcmp(a, "-seed");
        } else if (!strcmp(a, "-seconds") && has) {
            seconds = strtod(argv[++i], NULL);
        } else if (!strcmp(a, "-o") && has) {
            out_path = argv[++i];
        } else if (!strcmp(a, "-f") && has) {
            file = argv[++i];
        } else if (!strcmp(a, "-v")) {
            verbose = true;
        } else if (!strcmp(a, "-l")) {
            list = true;
        } else if (!strcmp(a, "-p")) {
            print = true;
        } else if (!strcmp(a, "-no-tiles")) {
            go.tiles = false;
        } else if (!strcmp(a, "-no-kernels")) {
            go.kernels = false;
        } else {
            usage();
            return 2;
        }
    }
    if (list) {
        unsigned forms[LINX_F__COUNT];
        unsigned n = difftest_body_forms(forms, LINX_F__COUNT);
        for (unsigned i = 0; i < n; i++) {
            printf("%s\n", linx_form(forms[i])->mnemonic);
        }
        return 0;
    }
    if (one) {
        count = 1;
    }
    if (!dt || !runner_init(&dt->rn[0], "interp", LINX_ACCEL_INTERP, false) ||
        !runner_init(&dt->rn[1], "jit", LINX_ACCEL_JIT, false) ||
        !runner_init(&dt->rn[2], "jit one-insn", LINX_ACCEL_JIT, true)) {
        return 1;
    }
    if (file) {
        FILE *f = fopen(file, "rb");
        char *text = calloc(1, 1 << 20);
        int r;
        if (!f || !text) {
            fprintf(stderr, "difftest: cannot read %s\n", file);
            return 2;
        }
        if (fread(text, 1, (1 << 20) - 1, f) == 0) {
            fprintf(stderr, "difftest: %s is empty\n", file);
            return 2;
        }
        fclose(f);
        r = check_text(dt, text, seed0, stdout);
        for (int k = 0; k < 3; k++) {
            printf("%s: excp %d trapno 0x%" PRIx64 " pc 0x%" PRIx64 " insns %" PRIu64 "\n",
                   dt->rn[k].name, dt->res[k].excp, dt->res[k].trapno, dt->res[k].pc,
                   dt->res[k].insn_count);
        }
        free(text);
        printf("difftest: %s: %s\n", file,
               r < 0 ? "does not assemble"
               : r   ? "the runs disagree"
                     : "the runs agree");
        return r == 0 ? 0 : 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned long i = 0; i < count; i++) {
        uint64_t seed = seed0 + i;
        DtProgram p;
        char *text;
        int r;

        if (seconds > 0) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if ((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9 > seconds) {
                break;
            }
        }
        difftest_gen(&p, seed, &go);
        if (!make_assemblable(dt, &p)) {
            difftest_program_free(&p);
            status = 1;
            break;
        }
        text = difftest_program_text(&p);
        if (print) {
            printf("# seed %" PRIu64 "\n%s", seed, text);
        }
        r = check_text(dt, text, seed, NULL);
        free(text);
        if (r < 0) {
            fprintf(stderr, "difftest: seed %" PRIu64 ": cannot run the program\n", seed);
            difftest_program_free(&p);
            status = 1;
            break;
        }
        ran++;
        traps +=
            dt->res[0].excp == EXCP_TRAP && (dt->res[0].trapno & 0x3f) != LINX_TRAP_SW_BREAKPOINT;
        tile_traps += dt->res[0].excp == EXCP_TRAP && (dt->res[0].trapno & 0x3f) == 4;
        if (verbose) {
            printf("seed %" PRIu64 ": %zu bytes, %" PRIu64 " insns, excp %d trap %u\n", seed,
                   dt->code_len, dt->res[0].insn_count, dt->res[0].excp,
                   (unsigned)(dt->res[0].trapno & 0x3f));
        }
        if (r == 1) {
            char name[64];
            FILE *f;
            fprintf(stderr, "difftest: seed %" PRIu64 ": the runs disagree; minimising...\n", seed);
            minimise(dt, &p, seed);
            text = difftest_program_text(&p);
            check_text(dt, text, seed, stderr);
            snprintf(name, sizeof(name), "difftest-fail-%" PRIu64 ".s", seed);
            f = fopen(out_path ? out_path : name, "w");
            if (f) {
                fputs(text, f);
                fclose(f);
            }
            fprintf(stderr,
                    "difftest: minimised program (%s; reproduce with -seed %" PRIu64 "):\n%s",
                    out_path ? out_path : name, seed, text);
            free(text);
            difftest_program_free(&p);
            status = 1;
            break;
        }
        difftest_program_free(&p);
    }
    if (!status) {
        printf("difftest: %lu programs agree under interp, jit and jit one-insn "
               "(%lu ended in a fault, %lu of them illegal-instruction/parameter traps)\n",
               ran, traps, tile_traps);
        if (ran == 0) {
            fprintf(stderr, "difftest: no program ran\n");
            status = 1;
        }
    }
    for (unsigned k = 0; k < 3; k++) {
        runner_free(&dt->rn[k]);
    }
    free(dt->code);
    free(dt);
    return status;
}
