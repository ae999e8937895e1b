/*
 * TLOADs and TSTOREs the JIT emits inline (tcg/tile-move.h,
 * target/linx/tma-jit.c): guest programs assembled by linx-as run a loop
 * block pair - TLOAD a tile from a dense source, TSTORE it - twice: the
 * first time the helper fills its window caches, the second time the TB's
 * inline code moves the tiles (the helper's call counter must not move:
 * the inline paths ran).  The
 * guest memory each run leaves is checked byte by byte against the oracle
 * that follows from the semantics alone (shared/docs/tile-semantics.md
 * 2.1): a tile loaded from rows of COLS elements and stored with window
 * VR x VC at pitch P puts source element (r, c) at DST + (r * P + c) *
 * esize for r < VR, c < VC, and changes no other byte - whatever the tile
 * layout in between (NORM, NZ2ND or ZN2ND).  Every case also runs under
 * the interpreter (the JIT's oracle, the precompiled kernels), with the
 * same expectations, and
 * both must leave the same tile registers (shape, bytes, push order).
 * Cases: FP64/FP32/FP16/INT8, NORM, NZ2ND and ZN2ND (inline for
 * FP16/32/64 in whole c0 x c0 blocks), tile sizes 4 KB to 512 B,
 * full and partial windows, dense and strided rows, footprints crossing
 * pages; plus a footprint that runs into an unmapped page after the inline
 * path is warm (a precise page fault, nothing written), an MMIO
 * destination (the slow path, byte-exact device writes), a TSTORE over a
 * translated block (self-modifying code: the new block runs) and an INT8
 * ZN2ND store (not inlined, still right).  Under LINX_TILE_INLINE=0 or
 * LINX_VEC_ISA=avx2 the same checks hold (the warm-run expectation
 * follows).
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
#include "target/linx/exec-target.h"
#include "target/linx/tma-translate.h"
#include "tcg/exec.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA_BASE UINT64_C(0x100000)
#define DATA_SIZE UINT64_C(0x40000)
#define SRC (DATA_BASE + 0x800)
#define AREA_BASE (DATA_BASE + 0x10000) /* DST lies in [AREA_BASE, + AREA) */
#define AREA 0x20000u
#define MMIO_BASE UINT64_C(0x200000)
#define MMIO_SIZE UINT64_C(0x10000)
#define SENTINEL 0xee
#define PROG_MAX 4096
#define TRAPNUM(env) ((unsigned)((env)->trapno & 0xffffff))
#define REG_S1 12

typedef struct Case {
    const char *dtype;
    unsigned es;
    bool nz;            /* NZ2ND (else NORM) */
    unsigned bytes;     /* tile size */
    unsigned cols;      /* tile columns (rows = bytes / (cols * es)) */
    unsigned vr, vc;    /* window */
    unsigned pitch;     /* elements between GM rows; 0 = no stride register */
    uint64_t dst;
    bool zn;            /* ND2ZN / ZN2ND (nz false) */
} Case;

typedef struct Run {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    uint64_t loop;
} Run;

static uint8_t src_byte(size_t i)
{
    return (uint8_t)(i * 131 + 7 + (i >> 8));
}

static const char *size_name(unsigned bytes)
{
    return bytes == 4096 ? "4KB" : bytes == 2048 ? "2KB" : bytes == 1024 ? "1KB" : "512B";
}

