/*
 * TMA blocks end to end: header words decoded by the real decoder, fed to
 * tma_desc_add(), planned, and run by tma_exec() on real guest memory.
 *
 * - Header ingestion from encodings (BSTART.TSTORE/TMA, B.ARG, C.B.DIMI,
 *   B.DIM, B.IOR, B.IOTI, B.DATR, B.IOD, B.HINT) and the B.IOR order rule
 *   of decisions.md 3 for both header styles.
 * - TLOAD ND2NZ then TSTORE NZ2ND through guest RAM gives the matrix back;
 *   values checked against the layout formula.
 * - Footprints that are not one RAM region (two mappings, MMIO) go
 *   through the bounce path with the same result.
 * - Pad policies and unused tile bytes; the reference option path;
 *   TMOV V2V / A2V / with a layout conversion; dynamic shapes.
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
#include "hw/linx/tile-dump.h"
#include "hw/linx/tma-kernels.h"
#include "target/linx/cpu.h"
#include "target/linx/tma-header.h"

#define RAM_BASE 0x200000u
#define RAM_SIZE 0x100000u
#define MMIO_BASE 0x400000u
#define MMIO_SIZE 0x10000u
#define A0 2
#define A1 3
#define A2 4

typedef struct Env {
    GuestMemory *gm;
    LinxTileState *ts;
    uint64_t gpr[LINX_NUM_GPRS];
    uint8_t mmio[MMIO_SIZE];
    unsigned mmio_accesses;
} Env;

static bool mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *value)
{
    Env *e = opaque;

    *value = 0;
    memcpy(value, e->mmio + off, size);
    e->mmio_accesses++;
    return true;
}

static bool mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t value)
{
    Env *e = opaque;

    memcpy(e->mmio + off, &value, size);
    e->mmio_accesses++;
    return true;
}

static const GuestMMIOOps mmio_ops = { mmio_read, mmio_write };

static int env_setup(void **state)
{
    Env *e = calloc(1, sizeof(*e));

    e->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    e->ts = linx_tile_state_new();
    assert_true(guest_mem_map(e->gm, RAM_BASE, RAM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    /* A second, separate mapping right after the first (another block):
     * footprints across the boundary are valid but not host-contiguous. */
    assert_true(guest_mem_map(e->gm, RAM_BASE + RAM_SIZE, RAM_SIZE,
                              GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map_mmio(e->gm, MMIO_BASE, MMIO_SIZE, &mmio_ops, e));
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

/* Decode one packed instruction (asserting the expected form). */
static LinxInsn dec(uint64_t word, unsigned len, unsigned form)
{
    LinxInsn insn;

    assert_int_equal(linx_decode_packed(word, len, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, form);
    return insn;
}

/* B.DIM LBk = reg + imm (uimm17 = {11:7 -> [16:12], 31:20 -> [11:0]}). */
static uint32_t enc_bdim(unsigned k, unsigned reg, uint32_t imm)
{
    return 0x43u | k << 12 | reg << 15 | (imm & 0xfff) << 20 | (imm >> 12 & 0x1f) << 7;
}

/* C.B.DIMI imm8 -> LBk. */
static uint32_t enc_cbdimi(unsigned k, unsigned imm)
{
    return 0x3cu | (imm & 0xff) << 6 | k << 14;
}

/* B.IOTI [src0, src1], group, ->dst<2^(code+4)>; src < 0 = absent. */
static uint32_t enc_bioti(int src0, int src1, unsigned dst, unsigned code, bool last)
{
    uint32_t w = (last ? 0x7013u : 0x6013u) | code << 7 | dst << 25;

    w |= src0 < 0 ? 1u << 28 : (uint32_t)src0 << 15;
    w |= src1 < 0 ? 1u << 29 : (uint32_t)src1 << 20;
    return w;
}

static uint32_t enc_bior(unsigned s0, unsigned s1)
{
    return 0x13u | s0 << 15 | s1 << 20;
}

static TmaPlan *plan_words(const uint64_t *words, const unsigned *lens, unsigned n,
                           const TmaOptions *opts)
{
    TmaPlan *p = malloc(sizeof(*p));
    TmaDesc d;
    LinxInsn insn;

    assert_int_equal(linx_decode_packed(words[0], lens[0], &insn), LINX_DECODE_OK);
    assert_true(tma_desc_begin(&d, &insn));
    for (unsigned i = 1; i < n; i++) {
        assert_int_equal(linx_decode_packed(words[i], lens[i], &insn), LINX_DECODE_OK);
        assert_true(tma_desc_add(&d, &insn));
    }
    /* The block marker after the header is not a descriptor. */
    assert_int_equal(linx_decode_packed(0x0800, 2, &insn), LINX_DECODE_OK);
    assert_false(tma_desc_add(&d, &insn));
    tma_plan(&d, opts, p);
    return p;
}

static bool exec_plan(Env *e, const TmaPlan *p, TmaFault *f)
{
    TmaRuntimeArgs a;

    assert_true(tma_args_from_gprs(p, e->gpr, &a));
    return tma_exec(e->ts, e->gm, p, &a, f);
}

static void gm_write_f32_matrix(Env *e, uint64_t base, uint32_t rows, uint32_t cols,
                                uint64_t stride, float scale)
{
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
            float v = scale * (float)(r * 1000 + c);
            assert_int_equal(guest_mem_write(e->gm, base + r * stride + c * 4, &v, 4, NULL),
                             GM_OK);
        }
    }
}

