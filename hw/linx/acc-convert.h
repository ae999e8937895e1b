/*
 * ACC element conversion: what ACCCVT (tile-cube.c) and the L0C -> GM
 * fixpipe engine (buffers-fixpipe.c) do to each 32-bit accumulator
 * element on its way out - type conversion, scalar or per-channel
 * quantisation, ReLU (shared/docs/tile-semantics.md 2.2, seed 001's Acc
 * TSTORE; docs/tile.md "ACC conversions").
 *
 *   quant none:   FP32 -> FP32, FP16, BF16 (round to nearest even);
 *                 S32 -> S32
 *   quant scalar / per-channel (one quant word per output column):
 *                 t = fp32(fp32(x) x scale)
 *                 FP32 or S32 -> S8 / U8   QF322B8_PRE / REQ8:
 *                     clip(rne(t), -256, 255) + offset, clipped to the type
 *                 FP32 -> FP16             QF322F16_PRE: t to nearest
 *                     even, saturated to +-65504
 *                 S32 -> FP16              DEQF16: t to nearest even
 *                     (overflow: inf, as the pto-isa golden in half)
 *                 FP32 -> BF16             QF322BF16_PRE: t to nearest even,
 *                     saturated to the largest finite bf16
 *   ReLU (after the conversion): negative results become 0 (NaN stays).
 *
 * The quant word (pto-isa tests/npu/a2a3/src/st/testcase/tstore_acc2gm/
 * gen_data.py, extract_quant_params): bits 31:13 an fp19 scale (sign,
 * 8-bit exponent, top 10 mantissa bits of an fp32), bits 45:37 an
 * UNSIGNED 9-bit offset (0..511), bit 46 the signed flag of 8-bit outputs
 * (the output DataType decides it here instead).
 *
 * Pure functions, no state.  Integer ranges are exact: every clip happens
 * in double before the integer conversion.
 */
#ifndef LINX_HW_ACC_CONVERT_H
#define LINX_HW_ACC_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum LinxAccQuant {
    LINX_ACC_QUANT_NONE = 0,
    LINX_ACC_QUANT_SCALAR = 1,  /* one word for every element */
    LINX_ACC_QUANT_VECTOR = 2,  /* one word per output column (fixpipe only) */
} LinxAccQuant;

#define LINX_QUANT_SCALE_MASK 0xffffe000u
#define LINX_QUANT_OFFSET_SHIFT 37
#define LINX_QUANT_OFFSET_MASK 0x1ffu

/* Whether an @acc_dt (LINX_DT_FP32 / LINX_DT_S32) ACC converts to @out_dt
 * with quant mode @quant (scalar and vector allow the same pairs). */
bool linx_acc_convert_ok(unsigned acc_dt, unsigned out_dt, unsigned quant);

/* The scale and offset a quant word holds. */
float linx_quant_scale(uint64_t word);
uint32_t linx_quant_offset(uint64_t word);

/* Convert the ACC element at @in (4 bytes) to @out (the output size);
 * @word is the quant word (ignored for LINX_ACC_QUANT_NONE).  The pair
 * must be one linx_acc_convert_ok() accepts. */
void linx_acc_convert(unsigned acc_dt, unsigned out_dt, unsigned quant, uint64_t word, bool relu,
                      const uint8_t *in, uint8_t *out);

#endif /* LINX_HW_ACC_CONVERT_H */