/* @arg: the B.ARG of both blocks (NULL: NORM or ND2NZ as @c says). */
static void make_prog(char *p, size_t n, const Case *c, const char *arg)
{
    unsigned rows = c->bytes / (c->cols * c->es);
    const char *load_arg = arg ? arg : c->zn ? "ND2ZN" : c->nz ? "ND2NZ" : "NORM";

    snprintf(p, n,
             "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n"
             "    hl.lis %llu, ->s0\n    hl.lis %llu, ->s1\n    hl.lis %u, ->s3\n"
             "    BSTART.TMA TLOAD, %s\n    B.ARG %s\n    B.DIM zero, %u, ->lb0\n"
             "    B.DIM zero, %u, ->lb1\n    B.DIM zero, %u, ->lb2\n    B.IOR [s0],[]\n"
             "    B.IOTI [], last ->t<%s>\n    C.BSTART.STD FALL\n    ebreak 0\n"
             "loop:\n"
             "    BSTART.TMA TLOAD, %s\n    B.ARG %s\n    B.DIM zero, %u, ->lb0\n"
             "    B.DIM zero, %u, ->lb1\n    B.DIM zero, %u, ->lb2\n    B.IOR [s0],[]\n"
             "    B.IOTI [], last ->t<%s>\n"
             "    BSTART.TMA TSTORE, %s\n    B.ARG %s\n    B.DIM zero, %u, ->lb0\n"
             "    B.DIM zero, %u, ->lb1\n    B.DIM zero, %u, ->lb2\n    B.IOR %s,[]\n"
             "    B.IOTI [t#1], last ->t<%s>\n    C.BSTART.STD FALL\n    ebreak 0\n",
             (unsigned long long)SRC, (unsigned long long)c->dst, c->pitch * c->es, c->dtype,
             load_arg, c->cols, rows, c->cols, size_name(c->bytes), c->dtype, load_arg, c->cols,
             rows, c->cols, size_name(c->bytes), c->dtype, load_arg, c->vc, c->vr, c->cols,
             c->pitch ? "[s3, s1]" : "[s1]", size_name(c->bytes));
}

/* Byte-wise MMIO device: stores land in @opaque's buffer. */
static bool mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *v)
{
    *v = 0;
    memcpy(v, (uint8_t *)opaque + off, size);
    return true;
}

static bool mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t v)
{
    memcpy((uint8_t *)opaque + off, &v, size);
    return true;
}

static const GuestMMIOOps mmio_ops = { mmio_read, mmio_write };

static void fill_area(Run *r)
{
    static uint8_t buf[AREA];

    memset(buf, SENTINEL, sizeof(buf));
    assert_int_equal(guest_mem_write(r->gm, AREA_BASE, buf, sizeof(buf), NULL), GM_OK);
}

/* Assemble @prog, map memory (SRC: @src, or the src_byte pattern when
 * NULL) and run it to its first ebreak (the TLOAD). */
