/*
 * TEPL engine tests (hw/linx/tepl.h): the specialised kernels against the
 * per-element reference for every implemented operation, element type
 * and tile layout, with random data that includes the IEEE special values
 * (NaNs, infinities, subnormals, signed zeros) and partial valid regions;
 * known results worked out by hand (integer wrap, division by zero and
 * MIN / -1, shift amounts past the width, maximumNumber with -0/+0 and
 * NaN, TRELU of -0, reductions, broadcasts, transpose, fill); and every
 * rule, each leaving the register file unchanged.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/tepl.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tile-regs.h"
#include "target/linx/tile-trap.h"

enum {
    TILE_T1 = 0,  /* t#1 */
    TILE_U1 = 8,  /* u#1 */
    TILE_U2 = 9,  /* u#2 */
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

/* A random element of @dtype: mostly ordinary values, some specials. */
static uint64_t rnd_elem(unsigned dtype, unsigned esize)
{
    static const uint32_t f32_special[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0xffc01234,
        0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x7f7fffff,
    };
    static const uint16_t f16_special[] = {
        0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x0001, 0x83ff, 0x3c00, 0x7bff,
    };
    static const uint64_t f64_special[] = {
        0, UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
        UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff4000000000001), 1,
        UINT64_C(0x3ff0000000000000),
    };
    uint64_t r = rnd();

    switch (dtype) {
    case LINX_DT_FP32:
        if (r % 8 == 0) {
            return f32_special[(r >> 8) % (sizeof(f32_special) / 4)];
        } else {
            float f = (float)((int64_t)(r >> 40) - (1 << 23)) / (float)(1 + (r & 255));
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        }
    case LINX_DT_FP16:
        if (r % 8 == 0) {
            return f16_special[(r >> 8) % (sizeof(f16_special) / 2)];
        }
        return linx_float_to_fp16((float)((int)(r >> 48) - 32768) / 256.0f);
    case LINX_DT_BF16:
        if (r % 8 == 0) {
            return f16_special[(r >> 8) % (sizeof(f16_special) / 2)] & 0xff00u;
        }
        return linx_float_to_bf16((float)((int)(r >> 48) - 32768) / 64.0f);
    case LINX_DT_FP64:
        if (r % 8 == 0) {
            return f64_special[(r >> 8) % (sizeof(f64_special) / 8)];
        } else {
            double d = (double)((int64_t)(r >> 20) - (INT64_C(1) << 43)) / (double)(1 + (r & 1023));
            uint64_t b;
            memcpy(&b, &d, 8);
            return b;
        }
    default:
        /* integers: small values often (shift counts, divisors) */
        if (r % 4 == 0) {
            return (r >> 32) % 40 - 4;
        }
        return esize == 8 ? r : r & ((UINT64_C(1) << (8 * esize)) - 1);
    }
}

static void fill_tile(LinxTileState *ts, LinxTileHand hand, unsigned dtype, unsigned layout,
                      uint32_t bytes, bool random)
{
    LinxTileSlot *s = linx_tile_push_slot(ts, hand);
    const LinxDTypeInfo *di = linx_dtype_info(dtype);
    LinxTileMeta m;

    for (uint32_t off = 0; off < bytes; off += di->size) {
        uint64_t v = random ? rnd_elem(dtype, di->size) : 0;
        memcpy(s->data + off, &v, di->size);
    }
    memset(&m, 0, sizeof(m));
    m.bytes = bytes;
    m.dtype = (uint8_t)dtype;
    m.layout = (uint8_t)layout;
    linx_tile_push_commit(ts, hand, &m);
}

static const unsigned dtypes[] = {
    LINX_DT_FP32, LINX_DT_FP16, LINX_DT_BF16, LINX_DT_FP64, LINX_DT_S8, LINX_DT_U8,
    LINX_DT_S16,  LINX_DT_U16,  LINX_DT_S32,  LINX_DT_U32,  LINX_DT_S64, LINX_DT_U64,
};

