/*
 * Guest-level tile benchmark: a loop of 4 KB TSTOREs written in LinxISA
 * assembly, run under the JIT, against the best native kernel for the
 * same shape measured in the same run (issue #6: "at most 50 ns per 4 KB
 * TSTORE including dispatch").  Ratios, never absolute thresholds.
 *
 *   guest    the guest loop: per iteration UNROLL TSTORE header blocks
 *            (each its own TB, chained to the next) and one loop block;
 *            time / TSTOREs.  NORM and NZ2ND blocks move the tile with
 *            code the JIT emitted inline (tcg/tile-move.h, issue 16)
 *   call     the same guest built with LINX_TILE_INLINE=0: every TSTORE
 *            calls helper_tma with the prepared plan (what guest was
 *            before the inline moves: the before/after of one run)
 *   direct   helper_tma() on an identical block from C, in a loop: the
 *            helper's work without the guest around it
 *   kernel   just the host kernel the plan chose, on the same memory
 *   best     the fastest of the native kernels with the shape compiled in
 *            (AVX2 fixed-shape bodies, memcpy / tile-order runs)
 *   limit    the measured limit: the faster of two native 4 KB copies with
 *            the size compiled in, 64-byte AVX-512 moves (where the host
 *            has them) and 32-byte AVX2 (shared/docs/tile-limit.md: the copy ceiling,
 *            which NZ2ND and NORM reach natively); "of limit" is limit /
 *            guest, the goal: >= 0.70 for f32 NORM and NZ2ND
 *            (<= 35 ns), >= 0.55 for ZN2ND
 *
 * guest - direct is what dispatch costs (TB entry, the header's LB
 * writes, the call); guest / best is the figure the issue asks about.
 * Cases: f32 32x32, f16 32x64, int8 64x64 in NORM, NZ2ND and ZN2ND, the
 * v0.4 header style (B.ARG, B.IOTI: constant shape, the fast path); the
 * same shapes as TLOAD NORM, ND2NZ and ND2ZN (UNROLL TLOADs of the same 4
 * KB per iteration: each pushes hand T, so the tiles cycle through its 9
 * slots; best and limit write 9 native tiles in turn likewise); plus
 * the f32 NORM TSTORE in seed 000's template syntax (B.DATR, B.IOT with no
 * size: the shape is resolved at run time from the source tile); plus the
 * f32 NORM TSTORE "near code": code and data in one RWX mapping, the
 * destination in the same 2 MiB as the loop (a small bare-metal image's
 * layout), which must run as fast as the far case (issue 16: it
 * retranslated every block on every TSTORE); its line prints near / far
 * and the translations made during the timed runs.
 *
 * "Hot" regime: the same 4 KB of GM and the same t#1 every call (the
 * guest loads t#1 once).  Times are thread CPU time, variants interleaved
 * over ROUNDS rounds, median.  The guest's GM must equal what the native
 * kernel wrote before anything is timed.
 *
 * Usage: bench-tile-guest [-t seconds-per-variant] [-q]   (ninja -C build benchmark)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tile-regs.h"
#include "hw/linx/tma-kernels.h"
#include "linx-as.h"
#include "target/linx/helper-proto.h"
#include "target/linx/tma-translate.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#if defined(__x86_64__)
#include "hw/linx/tma-avx2-inline.h"
#include "target/linx/tma-header.h"
#define BENCH_AVX2 1
#define AVX2_FN __attribute__((noinline, target("avx2")))
#endif

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA_BASE UINT64_C(0x100000)
#define DATA_SIZE UINT64_C(0x10000)
#define SRC_ADDR (DATA_BASE + 0x800)  /* 2 KB off a page: no 4K aliasing */
#define DST_ADDR (DATA_BASE + 0x4800)
#define TILE_BYTES 4096u
#define UNROLL 8
#define ROUNDS 5
#define SRC_MAX 8192
#define REG_S2 13                     /* the loop counter */

typedef struct Shape {
    const char *name, *dtype;
    unsigned esize;
    uint32_t rows, cols;
} Shape;

