/*
 * ACC element conversion (see acc-convert.h).
 */
#include "hw/linx/acc-convert.h"

#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    Q8_PRE_MIN = -256,
    Q8_PRE_MAX = 255,
    BF16_MAX_BITS = 0x7f7f, /* the largest finite bf16, 0x1.fep127 */
};

#define FP16_MAX 65504.0f

bool linx_acc_convert_ok(unsigned acc_dt, unsigned out_dt, unsigned quant)
{
    if (acc_dt != LINX_DT_FP32 && acc_dt != LINX_DT_S32) {
        return false;
    }
    if (quant == LINX_ACC_QUANT_NONE) {
        return acc_dt == LINX_DT_FP32
                   ? out_dt == LINX_DT_FP32 || out_dt == LINX_DT_FP16 || out_dt == LINX_DT_BF16
                   : out_dt == LINX_DT_S32;
    }
    if (quant != LINX_ACC_QUANT_SCALAR && quant != LINX_ACC_QUANT_VECTOR) {
        return false;
    }
    switch (out_dt) {
    case LINX_DT_S8:
    case LINX_DT_U8:
    case LINX_DT_FP16:
        return true;
    case LINX_DT_BF16:
        return acc_dt == LINX_DT_FP32;
    default:
        return false;
    }
}

float linx_quant_scale(uint64_t word)
{
    uint32_t bits = (uint32_t)word & LINX_QUANT_SCALE_MASK;
    float scale;

    memcpy(&scale, &bits, 4);
    return scale;
}

uint32_t linx_quant_offset(uint64_t word)
{
    return (uint32_t)(word >> LINX_QUANT_OFFSET_SHIFT) & LINX_QUANT_OFFSET_MASK;
}

/* Round to nearest, ties to even, independent of the host rounding mode;
 * @x is already clamped to a small range (NaN counts as 0). */
static double rne(double x)
{
    int64_t i;
    double frac;

    if (x != x) {
        return 0.0;
    }
    i = (int64_t)x; /* toward zero */
    frac = x - (double)i;
    if (frac > 0.5 || (frac == 0.5 && (i & 1))) {
        i++;
    } else if (frac < -0.5 || (frac == -0.5 && (i & 1))) {
        i--;
    }
    return (double)i;
}

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static float clampf(float x, float lim)
{
    return x > lim ? lim : x < -lim ? -lim : x; /* NaN passes */
}

/* QF322B8_PRE / REQ8 on the fp32 product @t. */
static uint8_t quant8(float t, uint32_t offset, bool is_signed)
{
    /* Clamp before rounding (the result is clipped anyway), so the
     * integer conversion in rne() stays in range. */
    double v = clampd(rne(clampd((double)t, 2 * Q8_PRE_MIN, 2 * Q8_PRE_MAX)), Q8_PRE_MIN,
                      Q8_PRE_MAX) +
               (double)offset;

    v = is_signed ? clampd(v, INT8_MIN, INT8_MAX) : clampd(v, 0, UINT8_MAX);
    return (uint8_t)(int8_t)(int32_t)v;
}

void linx_acc_convert(unsigned acc_dt, unsigned out_dt, unsigned quant, uint64_t word, bool relu,
                      const uint8_t *in, uint8_t *out)
{
    float fv;
    int32_t iv;
    uint16_t h;

    memcpy(&fv, in, 4);
    memcpy(&iv, in, 4);
    if (quant != LINX_ACC_QUANT_NONE) {
        float t = (acc_dt == LINX_DT_S32 ? (float)iv : fv) * linx_quant_scale(word);

        switch (out_dt) {
        case LINX_DT_S8:
        case LINX_DT_U8:
            *out = quant8(t, linx_quant_offset(word), out_dt == LINX_DT_S8);
            if (relu && out_dt == LINX_DT_S8 && (int8_t)*out < 0) {
                *out = 0;
            }
            return;
        case LINX_DT_FP16:
            /* QF322F16_PRE saturates (pto-isa qf2f16_pre clips to the
             * half range); DEQF16 (S32 ACC) does not (its golden
             * multiplies in half: inf on overflow). */
            fv = acc_dt == LINX_DT_FP32 ? clampf(t, FP16_MAX) : t;
            break;
        default: { /* BF16 */
            uint32_t maxbits = (uint32_t)BF16_MAX_BITS << 16;
            float bmax;

            memcpy(&bmax, &maxbits, 4);
            fv = clampf(t, bmax);
            break;
        }
        }
    } else if (acc_dt == LINX_DT_S32) {
        if (relu && iv < 0) {
            iv = 0;
        }
        memcpy(out, &iv, 4);
        return;
    }
    if (relu && fv < 0.0f) {
        fv = 0.0f;
    }
    switch (out_dt) {
    case LINX_DT_FP16:
        h = linx_float_to_fp16(fv);
        memcpy(out, &h, 2);
        break;
    case LINX_DT_BF16:
        h = linx_float_to_bf16(fv);
        memcpy(out, &h, 2);
        break;
    default:
        memcpy(out, &fv, 4);
        break;
    }
}
