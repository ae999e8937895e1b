/*
 * The run-time tile block engine: a CUBE header record gathered the way
 * the front end does (raw B.* words, B.IOR values, LB0-2) runs through the
 * hook, and the descriptor checks of header_to_cube.  (TMA headers are
 * planned at translation time: tests/unit/test-tma-translate.c.)
 */
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
#include "target/linx/tile-engine.h"
#include "target/linx/tile-trap.h"

#define PRESENT (UINT64_C(1) << 62)

/* CUBE headers through the hook: TMATMUL of two 512 B f32 tiles, then
 * ACCCVT to FP16; and the descriptor checks of header_to_cube. */
static void test_engine_cube(void **state)
{
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxBlockHeader *h = &env->hdr;
    LinxTileEngine eng;
    LinxCubeOp op;
    TmaFault f;
    LinxTileTrap t;

    (void)state;
    env->tiles = linx_tile_state_new();
    linx_tile_engine_init(&eng, NULL);
    {
        LinxTileSlot *a = linx_tile_push_slot(env->tiles, LINX_HAND_T);
        LinxTileSlot *b = linx_tile_push_slot(env->tiles, LINX_HAND_U);
        LinxTileMeta ma = { 512, LINX_DT_FP32, LINX_TL_NZ, 16, 8, 16, 8 };
        LinxTileMeta mb = { 512, LINX_DT_FP32, LINX_TL_ZN, 8, 16, 8, 16 };
        for (uint32_t i = 0; i < 128; i++) {
            float one = 1.0f, two = 2.0f;
            memcpy(a->data + 4 * i, &one, 4);
            memcpy(b->data + 4 * i, &two, 4);
        }
        linx_tile_push_commit(env->tiles, LINX_HAND_T, &ma);
        linx_tile_push_commit(env->tiles, LINX_HAND_U, &mb);
    }
    memset(h, 0, sizeof(*h));
    h->type = LINX_BLK_CUBE;
    h->func = LINX_CUBE_TMATMUL;
    h->dtype = LINX_DT_FP32;
    h->arg = 0x3043u | PRESENT;
    h->dim_mask = 7;
    env->lb[0] = 4; /* m */
    env->lb[1] = 5; /* n */
    env->lb[2] = 8; /* k */
    h->niot = 1;
    h->iot[0] = 0x7013u | 5u << 7 | 0u << 15 | 8u << 20 | 4u << 25; /* [t#1, u#1] ->acc */
    linx_tile_block_engine(env, &eng);
    assert_int_equal(eng.cube_blocks, 1);
    assert_true(env->tiles->acc.valid);
    {
        float v;
        memcpy(&v, env->tiles->acc.data + 4 * (2 * 5 + 3), 4);
        assert_true(v == 16.0f); /* 8 x (1 x 2) */
    }
    /* ACCCVT to FP16 ->m<512B>, quant none (B.ARG format 0), B.IOR scale. */
    h->func = LINX_CUBE_ACCCVT;
    h->dtype = LINX_DT_FP16;
    h->nior = 1;
    h->ior[0] = 0;
    h->iot[0] = 0x7013u | 5u << 7 | 1u << 28 | 1u << 29 | 2u << 25;
    linx_tile_block_engine(env, &eng);
    {
        const LinxTileSlot *m1 = linx_tile_get(env->tiles, linx_tile_id(LINX_HAND_M, 1));
        uint16_t hv;
        assert_int_equal(m1->meta.dtype, LINX_DT_FP16);
        memcpy(&hv, m1->data + linx_tile_elem_offset(LINX_TL_NZ, 3, 4, 16, 16, 2) * 2, 2);
        assert_true(linx_fp16_to_float(hv) == 16.0f);
    }
    /* Missing descriptors, in the digest's order (linx-v0.4). */
    h->nior = 0;
    assert_false(linx_tile_header_to_cube(h, env->lb, false, &op, &f));
    assert_int_equal(f.rule, TMA_R_MISSING_IOR);
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.traparg0, 4); /* B.IOR missing (ACCCVT) */
    h->dim_mask = 3;
    h->nior = 1;
    assert_false(linx_tile_header_to_cube(h, env->lb, false, &op, &f));
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.traparg0, 1); /* B.DIM missing */
    h->arg = 0;
    assert_false(linx_tile_header_to_cube(h, env->lb, false, &op, &f));
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.trapnum, LINX_TRAP_BLOCK);
    assert_int_equal(t.traparg0, 3); /* B.ARG first */
    /* The compiled forms (linx-toolchain): ACCCVT with only its B.IOTI is
     * quant none; a TMATMUL without B.ARG is fine, without B.DIM not. */
    h->nior = 0;
    h->dim_mask = 0;
    assert_true(linx_tile_header_to_cube(h, env->lb, true, &op, &f));
    assert_int_equal(op.quant, LINX_CUBE_QUANT_NONE);
    assert_int_equal(op.quant_word, 0);
    h->func = LINX_CUBE_TMATMUL;
    assert_false(linx_tile_header_to_cube(h, env->lb, true, &op, &f));
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.traparg0, 1); /* B.DIM missing */
    h->dim_mask = 7;
    assert_true(linx_tile_header_to_cube(h, env->lb, true, &op, &f));
    linx_tile_state_free(env->tiles);
    free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_cube),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
