/*
 * TSTORE AtomicAdd (B.ATTR atomic; seed 001, hw/linx/tma-atomic.c) against
 * an oracle written here: GM(i, j) = old(i, j) + tile(i, j) computed with
 * 64-bit integers masked to the type (S8, S16, S32 wrap) or in double
 * (exact for the values used) rounded once to the type (FP32, FP16, BF16),
 * for every allowed type x layout (NORM, NZ2ND, ZN2ND, NZ2DN, ZN2DN) x
 * kernel (specialised, portable, reference) x GM placement (one RAM block,
 * two mappings: the bounce path, MMIO), with a padded stride whose gaps
 * must stay untouched, a window smaller than the tile, and the rounding
 * ties of FP16 / BF16.  The B.ATTR word is decoded from its encoding; the
 * other types raise atomic-dtype, an atomic TLOAD atomic-op, and a GM
 * fault leaves GM unchanged.
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

#define RAM_BASE 0x200000u
#define RAM_SIZE 0x100000u
#define MMIO_BASE 0x400000u
#define MMIO_SIZE 0x20000u
#define A0 2
#define A1 3

enum { COL = 32, TILE_BYTES = 2048, PADC = 5, VALID_COL = 29 };

typedef struct Env {
    GuestMemory *gm;
    LinxTileState *ts;
    uint8_t mmio[MMIO_SIZE];
} Env;

static bool mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *value)
{
    Env *e = opaque;

    *value = 0;
    memcpy(value, e->mmio + off, size);
    return true;
}

static bool mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t value)
{
    Env *e = opaque;

    memcpy(e->mmio + off, &value, size);
    return true;
}

static const GuestMMIOOps mmio_ops = { mmio_read, mmio_write };

static int env_setup(void **state)
{
    Env *e = calloc(1, sizeof(*e));

    e->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    e->ts = linx_tile_state_new();
    assert_true(guest_mem_map(e->gm, RAM_BASE, RAM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
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

/* A planned TLOAD or TSTORE of @dtype/@layout, base a0, stride a1. */
static void plan(TmaPlan *p, unsigned op, unsigned dtype, TmaLayout layout, uint64_t lb0,
                 uint64_t lb1, bool atomic, const TmaOptions *opts)
{
    TmaDesc d;
    TmaIot iot;

    tma_desc_init(&d, op, dtype);
    tma_desc_set_datr(&d, tma_datr_code(op, layout), 0);
    tma_desc_set_dim(&d, 0, 0, lb0);
    tma_desc_set_dim(&d, 1, 0, lb1);
    tma_desc_set_dim(&d, 2, 0, COL);
    tma_desc_add_ior(&d, A0, A1, 0);
    memset(&iot, 0, sizeof(iot));
    iot.src[0] = 0;
    iot.src_absent[0] = op != TMA_OP_TSTORE;
    iot.src_absent[1] = true;
    iot.size = 7; /* 2 KB */
    iot.last = true;
    tma_desc_add_iot(&d, &iot);
    if (atomic) {
        tma_desc_set_atomic(&d);
    }
    tma_plan(&d, opts, p);
}

static bool run(Env *e, const TmaPlan *p, uint64_t base, uint64_t stride, TmaFault *f)
{
    TmaRuntimeArgs a;

    memset(&a, 0, sizeof(a));
    a.lb[0] = p->lb[0];
    a.lb[1] = p->lb[1];
    a.lb[2] = p->lb[2];
    a.base = base;
    a.stride = stride;
    return tma_exec(e->ts, e->gm, p, &a, f);
}

/* Element bits of the old GM value (k = 0) or the tile value (k = 1) at
 * (i, j): varied, with ties, carries and wraps. */
