/*
 * LoadData 2D (seed 003): fractal index arithmetic (srcStride, dstGap,
 * addrMode, srcStride 0), the standard L1 NZ -> L0A ZZ use checked
 * element by element against the ZZ formula, b16 transposes, GM sources
 * on guest memory, every parameter rule with its exception, the 950
 * profile differences, and the guest register page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/buffers-loaddata.h"
#include "hw/linx/buffers-mmio.h"
#include "hw/linx/tile-dtype.h"
#include "target/linx/cpu.h"
#include "target/linx/tile-trap.h"

#define FR LINX_LD_FRACTAL_BYTES
#define GM_BASE 0x500000u

typedef struct Env {
    GuestMemory *gm;
    LinxBuffers *b;
} Env;

static int setup_profile(void **state, LinxBufferProfile prof)
{
    Env *e = calloc(1, sizeof(*e));

    e->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    e->b = linx_buffers_new(prof);
    assert_true(guest_mem_map(e->gm, GM_BASE, 0x40000, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(linx_buffers_map(e->b, e->gm, LINX_BUFFERS_DEFAULT_BASE));
    *state = e;
    return 0;
}

static int setup_a2(void **state)
{
    return setup_profile(state, LINX_BUF_PROFILE_A2A3);
}

static int setup_950(void **state)
{
    return setup_profile(state, LINX_BUF_PROFILE_950);
}

static int teardown(void **state)
{
    Env *e = *state;

    guest_mem_free(e->gm);
    linx_buffers_free(e->b);
    free(e);
    return 0;
}

/* L1 fractal k filled with bytes (k * 7 + j) & 0xff. */
static void fill_l1_fractals(LinxBuffers *b, unsigned count)
{
    for (unsigned k = 0; k < count; k++) {
        for (unsigned j = 0; j < FR; j++) {
            b->buf[LINX_BUF_L1].data[k * FR + j] = (uint8_t)(k * 7 + j);
        }
    }
}

static bool fractal_is(const uint8_t *p, unsigned k)
{
    for (unsigned j = 0; j < FR; j++) {
        if (p[j] != (uint8_t)(k * 7 + j)) {
            return false;
        }
    }
    return true;
}

static LinxLoadData2D op_l1(unsigned to, unsigned start, unsigned repeat, unsigned stride,
                            unsigned gap)
{
    LinxLoadData2D op;

    memset(&op, 0, sizeof(op));
    op.from = LINX_LD_FROM_L1;
    op.to = (uint8_t)to;
    op.dtype = LINX_DT_FP32;
    op.start_index = start;
    op.repeat_times = repeat;
    op.src_stride = stride;
    op.dst_gap = gap;
    return op;
}

/* Seed 003 "非连续搬入": 4 float fractals, srcStride 2, dstGap 2. */
static void test_strides_and_gaps(void **state)
{
    Env *e = *state;
    LinxLoadData2D op = op_l1(LINX_BUF_L0A, 0, 4, 2, 2);
    const uint8_t *l0a = e->b->buf[LINX_BUF_L0A].data;
    TmaFault f;

    fill_l1_fractals(e->b, 16);
    memset(e->b->buf[LINX_BUF_L0A].data, 0xee, 16 * FR);
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned i = 0; i < 4; i++) {
        assert_true(fractal_is(l0a + i * 3 * FR, 2 * i)); /* d_i = 3 i, s_i = 2 i */
        if (i < 3) {
            assert_int_equal(l0a[(i * 3 + 1) * FR], 0xee); /* the gaps are untouched */
            assert_int_equal(l0a[(i * 3 + 2) * FR + FR - 1], 0xee);
        }
    }
    /* addrMode 1: start 9, stride 3 -> 9, 6, 3, 0 into slots 0..3. */
    op = op_l1(LINX_BUF_L0B, 9, 4, 3, 0);
    op.addr_mode = 1;
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned i = 0; i < 4; i++) {
        assert_true(fractal_is(e->b->buf[LINX_BUF_L0B].data + i * FR, 9 - 3 * i));
    }
    /* srcStride 0 re-reads the same fractal. */
    op = op_l1(LINX_BUF_L0B, 5, 3, 0, 0);
    op.dst = 8 * FR;
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned i = 0; i < 3; i++) {
        assert_true(fractal_is(e->b->buf[LINX_BUF_L0B].data + (8 + i) * FR, 5));
    }
    /* repeatTimes 0: NOP, even with other fields that would be wrong. */
    op = op_l1(LINX_BUF_L0A, 65535, 0, 65535, 0);
    op.dst = 0;
    memset(e->b->buf[LINX_BUF_L0A].data, 0x11, FR);
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    assert_int_equal(e->b->buf[LINX_BUF_L0A].data[0], 0x11);
}

