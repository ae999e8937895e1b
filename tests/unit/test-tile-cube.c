/*
 * The cube: TMATMUL / TMATMUL.ACC / ACCCVT against a plain triple loop
 * over the logical matrices, with garbage in every padding cell (it must
 * not leak), int32 wrap-around, the ACC chain, ACCCVT conversions and
 * scalar quantisation (ties to even), every rule, and one end-to-end
 * chain through TLOAD ND2NZ / ND2ZN and TSTORE NZ2ND on guest memory.
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

#include "hw/linx/tile-cube.h"
#include "hw/linx/tile-dtype.h"
#include "target/linx/cpu.h"
#include "target/linx/tile-trap.h"

/* Push a tile of @layout/@dtype, rows x cols, whose logical (r, c) is
 * val(r, c) and every other byte garbage (0xff: a NaN for floats). */
static void push_matrix(LinxTileState *ts, LinxTileHand hand, unsigned layout, unsigned dtype,
                        uint32_t rows, uint32_t cols, uint32_t bytes,
                        double (*val)(uint32_t, uint32_t))
{
    const LinxDTypeInfo *dt = linx_dtype_info(dtype);
    LinxTileSlot *s = linx_tile_push_slot(ts, hand);
    LinxTileMeta m = { bytes, (uint8_t)dtype, (uint8_t)layout, (uint16_t)rows, (uint16_t)cols,
                       (uint16_t)rows, (uint16_t)cols };

    memset(s->data, 0xff, LINX_TILE_MAX_BYTES);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
            uint8_t *p = s->data + linx_tile_elem_offset(layout, r, c, rows, cols, dt->size) *
                                       dt->size;
            double v = val(r, c);

            switch (dtype) {
            case LINX_DT_FP32: {
                float x = (float)v;
                memcpy(p, &x, 4);
                break;
            }
            case LINX_DT_FP16: {
                uint16_t h = linx_float_to_fp16((float)v);
                memcpy(p, &h, 2);
                break;
            }
            case LINX_DT_BF16: {
                uint16_t h = linx_float_to_bf16((float)v);
                memcpy(p, &h, 2);
                break;
            }
            case LINX_DT_FP8:
                *p = linx_float_to_e4m3((float)v);
                break;
            case LINX_DT_S32: {
                int32_t x = (int32_t)v;
                memcpy(p, &x, 4);
                break;
            }
            default:
                *p = (uint8_t)(int8_t)v;
                break;
            }
        }
    }
    linx_tile_push_commit(ts, hand, &m);
}

/* Push an ND tile of @bytes whose first rows x cols elements hold the
 * 32-bit values val[] densely (row-major, rows of cols), recorded as the
 * whole tile in one row (what a "C.B.DIMI 0, ->lb0" TLOAD records), the
 * rest 0xff garbage. */
static void push_dense32(LinxTileState *ts, LinxTileHand hand, unsigned dtype, uint32_t rows,
                         uint32_t cols, uint32_t bytes, const uint32_t *val)
{
    LinxTileSlot *s = linx_tile_push_slot(ts, hand);
    LinxTileMeta m = { bytes, (uint8_t)dtype, LINX_TL_ND, 1, (uint16_t)(bytes / 4), 1,
                       (uint16_t)(bytes / 4) };

    memset(s->data, 0xff, LINX_TILE_MAX_BYTES);
    memcpy(s->data, val, (size_t)rows * cols * 4);
    linx_tile_push_commit(ts, hand, &m);
}

static double a_val(uint32_t r, uint32_t c)
{
    return (double)((int)(r * 3 + c * 5) % 11) - 5.0;
}

static double b_val(uint32_t r, uint32_t c)
{
    return (double)((int)(r * 7 + c * 2) % 9) - 4.0;
}

static double big_val(uint32_t r, uint32_t c)
{
    (void)r;
    (void)c;
    return 127.0;
}

static LinxCubeOp matmul(unsigned func, unsigned dtype, uint64_t m, uint64_t n, uint64_t k)
{
    LinxCubeOp op;

    memset(&op, 0, sizeof(op));
    op.func = (uint8_t)func;
    op.dtype = (uint8_t)dtype;
    op.m = m;
    op.n = n;
    op.k = k;
    op.nsrc = 2;
    op.src[0] = (uint8_t)linx_tile_id(LINX_HAND_T, 1); /* A */
    op.src[1] = (uint8_t)linx_tile_id(LINX_HAND_U, 1); /* B */
    return op;
}

static float acc_f(const LinxTileState *ts, uint32_t i, uint32_t j)
{
    float v;

    memcpy(&v, ts->acc.data + (i * ts->acc.n + j) * 4, 4);
    return v;
}