static uint64_t value(unsigned dtype, unsigned k, uint32_t i, uint32_t j)
{
    uint32_t h = (i * 131u + j * 29u + k * 7919u) * 2654435761u;

    switch (dtype) {
    case LINX_DT_S8:
    case LINX_DT_S16:
    case LINX_DT_S32:
        /* Near the extremes now and then, so sums wrap. */
        return (h >> 5) % 4 == 0 ? (k ? 0x7ffffff0u : 0x7fffff80u) : h;
    case LINX_DT_FP32: {
        float v = (float)((int32_t)(h % 20001u) - 10000) / 64.0f;
        uint32_t b;
        if ((h >> 7) % 5 == 0) {
            v = k ? 1.0f : 0x1p24f; /* 2^24 + 1 is a tie: to even, 2^24 */
        }
        memcpy(&b, &v, 4);
        return b;
    }
    case LINX_DT_FP16:
        if ((h >> 7) % 5 == 0) {
            return k ? 0x3c00 /* 1 */ : 0x6800 /* 2048: 2049 ties to 2048 */;
        }
        return linx_float_to_fp16((float)((int32_t)(h % 2001u) - 1000) / 8.0f);
    default: /* BF16 */
        if ((h >> 7) % 5 == 0) {
            return k ? 0x3f80 /* 1 */ : 0x4380 /* 256: 257 ties to 256 */;
        }
        return linx_float_to_bf16((float)((int32_t)(h % 2001u) - 1000) / 4.0f);
    }
}

/* The oracle: old + t in the type. */
static uint64_t oracle_add(unsigned dtype, uint64_t old, uint64_t t)
{
    switch (dtype) {
    case LINX_DT_S8:
        return (uint64_t)((int64_t)(int8_t)old + (int8_t)t) & 0xff;
    case LINX_DT_S16:
        return (uint64_t)((int64_t)(int16_t)old + (int16_t)t) & 0xffff;
    case LINX_DT_S32:
        return (uint64_t)((int64_t)(int32_t)old + (int32_t)t) & 0xffffffffu;
    case LINX_DT_FP32: {
        float a, b, r;
        uint32_t ab = (uint32_t)old, bb = (uint32_t)t, out;
        memcpy(&a, &ab, 4);
        memcpy(&b, &bb, 4);
        r = (float)((double)a + (double)b); /* exact in double, one rounding */
        memcpy(&out, &r, 4);
        return out;
    }
    case LINX_DT_FP16:
        return linx_float_to_fp16(
            (float)((double)linx_fp16_to_float((uint16_t)old) + linx_fp16_to_float((uint16_t)t)));
    default:
        return linx_float_to_bf16(
            (float)((double)linx_bf16_to_float((uint16_t)old) + linx_bf16_to_float((uint16_t)t)));
    }
}

static void put(Env *e, uint64_t addr, uint64_t v, unsigned es)
{
    assert_int_equal(guest_mem_write(e->gm, addr, &v, es, NULL), GM_OK);
}

static uint64_t get(Env *e, uint64_t addr, unsigned es)
{
    uint64_t v = 0;

    assert_int_equal(guest_mem_read(e->gm, addr, &v, es, GM_PROT_READ, NULL), GM_OK);
    return v;
}

/* One case: GM (rows x COL + PADC at @dst, column-major for DN) gets
 * old values and sentinels in the gaps; the tile is TLOADed from @src;
 * TSTORE atomic; every element checked. */
