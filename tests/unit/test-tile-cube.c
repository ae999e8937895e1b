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
            default:
                *p = (uint8_t)(int8_t)v;
                break;
            }
        }
    }
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
    static const unsigned types[] = { LINX_DT_FP32, LINX_DT_FP16, LINX_DT_BF16, LINX_DT_S8 };
    LinxTileState *ts = linx_tile_state_new();
    TmaFault f;

    (void)state;
    for (unsigned t = 0; t < 4; t++) {
        unsigned dt = types[t], esize = linx_dtype_info(dt)->size, c0 = 32 / esize;
        /* A: NZ, 16 rows, cols a multiple of c0 >= k; B: ZN, rows a
         * multiple of c0 >= k, 16 columns.  m 13, n 11, k 7 (odd). */
        uint32_t a_cols = c0 * 2, b_rows = c0 * 2;
        LinxCubeOp op = matmul(LINX_CUBE_TMATMUL, dt, 13, 11, 7);

        push_matrix(ts, LINX_HAND_T, LINX_TL_NZ, dt, 16, a_cols, 16 * a_cols * esize, a_val);
        push_matrix(ts, LINX_HAND_U, LINX_TL_ZN, dt, b_rows, 16, b_rows * 16 * esize, b_val);
        assert_true(linx_cube_exec(ts, &op, &f));
        assert_int_equal(ts->acc.dtype, dt == LINX_DT_S8 ? LINX_DT_S32 : LINX_DT_FP32);
        for (uint32_t i = 0; i < 13; i++) {
            for (uint32_t j = 0; j < 11; j++) {
                double want = 0;
                for (uint32_t k = 0; k < 7; k++) {
                    want += a_val(i, k) * b_val(k, j);
                }
                if (dt == LINX_DT_S8) {
                    assert_int_equal(acc_i(ts, i, j), (int32_t)want);
                } else {
                    assert_true(acc_f(ts, i, j) == (float)want); /* small integers: exact */
                }
            }
        }
        /* TMATMUL.ACC adds the same product again. */
        op.func = LINX_CUBE_TMATMUL_ACC;
        assert_true(linx_cube_exec(ts, &op, &f));
        if (dt == LINX_DT_S8) {
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
    /* Scalar quant to int8, scale 2.5, offset -1: rne(x * 2.5) - 1.
     * 0.5 -> rne(1.25) = 1 -> 0;  1.5 -> rne(3.75) = 4 -> 3;
     * -2.5 -> rne(-6.25) = -6 -> -7;  65520 -> clip 255 -> 254 -> 127;
     * 1/3 -> rne(0.833) = 1 -> 0;  -100.2 -> clip -256 -> -257 -> -128. */
    op.dtype = LINX_DT_S8;
    op.quant = LINX_CUBE_QUANT_SCALAR;
    op.quant_word = quant_word(2.5f, -1);
    assert_true(linx_cube_exec(ts, &op, &f));
    out = linx_tile_get(ts, linx_tile_id(LINX_HAND_M, 1));
    {
        static const int8_t want[6] = { 0, 3, -7, 127, 0, -128 };
        for (uint32_t k = 0; k < 6; k++) {
            size_t off = linx_tile_elem_offset(LINX_TL_NZ, k / 3, k % 3, 16, 32, 1);
            assert_int_equal((int8_t)out->data[off], want[k]);
        }
    }
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
    LinxAccState before = ts->acc;
    uint8_t acc0[16];

    memcpy(acc0, ts->acc.data, sizeof(acc0));
    assert_false(linx_cube_exec(ts, op, &f));
    assert_int_equal(f.rule, rule);
    assert_int_equal(f.trapnum, LINX_TRAP_ILLEGAL_INST);
    assert_int_equal(f.cause, ec << 8);
    assert_int_equal(f.traparg0, (uint64_t)rule | value << 32);
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
    op.dst_bytes = 256;
    expect_rule(ts, &op, LINX_CUBE_DST_SIZE, 16 * 8 * 4, LINX_EC_PARAM);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_types),
        cmocka_unit_test(test_int32_wraps),
        cmocka_unit_test(test_acccvt),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_chain_through_gm),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