/* The geometry of one case: valid region and row length (LB0-2). */
typedef struct Shape {
    unsigned layout;
    uint64_t lb[3];
} Shape;

/* Run @op with both implementations on copies of the same register file
 * and compare the destination bytes and metadata. */
static void compare_impls(unsigned opcode, unsigned dtype, const Shape *sh, uint32_t bytes,
                          unsigned *cases)
{
    LinxTileState *a = linx_tile_state_new(), *b = linx_tile_state_new();
    const LinxTeplOpInfo *oi = linx_tepl_op_info(opcode);
    uint64_t seed = rng_state;
    LinxTeplOp op;
    TmaFault fa, fb;
    bool oka, okb;

    for (unsigned pass = 0; pass < 2; pass++) {
        LinxTileState *ts = pass ? b : a;
        rng_state = seed;
        fill_tile(ts, LINX_HAND_U, dtype, sh->layout, bytes, true);
        fill_tile(ts, LINX_HAND_U, dtype, sh->layout, bytes, true);
        fill_tile(ts, LINX_HAND_T, dtype, LINX_TL_ND, bytes, true); /* destination's old data */
    }
    memset(&op, 0, sizeof(op));
    op.opcode = (uint16_t)opcode;
    op.dtype = (uint8_t)dtype;
    op.nsrc = oi->nsrc;
    op.src[0] = TILE_U2;
    op.src[1] = TILE_U1;
    op.dst_kind = LINX_HAND_T;
    op.dst_bytes = bytes;
    memcpy(op.lb, sh->lb, sizeof(op.lb));
    op.scalar = rnd_elem(dtype, linx_dtype_info(dtype)->size);
    oka = linx_tepl_exec(a, &op, false, &fa);
    okb = linx_tepl_exec(b, &op, true, &fb);
    assert_int_equal(oka, okb);
    assert_int_equal(fa.rule, fb.rule);
    if (oka) {
        const LinxTileSlot *da = linx_tile_get_const(a, TILE_T1);
        const LinxTileSlot *db = linx_tile_get_const(b, TILE_T1);
        if (memcmp(da->data, db->data, bytes) != 0) {
            const LinxDTypeInfo *di = linx_dtype_info(dtype);
            for (uint32_t off = 0; off < bytes; off += di->size) {
                uint64_t x = 0, y = 0;
                memcpy(&x, da->data + off, di->size);
                memcpy(&y, db->data + off, di->size);
                if (x != y) {
                    fail_msg("%s %s layout %u lb %llu/%llu/%llu: element %u fast 0x%llx ref 0x%llx",
                             oi->name, di->name, sh->layout, (unsigned long long)sh->lb[0],
                             (unsigned long long)sh->lb[1], (unsigned long long)sh->lb[2],
                             off / di->size, (unsigned long long)x, (unsigned long long)y);
                }
            }
        }
        assert_memory_equal(&da->meta, &db->meta, sizeof(da->meta));
        (*cases)++;
    }
    linx_tile_state_free(a);
    linx_tile_state_free(b);
}

