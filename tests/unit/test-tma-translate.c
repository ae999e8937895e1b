/*
 * TMA blocks planned at translation time (target/linx/tma-translate.h):
 * guest programs assembled in memory by linx-as run through the exec loop
 * under the interpreter and the JIT, whole-block and one instruction per
 * TB (the resume path rebuilds the header's descriptor by replay), and the
 * tiles and guest memory they leave are checked element by element against
 * the layout formulas (shared/docs/tile-semantics.md 2.1).  Also: both
 * header styles and B.IOR orders, every B.DIM form, B.IOT sizes, B.IOD,
 * multi-source merges, TMOV, the B.ARG code question, faults at
 * translation time and at run time with the "illegal tile parameter"
 * report, the virt peer rule, -d tile, the reference kernels, and plans
 * surviving TB flushes and invalidation of the running TB (run these
 * under ASan: a dangling plan is a use after free).
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
#include "hw/linx/tile-regs.h"
#include "linx-as.h"
#include "target/linx/tma-translate.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA_BASE UINT64_C(0x100000)
#define DATA_SIZE UINT64_C(0x40000)
#define SRC (DATA_BASE + 0x800)
#define DST (DATA_BASE + 0x20800)
#define AREA 0x10000u      /* bytes of SRC and DST checked */
#define SENTINEL 0xee
#define PROG_MAX 8192
#define TRAPNUM(env) ((unsigned)((env)->trapno & 0xffffff))
#define TRAPCAUSE(env) ((unsigned)(((env)->trapno >> 24) & 0xffff))
#define PARAM_ARG(rule, value) ((uint64_t)(rule) | (uint64_t)(value) << 32)
#define CAUSE_PARAM 0x200u   /* LINX_CAUSE(LINX_EC_PARAM, 0) */
#define CAUSE_BLOCKFMT 0x200u /* LINX_CAUSE(LINX_EC_BLOCKFMT, 0) */

typedef struct Run {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    int excp;
    char *log;
    size_t loglen;
    FILE *logf;
} Run;

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

typedef struct RunOpts {
    unsigned log_mask;
    size_t max_tb_memory;
    bool noop_rule;   /* env->tma_empty_header_noop */
    bool no_tiles;
} RunOpts;

static uint8_t src_byte(size_t i)
{
    return (uint8_t)(i * 131 + 7 + (i >> 8));
}

/* Assemble @prog at CODE_BASE, set up memory (SRC pattern, DST
 * sentinels) and run it until it stops. */
