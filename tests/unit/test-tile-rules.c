/*
 * TMA legality rules: every rule of seed 000 / the v0.4 manual / this
 * project's decisions has a test that builds a header breaking it and
 * checks the exact exception (TRAPNUM, cause, TRAPARG0) and rule name,
 * at translation time when the inputs are constants and at run time
 * (tma_exec) when they come from registers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"
#include "target/linx/cpu.h"
#include "target/linx/tile-trap.h"
#include "target/linx/tma-header.h"

#define REG_BASE 2   /* a0 */
#define REG_STRIDE 3 /* a1 */
#define REG_DYN 4    /* a2 */
#define GM_BASE 0x100000u
#define GM_SIZE 0x40000u

/* TRAPARG0 encodings documented in docs/tile.md. */
#define BLOCKFMT(fam, det) ((uint64_t)(fam) | (uint64_t)(det) << 8)
#define PARAM(rule, value) ((uint64_t)(rule) | (uint64_t)(value) << 32)
#define CAUSE(ec) ((unsigned)(ec) << 8)

static void expect_fault(const TmaFault *f, TmaRule rule, unsigned trapnum, unsigned ec,
                         uint64_t traparg0, const char *name)
{
    LinxTileTrap t;

    assert_int_equal(f->rule, rule);
    linx_tile_fault_trap(f, &t);
    assert_int_equal(t.trapnum, trapnum);
    assert_int_equal(t.cause, CAUSE(ec));
    assert_int_equal(t.traparg0, traparg0);
    assert_string_equal(tma_rule_name(rule), name);
}

static void expect_blockfmt(const TmaDesc *d, TmaRule rule, unsigned fam, unsigned det,
                            const char *name)
{
    TmaPlan p;

    tma_plan(d, NULL, &p);
    expect_fault(&p.fault, rule, LINX_TRAP_BLOCK, LINX_EC_BLOCKFMT, BLOCKFMT(fam, det), name);
}

static void expect_param(const TmaDesc *d, TmaRule rule, uint64_t value, const char *name)
{
    TmaPlan p;

    tma_plan(d, NULL, &p);
    expect_fault(&p.fault, rule, LINX_TRAP_ILLEGAL_INST, LINX_EC_PARAM, PARAM(rule, value), name);
}

static void add_iot(TmaDesc *d, int src0, int src1, unsigned dst, unsigned size_code, bool last)
{
    TmaIot iot;

    memset(&iot, 0, sizeof(iot));
    iot.src[0] = (uint8_t)(src0 < 0 ? 0 : src0);
    iot.src[1] = (uint8_t)(src1 < 0 ? 0 : src1);
    iot.src_absent[0] = src0 < 0;
    iot.src_absent[1] = src1 < 0;
    iot.dst = (uint8_t)dst;
    iot.size = (uint8_t)size_code;
    iot.last = last;
    tma_desc_add_iot(d, &iot);
}

