/*
 * TMA kernel tests.
 *
 * 1. The reference kernels against tile images built independently, the
 *    numpy way of tile-semantics.md 2.1 (NZ: reshape (R, C/c0, c0), move
 *    axis 1 first; ZN: reshape (R/c0, c0, C), swap the last two axes).
 * 2. Property sweep: every dtype x layout x shape category {exact, padded
 *    tile, odd windows 5x7 and 13x31, power-of-two 64/128/256, 4 KB
 *    squares} x {1, 2, 3, 8 source tiles} for TSTORE, and x {Null, Zero,
 *    Max, Min} pad for TLOAD: every specialised kernel (the one the plan
 *    picks with and without host SIMD, and the generic AVX2 one) gives the
 *    reference's bytes exactly, and bytes outside the GM window, in the
 *    guards and in unused tile space are untouched.  Shapes are found by
 *    asking tma_plan() (the real rules) for the first legal geometry; a
 *    combination with no legal geometry is counted, not skipped silently.
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

#define GUARD 64
#define TILE_BUF (LINX_TILE_MAX_BYTES + 2 * GUARD)
#define REG_BASE 2   /* a0 */
#define REG_STRIDE 3 /* a1 */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)(rng() >> 24);
    }
}

static const uint8_t all_dtypes[] = {
    LINX_DT_FP64, LINX_DT_FP32, LINX_DT_FP16, LINX_DT_FP8, LINX_DT_BF16, LINX_DT_S64, LINX_DT_S32,
    LINX_DT_S16,  LINX_DT_S8,   LINX_DT_U64,  LINX_DT_U32, LINX_DT_U16,  LINX_DT_U8,
};
#define N_DTYPES (sizeof(all_dtypes) / sizeof(all_dtypes[0]))

/* ------------------------------------------------------------------ */
/* 1. Reference vs independently built tile images                     */
/* ------------------------------------------------------------------ */

/* Build the linear image of an R x C matrix M (element k of M = value k)
 * in @layout by walking the image in order. */
static void build_image(uint32_t *img, unsigned layout, uint32_t R, uint32_t C)
{
    const uint32_t c0 = 8; /* 32-bit elements */
    size_t k = 0;

    if (layout == LINX_TL_NZ) {
        for (uint32_t b = 0; b < C / c0; b++) {
            for (uint32_t r = 0; r < R; r++) {
                for (uint32_t cc = 0; cc < c0; cc++) {
                    img[k++] = r * C + b * c0 + cc;
                }
            }
        }
    } else if (layout == LINX_TL_ZN) {
        for (uint32_t rb = 0; rb < R / c0; rb++) {
            for (uint32_t c = 0; c < C; c++) {
                for (uint32_t rr = 0; rr < c0; rr++) {
                    img[k++] = (rb * c0 + rr) * C + c;
                }
            }
        }
    } else {
        for (uint32_t r = 0; r < R; r++) {
            for (uint32_t c = 0; c < C; c++) {
                img[k++] = r * C + c;
            }
        }
    }
}

static void check_ref_store_image(unsigned layout, uint32_t R, uint32_t C, uint32_t vr,
                                  uint32_t vc)
{
    uint32_t img[1024], gm[64 * 64];
    TmaXfer x;

    assert_true(R * C <= 1024 && vr <= 64 && vc <= 64);
    build_image(img, layout, R, C);
    memset(gm, 0xee, sizeof(gm));
    memset(&x, 0, sizeof(x));
    x.gm = (uint8_t *)gm;
    x.stride = 64 * 4;
    x.tile[0] = (uint8_t *)img;
    x.ntiles = 1;
    x.valid_rows = vr;
    x.valid_cols = vc;
    x.rows = R;
    x.cols = C;
    x.esize = 4;
    x.tile_layout = (uint8_t)layout;
    tma_ref_tstore(&x);
    for (uint32_t i = 0; i < 64; i++) {
        for (uint32_t j = 0; j < 64; j++) {
            uint32_t want = (i < vr && j < vc) ? i * C + j : 0xeeeeeeeeu;
            assert_int_equal(gm[i * 64 + j], want);
        }
    }
    /* And back: TLOAD of that GM window rebuilds the image (Zero pad). */
    {
        uint32_t back[1024];

        memset(back, 0x55, sizeof(back));
        x.tile[0] = (uint8_t *)back;
        x.pad = TMA_PAD_ZERO;
        x.pad_pattern = 0;
        tma_ref_tload(&x);
        for (uint32_t k = 0; k < R * C; k++) {
            uint32_t v = img[k], r = v / C, c = v % C;
            assert_int_equal(back[k], (r < vr && c < vc) ? v : 0);
        }
        for (uint32_t k = R * C; k < 1024; k++) {
            assert_int_equal(back[k], 0x55555555u);
        }
    }
}