static void run(Run *r, const char *prog, unsigned mode, const RunOpts *o)
{
    static const RunOpts none;
    LinxAsOptions ao;
    LinxAs *as;
    uint8_t *img = NULL, *buf;
    size_t img_len = 0;
    LinxExecOptions eo;
    char err[256];

    o = o ? o : &none;
    memset(r, 0, sizeof(*r));
    linx_as_default_options(&ao);
    ao.base = CODE_BASE;
    ao.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&ao);
    linx_as_add_source(as, "prog.s", prog, strlen(prog));
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &img_len)) {
        fail_msg("assembly failed:\n%s\n%s", linx_as_diagnostics(as), prog);
    }
    linx_as_free(as);

    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_non_null(r->gm);
    assert_true(guest_mem_map(r->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(r->gm, DATA_BASE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_int_equal(guest_mem_write(r->gm, CODE_BASE, img, img_len, NULL), GM_OK);
    free(img);
    buf = malloc(AREA);
    assert_non_null(buf);
    for (size_t i = 0; i < AREA; i++) {
        buf[i] = src_byte(i);
    }
    assert_int_equal(guest_mem_write(r->gm, SRC, buf, AREA, NULL), GM_OK);
    memset(buf, SENTINEL, AREA);
    assert_int_equal(guest_mem_write(r->gm, DST, buf, AREA, NULL), GM_OK);
    free(buf);

    linx_exec_options_init(&eo);
    eo.accel = modes[mode].accel;
    eo.one_insn_per_tb = modes[mode].one_insn;
    eo.trace_commit_path = NULL;
    eo.max_tb_memory = o->max_tb_memory;
    eo.log_mask = o->log_mask;
    if (o->log_mask) {
        r->logf = open_memstream(&r->log, &r->loglen);
        assert_non_null(r->logf);
        eo.log_file = r->logf;
    }
    r->ec = linx_exec_new(&eo, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(*r->env));
    assert_non_null(r->env);
    r->env->engine.mem = r->gm;
    r->env->tiles = o->no_tiles ? NULL : linx_tile_state_new();
    r->env->tma_empty_header_noop = o->noop_rule;
    linx_cpu_reset(r->env, CODE_BASE, 0);
    linx_exec_attach_cpu(r->ec, r->env);
    r->excp = cpu_exec(r->env);
    if (r->logf) {
        fflush(r->logf);
    }
}

static void run_end(Run *r)
{
    linx_exec_free(r->ec);
    if (r->env->tiles) {
        linx_tile_state_free(r->env->tiles);
    }
    free(r->env);
    guest_mem_free(r->gm);
    if (r->logf) {
        fclose(r->logf);
        free(r->log);
    }
}

static void expect_ebreak(Run *r, unsigned mode)
{
    if (r->excp != EXCP_TRAP || TRAPNUM(r->env) != LINX_TRAP_SW_BREAKPOINT) {
        linx_tile_fault_report(stderr, r->env);
        fail_msg("%s: stopped with %d, trap %u cause 0x%x traparg0 0x%llx at pc 0x%llx",
                 modes[mode].name, r->excp, TRAPNUM(r->env), TRAPCAUSE(r->env),
                 (unsigned long long)r->env->traparg0, (unsigned long long)r->env->trap_pc);
    }
}

static void expect_trap(Run *r, unsigned trapnum, unsigned cause, uint64_t traparg0)
{
    assert_int_equal(r->excp, EXCP_TRAP);
    assert_int_equal(TRAPNUM(r->env), trapnum);
    assert_int_equal(TRAPCAUSE(r->env), cause);
    assert_int_equal(r->env->traparg0, traparg0);
}

static void gm_read(Run *r, uint64_t addr, void *buf, size_t len)
{
    assert_int_equal(guest_mem_read(r->gm, addr, buf, len, GM_PROT_READ, NULL), GM_OK);
}

static uint64_t load_elem(const uint8_t *p, unsigned esize)
{
    uint64_t v = 0;

    memcpy(&v, p, esize);
    return v;
}

static const char prologue[] =
    "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n"
    "    hl.lis 0x100800, ->s0\n"   /* SRC */
    "    hl.lis 0x120800, ->s1\n";  /* DST */
static const char epilogue[] = "    C.BSTART.STD FALL\n    ebreak 0\n";

/* ------------------------------------------------------------------ */
/* Round trips through every layout, both header styles                */
/* ------------------------------------------------------------------ */

typedef struct DType {
    const char *name;
    unsigned esize;
} DType;

static const DType dtypes[] = { { "FP64", 8 }, { "FP32", 4 }, { "FP16", 2 }, { "INT8", 1 } };
static const char *const load_names[] = { "NORM", "ND2NZ", "ND2ZN", "DN2NZ", "DN2ZN" };
static const char *const store_names[] = { "NORM", "NZ2ND", "ZN2ND", "NZ2DN", "ZN2DN" };
static const uint8_t tile_layouts[] = { LINX_TL_ND, LINX_TL_NZ, LINX_TL_ZN, LINX_TL_NZ,
                                        LINX_TL_ZN };

enum { VR = 13, VC = 21, COL = 32, SPITCH = 40, DPITCH = 48 };

/* TLOAD the VR x VC window (GM pitch SPITCH elements) into t#1, TSTORE it
 * back at DST (pitch DPITCH).  @seed: seed 000's template syntax (B.DATR,
 * [base, stride], pad Zero); else v0.4 (B.ARG, B.IOR [stride, base],
 * B.IOTI). */
static void round_trip_prog(char *p, size_t n, const DType *dt, unsigned lay, bool seed)
{
    bool dn = lay >= 3;
    unsigned lb0 = dn ? VR : VC, lb1 = dn ? VC : VR;
    int len = snprintf(p, n, "%s    hl.lis %u, ->s2\n    hl.lis %u, ->s3\n", prologue,
                       SPITCH * dt->esize, DPITCH * dt->esize);

    if (seed) {
        len += snprintf(p + len, n - (size_t)len,
                        "    TLOAD.%s <LB0:%u, LB1:%u, LB2:%u, %s, Zero>, [s0, s2], ->T<4KB>\n"
                        "    TSTORE.%s <LB0:%u, LB1:%u, LB2:%u, %s>, T#1, [s1, s3]\n",
                        load_names[lay], lb0, lb1, COL, dt->name, store_names[lay], lb0, lb1,
                        COL, dt->name);
    } else {
        len += snprintf(p + len, n - (size_t)len,
                        "    BSTART.TMA TLOAD, %s\n    B.ARG %s\n    C.B.DIMI %u, ->lb0\n"
                        "    B.DIM zero, %u, ->lb1\n    C.B.DIMI %u, ->lb2\n"
                        "    B.IOR [s2, s0],[]\n    B.IOTI [], last ->t<4KB>\n"
                        "    BSTART.TMA TSTORE, %s\n    B.ARG %s\n    C.B.DIMI %u, ->lb0\n"
                        "    C.B.DIMI %u, ->lb1\n    C.B.DIMI %u, ->lb2\n"
                        "    B.IOR [s3, s1],[]\n    B.IOTI [t#1], last ->t<4KB>\n",
                        dt->name, load_names[lay], lb0, lb1, COL, dt->name, load_names[lay],
                        lb0, lb1, COL);
    }
    snprintf(p + len, n - (size_t)len, "%s", epilogue);
}

/* GM byte offset of element (r, c) of the window for layout @lay. */
static size_t gm_off(unsigned lay, unsigned r, unsigned c, unsigned pitch, unsigned esize)
{
    return lay >= 3 ? ((size_t)c * pitch + r) * esize : ((size_t)r * pitch + c) * esize;
}

static void check_round_trip(Run *r, const DType *dt, unsigned lay, bool seed)
{
    static uint8_t src[AREA], dst[AREA];
    const LinxTileSlot *t = linx_tile_get(r->env->tiles, 0);
    unsigned es = dt->esize;
    unsigned rows = LINX_TILE_MAX_BYTES / (COL * es);

    gm_read(r, SRC, src, sizeof(src));
    gm_read(r, DST, dst, sizeof(dst));
    assert_int_equal(t->meta.bytes, LINX_TILE_MAX_BYTES);
    assert_int_equal(t->meta.layout, tile_layouts[lay]);
    assert_int_equal(t->meta.rows, rows);
    assert_int_equal(t->meta.cols, COL);
    for (unsigned i = 0; i < rows; i++) {
        for (unsigned j = 0; j < COL; j++) {
            size_t to = linx_tile_elem_offset(t->meta.layout, i, j, rows, COL, es) * es;
            if (i < VR && j < VC) {
                assert_int_equal(load_elem(t->data + to, es),
                                 load_elem(src + gm_off(lay, i, j, SPITCH, es), es));
            } else if (seed) {
                assert_int_equal(load_elem(t->data + to, es), 0); /* pad Zero */
            }
        }
    }
    /* The window came back, nothing else in DST changed. */
    for (size_t k = 0; k < (size_t)(lay >= 3 ? VC : VR) * DPITCH * es; k++) {
        size_t line = k / (DPITCH * es), in = k % (DPITCH * es);
        size_t width = (size_t)(lay >= 3 ? VR : VC) * es;
        size_t so = line * SPITCH * es + in;

        assert_int_equal(dst[k], in < width ? src[so] : SENTINEL);
    }
    assert_int_equal(dst[(size_t)(lay >= 3 ? VC : VR) * DPITCH * es], SENTINEL);
}

static void test_round_trips(void **state)
{
    static char prog[PROG_MAX];

    (void)state;
    for (unsigned d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++) {
        for (unsigned lay = 0; lay < 5; lay++) {
            for (unsigned seed = 0; seed < 2; seed++) {
                round_trip_prog(prog, sizeof(prog), &dtypes[d], lay, seed);
                for (unsigned m = 0; m < NMODES; m++) {
                    Run r;

                    run(&r, prog, m, NULL);
                    expect_ebreak(&r, m);
                    check_round_trip(&r, &dtypes[d], lay, seed);
                    run_end(&r);
                }
            }
        }
    }
}

/* The reference kernels (LINX_TMA_REFERENCE=1, chosen at translation)
 * give the same bytes. */
static void test_reference_kernels(void **state)
{
    static char prog[PROG_MAX];
    RunOpts o = { .log_mask = LINX_LOG_TILE };
    Run r;

    (void)state;
    setenv("LINX_TMA_REFERENCE", "1", 1);
    for (unsigned lay = 0; lay < 5; lay++) {
        round_trip_prog(prog, sizeof(prog), &dtypes[2], lay, false);
        run(&r, prog, 1, &o);
        expect_ebreak(&r, 1);
        check_round_trip(&r, &dtypes[2], lay, false);
        assert_non_null(strstr(r.log, "kernel reference-load"));
        assert_non_null(strstr(r.log, "kernel reference-store"));
        run_end(&r);
    }
    unsetenv("LINX_TMA_REFERENCE");
}

/* ------------------------------------------------------------------ */
/* Seed 000's assembly examples, with concrete registers               */
/* ------------------------------------------------------------------ */

static void test_seed_example_norm(void **state)
{
    static char prog[PROG_MAX];
    static uint8_t src[AREA], dst[AREA];

    (void)state;
    /* t#1: 8 x 128 FP32 from dense SRC; then the seed's line with
     * a0 = 8 (ValidRow), a1 = 118 (Col = a1 + 10 = 128), a2 = DST. */
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.NORM <LB0:128, LB1:8, LB2:128, FP32>, [s0], ->T<4KB>\n"
             "    C.BSTART.STD FALL\n    hl.lis 8, ->a0\n    hl.lis 118, ->a1\n"
             "    c.movr s1, ->a2\n"
             "    TSTORE.NORM <LB0:100, LB1:a0, LB2:a1+10, FP32>, T#1, [a2]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        gm_read(&r, DST, dst, sizeof(dst));
        for (unsigned i = 0; i < 8; i++) {
            assert_memory_equal(dst + i * 400, src + i * 512, 400);
        }
        assert_int_equal(dst[3200], SENTINEL);
        run_end(&r);
    }
}

static void test_seed_example_nz2nd(void **state)
{
    static char prog[PROG_MAX];
    static uint8_t src[AREA], dst[AREA];
    char *rep = NULL;
    size_t replen = 0;
    FILE *f;
    Run r;

    (void)state;
    /* As written (LB0:100): no FP32 NZ tile of 4 KB has Col >= 100 and Row
     * a multiple of 16.  With a1 = 94, Col = 104, Row = 4096 / 416 = 9:
     * nz-row, found at run time (LB1, LB2 are registers). */
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.NORM <LB0:128, LB1:8, LB2:128, FP32>, [s0], ->U<4KB>\n"
             "    C.BSTART.STD FALL\n    hl.lis 4, ->a0\n    hl.lis 94, ->a1\n"
             "    c.movr s1, ->a2\n"
             "tstore:\n    TSTORE.NZ2ND <LB0:100, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        run(&r, prog, m, NULL);
        expect_trap(&r, LINX_TRAP_ILLEGAL_INST, CAUSE_PARAM, PARAM_ARG(TMA_R_NZ_ROW, 9));
        assert_string_equal(linx_tile_fault_rule(r.env), "nz-row");
        gm_read(&r, DST, dst, 64);
        assert_int_equal(dst[0], SENTINEL);
        run_end(&r);
    }
    run(&r, prog, 1, NULL);
    f = open_memstream(&rep, &replen);
    assert_true(linx_tile_fault_report(f, r.env));
    fclose(f);
    assert_non_null(strstr(rep, "illegal tile parameter: nz-row at PC 0x"));
    assert_non_null(strstr(rep, "(BSTART.TMA TSTORE, FP32)"));
    assert_non_null(strstr(rep, "value 9"));
    free(rep);
    run_end(&r);

    /* The same line with LB0 in a3 and values that fit: Col 64, Row 16,
     * a 16 x 13 window at an unaligned stride of 54 bytes. */
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.ND2NZ <LB0:64, LB1:16, LB2:64, FP32>, [s0], ->U<4KB>\n"
             "    C.BSTART.STD FALL\n    hl.lis 16, ->a0\n    hl.lis 54, ->a1\n"
             "    c.movr s1, ->a2\n    hl.lis 13, ->a3\n"
             "    TSTORE.NZ2ND <LB0:a3, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        gm_read(&r, DST, dst, sizeof(dst));
        for (unsigned i = 0; i < 16; i++) {
            assert_memory_equal(dst + i * 54, src + i * 256, 52);
            if (i < 15) {
                assert_int_equal(dst[i * 54 + 52], SENTINEL);
                assert_int_equal(dst[i * 54 + 53], SENTINEL);
            }
        }
        run_end(&r);
    }
}