static int32_t acc_i(const LinxTileState *ts, uint32_t i, uint32_t j)
{
    int32_t v;

    memcpy(&v, ts->acc.data + (i * ts->acc.n + j) * 4, 4);
    return v;
}

static void test_matmul_types(void **state)
{
    static const unsigned types[] = { LINX_DT_FP32, LINX_DT_FP16, LINX_DT_BF16, LINX_DT_S8,
                                      LINX_DT_S32, LINX_DT_FP8 };
    LinxTileState *ts = linx_tile_state_new();
    TmaFault f;

    (void)state;
    for (unsigned t = 0; t < 6; t++) {
        unsigned dt = types[t], esize = linx_dtype_info(dt)->size, c0 = 32 / esize;
        /* A: NZ, 16 rows, cols a multiple of c0 >= k; B: ZN, rows a
         * multiple of c0 >= k, 16 columns.  m 13, n 11, k 7 (odd). */
        uint32_t a_cols = c0 * 2, b_rows = c0 * 2;
        LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, dt, 13, 11, 7);

        push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, dt, 16, a_cols, 16 * a_cols * esize, a_val);
        push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, dt, b_rows, 16, b_rows * 16 * esize, b_val);
        assert_true(linx_cube_exec(ts, &op, &f));
        bool integer = dt == LINX_DT_S8 || dt == LINX_DT_S32;

        assert_int_equal(ts->acc.dtype, integer ? LINX_DT_S32 : LINX_DT_FP32);
        assert_int_equal(ts->acc.layout, LINX_TL_NZ);
        for (uint32_t i = 0; i < 13; i++) {
            for (uint32_t j = 0; j < 11; j++) {
                double want = 0;
                for (uint32_t k = 0; k < 7; k++) {
                    want += a_val(i, k) * b_val(k, j);
                }
                if (integer) {
                    assert_int_equal(acc_i(ts, i, j), (int32_t)want);
                } else {
                    assert_true(acc_f(ts, i, j) == (float)want); /* small integers: exact */
                }
            }
        }
        /* TMATMUL.ACC adds the same product again. */
        op.func = LINX_CUBE_TMATMUL_ACC;
        assert_true(linx_cube_exec(ts, &op, &f));
        if (integer) {
            assert_int_equal(acc_i(ts, 2, 3), 2 * (int32_t)(a_val(2, 0) * b_val(0, 3) +
                             a_val(2, 1) * b_val(1, 3) + a_val(2, 2) * b_val(2, 3) +
                             a_val(2, 3) * b_val(3, 3) + a_val(2, 4) * b_val(4, 3) +
                             a_val(2, 5) * b_val(5, 3) + a_val(2, 6) * b_val(6, 3)));
        }
    }
    linx_tile_state_free(ts);
}

static void test_int32_wraps(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, LINX_DT_S8, 1, 1, 32);
    TmaFault f;
    int32_t big = INT32_MAX;

    (void)state;
    push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, LINX_DT_S8, 16, 32, 512, big_val);
    push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, LINX_DT_S8, 32, 16, 512, big_val);
    assert_true(linx_cube_exec(ts, &op, &f));
    assert_int_equal(acc_i(ts, 0, 0), 32 * 127 * 127);
    memcpy(ts->acc.data, &big, 4);
    op.func = LINX_CUBE_TMATMUL_ACC;
    assert_true(linx_cube_exec(ts, &op, &f));
    assert_int_equal(acc_i(ts, 0, 0), (int32_t)((uint32_t)INT32_MAX + 32u * 127 * 127));
    linx_tile_state_free(ts);
}

static uint64_t quant_word(float scale, int offset)
{
    uint32_t s;

    memcpy(&s, &scale, 4);
    return s | (uint64_t)((unsigned)offset & 0x1ff) << 37;
}

