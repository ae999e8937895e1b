/*
 * Mmad: the cube engine over the buffers (Ascend C Mmad: L0A x L0B ->
 * L0C), a device model beside the tile-register cube (tile-cube.c), with
 * the fractal layouts LoadData 2D produces (shared/docs/tile-semantics.md
 * 2.1; docs/tile.md "Mmad"):
 *   A (m x k) in L0A: ZZ on the A2/A3 profile - element (r, c) at
 *     (r / 16) x Kp x 16 + (c / c0) x 16 x c0 + (r % 16) x c0 + c % c0 -
 *     NZ on the 950 profile - (c / c0) x Mp x c0 + r x c0 + c % c0;
 *   B (k x n) in L0B: ZN, (r / c0) x Np x c0 + c x c0 + r % c0;
 *   C (m x n) in L0C: NZ with 16 x 16 fractals, (c / 16) x Mp x 16 +
 *     r x 16 + c % 16, 32-bit elements;
 * with Mp = round_up(m, 16), Np = round_up(n, 16), Kp = round_up(k, c0),
 * c0 = 32 / input size.  C = A x B (CTRL bit 8 clear: cmatrixInitVal) or
 * C += A x B; types S8 -> S32 (wrapping), FP16 / BF16 / FP32 / FP8 ->
 * FP32 (products rounded to fp32, summed in k order from +0), as the
 * tile cube.  Only the valid m x k / k x n elements are read and only the
 * m x n elements of C written.
 *
 * Registers (LINX_MM_REGS_OFFSET from the buffers' base):
 *   0x00 A (L0A offset)   0x18 M   0x30 CTRL: bits 4:0 DataType, bit 8 accumulate
 *   0x08 B (L0B offset)   0x20 N   0x38 GO (write) / STATUS (read)
 *   0x10 C (L0C offset)   0x28 K
 */
#ifndef LINX_HW_BUFFERS_MMAD_H
#define LINX_HW_BUFFERS_MMAD_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/buffers.h"

#define LINX_MM_REGS_OFFSET UINT64_C(0x282000)

enum {
    LINX_MM_REG_A = 0,
    LINX_MM_REG_B,
    LINX_MM_REG_C,
    LINX_MM_REG_M,
    LINX_MM_REG_N,
    LINX_MM_REG_K,
    LINX_MM_REG_CTRL,
    LINX_MM_REG_GO,
};

typedef struct LinxMmad {
    uint64_t a, b, c;      /* offsets in L0A, L0B, L0C */
    uint64_t m, n, k;
    uint8_t dtype;         /* input type */
    bool accumulate;       /* C += A x B */
} LinxMmad;

typedef enum LinxMmRule {
    LINX_MM_OK = 0,
    LINX_MM_BAD_DIMS = 0x58, /* m, n or k outside 1..4095 */
    LINX_MM_BAD_DTYPE,       /* input type the cube does not take */
    LINX_MM_ALIGN,           /* A/B not 512-byte, C not 64-byte aligned */
    LINX_MM_A_RANGE,         /* A's fractals past L0A */
    LINX_MM_B_RANGE,         /* B's fractals past L0B */
    LINX_MM_C_RANGE,         /* C's fractals past L0C */
    LINX_MM__END
} LinxMmRule;

const char *linx_mm_rule_name(unsigned rule);

/* Run one Mmad; false with b->status filled and L0C unchanged. */
bool linx_mmad(LinxBuffers *b, const LinxMmad *op);
bool linx_mmad_go(LinxBuffers *b, const uint64_t *regs);

#endif /* LINX_HW_BUFFERS_MMAD_H */
