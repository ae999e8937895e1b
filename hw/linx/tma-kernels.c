/*
 * Specialised TMA kernels, portable C, and kernel selection.
 *
 * All kernels work in the effective orientation (tma-kernels.h): GM is
 * row-major, the tile layout is ND, NZ or ZN.  In bytes:
 *   ND  row r of the window is one run of vc * E bytes: one memcpy per
 *       row, or a single memcpy when GM and tile rows are both dense;
 *   NZ  row r, column block b (32 B = c0 elements) is the 32-byte run at
 *       tile + b * tr * 32 + r * 32: copies of 32-byte runs, GM-row order
 *       (consecutive stores hit the same GM line);
 *   ZN  a c0 x c0 element block is c0 consecutive 32-byte runs, one per
 *       column: transposed into c0 GM row pieces of 32 bytes.
 * Partial column blocks copy the remaining bytes; partial ZN blocks go
 * element by element (tma_zn_edge).
 */
#include <string.h>

#include "hw/linx/tma-kernels.h"

/* ------------------------------------------------------------------ */
/* ND                                                                  */
/* ------------------------------------------------------------------ */

void tma_nd_store_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                      uint32_t vr, uint32_t vc, unsigned esize)
{
    size_t row_bytes = (size_t)vc * esize;
    size_t tile_row = (size_t)tc * esize;

    (void)tr;
    if (row_bytes == tile_row && stride == tile_row) {
        memcpy(gm, tile, row_bytes * vr);
        return;
    }
    for (uint32_t r = 0; r < vr; r++) {
        memcpy(gm + r * stride, tile + r * tile_row, row_bytes);
    }
}

void tma_nd_load_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                     uint32_t vr, uint32_t vc, unsigned esize)
{
    size_t row_bytes = (size_t)vc * esize;
    size_t tile_row = (size_t)tc * esize;

    (void)tr;
    if (row_bytes == tile_row && stride == tile_row) {
        memcpy(tile, gm, row_bytes * vr);
        return;
    }
    for (uint32_t r = 0; r < vr; r++) {
        memcpy(tile + r * tile_row, gm + r * stride, row_bytes);
    }
}

/* ------------------------------------------------------------------ */
/* NZ                                                                  */
/* ------------------------------------------------------------------ */

static void nz_store_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                         uint32_t vr, uint32_t vc, unsigned esize)
{
    size_t row_bytes = (size_t)vc * esize;
    size_t nfull = row_bytes / TMA_BLOCK_BYTES;
    size_t tail = row_bytes % TMA_BLOCK_BYTES;
    size_t bstride = (size_t)tr * TMA_BLOCK_BYTES;

    (void)tc;
    for (uint32_t r = 0; r < vr; r++) {
        uint8_t *g = gm + r * stride;
        const uint8_t *t = tile + (size_t)r * TMA_BLOCK_BYTES;
        size_t b;

        for (b = 0; b < nfull; b++) {
            memcpy(g + b * TMA_BLOCK_BYTES, t + b * bstride, TMA_BLOCK_BYTES);
        }
        if (tail) {
            memcpy(g + b * TMA_BLOCK_BYTES, t + b * bstride, tail);
        }
    }
}

static void nz_load_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                        uint32_t vr, uint32_t vc, unsigned esize)
{
    size_t row_bytes = (size_t)vc * esize;
    size_t nfull = row_bytes / TMA_BLOCK_BYTES;
    size_t tail = row_bytes % TMA_BLOCK_BYTES;
    size_t bstride = (size_t)tr * TMA_BLOCK_BYTES;

    (void)tc;
    for (uint32_t r = 0; r < vr; r++) {
        const uint8_t *g = gm + r * stride;
        uint8_t *t = tile + (size_t)r * TMA_BLOCK_BYTES;
        size_t b;

        for (b = 0; b < nfull; b++) {
            memcpy(t + b * bstride, g + b * TMA_BLOCK_BYTES, TMA_BLOCK_BYTES);
        }
        if (tail) {
            memcpy(t + b * bstride, g + b * TMA_BLOCK_BYTES, tail);
        }
    }
}

/* ------------------------------------------------------------------ */
/* ZN                                                                  */
/* ------------------------------------------------------------------ */

void tma_zn_edge(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tc, uint32_t r0, uint32_t r1,
                 uint32_t c0, uint32_t c1, unsigned esize, bool store)
{
    size_t rb = TMA_BLOCK_BYTES / esize;

    for (uint32_t r = r0; r < r1; r++) {
        for (uint32_t c = c0; c < c1; c++) {
            size_t off = (r / rb) * tc * rb + c * rb + r % rb;
            uint8_t *g = gm + r * stride + (size_t)c * esize;
            uint8_t *t = tile + off * esize;

            if (store) {
                memcpy(g, t, esize);
            } else {
                memcpy(t, g, esize);
            }
        }
    }
}

/*
 * One full c0 x c0 block: @blk holds c0 runs of 32 bytes, run j = column j
 * of the block's c0 rows.  GM row i of the block is element i of each run.
 * Written with a constant @esize at each call site so it unrolls.
 */
static inline __attribute__((always_inline)) void
zn_block(uint8_t *g, size_t stride, uint8_t *blk, unsigned esize, bool store)
{
    unsigned n = TMA_BLOCK_BYTES / esize;

    for (unsigned i = 0; i < n; i++) {
        for (unsigned j = 0; j < n; j++) {
            uint8_t *ge = g + i * stride + j * esize;
            uint8_t *te = blk + j * TMA_BLOCK_BYTES + i * esize;

            if (store) {
                memcpy(ge, te, esize);
            } else {
                memcpy(te, ge, esize);
            }
        }
    }
}

