/*
 * DataCopy GM -> L1: the mover that brings matrices on chip (Ascend C
 * DataCopy with DataCopyParams, and with Nd2NzParams: "随路格式转换" ND ->
 * NZ), a device model over LinxBuffers (docs/tile.md "DataCopy").
 *
 * Two modes (CTRL bit 0):
 *   bursts (0): BLOCK_COUNT bursts of BLOCK_LEN 32-byte blocks; burst i
 *     reads GM src + i x (BLOCK_LEN + SRC_GAP) x 32 and writes L1 dst +
 *     i x (BLOCK_LEN + DST_GAP) x 32 (DataCopyParams: blockCount,
 *     blockLen, srcStride, dstStride, all in 32-byte units);
 *   ND -> NZ (1): ND_NUM matrices of N_VALUE rows x D_VALUE columns of
 *     the CTRL DataType (c0 = 32 / esize elements per 32-byte block);
 *     matrix i at GM src + i x SRC_ND_MATRIX_STRIDE elements, rows
 *     SRC_D_VALUE elements apart; element (r, c) goes to L1 dst + (i x
 *     DST_NZ_MATRIX_STRIDE + (c / c0) x DST_NZ_C0_STRIDE x c0 + r x
 *     DST_NZ_N_STRIDE x c0 + c % c0) x esize (the two NZ strides in
 *     32-byte C0 units, Nd2NzParams).  Decision: the columns of a row's
 *     last, partial C0 block past D_VALUE are written with zeros, so the
 *     NZ tile never holds stale data in a fractal it uses.
 * Every check runs before a byte moves; the GM source is checked whole.
 *
 * Registers (64-bit, LINX_DC_REGS_OFFSET from the buffers' base):
 *   0x00 SRC (GM address)        0x30 DST_NZ_C0_STRIDE / DST_GAP
 *   0x08 DST (L1 offset)         0x38 ND_NUM
 *   0x10 CTRL: bit 0 ND2NZ, bits 12:8 DataType (ND2NZ)
 *   0x18 N_VALUE / BLOCK_COUNT   0x40 SRC_ND_MATRIX_STRIDE
 *   0x20 D_VALUE / BLOCK_LEN     0x48 DST_NZ_MATRIX_STRIDE
 *   0x28 SRC_D_VALUE / SRC_GAP   0x50 DST_NZ_N_STRIDE
 *   0x58 GO (write) / STATUS (read: 0 or the rule)
 */
#ifndef LINX_HW_BUFFERS_DATACOPY_H
#define LINX_HW_BUFFERS_DATACOPY_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/buffers.h"

#define LINX_DC_REGS_OFFSET UINT64_C(0x281000)

enum {
    LINX_DC_REG_SRC = 0,
    LINX_DC_REG_DST,
    LINX_DC_REG_CTRL,
    LINX_DC_REG_N,        /* N_VALUE / BLOCK_COUNT */
    LINX_DC_REG_D,        /* D_VALUE / BLOCK_LEN */
    LINX_DC_REG_SRC_D,    /* SRC_D_VALUE / SRC_GAP */
    LINX_DC_REG_C0_STRIDE, /* DST_NZ_C0_STRIDE / DST_GAP */
    LINX_DC_REG_ND_NUM,
    LINX_DC_REG_SRC_MATRIX,
    LINX_DC_REG_DST_MATRIX,
    LINX_DC_REG_N_STRIDE,
    LINX_DC_REG_GO,
};

typedef struct LinxDataCopy {
    bool nd2nz;
    uint8_t dtype;        /* ND2NZ element type */
    uint64_t src, dst;
    /* bursts */
    uint64_t block_count, block_len, src_gap, dst_gap;
    /* ND -> NZ */
    uint64_t nd_num, n_value, d_value, src_nd_matrix_stride, src_d_value;
    uint64_t dst_nz_c0_stride, dst_nz_n_stride, dst_nz_matrix_stride;
} LinxDataCopy;

typedef enum LinxDcRule {
    LINX_DC_OK = 0,
    LINX_DC_BAD_PARAM = 0x50, /* a field outside its range */
    LINX_DC_BAD_DTYPE,        /* ND2NZ element type not 1, 2 or 4 bytes */
    LINX_DC_DST_ALIGN,        /* L1 destination not 32-byte aligned */
    LINX_DC_SRC_STRIDE,       /* SRC_D_VALUE < D_VALUE (rows overlap) */
    LINX_DC_DST_RANGE,        /* destination past L1 */
    LINX_DC_GM_FAULT,         /* GM source fault */
    LINX_DC__END
} LinxDcRule;

const char *linx_dc_rule_name(unsigned rule);

/* Run one DataCopy; false with b->status filled and nothing written. */
bool linx_datacopy(LinxBuffers *b, GuestMemory *gm, const LinxDataCopy *op);
/* The register page's GO (LinxEngineGo). */
bool linx_datacopy_go(LinxBuffers *b, const uint64_t *regs);

#endif /* LINX_HW_BUFFERS_DATACOPY_H */
