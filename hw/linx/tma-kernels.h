/*
 * TMA host kernels (internal to hw/linx/tma-*.c and the tile tests).
 *
 * A kernel moves one resolved transfer between host memory holding the
 * GM window and host memory holding the tile(s); it never sees guest
 * addresses (tma-exec.c validates the footprint with guest_mem_window()
 * and hands the kernel a host pointer, or a bounce buffer).  Kernels do
 * no checking: the plan and tma_exec() guarantee the shape is legal.
 *
 * Two families:
 *   - the reference kernels (tma-ref.c): one element at a time, written
 *     directly from the seed/v0.4 formulas in the architectural
 *     orientation.  They are the oracle and the LINX_TMA_REFERENCE path;
 *   - the specialised kernels (tma-kernels.c, tma-kernels-avx2.c): a DN
 *     transfer is the transposed ND transfer (an NZ tile of R x C is a ZN
 *     tile of C x R, an ND tile a DN one), so they only handle ND GM with
 *     ND, NZ or ZN tiles; NORM and NZ move contiguous byte runs, ZN
 *     transposes c0 x c0 element blocks.  AVX2 versions are picked when the
 *     host has AVX2 (checked at plan time), and fixed-shape versions when
 *     the whole shape is constant.
 */
#ifndef LINX_HW_TMA_KERNELS_H
#define LINX_HW_TMA_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hw/linx/atomic-add.h"
#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma.h"

/* Bytes in one 512 B fractal row/column block. */
#define TMA_BLOCK_BYTES 32u
#define TMA_FRACTAL_ROWS 16u

typedef struct TmaXfer {
    uint8_t *gm;          /* host address of GM element (0, 0) */
    size_t stride;        /* bytes between GM rows (ND) or columns (DN) */
    uint8_t *tile[TMA_MAX_SRC_TILES]; /* sub-tiles in operand order */
    uint32_t ntiles;
    uint32_t valid_rows;  /* window of the merged matrix */
    uint32_t valid_cols;
    uint32_t rows, cols;  /* one sub-tile's logical matrix */
    uint8_t esize;        /* 1, 2, 4 or 8 */
    uint8_t tile_layout;  /* LINX_TL_ND, LINX_TL_NZ or LINX_TL_ZN */
    uint8_t gm_dn;        /* GM column-major; sub-tiles merge along rows */
    uint8_t pad;          /* TmaPad (loads) */
    bool atomic;          /* TSTORE AtomicAdd (GM += tile) ... */
    uint8_t atomic_dtype; /* ... of this element type */
    uint64_t pad_pattern; /* pad element bits (loads) */
} TmaXfer;

/* Fill the shape part of @x from a plan and a resolved shape (gm, stride,
 * ntiles and tile[0..ntiles) are left to the caller).  Field by field, no
 * memset: this runs once per TMA block and "rep stos" start-up costs more
 * than the rest of the dispatch. */
static inline void tma_xfer_init(TmaXfer *x, const TmaPlan *p, const TmaShape *s)
{
    x->gm = NULL;
    x->stride = 0;
    x->ntiles = 0;
    x->valid_rows = s->valid_rows;
    x->valid_cols = s->valid_cols;
    x->rows = s->sub_rows;
    x->cols = s->sub_cols;
    x->esize = p->esize;
    x->tile_layout = p->tile_layout;
    x->gm_dn = p->gm_dn;
    x->pad = p->pad;
    x->atomic = p->atomic;
    x->atomic_dtype = p->dtype;
    x->pad_pattern = p->pad_pattern;
}

/* Reference kernels. */
void tma_ref_tstore(const TmaXfer *x);
void tma_ref_tload(const TmaXfer *x);

/* Fill the logical matrix of a freshly loaded tile with the pad element
 * (a no-op for TMA_PAD_NULL or when the window covers the matrix). */
void tma_pad_fill(const TmaXfer *x);

/* What kernel selection looks at. */
typedef struct TmaKernelKey {
    uint8_t op;          /* TMA_OP_TLOAD or TMA_OP_TSTORE */
    uint8_t esize;
    uint8_t tile_layout; /* architectural TR layout */
    uint8_t gm_dn;
    bool shape_const;    /* @shape is known */
    TmaShape shape;
    uint32_t ntiles;
    bool atomic;         /* TSTORE AtomicAdd of @dtype */
    uint8_t dtype;
} TmaKernelKey;