static void run_start_src(Run *r, const char *prog, LinxAccel accel, uint8_t *mmio_buf,
                          const uint8_t *src, size_t src_len)
{
    static uint8_t buf[0x4000];
    LinxAsOptions ao;
    LinxAs *as;
    uint8_t *img = NULL;
    size_t img_len = 0;
    LinxExecOptions eo;
    char err[256];

    memset(r, 0, sizeof(*r));
    linx_as_default_options(&ao);
    ao.base = CODE_BASE;
    ao.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&ao);
    linx_as_add_source(as, "prog.s", prog, strlen(prog));
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &img_len) ||
        !linx_as_symbol_value(as, "loop", &r->loop)) {
        fail_msg("assembly failed:\n%s\n%s", linx_as_diagnostics(as), prog);
    }
    linx_as_free(as);
    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_non_null(r->gm);
    assert_true(guest_mem_map(r->gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false));
    assert_true(guest_mem_map(r->gm, DATA_BASE, DATA_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    if (mmio_buf) {
        memset(mmio_buf, SENTINEL, MMIO_SIZE);
        assert_true(guest_mem_map_mmio(r->gm, MMIO_BASE, MMIO_SIZE, &mmio_ops, mmio_buf));
    }
    assert_int_equal(guest_mem_write(r->gm, CODE_BASE, img, img_len, NULL), GM_OK);
    free(img);
    for (size_t i = 0; i < sizeof(buf); i++) {
        buf[i] = src_byte(i);
    }
    assert_int_equal(guest_mem_write(r->gm, SRC, buf, sizeof(buf), NULL), GM_OK);
    if (src) {
        assert_int_equal(guest_mem_write(r->gm, SRC, src, src_len, NULL), GM_OK);
    }
    fill_area(r);
    linx_exec_options_init(&eo);
    eo.accel = accel;
    eo.trace_commit_path = NULL;
    r->ec = linx_exec_new(&eo, err, sizeof(err));
    assert_non_null(r->ec);
    r->env = calloc(1, sizeof(*r->env));
    assert_non_null(r->env);
    r->env->engine.mem = r->gm;
    r->env->tiles = linx_tile_state_new();
    linx_cpu_reset(r->env, CODE_BASE, 0);
    linx_exec_attach_cpu(r->ec, r->env);
    /* _start: the TLOAD, then the first ebreak. */
    assert_int_equal(cpu_exec(r->env), EXCP_TRAP);
    assert_int_equal(TRAPNUM(r->env), LINX_TRAP_SW_BREAKPOINT);
}

static void run_start(Run *r, const char *prog, LinxAccel accel, uint8_t *mmio_buf)
{
    run_start_src(r, prog, accel, mmio_buf, NULL, 0);
}

/* Run the TSTORE block from "loop" to its ebreak (or a trap). */
static int run_loop(Run *r)
{
    r->env->pc = r->loop;
    r->env->resume = 0;
    return cpu_exec(r->env);
}

static void run_end(Run *r)
{
    linx_exec_free(r->ec);
    linx_tile_state_free(r->env->tiles);
    free(r->env);
    guest_mem_free(r->gm);
}

/* DST as the oracle says: source element (r, c) of the dense rows of
 * @cols at DST + (r * pitch + c) * es inside the window, SENTINEL around. */
static void check_dst(const Case *c, const uint8_t *got, uint64_t got_base, size_t got_len,
                      const char *what)
{
    size_t pitch = (c->pitch ? c->pitch : c->vc) * (size_t)c->es;

    for (size_t k = 0; k < got_len; k++) {
        uint64_t a = got_base + k;
        uint8_t want = SENTINEL;

        if (a >= c->dst) {
            size_t off = (size_t)(a - c->dst), r = off / pitch, in = off % pitch;

            if (r < c->vr && in < (size_t)c->vc * c->es) {
                size_t e = in / c->es, b = in % c->es;

                want = src_byte((r * c->cols + e) * c->es + b);
            }
        }
        if (got[k] != want) {
            fail_msg("%s: %s %s %uB cols %u window %ux%u pitch %u dst 0x%llx: byte at 0x%llx "
                     "is 0x%02x, want 0x%02x",
                     what, c->dtype, c->zn ? "ZN2ND" : c->nz ? "NZ2ND" : "NORM", c->bytes,
                     c->cols, c->vr, c->vc, c->pitch, (unsigned long long)c->dst,
                     (unsigned long long)a, got[k], want);
        }
    }
}

static void check_area(Run *r, const Case *c, const char *what)
{
    static uint8_t got[AREA];

    assert_int_equal(guest_mem_read(r->gm, AREA_BASE, got, sizeof(got), GM_PROT_READ, NULL),
                     GM_OK);
    check_dst(c, got, AREA_BASE, sizeof(got), what);
}

/* The tile registers two runs left must agree: every visible tile's
 * tracked shape and bytes, and the push count. */
static void check_same_tiles(const Run *a, const Run *b)
{
    assert_int_equal(a->env->tiles->pushes, b->env->tiles->pushes);
    for (unsigned id = 0; id < LINX_TILE_COUNT; id++) {
        const LinxTileSlot *x = linx_tile_get(a->env->tiles, id);
        const LinxTileSlot *y = linx_tile_get(b->env->tiles, id);

        assert_int_equal(x->meta.bytes, y->meta.bytes);
        assert_int_equal(x->meta.dtype, y->meta.dtype);
        assert_int_equal(x->meta.layout, y->meta.layout);
        assert_int_equal(x->meta.rows, y->meta.rows);
        assert_int_equal(x->meta.cols, y->meta.cols);
        assert_int_equal(x->meta.valid_rows, y->meta.valid_rows);
        assert_int_equal(x->meta.valid_cols, y->meta.valid_cols);
        assert_memory_equal(x->data, y->data, x->meta.bytes);
    }
}

/* One case under the JIT and the interpreter: the loop block (a TLOAD of
 * the source, the TSTORE) runs cold (the helper fills its window caches),
 * then warm with DST cleared (inline under the JIT: the helper's call
 * counter moves by @jit_warm_calls, 0 when both are inline); both leave
 * the oracle's DST and the same tiles. */
static void run_case(const Case *c, unsigned jit_warm_calls)
{
    static const LinxAccel accels[2] = { LINX_ACCEL_JIT, LINX_ACCEL_INTERP };
    static char prog[PROG_MAX];
    Run r[2];

    make_prog(prog, sizeof(prog), c, NULL);
    for (unsigned a = 0; a < 2; a++) {
        bool jit = accels[a] == LINX_ACCEL_JIT;
        uint64_t calls;

        run_start(&r[a], prog, accels[a], NULL);
        assert_int_equal(run_loop(&r[a]), EXCP_TRAP);
        assert_int_equal(TRAPNUM(r[a].env), LINX_TRAP_SW_BREAKPOINT);
        check_area(&r[a], c, jit ? "jit, first run" : "interp, first run");
        fill_area(&r[a]);
        calls = r[a].env->tiles->helper_moves;
        assert_int_equal(run_loop(&r[a]), EXCP_TRAP);
        assert_int_equal(TRAPNUM(r[a].env), LINX_TRAP_SW_BREAKPOINT);
        check_area(&r[a], c, jit ? "jit, warm run" : "interp, warm run");
        if (jit) {
            assert_true(linx_exec_tile_moves(r[a].ec) >= 2 - jit_warm_calls);
            /* the warm run took the inline paths (TLOAD and TSTORE) */
            if (r[a].env->tiles->helper_moves != calls + jit_warm_calls) {
                fail_msg("%s %s %uB cols %u window %ux%u pitch %u: warm run called the helper "
                         "%llu times, want %u",
                         c->dtype, c->zn ? "ZN" : c->nz ? "NZ" : "ND", c->bytes, c->cols, c->vr,
                         c->vc, c->pitch,
                         (unsigned long long)(r[a].env->tiles->helper_moves - calls),
                         jit_warm_calls);
            }
        } else {
            assert_int_equal(r[a].env->tiles->helper_moves, calls + 2);
        }
    }
    check_same_tiles(&r[0], &r[1]);
    run_end(&r[0]);
    run_end(&r[1]);
}

static bool host_inlines(void)
{
    const char *v = getenv("LINX_TILE_INLINE"), *isa = getenv("LINX_VEC_ISA");

    return __builtin_cpu_supports("avx2") && !(v && strcmp(v, "0") == 0) &&
           !(isa && strcmp(isa, "none") == 0) &&
           !getenv("LINX_TMA_REFERENCE") && !getenv("LINX_TMA_PORTABLE");
}

/* ZN blocks the backend transposes inline (tcg/x86_64/tile-move.c):
 * FP16/FP32/FP64, whole c0 x c0 blocks. */
static bool zn_inline_es(unsigned es)
{
    return es == 2 || es == 4 || es == 8;
}

static const struct {
    const char *name;
    unsigned es;
} dtypes[] = { { "FP64", 8 }, { "FP32", 4 }, { "FP16", 2 }, { "INT8", 1 } };

static void test_shapes(void **state)
{
    static const unsigned sizes[] = { 4096, 2048, 1024, 512 };
    unsigned ncases = 0;

    (void)state;
    for (unsigned d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++) {
        unsigned es = dtypes[d].es, c0 = 32 / es;

        for (unsigned lay = 0; lay < 3; lay++) {
            bool nz = lay == 1, zn = lay == 2;

            for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
                /* tile columns: a multiple of c0 for NZ (16-row fractals),
                 * of 16 for ZN (whose rows are a multiple of c0) */
                unsigned cols_opts[4] = { c0, 2 * c0, sizes[s] / (16 * es), 16 };

                for (unsigned k = 0; k < 4; k++) {
                    unsigned cols = cols_opts[k], rows = sizes[s] / (cols * es);

                    if (rows == 0 || (nz && rows % 16) || cols * es * rows != sizes[s] ||
                        (zn && (cols % 16 || rows % c0)) || (k == 3 && !zn) ||
                        (k == 3 && (cols == c0 || cols == 2 * c0 ||
                                    cols == sizes[s] / (16 * es)))) {
                        continue;
                    }
                    for (unsigned w = 0; w < (zn ? 6u : 4u); w++) {
                        /* full, partial rows/cols (tails inside a fractal);
                         * ZN also whole blocks fewer (w 4, 5) */
                        unsigned vr = w == 0 || w == 2 ? rows : (rows > 3 ? rows - 3 : 1);
                        unsigned vc = w < 2 ? cols : (cols > 1 ? cols - 1 : 1);
                        unsigned pitch = (w & 1) ? cols + 3 + 5 * w : 0;
                        /* dense from a page boundary minus 200 bytes, or
                         * strided from 8 bytes past a page */
                        uint64_t dst;
                        Case c;
                        unsigned warm;

                        if (w == 4) {
                            vr = rows > c0 ? rows - c0 : rows;
                            vc = cols;
                        } else if (w == 5) {
                            vr = rows;
                            vc = cols > c0 ? cols - c0 : cols;
                        }
                        dst = AREA_BASE + 0x3000 + (pitch ? 8 : 0x1000 - 200);
                        c = (Case){ dtypes[d].name, es, nz, sizes[s], cols,
                                    vr, vc, pitch, dst, zn };
                        if (!host_inlines()) {
                            warm = 2;
                        } else if (!zn) {
                            warm = 0;
                        } else if (!zn_inline_es(es)) {
                            warm = 2;
                        } else {
                            /* the TLOAD is whole blocks; the TSTORE when
                             * its window is */
                            warm = vr % c0 || vc % c0 ? 1 : 0;
                        }
                        run_case(&c, warm);
                        ncases++;
                    }
                }
            }
        }
    }
    assert_true(ncases >= 150);
}