static float gm_read_f32(Env *e, uint64_t addr)
{
    float v;

    assert_int_equal(guest_mem_read(e->gm, addr, &v, 4, GM_PROT_READ, NULL), GM_OK);
    return v;
}

static void test_ingest_words(void **state)
{
    TmaPlan *p;
    /* TSTORE FP32: B.ARG ND2NZ, C.B.DIMI 32 ->lb0, B.DIM zero,32 ->lb1,
     * B.DIM a2,16 ->lb2, B.IOR [a1, a0] (stride, base), B.IOTI [u#1] last
     * ->t<4KB>, B.IOD, B.HINT-free. */
    uint64_t w[] = {
        0x08111181u,              /* BSTART.TSTORE FP32 */
        0x000030c3u,              /* B.ARG format 1 (ND2NZ) */
        enc_cbdimi(0, 32),
        enc_bdim(1, 0, 32),
        enc_bdim(2, A2, 16),
        enc_bior(A1, A0),
        enc_bioti(8, -1, 0, 8, true),
        0x00001013u | 1u << 15 | 2u << 20 | 3u << 7, /* B.IOD 1, 2 -> 3 */
    };
    unsigned lens[] = { 4, 4, 2, 4, 4, 4, 4, 4 };
    (void)state;

    (void)dec(w[0], 4, LINX_F_BSTART_TSTORE);
    (void)dec(w[1], 4, LINX_F_B_ARG_FORMAT);
    (void)dec(w[2], 2, LINX_F_C_B_DIMI);
    (void)dec(w[4], 4, LINX_F_B_DIM_LB2);
    (void)dec(w[6], 4, LINX_F_B_IOTI_G1);
    (void)dec(w[7], 4, LINX_F_B_IOD);
    p = plan_words(w, lens, 8, NULL);
    assert_int_equal(p->fault.rule, TMA_OK);
    assert_int_equal(p->op, TMA_OP_TSTORE);
    assert_int_equal(p->dtype, LINX_DT_FP32);
    assert_int_equal(p->layout, TMA_LAYOUT_ND_NZ);
    assert_int_equal(p->tile_layout, LINX_TL_NZ);
    assert_int_equal(p->nsrc, 1);
    assert_int_equal(p->src[0], 8); /* u#1 */
    assert_int_equal(p->base_reg, A0); /* v0.4 order: [stride, base] */
    assert_int_equal(p->stride_reg, A1);
    assert_int_equal(p->dyn, TMA_DYN_LB2 | TMA_DYN_STRIDE);
    assert_int_equal(p->lb[0], 32);
    assert_int_equal(p->lb[1], 32);
    assert_int_equal(p->lb_reg[2], A2);
    assert_int_equal(p->lb_imm[2], 16);
    assert_int_equal(p->tile_bytes, 4096);
    assert_false(p->shape_const);
    free(p);

    /* Seed style: BSTART.TMA TSTORE, B.DATR NZ2ND, B.IOR [a0, a1] = base, stride. */
    {
        uint64_t w2[] = {
            0x08111181u,
            0x00001023u | 27u << 7, /* B.DATR Layout NZ2ND */
            enc_bdim(0, 0, 32),
            enc_bior(A0, A1),
            enc_bioti(0, -1, 0, 8, true),
        };
        unsigned l2[] = { 4, 4, 4, 4, 4 };

        (void)dec(w2[1], 4, LINX_F_B_DATR);
        p = plan_words(w2, l2, 5, NULL);
        assert_int_equal(p->fault.rule, TMA_OK);
        assert_int_equal(p->layout, TMA_LAYOUT_ND_NZ);
        assert_int_equal(p->base_reg, A0);
        assert_int_equal(p->stride_reg, A1);
        /* LB1 absent counts as 1, LB2 absent as LB0: 32 x 1 window. */
        assert_true(p->shape_const);
        assert_int_equal(p->shape.valid_rows, 1);
        assert_int_equal(p->shape.cols, 32);
        free(p);
    }
    /* v0.4 with one register: it is the base. */
    {
        uint64_t w3[] = { 0x08111181u, 0x000fa023u /* B.ARG NORM.normal */, enc_bdim(0, 0, 8),
                          enc_bior(A2, 0), enc_bioti(1, -1, 0, 5, true) };
        unsigned l3[] = { 4, 4, 4, 4, 4 };

        (void)dec(w3[1], 4, LINX_F_B_ARG_NORM_NORMAL);
        p = plan_words(w3, l3, 5, NULL);
        assert_int_equal(p->fault.rule, TMA_OK);
        assert_int_equal(p->layout, TMA_LAYOUT_NORM);
        assert_int_equal(p->base_reg, A2);
        assert_int_equal(p->stride_reg, 0);
        assert_int_equal(p->tile_bytes, 512);
        free(p);
    }
    /* BSTART.TMA with Function 3 decodes as the generic form: reserved. */
    {
        uint64_t w4[] = { 0x08011181u | 3u << 20, 0x000fa023u };
        unsigned l4[] = { 4, 4 };

        (void)dec(w4[0], 4, LINX_F_BSTART_TMA);
        p = plan_words(w4, l4, 2, NULL);
        assert_int_equal(p->fault.rule, TMA_R_RESERVED_FUNC);
        free(p);
    }
}