/* A legal header: TSTORE FP32 NZ2ND, 32 x 32 from t#1 (4 KB), B.ARG style. */
static void good_store(TmaDesc *d)
{
    tma_desc_init(d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_set_barg(d, 1); /* ND2NZ */
    tma_desc_set_dim(d, 0, 0, 32);
    tma_desc_set_dim(d, 1, 0, 32);
    tma_desc_set_dim(d, 2, 0, 32);
    tma_desc_add_ior(d, REG_BASE, 0, 0);
    add_iot(d, 0, -1, 0, 8, true);
}

/* A legal TLOAD FP32 ND2NZ 32 x 32 into ->t<4KB>. */
static void good_load(TmaDesc *d)
{
    tma_desc_init(d, TMA_OP_TLOAD, LINX_DT_FP32);
    tma_desc_set_barg(d, 1);
    tma_desc_set_dim(d, 0, 0, 32);
    tma_desc_set_dim(d, 1, 0, 32);
    tma_desc_set_dim(d, 2, 0, 32);
    tma_desc_add_ior(d, REG_BASE, 0, 0);
    add_iot(d, -1, -1, 0, 8, true);
}

static void test_good_headers(void **state)
{
    TmaDesc d;
    TmaPlan p;

    (void)state;
    good_store(&d);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(p.shape_const);
    assert_int_equal(p.shape.rows, 32);
    good_load(&d);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_string_equal(tma_rule_name(TMA_OK), "ok");
}

/* ---- E_INST(EC_ILLEGAL) ---- */

static void test_reserved_function(void **state)
{
    TmaDesc d;
    TmaPlan p;

    (void)state;
    good_store(&d);
    d.func = 3;
    tma_plan(&d, NULL, &p);
    expect_fault(&p.fault, TMA_R_RESERVED_FUNC, LINX_TRAP_ILLEGAL_INST, LINX_EC_ILLEGAL,
                 PARAM(TMA_R_RESERVED_FUNC, 3), "reserved-function");
}

/* ---- E_BLOCK(EC_BLOCKFMT) ---- */

static void test_missing_arg(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    d.layout_src = TMA_LSRC_NONE;
    expect_blockfmt(&d, TMA_R_MISSING_ARG, 3, 0, "missing-barg");
}

static void test_bad_arg(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_barg(&d, 5); /* unassigned B.ARG format */
    expect_blockfmt(&d, TMA_R_BAD_ARG, 3, 1, "bad-barg");
    good_store(&d);
    tma_desc_set_barg(&d, 6); /* unassigned in every reading */
    expect_blockfmt(&d, TMA_R_BAD_ARG, 3, 1, "bad-barg");
    /* A store-direction B.DATR code in a TLOAD header. */
    good_load(&d);
    d.layout_src = TMA_LSRC_NONE;
    tma_desc_set_datr(&d, tma_datr_code(TMA_OP_TSTORE, TMA_LAYOUT_ND_NZ), 0);
    expect_blockfmt(&d, TMA_R_BAD_ARG, 3, 1, "bad-barg");
}

static void test_arg_conflict(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_datr(&d, 27, 0);
    expect_blockfmt(&d, TMA_R_ARG_CONFLICT, 3, 2, "barg-and-datr");
}

static void test_text_in_tma(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_add_text(&d);
    expect_blockfmt(&d, TMA_R_TEXT_IN_TMA, 2, 2, "btext-in-tma");
}

static void test_missing_iot(void **state)
{
    TmaDesc d;

    (void)state;
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_set_barg(&d, 1);
    tma_desc_set_dim(&d, 0, 0, 32);
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    expect_blockfmt(&d, TMA_R_MISSING_IOT, 5, 0, "missing-biot");
}

static void test_bad_tile_size(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    d.size = 4; /* 256 B */
    expect_blockfmt(&d, TMA_R_BAD_TILE_SIZE, 5, 1, "bad-tile-size");
    d.size = 9; /* 8 KB */
    expect_blockfmt(&d, TMA_R_BAD_TILE_SIZE, 5, 1, "bad-tile-size");
    /* B.IOT naming the zero register: size 0, known at translation. */
    good_store(&d);
    d.size_is_reg = true;
    d.size = 0;
    expect_blockfmt(&d, TMA_R_BAD_TILE_SIZE, 5, 1, "bad-tile-size");
}

static void test_bad_dst_tile(void **state)
{
    TmaDesc d;

    (void)state;
    good_load(&d);
    d.dst_kind = 4; /* ->acc */
    expect_blockfmt(&d, TMA_R_BAD_DST_TILE, 5, 1, "bad-dst-tile");
    d.dst_kind = 7;
    expect_blockfmt(&d, TMA_R_BAD_DST_TILE, 5, 1, "bad-dst-tile");
}

static void test_iot_combination(void **state)
{
    TmaDesc d;

    (void)state;
    good_load(&d); /* TLOAD with a source tile */
    add_iot(&d, 3, -1, 0, 8, false);
    d.iot_after_last = false;
    expect_blockfmt(&d, TMA_R_IOT_COMBINATION, 5, 2, "biot-combination");
    good_store(&d); /* a B.IOT after the one marked last */
    add_iot(&d, 1, -1, 0, 8, true);
    expect_blockfmt(&d, TMA_R_IOT_COMBINATION, 5, 2, "biot-combination");
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32); /* 9 sources */
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 0, 0, 32);
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    for (int k = 0; k < 8; k += 2) {
        add_iot(&d, k, k + 1, 0, 8, false);
    }
    add_iot(&d, 8, -1, 0, 8, true);
    expect_blockfmt(&d, TMA_R_IOT_COMBINATION, 5, 2, "biot-combination");
    good_store(&d); /* TSTORE without a source */
    d.nsrc = 0;
    expect_blockfmt(&d, TMA_R_IOT_COMBINATION, 5, 2, "biot-combination");
}

