/*
 * The cube: TMATMUL, TMATMUL.ACC and ACCCVT over the tile register file
 * and the ACC (shared/docs/tile-semantics.md 2.2 and 2.6,
 * shared/docs/decisions.md 6), reference semantics.
 *
 *   TMATMUL      ACC(i, j)  = sum_{k' < k} A(i, k') B(k', j), i < m, j < n
 *   TMATMUL.ACC  ACC(i, j) += the same sum (ACC must hold an m x n result
 *                of the same type: the chain starts with a TMATMUL)
 *   ACCCVT       push a tile of the header DataType holding ACC converted
 *                (optionally quantised)
 * m, n, k = LB0, LB1, LB2; A = the first source tile, B the second.
 *
 * Operand layouts follow the hardware (decisions.md 6): A is an NZ tile
 * (16 x c0 fractals) and B a ZN tile (c0 x 16), with the logical shape
 * their producer recorded (TLOAD ND2NZ / ND2ZN, TMOV, ...): A needs
 * rows >= m and cols >= k, B rows >= k and cols >= n.  Only the valid k
 * is read, so padding never leaks in.  Types (input -> ACC):
 *   S8 x S8 -> S32 (exact, wrapping), FP16 / BF16 / FP32 -> FP32
 * (products rounded to fp32, then summed in k order; fp16 and bf16
 * products are exact).  The ACC is kept row-major (not observable).
 *
 * ACCCVT output: an NZ tile (c0 = 32 / output size) of round_up(m, 16) x
 * round_up(n, c0) elements, zero outside m x n.  Quant modes (B.ARG):
 *   0 none:   FP32 ACC -> FP32, FP16 or BF16 (round to nearest even);
 *             S32 ACC -> S32
 *   1 scalar: FP32 ACC -> S8 / U8 (QF322B8_PRE: t = clip(rne(fp32(x * scale)),
 *             -256, 255) + offset, clipped to the output range); S32 ACC ->
 *             FP16 (DEQF16: x * scale) or S8 / U8 (REQ8, same rounding)
 * with the quant word of tile-semantics.md 2.2: bits 31:0 the fp32 scale
 * (only bits 31:13 used), 45:37 a 9-bit signed offset.
 *
 * Errors are E_INST(EC_PARAM) with TRAPARG0 = rule | value << 32 (rules
 * 0x60.., docs/tile.md "Cube"), a reserved Function E_INST(EC_ILLEGAL).
 */
#ifndef LINX_HW_TILE_CUBE_H
#define LINX_HW_TILE_CUBE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tile-regs.h"
#include "hw/linx/tma.h"

typedef enum LinxCubeFunc {
    LINX_CUBE_TMATMUL = 0,
    LINX_CUBE_TMATMUL_ACC = 2,
    LINX_CUBE_ACCCVT = 8,
} LinxCubeFunc;

typedef enum LinxCubeQuant {
    LINX_CUBE_QUANT_NONE = 0,
    LINX_CUBE_QUANT_SCALAR = 1,
} LinxCubeQuant;

typedef struct LinxCubeOp {
    uint8_t func;        /* LinxCubeFunc (BSTART.CUBE Function) */
    uint8_t dtype;       /* header DataType: inputs (TMATMUL*) or output (ACCCVT) */
    uint64_t m, n, k;    /* LB0, LB1, LB2 */
    uint8_t nsrc;
    uint8_t src[2];      /* A, B tile ids */
    uint8_t dst_kind;    /* ACCCVT destination: DstTile (t u m n = 0..3) */
    uint32_t dst_bytes;  /* ACCCVT destination size */
    uint8_t quant;       /* LinxCubeQuant (ACCCVT) */
    uint64_t quant_word; /* scale | offset << 37 (ACCCVT scalar quant) */
    bool reference;      /* TMATMUL*: the reference loops, not tile-cube-fast.c */
} LinxCubeOp;

typedef enum LinxCubeRule {
    LINX_CUBE_OK = 0,
    LINX_CUBE_BAD_FUNC = 0x60, /* E_INST(EC_ILLEGAL) */
    LINX_CUBE_BAD_DTYPE,       /* type (triple) or conversion not supported */
    LINX_CUBE_BAD_DIMS,        /* m, n or k outside [1, 4095], or m x n > the ACC */
    LINX_CUBE_OPERANDS,        /* not two sources (TMATMUL*), bad destination (ACCCVT) */
    LINX_CUBE_TILE_EMPTY,      /* a source tile was never written */
    LINX_CUBE_LEFT,            /* A is not an NZ tile of >= m x k of the input type */
    LINX_CUBE_RIGHT,           /* B is not a ZN tile of >= k x n of the input type */
    LINX_CUBE_CHAIN,           /* TMATMUL.ACC / ACCCVT without a matching ACC */
    LINX_CUBE_DST_SIZE,        /* ACCCVT output does not fit the destination tile */
    LINX_CUBE_BAD_QUANT,       /* reserved quant mode */
    LINX_CUBE__END
} LinxCubeRule;

/* A rule's short name ("cube-left") and sentence; "?" outside the rules. */
const char *linx_cube_rule_name(unsigned rule);
const char *linx_cube_rule_text(unsigned rule);

/* Run one cube block.  True on success; false with @f filled and no
 * change to the tiles or the ACC. */
bool linx_cube_exec(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f);

#endif /* LINX_HW_TILE_CUBE_H */