typedef struct TmaKernelChoice {
    TmaKernelFn fn;
    const char *name;
} TmaKernelChoice;

TmaKernelChoice tma_kernel_select(const TmaKernelKey *k, const TmaOptions *opts);

/* The effective (ND GM) view the specialised kernels work in. */
typedef struct TmaEff {
    uint8_t *gm;
    size_t stride;
    uint8_t *const *tile;
    uint32_t ntiles;
    uint32_t vr, vc;    /* window */
    uint32_t tr, tc;    /* one sub-tile */
    uint8_t layout;     /* LINX_TL_ND, LINX_TL_NZ or LINX_TL_ZN */
    uint8_t esize;
} TmaEff;

static inline void tma_eff_from_xfer(const TmaXfer *x, TmaEff *e)
{
    e->gm = x->gm;
    e->stride = x->stride;
    e->tile = x->tile;
    e->ntiles = x->ntiles;
    e->esize = x->esize;
    if (!x->gm_dn) {
        e->vr = x->valid_rows;
        e->vc = x->valid_cols;
        e->tr = x->rows;
        e->tc = x->cols;
        e->layout = x->tile_layout;
    } else {
        e->vr = x->valid_cols;
        e->vc = x->valid_rows;
        e->tr = x->cols;
        e->tc = x->rows;
        e->layout = x->tile_layout == LINX_TL_NZ ? LINX_TL_ZN : LINX_TL_NZ;
    }
}

/* Per-sub-tile bodies shared by the portable and AVX2 kernels:
 * move the window (vr x vc elements) of one sub-tile of tr x tc. */
typedef void (*TmaSubFn)(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                         uint32_t vr, uint32_t vc, unsigned esize);

/* Run @sub over the sub-tiles of @e (merge along effective columns). */
static inline void tma_eff_for_each_tile(const TmaEff *e, TmaSubFn sub)
{
    for (uint32_t t = 0; t < e->ntiles; t++) {
        uint32_t c0 = t * e->tc;
        uint32_t vc;

        if (c0 >= e->vc) {
            break;
        }
        vc = e->vc - c0 < e->tc ? e->vc - c0 : e->tc;
        sub(e->gm + (size_t)c0 * e->esize, e->stride, e->tile[t], e->tr, e->tc, e->vr, vc,
            e->esize);
    }
}

/* Scalar edge helper: move elements (r, c) for r in [r0, r1), c in [c0, c1)
 * of one ZN sub-tile (used for partial fractal blocks). */
void tma_zn_edge(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tc, uint32_t r0, uint32_t r1,
                 uint32_t c0, uint32_t c1, unsigned esize, bool store);

/* AtomicAdd TSTORE (tma-atomic.c): its specialised kernel per type
 * (atomic-add.h: the types and one element's add). */
TmaKernelChoice tma_atomic_kernel(unsigned dtype);

/* Portable specialised sub-tile kernels (tma-kernels.c). */
void tma_nd_store_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                      uint32_t vr, uint32_t vc, unsigned esize);
void tma_nd_load_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t tc,
                     uint32_t vr, uint32_t vc, unsigned esize);

/* AVX2 kernels (tma-kernels-avx2.c); NULL entries when not built. */
typedef struct TmaAvx2Table {
    TmaKernelFn generic[2][3];   /* [op][ND, NZ, ZN] */
    const char *generic_name[2][3];
} TmaAvx2Table;

/* Fixed-shape kernels for exact single-tile 4 KB windows (tma-kernels-avx2.c). */
typedef struct TmaFixedKernel {
    uint8_t op, layout, esize; /* effective layout */
    uint16_t rows, cols;       /* effective tile shape == window */
    TmaKernelFn fn;
    const char *name;
} TmaFixedKernel;

bool tma_host_has_avx2(void);
const TmaAvx2Table *tma_avx2_table(void);
const TmaFixedKernel *tma_avx2_fixed_kernels(unsigned *count);

#endif /* LINX_HW_TMA_KERNELS_H */