static void test_acccvt(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxCubeOp op;
    TmaFault f;
    const LinxTileSlot *out;
    static const float vals[6] = { 0.5f, 1.5f, -2.5f, 65520.0f, 1.0f / 3.0f, -100.2f };

    (void)state;
    ts->acc.valid = true;
    ts->acc.dtype = LINX_DT_FP32;
    ts->acc.m = 2;
    ts->acc.n = 3;
    memcpy(ts->acc.data, vals, sizeof(vals));
    memset(&op, 0, sizeof(op));
    op.func = LINX_CUBE_ACCCVT;
    op.dtype = LINX_DT_FP16;
    op.dst_kind = LINX_HAND_M;
    op.dst_bytes = 512;
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
    assert_int_equal(out->meta.layout, LINX_TL_NZ);
    assert_int_equal(out->meta.rows, 16);
    assert_int_equal(out->meta.cols, 16);
    assert_int_equal(out->meta.valid_rows, 2);
    assert_int_equal(out->meta.valid_cols, 3);
    for (uint32_t i = 0; i < 2; i++) {
        for (uint32_t j = 0; j < 3; j++) {
            uint16_t h;
            memcpy(&h, out->data + linx_tile_elem_offset(LINX_TL_NZ, i, j, 16, 16, 2) * 2, 2);
            assert_int_equal(h, linx_float_to_fp16(vals[i * 3 + j]));
        }
    }
    assert_int_equal(out->data[linx_tile_elem_offset(LINX_TL_NZ, 1, 3, 16, 16, 2) * 2], 0);
    /* Scalar quant to int8, scale 2.5, offset 3: rne(x * 2.5) + 3.
     * 0.5 -> rne(1.25) = 1 -> 4;  1.5 -> rne(3.75) = 4 -> 7;
     * -2.5 -> rne(-6.25) = -6 -> -3;  65520 -> clip 255 -> 258 -> 127;
     * 1/3 -> rne(0.833) = 1 -> 4;  -100.2 -> rne(-250.5) = -250 -> -247 -> -128. */
    op.dtype = LINX_DT_S8;
    op.quant = LINX_CUBE_QUANT_SCALAR;
    op.quant_word = quant_word(2.5f, 3);
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
    {
        static const int8_t want[6] = { 4, 7, -3, 127, 4, -128 };
        for (uint32_t k = 0; k < 6; k++) {
            size_t off = linx_tile_elem_offset(LINX_TL_NZ, k / 3, k % 3, 16, 32, 1);
            assert_int_equal((int8_t)out->data[off], want[k]);
        }
    }
    /* The offset field is unsigned (pto-isa tstore_acc2gm/gen_data.py
     * extract_quant_params: (word >> 37) & 0x1FF): 0x100 adds 256, so
     * -2.5 * 2.5 -> -6 + 256 = 250 -> 127 (a signed field would give -262
     * -> -128); to U8, 0.5 -> 1 + 256 -> 255. */
    op.quant_word = quant_word(2.5f, 0x100);
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
    assert_int_equal((int8_t)out->data[linx_tile_elem_offset(LINX_TL_NZ, 0, 2, 16, 32, 1)], 127);
    op.dtype = LINX_DT_U8;
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
    assert_int_equal(out->data[0], 255);
    op.dtype = LINX_DT_S8;
    /* Ties to even on the fp32 product: 0.2f * 2.5 -> 0.5 -> 0, 0.6f * 2.5 -> 1.5 -> 2. */
    {
        static const float ties[2] = { 0.2f, 0.6f };
        ts->acc.m = 1;
        ts->acc.n = 2;
        memcpy(ts->acc.data, ties, sizeof(ties));
        op.dtype = LINX_DT_U8;
        op.quant_word = quant_word(2.5f, 0);
        assert_true(linx_cube_exec(ts, &op, &f));
        out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
        assert_int_equal(out->data[0], 0); /* fp32(0.2f * 2.5f) = 0.5 exactly */
        assert_int_equal(out->data[1], 2);
    }
    /* int32 ACC -> fp16 with a scale (DEQF16). */
    {
        int32_t iv[2] = { 3, -8 };
        ts->acc.dtype = LINX_DT_S32;
        memcpy(ts->acc.data, iv, sizeof(iv));
        op.dtype = LINX_DT_FP16;
        op.quant_word = quant_word(0.25f, 0);
        assert_true(linx_cube_exec(ts, &op, &f));
        out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
        assert_true(linx_fp16_to_float((uint16_t)(out->data[0] | out->data[1] << 8)) == 0.75f);
        assert_true(linx_fp16_to_float((uint16_t)(out->data[2] | out->data[3] << 8)) == -2.0f);
    }
    linx_tile_state_free(ts);
}

static void expect_rule(LinxTileState *ts, const LinxCubeOp *op, LinxCubeRule rule,
                        uint64_t value, unsigned ec)
{
    TmaFault f;
    LinxTileTrap t;
    LinxAccState before = ts->acc;
    uint8_t acc0[16];

    memcpy(acc0, ts->acc.data, sizeof(acc0));
    assert_false(linx_cube_exec(ts, op, &f));
    assert_int_equal(f.rule, rule);
    assert_int_equal(f.value, value);
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.trapnum, LINX_TRAP_ILLEGAL_INST);
    assert_int_equal(t.cause, ec << 8);
    assert_int_equal(t.traparg0, (uint64_t)rule | value << 32);
    assert_memory_equal(acc0, ts->acc.data, sizeof(acc0)); /* no side effect */
    assert_int_equal(before.valid, ts->acc.valid);
}

