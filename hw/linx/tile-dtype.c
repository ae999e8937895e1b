/*
 * Tile element data types: constant table and float conversions.
 * See tile-dtype.h for the codes and the rounding rules.
 */
#include "hw/linx/tile-dtype.h"

#include <math.h> /* NAN (no libm calls) */
#include <stddef.h>
#include <string.h>

enum {
    FP32_SIGN = 0x80000000u,
    FP32_EXP_MASK = 0x7f800000u,
    FP32_MANT_MASK = 0x007fffffu,
    FP32_MANT_BITS = 23,
    FP32_BIAS = 127,
    FP16_BIAS = 15,
    FP16_MANT_BITS = 10,
    FP16_INF = 0x7c00,
    FP16_QNAN_BIT = 0x200,
    /* 65520 = halfway between 65504 (max fp16) and 2^16: rounds to inf. */
    FP16_OVERFLOW_F32 = 0x477ff000u,
    BF16_QNAN_BIT = 0x40,
    E4M3_BIAS = 7,
    E4M3_MANT_BITS = 3,
    E4M3_MAX = 0x7e, /* 448 */
    E4M3_NAN = 0x7f,
};

#define INFO(n, c, s, l, k, mx, mn) \
    [c] = { .name = n, .code = c, .size = s, .size_log2 = l, .kind = k, \
            .max_bits = mx, .min_bits = mn }

static const LinxDTypeInfo dtype_table[LINX_DT_CODE_COUNT] = {
    INFO("FP64", LINX_DT_FP64, 8, 3, LINX_DTK_FLOAT, UINT64_C(0x7ff0000000000000),
         UINT64_C(0xfff0000000000000)),
    INFO("FP32", LINX_DT_FP32, 4, 2, LINX_DTK_FLOAT, 0x7f800000u, 0xff800000u),
    INFO("FP16", LINX_DT_FP16, 2, 1, LINX_DTK_FLOAT, 0x7c00u, 0xfc00u),
    /* E4M3 has no infinities: Max/Min pad with +-448. */
    INFO("E4M3", LINX_DT_FP8, 1, 0, LINX_DTK_FLOAT, 0x7eu, 0xfeu),
    INFO("BF16", LINX_DT_BF16, 2, 1, LINX_DTK_FLOAT, 0x7f80u, 0xff80u),
    INFO("S64", LINX_DT_S64, 8, 3, LINX_DTK_SINT, UINT64_C(0x7fffffffffffffff),
         UINT64_C(0x8000000000000000)),
    INFO("S32", LINX_DT_S32, 4, 2, LINX_DTK_SINT, 0x7fffffffu, 0x80000000u),
    INFO("S16", LINX_DT_S16, 2, 1, LINX_DTK_SINT, 0x7fffu, 0x8000u),
    INFO("S8", LINX_DT_S8, 1, 0, LINX_DTK_SINT, 0x7fu, 0x80u),
    INFO("U64", LINX_DT_U64, 8, 3, LINX_DTK_UINT, UINT64_MAX, 0),
    INFO("U32", LINX_DT_U32, 4, 2, LINX_DTK_UINT, 0xffffffffu, 0),
    INFO("U16", LINX_DT_U16, 2, 1, LINX_DTK_UINT, 0xffffu, 0),
    INFO("U8", LINX_DT_U8, 1, 0, LINX_DTK_UINT, 0xffu, 0),
};

/* ISA codes the tile machine does not implement (4-bit and "L" formats). */
static const char *const unsupported_names[LINX_DT_CODE_COUNT] = {
    [7] = "FPL8", [11] = "FP4", [12] = "FPL4", [20] = "INT4", [28] = "UINT4",
};

const LinxDTypeInfo *linx_dtype_info(unsigned code)
{
    if (code >= LINX_DT_CODE_COUNT || dtype_table[code].name == NULL) {
        return NULL;
    }
    return &dtype_table[code];
}

const char *linx_dtype_name(unsigned code)
{
    if (code >= LINX_DT_CODE_COUNT) {
        return "?";
    }
    if (dtype_table[code].name) {
        return dtype_table[code].name;
    }
    return unsupported_names[code] ? unsupported_names[code] : "?";
}

static uint32_t f32_bits(float f)
{
    uint32_t x;

    memcpy(&x, &f, sizeof(x));
    return x;
}

static float f32_from_bits(uint32_t x)
{
    float f;

    memcpy(&f, &x, sizeof(f));
    return f;
}

/* Round the integer @m right by @shift bits, to nearest even. */
static uint32_t round_shift_rne(uint32_t m, unsigned shift)
{
    uint32_t q = m >> shift;
    uint32_t rem = m & ((UINT32_C(1) << shift) - 1);
    uint32_t half = UINT32_C(1) << (shift - 1);

    if (rem > half || (rem == half && (q & 1))) {
        q++;
    }
    return q;
}