static void test_ref_matches_images(void **state)
{
    (void)state;
    check_ref_store_image(LINX_TL_ND, 16, 24, 16, 24);
    check_ref_store_image(LINX_TL_ND, 10, 20, 7, 13);
    check_ref_store_image(LINX_TL_NZ, 32, 32, 32, 32);
    check_ref_store_image(LINX_TL_NZ, 16, 16, 13, 11);
    check_ref_store_image(LINX_TL_NZ, 48, 16, 33, 9);
    check_ref_store_image(LINX_TL_ZN, 32, 32, 32, 32);
    check_ref_store_image(LINX_TL_ZN, 8, 48, 5, 47);
    check_ref_store_image(LINX_TL_ZN, 24, 16, 17, 3);
}

/* Seed 000 example 1 in spirit: three f32 NZ tiles merged along columns
 * (ND GM); column j of the GM comes from tile j / (C/3). */
static void test_ref_merge_nd(void **state)
{
    uint32_t t[3][16 * 8], gm[16 * 24];
    TmaXfer x;

    (void)state;
    memset(&x, 0, sizeof(x));
    for (uint32_t k = 0; k < 3; k++) {
        for (uint32_t r = 0; r < 16; r++) {
            for (uint32_t c = 0; c < 8; c++) {
                t[k][c / 8 * 16 * 8 + r * 8 + c % 8] = 1000 * k + 10 * r + c;
            }
        }
        x.tile[k] = (uint8_t *)t[k];
    }
    x.ntiles = 3;
    x.gm = (uint8_t *)gm;
    x.stride = 24 * 4;
    x.valid_rows = 16;
    x.valid_cols = 24;
    x.rows = 16;
    x.cols = 8;
    x.esize = 4;
    x.tile_layout = LINX_TL_NZ;
    tma_ref_tstore(&x);
    for (uint32_t i = 0; i < 16; i++) {
        for (uint32_t j = 0; j < 24; j++) {
            assert_int_equal(gm[i * 24 + j], 1000 * (j / 8) + 10 * i + j % 8);
        }
    }
}

/* Seed 000 example 2 in spirit: two tiles merged along rows for DN GM
 * (NZ2DN): GM column j holds merged rows i, tile i / Rows_sub. */
static void test_ref_merge_dn(void **state)
{
    uint16_t t[2][16 * 16], gm[16 * 32];
    TmaXfer x;

    (void)state;
    memset(&x, 0, sizeof(x));
    for (uint32_t k = 0; k < 2; k++) {
        for (uint32_t r = 0; r < 16; r++) {
            for (uint32_t c = 0; c < 16; c++) {
                t[k][(c / 16) * 16 * 16 + r * 16 + c % 16] = (uint16_t)(1000 * k + 20 * r + c);
            }
        }
        x.tile[k] = (uint8_t *)t[k];
    }
    x.ntiles = 2;
    x.gm = (uint8_t *)gm;
    x.stride = 32 * 2; /* one GM column = 32 merged rows */
    x.valid_rows = 32;
    x.valid_cols = 16;
    x.rows = 16;
    x.cols = 16;
    x.esize = 2;
    x.tile_layout = LINX_TL_NZ;
    x.gm_dn = 1;
    tma_ref_tstore(&x);
    for (uint32_t i = 0; i < 32; i++) {
        for (uint32_t j = 0; j < 16; j++) {
            assert_int_equal(gm[j * 32 + i], 1000 * (i / 16) + 20 * (i % 16) + j);
        }
    }
}

