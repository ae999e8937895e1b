/*
 * TSTORE with B.ATTR atomic: AtomicAdd (seed 001: "TSTORE ... 可选使用原子写入",
 * AtomicType::AtomicAdd; shared/docs/tile-semantics.md 2.2: dst = dst_old
 * + value, in the destination type).  Specialised kernels like the plain
 * store's (tma-kernels.c), in the same effective orientation and
 * traversal, with the add fused into the layout loop:
 *   ND  one run of vc elements per window row;
 *   NZ  32-byte runs (c0 elements) in GM-row order;
 *   ZN  c0 x c0 blocks, element (i, j) of a block from run j, element i.
 * Element types (seed 001 / pto-isa SetAtomicAdd: half, float, int16,
 * int32, int8, bfloat16; the plan rejects the others, rule atomic-dtype):
 *   S8, S16, S32  two's-complement sum, wrapping in the type
 *   FP32          IEEE binary32 add, round to nearest even
 *   FP16, BF16    the exact sum rounded once to nearest even (the fp32
 *                 sum of two fp16/bf16 values rounded to fp16/bf16: fp32
 *                 has more than 2p + 2 bits, so the double rounding is
 *                 innocuous)
 * Each GM element is read and written once; the window rules forbid
 * overlapping rows (store-overlap), so the order of the elements does not
 * matter.  The dtype switch sits outside the loops: each loop body is
 * compiled for one constant type.
 */
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"

/* g = g + t for one element of @dtype. */
static inline __attribute__((always_inline)) void add_elem(uint8_t *g, const uint8_t *t,
                                                           unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_S8:
        *g = (uint8_t)(*g + *t);
        break;
    case LINX_DT_S16: {
        uint16_t a, b;
        memcpy(&a, g, 2);
        memcpy(&b, t, 2);
        a = (uint16_t)(a + b);
        memcpy(g, &a, 2);
        break;
    }
    case LINX_DT_S32: {
        uint32_t a, b;
        memcpy(&a, g, 4);
        memcpy(&b, t, 4);
        a += b;
        memcpy(g, &a, 4);
        break;
    }
    case LINX_DT_FP32: {
        float a, b;
        memcpy(&a, g, 4);
        memcpy(&b, t, 4);
        a += b;
        memcpy(g, &a, 4);
        break;
    }
    case LINX_DT_FP16: {
        uint16_t a, b;
        memcpy(&a, g, 2);
        memcpy(&b, t, 2);
        a = linx_float_to_fp16(linx_fp16_to_float(a) + linx_fp16_to_float(b));
        memcpy(g, &a, 2);
        break;
    }
    default: { /* BF16 */
        uint16_t a, b;
        memcpy(&a, g, 2);
        memcpy(&b, t, 2);
        a = linx_float_to_bf16(linx_bf16_to_float(a) + linx_bf16_to_float(b));
        memcpy(g, &a, 2);
        break;
    }
    }
}

/* n contiguous elements. */
static inline __attribute__((always_inline)) void add_run(uint8_t *g, const uint8_t *t, size_t n,
                                                          unsigned dtype, unsigned esize)
{
    for (size_t i = 0; i < n; i++) {
        add_elem(g + i * esize, t + i * esize, dtype);
    }
}

static inline __attribute__((always_inline)) void
nd_sub(uint8_t *gm, size_t stride, const uint8_t *tile, uint32_t tc, uint32_t vr, uint32_t vc,
       unsigned dtype, unsigned esize)
{
    for (uint32_t r = 0; r < vr; r++) {
        add_run(gm + r * stride, tile + (size_t)r * tc * esize, vc, dtype, esize);
    }
}

static inline __attribute__((always_inline)) void
nz_sub(uint8_t *gm, size_t stride, const uint8_t *tile, uint32_t tr, uint32_t vr, uint32_t vc,
       unsigned dtype, unsigned esize)
{
    uint32_t c0 = TMA_BLOCK_BYTES / esize;
    size_t bstride = (size_t)tr * TMA_BLOCK_BYTES;

    for (uint32_t r = 0; r < vr; r++) {
        uint8_t *g = gm + r * stride;
        const uint8_t *t = tile + (size_t)r * TMA_BLOCK_BYTES;

        for (uint32_t c = 0, b = 0; c < vc; c += c0, b++) {
            add_run(g + (size_t)c * esize, t + b * bstride, vc - c < c0 ? vc - c : c0, dtype,
                    esize);
        }
    }
}