static void test_mixed_sizes(void **state)
{
    TmaDesc d;

    (void)state;
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 0, 0, 32);
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    add_iot(&d, 0, 1, 0, 8, false);
    add_iot(&d, 2, -1, 0, 7, true);
    expect_blockfmt(&d, TMA_R_MIXED_SIZES, 5, 2, "mixed-tile-sizes");
}

static void test_missing_bad_ior(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    d.nior = 0;
    expect_blockfmt(&d, TMA_R_MISSING_IOR, 4, 0, "missing-bior");
    good_store(&d);
    tma_desc_add_ior(&d, 0, 0, 0);
    expect_blockfmt(&d, TMA_R_BAD_IOR, 4, 1, "bad-bior");
    /* Seed style: B.DATR with RegSrc0 = base = zero. */
    good_store(&d);
    d.layout_src = TMA_LSRC_NONE;
    tma_desc_set_datr(&d, 27, 0);
    tma_desc_add_ior(&d, 0, REG_STRIDE, 0);
    expect_blockfmt(&d, TMA_R_BAD_IOR, 4, 1, "bad-bior");
}

static void test_missing_bad_dim(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    d.dim_mask &= (uint8_t)~1u;
    expect_blockfmt(&d, TMA_R_MISSING_DIM, 1, 0, "missing-bdim");
    good_store(&d);
    tma_desc_set_dim(&d, 3, 0, 1); /* C.B.DIM LoopNest 3 */
    expect_blockfmt(&d, TMA_R_BAD_DIM, 1, 1, "bad-bdim");
}

static void test_bad_iod(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_add_iod(&d, 1, 2, 3, 4);
    {
        TmaPlan p;
        tma_plan(&d, NULL, &p);
        assert_int_equal(p.fault.rule, TMA_OK); /* well-formed */
    }
    tma_desc_add_iod(&d, 5, 0, 0, 6); /* second B.IOD */
    expect_blockfmt(&d, TMA_R_BAD_IOD, 0, 1, "bad-biod");
    good_store(&d);
    tma_desc_add_iod(&d, 1, 1, 0, 4); /* repeated tag */
    expect_blockfmt(&d, TMA_R_BAD_IOD, 0, 1, "bad-biod");
    good_store(&d);
    tma_desc_add_iod(&d, 7, 0, 0, 7); /* depends on itself */
    expect_blockfmt(&d, TMA_R_BAD_IOD, 0, 1, "bad-biod");
}

/* Reporting order: B.ARG > B.TEXT > B.IOT > B.IOR > B.DIM. */
static void test_blockfmt_order(void **state)
{
    TmaDesc d;

    (void)state;
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_add_text(&d);
    expect_blockfmt(&d, TMA_R_MISSING_ARG, 3, 0, "missing-barg");
    tma_desc_set_barg(&d, 0);
    expect_blockfmt(&d, TMA_R_TEXT_IN_TMA, 2, 2, "btext-in-tma");
    d.ntext = 0;
    expect_blockfmt(&d, TMA_R_MISSING_IOT, 5, 0, "missing-biot");
    add_iot(&d, 0, -1, 0, 8, true);
    expect_blockfmt(&d, TMA_R_MISSING_IOR, 4, 0, "missing-bior");
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    expect_blockfmt(&d, TMA_R_MISSING_DIM, 1, 0, "missing-bdim");
}