/* ------------------------------------------------------------------ */
/* Multi-source TSTORE (seed 000): ND merges columns, DN merges rows    */
/* ------------------------------------------------------------------ */

static void test_multi_source(void **state)
{
    static char prog[PROG_MAX];
    static uint8_t src[AREA], dst[AREA];

    (void)state;
    /* ND: three 64 x 16 NZ tiles are columns 0-15, 16-31, 32-47 of a
     * 64 x 48 FP32 matrix (pitch 192 B); stored as one 64 x 48 NZ2ND. */
    snprintf(prog, sizeof(prog),
             "%s    hl.lis 192, ->s2\n"
             "    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s0, s2], ->T<4KB>\n"
             "    C.BSTART.STD FALL\n    addi s0, 64, ->s3\n"
             "    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s3, s2], ->T<4KB>\n"
             "    C.BSTART.STD FALL\n    addi s0, 128, ->s3\n"
             "    TLOAD.ND2NZ <LB0:16, LB1:64, LB2:16, FP32>, [s3, s2], ->T<4KB>\n"
             "    TSTORE.NZ2ND <LB0:48, LB1:64, LB2:48, FP32>, T#3, T#2, T#1, [s1]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        gm_read(&r, DST, dst, sizeof(dst));
        assert_memory_equal(dst, src, 64 * 192);
        assert_int_equal(dst[64 * 192], SENTINEL);
        run_end(&r);
    }
    /* DN: two 32 x 32 NZ tiles are rows 0-31 and 32-63 of a column-major
     * 64 x 32 FP32 matrix (column pitch 256 B); stored as one NZ2DN. */
    snprintf(prog, sizeof(prog),
             "%s    hl.lis 256, ->s2\n"
             "    TLOAD.DN2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s0, s2], ->T<4KB>\n"
             "    C.BSTART.STD FALL\n    addi s0, 128, ->s3\n"
             "    TLOAD.DN2NZ <LB0:32, LB1:32, LB2:32, FP32>, [s3, s2], ->T<4KB>\n"
             "    TSTORE.NZ2DN <LB0:64, LB1:32, LB2:32, FP32>, T#2, T#1, [s1]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        gm_read(&r, DST, dst, sizeof(dst));
        assert_memory_equal(dst, src, 32 * 256);
        assert_int_equal(dst[32 * 256], SENTINEL);
        run_end(&r);
    }
}