static inline __attribute__((always_inline)) void
zn_sub(uint8_t *gm, size_t stride, const uint8_t *tile, uint32_t tc, uint32_t vr, uint32_t vc,
       unsigned dtype, unsigned esize)
{
    uint32_t n = TMA_BLOCK_BYTES / esize;

    /* Element (r, c) of a ZN sub-tile: (r / n) * tc * n + c * n + r % n;
     * walk it block row by block row so each 32-byte column run is read
     * once while its block's GM rows are written. */
    for (uint32_t r0 = 0; r0 < vr; r0 += n) {
        uint32_t rn = vr - r0 < n ? vr - r0 : n;
        const uint8_t *blkrow = tile + (size_t)r0 * tc * esize;

        for (uint32_t c = 0; c < vc; c++) {
            const uint8_t *run = blkrow + (size_t)c * TMA_BLOCK_BYTES;
            uint8_t *g = gm + (size_t)r0 * stride + (size_t)c * esize;

            for (uint32_t i = 0; i < rn; i++) {
                add_elem(g + i * stride, run + (size_t)i * esize, dtype);
            }
        }
    }
}

/* One sub-tile of @layout (effective orientation). */
static inline __attribute__((always_inline)) void
atomic_sub(uint8_t *gm, size_t stride, const uint8_t *tile, uint32_t tr, uint32_t tc, uint32_t vr,
           uint32_t vc, unsigned layout, unsigned dtype, unsigned esize)
{
    if (layout == LINX_TL_NZ) {
        nz_sub(gm, stride, tile, tr, vr, vc, dtype, esize);
    } else if (layout == LINX_TL_ZN) {
        zn_sub(gm, stride, tile, tc, vr, vc, dtype, esize);
    } else {
        nd_sub(gm, stride, tile, tc, vr, vc, dtype, esize);
    }
}

/* Every sub-tile (merged along effective columns, as tma_eff_for_each_tile). */
static inline __attribute__((always_inline)) void atomic_run(const TmaXfer *x, unsigned dtype,
                                                             unsigned esize)
{
    TmaEff e;

    tma_eff_from_xfer(x, &e);
    for (uint32_t t = 0; t < e.ntiles; t++) {
        uint32_t c0 = t * e.tc, vc;

        if (c0 >= e.vc) {
            break;
        }
        vc = e.vc - c0 < e.tc ? e.vc - c0 : e.tc;
        atomic_sub(e.gm + (size_t)c0 * esize, e.stride, e.tile[t], e.tr, e.tc, e.vr, vc,
                   e.layout, dtype, esize);
    }
}

#define ATOMIC_KERNEL(NAME, DT, ES)                                                                \
    static void NAME(const TmaXfer *x)                                                             \
    {                                                                                              \
        atomic_run(x, DT, ES);                                                                     \
    }

ATOMIC_KERNEL(k_atomic_s8, LINX_DT_S8, 1)
ATOMIC_KERNEL(k_atomic_s16, LINX_DT_S16, 2)
ATOMIC_KERNEL(k_atomic_s32, LINX_DT_S32, 4)
ATOMIC_KERNEL(k_atomic_fp32, LINX_DT_FP32, 4)
ATOMIC_KERNEL(k_atomic_fp16, LINX_DT_FP16, 2)
ATOMIC_KERNEL(k_atomic_bf16, LINX_DT_BF16, 2)

bool tma_atomic_dtype_ok(unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_S8:
    case LINX_DT_S16:
    case LINX_DT_S32:
    case LINX_DT_FP32:
    case LINX_DT_FP16:
    case LINX_DT_BF16:
        return true;
    default:
        return false;
    }
}

TmaKernelChoice tma_atomic_kernel(unsigned dtype)
{
    TmaKernelChoice c = { NULL, NULL };

    switch (dtype) {
    case LINX_DT_S8:
        c = (TmaKernelChoice){ k_atomic_s8, "atomic-add-s8" };
        break;
    case LINX_DT_S16:
        c = (TmaKernelChoice){ k_atomic_s16, "atomic-add-s16" };
        break;
    case LINX_DT_S32:
        c = (TmaKernelChoice){ k_atomic_s32, "atomic-add-s32" };
        break;
    case LINX_DT_FP32:
        c = (TmaKernelChoice){ k_atomic_fp32, "atomic-add-fp32" };
        break;
    case LINX_DT_FP16:
        c = (TmaKernelChoice){ k_atomic_fp16, "atomic-add-fp16" };
        break;
    case LINX_DT_BF16:
        c = (TmaKernelChoice){ k_atomic_bf16, "atomic-add-bf16" };
        break;
    default:
        break;
    }
    return c;
}

void tma_atomic_add_elem(uint8_t *gm_elem, const uint8_t *tile_elem, unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_S8:
        add_elem(gm_elem, tile_elem, LINX_DT_S8);
        break;
    case LINX_DT_S16:
        add_elem(gm_elem, tile_elem, LINX_DT_S16);
        break;
    case LINX_DT_S32:
        add_elem(gm_elem, tile_elem, LINX_DT_S32);
        break;
    case LINX_DT_FP32:
        add_elem(gm_elem, tile_elem, LINX_DT_FP32);
        break;
    case LINX_DT_FP16:
        add_elem(gm_elem, tile_elem, LINX_DT_FP16);
        break;
    default:
        add_elem(gm_elem, tile_elem, LINX_DT_BF16);
        break;
    }
}