static void test_rules(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxCubeOp op;

    (void)state;
    op = matmul(5, LINX_DT_FP32, 4, 4, 4);
    expect_rule(ts, &op, LINX_CUBE_BAD_FUNC, 5, LINX_EC_ILLEGAL);
    assert_string_equal(linx_cube_rule_name(LINX_CUBE_BAD_FUNC), "cube-bad-function");
    for (unsigned r = LINX_CUBE_BAD_FUNC; r < LINX_CUBE__END; r++) {
        assert_string_not_equal(linx_cube_rule_name(r), "?");
        assert_string_not_equal(linx_cube_rule_text(r), "?");
    }
    assert_string_equal(linx_cube_rule_text(LINX_CUBE__END), "?");
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_U16, 4, 4, 4);
    expect_rule(ts, &op, LINX_CUBE_BAD_DTYPE, LINX_DT_U16, LINX_EC_PARAM);
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP32, 0, 4, 4);
    expect_rule(ts, &op, LINX_CUBE_BAD_DIMS, 0, LINX_EC_PARAM);
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP32, 100, 100, 4); /* 10000 > the ACC */
    expect_rule(ts, &op, LINX_CUBE_BAD_DIMS, 10000, LINX_EC_PARAM);
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP32, 4, 4, 4);
    op.nsrc = 1;
    expect_rule(ts, &op, LINX_CUBE_OPERANDS, 1, LINX_EC_PARAM);
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP32, 4, 4, 4);
    expect_rule(ts, &op, LINX_CUBE_TILE_EMPTY, 0, LINX_EC_PARAM);
    /* A as ZN (wrong layout), B fine. */
    push_matrix(ts, LINX_HAND_T, LINX_TL_ZN, LINX_DT_FP32, 8, 16, 512, a_val);
    push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, LINX_DT_FP32, 8, 16, 512, b_val);
    expect_rule(ts, &op, LINX_CUBE_LEFT, 0, LINX_EC_PARAM);
    push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, LINX_DT_FP32, 16, 8, 512, a_val);
    op.k = 9; /* A has only 8 columns */
    expect_rule(ts, &op, LINX_CUBE_LEFT, 0, LINX_EC_PARAM);
    op.k = 4;
    op.n = 17; /* B has only 16 columns */
    expect_rule(ts, &op, LINX_CUBE_RIGHT, 8, LINX_EC_PARAM);
    op.n = 4;
    op.dtype = LINX_DT_FP16; /* tiles are FP32 */
    expect_rule(ts, &op, LINX_CUBE_LEFT, 0, LINX_EC_PARAM);
    op.dtype = LINX_DT_FP32;
    op.func = LINX_CUBE_TMATMUL_ACC; /* no ACC yet */
    expect_rule(ts, &op, LINX_CUBE_CHAIN, 0, LINX_EC_PARAM);
    op.func = LINX_CUBE_TMATMUL;
    {
        TmaFault f;
        assert_true(linx_cube_exec(ts, &op, &f));
    }
    op.func = LINX_CUBE_TMATMUL_ACC;
    op.m = 3; /* ACC is 4 x 4 */
    expect_rule(ts, &op, LINX_CUBE_CHAIN, 1, LINX_EC_PARAM);
    /* ACCCVT rules. */
    memset(&op, 0, sizeof(op));
    op.func = LINX_CUBE_ACCCVT;
    op.dtype = LINX_DT_S32; /* FP32 ACC -> S32 without quant: not allowed */
    op.dst_bytes = 512;
    expect_rule(ts, &op, LINX_CUBE_BAD_DTYPE, LINX_DT_S32, LINX_EC_PARAM);
    op.dtype = LINX_DT_FP32;
    op.quant = 3;
    expect_rule(ts, &op, LINX_CUBE_BAD_QUANT, 3, LINX_EC_PARAM);
    op.quant = 0;
    op.dst_kind = 4; /* ->acc */
    expect_rule(ts, &op, LINX_CUBE_OPERANDS, 4, LINX_EC_PARAM);
    op.dst_kind = 0;
    op.dst_bytes = 256; /* not a tile size */
    expect_rule(ts, &op, LINX_CUBE_DST_SIZE, 256, LINX_EC_PARAM);
    /* The NZ output is round_up(m, 16) x round_up(n, c0): 4 x 4 fp32 ->
     * 16 x 8 in a 1.5 KB tile; 4 x 24 (16 x 24 x 4 = 1536 B) does not fit
     * 1 KB. */
    op.dst_bytes = 1536;
    {
        TmaFault f;
        assert_true(linx_cube_exec(ts, &op, &f));
        assert_int_equal(linx_tile_get(ts, 0)->meta.rows, 16);
        assert_int_equal(linx_tile_get(ts, 0)->meta.cols, 8);
    }
    ts->acc.n = 24;
    op.dst_bytes = 1024;
    expect_rule(ts, &op, LINX_CUBE_DST_SIZE, 1536, LINX_EC_PARAM);
    ts->acc.n = 4;
    linx_tile_state_free(ts);
}