/* ---- E_INST(EC_PARAM), constant inputs ---- */

static void test_bad_dtype(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    d.dtype = 4; /* reserved */
    expect_param(&d, TMA_R_BAD_DTYPE, 4, "bad-dtype");
    d.dtype = 20; /* INT4: not supported by the tile machine */
    expect_param(&d, TMA_R_BAD_DTYPE, 20, "bad-dtype");
}

static void test_lb0_zero(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_dim(&d, 0, 0, 0);
    expect_param(&d, TMA_R_LB0_ZERO, 0, "lb0-zero");
}

static void test_col_too_wide(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 2, 0, 2048); /* 2048 x 4 B > 4 KB */
    expect_param(&d, TMA_R_COL_TOO_WIDE, 2048, "col-too-wide");
}

static void test_validcol_gt_col(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_dim(&d, 0, 0, 40); /* ValidCol 40 > Col 32 */
    expect_param(&d, TMA_R_VALIDCOL_GT_COL, 40, "validcol-gt-col");
    /* DN: ValidCol is LB1. */
    good_store(&d);
    tma_desc_set_barg(&d, 9); /* DN2NZ */
    tma_desc_set_dim(&d, 1, 0, 33);
    expect_param(&d, TMA_R_VALIDCOL_GT_COL, 33, "validcol-gt-col");
}

static void test_validrow_gt_row(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d);
    tma_desc_set_dim(&d, 1, 0, 33); /* Row = 4096 / (32 * 4) = 32 */
    expect_param(&d, TMA_R_VALIDROW_GT_ROW, 33, "validrow-gt-row");
    /* Seed example: LB0 = 100, LB2 = 110 f32 -> Row = 9; ValidRow 10. */
    good_store(&d);
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 0, 0, 100);
    tma_desc_set_dim(&d, 1, 0, 10);
    tma_desc_set_dim(&d, 2, 0, 110);
    expect_param(&d, TMA_R_VALIDROW_GT_ROW, 10, "validrow-gt-row");
}

static void test_merge_rules(void **state)
{
    TmaDesc d;

    (void)state;
    /* ND, 3 tiles, Col 32 not a multiple of 3. */
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 0, 0, 30);
    tma_desc_set_dim(&d, 2, 0, 32);
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    add_iot(&d, 0, 1, 0, 8, false);
    add_iot(&d, 2, -1, 0, 8, true);
    expect_param(&d, TMA_R_MERGE_COL, 32, "merge-col");
    /* DN, 3 tiles, Row = 3 * 4096 / (40 * 4) = 76, not a multiple of 3. */
    tma_desc_set_barg(&d, 9);
    tma_desc_set_dim(&d, 0, 0, 8);
    tma_desc_set_dim(&d, 1, 0, 8);
    tma_desc_set_dim(&d, 2, 0, 40);
    expect_param(&d, TMA_R_MERGE_ROW, 76, "merge-row");
}