/* ------------------------------------------------------------------ */
/* 2. Property sweep                                                   */
/* ------------------------------------------------------------------ */

enum {
    CAT_EXACT,
    CAT_PADDED,
    CAT_ODD_5X7,
    CAT_ODD_13X31,
    CAT_POW2_64,
    CAT_POW2_128,
    CAT_POW2_256,
    CAT_SQUARE4K,
    CAT_SQUARE4K_T, /* the transposed 4 KB shape (f16 64x32) */
    CAT__COUNT,
};

static const char *const cat_names[CAT__COUNT] = {
    "exact", "padded", "5x7", "13x31", "pow2-64", "pow2-128", "pow2-256", "4k", "4k-t",
};

static const unsigned tile_counts[] = { 1, 2, 3, 8 };

typedef struct SweepStats {
    unsigned cases, kernel_runs, infeasible, fixed_hits;
    unsigned infeasible_by_cat[CAT__COUNT];
} SweepStats;

/* The 4 KB effective shapes the fixed kernels cover, per element size. */
static bool square_target(unsigned esize, bool transposed, uint32_t *er, uint32_t *ec)
{
    switch (esize) {
    case 1:
        *er = 64;
        *ec = 64;
        return !transposed;
    case 2:
        *er = transposed ? 64 : 32;
        *ec = transposed ? 32 : 64;
        return true;
    case 4:
        *er = 32;
        *ec = 32;
        return !transposed;
    default:
        return false;
    }
}

/* The window of a category inside a merged rows x cols matrix; false if
 * it does not fit. */
static bool cat_window(unsigned cat, bool dn, uint32_t rows, uint32_t cols, uint32_t *vr,
                       uint32_t *vc)
{
    uint32_t x;

    switch (cat) {
    case CAT_EXACT:
    case CAT_SQUARE4K:
    case CAT_SQUARE4K_T:
        *vr = rows;
        *vc = cols;
        return true;
    case CAT_PADDED:
        *vr = rows > 1 ? rows - 1 - rows / 5 : 1;
        *vc = cols > 1 ? cols - 1 - cols / 7 : 1;
        return *vr >= 1 && *vc >= 1 && (*vr < rows || *vc < cols);
    case CAT_ODD_5X7:
        *vr = 5;
        *vc = 7;
        break;
    case CAT_ODD_13X31:
        *vr = 13;
        *vc = 31;
        break;
    default:
        x = cat == CAT_POW2_64 ? 64 : cat == CAT_POW2_128 ? 128 : 256;
        /* the GM inner count is the power of two */
        *vr = dn ? x : rows;
        *vc = dn ? cols : x;
        break;
    }
    return *vr <= rows && *vc <= cols;
}

typedef struct SweepCase {
    unsigned op, dtype, layout, n, cat, pad;
    bool datr;          /* header style: B.DATR (else B.ARG) */
    unsigned stride_kind;
    TmaDesc desc;
    TmaPlan plan;       /* reference plan */
} SweepCase;

