/*
 * The vectorised TMATMUL / TMATMUL.ACC (hw/linx/tile-cube-fast.c) against
 * the reference loops of tile-cube.c, byte for byte (docs/kernels.md
 * "CUBE"):
 *   - S8, S32, FP16, BF16, FP32 and FP8 (E4M3) over shapes from 1 x 1 x 1
 *     through odd sizes, 16^3 and 32^3 to the largest whose operands fit
 *     one 4 KB tile each, with A and B tiles sometimes larger than the
 *     operands; operands NZ x ZN and dense ND x ND;
 *   - TMATMUL, and TMATMUL.ACC on a non-zero previous ACC (random values,
 *     IEEE specials, int32 values near the wrap);
 *   - random values, IEEE specials (+-0, subnormals, +-inf, values whose
 *     products or sums overflow fp32: the NaNs they make are the host's
 *     default NaN either way), one NaN (quiet or signalling) among finite
 *     values, int8 and int32 extremes;
 *   - random garbage in every padding byte of the operand tiles: results
 *     do not change when only the garbage does;
 *   - the fast path through linx_cube_exec and called directly (nothing
 *     written outside m x n), and its k > 512 refusal (returns false, ACC
 *     untouched; linx_cube_exec then uses the reference loops);
 *   - LINX_CUBE_REFERENCE selection (linx_cube_reference_from_env).
 * Several NaNs meeting in one sum are left out: which payload comes out
 * then is the host compiler's choice in both paths (tile-cube-fast.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/tile-cube-fast.h"
#include "hw/linx/tile-cube.h"
#include "hw/linx/tile-dtype.h"

enum {
    FRACTAL_ROWS = 16,
    FRACTAL_BYTES = 32,
    CANARY = 0xa5,
};

/* Value kinds of an operand's logical elements. */
typedef enum ValKind {
    VK_RANDOM,   /* random finite values of moderate size */
    VK_SPECIAL,  /* +-0, subnormals, +-inf, overflowing values, no NaN */
    VK_EXTREME,  /* S8: -128 and 127 mostly; real types: the largest finite */
} ValKind;

typedef struct Rng {
    uint64_t s;
} Rng;

static uint32_t rng_next(Rng *r)
{
    /* xorshift64* */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * UINT64_C(2685821657736338717)) >> 32);
}

static uint32_t rng_below(Rng *r, uint32_t n)
{
    return rng_next(r) % n;
}

static unsigned esize_of(unsigned dtype)
{
    return linx_dtype_info(dtype)->size;
}

static uint32_t round_up(uint32_t v, uint32_t to)
{
    return (v + to - 1) / to * to;
}

/* A finite value of @dtype with the biased exponent in [lo, hi] (raw
 * bits), random sign and mantissa. */
static uint32_t real_bits(Rng *r, unsigned dtype, unsigned lo, unsigned hi)
{
    uint32_t sign = rng_below(r, 2), e = lo + rng_below(r, hi - lo + 1), mant = rng_next(r);

    switch (dtype) {
    case LINX_DT_FP8:
        /* E4M3 has no infinity; S.1111.111 is NaN, so keep the top
         * exponent's mantissa below 7. */
        return sign << 7 | e << 3 | (e == 15 ? mant % 7 : mant & 7);
    case LINX_DT_FP16:
        return sign << 15 | e << 10 | (mant & 0x3ff);
    case LINX_DT_BF16:
        return sign << 15 | e << 7 | (mant & 0x7f);
    default:
        return sign << 31 | e << 23 | (mant & 0x7fffff);
    }
}

/* Exponent bias and all-ones exponent of a real type. */
static void real_exp(unsigned dtype, unsigned *bias, unsigned *emax)
{
    switch (dtype) {
    case LINX_DT_FP16:
        *bias = 15;
        *emax = 31;
        break;
    case LINX_DT_FP8:
        *bias = 7;
        *emax = 15; /* no infinity: S.1111.111 is NaN, S.1111.110 = 448 */
        break;
    default: /* BF16 and FP32 share fp32's exponent */
        *bias = 127;
        *emax = 255;
        break;
    }
}

