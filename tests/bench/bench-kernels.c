/*
 * Kernel benchmark: MPAR/MSEQ kernels, TEPL tile ops and CUBE matrix
 * blocks written in LinxISA assembly, run in the emulator, against native
 * C doing the same work in the same run (ratios, never absolute
 * thresholds; docs/kernels.md "Performance").
 *
 *   mpar vadd i32         c[i] = a[i] + b[i], 4096 lanes (one per element)
 *   mpar saxpy f32 4K/64K/1M    z[i] = s * x[i] + y[i] (v.fmul, v.fadd)
 *   mpar saxpy-in f32 64K/1M    y[i] = s * x[i] + y[i], in place
 *   mseq softmax f32 64x1024 / 1x65536
 *                         row-wise softmax, the optest suite's body: a
 *                         group (LB1) per row, V.RDFMAX, V.FEXP, V.RDFADD
 *   mseq rdadd i32 64K    the sum of 65536 int32 (V.RDADD) to memory
 *   mpar gather i32 64K   z[i] = t[idx[i]] (a register-index load)
 *   tepl tadd f32 32x32   TADD of two 32 x 32 FP32 tiles (1024 elements)
 *   tepl tadd i8 64x64    TADD of two 64 x 64 INT8 tiles (4096 elements)
 *   cube f32 / i8         CUBE of two 32 x 32 tiles (32768 multiply-adds)
 *
 * Variants: native (the same work in C, bench-kernels-native.c, built at
 * -O2: GCC's auto-vectorisation for the baseline x86-64 target), jit, interp
 * (the IR interpreter, whose kernels run in the vector mode's C loops),
 * and where they exist nosimd (the JIT with LINX_KERNEL_NOSIMD=1: kernels
 * without the host-SIMD mode), scalar (the vadd as a loop of ordinary
 * blocks under the JIT) and reference (LINX_TEPL_REFERENCE=1 /
 * LINX_CUBE_REFERENCE=1: the per-element reference paths under the JIT).
 * Every guest's output is checked against native C before anything is
 * timed.  Times are thread CPU time, variants interleaved over ROUNDS
 * rounds, median; the figures are ns per element (per multiply-add for
 * CUBE) including dispatch: a guest iteration is one kernel block (UNROLL
 * blocks for TEPL and CUBE) plus one loop block.
 *
 * Usage: bench-kernels [-t seconds-per-variant] [-k case-substring]
 *                      [-v variant,...]   (ninja -C build benchmark)
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-kernels-native.h"
#include "hw/core/guest-memory.h"
#include "hw/linx/tile-regs.h"
#include "linx-as.h"
#include "target/linx/cpu.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA_BASE UINT64_C(0x1000000)
#define DATA_SIZE BK_DATA_SIZE
#define X_OFF BK_X
#define Y_OFF BK_Y
#define Z_OFF BK_Z
#define UNROLL 8
#define ROUNDS 5
#define SRC_MAX 8192

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static _Noreturn void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench-kernels: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

typedef void (*NativeFn)(uint8_t *mem);

typedef enum Kind { K_MPAR, K_TEPL, K_CUBE, K_SCALAR } Kind;
typedef enum Fill { F_INT, F_FP, F_GATHER } Fill;
typedef enum Tol { T_EXACT, T_ULP, T_REL } Tol;

typedef struct CaseDef {
    const char *name;
    Kind kind;
    const char *header;          /* MPAR/MSEQ: the header's descriptors (NULL: the MPAR one) */
    const char *body;            /* MPAR/MSEQ: the body; TEPL/CUBE: one block */
    const char *dtype;           /* TEPL/CUBE: TLOAD element type */
    unsigned rows, cols;         /* TEPL/CUBE: tile shape; MSEQ softmax: LB1, LB0 */
    unsigned lanes;              /* MPAR/MSEQ: LB0 */
    unsigned elems;              /* work items per kernel (per block) */
    unsigned out_off, out_bytes; /* output compared with native */
    Fill fill;
    Tol tol;
    NativeFn native;
    bool scalar;         /* has a scalar-block variant */
    const char *ref_env; /* has a reference variant selected by this */
} CaseDef;