/* Build a TLOAD/TSTORE plan from fields (B.DATR style when @datr). */
static TmaPlan *plan_fields(unsigned op, unsigned dtype, TmaLayout layout, unsigned pad,
                            uint64_t lb0, uint64_t lb1, uint64_t lb2, unsigned size_code,
                            int src0, bool stride, const TmaOptions *opts)
{
    TmaPlan *p = malloc(sizeof(*p));
    TmaDesc d;
    TmaIot iot;

    tma_desc_init(&d, op, dtype);
    tma_desc_set_datr(&d, tma_datr_code(op, layout), pad);
    tma_desc_set_dim(&d, 0, 0, lb0);
    tma_desc_set_dim(&d, 1, 0, lb1);
    tma_desc_set_dim(&d, 2, 0, lb2);
    tma_desc_add_ior(&d, A0, stride ? A1 : 0, 0);
    memset(&iot, 0, sizeof(iot));
    iot.src[0] = (uint8_t)(src0 < 0 ? 0 : src0);
    iot.src_absent[0] = src0 < 0;
    iot.src_absent[1] = true;
    iot.size = (uint8_t)size_code;
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, opts, p);
    assert_int_equal(p->fault.rule, TMA_OK);
    return p;
}

static void test_roundtrip_nz(void **state)
{
    Env *e = *state;
    TmaPlan *ld, *st;
    TmaFault f;
    const LinxTileSlot *t1;

    /* GM: 32 x 32 f32 at RAM_BASE + 100, row pitch 200 floats. */
    gm_write_f32_matrix(e, RAM_BASE + 100, 32, 32, 800, 1.0f);
    e->gpr[A0] = RAM_BASE + 100;
    e->gpr[A1] = 800;
    ld = plan_fields(TMA_OP_TLOAD, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, TMA_PAD_ZERO, 32, 32, 32, 8,
                     -1, true, NULL);
    assert_true(exec_plan(e, ld, &f));
    t1 = linx_tile_get(e->ts, linx_tile_id(LINX_HAND_T, 1));
    assert_int_equal(t1->meta.bytes, 4096);
    assert_int_equal(t1->meta.layout, LINX_TL_NZ);
    assert_int_equal(t1->meta.dtype, LINX_DT_FP32);
    /* NZ: (r, c) at (c / 8) * 32 * 8 + r * 8 + c % 8. */
    for (uint32_t r = 0; r < 32; r++) {
        for (uint32_t c = 0; c < 32; c++) {
            float v;
            memcpy(&v, t1->data + ((c / 8) * 256 + r * 8 + c % 8) * 4, 4);
            assert_true(v == (float)(r * 1000 + c));
        }
    }
    /* Store it back dense at RAM_BASE + 0x10000 (no stride register). */
    e->gpr[A0] = RAM_BASE + 0x10000;
    st = plan_fields(TMA_OP_TSTORE, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, 0, 32, 32, 32, 8, 0, false,
                     NULL);
    assert_true(exec_plan(e, st, &f));
    for (uint32_t r = 0; r < 32; r++) {
        for (uint32_t c = 0; c < 32; c++) {
            assert_true(gm_read_f32(e, RAM_BASE + 0x10000 + (r * 32 + c) * 4) ==
                        (float)(r * 1000 + c));
        }
    }
    /* Nothing after the window. */
    assert_true(gm_read_f32(e, RAM_BASE + 0x10000 + 4096) == 0.0f);
    free(ld);
    free(st);
}