/* GM -> TLOAD ND2NZ (A) / ND2ZN (B) -> TMATMUL -> ACCCVT FP32 -> TSTORE
 * NZ2ND -> GM: C = A x B for fp16 A (20 x 24) and B (24 x 10). */
static TmaPlan plan_io(unsigned op, unsigned dtype, TmaLayout lay, uint64_t lb0, uint64_t lb1,
                       uint64_t lb2, unsigned size_code, int src, unsigned dst)
{
    TmaDesc d;
    TmaIot iot;
    TmaPlan p;

    tma_desc_init(&d, op, dtype);
    tma_desc_set_datr(&d, tma_datr_code(op, lay), TMA_PAD_ZERO * (op == TMA_OP_TLOAD));
    tma_desc_set_dim(&d, 0, 0, lb0);
    tma_desc_set_dim(&d, 1, 0, lb1);
    tma_desc_set_dim(&d, 2, 0, lb2);
    tma_desc_add_ior(&d, 2, 0, 0);
    memset(&iot, 0, sizeof(iot));
    iot.src[0] = (uint8_t)(src < 0 ? 0 : src);
    iot.src_absent[0] = src < 0;
    iot.src_absent[1] = true;
    iot.dst = (uint8_t)dst;
    iot.size = (uint8_t)size_code;
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    return p;
}

static void test_chain_through_gm(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    LinxTileState *ts = linx_tile_state_new();
    const uint64_t A = 0x100000, B = 0x101000, C = 0x102000;
    const uint32_t m = 20, k = 24, n = 10;
    TmaRuntimeArgs a;
    TmaFault f;
    TmaPlan p;
    LinxCubeOp op;

    (void)state;
    assert_true(guest_mem_map(gm, A, 0x4000, GM_PROT_READ | GM_PROT_WRITE, false));
    for (uint32_t r = 0; r < m; r++) {
        for (uint32_t c = 0; c < k; c++) {
            uint16_t h = linx_float_to_fp16((float)a_val(r, c));
            guest_mem_write(gm, A + (r * k + c) * 2, &h, 2, NULL);
        }
    }
    for (uint32_t r = 0; r < k; r++) {
        for (uint32_t c = 0; c < n; c++) {
            uint16_t h = linx_float_to_fp16((float)b_val(r, c));
            guest_mem_write(gm, B + (r * n + c) * 2, &h, 2, NULL);
        }
    }
    memset(&a, 0, sizeof(a));
    /* A: NZ tile 32 x 32 (2 KB) holding the 20 x 24 window -> t#1. */
    p = plan_io(TMA_OP_TLOAD, LINX_DT_FP16, TMA_LAYOUT_ND_NZ, k, m, 32, 7, -1, LINX_HAND_T);
    a.base = A;
    assert_true(tma_exec(ts, gm, &p, &a, &f));
    /* B: ZN tile 32 x 16 (1 KB) holding the 24 x 10 window -> u#1. */
    p = plan_io(TMA_OP_TLOAD, LINX_DT_FP16, TMA_LAYOUT_ND_ZN, n, k, 16, 6, -1, LINX_HAND_U);
    a.base = B;
    assert_true(tma_exec(ts, gm, &p, &a, &f));
    op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP16, m, n, k);
    assert_true(linx_cube_exec(ts, &op, &f));
    memset(&op, 0, sizeof(op));
    op.func = LINX_CUBE_ACCCVT;
    op.dtype = LINX_DT_FP32;
    op.dst_kind = LINX_HAND_N;
    op.dst_bytes = 2048; /* 32 x 16 f32 */
    assert_true(linx_cube_exec(ts, &op, &f));
    /* TSTORE NZ2ND of n#1: 32 x 16 f32 tile, window 20 x 10. */
    p = plan_io(TMA_OP_TSTORE, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, n, m, 16, 7,
                (int)linx_tile_id(LINX_HAND_N, 1), 0);
    a.base = C;
    assert_true(tma_exec(ts, gm, &p, &a, &f));
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            double want = 0;
            float got;

            for (uint32_t kk = 0; kk < k; kk++) {
                want += a_val(i, kk) * b_val(kk, j);
            }
            guest_mem_read(gm, C + (i * n + j) * 4, &got, 4, GM_PROT_READ, NULL);
            assert_true(got == (float)want);
        }
    }
    linx_tile_state_free(ts);
    guest_mem_free(gm);
}