/* The MPAR header: ri0 = x, ri1 = y, ri2 = z, ri3 = 3.0f, LB0 = s4. */
#define HDR_MPAR                                                                                   \
    "    BSTART.MPAR VS16\n    B.TEXT .body\n    B.IOR [s0, s1, s3],[]\n"                          \
    "    B.IOR [s5],[]\n    B.DIM s4, 0, ->lb0\n"
/* MSEQ: ri0 = x, ri1 = z, ri2 = the row pitch; LB0 = s4 columns, LB1 = s6 rows */
#define HDR_MSEQ_ROWS                                                                              \
    "    BSTART.MSEQ VS16\n    B.TEXT .body\n    B.IOR [s0, s3, s7],[]\n"                          \
    "    B.DIM s4, 0, ->lb0\n    B.DIM s6, 0, ->lb1\n"

#define SAXPY_OUT_BODY                                                                             \
    "    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w\n"                                                     \
    "    v.fmul vt#1.fs, ri3.fs, ->vt.w\n"                                                         \
    "    v.lwi.brg [ri1, lc0<<2, 0], ->vt.w\n"                                                     \
    "    v.fadd vt#2.fs, vt#1.fs, ->vt.w\n"                                                        \
    "    v.swi.brg vt#1.uw, [ri2, lc0<<2, 0]\n"
#define SAXPY_IN_BODY                                                                              \
    "    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w\n"                                                     \
    "    v.fmul vt#1.fs, ri3.fs, ->vt.w\n"                                                         \
    "    v.lwi.brg [ri1, lc0<<2, 0], ->vt.w\n"                                                     \
    "    v.fadd vt#2.fs, vt#1.fs, ->vt.w\n"                                                        \
    "    v.swi.brg vt#1.uw, [ri1, lc0<<2, 0]\n"
/* tests/optest/softmax/softmax.s */
#define SOFTMAX_BODY                                                                               \
    "    v.mul lc1.ud, ri2.ud, ->vu.d\n"                                                           \
    "    v.lw.brg [ri0, lc0<<2, vu#1.ud], ->vt.w\n"                                                \
    "    v.rdfmax vt#1.fs, ->t.w\n"                                                                \
    "    v.fsub vt#1.fs, t#1.fs, ->vt.w\n"                                                         \
    "    v.fexp vt#1.fs, ->vt.w\n"                                                                 \
    "    v.rdfadd vt#1.fs, ->t.w\n"                                                                \
    "    v.fdiv vt#1.fs, t#1.fs, ->vt.w\n"                                                         \
    "    v.sw.u.brg vt#1.uw, [ri1, lc0<<2, vu#1.ud]\n"

#define K1M (1u << 20)