/* The same transfers through the bounce path (across two mappings and in
 * MMIO) give the same bytes as the direct path. */
static void test_bounce_paths(void **state)
{
    Env *e = *state;
    uint64_t bases[3] = { RAM_BASE + 0x20000, RAM_BASE + RAM_SIZE - 7 * 264 - 4, MMIO_BASE + 8 };
    uint8_t out[3][24 * 264];
    TmaPlan *ld, *st;
    TmaFault f;

    linx_tile_state_reset(e->ts);
    e->gpr[A1] = 264; /* stride, bytes */
    for (unsigned i = 0; i < 3; i++) {
        uint8_t pattern[24 * 264];
        unsigned before = e->mmio_accesses;

        for (size_t k = 0; k < sizeof(pattern); k++) {
            pattern[k] = (uint8_t)(k * 7 + 3);
        }
        for (uint32_t r = 0; r < 13; r++) {
            assert_int_equal(guest_mem_write(e->gm, bases[i] + r * 264, pattern + r * 264, 62,
                                             NULL), GM_OK);
        }
        e->gpr[A0] = bases[i];
        /* TLOAD ZN f16 13 x 31 window of a 32 x 32 tile (Max pad), then
         * TSTORE it 40 bytes further on. */
        ld = plan_fields(TMA_OP_TLOAD, LINX_DT_FP16, TMA_LAYOUT_ND_ZN, TMA_PAD_MAX, 31, 13, 32, 8,
                         -1, true, NULL);
        assert_true(exec_plan(e, ld, &f));
        e->gpr[A0] = bases[i] + 40;
        st = plan_fields(TMA_OP_TSTORE, LINX_DT_FP16, TMA_LAYOUT_ND_ZN, 0, 31, 13, 32, 8, 0,
                         true, NULL);
        assert_true(exec_plan(e, st, &f));
        assert_int_equal(guest_mem_read(e->gm, bases[i], out[i], 13 * 264, GM_PROT_READ, NULL),
                         GM_OK);
        if (i == 2) {
            assert_true(e->mmio_accesses > before);
        }
        free(ld);
        free(st);
        /* Padding cells hold +inf (0x7c00). */
        {
            const LinxTileSlot *t = linx_tile_get(e->ts, 0);
            uint16_t v;
            memcpy(&v, t->data + linx_tile_elem_offset(LINX_TL_ZN, 20, 5, 32, 32, 2) * 2, 2);
            assert_int_equal(v, 0x7c00);
            memcpy(&v, t->data + linx_tile_elem_offset(LINX_TL_ZN, 3, 31, 32, 32, 2) * 2, 2);
            assert_int_equal(v, 0x7c00);
        }
    }
    assert_memory_equal(out[0], out[1], 13 * 264);
    assert_memory_equal(out[0], out[2], 13 * 264);
    /* Row 0: bytes 0..39 original, 40..101 = original 0..61, 102.. untouched. */
    for (unsigned k = 0; k < 40; k++) {
        assert_int_equal(out[0][k], (uint8_t)(k * 7 + 3));
    }
    for (unsigned k = 40; k < 102; k++) {
        assert_int_equal(out[0][k], (uint8_t)((k - 40) * 7 + 3));
    }
}