static const Shape shapes[] = {
    { "f32 32x32", "FP32", 4, 32, 32 },
    { "f16 32x64", "FP16", 2, 32, 64 },
    { "i8 64x64", "INT8", 1, 64, 64 },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

enum { LAY_ND, LAY_NZ, LAY_ZN, LAY__COUNT };
static const char *const lay_barg[LAY__COUNT] = { "NORM", "ND2NZ", "ND2ZN" };
static const char *const lay_name[LAY__COUNT] = { "NORM", "NZ2ND", "ZN2ND" };
static const char *const lay_load_name[LAY__COUNT] = { "TLOAD NORM", "TLOAD ND2NZ", "TLOAD ND2ZN" };

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "bench-tile-guest: %s\n", what);
    exit(1);
}

/* ------------------------------------------------------------------ */
/* Native kernels (shape compiled in)                                  */
/* ------------------------------------------------------------------ */

typedef void (*NativeFn)(uint8_t *gm, uint8_t *tile);

#ifdef BENCH_AVX2
INLINE_AVX2 void nz_tile_order(uint8_t *gm, size_t ld, const uint8_t *t, uint32_t R, uint32_t CB)
{
    for (uint32_t b = 0; b < CB / 32; b++) {
        for (uint32_t r = 0; r < R; r++) {
            st32(gm + (size_t)b * 32 + r * ld, ld32(t + ((size_t)b * R + r) * 32));
        }
    }
}

#define NATIVE_SET(N, R, C, E)                                                               \
    static AVX2_FN void nd_##N(uint8_t *g, uint8_t *t)                                       \
    {                                                                                        \
        nd_sub(g, (C) * (E), t, C, R, C, E, true);                                           \
    }                                                                                        \
    static AVX2_FN void nz_##N(uint8_t *g, uint8_t *t)                                       \
    {                                                                                        \
        nz_sub(g, (C) * (E), t, R, R, C, E, true);                                           \
    }                                                                                        \
    static AVX2_FN void nzo_##N(uint8_t *g, uint8_t *t)                                      \
    {                                                                                        \
        nz_tile_order(g, (C) * (E), t, R, (C) * (E));                                        \
    }                                                                                        \
    static AVX2_FN void zn_##N(uint8_t *g, uint8_t *t)                                       \
    {                                                                                        \
        zn_sub(g, (C) * (E), t, C, R, C, E, true);                                           \
    }
NATIVE_SET(f32, 32, 32, 4)
NATIVE_SET(f16, 32, 64, 2)
NATIVE_SET(i8, 64, 64, 1)

#define NATIVE_LOAD_SET(N, R, C, E)                                                          \
    static AVX2_FN void ndl_##N(uint8_t *g, uint8_t *t)                                      \
    {                                                                                        \
        nd_sub(g, (C) * (E), t, C, R, C, E, false);                                          \
    }                                                                                        \
    static AVX2_FN void nzl_##N(uint8_t *g, uint8_t *t)                                      \
    {                                                                                        \
        nz_sub(g, (C) * (E), t, R, R, C, E, false);                                          \
    }                                                                                        \
    static AVX2_FN void znl_##N(uint8_t *g, uint8_t *t)                                      \
    {                                                                                        \
        zn_sub(g, (C) * (E), t, C, R, C, E, false);                                          \
    }
NATIVE_LOAD_SET(f32, 32, 32, 4)
NATIVE_LOAD_SET(f16, 32, 64, 2)
NATIVE_LOAD_SET(i8, 64, 64, 1)

static __attribute__((noinline, target("avx512f"))) void copy_limit512(uint8_t *g, uint8_t *t)
{
    for (unsigned k = 0; k < TILE_BYTES; k += 64) {
        _mm512_storeu_si512((void *)(g + k), _mm512_loadu_si512((const void *)(t + k)));
    }
}

static AVX2_FN void copy_limit256(uint8_t *g, uint8_t *t)
{
    for (unsigned k = 0; k < TILE_BYTES; k += 32) {
        st32(g + k, ld32(t + k));
    }
}

static void memcpy_4k(uint8_t *g, uint8_t *t)
{
    void *(*volatile fn)(void *, const void *, size_t) = memcpy;

    fn(g, t, TILE_BYTES);
}

