/*
 * Tile element data types: the v0.4 DataType codes the tile machine
 * supports, their sizes, pad values and the small floating-point
 * conversions the tile engines need (fp16, bf16, fp8 e4m3 <-> float).
 *
 * Codes are the 5-bit DataType field of BSTART.TMA/CUBE/TEPL
 * (linxisa-digest section 4.1): FP64 0, FP32 1, FP16 2, FP8 3 (E4M3),
 * BF16 6, S64 16, S32 17, S16 18, S8 19, U64 24, U32 25, U16 26, U8 27.
 * FPL8 7, FP4 11, FPL4 12, INT4 20 and UINT4 28 exist in the ISA but the
 * tile machine does not support them yet (4-bit elements); every other
 * code is reserved.  linx_dtype_info() returns NULL for both.
 *
 * Conversions are IEEE: float -> fp16/bf16/e4m3 round to nearest even and
 * keep subnormals (shared/docs/decisions.md 7).  E4M3 is the OCP "FN"
 * format: no infinities, 0x7F/0xFF are NaN, largest finite 448.
 *
 * Everything here is constant data or pure functions.
 */
#ifndef LINX_HW_TILE_DTYPE_H
#define LINX_HW_TILE_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum LinxTileDType {
    LINX_DT_FP64 = 0,
    LINX_DT_FP32 = 1,
    LINX_DT_FP16 = 2,
    LINX_DT_FP8 = 3, /* E4M3 */
    LINX_DT_BF16 = 6,
    LINX_DT_S64 = 16,
    LINX_DT_S32 = 17,
    LINX_DT_S16 = 18,
    LINX_DT_S8 = 19,
    LINX_DT_U64 = 24,
    LINX_DT_U32 = 25,
    LINX_DT_U16 = 26,
    LINX_DT_U8 = 27,
    LINX_DT_NONE = 0xff, /* unknown / not tracked */
} LinxTileDType;

#define LINX_DT_CODE_COUNT 32

typedef enum LinxDTypeKind {
    LINX_DTK_FLOAT,
    LINX_DTK_SINT,
    LINX_DTK_UINT,
} LinxDTypeKind;

typedef struct LinxDTypeInfo {
    const char *name;     /* seed spelling: FP32, S8, E4M3, BF16, ... */
    uint8_t code;         /* LinxTileDType */
    uint8_t size;         /* bytes per element */
    uint8_t size_log2;
    uint8_t kind;         /* LinxDTypeKind */
    uint64_t max_bits;    /* pad value "Max": +inf (floats with inf) or the type maximum */
    uint64_t min_bits;    /* pad value "Min": -inf or the type minimum */
} LinxDTypeInfo;

/* Info for a supported DataType code, NULL for unsupported/reserved. */
const LinxDTypeInfo *linx_dtype_info(unsigned code);

/* Name of any 5-bit code (supported or not), "?" for reserved ones. */
const char *linx_dtype_name(unsigned code);

/* Scalar conversions. */
float linx_fp16_to_float(uint16_t h);
uint16_t linx_float_to_fp16(float f);
float linx_bf16_to_float(uint16_t b);
uint16_t linx_float_to_bf16(float f);
float linx_e4m3_to_float(uint8_t v);
uint8_t linx_float_to_e4m3(float f);

/* An element of @info's type at @p (little-endian host) as a double, for
 * dumps and the cube reference (64-bit integers lose precision above
 * 2^53; dumps print those from linx_dtype_load_int instead). */
double linx_dtype_load_double(const LinxDTypeInfo *info, const void *p);
/* Integer element as a sign- or zero-extended 64-bit value. */
int64_t linx_dtype_load_int(const LinxDTypeInfo *info, const void *p);

#endif /* LINX_HW_TILE_DTYPE_H */
