/*
 * Tile benchmark: TSTORE and TLOAD of 4 KB f32 (32x32), f16 (32x64) and
 * int8 (64x64) tiles in NORM, NZ and ZN layouts, as GB/s of tile bytes and
 * as ratios against baselines measured in the same run (never absolute
 * thresholds):
 *
 *   emu      tma_exec() with a prepared plan (constant shape, base and
 *            stride from registers): the GuestMemory window check, the tile
 *            register file and the kernel the plan selected - what a
 *            translated TMA block costs, minus the helper call itself
 *   emu-dyn  the same with LB0-LB2 from registers (run-time shape)
 *   ref      tma_exec() on the per-element reference path (the oracle)
 *   naive    native C, one element at a time with the layout's index
 *            formula (typed elements, run-time shape)
 *   best     the fastest native kernel of several written for exactly that
 *            shape (compile-time shape: AVX2 GM-row order, AVX2 tile
 *            order, register transposes, row memcpy)
 *   memcpy   native memcpy of the same number of bytes
 *
 * Regimes: "hot" = the same 4 KB of GM (dense rows) every call, everything
 * in L1; "large" = calls walk a 256 x 256-element GM matrix block by block
 * (row pitch 256 elements) and the tile cycles through the 9 slots of
 * hand T, so the working set lives in L2.  TLOAD pushes do that by
 * themselves; for TSTORE (one plan, from t#1, as in a TLOAD/TSTORE loop)
 * the harness commits an empty push after each call (metadata only, no
 * copy; its cost counts as emulator time), and the native variants cycle
 * through 9 buffers.
 *
 * Each variant is calibrated to about -t seconds per run and the variants
 * of a case run in 5 interleaved rounds (median), so a slow phase of a
 * shared host hits all of them alike; times are thread CPU time.  Every variant's output is checked
 * against the reference before anything is timed.
 *
 * Usage: bench-tile [-t seconds] [-c cpu] [-q]   (ninja -C build benchmark)
 */
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"
#include "target/linx/cpu.h"

#if defined(__x86_64__)
#include "hw/linx/tma-avx2-inline.h"
#define BENCH_AVX2 1
#define AVX2_FN __attribute__((noinline, target("avx2")))
#endif

#define TILE_BYTES 4096u
#define BIG 256u           /* large regime: BIG x BIG elements */
#define ROUNDS 5
#define NSTORE_TILES 32u
#define NLOAD_TILES LINX_TILE_RING
#define RAM_BASE UINT64_C(0x10000000)
#define GM_OFFSET 2048u    /* GM 2 KB off a page boundary (tile-limit.md 7) */
#define GUEST_RAM_BYTES (UINT64_C(4) << 20)
#define A0 2
#define A1 3
#define A2 4

enum { LAY_ND, LAY_NZ, LAY_ZN, LAY__COUNT };
enum { DIR_STORE, DIR_LOAD };
enum { REG_HOT, REG_LARGE };

static const char *const lay_store_name[LAY__COUNT] = { "NORM", "NZ2ND", "ZN2ND" };
static const char *const lay_load_name[LAY__COUNT] = { "NORM", "ND2NZ", "ND2ZN" };

typedef struct Shape {
    const char *name;
    unsigned dtype, esize;
    uint32_t rows, cols;
} Shape;