static void test_fast_vs_reference(void **state)
{
    static const unsigned opcodes[] = {
        LINX_TEPL_TADD, LINX_TEPL_TSUB, LINX_TEPL_TMUL, LINX_TEPL_TDIV, LINX_TEPL_TMAX,
        LINX_TEPL_TMIN, LINX_TEPL_TAND, LINX_TEPL_TOR, LINX_TEPL_TXOR, LINX_TEPL_TSHL,
        LINX_TEPL_TSHR, LINX_TEPL_TRELU, LINX_TEPL_TPRELU, LINX_TEPL_TEXP, LINX_TEPL_TLOG,
        LINX_TEPL_TSQRT, LINX_TEPL_TRSQRT, LINX_TEPL_TROWMAX, LINX_TEPL_TROWMIN,
        LINX_TEPL_TROWSUM, LINX_TEPL_TCOLMAX, LINX_TEPL_TCOLMIN, LINX_TEPL_TCOLSUM,
        LINX_TEPL_TRECIP, LINX_TEPL_TEXPANDS, LINX_TEPL_TTRANSPOSE, LINX_TEPL_TCOLEXPAND,
        LINX_TEPL_TROWEXPAND, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a,
    };
    unsigned cases = 0;

    (void)state;
    rng_state = 0x9e3779b97f4a7c15u;
    for (size_t o = 0; o < sizeof(opcodes) / sizeof(opcodes[0]); o++) {
        for (size_t d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++) {
            const LinxDTypeInfo *di = linx_dtype_info(dtypes[d]);
            uint32_t c0 = 32 / di->size;
            /* 1 KB tiles: ND full and partial, DN, NZ and ZN shapes. */
            uint32_t bytes = 1024, elems = bytes / di->size;
            uint32_t nd_cols = elems >= 64 ? 16 : 8;
            Shape shapes[] = {
                { LINX_TL_ND, { nd_cols, elems / nd_cols, 0 } },
                { LINX_TL_ND, { nd_cols - 3, elems / nd_cols - 1, nd_cols } },
                { LINX_TL_DN, { 5, 3, nd_cols } },
                { LINX_TL_NZ, { c0 + 1, 16 - 2, c0 * (elems / (16 * c0) > 1 ? 2 : 1) } },
                { LINX_TL_ZN, { 16 - 1, c0 - 3, 16 } },
                /* one valid column / row: a reduction of one element */
                { LINX_TL_ND, { 1, elems / nd_cols - 2, nd_cols } },
                { LINX_TL_NZ, { c0 + 3, 1, c0 * 2 } },
            };
            for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
                compare_impls(opcodes[o], dtypes[d], &shapes[s], bytes, &cases);
            }
        }
    }
    print_message("tepl: %u cases compared\n", cases);
    assert_true(cases > 1000);
}

/* ---- Known values ---- */

typedef struct Known {
    LinxTileState *ts;
    LinxTeplOp op;
} Known;

/* A 1 x 4 valid region (512 B ND tiles) with src0 = @a, src1 = @b. */
static void known_run(Known *k, unsigned opcode, unsigned dtype, const uint64_t a[4],
                      const uint64_t b[4], uint64_t scalar, uint64_t out[4])
{
    const LinxDTypeInfo *di = linx_dtype_info(dtype);
    TmaFault f;

    k->ts = linx_tile_state_new();
    fill_tile(k->ts, LINX_HAND_U, dtype, LINX_TL_ND, 512, false);
    fill_tile(k->ts, LINX_HAND_U, dtype, LINX_TL_ND, 512, false);
    for (unsigned i = 0; i < 4; i++) {
        memcpy(linx_tile_get(k->ts, TILE_U2)->data + i * di->size, &a[i], di->size);
        memcpy(linx_tile_get(k->ts, TILE_U1)->data + i * di->size, &b[i], di->size);
    }
    memset(&k->op, 0, sizeof(k->op));
    k->op.opcode = (uint16_t)opcode;
    k->op.dtype = (uint8_t)dtype;
    k->op.nsrc = linx_tepl_op_info(opcode)->nsrc;
    k->op.src[0] = TILE_U2;
    k->op.src[1] = TILE_U1;
    k->op.dst_kind = LINX_HAND_T;
    k->op.dst_bytes = 512;
    k->op.lb[0] = 4;
    k->op.scalar = scalar;
    for (int ref = 0; ref < 2; ref++) {
        assert_true(linx_tepl_exec(k->ts, &k->op, ref, &f));
        for (unsigned i = 0; i < 4; i++) {
            uint64_t v = 0;
            memcpy(&v, linx_tile_get(k->ts, TILE_T1)->data + i * di->size, di->size);
            if (ref) {
                assert_int_equal(v, out[i]);
            } else {
                out[i] = v;
            }
        }
    }
    linx_tile_state_free(k->ts);
}