/* ------------------------------------------------------------------ */
/* B.DIM forms, B.IOR orders, B.IOT sizes, B.IOD                       */
/* ------------------------------------------------------------------ */

/* A 16 x 16 FP32 NORM TLOAD + TSTORE (GM pitch 64 B both ways) whose
 * three B.DIMs are @dims (a0 = 16, a1 = 6 are set). */
static void dims_prog(char *p, size_t n, const char *dims)
{
    snprintf(p, n,
             "%s    hl.lis 16, ->a0\n    hl.lis 6, ->a1\n"
             "    BSTART.TMA TLOAD, FP32\n    B.ARG NORM\n%s    B.IOR [s0],[]\n"
             "    B.IOTI [], last ->t<1KB>\n"
             "    BSTART.TMA TSTORE, FP32\n    B.ARG NORM\n%s    B.IOR [s1],[]\n"
             "    B.IOTI [t#1], last ->t<1KB>\n%s",
             prologue, dims, dims, epilogue);
}

static void test_dim_forms(void **state)
{
    static const char *const forms[] = {
        "    B.DIM zero, 16, ->lb0\n    B.DIM zero, 16, ->lb1\n    B.DIM zero, 16, ->lb2\n",
        "    B.DIM a0, 0, ->lb0\n    B.DIM a0, 0, ->lb1\n    B.DIM a0, 0, ->lb2\n",
        "    B.DIM a1, 10, ->lb0\n    B.DIM a1, 10, ->lb1\n    B.DIM a1, 10, ->lb2\n",
        "    C.B.DIM a0, ->lb0\n    C.B.DIMI 16, ->lb1\n    B.DIM a1, 10, ->lb2\n",
        "    C.B.DIMI 16, ->lb0\n    C.B.DIMI 16, ->lb1\n", /* Col defaults to LB0 */
    };
    static char prog[PROG_MAX];
    static uint8_t src[AREA], dst[AREA];

    (void)state;
    for (unsigned k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
        dims_prog(prog, sizeof(prog), forms[k]);
        for (unsigned m = 0; m < NMODES; m++) {
            Run r;

            run(&r, prog, m, NULL);
            expect_ebreak(&r, m);
            gm_read(&r, SRC, src, sizeof(src));
            gm_read(&r, DST, dst, sizeof(dst));
            assert_memory_equal(dst, src, 16 * 64);
            assert_int_equal(dst[16 * 64], SENTINEL);
            assert_int_equal(linx_tile_get(r.env->tiles, 0)->meta.bytes, 1024);
            run_end(&r);
        }
    }
    /* A register value breaking a rule: ValidCol 40 > Col 16, at run time. */
    dims_prog(prog, sizeof(prog),
              "    B.DIM a1, 34, ->lb0\n    C.B.DIMI 16, ->lb1\n    C.B.DIMI 16, ->lb2\n");
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, NULL);
        expect_trap(&r, LINX_TRAP_ILLEGAL_INST, CAUSE_PARAM,
                    PARAM_ARG(TMA_R_VALIDCOL_GT_COL, 40));
        assert_string_equal(linx_tile_fault_rule(r.env), "validcol-gt-col");
        run_end(&r);
    }
}