/* INT32 x INT32 -> S32: the exact sum modulo 2^32 (oracle: 128-bit
 * integers), for products and sums far beyond 32 bits, on both layout
 * families and through the reference and the fast path. */
static void test_int32_inputs(void **state)
{
    enum { M = 8, N = 8, K = 8 };
    static uint32_t a[M * K], b[K * N];
    LinxTileState *ts = linx_tile_state_new();
    uint64_t x = 0x9e3779b97f4a7c15u;
    TmaFault f;

    (void)state;
    for (unsigned i = 0; i < M * K; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        a[i] = i % 5 == 0 ? 0x80000000u : i % 7 == 0 ? 0x7fffffffu : (uint32_t)(x >> 32);
    }
    for (unsigned i = 0; i < K * N; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        b[i] = i % 3 == 0 ? 0x7fffffffu : (uint32_t)(x >> 32);
    }
    for (unsigned ref = 0; ref < 2; ref++) {
        LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, LINX_DT_S32, M, N, K);

        op.reference = ref;
        push_dense32(ts, LINX_HAND_T, LINX_DT_S32, M, K, 4096, a);
        push_dense32(ts, LINX_HAND_U, LINX_DT_S32, K, N, 4096, b);
        assert_true(linx_cube_exec(ts, &op, &f));
        assert_int_equal(ts->acc.layout, LINX_TL_ND);
        for (unsigned i = 0; i < M; i++) {
            for (unsigned j = 0; j < N; j++) {
                __int128 want = 0;
                for (unsigned k = 0; k < K; k++) {
                    want += (__int128)(int32_t)a[i * K + k] * (int32_t)b[k * N + j];
                }
                assert_int_equal((uint32_t)acc_i(ts, i, j), (uint32_t)(uint64_t)want);
            }
        }
    }
    linx_tile_state_free(ts);
}

/* Dense ND operands of other types: A(i, k') = element i * k + k' of the
 * tile whatever shape it was loaded with; ACCCVT of an ND chain writes the
 * dense m x n result at the start of its tile and zero after it. */
static void test_dense_operands(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    LinxTileSlot *s;
    LinxTileMeta meta;
    LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, LINX_DT_FP16, 5, 6, 7);
    const LinxTileSlot *out;
    TmaFault f;

    (void)state;
    for (unsigned which = 0; which < 2; which++) {
        uint32_t rows = which ? 7 : 5, cols = which ? 6 : 7;

        s = linx_tile_push_slot(ts, which ? LINX_HAND_U : LINX_HAND_T);
        memset(s->data, 0xff, LINX_TILE_MAX_BYTES); /* fp16 NaN garbage */
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < cols; c++) {
                double v = which ? b_val(r, c) : a_val(r, c);
                uint16_t h = linx_float_to_fp16((float)v);
                memcpy(s->data + (r * cols + c) * 2, &h, 2);
            }
        }
        memset(&meta, 0, sizeof(meta));
        meta.bytes = 1024;
        meta.dtype = LINX_DT_FP16;
        meta.layout = LINX_TL_ND;
        meta.rows = 16; /* a recorded shape the cube does not use */
        meta.cols = 32;
        linx_tile_push_commit(ts, which ? LINX_HAND_U : LINX_HAND_T, &meta);
    }
    assert_true(linx_cube_exec(ts, &op, &f));
    memset(&op, 0, sizeof(op));
    op.func = LINX_CUBE_ACCCVT;
    op.dtype = LINX_DT_FP32;
    op.dst_kind = LINX_HAND_N;
    op.dst_bytes = 512;
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_N, 1));
    assert_int_equal(out->meta.layout, LINX_TL_ND);
    assert_int_equal(out->meta.rows, 5);
    assert_int_equal(out->meta.cols, 6);
    for (uint32_t i = 0; i < 5; i++) {
        for (uint32_t j = 0; j < 6; j++) {
            double want = 0;
            float got;
            for (uint32_t k = 0; k < 7; k++) {
                want += a_val(i, k) * b_val(k, j);
            }
            memcpy(&got, out->data + (i * 6 + j) * 4, 4);
            assert_true(got == (float)want);
        }
    }
    for (uint32_t b = 30 * 4; b < 512; b++) {
        assert_int_equal(out->data[b], 0);
    }
    /* An ND output larger than its tile: 5 x 6 fp32 = 120 B fits 512 B;
     * a 64 x 64 S32 chain does not fit 4 KB (16 KB). */
    linx_tile_state_free(ts);
}