#define MAX_NATIVE 2
static const NativeFn native_fns[NSHAPES][LAY__COUNT][MAX_NATIVE] = {
    { { nd_f32, memcpy_4k }, { nz_f32, nzo_f32 }, { zn_f32, NULL } },
    { { nd_f16, memcpy_4k }, { nz_f16, nzo_f16 }, { zn_f16, NULL } },
    { { nd_i8, memcpy_4k }, { nz_i8, nzo_i8 }, { zn_i8, NULL } },
};
static const NativeFn native_load_fns[NSHAPES][LAY__COUNT] = {
    { ndl_f32, nzl_f32, znl_f32 },
    { ndl_f16, nzl_f16, znl_f16 },
    { ndl_i8, nzl_i8, znl_i8 },
};
#endif

/* ------------------------------------------------------------------ */
/* The guest                                                           */
/* ------------------------------------------------------------------ */

typedef struct Guest {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    uint64_t loop;      /* address of the loop's first block */
    uint8_t *host_dst;  /* GM destination, host view (for checks) */
    uint8_t *host_src;  /* GM source, host view (TLOAD cases) */
    bool load;          /* the loop's blocks are TLOADs from SRC */
    bool near;          /* code and data in one mapping (same 2 MiB) */
} Guest;

/* The header of one 4 KB TSTORE of @sh / @lay from t#1 to s1. */
static int tstore_header(char *o, size_t n, const Shape *sh, unsigned lay, bool seed)
{
    if (seed) {
        return snprintf(o, n, "    TSTORE.%s <LB0:%u, LB1:%u, LB2:%u, %s>, T#1, [s1]\n",
                        lay_name[lay], sh->cols, sh->rows, sh->cols, sh->dtype);
    }
    return snprintf(o, n,
                    "    BSTART.TMA TSTORE, %s\n    B.ARG %s\n    B.DIM zero, %u, ->lb0\n"
                    "    B.DIM zero, %u, ->lb1\n    B.DIM zero, %u, ->lb2\n    B.IOR [s1],[]\n"
                    "    B.IOTI [t#1], last ->t<4KB>\n",
                    sh->dtype, lay_barg[lay], sh->cols, sh->rows, sh->cols);
}

static void guest_build(Guest *g, const Shape *sh, unsigned lay, bool seed, bool near)
{
    static char src[SRC_MAX];
    size_t len = 0;
    LinxAsOptions o;
    LinxAs *as;
    uint8_t *img;
    size_t img_len;
    LinxExecOptions eo;
    char err[256];

    len += (size_t)snprintf(src + len, sizeof(src) - len,
                            "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n"
                            "    hl.lis %" PRIu64 ", ->s0\n    hl.lis %" PRIu64 ", ->s1\n"
                            "    BSTART.TMA TLOAD, %s\n    B.ARG %s\n    B.DIM zero, %u, ->lb0\n"
                            "    B.DIM zero, %u, ->lb1\n    B.DIM zero, %u, ->lb2\n"
                            "    B.IOR [s0],[]\n    B.IOTI [], last ->t<4KB>\n"
                            "    C.BSTART.STD FALL\n    ebreak 0\nloop:\n",
                            SRC_ADDR, DST_ADDR, sh->dtype, lay_barg[lay], sh->cols, sh->rows,
                            sh->cols);
    for (unsigned u = 0; u < UNROLL; u++) {
        if (g->load) {
            len += (size_t)snprintf(src + len, sizeof(src) - len,
                                    "    BSTART.TMA TLOAD, %s\n    B.ARG %s\n"
                                    "    B.DIM zero, %u, ->lb0\n    B.DIM zero, %u, ->lb1\n"
                                    "    B.DIM zero, %u, ->lb2\n    B.IOR [s0],[]\n"
                                    "    B.IOTI [], last ->t<4KB>\n",
                                    sh->dtype, lay_barg[lay], sh->cols, sh->rows, sh->cols);
        } else {
            len += (size_t)tstore_header(src + len, sizeof(src) - len, sh, lay, seed);
        }
    }
    len += (size_t)snprintf(src + len, sizeof(src) - len,
                            "    C.BSTART COND, loop\n    subi s2, 1, ->s2\n    setc.nei s2, 0\n"
                            "    C.BSTART.STD FALL\n    ebreak 0\n");
    if (len >= sizeof(src)) {
        die("program text too long");
    }
    linx_as_default_options(&o);
    o.base = CODE_BASE;
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    linx_as_add_source(as, "bench.s", src, len);
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &img_len) ||
        !linx_as_symbol_value(as, "loop", &g->loop)) {
        fputs(linx_as_diagnostics(as), stderr);
        die("assembly failed");
    }
    linx_as_free(as);

    g->near = near;
    g->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    if (!g->gm ||
        (near ? !guest_mem_map(g->gm, CODE_BASE, DATA_BASE + DATA_SIZE - CODE_BASE, GM_PROT_ALL,
                               false)
              : (!guest_mem_map(g->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false) ||
                 !guest_mem_map(g->gm, DATA_BASE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE,
                                false))) ||
        guest_mem_write(g->gm, CODE_BASE, img, img_len, NULL) != GM_OK) {
        die("guest memory");
    }
    free(img);
    for (unsigned i = 0; i < TILE_BYTES; i++) {
        uint8_t v = (uint8_t)(i * 7 + 3);
        guest_mem_write(g->gm, SRC_ADDR + i, &v, 1, NULL);
    }
    if (guest_mem_window(g->gm, DST_ADDR, 1, TILE_BYTES, TILE_BYTES, GM_PROT_READ,
                         &g->host_dst, NULL) != GM_OK || !g->host_dst ||
        guest_mem_window(g->gm, SRC_ADDR, 1, TILE_BYTES, TILE_BYTES, GM_PROT_READ,
                         &g->host_src, NULL) != GM_OK || !g->host_src) {
        die("no host view of the destination");
    }
    linx_exec_options_init(&eo);
    eo.accel = LINX_ACCEL_JIT;
    eo.trace_commit_path = NULL;
    g->ec = linx_exec_new(&eo, err, sizeof(err));
    g->env = calloc(1, sizeof(*g->env));
    if (!g->ec || !g->env) {
        die(err);
    }
    g->env->engine.mem = g->gm;
    g->env->tiles = linx_tile_state_new();
    linx_cpu_reset(g->env, CODE_BASE, 0);
    linx_exec_attach_cpu(g->ec, g->env);
    /* _start: the TLOAD into t#1, then the ebreak. */
    if (cpu_exec(g->env) != EXCP_TRAP || (g->env->trapno & 0xff) != LINX_TRAP_SW_BREAKPOINT) {
        die("the guest's TLOAD did not run");
    }
}