static void build_desc(SweepCase *c, uint64_t lb0, uint64_t lb1, uint64_t col, unsigned size_code)
{
    TmaDesc *d = &c->desc;
    TmaIot iot;

    tma_desc_init(d, c->op, c->dtype);
    if (c->datr) {
        tma_desc_set_datr(d, tma_datr_code(c->op, (TmaLayout)c->layout), c->pad);
    } else {
        static const unsigned barg[TMA_LAYOUT__COUNT] = { 0, 1, 3, 9, 8 };
        tma_desc_set_barg(d, barg[c->layout]);
    }
    tma_desc_set_dim(d, 0, 0, lb0);
    tma_desc_set_dim(d, 1, 0, lb1);
    tma_desc_set_dim(d, 2, 0, col);
    for (unsigned k = 0; k < (c->op == TMA_OP_TSTORE ? c->n : 1); k += 2) {
        memset(&iot, 0, sizeof(iot));
        iot.dst = LINX_HAND_T;
        iot.size = (uint8_t)size_code;
        if (c->op == TMA_OP_TSTORE) {
            iot.src[0] = (uint8_t)k;
            iot.src[1] = (uint8_t)(k + 1);
            iot.src_absent[1] = k + 1 >= c->n;
        } else {
            iot.src_absent[0] = iot.src_absent[1] = true;
        }
        iot.last = k + 2 >= c->n;
        tma_desc_add_iot(d, &iot);
    }
    if (c->stride_kind == 0) {
        tma_desc_add_ior(d, REG_BASE, 0, 0);
    } else if (c->datr) {
        tma_desc_add_ior(d, REG_BASE, REG_STRIDE, 0);
    } else {
        tma_desc_add_ior(d, REG_STRIDE, REG_BASE, 0);
    }
}

/* Find a legal geometry for @c; false when none exists. */
static bool find_geometry(SweepCase *c)
{
    const LinxDTypeInfo *dt = linx_dtype_info(c->dtype);
    unsigned esize = dt->size;
    bool dn = c->layout == TMA_LAYOUT_DN_NZ || c->layout == TMA_LAYOUT_DN_ZN;
    unsigned n = c->op == TMA_OP_TSTORE ? c->n : 1;
    TmaOptions ref = { .reference = true };
    bool square = c->cat == CAT_SQUARE4K || c->cat == CAT_SQUARE4K_T;
    uint32_t er = 0, ec = 0;

    if (square && (n != 1 || !square_target(esize, c->cat == CAT_SQUARE4K_T, &er, &ec))) {
        return false;
    }
    for (unsigned size_code = 8; size_code >= 5; size_code--) {
        uint32_t bytes = 1u << (size_code + 4), max_sc = bytes / esize;
        uint32_t start = (uint32_t)(rng() % max_sc);

        if (square && bytes != LINX_TILE_MAX_BYTES) {
            continue;
        }
        for (uint32_t i = 0; i < max_sc; i++) {
            uint32_t sc = 1 + (start + i) % max_sc; /* sub-tile columns */
            uint32_t col = dn ? sc : sc * n;
            uint32_t rows = (uint32_t)((uint64_t)n * bytes / ((uint64_t)col * esize));
            uint32_t vr, vc;

            if (rows == 0) {
                continue;
            }
            if (square && (dn ? (rows != ec || col != er) : (rows != er || col != ec))) {
                continue;
            }
            if (!cat_window(c->cat, dn, rows, col, &vr, &vc)) {
                continue;
            }
            build_desc(c, dn ? vr : vc, dn ? vc : vr, col, size_code);
            tma_plan(&c->desc, &ref, &c->plan);
            if (c->plan.fault.rule == TMA_OK) {
                assert_true(c->plan.shape_const);
                assert_int_equal(c->plan.shape.valid_rows, vr);
                assert_int_equal(c->plan.shape.valid_cols, vc);
                return true;
            }
        }
    }
    return false;
}

typedef struct Buffers {
    uint8_t *gm0, *gm_ref, *gm_k;
    size_t gm_size, gm_off;
    uint8_t *tiles0, *tiles_ref, *tiles_k; /* n x TILE_BUF */
} Buffers;