static void test_reference_option(void **state)
{
    Env *e = *state;
    TmaOptions ref = { .reference = true }, portable = { .portable = true };
    TmaPlan *p[3];
    const TmaOptions *opts[3] = { &ref, &portable, NULL };
    uint8_t tiles[3][4096];
    TmaFault f;

    e->gpr[A0] = RAM_BASE + 0x30003;
    e->gpr[A1] = 300;
    for (uint32_t k = 0; k < 64 * 300; k += 4) {
        uint32_t v = k * 2654435761u;
        assert_int_equal(guest_mem_write(e->gm, RAM_BASE + 0x30000 + k, &v, 4, NULL), GM_OK);
    }
    for (unsigned i = 0; i < 3; i++) {
        p[i] = plan_fields(TMA_OP_TLOAD, LINX_DT_U8, TMA_LAYOUT_DN_ZN, TMA_PAD_MIN, 61, 47, 64, 8,
                           -1, true, opts[i]);
        assert_true(exec_plan(e, p[i], &f));
        memcpy(tiles[i], linx_tile_get(e->ts, 0)->data, 4096);
    }
    assert_string_equal(p[0]->kernel_name, "reference-load");
    assert_string_equal(p[1]->kernel_name, "portable-nz-load"); /* DN + ZN = transposed NZ */
    assert_memory_equal(tiles[0], tiles[1], 4096);
    assert_memory_equal(tiles[0], tiles[2], 4096);
    for (unsigned i = 0; i < 3; i++) {
        free(p[i]);
    }
}