/* An INT8 ZN2ND store is not inlined (32 x 32 byte transposes stay in the
 * kernels) and the tile round trip still holds. */
static void test_zn_not_inlined(void **state)
{
    Case c = { "INT8", 1, false, 4096, 64, 64, 60, 70, AREA_BASE + 0x2000, true };
    static char prog[PROG_MAX];
    Run r;

    (void)state;
    /* loaded ND2ZN and stored ZN2ND: the same oracle */
    make_prog(prog, sizeof(prog), &c, "ND2ZN");
    run_start(&r, prog, LINX_ACCEL_JIT, NULL);
    assert_int_equal(run_loop(&r), EXCP_TRAP);
    fill_area(&r);
    assert_int_equal(run_loop(&r), EXCP_TRAP);
    assert_int_equal(TRAPNUM(r.env), LINX_TRAP_SW_BREAKPOINT);
    check_area(&r, &c, "jit ZN2ND");
    assert_int_equal(linx_exec_tile_moves(r.ec), 0);
    run_end(&r);
}

/* Warm the inline path, then move the footprint so that it runs into the
 * unmapped page after DATA: a page fault at the first unmapped byte, with
 * nothing written (the helper validates the whole footprint first). */
static void test_fault_after_warm(void **state)
{
    static const Case cases[] = {
        { "FP32", 4, true, 4096, 32, 32, 32, 0, AREA_BASE + 0x800, false },
        { "FP32", 4, false, 4096, 32, 32, 32, 0, AREA_BASE + 0x800, true },
        { "FP16", 2, false, 4096, 64, 32, 64, 0, AREA_BASE + 0x800, true },
    };
    static char prog[PROG_MAX];
    static const uint8_t sentinel_page[2048] = { [0 ... 2047] = SENTINEL };
    uint8_t tail[2048];
    LinxAccel accels[2] = { LINX_ACCEL_JIT, LINX_ACCEL_INTERP };

    (void)state;
    for (unsigned a = 0; a < 2 * 3; a++) {
        const Case c = cases[a / 2];
        uint64_t bad = DATA_BASE + DATA_SIZE - sizeof(tail);
        Run r;

        make_prog(prog, sizeof(prog), &c, NULL);
        run_start(&r, prog, accels[a % 2], NULL);
        assert_int_equal(run_loop(&r), EXCP_TRAP);
        assert_int_equal(run_loop(&r), EXCP_TRAP); /* warm: inline under the JIT */
        assert_int_equal(TRAPNUM(r.env), LINX_TRAP_SW_BREAKPOINT);
        if (accels[a % 2] == LINX_ACCEL_JIT && host_inlines()) {
            assert_true(linx_exec_tile_moves(r.ec) >= 2);
        }
        assert_int_equal(guest_mem_write(r.gm, bad, sentinel_page, sizeof(tail), NULL), GM_OK);
        r.env->gpr[REG_S1] = bad;
        assert_int_equal(run_loop(&r), EXCP_TRAP);
        assert_int_equal(TRAPNUM(r.env), LINX_TRAP_DATA_PAGE_FAULT);
        assert_int_equal(r.env->traparg0, DATA_BASE + DATA_SIZE);
        assert_int_equal(guest_mem_read(r.gm, bad, tail, sizeof(tail), GM_PROT_READ, NULL),
                         GM_OK);
        assert_memory_equal(tail, sentinel_page, sizeof(tail));
        /* and back in range: the same TB stores again */
        r.env->gpr[REG_S1] = c.dst;
        fill_area(&r);
        assert_int_equal(run_loop(&r), EXCP_TRAP);
        assert_int_equal(TRAPNUM(r.env), LINX_TRAP_SW_BREAKPOINT);
        check_area(&r, &c, "after the fault");
        run_end(&r);
    }
}