static void expect4(unsigned opcode, unsigned dtype, uint64_t a0, uint64_t a1, uint64_t a2,
                    uint64_t a3, uint64_t b0, uint64_t b1, uint64_t b2, uint64_t b3,
                    uint64_t scalar, uint64_t e0, uint64_t e1, uint64_t e2, uint64_t e3)
{
    Known k;
    uint64_t a[4] = { a0, a1, a2, a3 }, b[4] = { b0, b1, b2, b3 }, out[4];

    known_run(&k, opcode, dtype, a, b, scalar, out);
    assert_int_equal(out[0], e0);
    assert_int_equal(out[1], e1);
    assert_int_equal(out[2], e2);
    assert_int_equal(out[3], e3);
}

static void test_known_values(void **state)
{
    (void)state;
    /* int32 wraps; division by 0 and INT_MIN / -1 give 0 */
    expect4(LINX_TEPL_TADD, LINX_DT_S32, 0x7fffffff, 1, 5, 0xfffffffe, 1, 2, 3, 3, 0,
            0x80000000, 3, 8, 1);
    expect4(LINX_TEPL_TDIV, LINX_DT_S32, 7, 0x80000000, 0xfffffff9, 9, 0, 0xffffffff, 2, 4, 0,
            0, 0, 0xfffffffd, 2);
    expect4(LINX_TEPL_TDIV, LINX_DT_U8, 200, 7, 0, 255, 3, 0, 5, 255, 0, 66, 0, 0, 1);
    /* shifts past the width: 0, sign fill for signed right shifts */
    expect4(LINX_TEPL_TSHL, LINX_DT_U16, 1, 1, 0x8001, 3, 15, 16, 1, 200, 0, 0x8000, 0, 2, 0);
    expect4(LINX_TEPL_TSHR, LINX_DT_S8, 0x80, 0x80, 0x40, 0x7f, 1, 8, 9, 2, 0, 0xc0, 0xff, 0, 0x1f);
    expect4(LINX_TEPL_TSHR, LINX_DT_U8, 0x80, 0x80, 0x40, 0x7f, 1, 8, 9, 2, 0, 0x40, 0, 0, 0x1f);
    /* fp32 max/min: maximumNumber, -0 < +0, one NaN gives the number */
    expect4(LINX_TEPL_TMAX, LINX_DT_FP32, 0x80000000, 0x7fc00000, 0x3f800000, 0x7fa00000,
            0x00000000, 0x40000000, 0x7f800000, 0x7fc00000, 0,
            0x00000000, 0x40000000, 0x7f800000, 0x7fc00000);
    expect4(LINX_TEPL_TMIN, LINX_DT_FP32, 0x80000000, 0x7fc00000, 0x3f800000, 0xff800000,
            0x00000000, 0x40000000, 0x7f800000, 0x3f800000, 0,
            0x80000000, 0x40000000, 0x3f800000, 0xff800000);
    /* NaN results are the default NaN; TRELU(-0) = +0, TRELU(NaN) = +0 */
    expect4(LINX_TEPL_TADD, LINX_DT_FP32, 0x7f800000, 0xffc01234, 0x3f800000, 0, 0xff800000,
            0x3f800000, 0x3f800000, 0, 0, 0x7fc00000, 0x7fc00000, 0x40000000, 0);
    expect4(LINX_TEPL_TRELU, LINX_DT_FP32, 0x80000000, 0x7fc00000, 0xbf800000, 0x3f800000, 0, 0,
            0, 0, 0, 0, 0, 0, 0x3f800000);
    /* fp16 through float, rounded once: 1 + 2^-11 rounds to even (1.0) */
    expect4(LINX_TEPL_MODE1 + LINX_TEPL_TADD, LINX_DT_FP16, 0x3c00, 0x3c01, 0x7bff, 0xfc00, 0, 0, 0, 0, 0x1000,
            0x3c00, 0x3c02, 0x7bff, 0xfc00);
    /* Mode 1 with the scalar truncated to the element (int8: 0x1ff -> -1) */
    expect4(LINX_TEPL_MODE1 + LINX_TEPL_TMUL, LINX_DT_S8, 1, 2, 0x80, 0x7f, 0, 0, 0, 0, 0x1ff,
            0xff, 0xfe, 0x80, 0x81);
}

