/*
 * AVX2 TMA kernels (x86-64 hosts; chosen at plan time when CPUID reports
 * AVX2, never otherwise).  The bodies live in tma-avx2-inline.h; same
 * effective-orientation scheme as the portable kernels (tma-kernels.c):
 *   ND  rows copied with 32-byte vector moves (overlapping tail), one
 *       copy for dense windows;
 *   NZ  32-byte runs in GM-row order, so consecutive stores fill the same
 *       GM cache line (shared/docs/tile-limit.md 2.1: two 32 B stores to
 *       one line combine);
 *   ZN  c0 x c0 element blocks transposed in registers: 8x8 dwords (4 B),
 *       16x16 words (2 B: in-lane 8x8 transposes of 8-row halves, then
 *       128-bit lane merges), 32x32 bytes (in-lane 16x16 over 16-row
 *       halves, then lane merges), 4x4 qwords (8 B).  A block transpose is
 *       its own inverse, so TSTORE and TLOAD share it with the source and
 *       destination swapped.
 * Fixed-shape kernels are the same bodies with the 4 KB shapes as
 * constants (the compiler unrolls them); tma_kernel_select() picks them
 * when a plan's whole shape is constant and the window is the full tile.
 */
#include <string.h>

#include "hw/linx/tma-kernels.h"

#if defined(__x86_64__)
#define TMA_BUILD_AVX2 1
#include "hw/linx/tma-avx2-inline.h"
#endif

#ifdef TMA_BUILD_AVX2

#define AVX2 __attribute__((target("avx2")))

bool tma_host_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* ------------------------------------------------------------------ */
/* Generic (run-time shape) kernels                                    */
/* ------------------------------------------------------------------ */

static AVX2 void s_nd_store(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                            uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tr;
    nd_sub(gm, stride, tile, tc, vr, vc, esize, true);
}

static AVX2 void s_nd_load(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                           uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tr;
    nd_sub(gm, stride, tile, tc, vr, vc, esize, false);
}

static AVX2 void s_nz_store(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                            uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tc;
    nz_sub(gm, stride, tile, tr, vr, vc, esize, true);
}

static AVX2 void s_nz_load(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                           uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tc;
    nz_sub(gm, stride, tile, tr, vr, vc, esize, false);
}

static AVX2 void s_zn_store(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                            uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tr;
    switch (esize) {
    case 1:
        zn_sub(gm, stride, tile, tc, vr, vc, 1, true);
        break;
    case 2:
        zn_sub(gm, stride, tile, tc, vr, vc, 2, true);
        break;
    case 4:
        zn_sub(gm, stride, tile, tc, vr, vc, 4, true);
        break;
    default:
        zn_sub(gm, stride, tile, tc, vr, vc, 8, true);
        break;
    }
}

static AVX2 void s_zn_load(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                           uint32_t vr, uint32_t vc, unsigned esize)
{
    (void)tr;
    switch (esize) {
    case 1:
        zn_sub(gm, stride, tile, tc, vr, vc, 1, false);
        break;
    case 2:
        zn_sub(gm, stride, tile, tc, vr, vc, 2, false);
        break;
    case 4:
        zn_sub(gm, stride, tile, tc, vr, vc, 4, false);
        break;
    default:
        zn_sub(gm, stride, tile, tc, vr, vc, 8, false);
        break;
    }
}

static void k_store(const TmaXfer *x, TmaSubFn sub)
{
    TmaEff e;

    tma_eff_from_xfer(x, &e);
    if (e.ntiles == 1) {
        sub(e.gm, e.stride, e.tile[0], e.tr, e.tc, e.vr, e.vc, e.esize);
    } else {
        tma_eff_for_each_tile(&e, sub);
    }
}

static void k_load(const TmaXfer *x, TmaSubFn sub)
{
    TmaEff e;

    tma_pad_fill(x);
    tma_eff_from_xfer(x, &e);
    sub(e.gm, e.stride, e.tile[0], e.tr, e.tc, e.vr, e.vc, e.esize);
}

static void k_nd_store(const TmaXfer *x)
{
    k_store(x, s_nd_store);
}

static void k_nz_store(const TmaXfer *x)
{
    k_store(x, s_nz_store);
}

static void k_zn_store(const TmaXfer *x)
{
    k_store(x, s_zn_store);
}

static void k_nd_load(const TmaXfer *x)
{
    k_load(x, s_nd_load);
}

static void k_nz_load(const TmaXfer *x)
{
    k_load(x, s_nz_load);
}

static void k_zn_load(const TmaXfer *x)
{
    k_load(x, s_zn_load);
}

static const TmaAvx2Table avx2_table = {
    .generic = {
        [TMA_OP_TLOAD] = { k_nd_load, k_nz_load, k_zn_load },
        [TMA_OP_TSTORE] = { k_nd_store, k_nz_store, k_zn_store },
    },
    .generic_name = {
        [TMA_OP_TLOAD] = { "avx2-nd-load", "avx2-nz-load", "avx2-zn-load" },
        [TMA_OP_TSTORE] = { "avx2-nd-store", "avx2-nz-store", "avx2-zn-store" },
    },
};

const TmaAvx2Table *tma_avx2_table(void)
{
    return &avx2_table;
}

/* ------------------------------------------------------------------ */
/* Fixed-shape kernels: exact single-tile 4 KB windows                 */
/* (effective rows x cols and element size are constants)              */
/* ------------------------------------------------------------------ */