static void guest_free(Guest *g)
{
    linx_exec_free(g->ec);
    linx_tile_state_free(g->env->tiles);
    free(g->env);
    guest_mem_free(g->gm);
}

/* Run @iters loop iterations (UNROLL TSTOREs each). */
static void guest_run(Guest *g, long iters)
{
    CPULinxState *env = g->env;

    if (iters < 1) {
        die("a guest run needs at least one iteration");
    }
    env->pc = g->loop;
    env->resume = 0;
    env->gpr[REG_S2] = (uint64_t)iters;
    if (cpu_exec(env) != EXCP_TRAP || (env->trapno & 0xff) != LINX_TRAP_SW_BREAKPOINT) {
        linx_cpu_dump_state(env, stderr);
        die("the guest loop stopped with a trap");
    }
}

/* The loop's first TSTORE header, decoded from guest memory and planned
 * the way the translator plans it (the "direct" variant's block). */
static void guest_block(Guest *g, LinxTmaBlock *b)
{
    uint64_t pc = g->loop;
    uint8_t buf[8];
    LinxInsn insn;
    TmaDesc d;
    bool first = true;

    for (;;) {
        unsigned len;

        if (guest_mem_read(g->gm, pc, buf, 2, GM_PROT_EXEC, NULL) != GM_OK) {
            die("cannot read the loop");
        }
        len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
        if (guest_mem_read(g->gm, pc, buf, len, GM_PROT_EXEC, NULL) != GM_OK ||
            linx_decode(buf, len, &insn) != LINX_DECODE_OK) {
            die("cannot decode the loop");
        }
        if (first ? !tma_desc_begin(&d, &insn) : !tma_desc_add(&d, &insn)) {
            break;
        }
        first = false;
        pc += len;
    }
    if (first || !linx_tma_block_plan(b, &d, NULL, g->loop, 0)) {
        die("the loop's first block is not a legal TMA header");
    }
}

/* What the TB's call does, from C (a fault would leave through
 * cpu_loop_exit; the checks before timing made sure there is none). */