static void run_kernel(TmaKernelFn fn, const SweepCase *c, uint8_t *gm, uint8_t *tiles,
                       size_t stride)
{
    TmaXfer x;

    tma_xfer_init(&x, &c->plan, &c->plan.shape);
    x.gm = gm;
    x.stride = stride;
    x.ntiles = c->op == TMA_OP_TSTORE ? c->n : 1;
    for (unsigned k = 0; k < x.ntiles; k++) {
        x.tile[k] = tiles + k * TILE_BUF + GUARD;
    }
    fn(&x);
}

/* Bytes of the GM buffer that belong to the window. */
static bool in_window(const SweepCase *c, size_t off, size_t base, size_t stride)
{
    const TmaShape *s = &c->plan.shape;
    size_t row_bytes = (size_t)s->gm_inner * c->plan.esize;

    if (off < base) {
        return false;
    }
    off -= base;
    return off / stride < s->gm_outer && off % stride < row_bytes;
}

static void run_case(SweepCase *c, SweepStats *st)
{
    const TmaShape *s = &c->plan.shape;
    unsigned esize = c->plan.esize, n = c->op == TMA_OP_TSTORE ? c->n : 1;
    size_t dense = (size_t)s->gm_inner * esize;
    size_t stride = c->stride_kind == 0 ? dense : c->stride_kind == 1 ? dense + 3 * esize
                                                                         : dense + 7;
    size_t base = GUARD + (size_t)(rng() % 5);
    size_t gm_size = base + (s->gm_outer - 1) * stride + dense + GUARD;
    uint8_t *gm0 = malloc(gm_size), *gm_ref = malloc(gm_size), *gm_k = malloc(gm_size);
    size_t tiles_size = (size_t)n * TILE_BUF;
    uint8_t *t0 = malloc(tiles_size), *t_ref = malloc(tiles_size), *t_k = malloc(tiles_size);
    TmaOptions portable = { .portable = true }, host = { 0 };
    TmaPlan pp, ph;
    TmaKernelFn fns[3];
    const char *names[3];
    unsigned nfns = 0;
    bool store = c->op == TMA_OP_TSTORE;
    size_t used = (size_t)s->sub_rows * s->sub_cols * esize;

    assert_non_null(gm0);
    assert_non_null(t0);
    fill_random(gm0, gm_size);
    fill_random(t0, tiles_size);
    memcpy(gm_ref, gm0, gm_size);
    memcpy(t_ref, t0, tiles_size);
    run_kernel(c->plan.kernel, c, gm_ref + base, t_ref, stride);

    /* Sentinels: only the window (stores) or the used tile bytes (loads)
     * may change. */
    if (store) {
        assert_memory_equal(t_ref, t0, tiles_size);
        for (size_t i = 0; i < gm_size; i++) {
            if (!in_window(c, i, base, stride) && gm_ref[i] != gm0[i]) {
                fail_msg("GM byte %zu outside the window written", i);
            }
        }
    } else {
        assert_memory_equal(gm_ref, gm0, gm_size);
        assert_memory_equal(t_ref, t0, GUARD);
        assert_memory_equal(t_ref + GUARD + used, t0 + GUARD + used, TILE_BUF - GUARD - used);
    }

    tma_plan(&c->desc, &portable, &pp);
    tma_plan(&c->desc, &host, &ph);
    assert_int_equal(pp.fault.rule, TMA_OK);
    assert_int_equal(ph.fault.rule, TMA_OK);
    fns[nfns] = pp.kernel;
    names[nfns++] = pp.kernel_name;
    fns[nfns] = ph.kernel;
    names[nfns++] = ph.kernel_name;
    if (tma_host_has_avx2()) {
        const TmaAvx2Table *t = tma_avx2_table();
        unsigned lay = c->plan.tile_layout;

        if (c->plan.gm_dn) {
            lay = lay == LINX_TL_NZ ? LINX_TL_ZN : LINX_TL_NZ;
        }
        lay = lay == LINX_TL_NZ ? 1 : lay == LINX_TL_ZN ? 2 : 0;
        fns[nfns] = t->generic[store ? TMA_OP_TSTORE : TMA_OP_TLOAD][lay];
        names[nfns++] = t->generic_name[store ? TMA_OP_TSTORE : TMA_OP_TLOAD][lay];
        if (strncmp(ph.kernel_name, "fx_", 3) == 0) {
            st->fixed_hits++;
        }
        if (c->cat == CAT_SQUARE4K || c->cat == CAT_SQUARE4K_T) {
            assert_true(strncmp(ph.kernel_name, "fx_", 3) == 0);
        }
    }
    for (unsigned v = 0; v < nfns; v++) {
        memcpy(gm_k, gm0, gm_size);
        memcpy(t_k, t0, tiles_size);
        run_kernel(fns[v], c, gm_k + base, t_k, stride);
        if (memcmp(gm_k, gm_ref, gm_size) != 0 || memcmp(t_k, t_ref, tiles_size) != 0) {
            fail_msg("%s differs from the reference: %s %s %s n=%u %s pad=%u stride=%u "
                     "(window %ux%u, tile %ux%u)",
                     names[v], store ? "TSTORE" : "TLOAD", linx_dtype_name(c->dtype),
                     tma_layout_name(c->op, (TmaLayout)c->layout), c->n, cat_names[c->cat],
                     c->pad, c->stride_kind, s->valid_rows, s->valid_cols, s->sub_rows,
                     s->sub_cols);
        }
        st->kernel_runs++;
    }
    st->cases++;
    free(gm0);
    free(gm_ref);
    free(gm_k);
    free(t0);
    free(t_ref);
    free(t_k);
}