static inline __attribute__((always_inline)) void
zn_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tc, uint32_t vr, uint32_t vc,
       unsigned esize, bool store)
{
    uint32_t n = TMA_BLOCK_BYTES / esize;
    uint32_t rfull = vr / n * n, cfull = vc / n * n;

    for (uint32_t r = 0; r < rfull; r += n) {
        uint8_t *blkrow = tile + (size_t)r * tc * esize;

        for (uint32_t c = 0; c < cfull; c += n) {
            zn_block(gm + r * stride + (size_t)c * esize, stride,
                     blkrow + (size_t)c * TMA_BLOCK_BYTES, esize, store);
        }
    }
    if (cfull < vc) {
        tma_zn_edge(gm, stride, tile, tc, 0, rfull, cfull, vc, esize, store);
    }
    if (rfull < vr) {
        tma_zn_edge(gm, stride, tile, tc, rfull, vr, 0, vc, esize, store);
    }
}

static void zn_store_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
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

static void zn_load_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
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

/* ------------------------------------------------------------------ */
/* Whole-transfer kernels                                              */
/* ------------------------------------------------------------------ */

static void run_store(const TmaXfer *x, TmaSubFn sub)
{
    TmaEff e;

    tma_eff_from_xfer(x, &e);
    tma_eff_for_each_tile(&e, sub);
}

static void run_load(const TmaXfer *x, TmaSubFn sub)
{
    TmaEff e;

    tma_pad_fill(x);
    tma_eff_from_xfer(x, &e);
    tma_eff_for_each_tile(&e, sub);
}

static void k_store_nd(const TmaXfer *x)
{
    run_store(x, tma_nd_store_sub);
}

static void k_store_nz(const TmaXfer *x)
{
    run_store(x, nz_store_sub);
}

static void k_store_zn(const TmaXfer *x)
{
    run_store(x, zn_store_sub);
}

static void k_load_nd(const TmaXfer *x)
{
    run_load(x, tma_nd_load_sub);
}

static void k_load_nz(const TmaXfer *x)
{
    run_load(x, nz_load_sub);
}

static void k_load_zn(const TmaXfer *x)
{
    run_load(x, zn_load_sub);
}

/* [op][effective layout: 0 ND, 1 NZ, 2 ZN] */
static const TmaKernelFn portable_kernels[2][3] = {
    [TMA_OP_TLOAD] = { k_load_nd, k_load_nz, k_load_zn },
    [TMA_OP_TSTORE] = { k_store_nd, k_store_nz, k_store_zn },
};

static const char *const portable_names[2][3] = {
    [TMA_OP_TLOAD] = { "portable-nd-load", "portable-nz-load", "portable-zn-load" },
    [TMA_OP_TSTORE] = { "portable-nd-store", "portable-nz-store", "portable-zn-store" },
};

static unsigned eff_layout_index(const TmaKernelKey *k)
{
    unsigned lay = k->tile_layout;

    if (k->gm_dn) {
        lay = lay == LINX_TL_NZ ? LINX_TL_ZN : LINX_TL_NZ;
    }
    return lay == LINX_TL_NZ ? 1 : lay == LINX_TL_ZN ? 2 : 0;
}

TmaKernelChoice tma_kernel_select(const TmaKernelKey *k, const TmaOptions *opts)
{
    TmaKernelChoice c;
    unsigned op = k->op == TMA_OP_TSTORE ? TMA_OP_TSTORE : TMA_OP_TLOAD;
    unsigned lay = eff_layout_index(k);

    if (opts && opts->reference) {
        c.fn = op == TMA_OP_TSTORE ? tma_ref_tstore : tma_ref_tload;
        c.name = op == TMA_OP_TSTORE ? (k->atomic ? "reference-atomic-add" : "reference-store")
                                     : "reference-load";
        return c;
    }
    if (op == TMA_OP_TSTORE && k->atomic) {
        return tma_atomic_kernel(k->dtype);
    }
    if (!(opts && opts->portable) && tma_host_has_avx2()) {
        const TmaAvx2Table *t = tma_avx2_table();

        if (k->shape_const && k->ntiles == 1 && k->shape.valid_rows == k->shape.rows &&
            k->shape.valid_cols == k->shape.cols) {
            unsigned n;
            const TmaFixedKernel *fk = tma_avx2_fixed_kernels(&n);
            uint32_t er = k->gm_dn ? k->shape.cols : k->shape.rows;
            uint32_t ec = k->gm_dn ? k->shape.rows : k->shape.cols;
            static const uint8_t lay_code[3] = { LINX_TL_ND, LINX_TL_NZ, LINX_TL_ZN };

            for (unsigned i = 0; i < n; i++) {
                if (fk[i].op == op && fk[i].layout == lay_code[lay] && fk[i].esize == k->esize &&
                    fk[i].rows == er && fk[i].cols == ec) {
                    c.fn = fk[i].fn;
                    c.name = fk[i].name;
                    return c;
                }
            }
        }
        if (t && t->generic[op][lay]) {
            c.fn = t->generic[op][lay];
            c.name = t->generic_name[op][lay];
            return c;
        }
    }
    c.fn = portable_kernels[op][lay];
    c.name = portable_names[op][lay];
    return c;
}
