/*
 * The run-time tile block engine: a header record gathered the way the
 * front end does (raw B.* words, B.IOR values, LB0-2) becomes the same
 * descriptor as direct ingestion, and the hook runs TLOAD/TSTORE on guest
 * memory with the one-entry plan cache.
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
#include "hw/linx/tile-engine.h"

#define PRESENT (UINT64_C(1) << 62)
#define RAM 0x300000u

static uint32_t bioti(int src0, unsigned dst, unsigned code, bool last)
{
    uint32_t w = (last ? 0x7013u : 0x6013u) | code << 7 | dst << 25 | 1u << 29;

    w |= src0 < 0 ? 1u << 28 : (uint32_t)src0 << 15;
    return w;
}

/* A TLOAD/TSTORE FP32 header: B.ARG ND2NZ (1) or B.DATR, LB 32/32/32,
 * B.IOR values @v0 (and @v1), B.IOTI 4 KB. */
static void make_header(CPULinxState *env, unsigned func, bool datr, unsigned nior,
                        uint64_t v0, uint64_t v1)
{
    LinxBlockHeader *h = &env->hdr;

    memset(h, 0, sizeof(*h));
    h->type = LINX_BLK_TMA;
    h->func = func;
    h->dtype = 1;
    if (datr) {
        h->datr = (0x1023u | (func == 1 ? 27u : 4u) << 7) | PRESENT;
    } else {
        h->arg = (0x3043u | 1u << 7) | PRESENT;
    }
    h->dim_mask = 7;
    env->lb[0] = env->lb[1] = env->lb[2] = 32;
    h->nior = nior;
    h->ior[0] = v0;
    h->ior[1] = v1;
    h->niot = 1;
    h->iot[0] = bioti(func == 1 ? 0 : -1, 0, 8, true);
}

static void test_header_to_desc(void **state)
{
    CPULinxState *env = calloc(1, sizeof(*env));
    TmaDesc d;
    TmaPlan p;
    uint64_t regs[4];

    (void)state;
    /* B.ARG, two values: [stride, base]. */
    make_header(env, 1, false, 2, 256, RAM);
    linx_tile_header_to_tma(&env->hdr, env->lb, &d, regs);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_int_equal(p.layout, TMA_LAYOUT_ND_NZ);
    assert_true(p.shape_const);
    assert_int_equal(regs[p.base_reg], RAM);
    assert_int_equal(regs[p.stride_reg], 256);
    assert_int_equal(p.nsrc, 1);
    /* B.DATR, two values: [base, stride]. */
    make_header(env, 1, true, 2, RAM, 256);
    linx_tile_header_to_tma(&env->hdr, env->lb, &d, regs);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_int_equal(regs[p.base_reg], RAM);
    assert_int_equal(regs[p.stride_reg], 256);
    /* Header faults come out of the plan: ValidCol 40 > Col 32. */
    make_header(env, 1, false, 1, RAM, 0);
    env->lb[0] = 40;
    linx_tile_header_to_tma(&env->hdr, env->lb, &d, regs);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_R_VALIDCOL_GT_COL);
    /* No B.ARG at all. */
    make_header(env, 0, false, 1, RAM, 0);
    env->hdr.arg = 0;
    linx_tile_header_to_tma(&env->hdr, env->lb, &d, regs);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_R_MISSING_ARG);
    /* B.IOT with the size in a register (bits 63:32). */
    make_header(env, 0, false, 1, RAM, 0);
    env->hdr.iot[0] = (0x5013u | 1u << 28 | 1u << 29 | 5u << 7) | (UINT64_C(4096) << 32);
    linx_tile_header_to_tma(&env->hdr, env->lb, &d, regs);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(p.dyn & TMA_DYN_SIZE);
    assert_int_equal(regs[p.size_reg], 4096);
    free(env);
}

static void test_engine_runs_blocks(void **state)
{
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxTileEngine eng;
    float in[32 * 64], out[32 * 32];

    (void)state;
    env->mem = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    env->tiles = linx_tile_state_new();
    assert_true(guest_mem_map(env->mem, RAM, 0x20000, GM_PROT_READ | GM_PROT_WRITE, false));
    for (unsigned i = 0; i < 32 * 64; i++) {
        in[i] = (float)i * 0.25f;
    }
    assert_int_equal(guest_mem_write(env->mem, RAM, in, sizeof(in), NULL), GM_OK);
    linx_tile_engine_init(&eng, NULL);
    /* TLOAD the left 32 x 32 of a 32 x 64 matrix (stride 256 B) ... */
    make_header(env, 0, false, 2, 256, RAM);
    linx_tile_block_engine(env, &eng);
    /* ... twice (plan cache hit), then TSTORE t#1 densely at RAM + 0x10000. */
    linx_tile_block_engine(env, &eng);
    assert_int_equal(eng.plan_hits, 1);
    make_header(env, 1, false, 1, RAM + 0x10000, 0);
    linx_tile_block_engine(env, &eng);
    assert_int_equal(eng.tma_blocks, 3);
    assert_int_equal(guest_mem_read(env->mem, RAM + 0x10000, out, sizeof(out), GM_PROT_READ,
                                    NULL), GM_OK);
    for (unsigned r = 0; r < 32; r++) {
        for (unsigned c = 0; c < 32; c++) {
            assert_true(out[r * 32 + c] == in[r * 64 + c]);
        }
    }
    assert_int_equal(linx_tile_get(env->tiles, 0)->meta.layout, LINX_TL_NZ);
    assert_int_equal(linx_tile_get(env->tiles, 1)->meta.bytes, 4096); /* the first load */
    linx_tile_state_free(env->tiles);
    guest_mem_free(env->mem);
    free(env);
}

/* CUBE headers through the hook: TMATMUL of two 512 B f32 tiles, then
 * ACCCVT to FP16; and the descriptor checks of header_to_cube. */
static void test_engine_cube(void **state)
{
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxBlockHeader *h = &env->hdr;
    LinxTileEngine eng;
    LinxCubeOp op;
    TmaFault f;

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
    /* Missing descriptors, in the digest's order. */
    h->nior = 0;
    assert_false(linx_tile_header_to_cube(h, env->lb, &op, &f));
    assert_int_equal(f.traparg0, 4); /* B.IOR missing (ACCCVT) */
    h->dim_mask = 3;
    h->nior = 1;
    assert_false(linx_tile_header_to_cube(h, env->lb, &op, &f));
    assert_int_equal(f.traparg0, 1); /* B.DIM missing */
    h->arg = 0;
    assert_false(linx_tile_header_to_cube(h, env->lb, &op, &f));
    assert_int_equal(f.trapnum, LINX_TRAP_BLOCK);
    assert_int_equal(f.traparg0, 3); /* B.ARG first */
    linx_tile_state_free(env->tiles);
    free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_to_desc),
        cmocka_unit_test(test_engine_runs_blocks),
        cmocka_unit_test(test_engine_cube),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