/* One element's raw bits of @kind. */
static uint32_t gen_value(Rng *r, unsigned dtype, ValKind kind)
{
    unsigned bias, emax, sh;
    uint32_t sign;

    if (dtype == LINX_DT_S8) {
        if (kind == VK_RANDOM) {
            return rng_next(r) & 0xff;
        }
        return rng_below(r, 4) ? 0x80 : rng_below(r, 2) ? 0x7f : rng_next(r) & 0xff;
    }
    if (dtype == LINX_DT_S32) {
        if (kind == VK_RANDOM) {
            return rng_below(r, 2) ? rng_next(r) : (uint32_t)(int32_t)(rng_below(r, 2001) - 1000);
        }
        return rng_below(r, 4) ? 0x80000000u : rng_below(r, 2) ? 0x7fffffffu : rng_next(r);
    }
    real_exp(dtype, &bias, &emax);
    sh = dtype == LINX_DT_FP16 ? 10 : dtype == LINX_DT_BF16 ? 7 : dtype == LINX_DT_FP8 ? 3 : 23;
    sign = (uint32_t)rng_below(r, 2) << (esize_of(dtype) * 8 - 1);
    if (kind == VK_RANDOM) {
        return real_bits(r, dtype, bias - (dtype == LINX_DT_FP8 ? 3 : 6),
                         bias + (dtype == LINX_DT_FP8 ? 3 : 6));
    }
    if (dtype == LINX_DT_FP8) {
        if (kind == VK_EXTREME) {
            return sign | 0x7e; /* +-448 */
        }
        switch (rng_below(r, 6)) {
        case 0:
            return sign; /* +-0 */
        case 1:
            return sign | (1 + rng_below(r, 7)); /* subnormals */
        case 2:
            return sign | 0x7e;
        default:
            return real_bits(r, dtype, 1, 15);
        }
    }
    if (kind == VK_EXTREME) {
        return sign | (emax - 1) << sh | ((1u << sh) - 1); /* +-max finite */
    }
    switch (rng_below(r, 10)) {
    case 0:
        return sign; /* +-0 */
    case 1:
        return sign | 1; /* smallest subnormal */
    case 2:
        return sign | (rng_next(r) & ((1u << sh) - 1)); /* subnormal (or 0) */
    case 3:
        return sign | emax << sh; /* +-inf */
    case 4:
        return real_bits(r, dtype, emax - 4, emax - 1); /* large: products overflow */
    case 5:
        return real_bits(r, dtype, 1, 4); /* tiny normals: products underflow */
    default:
        return real_bits(r, dtype, bias - 10, bias + 10);
    }
}

static void put_elem(uint8_t *p, unsigned esize, uint32_t v)
{
    memcpy(p, &v, esize); /* little-endian host */
}

/* An operand tile image: @bytes of garbage from @garbage, then the
 * logical rows x cols elements val[r * cols + c] at their @layout place in
 * a trows x tcols tile (ND: dense, at r * cols + c, whatever trows x
 * tcols says: the cube's dense operands). */
static void build_tile(uint8_t img[LINX_TILE_MAX_BYTES], unsigned layout, unsigned dtype,
                       uint32_t trows, uint32_t tcols, uint32_t rows, uint32_t cols,
                       const uint32_t *val, Rng *garbage)
{
    unsigned es = esize_of(dtype);

    for (unsigned i = 0; i < LINX_TILE_MAX_BYTES; i++) {
        img[i] = (uint8_t)rng_next(garbage);
    }
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
            size_t off = layout == LINX_TL_ND
                             ? (size_t)r * cols + c
                             : linx_tile_elem_offset(layout, r, c, trows, tcols, es);

            put_elem(img + off * es, es, val[r * cols + c]);
        }
    }
}