static const CaseDef defs[] = {
    { "mpar vadd i32", K_MPAR, NULL,
      "    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w\n"
      "    v.lwi.brg [ri1, lc0<<2, 0], ->vt.w\n"
      "    v.add vt#1.sw, vt#2.sw, ->vt.w\n"
      "    v.swi.brg vt#1.sw, [ri2, lc0<<2, 0]\n",
      NULL, 0, 0, 4096, 4096, Z_OFF, 4096 * 4, F_INT, T_EXACT, bk_vadd_4k, true, NULL },
    { "mpar saxpy f32", K_MPAR, NULL, SAXPY_OUT_BODY, NULL, 0, 0, 4096, 4096, Z_OFF, 4096 * 4, F_FP,
      T_ULP, bk_saxpy_4k, false, NULL },
    { "mpar saxpy f32 64K", K_MPAR, NULL, SAXPY_OUT_BODY, NULL, 0, 0, 65536, 65536, Z_OFF,
      65536 * 4, F_FP, T_ULP, bk_saxpy_64k, false, NULL },
    { "mpar saxpy f32 1M", K_MPAR, NULL, SAXPY_OUT_BODY, NULL, 0, 0, K1M, K1M, Z_OFF, K1M * 4, F_FP,
      T_ULP, bk_saxpy_1m, false, NULL },
    { "mpar saxpy-in f32 64K", K_MPAR, NULL, SAXPY_IN_BODY, NULL, 0, 0, 65536, 65536, Y_OFF,
      65536 * 4, F_FP, T_ULP, bk_saxpy_in_64k, false, NULL },
    { "mpar saxpy-in f32 1M", K_MPAR, NULL, SAXPY_IN_BODY, NULL, 0, 0, K1M, K1M, Y_OFF, K1M * 4,
      F_FP, T_ULP, bk_saxpy_in_1m, false, NULL },
    { "mseq softmax f32 64x1024", K_MPAR, HDR_MSEQ_ROWS, SOFTMAX_BODY, NULL, 64, 1024, 1024, 65536,
      Z_OFF, 65536 * 4, F_FP, T_REL, bk_softmax_64x1024, false, NULL },
    { "mseq softmax f32 1x65536", K_MPAR, HDR_MSEQ_ROWS, SOFTMAX_BODY, NULL, 1, 65536, 65536, 65536,
      Z_OFF, 65536 * 4, F_FP, T_REL, bk_softmax_1x65536, false, NULL },
    { "mseq rdadd i32 64K", K_MPAR, NULL,
      "    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w\n"
      "    v.rdadd vt#1.sw, ->t.d\n"
      "    v.cmp.eqi lc0.ud, 0, ->p\n" /* lane 0 stores the sum */
      "    v.add t#1.sd, zero.sd, ->vt.d\n"
      "    v.sdi.brg vt#1.sd, [ri2, lc0<<3, 0]\n",
      NULL, 0, 0, 65536, 65536, Z_OFF, 8, F_INT, T_EXACT, bk_rdadd_64k, false, NULL },
    { "mpar gather i32 64K", K_MPAR, NULL,
      "    v.lwi.brg [ri0, lc0<<2, 0], ->vt.w\n"
      "    v.lw.brg [ri1, vt#1.uw<<2], ->vt.w\n"
      "    v.swi.brg vt#1.uw, [ri2, lc0<<2, 0]\n",
      NULL, 0, 0, 65536, 65536, Z_OFF, 65536 * 4, F_GATHER, T_EXACT, bk_gather_64k, false, NULL },
    { "tepl tadd f32 32x32", K_TEPL, NULL,
      "    BSTART.TEPL TADD, FP32\n    C.B.DIMI 32, ->lb0\n    C.B.DIMI 32, ->lb1\n"
      "    B.IOTI [t#2, t#1], last ->u<4KB>\n",
      "FP32", 32, 32, 0, 1024, Z_OFF, 4096, F_FP, T_ULP, bk_tadd_f32, false,
      "LINX_TEPL_REFERENCE" },
    { "tepl tadd i8 64x64", K_TEPL, NULL,
      "    BSTART.TEPL TADD, INT8\n    C.B.DIMI 64, ->lb0\n    C.B.DIMI 64, ->lb1\n"
      "    B.IOTI [t#2, t#1], last ->u<4KB>\n",
      "INT8", 64, 64, 0, 4096, Z_OFF, 4096, F_INT, T_EXACT, bk_tadd_i8, false,
      "LINX_TEPL_REFERENCE" },
    { "cube tmatmul f32 32^3", K_CUBE, NULL,
      "    BSTART.CUBE TMATMUL, FP32\n    C.B.DIMI 32, ->lb0\n    C.B.DIMI 32, ->lb1\n"
      "    C.B.DIMI 32, ->lb2\n    B.ARG NORM\n    B.IOTI [t#1, u#1], last\n",
      "FP32", 32, 32, 0, 32768, Z_OFF, 4096, F_FP, T_ULP, bk_mm_f32, false, "LINX_CUBE_REFERENCE" },
    { "cube tmatmul i8 32^3", K_CUBE, NULL,
      "    BSTART.CUBE TMATMUL, INT8\n    C.B.DIMI 32, ->lb0\n    C.B.DIMI 32, ->lb1\n"
      "    C.B.DIMI 32, ->lb2\n    B.ARG NORM\n    B.IOTI [t#1, u#1], last\n",
      "INT8", 32, 32, 0, 32768, Z_OFF, 4096, F_INT, T_EXACT, bk_mm_i8, false,
      "LINX_CUBE_REFERENCE" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

enum { V_NATIVE, V_JIT, V_INTERP, V_NOSIMD, V_SCALAR, V_REF, V__COUNT };
static const char *const vname[V__COUNT] = { "native", "jit",    "interp",
                                             "nosimd", "scalar", "reference" };

typedef struct Guest {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    uint64_t loop;
    uint8_t *host;     /* DATA_BASE, host view */
    unsigned per_iter; /* kernels per loop iteration */
} Guest;

typedef struct Case {
    const CaseDef *d;
    Guest g[V__COUNT]; /* [V_NATIVE] unused */
    bool present[V__COUNT];
    uint8_t *nmem;       /* native copy of the data area */
    long runs[V__COUNT]; /* kernels per timed run */
    double ns[V__COUNT][ROUNDS];
} Case;

static size_t emit(char *src, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static size_t emit(char *src, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(src + len, SRC_MAX - len, fmt, ap);
    va_end(ap);
    if (n < 0 || len + (size_t)n >= SRC_MAX) {
        die("program text too long", NULL);
    }
    return len + (size_t)n;
}

/* The program: _start sets up (and TLOADs the tiles) then breaks; loop:
 * the kernel(s), then a COND block counting s2 down, then a break. */
static size_t program(char *src, const CaseDef *d, bool scalar)
{
    size_t len = 0;
    unsigned per = d->kind == K_MPAR || scalar ? 1 : UNROLL;

    len = emit(src, len,
               "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n"
               "    hl.lis %" PRIu64 ", ->s0\n    hl.lis %" PRIu64 ", ->s1\n"
               "    hl.lis %" PRIu64 ", ->s3\n    hl.lis %u, ->s4\n"
               "    hl.lis 0x40400000, ->s5\n    hl.lis %u, ->s6\n    hl.lis %u, ->s7\n",
               DATA_BASE + X_OFF, DATA_BASE + Y_OFF, DATA_BASE + Z_OFF,
               d->kind == K_MPAR || scalar ? d->lanes : d->elems, d->rows, d->lanes * 4);
    if (d->kind != K_MPAR) {
        /* TEPL: a (t#2) and b (t#1), ND; CUBE: A an NZ tile (t#1), B a ZN
         * tile (u#1). */
        unsigned bytes = d->rows * d->cols * (strcmp(d->dtype, "INT8") ? 4 : 1);

        for (unsigned t = 0; t < 2; t++) {
            bool cube = d->kind == K_CUBE;

            len = emit(src, len,
                       "    BSTART.TMA TLOAD, %s\n    C.B.DIMI %u, ->lb0\n    C.B.DIMI %u, ->lb1\n"
                       "    C.B.DIMI %u, ->lb2\n    B.ARG %s\n    B.IOR [%s],[]\n"
                       "    B.IOTI [], last ->%c<%uB>\n",
                       d->dtype, d->cols, d->rows, d->cols,
                       cube ? (t ? "ND2ZN" : "ND2NZ") : "NORM.normal", t ? "s1" : "s0",
                       cube && t ? 'u' : 't', bytes);
        }
        len = emit(src, len, "    C.BSTART.STD FALL\n");
    }
    len = emit(src, len, "    ebreak 0\nloop:\n");
    if (scalar) {
        /* The vadd as ordinary blocks: one element per iteration. */
        len = emit(src, len,
                   "    C.BSTART.STD FALL\n    c.movr s0, ->a0\n    c.movr s1, ->a1\n"
                   "    c.movr s3, ->a2\n    c.movr s4, ->a5\n"
                   "elem:\n    C.BSTART COND, elem\n    lwi [a0, 0], ->a3\n    lwi [a1, 0], ->a4\n"
                   "    add a3, a4, ->a3\n    swi a3, [a2, 0]\n    addi a0, 4, ->a0\n"
                   "    addi a1, 4, ->a1\n    addi a2, 4, ->a2\n    subi a5, 1, ->a5\n"
                   "    setc.nei a5, 0\n");
    } else if (d->kind == K_MPAR) {
        len = emit(src, len, "%s", d->header ? d->header : HDR_MPAR);
    } else {
        for (unsigned u = 0; u < per; u++) {
            len = emit(src, len, "%s", d->body);
        }
    }
    len = emit(src, len,
               "    C.BSTART COND, loop\n    subi s2, 1, ->s2\n    setc.nei s2, 0\n"
               "    C.BSTART.STD FALL\n    ebreak 0\n");
    if (d->kind == K_MPAR) {
        len = emit(src, len, ".body:\n%s    C.BSTOP\n", d->body);
    }
    return len;
}

static unsigned fill_count(const CaseDef *d)
{
    return d->kind == K_MPAR ? d->elems : 0x5000 / 4;
}

static void fill(uint8_t *m, const CaseDef *d)
{
    for (unsigned i = 0; i < fill_count(d); i++) {
        uint32_t x = i * 2654435761u, y = i * 40503u + 7;

        if (d->fill == F_FP) {
            float fx = (float)(int)(x % 2001) / 64.0f - 15.0f, fy = (float)(int)(y % 999) / 8.0f;

            memcpy(&x, &fx, 4);
            memcpy(&y, &fy, 4);
        } else if (d->fill == F_GATHER) {
            x = (x ^ (x >> 15)) & 0xffff; /* an index into the 64K-entry table */
        }
        memcpy(m + X_OFF + i * 4, &x, 4);
        memcpy(m + Y_OFF + i * 4, &y, 4);
    }
}

static void guest_build(Guest *g, const CaseDef *d, unsigned v)
{
    static char src[SRC_MAX];
    size_t len = program(src, d, v == V_SCALAR);
    LinxAsOptions o;
    LinxAs *as;
    uint8_t *img;
    size_t img_len;
    LinxExecOptions eo;
    char err[256];

    linx_as_default_options(&o);
    o.base = CODE_BASE;
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    linx_as_add_source(as, "bench.s", src, len);
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &img_len) ||
        !linx_as_symbol_value(as, "loop", &g->loop)) {
        fputs(linx_as_diagnostics(as), stderr);
        die("assembly failed", d->name);
    }
    linx_as_free(as);
    g->per_iter = d->kind == K_MPAR || v == V_SCALAR ? 1 : UNROLL;
    g->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    if (!g->gm || !guest_mem_map(g->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false) ||
        !guest_mem_map(g->gm, DATA_BASE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE, false) ||
        guest_mem_write(g->gm, CODE_BASE, img, img_len, NULL) != GM_OK ||
        guest_mem_window(g->gm, DATA_BASE, 1, DATA_SIZE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE,
                         &g->host, NULL) != GM_OK ||
        !g->host) {
        die("guest memory", d->name);
    }
    free(img);
    fill(g->host, d);
    linx_exec_options_init(&eo);
    eo.accel = v == V_INTERP ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT;
    eo.trace_commit_path = NULL;
    g->ec = linx_exec_new(&eo, err, sizeof(err));
    g->env = calloc(1, sizeof(*g->env));
    if (!g->ec || !g->env) {
        die(err, d->name);
    }
    g->env->engine.mem = g->gm;
    g->env->tiles = linx_tile_state_new();
    linx_cpu_reset(g->env, CODE_BASE, 0);
    linx_exec_attach_cpu(g->ec, g->env);
    if (cpu_exec(g->env) != EXCP_TRAP || (g->env->trapno & 0xff) != LINX_TRAP_SW_BREAKPOINT) {
        linx_cpu_dump_state(g->env, stderr);
        die("the set-up did not reach its break", d->name);
    }
}

static void guest_free(Guest *g)
{
    linx_exec_free(g->ec);
    linx_tile_state_free(g->env->tiles);
    free(g->env);
    guest_mem_free(g->gm);
}

static void guest_run(Guest *g, long iters)
{
    CPULinxState *env = g->env;

    env->pc = g->loop;
    env->resume = 0;
    env->gpr[LINX_REG_S0 + 2] = (uint64_t)(iters < 1 ? 1 : iters);
    if (cpu_exec(env) != EXCP_TRAP || (env->trapno & 0xff) != LINX_TRAP_SW_BREAKPOINT) {
        linx_cpu_dump_state(env, stderr);
        die("the guest loop stopped with a trap", NULL);
    }
}

/* The guest's result: the Z area for MPAR, u#1 (TEPL) or ACC (CUBE). */
static const uint8_t *guest_out(Guest *g, const CaseDef *d)
{
    if (d->kind == K_TEPL) {
        return linx_tile_get(g->env->tiles, linx_tile_id(LINX_HAND_U, 1))->data;
    }
    if (d->kind == K_CUBE) {
        return g->env->tiles->acc.data;
    }
    return g->host + d->out_off;
}

static void check(Case *c, unsigned v)
{
    const CaseDef *d = c->d;
    const uint8_t *out = guest_out(&c->g[v], d), *want = c->nmem + d->out_off;

    for (unsigned i = 0; i < d->out_bytes; i += 4) {
        uint32_t a, b;
        float fa, fb;
        bool ok;

        memcpy(&a, out + i, 4);
        memcpy(&b, want + i, 4);
        memcpy(&fa, &a, 4);
        memcpy(&fb, &b, 4);
        switch (d->tol) {
        case T_ULP:
            ok = a == b || (a - b + 1u) <= 2u;
            break;
        /* softmax: the native expf is not correctly rounded */
        case T_REL:
            ok = a == b || fabsf(fa - fb) <= 4e-6f * fabsf(fb);
            break;
        default:
            ok = a == b;
            break;
        }
        if (!ok) {
            fprintf(stderr, "bench-kernels: %s (%s): byte %u: 0x%08x, native 0x%08x\n", d->name,
                    vname[v], i, a, b);
            exit(1);
        }
    }
}

static void case_setup(Case *c, const CaseDef *d, const char *variants)
{
    memset(c, 0, sizeof(*c));
    c->d = d;
    c->nmem = aligned_alloc(4096, DATA_SIZE);
    if (!c->nmem) {
        die("out of memory", NULL);
    }
    memset(c->nmem, 0, DATA_SIZE);
    fill(c->nmem, d);
    d->native(c->nmem);
    c->present[V_NATIVE] = c->present[V_JIT] = c->present[V_INTERP] = true;
    c->present[V_NOSIMD] = d->kind == K_MPAR;
    c->present[V_SCALAR] = d->scalar;
    c->present[V_REF] = d->ref_env != NULL;
    for (unsigned v = V_INTERP; variants && v < V__COUNT; v++) {
        /* -v: only these (native and jit always: the ratios' bases) */
        c->present[v] = c->present[v] && strstr(variants, vname[v]) != NULL;
    }
    for (unsigned v = V_JIT; v < V__COUNT; v++) {
        if (!c->present[v]) {
            continue;
        }
        if (d->ref_env) {
            /* Read when the kernel blocks are translated (first run). */
            setenv(d->ref_env, v == V_REF ? "1" : "0", 1);
        }
        setenv("LINX_KERNEL_NOSIMD", v == V_NOSIMD ? "1" : "0", 1);
        guest_build(&c->g[v], d, v);
        guest_run(&c->g[v], 1);
        check(c, v);
    }
    if (d->ref_env) {
        unsetenv(d->ref_env);
    }
    unsetenv("LINX_KERNEL_NOSIMD");
}

static void case_free(Case *c)
{
    for (unsigned v = V_JIT; v < V__COUNT; v++) {
        if (c->present[v]) {
            guest_free(&c->g[v]);
        }
    }
    free(c->nmem);
}

/* One timed run of @v: seconds per kernel. */
static double time_variant(Case *c, unsigned v)
{
    long n = c->runs[v];
    double t0 = now();

    if (v == V_NATIVE) {
        for (long i = 0; i < n; i++) {
            NativeFn volatile fn = c->d->native;
            fn(c->nmem);
        }
    } else {
        guest_run(&c->g[v], n / c->g[v].per_iter);
    }
    return (now() - t0) / (double)n;
}

static void calibrate(Case *c, double seconds)
{
    for (unsigned v = 0; v < V__COUNT; v++) {
        unsigned per = v == V_NATIVE ? 1 : c->g[v].per_iter;
        long n = per;

        if (!c->present[v]) {
            continue;
        }
        for (;;) {
            double t;

            c->runs[v] = n;
            t = time_variant(c, v) * (double)n;
            if (t >= seconds / 8 || n > (1L << 40)) {
                n = (long)((double)n * seconds / (t > 0 ? t : 1e-9));
                break;
            }
            n *= 4;
        }
        c->runs[v] = (n / per + 1) * per;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return a < b ? -1 : a > b;
}

static double median(const double *v)
{
    double s[ROUNDS];

    memcpy(s, v, sizeof(s));
    qsort(s, ROUNDS, sizeof(s[0]), cmp_double);
    return s[ROUNDS / 2];
}

/* The date and the machine, for quoting the table (docs/performance.md). */
static void print_machine(void)
{
    char model[256] = "unknown CPU", line[512], stamp[64];
    double load[3] = { 0, 0, 0 };
    time_t now = time(NULL);
    FILE *f = fopen("/proc/cpuinfo", "r");

    while (f && fgets(line, sizeof(line), f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(model, sizeof(model), "%s", colon + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    }
    if (f) {
        fclose(f);
    }
    if (getloadavg(load, 3) < 0) {
        load[0] = load[1] = load[2] = 0;
    }
    strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("\n%s, %s (%ld CPUs, load %.2f %.2f %.2f); native: bench-kernels-native.c at -O2.\n",
           stamp, model, sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
}

int main(int argc, char **argv)
{
    double seconds = 0.1;
    const char *only = NULL;
    const char *variants = NULL;
    bool on[NDEFS];
    static Case cases[NDEFS];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "-v") == 0 && i + 1 < argc) {
            variants = argv[++i];
        } else {
            fprintf(stderr, "usage: bench-kernels [-t seconds-per-variant] [-k case-substring]"
                            " [-v variant,...]\n");
            return 2;
        }
    }
    if (!(seconds > 0)) {
        seconds = 0.1;
    }
    for (unsigned i = 0; i < NDEFS; i++) {
        on[i] = !only || strstr(defs[i].name, only) != NULL;
        if (!on[i]) {
            continue;
        }
        case_setup(&cases[i], &defs[i], variants);
        calibrate(&cases[i], seconds);
    }
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < NDEFS; i++) {
            for (unsigned v = 0; on[i] && v < V__COUNT; v++) {
                if (cases[i].present[v]) {
                    cases[i].ns[v][r] = time_variant(&cases[i], v) * 1e9 / cases[i].d->elems;
                }
            }
        }
    }
    printf("Kernels: ns per element (CUBE: per multiply-add) including dispatch, median of %d\n"
           "rounds; host SIMD: %s.  jit/native, interp/jit, nosimd/jit (the JIT without the\n"
           "host-SIMD mode), scalar/jit (the vadd as ordinary blocks), reference/jit (the\n"
           "per-element reference path)\n\n",
           ROUNDS, vec_isa_name(vec_host_isa()));
    printf("%-26s %8s %8s %9s %8s %8s %9s %9s %8s\n", "case", "native", "jit", "interp", "jit/nat",
           "int/jit", "nosim/jit", "scal/jit", "ref/jit");
    for (unsigned i = 0; i < NDEFS; i++) {
        Case *c = &cases[i];
        double n, j, it;
        char its[16] = "-", itr[16] = "-", ns[16] = "-", scr[16] = "-", ref[16] = "-";

        if (!on[i]) {
            continue;
        }
        n = median(c->ns[V_NATIVE]);
        j = median(c->ns[V_JIT]);
        if (c->present[V_INTERP]) {
            it = median(c->ns[V_INTERP]);
            snprintf(its, sizeof(its), "%.2f", it);
            snprintf(itr, sizeof(itr), "%.1f", it / j);
        }
        if (c->present[V_NOSIMD]) {
            snprintf(ns, sizeof(ns), "%.2f", median(c->ns[V_NOSIMD]) / j);
        }
        if (c->present[V_SCALAR]) {
            snprintf(scr, sizeof(scr), "%.2f", median(c->ns[V_SCALAR]) / j);
        }
        if (c->present[V_REF]) {
            snprintf(ref, sizeof(ref), "%.2f", median(c->ns[V_REF]) / j);
        }
        printf("%-26s %8.3f %8.3f %9s %8.2f %8s %9s %9s %8s\n", c->d->name, n, j, its, j / n, itr,
               ns, scr, ref);
    }
    print_machine();
    for (unsigned i = 0; i < NDEFS; i++) {
        if (on[i]) {
            case_free(&cases[i]);
        }
    }
    return 0;
}
