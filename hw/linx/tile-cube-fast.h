/*
 * Fast TMATMUL / TMATMUL.ACC (docs/kernels.md "CUBE"): the reference
 * semantics of tile-cube.h computed with register-blocked vector loops,
 * bit-identical to the reference loops in tile-cube.c (each ACC element
 * is still the fp32 sum of fp32-rounded products in k order starting from
 * +0, then added to the old value for .ACC; int8 and int32 sums wrap
 * modulo 2^32).  The one
 * exception is which NaN payload comes out when several NaNs meet, which
 * the reference leaves to the host compiler too.
 */
#ifndef LINX_HW_TILE_CUBE_FAST_H
#define LINX_HW_TILE_CUBE_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tile-regs.h"

/* ACC (row-major m x n, 4-byte elements) = or += A x B for the checked
 * operands of tile-cube.c's exec_matmul: A an NZ tile >= m x k and B a ZN
 * tile >= k x n, or with @dense both dense row-major (A(i, k') element
 * i x k + k', B(k', j) element k' x n + j), of @dtype: S8, S32, FP16,
 * BF16, FP32 or FP8 (E4M3).  False (nothing written) for shapes it does
 * not handle (k > 512): use the reference. */
bool linx_cube_matmul_fast(const LinxTileSlot *a, const LinxTileSlot *b, unsigned dtype,
                           bool dense, uint32_t m, uint32_t n, uint32_t k, bool accumulate,
                           uint8_t *acc);

/* LINX_CUBE_REFERENCE=1 in the environment: CUBE blocks translated from
 * now on use the reference loops (read when a block is translated). */
bool linx_cube_reference_from_env(void);

#endif /* LINX_HW_TILE_CUBE_FAST_H */