static void test_sweep(void **state)
{
    SweepStats st = { 0 };
    unsigned idx = 0;

    (void)state;
    for (unsigned di = 0; di < N_DTYPES; di++) {
        for (unsigned lay = 0; lay < TMA_LAYOUT__COUNT; lay++) {
            for (unsigned cat = 0; cat < CAT__COUNT; cat++) {
                /* TSTORE with 1, 2, 3, 8 sources */
                for (unsigned ni = 0; ni < 4; ni++) {
                    SweepCase c = { .op = TMA_OP_TSTORE, .dtype = all_dtypes[di],
                                    .layout = lay, .n = tile_counts[ni], .cat = cat,
                                    .datr = idx % 2 == 0, .stride_kind = idx % 3 };
                    idx++;
                    if (!find_geometry(&c)) {
                        st.infeasible++;
                        st.infeasible_by_cat[cat]++;
                        continue;
                    }
                    run_case(&c, &st);
                }
                /* TLOAD with each pad policy (B.ARG headers only know Null) */
                for (unsigned pad = 0; pad < 4; pad++) {
                    SweepCase c = { .op = TMA_OP_TLOAD, .dtype = all_dtypes[di], .layout = lay,
                                    .n = 1, .cat = cat, .pad = pad,
                                    .datr = pad != 0 || idx % 2 == 0, .stride_kind = idx % 3 };
                    idx++;
                    if (!find_geometry(&c)) {
                        st.infeasible++;
                        st.infeasible_by_cat[cat]++;
                        continue;
                    }
                    assert_int_equal(c.plan.pad, pad);
                    run_case(&c, &st);
                }
            }
        }
    }
    printf("sweep: %u cases, %u kernel runs compared, %u combinations without a legal "
           "geometry, %u fixed-shape kernels\n",
           st.cases, st.kernel_runs, st.infeasible, st.fixed_hits);
    for (unsigned cat = 0; cat < CAT__COUNT; cat++) {
        printf("  %-8s: %u combinations without a legal geometry\n", cat_names[cat],
               st.infeasible_by_cat[cat]);
    }
    /* Every non-square category is feasible for most combinations. */
    assert_true(st.cases > 2000);
    if (tma_host_has_avx2()) {
        assert_true(st.fixed_hits > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_matches_images),
        cmocka_unit_test(test_ref_merge_nd),
        cmocka_unit_test(test_ref_merge_dn),
        cmocka_unit_test(test_sweep),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
