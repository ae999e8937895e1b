/*
 * Reference TLOAD/TSTORE kernels: one element at a time, in the
 * architectural orientation, written directly from the formulas of
 * seed 000 and shared/docs/tile-semantics.md 2.1/2.3/2.4.  They are the
 * oracle the specialised kernels are tested against, and the path
 * selected by TmaOptions.reference (LINX_TMA_REFERENCE=1).
 *
 * Tile element offsets (esize E, fractal 512 B, c0 = 32 / E):
 *   ND  r * Cols + c
 *   DN  c * Rows + r
 *   NZ  (c / c0) * Rows * c0 + r * c0 + c % c0      (16 x c0 fractals)
 *   ZN  (r / r0) * Cols * r0 + c * r0 + r % r0      (r0 = c0; r0 x 16 fractals)
 * GM element (i, j): ND base + i * stride + j * E, DN base + j * stride + i * E.
 * Multi-input stores: sub-tile t holds merged columns [t*Cols, (t+1)*Cols)
 * for ND GM, merged rows [t*Rows, (t+1)*Rows) for DN GM.
 */
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"

static size_t ref_tile_offset(unsigned layout, uint32_t r, uint32_t c, uint32_t rows,
                              uint32_t cols, unsigned esize)
{
    size_t c0 = TMA_BLOCK_BYTES / esize;

    switch (layout) {
    case LINX_TL_NZ:
        return (c / c0) * rows * c0 + r * c0 + c % c0;
    case LINX_TL_ZN:
        return (r / c0) * cols * c0 + (size_t)c * c0 + r % c0;
    case LINX_TL_DN:
        return (size_t)c * rows + r;
    default:
        return (size_t)r * cols + c;
    }
}

static uint8_t *ref_gm_elem(const TmaXfer *x, uint32_t i, uint32_t j)
{
    if (x->gm_dn) {
        return x->gm + (size_t)j * x->stride + (size_t)i * x->esize;
    }
    return x->gm + (size_t)i * x->stride + (size_t)j * x->esize;
}

void tma_ref_tstore(const TmaXfer *x)
{
    for (uint32_t i = 0; i < x->valid_rows; i++) {
        for (uint32_t j = 0; j < x->valid_cols; j++) {
            uint32_t t, r = i, c = j;
            size_t off;

            if (x->gm_dn) {
                t = i / x->rows;
                r = i % x->rows;
            } else {
                t = j / x->cols;
                c = j % x->cols;
            }
            off = ref_tile_offset(x->tile_layout, r, c, x->rows, x->cols, x->esize);
            if (x->atomic) {
                tma_atomic_add_elem(ref_gm_elem(x, i, j), x->tile[t] + off * x->esize,
                                    x->atomic_dtype);
            } else {
                memcpy(ref_gm_elem(x, i, j), x->tile[t] + off * x->esize, x->esize);
            }
        }
    }
}

void tma_ref_tload(const TmaXfer *x)
{
    uint8_t pad[8];

    memcpy(pad, &x->pad_pattern, sizeof(pad)); /* little-endian host */
    for (uint32_t r = 0; r < x->rows; r++) {
        for (uint32_t c = 0; c < x->cols; c++) {
            size_t off = ref_tile_offset(x->tile_layout, r, c, x->rows, x->cols, x->esize);
            uint8_t *dst = x->tile[0] + off * x->esize;

            if (r < x->valid_rows && c < x->valid_cols) {
                memcpy(dst, ref_gm_elem(x, r, c), x->esize);
            } else if (x->pad != TMA_PAD_NULL) {
                memcpy(dst, pad, x->esize);
            }
        }
    }
}

void tma_pad_fill(const TmaXfer *x)
{
    size_t n = (size_t)x->rows * x->cols;
    uint8_t *p = x->tile[0];

    if (x->pad == TMA_PAD_NULL || (x->valid_rows == x->rows && x->valid_cols == x->cols)) {
        return;
    }
    if (x->pad_pattern == 0) {
        memset(p, 0, n * x->esize);
        return;
    }
    switch (x->esize) {
    case 1:
        memset(p, (int)(x->pad_pattern & 0xff), n);
        break;
    case 2: {
        uint16_t v = (uint16_t)x->pad_pattern;
        for (size_t i = 0; i < n; i++) {
            memcpy(p + 2 * i, &v, 2);
        }
        break;
    }
    case 4: {
        uint32_t v = (uint32_t)x->pad_pattern;
        for (size_t i = 0; i < n; i++) {
            memcpy(p + 4 * i, &v, 4);
        }
        break;
    }
    default:
        for (size_t i = 0; i < n; i++) {
            memcpy(p + 8 * i, &x->pad_pattern, 8);
        }
        break;
    }
}