/* An MMIO destination never hits the window cache: the helper writes the
 * device, every time, with the same bytes as RAM gets. */
static void mmio_case(const Case *cp);

static void test_mmio_destination(void **state)
{
    static const Case cases[] = {
        { "FP16", 2, true, 4096, 32, 60, 30, 40, MMIO_BASE + 0x100, false },
        { "FP16", 2, false, 4096, 64, 32, 64, 70, MMIO_BASE + 0x100, true },
        { "FP32", 4, false, 4096, 32, 32, 32, 0, MMIO_BASE + 0x100, true },
    };
    (void)state;
    for (unsigned k = 0; k < 3; k++) {
        mmio_case(&cases[k]);
    }
}

static void mmio_case(const Case *cp)
{
    const Case c = *cp;
    static char prog[PROG_MAX];
    static uint8_t dev[MMIO_SIZE];
    Run r;

    make_prog(prog, sizeof(prog), &c, NULL);
    run_start(&r, prog, LINX_ACCEL_JIT, dev);
    assert_int_equal(run_loop(&r), EXCP_TRAP); /* warms the TLOAD */
    for (unsigned i = 0; i < 3; i++) {
        uint64_t calls = r.env->tiles->helper_moves;

        memset(dev, SENTINEL, sizeof(dev));
        assert_int_equal(run_loop(&r), EXCP_TRAP);
        assert_int_equal(TRAPNUM(r.env), LINX_TRAP_SW_BREAKPOINT);
        /* the store always calls; the load only when not inlined */
        assert_int_equal(r.env->tiles->helper_moves, calls + (host_inlines() ? 1 : 2));
        check_dst(&c, dev, MMIO_BASE, sizeof(dev), "mmio");
    }
    run_end(&r);
}