static void test_bior_orders(void **state)
{
    static char prog[PROG_MAX];
    static uint8_t src[AREA], dst[AREA];

    (void)state;
    /* v0.4 B.ARG header: [stride, base]; a single register is the base. */
    snprintf(prog, sizeof(prog),
             "%s    hl.lis 100, ->s2\n"
             "    BSTART.TMA TLOAD, INT16\n    B.ARG NORM\n    C.B.DIMI 40, ->lb0\n"
             "    C.B.DIMI 12, ->lb1\n    C.B.DIMI 40, ->lb2\n    B.IOR [s2, s0],[]\n"
             "    B.IOTI [], last ->u<1KB>\n"
             "    BSTART.TMA TSTORE, INT16\n    B.ARG NORM\n    C.B.DIMI 40, ->lb0\n"
             "    C.B.DIMI 12, ->lb1\n    C.B.DIMI 40, ->lb2\n    B.IOR [s1],[]\n"
             "    B.IOTI [u#1], last ->t<1KB>\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        gm_read(&r, DST, dst, sizeof(dst));
        for (unsigned i = 0; i < 12; i++) {
            assert_memory_equal(dst + i * 80, src + i * 100, 80);
        }
        assert_int_equal(dst[12 * 80], SENTINEL);
        run_end(&r);
    }
}

static void test_biot_sizes(void **state)
{
    static char prog[PROG_MAX];
    static const struct {
        unsigned size;
        unsigned trapnum, cause;
        uint64_t traparg0;
        const char *rule;
    } cases[] = {
        { 2048, 0, 0, 0, NULL },
        { 8192, LINX_TRAP_BLOCK, CAUSE_BLOCKFMT, 0x105, "bad-tile-size" },
        { 4096, LINX_TRAP_ILLEGAL_INST, CAUSE_PARAM, PARAM_ARG(TMA_R_TILE_SIZE, 2048),
          "tile-size-mismatch" },
    };

    (void)state;
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        /* TLOAD a 2 KB tile (B.IOTI), TSTORE it with a B.IOT size in a0. */
        snprintf(prog, sizeof(prog),
                 "%s    hl.lis %u, ->a0\n"
                 "    BSTART.TMA TLOAD, FP32\n    B.ARG NORM\n    C.B.DIMI 32, ->lb0\n"
                 "    C.B.DIMI 16, ->lb1\n    B.IOR [s0],[]\n    B.IOTI [], last ->t<2KB>\n"
                 "    BSTART.TMA TSTORE, FP32\n    B.ARG NORM\n    C.B.DIMI 32, ->lb0\n"
                 "    C.B.DIMI 16, ->lb1\n    B.IOR [s1],[]\n    B.IOT [t#1], last ->t<a0>\n%s",
                 prologue, cases[k].size, epilogue);
        for (unsigned m = 0; m < NMODES; m++) {
            Run r;

            run(&r, prog, m, NULL);
            if (!cases[k].rule) {
                uint8_t src[2048], dst[2048 + 1];

                expect_ebreak(&r, m);
                gm_read(&r, SRC, src, sizeof(src));
                gm_read(&r, DST, dst, sizeof(dst));
                assert_memory_equal(dst, src, sizeof(src));
                assert_int_equal(dst[2048], SENTINEL);
            } else {
                expect_trap(&r, cases[k].trapnum, cases[k].cause, cases[k].traparg0);
                assert_string_equal(linx_tile_fault_rule(r.env), cases[k].rule);
            }
            run_end(&r);
        }
    }
}

static void test_biod(void **state)
{
    static char prog[PROG_MAX];
    static const struct {
        const char *iod;
        bool ok;
    } cases[] = {
        { "    B.IOD 1, 2, 3, ->4\n", true },
        { "    B.IOD 0, 0, 0, ->7\n", true },
        { "    B.IOD 1, 1, 0, ->4\n", false },               /* repeated tag */
        { "    B.IOD 1, 2, 0, ->2\n", false },               /* depends on itself */
        { "    B.IOD 1, 0, 0, ->4\n    B.IOD 2, 0, 0, ->5\n", false }, /* two */
    };

    (void)state;
    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        snprintf(prog, sizeof(prog),
                 "%s    BSTART.TMA TLOAD, FP32\n    B.ARG NORM\n    C.B.DIMI 32, ->lb0\n"
                 "%s    B.IOR [s0],[]\n    B.IOTI [], last ->t<512B>\n%s",
                 prologue, cases[k].iod, epilogue);
        for (unsigned m = 0; m < NMODES; m++) {
            Run r;

            run(&r, prog, m, NULL);
            if (cases[k].ok) {
                expect_ebreak(&r, m);
                assert_int_equal(linx_tile_get(r.env->tiles, 0)->meta.bytes, 512);
            } else {
                expect_trap(&r, LINX_TRAP_BLOCK, CAUSE_BLOCKFMT, 0x100);
                assert_string_equal(linx_tile_fault_rule(r.env), "bad-biod");
            }
            run_end(&r);
        }
    }
}