/* TMATMUL.BIAS: ACC = A x B + bias(j) in the ACC type (int32 wraps). */
static void test_bias(void **state)
{
    enum { M = 3, N = 5, K = 4 };
    static uint32_t a[M * K], b[K * N], bias[N];
    LinxTileState *ts = linx_tile_state_new();
    LinxCubeOp op = matmul(LINX_CUBE_TMATMUL_BIAS, LINX_DT_S32, M, N, K);
    TmaFault f;

    (void)state;
    for (unsigned i = 0; i < M * K; i++) {
        a[i] = (uint32_t)(int32_t)(i * 3 - 7);
    }
    for (unsigned i = 0; i < K * N; i++) {
        b[i] = (uint32_t)(int32_t)(11 - i * 2);
    }
    for (unsigned j = 0; j < N; j++) {
        bias[j] = j == 2 ? 0x7fffffffu : (uint32_t)(int32_t)(j * 100 - 50);
    }
    push_dense32(ts, LINX_HAND_T, LINX_DT_S32, M, K, 512, a);
    push_dense32(ts, LINX_HAND_U, LINX_DT_S32, K, N, 512, b);
    push_dense32(ts, LINX_HAND_M, LINX_DT_S32, 1, N, 512, bias);
    op.nsrc = 3;
    op.src[2] = (uint8_t)linx_tile_id(LINX_HAND_M, 1);
    assert_true(linx_cube_exec(ts, &op, &f));
    for (unsigned i = 0; i < M; i++) {
        for (unsigned j = 0; j < N; j++) {
            int64_t want = (int32_t)bias[j];
            for (unsigned k = 0; k < K; k++) {
                want += (int64_t)(int32_t)a[i * K + k] * (int32_t)b[k * N + j];
            }
            assert_int_equal((uint32_t)acc_i(ts, i, j), (uint32_t)want);
        }
    }
    /* A chain may continue after .BIAS. */
    op.func = LINX_CUBE_TMATMUL_ACC;
    op.nsrc = 2;
    assert_true(linx_cube_exec(ts, &op, &f));
    /* Bias rules: missing, wrong type, too short, NZ layout. */
    op.func = LINX_CUBE_TMATMUL_BIAS;
    expect_rule(ts, &op, LINX_CUBE_OPERANDS, 2, LINX_EC_PARAM);
    op.nsrc = 3;
    push_matrix(ts, LINX_HAND_M, LINX_TL_ND, LINX_DT_FP32, 1, 128, 512, a_val);
    expect_rule(ts, &op, LINX_CUBE_BIAS, 16, LINX_EC_PARAM); /* fp32 bias, s32 ACC */
    push_matrix(ts, LINX_HAND_M, LINX_TL_NZ, LINX_DT_S32, 16, 8, 512, a_val);
    expect_rule(ts, &op, LINX_CUBE_BIAS, 16, LINX_EC_PARAM);
    op.n = 200; /* 800 bytes of bias from a 512-byte tile */
    op.k = 1;
    push_dense32(ts, LINX_HAND_M, LINX_DT_S32, 1, N, 512, bias);
    push_dense32(ts, LINX_HAND_U, LINX_DT_S32, 1, 1, 1024, b);
    op.m = 1;
    expect_rule(ts, &op, LINX_CUBE_BIAS, 16, LINX_EC_PARAM);
    linx_tile_state_free(ts);
}

/* ACCCVT's other conversions (QF322F16_PRE, QF322BF16_PRE saturating,
 * DEQF16) and the layout-family rules. */