static void one_case(Env *e, unsigned dtype, TmaLayout layout, uint64_t src, uint64_t dst,
                     const TmaOptions *opts)
{
    unsigned es = linx_dtype_info(dtype)->size;
    bool dn = layout == TMA_LAYOUT_DN_NZ || layout == TMA_LAYOUT_DN_ZN;
    uint32_t row = TILE_BYTES / (COL * es); /* Row of the tile */
    /* ND GM: ValidCol = LB0, ValidRow = LB1; DN GM: ValidRow = LB0,
     * ValidCol = LB1 (the tile's Row x Col stays the same). */
    uint32_t vr = dn ? row - 2 : row - 3, vc = dn ? COL - 5 : VALID_COL;
    uint64_t lb0 = dn ? vr : vc, lb1 = dn ? vc : vr;
    uint32_t lines = dn ? vc : vr, inner = dn ? vr : vc;
    uint64_t stride = (uint64_t)(inner + PADC) * es;
    TmaPlan ld, st;
    TmaFault f;
    char what[96];

    snprintf(what, sizeof(what), "%s layout %d at 0x%llx%s", linx_dtype_name(dtype), layout,
             (unsigned long long)dst, opts && opts->reference ? " (reference)" : "");
    /* GM element (i, j) of the window sits at line * stride + k * es with
     * (line, k) = (i, j) for ND, (j, i) for DN. */
    for (uint32_t l = 0; l < lines; l++) {
        for (uint32_t k = 0; k < inner + PADC; k++) {
            uint32_t i = dn ? k : l, j = dn ? l : k;
            bool in = k < inner;

            put(e, src + l * stride + (uint64_t)k * es, in ? value(dtype, 1, i, j) : 0, es);
            put(e, dst + l * stride + (uint64_t)k * es, in ? value(dtype, 0, i, j) : 0xa5a5a5a5u,
                es);
        }
    }
    plan(&ld, TMA_OP_TLOAD, dtype, layout, lb0, lb1, false, opts);
    assert_int_equal(ld.fault.rule, TMA_OK);
    assert_true(run(e, &ld, src, stride, &f));
    plan(&st, TMA_OP_TSTORE, dtype, layout, lb0, lb1, true, opts);
    assert_int_equal(st.fault.rule, TMA_OK);
    assert_true(st.atomic);
    assert_non_null(strstr(st.kernel_name, "atomic"));
    assert_true(run(e, &st, dst, stride, &f));
    for (uint32_t l = 0; l < lines; l++) {
        for (uint32_t k = 0; k < inner + PADC; k++) {
            uint32_t i = dn ? k : l, j = dn ? l : k;
            uint64_t got = get(e, dst + l * stride + (uint64_t)k * es, es);
            uint64_t mask = es == 8 ? ~0ull : (1ull << (es * 8)) - 1;
            uint64_t want = k < inner ? oracle_add(dtype, value(dtype, 0, i, j),
                                                   value(dtype, 1, i, j))
                                      : 0xa5a5a5a5u & mask;

            if (got != want) {
                fail_msg("%s: GM (%u, %u): got 0x%llx, want 0x%llx", what, i, j,
                         (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
}

static void test_atomic_add(void **state)
{
    static const unsigned types[] = { LINX_DT_S8, LINX_DT_S16, LINX_DT_S32,
                                      LINX_DT_FP32, LINX_DT_FP16, LINX_DT_BF16 };
    static const TmaLayout layouts[] = { TMA_LAYOUT_NORM, TMA_LAYOUT_ND_NZ, TMA_LAYOUT_ND_ZN,
                                         TMA_LAYOUT_DN_NZ, TMA_LAYOUT_DN_ZN };
    static const TmaOptions opt_list[3] = { { false, false }, { false, true }, { true, false } };
    /* One RAM block; straddling the two mappings (bounce path); MMIO. */
    const uint64_t dsts[3] = { RAM_BASE + 0x40000, RAM_BASE + RAM_SIZE - 0x800, MMIO_BASE + 0x100 };
    Env *e = *state;
    unsigned cases = 0;

    for (unsigned t = 0; t < 6; t++) {
        for (unsigned l = 0; l < 5; l++) {
            for (unsigned o = 0; o < 3; o++) {
                for (unsigned d = 0; d < 3; d++) {
                    one_case(e, types[t], layouts[l], RAM_BASE + 0x10000, dsts[d], &opt_list[o]);
                    cases++;
                }
            }
        }
    }
    assert_int_equal(cases, 270);
}

/* B.ATTR atomic from its encoding (atom = bit 17 of the B.ATTR word, v0.4
 * field "atom"), through tma_desc_add. */
static void test_decode_attr(void **state)
{
    LinxInsn insn;
    TmaDesc d;
    const uint32_t battr_atomic = 0x00020023; /* B.ATTR atomic (linx-as) */

    (void)state;
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    assert_int_equal(linx_decode_packed(battr_atomic, 4, &insn), LINX_DECODE_OK);
    assert_int_equal(insn.form, LINX_F_B_ATTR);
    assert_true(tma_desc_add(&d, &insn));
    assert_true(d.atomic);
    tma_desc_init(&d, TMA_OP_TSTORE, LINX_DT_FP32);
    assert_int_equal(linx_decode_packed(0x00000023, 4, &insn), LINX_DECODE_OK); /* B.ATTR */
    assert_true(tma_desc_add(&d, &insn));
    assert_false(d.atomic);
}

/* Types seed 001 does not allow, an atomic TLOAD, and a GM fault. */
static void test_atomic_rules(void **state)
{
    static const unsigned bad[] = { LINX_DT_FP64, LINX_DT_FP8, LINX_DT_S64, LINX_DT_U8,
                                    LINX_DT_U16, LINX_DT_U32, LINX_DT_U64 };
    Env *e = *state;
    TmaPlan p;
    TmaFault f;
    LinxTileTrap t;
    uint8_t before[64], after[64];

    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        plan(&p, TMA_OP_TSTORE, bad[i], TMA_LAYOUT_NORM, 16, 4, true, NULL);
        assert_int_equal(p.fault.rule, TMA_R_ATOMIC_DTYPE);
        assert_int_equal(p.fault.value, bad[i]);
        linx_tile_fault_trap(&p.fault, &t);
        assert_int_equal(t.trapnum, LINX_TRAP_ILLEGAL_INST);
        assert_int_equal(t.traparg0, TMA_R_ATOMIC_DTYPE | (uint64_t)bad[i] << 32);
    }
    assert_string_equal(tma_rule_name(TMA_R_ATOMIC_DTYPE), "atomic-dtype");
    plan(&p, TMA_OP_TLOAD, LINX_DT_FP32, TMA_LAYOUT_NORM, 16, 4, true, NULL);
    assert_int_equal(p.fault.rule, TMA_R_ATOMIC_OP);
    assert_string_equal(tma_rule_name(TMA_R_ATOMIC_OP), "atomic-op");
    /* A window running off the end of the MMIO region into unmapped space: fault at
     * its first unmapped byte, GM unchanged. */
    plan(&p, TMA_OP_TLOAD, LINX_DT_S32, TMA_LAYOUT_NORM, COL, 16, false, NULL);
    assert_true(run(e, &p, RAM_BASE, COL * 4, &f));
    plan(&p, TMA_OP_TSTORE, LINX_DT_S32, TMA_LAYOUT_NORM, COL, 16, true, NULL);
    assert_int_equal(p.fault.rule, TMA_OK);
    assert_int_equal(guest_mem_read(e->gm, MMIO_BASE + MMIO_SIZE - 64, before, 64, GM_PROT_READ,
                                    NULL), GM_OK);
    assert_false(run(e, &p, MMIO_BASE + MMIO_SIZE - 64, COL * 4, &f));
    assert_int_equal(f.rule, TMA_R_GM_FAULT);
    assert_int_equal(f.value, MMIO_BASE + MMIO_SIZE);
    linx_tile_fault_trap(&f, &t);
    assert_int_equal(t.trapnum, LINX_TRAP_DATA_PAGE_FAULT);
    assert_int_equal(t.traparg0, MMIO_BASE + MMIO_SIZE);
    assert_int_equal(guest_mem_read(e->gm, MMIO_BASE + MMIO_SIZE - 64, after, 64, GM_PROT_READ,
                                    NULL), GM_OK);
    assert_memory_equal(before, after, 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_atomic_add, env_setup, env_teardown),
        cmocka_unit_test(test_decode_attr),
        cmocka_unit_test_setup_teardown(test_atomic_rules, env_setup, env_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