static void push_tile(LinxTileState *ts, LinxTileHand hand, const uint8_t *img, unsigned layout,
                      unsigned dtype, uint32_t trows, uint32_t tcols)
{
    LinxTileSlot *s = linx_tile_push_slot(ts, hand);
    uint32_t bytes = trows * tcols * esize_of(dtype);
    LinxTileMeta m = { bytes < LINX_TILE_MIN_BYTES ? LINX_TILE_MIN_BYTES : bytes, (uint8_t)dtype,
                       (uint8_t)layout, (uint16_t)trows, (uint16_t)tcols, (uint16_t)trows,
                       (uint16_t)tcols };

    memcpy(s->data, img, LINX_TILE_MAX_BYTES);
    linx_tile_push_commit(ts, hand, &m);
}

/* One matmul case. */
typedef struct Case {
    unsigned dtype;
    uint32_t m, n, k;
    uint32_t a_rows, a_cols; /* A tile (NZ; ND: its recorded shape) */
    uint32_t b_rows, b_cols; /* B tile (ZN; ND: its recorded shape) */
    bool dense;              /* ND x ND operands */
    bool accumulate;
    ValKind kind;
    int nan;                 /* -1 none, 0 one NaN in A, 1 one NaN in B */
    uint64_t seed;
} Case;

typedef struct Operands {
    uint32_t a[LINX_TILE_MAX_BYTES];     /* logical A, m x k */
    uint32_t b[LINX_TILE_MAX_BYTES];     /* logical B, k x n */
    uint32_t prev[LINX_ACC_MAX_ELEMS];   /* previous ACC (TMATMUL.ACC) */
    uint8_t a_img[LINX_TILE_MAX_BYTES];
    uint8_t b_img[LINX_TILE_MAX_BYTES];
    uint8_t ref[LINX_ACC_BYTES];
    uint8_t got[LINX_ACC_BYTES + 64];
} Operands;

static bool is_real(unsigned dtype)
{
    return dtype != LINX_DT_S8 && dtype != LINX_DT_S32;
}

static unsigned acc_type(unsigned dtype)
{
    return is_real(dtype) ? LINX_DT_FP32 : LINX_DT_S32;
}

/* Logical values of a case.  A NaN case keeps every other value small and
 * finite (no inf, no overflow) so that NaN is the only one in its sums. */
static void gen_operands(const Case *c, Operands *o)
{
    Rng r = { c->seed * 2 + 1 };
    ValKind kind = c->nan >= 0 ? VK_RANDOM : c->kind;

    for (uint32_t i = 0; i < c->m * c->k; i++) {
        o->a[i] = gen_value(&r, c->dtype, kind);
    }
    for (uint32_t i = 0; i < c->k * c->n; i++) {
        o->b[i] = gen_value(&r, c->dtype, kind);
    }
    if (c->nan >= 0) {
        unsigned bias, emax, sh = c->dtype == LINX_DT_FP16 ? 10 : c->dtype == LINX_DT_BF16 ? 7 : 23;
        uint32_t payload = (rng_next(&r) & ((1u << sh) - 1)) | 1; /* quiet or signalling */
        uint32_t nan;

        real_exp(c->dtype, &bias, &emax);
        nan = (uint32_t)rng_below(&r, 2) << (esize_of(c->dtype) * 8 - 1) | emax << sh | payload;
        if (c->dtype == LINX_DT_FP8) {
            nan = (uint32_t)rng_below(&r, 2) << 7 | 0x7f; /* E4M3's only NaN */
        }
        if (c->nan == 0) {
            o->a[rng_below(&r, c->m * c->k)] = nan;
        } else {
            o->b[rng_below(&r, c->k * c->n)] = nan;
        }
    }
    for (uint32_t i = 0; i < c->m * c->n; i++) {
        if (!is_real(c->dtype)) {
            /* Some near the int32 wrap, so the .ACC addition wraps. */
            o->prev[i] = rng_below(&r, 2) ? 0x7fffff00u + rng_below(&r, 0x100) : rng_next(&r);
        } else if (c->nan >= 0) {
            o->prev[i] = real_bits(&r, LINX_DT_FP32, 120, 134);
        } else {
            o->prev[i] = gen_value(&r, LINX_DT_FP32, c->kind);
        }
    }
}