/* ------------------------------------------------------------------ */
/* TMOV, and the B.ARG code question                                   */
/* ------------------------------------------------------------------ */

static void test_tmov(void **state)
{
    static char prog[PROG_MAX];
    static uint8_t src[AREA];

    (void)state;
    /* t#1 = 32 x 32 FP32 ND; u#1 = TMOV V2V of it; m#1 = TMOV ND2NZ. */
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>\n"
             "    BSTART.TMOV FP32\n    B.IOTI [t#1], last ->u<4KB>\n"
             "    BSTART.TMOV FP32\n    B.ARG ND2NZ\n    C.B.DIMI 32, ->lb0\n"
             "    C.B.DIMI 32, ->lb1\n    C.B.DIMI 32, ->lb2\n    B.IOTI [t#1], last ->m<4KB>\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;
        const LinxTileSlot *u, *mm;

        run(&r, prog, m, NULL);
        expect_ebreak(&r, m);
        gm_read(&r, SRC, src, sizeof(src));
        u = linx_tile_get(r.env->tiles, linx_tile_id(LINX_HAND_U, 1));
        mm = linx_tile_get(r.env->tiles, linx_tile_id(LINX_HAND_M, 1));
        assert_memory_equal(u->data, src, 4096);
        assert_int_equal(mm->meta.layout, LINX_TL_NZ);
        for (unsigned i = 0; i < 32; i++) {
            for (unsigned j = 0; j < 32; j++) {
                size_t off = linx_tile_elem_offset(LINX_TL_NZ, i, j, 32, 32, 4) * 4;
                assert_memory_equal(mm->data + off, src + (i * 32 + j) * 4, 4);
            }
        }
        run_end(&r);
    }
}

/* B.ARG format 1 (the digest, AVS) and 2 (LinxISA LLVM's printer) both
 * mean ND2NZ in TLOAD/TSTORE; in a TMOV header 2 stays A2V. */
static void test_barg_nd2nz_codes(void **state)
{
    static char prog[PROG_MAX];

    (void)state;
    for (unsigned code = 1; code <= 2; code++) {
        snprintf(prog, sizeof(prog),
                 "%s    BSTART.TMA TLOAD, FP32\n    B.ARG %u\n    C.B.DIMI 32, ->lb0\n"
                 "    C.B.DIMI 32, ->lb1\n    B.IOR [s0],[]\n    B.IOTI [], last ->t<4KB>\n%s",
                 prologue, code, epilogue);
        Run r;

        run(&r, prog, 1, NULL);
        expect_ebreak(&r, 1);
        assert_int_equal(linx_tile_get(r.env->tiles, 0)->meta.layout, LINX_TL_NZ);
        run_end(&r);
    }
    snprintf(prog, sizeof(prog), "%s    BSTART.TMOV FP32\n    B.ARG 2\n"
                                 "    B.IOTI [], last ->t<4KB>\n%s", prologue, epilogue);
    Run r;
    run(&r, prog, 1, NULL);
    expect_trap(&r, LINX_TRAP_ILLEGAL_INST, CAUSE_PARAM, PARAM_ARG(TMA_R_ACC_EMPTY, 0));
    run_end(&r);
}

/* ------------------------------------------------------------------ */
/* Faults: at translation time, at run time, reports                   */
/* ------------------------------------------------------------------ */

static void test_constant_illegal(void **state)
{
    static char prog[PROG_MAX];
    RunOpts o = { .log_mask = LINX_LOG_TILE };
    uint8_t dst[64];

    (void)state;
    /* Every input is a constant: the TB itself is the raise. */
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>\n"
             "hdr:\n    BSTART.TMA TSTORE, FP32\n    B.ARG NORM\n    C.B.DIMI 40, ->lb0\n"
             "    C.B.DIMI 4, ->lb1\n    C.B.DIMI 32, ->lb2\n    B.IOR [s1],[]\n"
             "    B.IOTI [t#1], last ->t<4KB>\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, &o);
        expect_trap(&r, LINX_TRAP_ILLEGAL_INST, CAUSE_PARAM,
                    PARAM_ARG(TMA_R_VALIDCOL_GT_COL, 40));
        assert_int_equal(r.env->trap_pc, r.env->tile_fault.pc);
        assert_non_null(strstr(r.log, "constant-illegal (validcol-gt-col)"));
        /* Nothing moved: the TB raised before any helper ran. */
        assert_null(strstr(r.log, "TSTORE source"));
        gm_read(&r, DST, dst, sizeof(dst));
        assert_int_equal(dst[0], SENTINEL);
        run_end(&r);
    }
}