float linx_fp16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> FP16_MANT_BITS) & 0x1f;
    uint32_t mant = h & 0x3ff;

    if (exp == 0x1f) {
        return f32_from_bits(sign | FP32_EXP_MASK | (mant << 13));
    }
    if (exp == 0) {
        /* Zero or subnormal: mant * 2^-24, exact in float. */
        float v = (float)mant * 0x1p-24f;
        return sign ? -v : v;
    }
    return f32_from_bits(sign | ((exp - FP16_BIAS + FP32_BIAS) << FP32_MANT_BITS) |
                         (mant << 13));
}

uint16_t linx_float_to_fp16(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t absx = x & ~FP32_SIGN;
    int e;
    uint32_t m;

    if (absx >= FP32_EXP_MASK) {
        if (absx == FP32_EXP_MASK) {
            return sign | FP16_INF;
        }
        return sign | FP16_INF | FP16_QNAN_BIT | ((absx >> 13) & 0x3ff);
    }
    if (absx >= FP16_OVERFLOW_F32) {
        return sign | FP16_INF;
    }
    e = (int)(absx >> FP32_MANT_BITS) - FP32_BIAS + FP16_BIAS;
    m = absx & FP32_MANT_MASK;
    if (e <= 0) {
        /* Subnormal result in units of 2^-24; below 2^-25 rounds to zero. */
        if (e < -FP16_MANT_BITS) {
            return sign;
        }
        m |= FP32_MANT_MASK + 1;
        return sign | (uint16_t)round_shift_rne(m, (unsigned)(14 - e));
    }
    /* A carry out of the mantissa correctly bumps the exponent (and may
     * reach infinity only above FP16_OVERFLOW_F32, handled above). */
    return sign | (uint16_t)round_shift_rne(((uint32_t)e << 23) | m, 13);
}

float linx_bf16_to_float(uint16_t b)
{
    return f32_from_bits((uint32_t)b << 16);
}

uint16_t linx_float_to_bf16(float f)
{
    uint32_t x = f32_bits(f);

    if ((x & ~FP32_SIGN) > FP32_EXP_MASK) {
        return (uint16_t)((x >> 16) | BF16_QNAN_BIT);
    }
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float linx_e4m3_to_float(uint8_t v)
{
    unsigned exp = (v >> E4M3_MANT_BITS) & 0xf;
    unsigned mant = v & 7;
    float r;

    if ((v & 0x7f) == E4M3_NAN) {
        return NAN;
    }
    if (exp == 0) {
        r = (float)mant * 0x1p-9f;
    } else {
        r = f32_from_bits((exp - E4M3_BIAS + FP32_BIAS) << FP32_MANT_BITS | mant << 20);
    }
    return (v & 0x80) ? -r : r;
}

uint8_t linx_float_to_e4m3(float f)
{
    uint32_t x = f32_bits(f);
    uint8_t sign = (uint8_t)((x >> 24) & 0x80);
    uint32_t absx = x & ~FP32_SIGN;
    int e;
    uint32_t m, q;

    if (absx > FP32_EXP_MASK) {
        return sign | E4M3_NAN;
    }
    e = (int)(absx >> FP32_MANT_BITS) - FP32_BIAS + E4M3_BIAS;
    m = absx & FP32_MANT_MASK;
    if (e <= 0) {
        if (e < -E4M3_MANT_BITS) {
            return sign;
        }
        m |= FP32_MANT_MASK + 1;
        return sign | (uint8_t)round_shift_rne(m, (unsigned)(21 - e));
    }
    if (e > 15) {
        return sign | E4M3_MAX; /* overflow and infinity saturate */
    }
    q = round_shift_rne(((uint32_t)e << 23) | m, 20);
    if (q > E4M3_MAX) {
        q = E4M3_MAX;
    }
    return sign | (uint8_t)q;
}

int64_t linx_dtype_load_int(const LinxDTypeInfo *info, const void *p)
{
    uint64_t u = 0;

    memcpy(&u, p, info->size); /* little-endian host */
    if (info->kind == LINX_DTK_SINT && info->size < 8) {
        unsigned sh = 64 - 8 * info->size;
        return (int64_t)(u << sh) >> sh;
    }
    return (int64_t)u;
}

double linx_dtype_load_double(const LinxDTypeInfo *info, const void *p)
{
    if (info->kind == LINX_DTK_FLOAT) {
        switch (info->code) {
        case LINX_DT_FP64: {
            double d;
            memcpy(&d, p, sizeof(d));
            return d;
        }
        case LINX_DT_FP32: {
            float f;
            memcpy(&f, p, sizeof(f));
            return f;
        }
        case LINX_DT_FP16: {
            uint16_t h;
            memcpy(&h, p, sizeof(h));
            return linx_fp16_to_float(h);
        }
        case LINX_DT_BF16: {
            uint16_t b;
            memcpy(&b, p, sizeof(b));
            return linx_bf16_to_float(b);
        }
        default:
            return linx_e4m3_to_float(*(const uint8_t *)p);
        }
    }
    if (info->kind == LINX_DTK_UINT) {
        return (double)(uint64_t)linx_dtype_load_int(info, p);
    }
    return (double)linx_dtype_load_int(info, p);
}