static void set_prev_acc(LinxTileState *ts, const Case *c, const Operands *o)
{
    memset(ts->acc.data, 0, LINX_ACC_BYTES);
    ts->acc.valid = c->accumulate;
    ts->acc.m = (uint16_t)c->m;
    ts->acc.n = (uint16_t)c->n;
    ts->acc.dtype = c->accumulate ? (uint8_t)acc_type(c->dtype) : LINX_DT_NONE;
    ts->acc.layout = c->dense ? LINX_TL_ND : LINX_TL_NZ;
    if (c->accumulate) {
        memcpy(ts->acc.data, o->prev, (size_t)c->m * c->n * 4);
    }
}

static LinxCubeOp cube_op(const Case *c, bool reference)
{
    LinxCubeOp op;

    memset(&op, 0, sizeof(op));
    op.func = c->accumulate ? LINX_CUBE_TMATMUL_ACC : LINX_CUBE_TMATMUL;
    op.dtype = (uint8_t)c->dtype;
    op.m = c->m;
    op.n = c->n;
    op.k = c->k;
    op.nsrc = 2;
    op.src[0] = (uint8_t)linx_tile_id(LINX_HAND_T, 1);
    op.src[1] = (uint8_t)linx_tile_id(LINX_HAND_U, 1);
    op.reference = reference;
    return op;
}

static void describe(const Case *c, char *buf, size_t len)
{
    snprintf(buf, len, "dtype %u %s%s %ux%ux%u (A %ux%u, B %ux%u) kind %d nan %d seed %llu",
             c->dtype, c->accumulate ? "TMATMUL.ACC" : "TMATMUL", c->dense ? " dense" : "",
             c->m, c->n, c->k, c->a_rows,
             c->a_cols, c->b_rows, c->b_cols, (int)c->kind, c->nan,
             (unsigned long long)c->seed);
}

/* Byte-for-byte equal m x n results, or fail naming the first element. */
static void expect_same(const Case *c, const uint8_t *want, const uint8_t *got, const char *what)
{
    size_t bytes = (size_t)c->m * c->n * 4;

    if (memcmp(want, got, bytes) != 0) {
        char d[160];

        describe(c, d, sizeof(d));
        for (size_t e = 0; e < bytes / 4; e++) {
            uint32_t w, g;

            memcpy(&w, want + e * 4, 4);
            memcpy(&g, got + e * 4, 4);
            if (w != g) {
                fail_msg("%s: %s: element (%zu, %zu): reference %08x, fast %08x", what, d,
                         e / c->n, e % c->n, w, g);
            }
        }
    }
}

/*
 * Run a case: the reference loops and the fast path through
 * linx_cube_exec, the fast path directly (canary after m x n), and the
 * fast path again with other padding garbage.
 */