static void test_report(void **state)
{
    static char prog[PROG_MAX];
    char *rep = NULL;
    size_t len = 0;
    FILE *f;
    Run r;

    (void)state;
    /* A TLOAD without B.ARG: E_BLOCK, family B.ARG, missing. */
    snprintf(prog, sizeof(prog),
             "%s    BSTART.TMA TLOAD, INT32\n    C.B.DIMI 32, ->lb0\n    B.IOR [s0],[]\n"
             "    B.IOTI [], last ->t<4KB>\n%s", prologue, epilogue);
    run(&r, prog, 1, NULL);
    expect_trap(&r, LINX_TRAP_BLOCK, CAUSE_BLOCKFMT, 0x3);
    f = open_memstream(&rep, &len);
    assert_true(linx_tile_fault_report(f, r.env));
    fclose(f);
    assert_non_null(strstr(rep, "illegal tile parameter: missing-barg at PC 0x1000e "
                                "(BSTART.TMA TLOAD, INT32)\n"));
    assert_non_null(strstr(rep, "without B.ARG"));
    free(rep);
    /* Another trap afterwards is not reported as a tile rule. */
    r.env->trap_pc += 2;
    assert_null(linx_tile_fault_rule(r.env));
    f = open_memstream(&rep, &len);
    assert_false(linx_tile_fault_report(f, r.env));
    fclose(f);
    assert_int_equal(len, 0);
    free(rep);
    run_end(&r);
}

/* TEPL and CUBE rules are reported like TMA rules: a reserved TEPL opcode
 * decided at translation time (TRAPARG0 = the BPC), a TEPL value rule and
 * a CUBE rule raised by the engines at run time; every mode records the
 * rule in env->tile_fault. */
static void test_report_tepl_cube(void **state)
{
    static char prog[PROG_MAX];
    static const struct {
        const char *header, *rest;
        unsigned cause;
        uint64_t traparg0; /* 0: the BPC */
        unsigned rule;
        const char *line, *text;
    } cases[] = {
        { "BSTART.TEPL TCVT, INT32", "    C.B.DIMI 32, ->lb0\n    B.IOTI [t#1], last ->u<4KB>\n",
          LINX_CAUSE(LINX_EC_ILLEGAL, 0), 0, 0x70,
          "illegal tile parameter: tepl-bad-op at PC 0x1000e (BSTART.TEPL TCVT, INT32)\n",
          "  reserved or unimplemented TEPL opcode; trap 4, TRAPARG0 0x1000e\n" },
        { "BSTART.TEPL TADD, INT32",
          "    C.B.DIMI 32, ->lb0\n    B.IOTI [u#2, u#1], last ->t<4KB>\n", CAUSE_PARAM,
          PARAM_ARG(0x75, 9), 0x75,
          "illegal tile parameter: tepl-tile-empty at PC 0x1000e (BSTART.TEPL TADD, INT32)\n",
          "  source tile was never written (value 9); trap 4, TRAPARG0 0x900000075\n" },
        { "BSTART.CUBE ACCCVT, INT32",
          "    C.B.DIMI 16, ->lb0\n    C.B.DIMI 16, ->lb1\n    C.B.DIMI 32, ->lb2\n"
          "    B.ARG NORM\n    B.IOR [zero, zero, x0],[]\n    B.IOTI [], last ->n<1KB>\n",
          CAUSE_PARAM, PARAM_ARG(0x67, 0), 0x67,
          "illegal tile parameter: cube-acc-chain at PC 0x1000e (BSTART.CUBE ACCCVT, INT32)\n",
          "  TMATMUL.ACC or ACCCVT without a matching ACC (same m x n, type and layout) (value 0); trap 4, TRAPARG0 "
          "0x67\n" },
    };

    (void)state;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        snprintf(prog, sizeof(prog), "%s    %s\n%s%s", prologue, cases[c].header, cases[c].rest,
                 epilogue);
        for (unsigned m = 0; m < NMODES; m++) {
            char *rep = NULL;
            size_t len = 0;
            FILE *f;
            Run r;

            run(&r, prog, m, NULL);
            expect_trap(&r, LINX_TRAP_ILLEGAL_INST, cases[c].cause,
                        cases[c].traparg0 ? cases[c].traparg0 : r.env->trap_pc);
            assert_int_equal(r.env->trap_pc, 0x1000e);
            assert_int_equal(r.env->tile_fault.rule, cases[c].rule);
            assert_int_equal(r.env->tile_fault.pc, r.env->trap_pc);
            f = open_memstream(&rep, &len);
            assert_true(linx_tile_fault_report(f, r.env));
            fclose(f);
            assert_non_null(strstr(rep, cases[c].line));
            assert_non_null(strstr(rep, cases[c].text));
            free(rep);
            run_end(&r);
        }
    }
}

/* A GM fault is a page fault at the faulting address, not a tile rule,
 * and nothing is written. */
static void test_gm_fault(void **state)
{
    static char prog[PROG_MAX];

    (void)state;
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.NORM <LB0:32, LB1:32, LB2:32, FP32>, [s0], ->T<4KB>\n"
             "    C.BSTART.STD FALL\n    hl.lis 0x13f800, ->a2\n"
             "    TSTORE.NORM <LB0:32, LB1:32, LB2:32, FP32>, T#1, [a2]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        static const uint8_t zero[2048];
        uint8_t mapped[2048];
        Run r;

        run(&r, prog, m, NULL);
        expect_trap(&r, LINX_TRAP_DATA_PAGE_FAULT, 0, DATA_BASE + DATA_SIZE);
        assert_null(linx_tile_fault_rule(r.env));
        /* the mapped half of the footprint is untouched (never written) */
        gm_read(&r, DATA_BASE + DATA_SIZE - sizeof(mapped), mapped, sizeof(mapped));
        assert_memory_equal(mapped, zero, sizeof(mapped));
        run_end(&r);
    }
}