/* Self-modifying code: a TSTORE over a translated block (the page is
 * code: the inline path never writes it, the helper invalidates the
 * block), then the block runs the new instructions.  The tile holds the
 * bytes of the same program assembled with the other constant. */
#define PATCH_OFF 0x2000u
#define PATCH_BYTES 512u
#define REG_A0 2

static void smc_prog(char *p, size_t n, unsigned value)
{
    snprintf(p, n,
             "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\n"
             "    hl.lis %llu, ->s0\n    hl.lis %llu, ->s1\n"
             "    BSTART.TMA TLOAD, INT8\n    B.ARG NORM\n    B.DIM zero, 32, ->lb0\n"
             "    B.DIM zero, 16, ->lb1\n    B.DIM zero, 32, ->lb2\n    B.IOR [s0],[]\n"
             "    B.IOTI [], last ->t<512B>\n    C.BSTART.STD FALL\n    ebreak 0\n"
             "loop:\n"
             "    BSTART.TMA TSTORE, INT8\n    B.ARG NORM\n    B.DIM zero, 32, ->lb0\n"
             "    B.DIM zero, 16, ->lb1\n    B.DIM zero, 32, ->lb2\n    B.IOR [s1],[]\n"
             "    B.IOTI [t#1], last ->t<512B>\n    C.BSTART.STD FALL\n    ebreak 0\n"
             "    .org 0x%x\npatch:\n    C.BSTART.STD FALL\n    addi zero, %u, ->a0\n"
             "    C.BSTART.STD FALL\n    ebreak 0\n    .org 0x%x\n",
             (unsigned long long)SRC, (unsigned long long)(CODE_BASE + PATCH_OFF), PATCH_OFF,
             value, PATCH_OFF + PATCH_BYTES);
}