static void test_fractal_rules(void **state)
{
    TmaDesc d;

    (void)state;
    good_store(&d); /* NZ f32: Col 12 not a multiple of 8 */
    tma_desc_set_dim(&d, 0, 0, 12);
    tma_desc_set_dim(&d, 1, 0, 1);
    tma_desc_set_dim(&d, 2, 0, 12);
    expect_param(&d, TMA_R_NZ_COL, 12, "nz-col");
    tma_desc_set_dim(&d, 0, 0, 24); /* Col 24: Row = 42, not a multiple of 16 */
    tma_desc_set_dim(&d, 2, 0, 24);
    expect_param(&d, TMA_R_NZ_ROW, 42, "nz-row");
    tma_desc_set_barg(&d, 3); /* ZN f32, Col 48: Row = 21, not a multiple of 8 */
    tma_desc_set_dim(&d, 0, 0, 48);
    tma_desc_set_dim(&d, 2, 0, 48);
    expect_param(&d, TMA_R_ZN_ROW, 21, "zn-row");
    tma_desc_set_dim(&d, 0, 0, 8); /* Col 8: Row 128 fine, Col not a multiple of 16 */
    tma_desc_set_dim(&d, 2, 0, 8);
    expect_param(&d, TMA_R_ZN_COL, 8, "zn-col");
    /* int8 NZ: c0 = 32 */
    good_store(&d);
    d.dtype = LINX_DT_S8;
    tma_desc_set_dim(&d, 0, 0, 16);
    tma_desc_set_dim(&d, 1, 0, 1);
    tma_desc_set_dim(&d, 2, 0, 16);
    expect_param(&d, TMA_R_NZ_COL, 16, "nz-col");
}

/* ---- Run-time rules (tma_exec) ---- */

typedef struct Env {
    GuestMemory *gm;
    LinxTileState *ts;
    uint64_t gpr[LINX_NUM_GPRS];
} Env;