/* A (m x k, fp16) in L1 as NZ -> L0A as ZZ, one LoadData per row block
 * (tile-semantics.md 2.5): every element lands at the ZZ offset. */
static void test_nz_to_zz(void **state)
{
    Env *e = *state;
    const uint32_t m = 48, k = 64, c0 = 16;
    uint16_t *l1 = (uint16_t *)e->b->buf[LINX_BUF_L1].data;
    const uint16_t *l0a = (const uint16_t *)e->b->buf[LINX_BUF_L0A].data;
    TmaFault f;

    for (uint32_t r = 0; r < m; r++) {
        for (uint32_t c = 0; c < k; c++) {
            l1[(c / c0) * m * c0 + r * c0 + c % c0] = (uint16_t)(r * 100 + c); /* NZ */
        }
    }
    for (uint32_t blk = 0; blk < m / 16; blk++) {
        LinxLoadData2D op = op_l1(LINX_BUF_L0A, 0, k / c0, m / 16, 0);
        op.dtype = LINX_DT_FP16;
        op.src = (uint64_t)FR * blk;
        op.dst = (uint64_t)FR * blk * (k / c0);
        assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    }
    for (uint32_t r = 0; r < m; r++) {
        for (uint32_t c = 0; c < k; c++) {
            size_t zz = (r / 16) * k * 16 + (c / c0) * 16 * c0 + (r % 16) * c0 + c % c0;
            assert_int_equal(l0a[zz], r * 100 + c);
        }
    }
}

static void test_transpose_b16(void **state)
{
    Env *e = *state;
    uint16_t *l1 = (uint16_t *)e->b->buf[LINX_BUF_L1].data;
    const uint16_t *l0b = (const uint16_t *)e->b->buf[LINX_BUF_L0B].data;
    LinxLoadData2D op = op_l1(LINX_BUF_L0B, 1, 2, 1, 0);
    TmaFault f;

    for (unsigned i = 0; i < 3 * 256; i++) {
        l1[i] = (uint16_t)(i * 3 + 1);
    }
    op.dtype = LINX_DT_BF16;
    op.transpose = true;
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned fr = 0; fr < 2; fr++) {
        for (unsigned a = 0; a < 16; a++) {
            for (unsigned b = 0; b < 16; b++) {
                assert_int_equal(l0b[fr * 256 + a * 16 + b], l1[(fr + 1) * 256 + b * 16 + a]);
            }
        }
    }
}

static void test_gm_source(void **state)
{
    Env *e = *state;
    uint8_t buf[8 * FR];
    LinxLoadData2D op;
    TmaFault f;
    LinxTileTrap t;

    for (unsigned i = 0; i < sizeof(buf); i++) {
        buf[i] = (uint8_t)(i / FR * 7 + i % FR);
    }
    /* GM at an odd address: any byte alignment is fine. */
    assert_int_equal(guest_mem_write(e->gm, GM_BASE + 3, buf, sizeof(buf), NULL), GM_OK);
    memset(&op, 0, sizeof(op));
    op.from = LINX_LD_FROM_GM;
    op.to = LINX_BUF_L0B;
    op.dtype = LINX_DT_S8;
    op.src = GM_BASE + 3;
    op.dst = 2 * FR;
    op.start_index = 1;
    op.repeat_times = 3;
    op.src_stride = 2;
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned i = 0; i < 3; i++) {
        assert_true(fractal_is(e->b->buf[LINX_BUF_L0B].data + (2 + i) * FR, 1 + 2 * i));
    }
    /* The last fractal runs off the mapping: fault, nothing written. */
    memset(e->b->buf[LINX_BUF_L0B].data, 0, 8 * FR);
    op.src = GM_BASE + 0x40000 - 5 * FR - 1;
    assert_false(linx_loaddata_2d(e->b, e->gm, &op, &f));
    assert_int_equal(f.rule, LINX_LD_GM_FAULT);
    assert_int_equal(f.value, GM_BASE + 0x40000);
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.trapnum, LINX_TRAP_DATA_PAGE_FAULT);
    assert_int_equal(t.traparg0, GM_BASE + 0x40000);
    assert_int_equal(e->b->buf[LINX_BUF_L0B].data[2 * FR], 0);
}