static void run_case(LinxTileState *ts, const Case *c, Operands *o)
{
    Rng garbage = { c->seed ^ UINT64_C(0x9e3779b97f4a7c15) };
    LinxCubeOp op;
    TmaFault f;
    size_t bytes = (size_t)c->m * c->n * 4;

    unsigned la = c->dense ? LINX_TL_ND : LINX_TL_NZ, lb = c->dense ? LINX_TL_ND : LINX_TL_ZN;

    gen_operands(c, o);
    build_tile(o->a_img, la, c->dtype, c->a_rows, c->a_cols, c->m, c->k, o->a, &garbage);
    build_tile(o->b_img, lb, c->dtype, c->b_rows, c->b_cols, c->k, c->n, o->b, &garbage);
    push_tile(ts, LINX_HAND_T, o->a_img, la, c->dtype, c->a_rows, c->a_cols);
    push_tile(ts, LINX_HAND_U, o->b_img, lb, c->dtype, c->b_rows, c->b_cols);

    set_prev_acc(ts, c, o);
    op = cube_op(c, true);
    assert_true(linx_cube_exec(ts, &op, &f));
    assert_int_equal(ts->acc.dtype, acc_type(c->dtype));
    memcpy(o->ref, ts->acc.data, bytes);

    set_prev_acc(ts, c, o);
    op = cube_op(c, false);
    assert_true(linx_cube_exec(ts, &op, &f));
    expect_same(c, o->ref, ts->acc.data, "linx_cube_exec");

    memset(o->got, CANARY, sizeof(o->got));
    if (c->accumulate) {
        memcpy(o->got, o->prev, bytes);
    }
    assert_true(linx_cube_matmul_fast(linx_tile_get(ts, op.src[0]), linx_tile_get(ts, op.src[1]),
                                      c->dtype, c->dense, c->m, c->n, c->k, c->accumulate,
                                      o->got));
    expect_same(c, o->ref, o->got, "linx_cube_matmul_fast");
    for (size_t i = bytes; i < bytes + 64; i++) {
        assert_int_equal(o->got[i], CANARY);
    }

    /* Same logical values, other garbage: the same result. */
    build_tile(o->a_img, la, c->dtype, c->a_rows, c->a_cols, c->m, c->k, o->a, &garbage);
    build_tile(o->b_img, lb, c->dtype, c->b_rows, c->b_cols, c->k, c->n, o->b, &garbage);
    push_tile(ts, LINX_HAND_T, o->a_img, la, c->dtype, c->a_rows, c->a_cols);
    push_tile(ts, LINX_HAND_U, o->b_img, lb, c->dtype, c->b_rows, c->b_cols);
    set_prev_acc(ts, c, o);
    assert_true(linx_cube_exec(ts, &op, &f));
    expect_same(c, o->ref, ts->acc.data, "other padding garbage");
}

/* m, n, k of the shape list; those whose operands do not fit a 4 KB tile
 * of a type are skipped for it. */
static const uint32_t shapes[][3] = {
    { 1, 1, 1 },    { 1, 1, 7 },    { 1, 17, 1 },   { 3, 1, 2 },    { 5, 7, 13 },
    { 13, 31, 3 },  { 7, 5, 33 },   { 4, 16, 8 },   { 17, 15, 9 },  { 16, 16, 16 },
    { 31, 33, 17 }, { 32, 32, 32 }, { 2, 48, 40 },  { 48, 2, 40 },  { 16, 16, 64 },
    { 64, 64, 16 }, { 64, 64, 32 }, { 64, 64, 64 }, { 16, 16, 128 }, { 16, 16, 256 },
    { 33, 100, 5 }, { 100, 40, 9 }, { 256, 16, 4 },
};

/* Tile sizes for a case: the operands rounded up to whole fractals, with
 * @extra more fractal rows (A) / columns (B) when they still fit. */