/* Row/column reductions, broadcasts, transpose and fill on a 4 x 8 region
 * of an ND int32 tile (Col = 8). */
static void test_shapes(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxTeplOp op;
    TmaFault f;
    int32_t *s, *d;

    (void)state;
    fill_tile(ts, LINX_HAND_U, LINX_DT_S32, LINX_TL_ND, 512, false);
    s = (int32_t *)linx_tile_get(ts, TILE_U1)->data;
    for (int i = 0; i < 128; i++) {
        s[i] = i; /* (r, c) holds 8r + c */
    }
    memset(&op, 0, sizeof(op));
    op.dtype = LINX_DT_S32;
    op.nsrc = 1;
    op.src[0] = TILE_U1;
    op.dst_kind = LINX_HAND_T;
    op.dst_bytes = 512;
    op.lb[0] = 8;
    op.lb[1] = 4;
    for (int ref = 0; ref < 2; ref++) {
        op.opcode = LINX_TEPL_TROWSUM;
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        assert_int_equal(d[0], 28);
        assert_int_equal(d[8], 92);
        assert_int_equal(d[1], 0);
        assert_int_equal(d[32], 0); /* row 4: outside the valid rows */
        op.opcode = LINX_TEPL_TCOLMAX;
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        assert_int_equal(d[0], 24);
        assert_int_equal(d[7], 31);
        assert_int_equal(d[8], 0);
        op.opcode = LINX_TEPL_TROWEXPAND;
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        assert_int_equal(d[8 + 5], 8);
        op.opcode = LINX_TEPL_TCOLEXPAND;
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        assert_int_equal(d[3 * 8 + 5], 5);
        op.opcode = LINX_TEPL_TTRANSPOSE;
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        /* dst is ND 8 x 16 (Col = Row of the source: 512 / 32 = 16) */
        assert_int_equal(linx_tile_get(ts, TILE_T1)->meta.cols, 16);
        assert_int_equal(d[5 * 16 + 3], 3 * 8 + 5);
        op.opcode = LINX_TEPL_TEXPANDS;
        op.nsrc = 0;
        op.scalar = UINT64_C(0xfffffffffffffff9);
        assert_true(linx_tepl_exec(ts, &op, ref, &f));
        d = (int32_t *)linx_tile_get(ts, TILE_T1)->data;
        assert_int_equal(d[3 * 8 + 7], -7);
        assert_int_equal(d[4 * 8], 0);
        op.nsrc = 1;
    }
    linx_tile_state_free(ts);
}

/* Every rule: the trap, the rule number, and no change to the tiles. */
static void expect_rule(LinxTileState *ts, const LinxTeplOp *op, unsigned rule, unsigned cause,
                        uint64_t value)
{
    uint8_t before[LINX_TILE_MAX_BYTES];
    LinxTileMeta mb = linx_tile_get(ts, TILE_T1)->meta;
    TmaFault f;
    LinxTileTrap t;

    memcpy(before, linx_tile_get(ts, TILE_T1)->data, sizeof(before));
    for (int ref = 0; ref < 2; ref++) {
        assert_false(linx_tepl_exec(ts, op, ref, &f));
        assert_int_equal(f.rule, rule);
        assert_int_equal(f.value, value);
        linx_tile_fault_trap(&f, &t);
        assert_int_equal(t.trapnum, 4);
        assert_int_equal(t.cause, cause);
        assert_int_equal(t.traparg0, rule | value << 32);
        assert_string_not_equal(linx_tepl_rule_name(rule), "?");
        assert_string_not_equal(linx_tepl_rule_text(rule), "?");
    }
    assert_memory_equal(before, linx_tile_get(ts, TILE_T1)->data, sizeof(before));
    assert_memory_equal(&mb, &linx_tile_get(ts, TILE_T1)->meta, sizeof(mb));
}