static void test_tmov(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaPlan p;
    TmaIot iot;
    TmaRuntimeArgs a;
    TmaFault f;
    const LinxTileSlot *u1;

    linx_tile_state_reset(e->ts);
    /* t#1: ND 16 x 8 s32 (512 B), values r * 8 + c. */
    {
        LinxTileSlot *s = linx_tile_push_slot(e->ts, LINX_HAND_T);
        LinxTileMeta m = { 512, LINX_DT_S32, LINX_TL_ND, 16, 8, 16, 8 };
        for (int32_t k = 0; k < 128; k++) {
            memcpy(s->data + 4 * k, &k, 4);
        }
        linx_tile_push_commit(e->ts, LINX_HAND_T, &m);
    }
    memset(&a, 0, sizeof(a));
    /* V2V plain (no B.ARG): t#1 -> u<1KB>, zero-extended. */
    tma_desc_init(&d, TMA_OP_TMOV, LINX_DT_S32);
    memset(&iot, 0, sizeof(iot));
    iot.src[0] = 0;
    iot.src_absent[1] = true;
    iot.dst = LINX_HAND_U;
    iot.size = 6;
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(tma_exec(e->ts, e->gm, &p, &a, &f));
    u1 = linx_tile_get(e->ts, linx_tile_id(LINX_HAND_U, 1));
    assert_int_equal(u1->meta.bytes, 1024);
    assert_memory_equal(u1->data, linx_tile_get(e->ts, 0)->data, 512);
    for (unsigned k = 512; k < 1024; k++) {
        assert_int_equal(u1->data[k], 0);
    }
    /* V2V ND2NZ: dense 16 x 8 window of t#1 -> NZ 16 x 8 in u. */
    tma_desc_init(&d, TMA_OP_TMOV, LINX_DT_S32);
    tma_desc_set_barg(&d, 1);
    tma_desc_set_dim(&d, 0, 0, 8);
    tma_desc_set_dim(&d, 1, 0, 16);
    iot.size = 5;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(tma_exec(e->ts, e->gm, &p, &a, &f));
    u1 = linx_tile_get(e->ts, linx_tile_id(LINX_HAND_U, 1));
    assert_int_equal(u1->meta.layout, LINX_TL_NZ);
    for (uint32_t r = 0; r < 16; r++) {
        for (uint32_t c = 0; c < 8; c++) {
            int32_t v;
            memcpy(&v, u1->data + linx_tile_elem_offset(LINX_TL_NZ, r, c, 16, 8, 4) * 4, 4);
            assert_int_equal(v, (int32_t)(r * 8 + c));
        }
    }
    /* The previous u#1 is now u#2. */
    assert_int_equal(linx_tile_get(e->ts, linx_tile_id(LINX_HAND_U, 2))->meta.bytes, 1024);
    /* A2V: ACC raw bits to a tile. */
    e->ts->acc.dtype = LINX_DT_FP32;
    e->ts->acc.m = 2;
    e->ts->acc.n = 3;
    for (unsigned k = 0; k < 6; k++) {
        float v = (float)k + 0.5f;
        memcpy(e->ts->acc.data + 4 * k, &v, 4);
    }
    tma_desc_init(&d, TMA_OP_TMOV, LINX_DT_FP32);
    tma_desc_set_barg(&d, 2);
    iot.src_absent[0] = true;
    iot.dst = LINX_HAND_N;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_true(tma_exec(e->ts, e->gm, &p, &a, &f));
    {
        const LinxTileSlot *n1 = linx_tile_get(e->ts, linx_tile_id(LINX_HAND_N, 1));
        float v;
        memcpy(&v, n1->data + 4 * 5, 4);
        assert_true(v == 5.5f);
        assert_int_equal(n1->meta.rows, 2);
        assert_int_equal(n1->meta.cols, 3);
        assert_int_equal(n1->data[24], 0);
    }
}

/* Dynamic shape (all LBs and the tile size from registers) = constant. */
static void test_dynamic_shape(void **state)
{
    Env *e = *state;
    TmaDesc d;
    TmaPlan p;
    TmaIot iot;
    TmaFault f;
    uint8_t got[64 * 80], want[64 * 80];

    linx_tile_state_reset(e->ts);
    e->gpr[A0] = RAM_BASE + 0x40000;
    e->gpr[A1] = 80;
    for (uint32_t k = 0; k < sizeof(want); k++) {
        uint8_t b = (uint8_t)(k ^ (k >> 5));
        assert_int_equal(guest_mem_write(e->gm, RAM_BASE + 0x40000 + k, &b, 1, NULL), GM_OK);
    }
    /* TLOAD S8 NZ 64 x 64 via registers: LB0 = a2 + 4 = 64 cols, LB1 = a2 = 60,
     * LB2 = a2 + 4, size = x0 (4096). */
    e->gpr[A2] = 60;
    e->gpr[20] = 4096;
    tma_desc_init(&d, TMA_OP_TLOAD, LINX_DT_S8);
    tma_desc_set_barg(&d, 1);
    tma_desc_set_dim(&d, 0, A2, 4);
    tma_desc_set_dim(&d, 1, A2, 0);
    tma_desc_set_dim(&d, 2, A2, 4);
    tma_desc_add_ior(&d, A1, A0, 0);
    memset(&iot, 0, sizeof(iot));
    iot.src_absent[0] = iot.src_absent[1] = true;
    iot.size_is_reg = true;
    iot.size = 20;
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_int_equal(p.dyn, TMA_DYN_SHAPE | TMA_DYN_STRIDE);
    assert_true(exec_plan(e, &p, &f));
    {
        const LinxTileSlot *t = linx_tile_get(e->ts, 0);
        assert_int_equal(t->meta.rows, 64);
        assert_int_equal(t->meta.valid_rows, 60);
        for (uint32_t r = 0; r < 60; r++) {
            for (uint32_t c = 0; c < 64; c++) {
                uint32_t k = r * 80 + c;
                assert_int_equal(t->data[linx_tile_elem_offset(LINX_TL_NZ, r, c, 64, 64, 1)],
                                 (uint8_t)(k ^ (k >> 5)));
            }
        }
    }
    /* Store it with the same dynamic header shape; compare to GM. */
    d.func = TMA_OP_TSTORE;
    d.nsrc = 1;
    d.src[0] = 0;
    tma_plan(&d, NULL, &p);
    assert_int_equal(p.fault.rule, TMA_OK);
    e->gpr[A0] = RAM_BASE + 0x50000;
    assert_true(exec_plan(e, &p, &f));
    assert_int_equal(guest_mem_read(e->gm, RAM_BASE + 0x40000, want, sizeof(want), GM_PROT_READ,
                                    NULL), GM_OK);
    assert_int_equal(guest_mem_read(e->gm, RAM_BASE + 0x50000, got, sizeof(got), GM_PROT_READ,
                                    NULL), GM_OK);
    for (uint32_t r = 0; r < 64; r++) {
        for (uint32_t c = 0; c < 80; c++) {
            uint8_t expect = (r < 60 && c < 64) ? want[r * 80 + c] : 0;
            assert_int_equal(got[r * 80 + c], expect);
        }
    }
}