static bool shape_tiles(Case *c, unsigned extra)
{
    unsigned es = esize_of(c->dtype), c0 = FRACTAL_BYTES / es;

    if (c->dense) {
        /* ND operands: the tile holds m x k (k x n) elements densely; its
         * recorded shape is the whole tile in one row (a compiled
         * kernel's "C.B.DIMI 0, ->lb0" TLOAD), which the cube ignores. */
        if ((size_t)c->m * c->k * es > LINX_TILE_MAX_BYTES ||
            (size_t)c->k * c->n * es > LINX_TILE_MAX_BYTES ||
            (size_t)c->m * c->n > LINX_ACC_MAX_ELEMS) {
            return false;
        }
        c->a_rows = c->b_rows = 1;
        c->a_cols = c->b_cols = LINX_TILE_MAX_BYTES / es;
        (void)extra;
        return true;
    }
    c->a_rows = round_up(c->m, FRACTAL_ROWS);
    c->a_cols = round_up(c->k, c0);
    c->b_rows = round_up(c->k, c0);
    c->b_cols = round_up(c->n, FRACTAL_ROWS);
    if ((size_t)c->a_rows * c->a_cols * es > LINX_TILE_MAX_BYTES ||
        (size_t)c->b_rows * c->b_cols * es > LINX_TILE_MAX_BYTES ||
        (size_t)c->m * c->n > LINX_ACC_MAX_ELEMS) {
        return false;
    }
    if ((size_t)(c->a_rows + extra * FRACTAL_ROWS) * c->a_cols * es <= LINX_TILE_MAX_BYTES) {
        c->a_rows += extra * FRACTAL_ROWS;
    }
    if ((size_t)c->b_rows * (c->b_cols + extra * FRACTAL_ROWS) * es <= LINX_TILE_MAX_BYTES) {
        c->b_cols += extra * FRACTAL_ROWS;
    }
    return true;
}

static const unsigned types[] = { LINX_DT_S8, LINX_DT_FP16, LINX_DT_BF16, LINX_DT_FP32,
                                  LINX_DT_S32, LINX_DT_FP8 };
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* Every type x shape x {TMATMUL, .ACC} x value kind (plus NaN cases for
 * the real types); returns the number of cases run. */
static unsigned run_matrix(ValKind kind, int nan)
{
    LinxTileState *ts = linx_tile_state_new();
    Operands *o = malloc(sizeof(*o));
    unsigned runs = 0;

    assert_non_null(o);
    for (unsigned t = 0; t < NTYPES * 2; t++) {
        if (nan >= 0 && !is_real(types[t % NTYPES])) {
            continue;
        }
        for (unsigned s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
            for (unsigned acc = 0; acc < 2; acc++) {
                Case c = { .dtype = types[t % NTYPES], .m = shapes[s][0], .n = shapes[s][1],
                           .k = shapes[s][2], .dense = t >= NTYPES, .accumulate = acc,
                           .kind = kind, .nan = nan,
                           .seed = (uint64_t)(t * 1000 + s * 10 + acc) * 7 + kind * 100003 +
                                   (unsigned)(nan + 1) * 1000003 };

                if (!shape_tiles(&c, s % 3)) {
                    continue;
                }
                run_case(ts, &c, o);
                runs++;
            }
        }
    }
    free(o);
    linx_tile_state_free(ts);
    return runs;
}

static void test_random(void **state)
{
    (void)state;
    assert_true(run_matrix(VK_RANDOM, -1) > 120);
}

static void test_specials(void **state)
{
    (void)state;
    assert_true(run_matrix(VK_SPECIAL, -1) > 120);
}

static void test_extremes(void **state)
{
    (void)state;
    assert_true(run_matrix(VK_EXTREME, -1) > 120);
}

static void test_one_nan(void **state)
{
    (void)state;
    assert_true(run_matrix(VK_RANDOM, 0) > 90);
    assert_true(run_matrix(VK_RANDOM, 1) > 90);
}

/* The largest operands per type (each a full 4 KB tile), by hand: S8 64^3,
 * FP16 / BF16 64 x 64 x 32, FP32 64 x 64 x 16, and the longest k. */
static void test_largest(void **state)
{
    static const uint32_t big[4][2][3] = {
        { { 64, 64, 64 }, { 16, 16, 256 } },
        { { 64, 64, 32 }, { 16, 16, 128 } },
        { { 64, 64, 32 }, { 16, 16, 128 } },
        { { 64, 64, 16 }, { 16, 16, 64 } },
    };
    LinxTileState *ts = linx_tile_state_new();
    Operands *o = malloc(sizeof(*o));

    (void)state;
    assert_non_null(o);
    for (unsigned t = 0; t < 4; t++) {
        for (unsigned s = 0; s < 2; s++) {
            for (unsigned v = 0; v < 3; v++) {
                Case c = { .dtype = types[t], .m = big[t][s][0], .n = big[t][s][1],
                           .k = big[t][s][2], .accumulate = v == 2, .kind = (ValKind)v,
                           .nan = -1, .seed = 77 + t * 10 + s * 3 + v };
                unsigned es = esize_of(c.dtype);

                assert_true(shape_tiles(&c, 0));
                assert_int_equal(c.a_rows * c.a_cols * es, LINX_TILE_MAX_BYTES);
                assert_int_equal(c.b_rows * c.b_cols * es, LINX_TILE_MAX_BYTES);
                run_case(ts, &c, o);
            }
        }
    }
    free(o);
    linx_tile_state_free(ts);
}