static void expect_rule(Env *e, const LinxLoadData2D *op, LinxLdRule rule, uint64_t value,
                        const char *name)
{
    TmaFault f;
    LinxTileTrap t;

    assert_false(linx_loaddata_2d(e->b, e->gm, op, &f));
    assert_int_equal(f.rule, rule);
    assert_int_equal(f.value, value);
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.trapnum, LINX_TRAP_ILLEGAL_INST);
    assert_int_equal(t.cause, LINX_EC_PARAM << 8);
    assert_int_equal(t.traparg0, (uint64_t)rule | value << 32);
    assert_string_equal(linx_ld_rule_name(rule), name);
}

static void test_rules(void **state)
{
    Env *e = *state;
    LinxLoadData2D op;

    op = op_l1(LINX_BUF_L0A, 65536, 1, 0, 0);
    expect_rule(e, &op, LINX_LD_BAD_PARAM, 65536, "loaddata-bad-param");
    op = op_l1(LINX_BUF_L0A, 0, 256, 0, 0);
    expect_rule(e, &op, LINX_LD_BAD_PARAM, 256, "loaddata-bad-param");
    op = op_l1(LINX_BUF_L0A, 0, 1, 65536, 0);
    expect_rule(e, &op, LINX_LD_BAD_PARAM, 65536, "loaddata-bad-param");
    op = op_l1(LINX_BUF_L0A, 0, 1, 0, 70000);
    expect_rule(e, &op, LINX_LD_BAD_PARAM, 70000, "loaddata-bad-param");
    op = op_l1(LINX_BUF_UB, 0, 1, 0, 0); /* destination not L0A/L0B */
    expect_rule(e, &op, LINX_LD_BAD_PATH, LINX_BUF_UB, "loaddata-bad-path");
    op = op_l1(LINX_BUF_L0A, 0, 1, 0, 0);
    op.dtype = LINX_DT_FP64;
    expect_rule(e, &op, LINX_LD_BAD_DTYPE, LINX_DT_FP64, "loaddata-bad-dtype");
    op = op_l1(LINX_BUF_L0A, 0, 1, 0, 0);
    op.transpose = true; /* FP32: not b16 */
    expect_rule(e, &op, LINX_LD_TRANSPOSE, LINX_DT_FP32, "loaddata-transpose");
    op.dtype = LINX_DT_FP16;
    op.from = LINX_LD_FROM_GM; /* transpose from GM */
    op.src = GM_BASE;
    expect_rule(e, &op, LINX_LD_TRANSPOSE, LINX_DT_FP16, "loaddata-transpose");
    op = op_l1(LINX_BUF_L0B, 0, 1, 0, 0);
    op.dst = 256;
    expect_rule(e, &op, LINX_LD_DST_ALIGN, 256, "loaddata-dst-align");
    op = op_l1(LINX_BUF_L0B, 0, 1, 0, 0);
    op.src = 16;
    expect_rule(e, &op, LINX_LD_SRC_ALIGN, 16, "loaddata-src-align");
    op = op_l1(LINX_BUF_L0B, 2, 2, 3, 0);
    op.addr_mode = 1; /* 2, then -1 */
    expect_rule(e, &op, LINX_LD_NEG_INDEX, 2, "loaddata-neg-index");
    op = op_l1(LINX_BUF_L0B, 1023, 2, 1, 0); /* L1 holds 1024 fractals */
    expect_rule(e, &op, LINX_LD_SRC_RANGE, 1025 * FR, "loaddata-src-range");
    op = op_l1(LINX_BUF_L0B, 0, 64, 1, 1); /* slots 0, 2, ..., 126 of L0B's 128 */
    op.dst = 2 * FR;                      /* from slot 2 the last one is 128: too far */
    expect_rule(e, &op, LINX_LD_DST_RANGE, 129 * FR, "loaddata-dst-range");
}