static AVX2 void fx_nd_st_e4_32x32(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, true);
}

static AVX2 void fx_nd_ld_e4_32x32(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, false);
}

static AVX2 void fx_nz_st_e4_32x32(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, true);
}

static AVX2 void fx_nz_ld_e4_32x32(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, false);
}

static AVX2 void fx_zn_st_e4_32x32(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, true);
}

static AVX2 void fx_zn_ld_e4_32x32(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 32, 32, 32, 4, false);
}

static AVX2 void fx_nd_st_e2_32x64(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 64, 32, 64, 2, true);
}

static AVX2 void fx_nd_ld_e2_32x64(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 64, 32, 64, 2, false);
}

static AVX2 void fx_nz_st_e2_32x64(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 32, 32, 64, 2, true);
}

static AVX2 void fx_nz_ld_e2_32x64(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 32, 32, 64, 2, false);
}

static AVX2 void fx_zn_st_e2_32x64(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 64, 32, 64, 2, true);
}

static AVX2 void fx_zn_ld_e2_32x64(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 64, 32, 64, 2, false);
}

static AVX2 void fx_nd_st_e2_64x32(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 32, 64, 32, 2, true);
}

static AVX2 void fx_nd_ld_e2_64x32(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 32, 64, 32, 2, false);
}

static AVX2 void fx_nz_st_e2_64x32(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 64, 64, 32, 2, true);
}

static AVX2 void fx_nz_ld_e2_64x32(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 64, 64, 32, 2, false);
}

static AVX2 void fx_zn_st_e2_64x32(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 32, 64, 32, 2, true);
}

static AVX2 void fx_zn_ld_e2_64x32(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 32, 64, 32, 2, false);
}

static AVX2 void fx_nd_st_e1_64x64(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, true);
}

static AVX2 void fx_nd_ld_e1_64x64(const TmaXfer *x)
{
    nd_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, false);
}

static AVX2 void fx_nz_st_e1_64x64(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, true);
}

static AVX2 void fx_nz_ld_e1_64x64(const TmaXfer *x)
{
    nz_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, false);
}

static AVX2 void fx_zn_st_e1_64x64(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, true);
}

static AVX2 void fx_zn_ld_e1_64x64(const TmaXfer *x)
{
    zn_sub(x->gm, x->stride, x->tile[0], 64, 64, 64, 1, false);
}

#define FIXED(op, lay, es, r, c, fn) \
    { op, lay, es, r, c, fn, #fn }

static const TmaFixedKernel fixed_kernels[] = {
    FIXED(TMA_OP_TSTORE, LINX_TL_ND, 4, 32, 32, fx_nd_st_e4_32x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_ND, 4, 32, 32, fx_nd_ld_e4_32x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_NZ, 4, 32, 32, fx_nz_st_e4_32x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_NZ, 4, 32, 32, fx_nz_ld_e4_32x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_ZN, 4, 32, 32, fx_zn_st_e4_32x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_ZN, 4, 32, 32, fx_zn_ld_e4_32x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_ND, 2, 32, 64, fx_nd_st_e2_32x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_ND, 2, 32, 64, fx_nd_ld_e2_32x64),
    FIXED(TMA_OP_TSTORE, LINX_TL_NZ, 2, 32, 64, fx_nz_st_e2_32x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_NZ, 2, 32, 64, fx_nz_ld_e2_32x64),
    FIXED(TMA_OP_TSTORE, LINX_TL_ZN, 2, 32, 64, fx_zn_st_e2_32x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_ZN, 2, 32, 64, fx_zn_ld_e2_32x64),
    FIXED(TMA_OP_TSTORE, LINX_TL_ND, 2, 64, 32, fx_nd_st_e2_64x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_ND, 2, 64, 32, fx_nd_ld_e2_64x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_NZ, 2, 64, 32, fx_nz_st_e2_64x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_NZ, 2, 64, 32, fx_nz_ld_e2_64x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_ZN, 2, 64, 32, fx_zn_st_e2_64x32),
    FIXED(TMA_OP_TLOAD, LINX_TL_ZN, 2, 64, 32, fx_zn_ld_e2_64x32),
    FIXED(TMA_OP_TSTORE, LINX_TL_ND, 1, 64, 64, fx_nd_st_e1_64x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_ND, 1, 64, 64, fx_nd_ld_e1_64x64),
    FIXED(TMA_OP_TSTORE, LINX_TL_NZ, 1, 64, 64, fx_nz_st_e1_64x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_NZ, 1, 64, 64, fx_nz_ld_e1_64x64),
    FIXED(TMA_OP_TSTORE, LINX_TL_ZN, 1, 64, 64, fx_zn_st_e1_64x64),
    FIXED(TMA_OP_TLOAD, LINX_TL_ZN, 1, 64, 64, fx_zn_ld_e1_64x64),
};

const TmaFixedKernel *tma_avx2_fixed_kernels(unsigned *count)
{
    *count = sizeof(fixed_kernels) / sizeof(fixed_kernels[0]);
    return fixed_kernels;
}

#else /* !TMA_BUILD_AVX2 */

bool tma_host_has_avx2(void)
{
    return false;
}

const TmaAvx2Table *tma_avx2_table(void)
{
    return NULL;
}

const TmaFixedKernel *tma_avx2_fixed_kernels(unsigned *count)
{
    *count = 0;
    return NULL;
}

#endif /* TMA_BUILD_AVX2 */