/* int8 by hand: -128 x -128 over k = 256 is 4194304 per element; on a
 * previous ACC of INT32_MAX - 1000 the .ACC sum wraps. */
static void test_int8_wrap(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    Operands *o = malloc(sizeof(*o));
    Case c = { .dtype = LINX_DT_S8, .m = 16, .n = 16, .k = 256, .accumulate = true,
               .kind = VK_EXTREME, .nan = -1, .seed = 5 };
    LinxCubeOp op;
    TmaFault f;

    (void)state;
    assert_non_null(o);
    assert_true(shape_tiles(&c, 0));
    for (uint32_t i = 0; i < c.m * c.k; i++) {
        o->a[i] = 0x80;
    }
    for (uint32_t i = 0; i < c.k * c.n; i++) {
        o->b[i] = 0x80;
    }
    {
        Rng g = { 3 };

        build_tile(o->a_img, LINX_TL_NZ, c.dtype, c.a_rows, c.a_cols, c.m, c.k, o->a, &g);
        build_tile(o->b_img, LINX_TL_ZN, c.dtype, c.b_rows, c.b_cols, c.k, c.n, o->b, &g);
    }
    push_tile(ts, LINX_HAND_T, o->a_img, LINX_TL_NZ, c.dtype, c.a_rows, c.a_cols);
    push_tile(ts, LINX_HAND_U, o->b_img, LINX_TL_ZN, c.dtype, c.b_rows, c.b_cols);
    for (uint32_t i = 0; i < c.m * c.n; i++) {
        o->prev[i] = (uint32_t)INT32_MAX - 1000;
    }
    for (unsigned ref = 0; ref < 2; ref++) {
        set_prev_acc(ts, &c, o);
        op = cube_op(&c, ref);
        assert_true(linx_cube_exec(ts, &op, &f));
        for (uint32_t e = 0; e < c.m * c.n; e++) {
            uint32_t v;

            memcpy(&v, ts->acc.data + e * 4, 4);
            assert_int_equal(v, (uint32_t)INT32_MAX - 1000 + 4194304u);
            assert_true((int32_t)v < 0);
        }
    }
    free(o);
    linx_tile_state_free(ts);
}

/* k > 512: the fast path refuses (false, nothing written); through
 * linx_cube_exec the reference loops run.  Such k needs operand tiles
 * that are not whole fractals (A 1 x k, B k x 1 of S8), which no guest
 * producer makes, so only this interface reaches it.  k = 512 is taken. */