static void test_acccvt_more(void **state)
{
    LinxTileState *ts = linx_tile_state_new();
    static const float vals[4] = { 1.5f, -3.0f, 1.0e6f, -1.0e38f };
    LinxCubeOp op;
    TmaFault f;
    const LinxTileSlot *out;
    uint16_t h;

    (void)state;
    ts->acc.valid = true;
    ts->acc.dtype = LINX_DT_FP32;
    ts->acc.layout = LINX_TL_ND;
    ts->acc.m = 1;
    ts->acc.n = 4;
    memcpy(ts->acc.data, vals, sizeof(vals));
    memset(&op, 0, sizeof(op));
    op.func = LINX_CUBE_ACCCVT;
    op.dtype = LINX_DT_FP16;
    op.dst_kind = LINX_HAND_T;
    op.dst_bytes = 512;
    op.quant = LINX_CUBE_QUANT_SCALAR;
    op.quant_word = quant_word(0.5f, 0);
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, 0);
    memcpy(&h, out->data, 2);
    assert_true(linx_fp16_to_float(h) == 0.75f);
    memcpy(&h, out->data + 2, 2);
    assert_true(linx_fp16_to_float(h) == -1.5f);
    memcpy(&h, out->data + 4, 2);
    assert_int_equal(h, 0x7bff); /* 5e5 saturates to 65504 */
    memcpy(&h, out->data + 6, 2);
    assert_int_equal(h, 0xfbff); /* -65504 */
    op.dtype = LINX_DT_BF16;
    op.quant_word = quant_word(4.0f, 0);
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, 0);
    memcpy(&h, out->data, 2);
    assert_int_equal(h, 0x40c0); /* 6.0 */
    memcpy(&h, out->data + 6, 2);
    assert_int_equal(h, 0xff7f); /* -4e38 -> the largest finite bf16, negated */
    /* No quant: fp32 -> bf16 rounds (and overflows to inf, no saturation). */
    op.quant = LINX_CUBE_QUANT_NONE;
    assert_true(linx_cube_exec(ts, &op, &f));
    memcpy(&h, linx_tile_get(ts, 0)->data, 2);
    assert_int_equal(h, 0x3fc0); /* 1.5 */
    /* S32 -> S16 (SHIFTS322S16) and S32 -> BF16 are not conversions. */
    ts->acc.dtype = LINX_DT_S32;
    op.quant = LINX_CUBE_QUANT_SCALAR;
    op.dtype = LINX_DT_S16;
    expect_rule(ts, &op, LINX_CUBE_BAD_DTYPE, LINX_DT_S16, LINX_EC_PARAM);
    op.dtype = LINX_DT_BF16;
    expect_rule(ts, &op, LINX_CUBE_BAD_DTYPE, LINX_DT_BF16, LINX_EC_PARAM);
    linx_tile_state_free(ts);
}

/* The families do not mix: A NZ with B ND is cube-right (B), A ND with B
 * ZN too; a chain keeps its family (cube-acc-chain). */
static void test_families(void **state)
{
    static uint32_t ones[64];
    LinxTileState *ts = linx_tile_state_new();
    LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, LINX_DT_S32, 4, 4, 4);
    TmaFault f;

    (void)state;
    for (unsigned i = 0; i < 64; i++) {
        ones[i] = 1;
    }
    push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, LINX_DT_S32, 16, 8, 512, a_val);
    push_dense32(ts, LINX_HAND_U, LINX_DT_S32, 4, 4, 512, ones);
    expect_rule(ts, &op, LINX_CUBE_RIGHT, 8, LINX_EC_PARAM);
    push_dense32(ts, LINX_HAND_T, LINX_DT_S32, 4, 4, 512, ones);
    push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, LINX_DT_S32, 8, 16, 512, b_val);
    expect_rule(ts, &op, LINX_CUBE_RIGHT, 8, LINX_EC_PARAM);
    /* An ND A too small for m x k: 4 x 200 s32 from 512 bytes. */
    op.k = 200;
    expect_rule(ts, &op, LINX_CUBE_LEFT, 0, LINX_EC_PARAM);
    op.k = 4;
    push_dense32(ts, LINX_HAND_U, LINX_DT_S32, 4, 4, 512, ones);
    assert_true(linx_cube_exec(ts, &op, &f));
    assert_int_equal(acc_i(ts, 3, 3), 4);
    /* .ACC with NZ operands on an ND chain. */
    push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, LINX_DT_S32, 16, 8, 512, a_val);
    push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, LINX_DT_S32, 8, 16, 512, b_val);
    op.func = LINX_CUBE_TMATMUL_ACC;
    expect_rule(ts, &op, LINX_CUBE_CHAIN, 1, LINX_EC_PARAM);
    linx_tile_state_free(ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_types),
        cmocka_unit_test(test_int32_wraps),
        cmocka_unit_test(test_acccvt),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_chain_through_gm),
        cmocka_unit_test(test_int32_inputs),
        cmocka_unit_test(test_dense_operands),
        cmocka_unit_test(test_bias),
        cmocka_unit_test(test_acccvt_more),
        cmocka_unit_test(test_families),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