static void test_peer_noop_rule(void **state)
{
    static char prog[PROG_MAX];
    RunOpts peer = { .noop_rule = true };

    (void)state;
    /* shared/guest/baremetal/model_tile_descriptor_legality.elf's header. */
    snprintf(prog, sizeof(prog),
             "%s    BSTART.TMA TLOAD, INT32\n    B.TEXT body\n%sbody:\n    C.BSTOP\n",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, &peer);
        expect_ebreak(&r, m);
        run_end(&r);
        run(&r, prog, m, NULL);
        expect_trap(&r, LINX_TRAP_BLOCK, CAUSE_BLOCKFMT, 0x3); /* missing-barg first */
        run_end(&r);
    }
}

static void test_no_tile_unit(void **state)
{
    static char prog[PROG_MAX];
    RunOpts o = { .no_tiles = true };
    Run r;

    (void)state;
    snprintf(prog, sizeof(prog), "%s    TLOAD.NORM <LB0:32, FP32>, [s0], ->T<512B>\n%s",
             prologue, epilogue);
    run(&r, prog, 1, &o);
    expect_trap(&r, LINX_TRAP_ILLEGAL_INST, 0x100, CODE_BASE + 14);
    run_end(&r);
}

/* ------------------------------------------------------------------ */
/* Plan lifetime, -d tile                                              */
/* ------------------------------------------------------------------ */

/* Plans live in the TB arena: with a 1-byte TB memory limit every
 * translation first flushes everything, so blocks are freed and
 * retranslated all the time; and a TSTORE into the page of its own code
 * invalidates the TB that is running it.  Results must stay right (and
 * ASan quiet). */
static void test_plan_lifetime(void **state)
{
    static char prog[PROG_MAX];
    RunOpts tiny = { .max_tb_memory = 1 };
    uint8_t src[512], code[512];

    (void)state;
    snprintf(prog, sizeof(prog),
             "%s    hl.lis 20, ->s2\n    addtpc buf, ->s3\n    addi s3, buf, ->s3\n"
             "loop:\n"
             "    TLOAD.NORM <LB0:128, FP32>, [s0], ->T<512B>\n"
             "    BSTART.TMA TSTORE, FP32\n    B.ARG NORM\n    C.B.DIMI 128, ->lb0\n"
             "    B.IOR [s3],[]\n    B.IOTI [t#1], last ->t<512B>\n"
             "    C.BSTART COND, loop\n    subi s2, 1, ->s2\n    setc.nei s2, 0\n%s"
             "    .p2align 6\nbuf:\n    .zero 512\n",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        for (unsigned limit = 0; limit < 2; limit++) {
            Run r;
            uint64_t buf = 0;
            LinxExecStats st;

            run(&r, prog, m, limit ? &tiny : NULL);
            expect_ebreak(&r, m);
            gm_read(&r, SRC, src, sizeof(src));
            /* buf is the last 64-byte-aligned 512 bytes of the image */
            for (uint64_t a = CODE_BASE; a < CODE_BASE + 0x1000; a += 64) {
                if (guest_mem_read(r.gm, a, code, sizeof(code), GM_PROT_READ, NULL) == GM_OK &&
                    memcmp(code, src, sizeof(src)) == 0) {
                    buf = a;
                    break;
                }
            }
            assert_int_not_equal(buf, 0);
            assert_int_equal(r.env->gpr[13], 0); /* s2: all iterations ran */
            linx_exec_get_stats(r.ec, &st);
            assert_true(st.invalidations > 0);
            if (limit) {
                assert_true(st.flushes > 20);
            }
            run_end(&r);
        }
    }
}

static void test_log_tile(void **state)
{
    static char prog[PROG_MAX];
    RunOpts o = { .log_mask = LINX_LOG_TILE };

    (void)state;
    snprintf(prog, sizeof(prog),
             "%s    TLOAD.ND2NZ <LB0:8, LB1:16, LB2:8, FP32>, [s0], ->U<512B>\n"
             "    TSTORE.NZ2ND <LB0:8, LB1:16, LB2:8, FP32>, U#1, [s1]\n%s",
             prologue, epilogue);
    for (unsigned m = 0; m < NMODES; m++) {
        Run r;

        run(&r, prog, m, &o);
        expect_ebreak(&r, m);
        assert_non_null(strstr(r.log, "tile: translate TLOAD at pc 0x1000e: ND2NZ FP32"));
        assert_non_null(strstr(r.log, "tile: TLOAD result of the block at pc 0x1000e:\n"
                                      "u#1 (tile 8): 512 B FP32 NZ 16x8, valid 16x8\n"));
        assert_non_null(strstr(r.log, "tile: TSTORE source of the block at pc"));
        assert_non_null(strstr(r.log, ", size from the source tiles"));
        run_end(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_reference_kernels),
        cmocka_unit_test(test_seed_example_norm),
        cmocka_unit_test(test_seed_example_nz2nd),
        cmocka_unit_test(test_multi_source),
        cmocka_unit_test(test_dim_forms),
        cmocka_unit_test(test_bior_orders),
        cmocka_unit_test(test_biot_sizes),
        cmocka_unit_test(test_biod),
        cmocka_unit_test(test_tmov),
        cmocka_unit_test(test_barg_nd2nz_codes),
        cmocka_unit_test(test_constant_illegal),
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_report_tepl_cube),
        cmocka_unit_test(test_gm_fault),
        cmocka_unit_test(test_peer_noop_rule),
        cmocka_unit_test(test_no_tile_unit),
        cmocka_unit_test(test_plan_lifetime),
        cmocka_unit_test(test_log_tile),
    };

    /* The kernel choice must not depend on the caller's environment. */
    unsetenv("LINX_TMA_REFERENCE");
    unsetenv("LINX_TMA_PORTABLE");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
