/*
 * Fixpipe: L0C -> GM, seed 001's Acc TSTORE as a device model (pto-isa
 * TStoreAcc / TSTORE_FP; shared/docs/tile-semantics.md 2.2; docs/tile.md
 * "Fixpipe").  For each i < M, j < N of the L0C matrix (NZ, 16 x 16
 * fractals, 32-bit elements, SRC_ROWS rows apart per column block:
 * element (i, j) at (j / 16) x SRC_ROWS x 16 + i x 16 + j % 16):
 *   x = C(i, j) (+ bias(j), in the ACC type, when CTRL.bias: N values
 *       at L1 offset BIAS_ADDR)
 *   y = convert(x) to the output DataType: no quant (FP32 -> FP32 / FP16
 *       / BF16, S32 -> S32), scalar quant (the QUANT word) or per-channel
 *       quant (N 64-bit words at L1 offset QUANT_ADDR, word j for column
 *       j); acc-convert.h has the conversions
 *   y = max(y, 0) when CTRL.relu
 *   GM(i, j) = y, or GM(i, j) += y when CTRL.atomic (AtomicAdd in the
 *       output type: S8, S16, S32, FP32, FP16, BF16)
 * GM layout: ND - (i x DST_STRIDE + j) elements from DST (DST_STRIDE 0 =
 * N) - or NZ - ((j / c0) x DST_STRIDE + i x c0 + j % c0) elements (c0 = 16
 * elements, 32 for 8-bit outputs, 8 with CTRL.c0_8 for FP32; DST_STRIDE 0
 * = round_up(M, 16) x c0), as the pto-isa Acc goldens lay them out.
 * Every check (parameters, L0C / L1 ranges, the whole GM footprint) runs
 * before GM changes.
 *
 * Registers (LINX_FP_REGS_OFFSET from the buffers' base):
 *   0x00 SRC (L0C offset)   0x18 N           0x38 QUANT (scalar word)
 *   0x08 DST (GM address)   0x20 SRC_ROWS    0x40 QUANT_ADDR (L1, per-channel)
 *   0x10 M                  0x28 DST_STRIDE  0x48 BIAS_ADDR (L1)
 *   0x30 CTRL: bits 4:0 ACC DataType (FP32 / S32), 12:8 output DataType,
 *        bit 16 NZ output, 18:17 quant (0 none, 1 scalar, 2 per-channel),
 *        bit 19 ReLU, bit 20 bias, bit 21 AtomicAdd, bit 22 NZ c0 = 8
 *   0x50 GO (write) / STATUS (read)
 */
#ifndef LINX_HW_BUFFERS_FIXPIPE_H
#define LINX_HW_BUFFERS_FIXPIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/buffers.h"

#define LINX_FP_REGS_OFFSET UINT64_C(0x283000)

enum {
    LINX_FP_REG_SRC = 0,
    LINX_FP_REG_DST,
    LINX_FP_REG_M,
    LINX_FP_REG_N,
    LINX_FP_REG_SRC_ROWS,
    LINX_FP_REG_DST_STRIDE,
    LINX_FP_REG_CTRL,
    LINX_FP_REG_QUANT,
    LINX_FP_REG_QUANT_ADDR,
    LINX_FP_REG_BIAS_ADDR,
    LINX_FP_REG_GO,
};

enum {
    LINX_FP_CTRL_NZ = 1 << 16,
    LINX_FP_CTRL_QUANT_SHIFT = 17,
    LINX_FP_CTRL_RELU = 1 << 19,
    LINX_FP_CTRL_BIAS = 1 << 20,
    LINX_FP_CTRL_ATOMIC = 1 << 21,
    LINX_FP_CTRL_C0_8 = 1 << 22,
};

typedef struct LinxFixpipe {
    uint64_t src, dst;
    uint64_t m, n, src_rows, dst_stride;
    uint8_t acc_dtype, out_dtype;
    bool nz, relu, bias, atomic, c0_8;
    uint8_t quant;          /* LinxAccQuant */
    uint64_t quant_word, quant_addr, bias_addr;
} LinxFixpipe;

typedef enum LinxFpRule {
    LINX_FP_OK = 0,
    LINX_FP_BAD_DIMS = 0x68, /* M or N outside its range, SRC_ROWS < M or not x16 */
    LINX_FP_BAD_DTYPE,       /* ACC / output type pair not a conversion of the quant mode */
    LINX_FP_BAD_QUANT,       /* reserved quant mode */
    LINX_FP_NZ_COLS,         /* NZ output: N not a multiple of c0 (or c0 = 8 without FP32) */
    LINX_FP_DST_STRIDE,      /* DST_STRIDE too small: rows or column blocks overlap */
    LINX_FP_SRC_RANGE,       /* L0C source unaligned or past L0C */
    LINX_FP_QUANT_RANGE,     /* per-channel words unaligned or past L1 */
    LINX_FP_BIAS_RANGE,      /* bias unaligned or past L1 */
    LINX_FP_ATOMIC_DTYPE,    /* AtomicAdd of a type seed 001 does not allow */
    LINX_FP_GM_FAULT,        /* GM destination fault */
    LINX_FP__END
} LinxFpRule;

const char *linx_fp_rule_name(unsigned rule);

/* Run one Fixpipe store; false with b->status filled and GM unchanged. */
bool linx_fixpipe(LinxBuffers *b, GuestMemory *gm, const LinxFixpipe *op);
bool linx_fixpipe_go(LinxBuffers *b, const uint64_t *regs);

#endif /* LINX_HW_BUFFERS_FIXPIPE_H */