static void test_long_k(void **state)
{
    static const uint32_t ks[] = { 512, 513, 600, 4000 };
    LinxTileState *ts = linx_tile_state_new();
    Operands *o = malloc(sizeof(*o));

    (void)state;
    assert_non_null(o);
    for (unsigned i = 0; i < 4; i++) {
        Case c = { .dtype = LINX_DT_S8, .m = 1, .n = 1, .k = ks[i], .accumulate = i & 1,
                   .kind = VK_RANDOM, .nan = -1, .seed = 900 + i };
        Rng g = { 11 + i };
        LinxCubeOp op;
        TmaFault f;
        bool taken;

        c.a_rows = 1;
        c.a_cols = ks[i];
        c.b_rows = ks[i];
        c.b_cols = 1;
        gen_operands(&c, o);
        build_tile(o->a_img, LINX_TL_NZ, c.dtype, 1, c.k, 1, c.k, o->a, &g);
        build_tile(o->b_img, LINX_TL_ZN, c.dtype, c.k, 1, c.k, 1, o->b, &g);
        push_tile(ts, LINX_HAND_T, o->a_img, LINX_TL_NZ, c.dtype, 1, c.k);
        push_tile(ts, LINX_HAND_U, o->b_img, LINX_TL_ZN, c.dtype, c.k, 1);

        set_prev_acc(ts, &c, o);
        op = cube_op(&c, true);
        assert_true(linx_cube_exec(ts, &op, &f));
        memcpy(o->ref, ts->acc.data, 4);
        set_prev_acc(ts, &c, o);
        op = cube_op(&c, false);
        assert_true(linx_cube_exec(ts, &op, &f));
        expect_same(&c, o->ref, ts->acc.data, "linx_cube_exec, long k");

        memset(o->got, CANARY, sizeof(o->got));
        taken = linx_cube_matmul_fast(linx_tile_get(ts, op.src[0]), linx_tile_get(ts, op.src[1]),
                                      c.dtype, false, 1, 1, c.k, c.accumulate, o->got);
        assert_int_equal(taken, ks[i] <= 512);
        if (taken) {
            assert_false(c.accumulate); /* k = 512 is a TMATMUL */
            expect_same(&c, o->ref, o->got, "linx_cube_matmul_fast, k = 512");
        } else {
            for (size_t b = 0; b < sizeof(o->got); b++) {
                assert_int_equal(o->got[b], CANARY);
            }
        }
    }
    free(o);
    linx_tile_state_free(ts);
}

/* Types other than S8 / S32 / FP16 / BF16 / FP32 / FP8: refused, nothing
 * written. */
static void test_other_types(void **state)
{
    static const unsigned others[] = { LINX_DT_U8, LINX_DT_NONE, 200 };
    LinxTileState *ts = linx_tile_state_new();
    uint8_t acc[64];

    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        memset(acc, CANARY, sizeof(acc));
        assert_false(linx_cube_matmul_fast(linx_tile_get(ts, 0), linx_tile_get(ts, 8), others[i],
                                           false, 1, 1, 1, false, acc));
        for (size_t b = 0; b < sizeof(acc); b++) {
            assert_int_equal(acc[b], CANARY);
        }
    }
    linx_tile_state_free(ts);
}

static void test_reference_env(void **state)
{
    const char *old = getenv("LINX_CUBE_REFERENCE");
    char *saved = old ? strdup(old) : NULL;

    (void)state;
    assert_int_equal(unsetenv("LINX_CUBE_REFERENCE"), 0);
    assert_false(linx_cube_reference_from_env());
    assert_int_equal(setenv("LINX_CUBE_REFERENCE", "1", 1), 0);
    assert_true(linx_cube_reference_from_env());
    assert_int_equal(setenv("LINX_CUBE_REFERENCE", "yes", 1), 0);
    assert_true(linx_cube_reference_from_env());
    assert_int_equal(setenv("LINX_CUBE_REFERENCE", "0", 1), 0);
    assert_false(linx_cube_reference_from_env());
    assert_int_equal(setenv("LINX_CUBE_REFERENCE", "", 1), 0);
    assert_false(linx_cube_reference_from_env());
    if (saved) {
        setenv("LINX_CUBE_REFERENCE", saved, 1);
        free(saved);
    } else {
        unsetenv("LINX_CUBE_REFERENCE");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),     cmocka_unit_test(test_specials),
        cmocka_unit_test(test_extremes),   cmocka_unit_test(test_one_nan),
        cmocka_unit_test(test_largest),    cmocka_unit_test(test_int8_wrap),
        cmocka_unit_test(test_long_k),     cmocka_unit_test(test_other_types),
        cmocka_unit_test(test_reference_env),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