static uint64_t run_patch(Run *r)
{
    r->env->pc = CODE_BASE + PATCH_OFF;
    r->env->resume = 0;
    assert_int_equal(cpu_exec(r->env), EXCP_TRAP);
    assert_int_equal(TRAPNUM(r->env), LINX_TRAP_SW_BREAKPOINT);
    return r->env->gpr[REG_A0];
}

static void test_code_page(void **state)
{
    static char prog_a[PROG_MAX], prog_b[PROG_MAX];
    LinxAccel accels[2] = { LINX_ACCEL_JIT, LINX_ACCEL_INTERP };
    uint8_t a_bytes[PATCH_BYTES], *img = NULL;
    size_t img_len = 0;
    LinxAsOptions ao;
    LinxAs *as;

    (void)state;
    smc_prog(prog_a, sizeof(prog_a), 1);
    smc_prog(prog_b, sizeof(prog_b), 2);
    linx_as_default_options(&ao);
    ao.base = CODE_BASE;
    ao.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&ao);
    linx_as_add_source(as, "b.s", prog_b, strlen(prog_b));
    assert_true(linx_as_assemble(as) && linx_as_output(as, &img, &img_len));
    linx_as_free(as);
    assert_true(img_len >= PATCH_OFF + PATCH_BYTES);
    for (unsigned a = 0; a < 2; a++) {
        Run r;

        run_start_src(&r, prog_a, accels[a], NULL, img + PATCH_OFF, PATCH_BYTES);
        assert_int_equal(guest_mem_read(r.gm, CODE_BASE + PATCH_OFF, a_bytes, sizeof(a_bytes),
                                        GM_PROT_READ, NULL),
                         GM_OK);
        assert_memory_not_equal(a_bytes, img + PATCH_OFF, PATCH_BYTES);
        /* The window cache first learns the page while it holds no code
         * (the TSTORE's footprint lies there), then the block is
         * translated: marking the page as code must keep the warm inline
         * path from writing it. */
        assert_int_equal(run_loop(&r), EXCP_TRAP);
        assert_int_equal(
            guest_mem_write(r.gm, CODE_BASE + PATCH_OFF, a_bytes, sizeof(a_bytes), NULL), GM_OK);
        assert_int_equal(run_patch(&r), 1);
        for (unsigned round = 0; round < 3; round++) {
            assert_int_equal(run_loop(&r), EXCP_TRAP); /* the TSTORE over the block */
            assert_int_equal(TRAPNUM(r.env), LINX_TRAP_SW_BREAKPOINT);
            assert_int_equal(run_patch(&r), 2);
            /* put the old block back (a host write: invalidates too) */
            assert_int_equal(
                guest_mem_write(r.gm, CODE_BASE + PATCH_OFF, a_bytes, sizeof(a_bytes), NULL),
                GM_OK);
            assert_int_equal(run_patch(&r), 1);
        }
        run_end(&r);
    }
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_zn_not_inlined),
        cmocka_unit_test(test_fault_after_warm),
        cmocka_unit_test(test_mmio_destination),
        cmocka_unit_test(test_code_page),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