static const Shape shapes[] = {
    { "f32 32x32", LINX_DT_FP32, 4, 32, 32 },
    { "f16 32x64", LINX_DT_FP16, 2, 32, 64 },
    { "i8 64x64", LINX_DT_S8, 1, 64, 64 },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* Thread CPU time: the host is shared (and small), so time spent
 * preempted by other processes must not count. */
static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Native kernels: fn(gm, tile, rows, cols, ld) in elements            */
/* ------------------------------------------------------------------ */

typedef void (*NativeFn)(uint8_t *gm, uint8_t *tile, size_t ld_bytes);

/* Naive: typed, per element, run-time R, C, ld (noipa: no constant
 * propagation into the loop). */
#define NAIVE_OFF_ND(r, c, R, C, c0) ((r) * (C) + (c))
#define NAIVE_OFF_NZ(r, c, R, C, c0) ((c) / (c0) * (R) * (c0) + (r) * (c0) + (c) % (c0))
#define NAIVE_OFF_ZN(r, c, R, C, c0) ((r) / (c0) * (C) * (c0) + (c) * (c0) + (r) % (c0))

/* Keep the shape a run-time value: no inlining, no constant propagation. */
#if defined(__clang__)
#define NAIVE_ATTR __attribute__((noinline))
#else
#define NAIVE_ATTR __attribute__((noipa))
#endif

typedef struct NaiveArgs {
    uint8_t *gm, *tile;
    size_t R, C, ld; /* elements */
} NaiveArgs;

#define NAIVE(T, LAY, OFF)                                                                   \
    static NAIVE_ATTR void naive_st_##LAY##_##T(const NaiveArgs *a)            \
    {                                                                                        \
        T *gm = (T *)a->gm;                                                                  \
        const T *t = (const T *)a->tile;                                                     \
        size_t c0 = 32 / sizeof(T);                                                          \
        (void)c0;                                                                            \
        for (size_t r = 0; r < a->R; r++) {                                                  \
            for (size_t c = 0; c < a->C; c++) {                                              \
                gm[r * a->ld + c] = t[OFF(r, c, a->R, a->C, c0)];                            \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    static NAIVE_ATTR void naive_ld_##LAY##_##T(const NaiveArgs *a)            \
    {                                                                                        \
        const T *gm = (const T *)a->gm;                                                      \
        T *t = (T *)a->tile;                                                                 \
        size_t c0 = 32 / sizeof(T);                                                          \
        (void)c0;                                                                            \
        for (size_t r = 0; r < a->R; r++) {                                                  \
            for (size_t c = 0; c < a->C; c++) {                                              \
                t[OFF(r, c, a->R, a->C, c0)] = gm[r * a->ld + c];                            \
            }                                                                                \
        }                                                                                    \
    }
NAIVE(uint32_t, nd, NAIVE_OFF_ND)
NAIVE(uint32_t, nz, NAIVE_OFF_NZ)
NAIVE(uint32_t, zn, NAIVE_OFF_ZN)
NAIVE(uint16_t, nd, NAIVE_OFF_ND)
NAIVE(uint16_t, nz, NAIVE_OFF_NZ)
NAIVE(uint16_t, zn, NAIVE_OFF_ZN)
NAIVE(uint8_t, nd, NAIVE_OFF_ND)
NAIVE(uint8_t, nz, NAIVE_OFF_NZ)
NAIVE(uint8_t, zn, NAIVE_OFF_ZN)

typedef void (*NaiveFn)(const NaiveArgs *a);

/* [esize log2][layout][dir] */
static const NaiveFn naive_fns[3][LAY__COUNT][2] = {
    { { naive_st_nd_uint8_t, naive_ld_nd_uint8_t },
      { naive_st_nz_uint8_t, naive_ld_nz_uint8_t },
      { naive_st_zn_uint8_t, naive_ld_zn_uint8_t } },
    { { naive_st_nd_uint16_t, naive_ld_nd_uint16_t },
      { naive_st_nz_uint16_t, naive_ld_nz_uint16_t },
      { naive_st_zn_uint16_t, naive_ld_zn_uint16_t } },
    { { naive_st_nd_uint32_t, naive_ld_nd_uint32_t },
      { naive_st_nz_uint32_t, naive_ld_nz_uint32_t },
      { naive_st_zn_uint32_t, naive_ld_zn_uint32_t } },
};

#ifdef BENCH_AVX2
/* Best-native candidates with the shape compiled in (R rows, C columns,
 * E bytes): (1) the AVX2 bodies in GM-row order / register transposes,
 * (2) NZ in tile order, (3) row memcpy for NORM. */
INLINE_AVX2 void nz_tile_order(uint8_t *gm, size_t ld, uint8_t *t, uint32_t R, uint32_t CB,
                               bool store)
{
    for (uint32_t b = 0; b < CB / 32; b++) {
        uint8_t *tb = t + (size_t)b * R * 32, *gb = gm + (size_t)b * 32;
        for (uint32_t r = 0; r < R; r++) {
            if (store) {
                st32(gb + r * ld, ld32(tb + r * 32));
            } else {
                st32(tb + r * 32, ld32(gb + r * ld));
            }
        }
    }
}

static inline __attribute__((always_inline)) void
nd_memcpy_rows(uint8_t *gm, size_t ld, uint8_t *t, uint32_t R, uint32_t CB, bool store)
{
    for (uint32_t r = 0; r < R; r++) {
        if (store) {
            memcpy(gm + r * ld, t + (size_t)r * CB, CB);
        } else {
            memcpy(t + (size_t)r * CB, gm + r * ld, CB);
        }
    }
}

/* One function per (shape, layout, direction, variant): R, C, E constant. */
#define BEST_SET(N, R, C, E)                                                                 \
    static AVX2_FN void b_nd_st_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nd_sub(g, ld, t, C, R, C, E, true);                                                  \
    }                                                                                        \
    static AVX2_FN void b_nd_ld_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nd_sub(g, ld, t, C, R, C, E, false);                                                 \
    }                                                                                        \
    static AVX2_FN void m_nd_st_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nd_memcpy_rows(g, ld, t, R, (C) * (E), true);                                        \
    }                                                                                        \
    static AVX2_FN void m_nd_ld_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nd_memcpy_rows(g, ld, t, R, (C) * (E), false);                                       \
    }                                                                                        \
    static AVX2_FN void b_nz_st_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nz_sub(g, ld, t, R, R, C, E, true);                                                  \
    }                                                                                        \
    static AVX2_FN void b_nz_ld_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nz_sub(g, ld, t, R, R, C, E, false);                                                 \
    }                                                                                        \
    static AVX2_FN void o_nz_st_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nz_tile_order(g, ld, t, R, (C) * (E), true);                                         \
    }                                                                                        \
    static AVX2_FN void o_nz_ld_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        nz_tile_order(g, ld, t, R, (C) * (E), false);                                        \
    }                                                                                        \
    static AVX2_FN void b_zn_st_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        zn_sub(g, ld, t, C, R, C, E, true);                                                  \
    }                                                                                        \
    static AVX2_FN void b_zn_ld_##N(uint8_t *g, uint8_t *t, size_t ld)                       \
    {                                                                                        \
        zn_sub(g, ld, t, C, R, C, E, false);                                                 \
    }