static void test_rules(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxTeplOp op, o;

    (void)state;
    fill_tile(ts, LINX_HAND_T, LINX_DT_S32, LINX_TL_ND, 1024, true);
    fill_tile(ts, LINX_HAND_U, LINX_DT_S32, LINX_TL_ND, 1024, true);
    fill_tile(ts, LINX_HAND_U, LINX_DT_S32, LINX_TL_NZ, 1024, true);
    memset(&op, 0, sizeof(op));
    op.opcode = LINX_TEPL_TADD;
    op.dtype = LINX_DT_S32;
    op.nsrc = 2;
    op.src[0] = TILE_U1;
    op.src[1] = TILE_U1;
    op.dst_kind = LINX_HAND_T;
    op.dst_bytes = 1024;
    op.lb[0] = 16;
    op.lb[1] = 16;
    o = op;
    o.opcode = 0x0d; /* TCVT: not implemented */
    expect_rule(ts, &o, LINX_TEPL_BAD_OP, 0x100, 0x0d);
    o = op;
    o.opcode = 0x2b; /* reserved Mode 1 function */
    expect_rule(ts, &o, LINX_TEPL_BAD_OP, 0x100, 0x2b);
    o = op;
    o.dtype = 20; /* INT4 */
    expect_rule(ts, &o, LINX_TEPL_BAD_DTYPE, 0x200, 20);
    o = op;
    o.opcode = LINX_TEPL_TAND;
    o.dtype = LINX_DT_FP32;
    expect_rule(ts, &o, LINX_TEPL_BAD_DTYPE, 0x200, LINX_DT_FP32);
    o = op;
    o.lb[0] = 0;
    expect_rule(ts, &o, LINX_TEPL_LB0_ZERO, 0x200, 0);
    o = op;
    o.dst_bytes = 1000;
    expect_rule(ts, &o, LINX_TEPL_BAD_SIZE, 0x200, 1000);
    o = op;
    o.src[1] = 31; /* n#8: never written */
    expect_rule(ts, &o, LINX_TEPL_TILE_EMPTY, 0x200, 31);
    o = op;
    o.dst_bytes = 2048;
    expect_rule(ts, &o, LINX_TEPL_TILE_SIZE, 0x200, 1024);
    o = op;
    o.src[1] = TILE_U2; /* ND and NZ */
    expect_rule(ts, &o, LINX_TEPL_LAYOUTS, 0x200, TILE_U2);
    o = op;
    o.lb[2] = 512; /* a row longer than the tile */
    expect_rule(ts, &o, LINX_TEPL_SHAPE, 0x200, 512);
    o = op;
    o.lb[0] = 17;
    o.lb[2] = 16;
    expect_rule(ts, &o, LINX_TEPL_SHAPE, 0x200, 17);
    o = op;
    o.lb[1] = 17; /* 1024 / 64 = 16 rows */
    expect_rule(ts, &o, LINX_TEPL_SHAPE, 0x200, 17);
    o = op;
    o.src[0] = o.src[1] = TILE_U1 + 0; /* NZ tile u#1 after the pushes? no: u#1 is NZ */
    o.lb[2] = 4; /* NZ int32 needs Col % 8 == 0 */
    o.lb[0] = 4;
    expect_rule(ts, &o, LINX_TEPL_SHAPE, 0x200, LINX_TL_NZ);
    linx_tile_state_free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_vs_reference),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_rules),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