static void direct_run(Guest *g, LinxTmaBlock *b, long calls)
{
    for (long i = 0; i < calls; i++) {
        helper_tma(g->env, (uint64_t)(uintptr_t)b, g->load ? SRC_ADDR : DST_ADDR, 0, 0);
    }
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

enum { V_GUEST, V_CALL, V_DIRECT, V_KERNEL, V_LIMIT, V_LIMIT2, V_NATIVE0, V_NATIVE1, V__COUNT };

typedef struct Case {
    const Shape *sh;
    unsigned lay;
    bool seed;
    Guest g;
    Guest gcall;              /* the same with LINX_TILE_INLINE=0 */
    NativeFn limit[2];        /* native 4 KB copies: AVX-512 (if any), AVX2 */
    LinxTmaBlock *blk;
    TmaXfer xfer;             /* the kernel's arguments as tma_exec builds them */
    NativeFn native[2];
    uint8_t *ngm, *ntile;
    uint8_t *nring;           /* TLOAD cases: 9 native destinations, as the slots of hand T */
    long calls[V__COUNT];     /* TSTOREs per timed run */
    double ns[V__COUNT][ROUNDS];
} Case;

/* One timed run of variant @v: seconds per TSTORE. */
static double time_variant(Case *c, unsigned v)
{
    long n = c->calls[v];
    double t0 = now();

    switch (v) {
    case V_GUEST:
        guest_run(&c->g, n / UNROLL);
        break;
    case V_CALL:
        guest_run(&c->gcall, n / UNROLL);
        break;
    case V_LIMIT:
    case V_LIMIT2:
        for (long i = 0; i < n; i++) {
            NativeFn volatile fn = c->limit[v - V_LIMIT];
            fn(c->nring ? c->nring + (size_t)(i % LINX_TILE_RING) * 2 * TILE_BYTES : c->ngm,
               c->ntile);
        }
        break;
    case V_DIRECT:
        direct_run(&c->g, c->blk, n);
        break;
    case V_KERNEL:
        for (long i = 0; i < n; i++) {
            c->blk->plan.kernel(&c->xfer);
        }
        break;
    default:
        for (long i = 0; i < n; i++) {
            NativeFn volatile fn = c->native[v - V_NATIVE0];
            fn(c->ngm, c->nring ? c->nring + (size_t)(i % LINX_TILE_RING) * 2 * TILE_BYTES
                                : c->ntile);
        }
        break;
    }
    return (now() - t0) / (double)n;
}

static bool variant_present(const Case *c, unsigned v)
{
    if (v == V_LIMIT || v == V_LIMIT2) {
        return c->limit[v - V_LIMIT] != NULL;
    }
    return v < V_NATIVE0 || c->native[v - V_NATIVE0] != NULL;
}

/* The guest's GM after a TSTORE must be the native kernel's output for
 * the tile the guest loaded. */
static void check_load_case(Case *c)
{
    memcpy(c->ngm, c->g.host_src, TILE_BYTES);
    memset(c->ntile, 0, TILE_BYTES);
    c->native[0](c->ngm, c->ntile);
    for (unsigned w = 0; w < 2; w++) {
        Guest *g = w ? &c->gcall : &c->g;

        for (unsigned again = 0; again < 2; again++) {
            guest_run(g, 1);
            if (memcmp(c->ntile, linx_tile_get(g->env->tiles, 0)->data, TILE_BYTES) != 0) {
                fprintf(stderr, "bench-tile-guest: %s %s: %s tile differs from native kernel\n",
                        c->sh->name, lay_load_name[c->lay], w ? "call" : "guest");
                exit(1);
            }
        }
    }
}

static void check_case(Case *c)
{
    const LinxTileSlot *t1 = linx_tile_get(c->g.env->tiles, 0);

    if (c->g.load) {
        if (c->native[0]) {
            check_load_case(c);
        }
        return;
    }

    memcpy(c->ntile, t1->data, TILE_BYTES);
    for (unsigned k = 0; k < 2; k++) {
        if (!c->native[k]) {
            continue;
        }
        memset(c->ngm, 0, TILE_BYTES);
        c->native[k](c->ngm, c->ntile);
        for (unsigned w = 0; w < 2; w++) {
            Guest *g = w ? &c->gcall : &c->g;

            /* twice: the first run fills the window cache, the second
             * runs the inline move */
            for (unsigned again = 0; again < 2; again++) {
                memset(g->host_dst, 0, TILE_BYTES);
                guest_run(g, 1);
                if (memcmp(c->ngm, g->host_dst, TILE_BYTES) != 0) {
                    fprintf(stderr,
                            "bench-tile-guest: %s %s: %s GM differs from native kernel %u\n",
                            c->sh->name, lay_name[c->lay], w ? "call" : "guest", k);
                    exit(1);
                }
            }
        }
    }
}

static void calibrate(Case *c, double seconds)
{
    for (unsigned v = 0; v < V__COUNT; v++) {
        long n = UNROLL * 16;

        if (!variant_present(c, v)) {
            continue;
        }
        for (;;) {
            double t;

            c->calls[v] = n;
            t = time_variant(c, v) * (double)n;
            if (t >= seconds / 8 || n > (1L << 40)) {
                n = (long)((double)n * seconds / (t > 0 ? t : 1e-9));
                break;
            }
            n *= 4;
        }
        c->calls[v] = (n / UNROLL + 1) * UNROLL;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return a < b ? -1 : a > b;
}

static double median(double *v)
{
    double s[ROUNDS];

    memcpy(s, v, sizeof(s));
    qsort(s, ROUNDS, sizeof(s[0]), cmp_double);
    return s[ROUNDS / 2];
}

static void case_setup(Case *c, unsigned shape, unsigned lay, bool seed, bool near, bool load)
{
    memset(c, 0, sizeof(*c));
    c->sh = &shapes[shape];
    c->lay = lay;
    c->seed = seed;
    c->g.load = c->gcall.load = load;
    guest_build(&c->g, c->sh, lay, seed, near);
    setenv("LINX_TILE_INLINE", "0", 1);
    guest_build(&c->gcall, c->sh, lay, seed, near);
    unsetenv("LINX_TILE_INLINE");
    c->blk = aligned_alloc(64, sizeof(*c->blk));
    c->ngm = aligned_alloc(4096, 4 * TILE_BYTES);
    c->ntile = aligned_alloc(4096, 4 * TILE_BYTES);
    if (!c->blk || !c->ngm || !c->ntile) {
        die("out of memory");
    }
    guest_block(&c->g, c->blk);
    tma_xfer_init(&c->xfer, &c->blk->plan, &c->blk->plan.shape);
    c->xfer.gm = load ? c->g.host_src : c->g.host_dst;
    if (load) {
        /* the 9 destinations 1 KB into every other page, as tiles */
        c->nring = aligned_alloc(4096, (size_t)LINX_TILE_RING * 2 * TILE_BYTES);
        if (!c->nring) {
            die("out of memory");
        }
        memset(c->nring, 0, (size_t)LINX_TILE_RING * 2 * TILE_BYTES);
        c->nring += 1024;
    }
    c->xfer.stride = (size_t)c->sh->cols * c->sh->esize;
    c->xfer.ntiles = 1;
    c->xfer.tile[0] = linx_tile_get(c->g.env->tiles, 0)->data;
    /* Same placement as the emulator's: GM 2 KB and the tile 1 KB into a page. */
    c->ngm += 2048;
    c->ntile += 1024;
#ifdef BENCH_AVX2
    if (tma_host_has_avx2()) {
        c->native[0] = load ? native_load_fns[shape][lay] : native_fns[shape][lay][0];
        c->native[1] = load ? NULL : native_fns[shape][lay][1];
        __builtin_cpu_init();
        c->limit[0] = __builtin_cpu_supports("avx512f") ? copy_limit512 : NULL;
        c->limit[1] = copy_limit256;
    }
#endif
    check_case(c);
}

static void case_free(Case *c)
{
    guest_free(&c->g);
    guest_free(&c->gcall);
    if (c->nring) {
        free(c->nring - 1024);
    }
    free(c->blk);
    free(c->ngm - 2048);
    free(c->ntile - 1024);
}

int main(int argc, char **argv)
{
    double seconds = 0.05;
    bool quiet = false;
    static Case cases[2 * NSHAPES * LAY__COUNT + 2];
    LinxExecStats st;
    uint64_t near_tbs = 0;
    unsigned ncases = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (strcmp(argv[i], "-q") == 0) {
            quiet = true;
        } else {
            fprintf(stderr, "usage: bench-tile-guest [-t seconds-per-variant] [-q]\n");
            return 2;
        }
    }
    if (seconds <= 0) {
        seconds = 0.05;
    }
    for (unsigned s = 0; s < NSHAPES; s++) {
        for (unsigned l = 0; l < LAY__COUNT; l++) {
            case_setup(&cases[ncases++], s, l, false, false, false);
        }
    }
    for (unsigned s = 0; s < NSHAPES; s++) {
        for (unsigned l = 0; l < LAY__COUNT; l++) {
            case_setup(&cases[ncases++], s, l, false, false, true);
        }
    }
    case_setup(&cases[ncases++], 0, LAY_ND, true, false, false);
    case_setup(&cases[ncases++], 0, LAY_ND, false, true, false); /* near code; far: cases[0] */

    for (unsigned i = 0; i < ncases; i++) {
        calibrate(&cases[i], seconds);
    }
    linx_exec_get_stats(cases[ncases - 1].g.ec, &st);
    near_tbs = st.tbs_translated;
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < ncases; i++) {
            for (unsigned v = 0; v < V__COUNT; v++) {
                if (variant_present(&cases[i], v)) {
                    cases[i].ns[v][r] = time_variant(&cases[i], v) * 1e9;
                }
            }
        }
    }
    printf("4 KB TSTORE under the JIT (hot): ns per TSTORE including dispatch; guest = inline\n"
           "moves where the JIT emits them, call = the same guest calling the helper (before);\n"
           "limit = native 4 KB %s copy (the measured limit); of limit = limit / guest\n"
           "(guest %u TSTORE blocks + 1 loop block per iteration; median of %d rounds)\n\n",
           cases[0].limit[1] == NULL               ? "(none)"
           : __builtin_cpu_supports("avx512f") ? "AVX-512 or AVX2 (the faster)"
                                               : "AVX2",
           UNROLL, ROUNDS);
    printf("%-28s %7s %7s %7s %7s %7s %7s %6s %9s %8s %9s\n", "case", "guest", "call", "direct",
           "kernel", "best", "limit", "GB/s", "of limit", "(call)", "goal");
    for (unsigned i = 0; i < ncases; i++) {
        Case *c = &cases[i];
        double g = median(c->ns[V_GUEST]), d = median(c->ns[V_DIRECT]), best = 0;
        double k = median(c->ns[V_KERNEL]), call = median(c->ns[V_CALL]);
        double lim = 0;
        double goal = c->g.load || c->lay == LAY_ZN ? 0.55 : 0.70;
        char name[64];

        for (unsigned v = V_NATIVE0; v < V__COUNT; v++) {
            if (variant_present(c, v)) {
                double m = median(c->ns[v]);
                best = best == 0 || m < best ? m : best;
            }
        }
        for (unsigned v = V_LIMIT; v <= V_LIMIT2; v++) {
            if (variant_present(c, v)) {
                double m = median(c->ns[v]);
                lim = lim == 0 || m < lim ? m : lim;
            }
        }
        snprintf(name, sizeof(name), "%s %s%s%s", c->sh->name,
                 c->g.load ? lay_load_name[c->lay] : lay_name[c->lay],
                 c->seed ? " (seed syntax)" : "", c->g.near ? " (near code)" : "");
        printf("%-28s %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %6.1f %9.2f %8.2f %9s\n", name, g, call,
               d, k, best, lim, TILE_BYTES / g, lim > 0 ? lim / g : 0, lim > 0 ? lim / call : 0,
               lim <= 0 ? "-" : lim / g >= goal ? "met" : "missed");
        if (!quiet) {
            fprintf(stderr, "  %s: kernel %s%s\n", name,
                    c->blk->plan.kernel_name ? c->blk->plan.kernel_name : "?",
                    c->blk->plan.fast ? ", fast path" : ", general path");
        }
    }
    {
        Case *nc = &cases[ncases - 1];

        linx_exec_get_stats(nc->g.ec, &st);
        printf("\nnear code / far (f32 32x32 NORM, guest ns per TSTORE): %.2f; translations "
               "during the timed runs: %" PRIu64 "\n",
               median(nc->ns[V_GUEST]) / median(cases[0].ns[V_GUEST]),
               st.tbs_translated - near_tbs);
    }
    for (unsigned i = 0; i < ncases; i++) {
        case_free(&cases[i]);
    }
    return 0;
}