BEST_SET(f32, 32, 32, 4)
BEST_SET(f16, 32, 64, 2)
BEST_SET(i8, 64, 64, 1)

#define MAX_BEST 2
typedef struct BestSet {
    NativeFn fn[LAY__COUNT][2][MAX_BEST];
    const char *name[LAY__COUNT][2][MAX_BEST];
} BestSet;

#define BEST_ENTRY(N)                                                                        \
    {                                                                                        \
        .fn = { { { b_nd_st_##N, m_nd_st_##N }, { b_nd_ld_##N, m_nd_ld_##N } },              \
                { { b_nz_st_##N, o_nz_st_##N }, { b_nz_ld_##N, o_nz_ld_##N } },              \
                { { b_zn_st_##N, NULL }, { b_zn_ld_##N, NULL } } },                          \
        .name = { { { "avx2-fixed", "memcpy-rows" }, { "avx2-fixed", "memcpy-rows" } },      \
                  { { "avx2-gmorder", "avx2-tileorder" }, { "avx2-gmorder", "avx2-tileorder" } }, \
                  { { "avx2-transpose", NULL }, { "avx2-transpose", NULL } } },              \
    }
static const BestSet best_sets[NSHAPES] = { BEST_ENTRY(f32), BEST_ENTRY(f16), BEST_ENTRY(i8) };
#endif

/* ------------------------------------------------------------------ */
/* Variants and timing                                                 */
/* ------------------------------------------------------------------ */

enum { V_EMU, V_EMU_DYN, V_REF, V_NAIVE, V_BEST0, V_BEST1, V_MEMCPY, V__COUNT };
static const char *const vnames[V__COUNT] = { "emu", "emu-dyn", "ref", "naive", "best0", "best1",
                                              "memcpy" };

typedef struct Bench {
    /* native side */
    uint8_t *ngm;                   /* GM buffer (host) at GM_OFFSET */
    uint8_t *ntiles[NSTORE_TILES];  /* tile buffers */
    uint8_t *storage;
    /* emulator side */
    GuestMemory *gm;
    LinxTileState *ts;
    uint64_t gpr[LINX_NUM_GPRS];
} Bench;

typedef struct Case {
    const Shape *sh;
    unsigned lay, dir, regime;
    size_t ld_bytes;              /* GM row pitch */
    unsigned nblocks;             /* GM positions visited (large) */
    unsigned ntiles;              /* tiles cycled */
    TmaPlan *plans[V__COUNT][NSTORE_TILES];
    NativeFn best[MAX_BEST];
    const char *best_name[MAX_BEST];
} Case;

static size_t block_offset(const Case *c, unsigned b)
{
    unsigned per_row;

    if (c->regime == REG_HOT) {
        return 0;
    }
    per_row = BIG / c->sh->cols;
    return (size_t)(b / per_row) * c->sh->rows * c->ld_bytes +
           (size_t)(b % per_row) * c->sh->cols * c->sh->esize;
}

static TmaPlan *make_plan(const Case *c, unsigned src, bool dyn, bool reference)
{
    TmaPlan *p = calloc(1, sizeof(*p));
    TmaOptions opts = { .reference = reference };
    TmaDesc d;
    TmaIot iot;

    tma_desc_init(&d, c->dir == DIR_STORE ? TMA_OP_TSTORE : TMA_OP_TLOAD, c->sh->dtype);
    tma_desc_set_barg(&d, c->lay == LAY_ND ? 0 : c->lay == LAY_NZ ? 1 : 3);
    tma_desc_set_dim(&d, 0, dyn ? A2 : 0, dyn ? 0 : c->sh->cols);
    tma_desc_set_dim(&d, 1, dyn ? A2 : 0, dyn ? c->sh->rows - c->sh->cols : c->sh->rows);
    tma_desc_set_dim(&d, 2, dyn ? A2 : 0, dyn ? 0 : c->sh->cols);
    tma_desc_add_ior(&d, A1, A0, 0); /* v0.4: [stride, base] */
    memset(&iot, 0, sizeof(iot));
    iot.src[0] = (uint8_t)src;
    iot.src_absent[0] = c->dir == DIR_LOAD;
    iot.src_absent[1] = true;
    iot.size = 8;
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, &opts, p);
    if (p->fault.rule != TMA_OK) {
        fprintf(stderr, "bench-tile: plan failed: %s\n", tma_rule_name(p->fault.rule));
        exit(1);
    }
    return p;
}

/* Run @iters calls of variant @v. */
static void run_variant(Bench *b, Case *c, unsigned v, long iters)
{
    const Shape *sh = c->sh;
    TmaRuntimeArgs a;
    TmaFault f;
    unsigned blk = 0, t = 0;
    void *(*volatile vmemcpy)(void *, const void *, size_t) = memcpy;

    memset(&a, 0, sizeof(a));
    a.stride = c->ld_bytes;
    if (v == V_EMU_DYN) {
        a.lb[0] = b->gpr[A2] = sh->cols;
        a.lb[1] = sh->rows;
        a.lb[2] = sh->cols;
    }
    for (long i = 0; i < iters; i++) {
        size_t off = block_offset(c, blk);

        switch (v) {
        case V_EMU:
        case V_EMU_DYN:
        case V_REF:
            a.base = RAM_BASE + GM_OFFSET + off;
            if (!tma_exec(b->ts, b->gm, c->plans[v][0], &a, &f)) {
                fprintf(stderr, "bench-tile: tma_exec: %s\n", tma_rule_name(f.rule));
                exit(1);
            }
            if (c->regime == REG_LARGE && c->dir == DIR_STORE) {
                /* rotate hand T: t#1 names the next ring slot */
                LinxTileMeta m = linx_tile_get(b->ts, 0)->meta;
                linx_tile_push_commit(b->ts, LINX_HAND_T, &m);
            }
            break;
        case V_NAIVE: {
            NaiveArgs na = { b->ngm + off, b->ntiles[t], sh->rows, sh->cols,
                             c->ld_bytes / sh->esize };
            naive_fns[linx_dtype_info(sh->dtype)->size_log2][c->lay][c->dir](&na);
            break;
        }
        case V_BEST0:
        case V_BEST1: {
            NativeFn volatile fn = c->best[v - V_BEST0];
            fn(b->ngm + off, b->ntiles[t], c->ld_bytes);
            break;
        }
        default: /* memcpy of the same bytes, contiguous */
            if (c->dir == DIR_STORE) {
                vmemcpy(b->ngm + (size_t)blk * TILE_BYTES % (BIG * BIG * 4 - TILE_BYTES),
                        b->ntiles[t], TILE_BYTES);
            } else {
                vmemcpy(b->ntiles[t], b->ngm + (size_t)blk * TILE_BYTES % (BIG * BIG * 4 -
                                                                           TILE_BYTES),
                        TILE_BYTES);
            }
            break;
        }
        if (c->regime == REG_LARGE) {
            blk = blk + 1 == c->nblocks ? 0 : blk + 1;
            t = t + 1 == c->ntiles ? 0 : t + 1;
        }
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return a < b ? -1 : a > b;
}

static bool variant_present(const Case *c, unsigned v)
{
    if (v == V_BEST0 || v == V_BEST1) {
        return c->best[v - V_BEST0] != NULL;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Correctness before timing                                           */
/* ------------------------------------------------------------------ */

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (uint8_t)(seed >> 16);
    }
}

/* One call of every variant on block 1 (or 0) must leave the same GM
 * (stores) or tile (loads) bytes as the reference. */
static void check_case(Bench *b, Case *c)
{
    size_t gm_bytes = (size_t)BIG * BIG * 4;
    uint8_t *want = malloc(gm_bytes), *got = malloc(gm_bytes);
    unsigned blk = c->regime == REG_LARGE ? 1 : 0;
    size_t off = block_offset(c, blk);
    const LinxTileSlot *t1 = linx_tile_get(b->ts, 0);
    TmaRuntimeArgs a;
    TmaFault f;

    memset(&a, 0, sizeof(a));
    a.stride = c->ld_bytes;
    a.base = RAM_BASE + GM_OFFSET + off;
    a.lb[0] = b->gpr[A2] = c->sh->cols;
    a.lb[1] = c->sh->rows;
    a.lb[2] = c->sh->cols;
    for (unsigned v = 0; v < V__COUNT; v++) {
        if (!variant_present(c, v) || v == V_MEMCPY) {
            continue;
        }
        /* Same inputs everywhere: tile 0 of the register file = native tile 0. */
        fill(b->ngm, gm_bytes, 7);
        if (guest_mem_write(b->gm, RAM_BASE + GM_OFFSET, b->ngm, gm_bytes, NULL) != GM_OK) {
            fprintf(stderr, "bench-tile: GM setup failed\n");
            exit(1);
        }
        memcpy(b->ntiles[0], t1->data, TILE_BYTES);
        if (v <= V_REF) {
            if (!tma_exec(b->ts, b->gm, c->plans[v][0], &a, &f)) {
                fprintf(stderr, "bench-tile: %s\n", tma_rule_name(f.rule));
                exit(1);
            }
            if (c->dir == DIR_STORE) {
                guest_mem_read(b->gm, RAM_BASE + GM_OFFSET, got, gm_bytes, GM_PROT_READ, NULL);
            } else {
                memcpy(got, linx_tile_get(b->ts, 0)->data, TILE_BYTES);
            }
        } else {
            NaiveArgs na = { b->ngm + off, b->ntiles[0], c->sh->rows, c->sh->cols,
                             c->ld_bytes / c->sh->esize };
            if (v == V_NAIVE) {
                naive_fns[linx_dtype_info(c->sh->dtype)->size_log2][c->lay][c->dir](&na);
            } else {
                c->best[v - V_BEST0](b->ngm + off, b->ntiles[0], c->ld_bytes);
            }
            memcpy(got, c->dir == DIR_STORE ? b->ngm : b->ntiles[0],
                   c->dir == DIR_STORE ? gm_bytes : TILE_BYTES);
        }
        if (v == V_EMU) {
            memcpy(want, got, gm_bytes);
        } else if (memcmp(want, got, c->dir == DIR_STORE ? gm_bytes : TILE_BYTES) != 0) {
            fprintf(stderr, "bench-tile: %s disagrees with emu for %s %s\n", vnames[v],
                    c->sh->name, c->dir == DIR_STORE ? lay_store_name[c->lay]
                                                     : lay_load_name[c->lay]);
            exit(1);
        }
        /* Keep t#1 the same tile for the next variant (loads push). */
        if (c->dir == DIR_LOAD && v <= V_REF) {
            LinxTileSlot *s = linx_tile_get(b->ts, 0);
            memcpy(s->data, b->ntiles[0], TILE_BYTES);
        }
    }
    free(want);
    free(got);
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

static void setup_tiles(Bench *b, const Case *c)
{
    static const uint8_t tl[LAY__COUNT] = { LINX_TL_ND, LINX_TL_NZ, LINX_TL_ZN };
    LinxTileMeta m = { TILE_BYTES, (uint8_t)c->sh->dtype, tl[c->lay], (uint16_t)c->sh->rows,
                       (uint16_t)c->sh->cols, (uint16_t)c->sh->rows, (uint16_t)c->sh->cols };

    linx_tile_state_reset(b->ts);
    for (unsigned h = 0; h < LINX_TILE_HANDS; h++) {
        for (unsigned k = 0; k < LINX_TILE_DEPTH; k++) {
            LinxTileSlot *s = linx_tile_push_slot(b->ts, (LinxTileHand)h);
            fill(s->data, TILE_BYTES, h * 8 + k + 1);
            linx_tile_push_commit(b->ts, (LinxTileHand)h, &m);
        }
    }
    for (unsigned k = 0; k < NSTORE_TILES; k++) {
        fill(b->ntiles[k], TILE_BYTES, 100 + k);
    }
}

typedef struct Result {
    double gbps[V__COUNT];
    const char *best_name;
    double best;
} Result;

static void measure(Bench *b, Case *c, double trun, Result *r)
{
    long iters[V__COUNT] = { 0 };
    double g[V__COUNT][ROUNDS];

    for (unsigned v = 0; v < V__COUNT; v++) {
        long it = 1;
        double t;

        if (!variant_present(c, v)) {
            continue;
        }
        for (;;) {
            double t0 = now();
            run_variant(b, c, v, it);
            t = now() - t0;
            if (t > trun / 20 || it > (1L << 40)) {
                break;
            }
            it *= 4;
        }
        iters[v] = (long)((double)it * trun / t) + 1;
    }
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (unsigned v = 0; v < V__COUNT; v++) {
            double t0;

            if (!iters[v]) {
                continue;
            }
            t0 = now();
            run_variant(b, c, v, iters[v]);
            g[v][round] = (double)iters[v] * TILE_BYTES / (now() - t0) / 1e9;
        }
    }
    r->best = 0;
    r->best_name = "-";
    for (unsigned v = 0; v < V__COUNT; v++) {
        if (!iters[v]) {
            r->gbps[v] = 0;
            continue;
        }
        qsort(g[v], ROUNDS, sizeof(double), cmp_double);
        r->gbps[v] = g[v][ROUNDS / 2];
        if ((v == V_BEST0 || v == V_BEST1) && r->gbps[v] > r->best) {
            r->best = r->gbps[v];
            r->best_name = c->best_name[v - V_BEST0];
        }
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: bench-tile [-t seconds-per-run] [-c cpu] [-q]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    double trun = 0.03;
    int cpu = -1;
    bool quick = false;
    Bench b;
    size_t gm_bytes = (size_t)BIG * BIG * 4;
    unsigned goals = 0, met = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            trun = atof(argv[++i]);
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
            cpu = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-q")) {
            quick = true;
        } else {
            usage();
        }
    }
    if (trun <= 0) {
        usage();
    }
    if (cpu >= 0) {
        cpu_set_t cs;
        CPU_ZERO(&cs);
        CPU_SET(cpu, &cs);
        if (sched_setaffinity(0, sizeof(cs), &cs) != 0) {
            perror("bench-tile: sched_setaffinity");
        }
    }
    memset(&b, 0, sizeof(b));
    b.storage = aligned_alloc(4096, gm_bytes + 4096 + (size_t)NSTORE_TILES * 8192);
    b.ngm = b.storage + GM_OFFSET;
    for (unsigned k = 0; k < NSTORE_TILES; k++) {
        /* tiles 1 KB off a page, like the register file's slots */
        b.ntiles[k] = b.storage + gm_bytes + 4096 + (size_t)k * 8192 + 1024;
    }
    b.gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    b.ts = linx_tile_state_new();
    /* Guest RAM is one 4 MB mapping, like a heap, not a tight fit around
     * the matrix (the GM window cache keeps 2 MB-aligned blocks). */
    if (!b.storage || !b.gm || !b.ts ||
        !guest_mem_map(b.gm, RAM_BASE, GUEST_RAM_BYTES, GM_PROT_READ | GM_PROT_WRITE, false)) {
        fprintf(stderr, "bench-tile: setup failed\n");
        return 1;
    }
    printf("# bench tile: avx2=%d, %.3f s per run, %d interleaved rounds (median)\n",
           tma_host_has_avx2(), trun, ROUNDS);
    printf("# GB/s of tile bytes; emu = tma_exec with a prepared plan incl. the guest-memory "
           "window check\n");
    printf("%-6s %-9s %-6s %-5s | %7s %7s %6s %6s %6s %7s %7s | %8s %9s %10s %7s | %s\n", "op",
           "shape", "layout", "set", "emu", "ns/call", "dyn", "ref", "naive", "best", "memcpy",
           "emu/best", "emu/naive", "emu/memcpy", "emu/ref", "best kernel");
    for (unsigned dir = DIR_STORE; dir <= DIR_LOAD; dir++) {
        for (unsigned si = 0; si < NSHAPES; si++) {
            for (unsigned lay = 0; lay < LAY__COUNT; lay++) {
                for (unsigned reg = REG_HOT; reg <= REG_LARGE; reg++) {
                    Case c;
                    Result r;
                    double emu, ns;

                    if (quick && si != 0) {
                        continue;
                    }
                    memset(&c, 0, sizeof(c));
                    c.sh = &shapes[si];
                    c.lay = lay;
                    c.dir = dir;
                    c.regime = reg;
                    c.ld_bytes = (size_t)(reg == REG_HOT ? c.sh->cols : BIG) * c.sh->esize;
                    c.nblocks = reg == REG_HOT ? 1 : (BIG / c.sh->rows) * (BIG / c.sh->cols);
                    c.ntiles = reg == REG_HOT ? 1 : NLOAD_TILES;
#ifdef BENCH_AVX2
                    if (tma_host_has_avx2()) {
                        for (unsigned k = 0; k < MAX_BEST; k++) {
                            c.best[k] = best_sets[si].fn[lay][dir][k];
                            c.best_name[k] = best_sets[si].name[lay][dir][k];
                        }
                    }
#endif
                    c.plans[V_EMU][0] = make_plan(&c, 0, false, false);
                    c.plans[V_EMU_DYN][0] = make_plan(&c, 0, true, false);
                    c.plans[V_REF][0] = make_plan(&c, 0, false, true);
                    setup_tiles(&b, &c);
                    check_case(&b, &c);
                    setup_tiles(&b, &c);
                    measure(&b, &c, trun, &r);
                    emu = r.gbps[V_EMU];
                    ns = TILE_BYTES / emu;
                    printf("%-6s %-9s %-6s %-5s | %7.1f %7.1f %6.1f %6.2f %6.2f %7.1f %7.1f | "
                           "%8.2f %9.1f %10.2f %7.1f | %s, emu kernel %s\n",
                           dir == DIR_STORE ? "TSTORE" : "TLOAD", c.sh->name,
                           dir == DIR_STORE ? lay_store_name[lay] : lay_load_name[lay],
                           reg == REG_HOT ? "hot" : "large", emu, ns, r.gbps[V_EMU_DYN],
                           r.gbps[V_REF], r.gbps[V_NAIVE], r.best, r.gbps[V_MEMCPY],
                           r.best > 0 ? emu / r.best : 0, emu / r.gbps[V_NAIVE],
                           emu / r.gbps[V_MEMCPY], emu / r.gbps[V_REF], r.best_name,
                           c.plans[V_EMU][0]->kernel_name);
                    /* Goals (docs/tile.md): hot 4 KB TSTORE >= 0.5 x best,
                     * >= 17 x naive, <= 50 ns; large >= 0.8 x best. */
                    if (r.best > 0 && dir == DIR_STORE && reg == REG_HOT) {
                        bool ok = emu >= 0.5 * r.best && emu >= 17 * r.gbps[V_NAIVE] && ns <= 50;
                        goals++;
                        met += ok;
                        if (!ok) {
                            printf("  goal missed: hot TSTORE wants emu/best >= 0.5, "
                                   "emu/naive >= 17, <= 50 ns\n");
                        }
                    }
                    if (r.best > 0 && reg == REG_LARGE) {
                        bool ok = emu >= 0.8 * r.best;
                        goals++;
                        met += ok;
                        if (!ok) {
                            printf("  goal missed: large wants emu/best >= 0.8\n");
                        }
                    }
                    for (unsigned v = 0; v < V__COUNT; v++) {
                        for (unsigned t = 0; t < NSTORE_TILES; t++) {
                            free(c.plans[v][t]);
                        }
                    }
                }
            }
        }
    }
    printf("# goals met: %u of %u\n", met, goals);
    guest_mem_free(b.gm);
    linx_tile_state_free(b.ts);
    free(b.storage);
    return 0;
}