/* -d tile style dump of a loaded tile shows logical values. */
static void test_dump_loaded(void **state)
{
    Env *e = *state;
    TmaPlan *ld;
    TmaFault f;
    char *buf = NULL;
    size_t len = 0;
    FILE *out;

    linx_tile_state_reset(e->ts);
    gm_write_f32_matrix(e, RAM_BASE + 0x60000, 16, 8, 32, 0.5f);
    e->gpr[A0] = RAM_BASE + 0x60000;
    ld = plan_fields(TMA_OP_TLOAD, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, TMA_PAD_ZERO, 8, 16, 8, 5, -1,
                     false, NULL);
    assert_true(exec_plan(e, ld, &f));
    out = open_memstream(&buf, &len);
    linx_tile_dump(out, e->ts, 0, NULL);
    fclose(out);
    assert_non_null(strstr(buf, "t#1 (tile 0): 512 B FP32 NZ 16x8, valid 16x8\n"));
    assert_non_null(strstr(buf, "[  2]        1000      1000.5        1001"));
    free(buf);
    free(ld);
}

/* The per-CPU window cache (fast path) never outlives a mapping change:
 * after a protect or unmap the same TSTORE faults, after a remap it runs. */
static void test_window_cache(void **state)
{
    Env *e = *state;
    TmaPlan *ld, *st;
    TmaFault f;
    uint64_t target = RAM_BASE + 0x70000;

    linx_tile_state_reset(e->ts);
    gm_write_f32_matrix(e, RAM_BASE + 0x71000, 32, 32, 128, 1.0f);
    e->gpr[A0] = RAM_BASE + 0x71000;
    ld = plan_fields(TMA_OP_TLOAD, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, TMA_PAD_ZERO, 32, 32, 32, 8,
                     -1, false, NULL);
    assert_true(ld->fast);
    assert_true(exec_plan(e, ld, &f));
    assert_true(exec_plan(e, ld, &f)); /* second run: cache hit */
    st = plan_fields(TMA_OP_TSTORE, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, 0, 32, 32, 32, 8, 0, false,
                     NULL);
    assert_true(st->fast);
    e->gpr[A0] = target;
    assert_true(exec_plan(e, st, &f));
    assert_true(exec_plan(e, st, &f));
    assert_true(e->ts->gm_cache[1].gm == e->gm);
    /* Read-only now: the cached block must not be used. */
    assert_true(guest_mem_protect(e->gm, target, GUEST_PAGE_SIZE, GM_PROT_READ));
    assert_false(exec_plan(e, st, &f));
    assert_int_equal(f.rule, TMA_R_GM_FAULT);
    assert_int_equal(f.value, target);
    /* Unmapped. */
    assert_true(guest_mem_unmap(e->gm, target, GUEST_PAGE_SIZE));
    assert_false(exec_plan(e, st, &f));
    assert_int_equal(f.rule, TMA_R_GM_FAULT);
    assert_int_equal(f.value, target);
    /* Mapped again (a new zero page): works, and writes land there. */
    assert_true(guest_mem_map(e->gm, target, GUEST_PAGE_SIZE, GM_PROT_READ | GM_PROT_WRITE,
                              false));
    assert_true(exec_plan(e, st, &f));
    {
        uint8_t page[64];
        assert_int_equal(guest_mem_read(e->gm, target, page, sizeof(page), GM_PROT_READ, NULL),
                         GM_OK);
        assert_memory_not_equal(page, (uint8_t[64]){ 0 }, sizeof(page));
    }
    /* A cached block does not hide a wrong-size source tile. */
    ld->shape.tile_bytes = 2048; /* pretend: push a 2 KB tile */
    assert_true(exec_plan(e, ld, &f));
    assert_false(exec_plan(e, st, &f));
    assert_int_equal(f.rule, TMA_R_TILE_SIZE);
    free(ld);
    free(st);
}

