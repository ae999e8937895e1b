/*
 * The cube: TMATMUL, TMATMUL.ACC, TMATMUL.BIAS and ACCCVT over the tile
 * register file and the ACC (shared/docs/tile-semantics.md 2.2 and 2.6,
 * shared/docs/decisions.md 6), reference semantics.
 *
 *   TMATMUL      ACC(i, j)  = sum_{k' < k} A(i, k') B(k', j), i < m, j < n
 *   TMATMUL.ACC  ACC(i, j) += the same sum (ACC must hold an m x n result
 *                of the same type and layout family: the chain starts with
 *                a TMATMUL or TMATMUL.BIAS)
 *   TMATMUL.BIAS ACC(i, j)  = the same sum + bias(j): the third source
 *                tile holds n elements of the ACC type in a row
 *   ACCCVT       push a tile of the header DataType holding ACC converted
 *                (optionally quantised)
 * m, n, k = LB0, LB1, LB2; A = the first source tile (SrcTile0 of the
 * first B.IOT), B the second, the bias the third.  Function codes: 0
 * TMATMUL, 2 TMATMUL.ACC, 8 ACCCVT (v0.4 manual), 1 TMATMUL.BIAS (the
 * LinxISA 0.58.1 catalog, LinxCore src/common/opcode_catalog.yaml
 * bstart_tmatmul_bias, match 0x131181).
 *
 * Operand layouts (docs/tile.md "Cube"): either the hardware's - A an NZ
 * tile (16 x c0 fractals), B a ZN tile (c0 x 16), read through the
 * logical shape their producer recorded (A rows >= m, cols >= k; B rows
 * >= k, cols >= n) - or dense row-major ND tiles: A(i, k') is element
 * i x k + k' and B(k', j) element k' x n + j of the tile, whatever shape
 * the tile was loaded with (the compiled PTO kernels' whole-tile TLOADs;
 * PTO-Kernel include/pto/linx/impl/backend.hpp cubeMamulb).  A and B must
 * be of the same family; the ACC remembers it and ACCCVT writes it.  Only
 * the valid k is read, so padding never leaks in.  Types (input -> ACC):
 *   S8 x S8, S32 x S32 -> S32 (exact, wrapping modulo 2^32)
 *   FP16, BF16, FP32, FP8 (E4M3) -> FP32 (products rounded to fp32, then
 *   summed in k order from +0; fp16, bf16 and e4m3 products are exact)
 * The ACC is kept row-major (not observable).
 *
 * ACCCVT output: for the NZ family an NZ tile (c0 = 32 / output size) of
 * round_up(m, 16) x round_up(n, c0) elements, zero outside m x n (a
 * TSTORE whose derived Row differs raises tile-shape); for the ND family
 * the dense row-major m x n matrix at the start of the tile, zero after
 * it.  Quant modes (B.ARG format):
 *   0 none:   FP32 ACC -> FP32, FP16 or BF16 (round to nearest even);
 *             S32 ACC -> S32
 *   1 scalar: t = fp32(fp32(x) * scale), then
 *             FP32 / S32 ACC -> S8 / U8 (QF322B8_PRE / REQ8: clip(rne(t),
 *             -256, 255) + offset, clipped to the output range),
 *             FP32 / S32 ACC -> FP16 (QF322F16_PRE / DEQF16) and FP32 ->
 *             BF16 (QF322BF16_PRE): t rounded to nearest even, saturated
 *             to the largest finite value
 * with the quant word of tile-semantics.md 2.2: bits 31:13 an fp19 scale
 * (fp32 bits 12:0 ignored), bits 45:37 an unsigned 9-bit offset (pto-isa
 * tstore_acc2gm/gen_data.py extract_quant_params; docs/tile.md).
 *
 * Errors are a rule (0x60.., docs/tile.md "Cube") and the offending value
 * in a TmaFault; target/linx/tile-trap.h says which trap each becomes.
 */
#ifndef LINX_HW_TILE_CUBE_H
#define LINX_HW_TILE_CUBE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tile-regs.h"
#include "hw/linx/tma.h"

typedef enum LinxCubeFunc {
    LINX_CUBE_TMATMUL = 0,
    LINX_CUBE_TMATMUL_BIAS = 1,
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
    uint8_t nsrc;        /* source tiles named (more than 3 are counted, not kept) */
    uint8_t src[3];      /* A, B, bias tile ids */
    uint8_t dst_kind;    /* ACCCVT destination: DstTile (t u m n = 0..3) */
    uint32_t dst_bytes;  /* ACCCVT destination size */
    uint8_t quant;       /* LinxCubeQuant (ACCCVT) */
    uint64_t quant_word; /* scale | offset << 37 (ACCCVT scalar quant) */
    bool reference;      /* TMATMUL*: the reference loops, not tile-cube-fast.c */
} LinxCubeOp;

typedef enum LinxCubeRule {
    LINX_CUBE_OK = 0,
    LINX_CUBE_BAD_FUNC = 0x60, /* reserved Function */
    LINX_CUBE_BAD_DTYPE,       /* type (triple) or conversion not supported */
    LINX_CUBE_BAD_DIMS,        /* m, n or k outside [1, 4095], or m x n > the ACC */
    LINX_CUBE_OPERANDS,        /* not 2 sources (3: .BIAS), bad destination (ACCCVT) */
    LINX_CUBE_TILE_EMPTY,      /* a source tile was never written */
    LINX_CUBE_LEFT,            /* A is not an NZ tile >= m x k or an ND tile of m x k, of the input type */
    LINX_CUBE_RIGHT,           /* B is not a ZN (ND with an ND A) tile >= k x n of the input type */
    LINX_CUBE_CHAIN,           /* TMATMUL.ACC / ACCCVT without a matching ACC */
    LINX_CUBE_DST_SIZE,        /* ACCCVT output does not fill / fit the destination tile */
    LINX_CUBE_BAD_QUANT,       /* reserved quant mode */
    LINX_CUBE_BIAS,            /* TMATMUL.BIAS: bias is not a row of >= n ACC-type elements */
    LINX_CUBE__END
} LinxCubeRule;

/* A rule's short name ("cube-left") and sentence; "?" outside the rules. */
const char *linx_cube_rule_name(unsigned rule);
const char *linx_cube_rule_text(unsigned rule);

/* Run one cube block.  True on success; false with @f filled and no
 * change to the tiles or the ACC. */
bool linx_cube_exec(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f);

#endif /* LINX_HW_TILE_CUBE_H */