static int env_setup(void **state)
{
    Env *e = calloc(1, sizeof(*e));

    e->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    e->ts = linx_tile_state_new();
    assert_true(guest_mem_map(e->gm, GM_BASE, GM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    e->gpr[REG_BASE] = GM_BASE;
    *state = e;
    return 0;
}

static int env_teardown(void **state)
{
    Env *e = *state;

    guest_mem_free(e->gm);
    linx_tile_state_free(e->ts);
    free(e);
    return 0;
}

static bool run(Env *e, const TmaDesc *d, TmaFault *f)
{
    TmaPlan p;
    TmaRuntimeArgs a;

    tma_plan(d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(tma_args_from_gprs(&p, e->gpr, &a));
    return tma_exec(e->ts, e->gm, &p, &a, f);
}

static void expect_exec_param(Env *e, const TmaDesc *d, TmaRule rule, uint64_t value,
                              const char *name)
{
    TmaFault f;

    assert_false(run(e, d, &f));
    expect_fault(&f, rule, LINX_TRAP_ILLEGAL_INST, LINX_EC_PARAM, PARAM(rule, value), name);
}

static void test_runtime_value_rules(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaFault f;

    /* Load a tile so TSTOREs have a source. */
    good_load(&d);
    assert_true(run(e, &d, &f));

    good_store(&d); /* LB0 from a register */
    tma_desc_set_dim(&d, 0, REG_DYN, 0);
    e->gpr[REG_DYN] = 0;
    expect_exec_param(e, &d, TMA_R_LB0_ZERO, 0, "lb0-zero");
    e->gpr[REG_DYN] = 40;
    expect_exec_param(e, &d, TMA_R_VALIDCOL_GT_COL, 40, "validcol-gt-col");
    e->gpr[REG_DYN] = 32;
    assert_true(run(e, &d, &f));

    good_store(&d); /* LB1 from a register */
    tma_desc_set_dim(&d, 1, REG_DYN, 1);
    e->gpr[REG_DYN] = 32; /* LB1 = 33 */
    expect_exec_param(e, &d, TMA_R_VALIDROW_GT_ROW, 33, "validrow-gt-row");

    good_store(&d); /* Col from a register */
    tma_desc_set_dim(&d, 0, 0, 12);
    tma_desc_set_dim(&d, 1, 0, 1);
    tma_desc_set_dim(&d, 2, REG_DYN, 0);
    e->gpr[REG_DYN] = 12;
    expect_exec_param(e, &d, TMA_R_NZ_COL, 12, "nz-col");
    e->gpr[REG_DYN] = 0x10000;
    expect_exec_param(e, &d, TMA_R_COL_TOO_WIDE, 0x10000, "col-too-wide");

    good_store(&d); /* size from a register (B.IOT) */
    d.size_is_reg = true;
    d.size = REG_DYN;
    e->gpr[REG_DYN] = 8192;
    assert_false(run(e, &d, &f));
    expect_fault(&f, TMA_R_BAD_TILE_SIZE, LINX_TRAP_BLOCK, LINX_EC_BLOCKFMT, BLOCKFMT(5, 1),
                 "bad-tile-size");
    e->gpr[REG_DYN] = 4096;
    assert_true(run(e, &d, &f));
}

static void test_store_overlap(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaFault f;

    good_load(&d);
    assert_true(run(e, &d, &f));
    good_store(&d);
    d.nior = 0;
    tma_desc_add_ior(&d, REG_STRIDE, REG_BASE, 0); /* v0.4: [stride, base] */
    e->gpr[REG_STRIDE] = 127; /* < 32 * 4 */
    expect_exec_param(e, &d, TMA_R_STORE_OVERLAP, 127, "store-overlap");
    e->gpr[REG_STRIDE] = 128;
    assert_true(run(e, &d, &f));
}

static void test_tile_state_rules(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaFault f;

    linx_tile_state_reset(e->ts);
    good_store(&d); /* t#1 never written */
    expect_exec_param(e, &d, TMA_R_TILE_EMPTY, 0, "tile-empty");

    /* A 2 KB tile stored as a 4 KB transfer. */
    good_load(&d);
    d.size = 7;
    tma_desc_set_dim(&d, 1, 0, 16);
    assert_true(run(e, &d, &f));
    good_store(&d);
    expect_exec_param(e, &d, TMA_R_TILE_SIZE, 2048, "tile-size-mismatch");

    /* t#1 NZ (ND2NZ), t#2 ND (NORM): mixed layouts in one store. */
    good_load(&d);
    tma_desc_set_barg(&d, 0);
    assert_true(run(e, &d, &f));
    good_load(&d);
    assert_true(run(e, &d, &f));
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    tma_desc_set_barg(&d, 1);
    tma_desc_set_dim(&d, 0, 0, 32);
    tma_desc_set_dim(&d, 1, 0, 32);
    tma_desc_set_dim(&d, 2, 0, 64);
    tma_desc_add_ior(&d, REG_BASE, 0, 0);
    add_iot(&d, 0, 1, 0, 8, true);
    expect_exec_param(e, &d, TMA_R_MIXED_LAYOUT, 1, "mixed-tile-layouts");
}

static void test_tmov_rules(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaFault f;

    linx_tile_state_reset(e->ts);
    tma_desc_init(&d, TMA_OP_TMOV, LINX_DT_FP32); /* A2V, ACC empty */
    tma_desc_set_barg(&d, 2);
    add_iot(&d, -1, -1, 1, 8, true);
    expect_exec_param(e, &d, TMA_R_ACC_EMPTY, 0, "acc-empty");

    /* V2V ND2NZ from a 512 B tile, window 32 x 32 f32 (4 KB). */
    good_load(&d);
    d.size = 5;
    tma_desc_set_barg(&d, 0);
    tma_desc_set_dim(&d, 1, 0, 4);
    assert_true(run(e, &d, &f));
    tma_desc_init(&d, TMA_OP_TMOV, LINX_DT_FP32);
    tma_desc_set_barg(&d, 1);
    tma_desc_set_dim(&d, 0, 0, 32);
    tma_desc_set_dim(&d, 1, 0, 32);
    add_iot(&d, 0, -1, 1, 8, true);
    expect_exec_param(e, &d, TMA_R_MOV_SHAPE, 1024, "mov-shape");
}

static void test_gm_faults(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaFault f;
    uint8_t heads[LINX_TILE_HANDS];

    good_load(&d);
    assert_true(run(e, &d, &f));
    /* TSTORE whose last row runs past the mapping. */
    good_store(&d);
    e->gpr[REG_BASE] = GM_BASE + GM_SIZE - 31 * 128 - 64;
    assert_false(run(e, &d, &f));
    expect_fault(&f, TMA_R_GM_FAULT, LINX_TRAP_DATA_PAGE_FAULT, 0, GM_BASE + GM_SIZE,
                 "gm-fault");
    /* Nothing was written: the rows before the fault still read 0. */
    {
        uint8_t buf[128];
        uint64_t fa;

        assert_int_equal(guest_mem_read(e->gm, e->gpr[REG_BASE], buf, sizeof(buf),
                                        GM_PROT_READ, &fa), GM_OK);
        for (size_t i = 0; i < sizeof(buf); i++) {
            assert_int_equal(buf[i], 0);
        }
    }
    /* TLOAD from unmapped memory: no push. */
    memcpy(heads, e->ts->head, sizeof(heads));
    good_load(&d);
    e->gpr[REG_BASE] = 0x10;
    assert_false(run(e, &d, &f));
    expect_fault(&f, TMA_R_GM_FAULT, LINX_TRAP_DATA_PAGE_FAULT, 0, 0x10, "gm-fault");
    assert_memory_equal(heads, e->ts->head, sizeof(heads));
    /* TSTORE to read-only memory. */
    assert_true(guest_mem_protect(e->gm, GM_BASE, GUEST_PAGE_SIZE, GM_PROT_READ));
    good_store(&d);
    e->gpr[REG_BASE] = GM_BASE + 8;
    assert_false(run(e, &d, &f));
    expect_fault(&f, TMA_R_GM_FAULT, LINX_TRAP_DATA_PAGE_FAULT, 0, GM_BASE + 8, "gm-fault");
    assert_true(guest_mem_protect(e->gm, GM_BASE, GUEST_PAGE_SIZE,
                                  GM_PROT_READ | GM_PROT_WRITE));
    e->gpr[REG_BASE] = GM_BASE;
}

/* A constant-illegal plan handed to tma_exec raises its fault. */
static void test_exec_of_illegal_plan(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaPlan p;
    TmaRuntimeArgs a;
    TmaFault f;

    good_store(&d);
    tma_desc_set_dim(&d, 0, 0, 40);
    tma_plan(&d, NULL, &p);
    memset(&a, 0, sizeof(a));
    assert_false(tma_exec(e->ts, e->gm, &p, &a, &f));
    assert_int_equal(f.rule, TMA_R_VALIDCOL_GT_COL);
    assert_string_equal(tma_rule_text(TMA_R_VALIDCOL_GT_COL), "ValidCol > Col");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_headers),
        cmocka_unit_test(test_reserved_function),
        cmocka_unit_test(test_missing_arg),
        cmocka_unit_test(test_bad_arg),
        cmocka_unit_test(test_arg_conflict),
        cmocka_unit_test(test_text_in_tma),
        cmocka_unit_test(test_missing_iot),
        cmocka_unit_test(test_bad_tile_size),
        cmocka_unit_test(test_bad_dst_tile),
        cmocka_unit_test(test_iot_combination),
        cmocka_unit_test(test_mixed_sizes),
        cmocka_unit_test(test_missing_bad_ior),
        cmocka_unit_test(test_missing_bad_dim),
        cmocka_unit_test(test_bad_iod),
        cmocka_unit_test(test_blockfmt_order),
        cmocka_unit_test(test_bad_dtype),
        cmocka_unit_test(test_lb0_zero),
        cmocka_unit_test(test_col_too_wide),
        cmocka_unit_test(test_validcol_gt_col),
        cmocka_unit_test(test_validrow_gt_row),
        cmocka_unit_test(test_merge_rules),
        cmocka_unit_test(test_fractal_rules),
        cmocka_unit_test_setup_teardown(test_runtime_value_rules, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_store_overlap, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_tile_state_rules, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_tmov_rules, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_gm_faults, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_exec_of_illegal_plan, env_setup, env_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