/* 950: no GM path, dstGap has no effect. */
static void test_950_profile(void **state)
{
    Env *e = *state;
    LinxLoadData2D op = op_l1(LINX_BUF_L0A, 0, 3, 1, 5);
    TmaFault f;

    fill_l1_fractals(e->b, 4);
    assert_true(linx_loaddata_2d(e->b, e->gm, &op, &f));
    for (unsigned i = 0; i < 3; i++) {
        assert_true(fractal_is(e->b->buf[LINX_BUF_L0A].data + i * FR, i));
    }
    op.from = LINX_LD_FROM_GM;
    op.src = GM_BASE;
    expect_rule(e, &op, LINX_LD_BAD_PATH, LINX_LD_FROM_GM, "loaddata-bad-path");
}

/* The guest register page: parameters, GO, STATUS, FAULT. */
static void test_register_page(void **state)
{
    Env *e = *state;
    const uint64_t regs = LINX_BUFFERS_DEFAULT_BASE + LINX_LD_REGS_OFFSET;
    uint64_t v, fa;

    fill_l1_fractals(e->b, 8);
#define WR(off, val) \
    do { v = (val); assert_int_equal(guest_mem_write(e->gm, regs + (off), &v, 8, NULL), GM_OK); } while (0)
    WR(0x00, 2 * FR);                                 /* SRC: L1 fractal 2 */
    WR(0x08, 0);                                      /* DST */
    WR(0x10, 1 | 1 << 1 | (uint64_t)LINX_DT_S16 << 8); /* from L1, to L0B, S16 */
    WR(0x18, 1);                                      /* START -> fractal 3 */
    WR(0x20, 2);                                      /* REPEAT */
    WR(0x28, 1);                                      /* SRC_STRIDE */
    WR(0x30, 0);                                      /* DST_GAP */
    WR(0x38, 1);                                      /* GO */
    assert_true(fractal_is(e->b->buf[LINX_BUF_L0B].data, 3));
    assert_true(fractal_is(e->b->buf[LINX_BUF_L0B].data + FR, 4));
    assert_int_equal(guest_mem_read(e->gm, regs + 0x38, &v, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0);
    /* A misaligned destination: the GO store faults, STATUS and FAULT say why. */
    WR(0x08, 100);
    v = 1;
    assert_int_not_equal(guest_mem_write(e->gm, regs + 0x38, &v, 8, &fa), GM_OK);
    assert_int_equal(fa, regs + 0x38);
    assert_int_equal(guest_mem_read(e->gm, regs + 0x38, &v, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, LINX_LD_DST_ALIGN);
    assert_int_equal(guest_mem_read(e->gm, regs + 0x40, &v, 8, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, LINX_LD_DST_ALIGN | (uint64_t)100 << 32);
    /* Narrow accesses are rejected. */
    assert_int_not_equal(guest_mem_write(e->gm, regs, &v, 4, NULL), GM_OK);
#undef WR
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_strides_and_gaps, setup_a2, teardown),
        cmocka_unit_test_setup_teardown(test_nz_to_zz, setup_a2, teardown),
        cmocka_unit_test_setup_teardown(test_transpose_b16, setup_a2, teardown),
        cmocka_unit_test_setup_teardown(test_gm_source, setup_a2, teardown),
        cmocka_unit_test_setup_teardown(test_rules, setup_a2, teardown),
        cmocka_unit_test_setup_teardown(test_950_profile, setup_950, teardown),
        cmocka_unit_test_setup_teardown(test_register_page, setup_a2, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