/* A TSTORE next to code (same 2 MiB, other pages) leaves the code's marks
 * alone and keeps hitting its cached window; the cached window holds no
 * code page; a TSTORE onto a code page still drops its mark (issue 16:
 * the cache probe raised a code-write event over the whole aligned block,
 * a retranslation storm on every call). */
static void test_window_cache_near_code(void **state)
{
    Env *e = *state;
    TmaPlan *ld, *st;
    TmaFault f;
    uint64_t code = RAM_BASE + 0x10000, target = RAM_BASE + 0x12000;
    uint64_t gen;
    const LinxTileGmCache *c = &e->ts->gm_cache[1];

    linx_tile_state_reset(e->ts);
    gm_write_f32_matrix(e, RAM_BASE + 0x71000, 32, 32, 128, 1.0f);
    e->gpr[A0] = RAM_BASE + 0x71000;
    ld = plan_fields(TMA_OP_TLOAD, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, TMA_PAD_ZERO, 32, 32, 32, 8,
                     -1, false, NULL);
    assert_true(exec_plan(e, ld, &f));
    guest_mem_set_code(e->gm, code);
    guest_mem_set_code(e->gm, code + 0x4000); /* code on both sides of the target */
    st = plan_fields(TMA_OP_TSTORE, LINX_DT_FP32, TMA_LAYOUT_ND_NZ, 0, 32, 32, 32, 8, 0, false,
                     NULL);
    e->gpr[A0] = target;
    assert_true(exec_plan(e, st, &f));
    gen = guest_mem_generation(e->gm);
    for (int i = 0; i < 10; i++) {
        assert_true(exec_plan(e, st, &f));
    }
    assert_true(guest_mem_is_code(e->gm, code));
    assert_true(guest_mem_is_code(e->gm, code + 0x4000));
    assert_int_equal(guest_mem_generation(e->gm), gen); /* no event, no refill */
    assert_true(c->gm == e->gm);
    assert_true(c->lo <= target && c->hi >= target + 4096);
    assert_true(c->lo >= code + GUEST_PAGE_SIZE && c->hi <= code + 0x4000);
    /* The store onto code: the mark goes (self-modifying code). */
    e->gpr[A0] = code + 0x4000;
    assert_true(exec_plan(e, st, &f));
    assert_false(guest_mem_is_code(e->gm, code + 0x4000));
    assert_true(guest_mem_is_code(e->gm, code));
    /* A page of the cached block becoming code bumps the generation: the
     * next store there drops the new mark. */
    e->gpr[A0] = target;
    assert_true(exec_plan(e, st, &f));
    guest_mem_set_code(e->gm, target);
    assert_true(exec_plan(e, st, &f));
    assert_false(guest_mem_is_code(e->gm, target));
    free(ld);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ingest_words),
        cmocka_unit_test_setup_teardown(test_roundtrip_nz, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_bounce_paths, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_reference_option, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_tmov, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_shape, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_dump_loaded, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_window_cache, env_setup, env_teardown),
        cmocka_unit_test_setup_teardown(test_window_cache_near_code, env_setup, env_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
