/*
 * Mmad: L0A x L0B -> L0C (see buffers-mmad.h).
 */
#include "hw/linx/buffers-mmad.h"

#include <inttypes.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum { MAX_DIM = 4095, FRAC = 16, BLOCK = 32, AB_ALIGN = 512, C_ALIGN = 64 };

static const char *const rule_names[LINX_MM__END - LINX_MM_BAD_DIMS] = {
    "mmad-bad-dims", "mmad-bad-dtype", "mmad-align", "mmad-a-range", "mmad-b-range",
    "mmad-c-range",
};

const char *linx_mm_rule_name(unsigned rule)
{
    if (rule == LINX_MM_OK) {
        return "ok";
    }
    return rule >= LINX_MM_BAD_DIMS && rule < LINX_MM__END ? rule_names[rule - LINX_MM_BAD_DIMS]
                                                           : "?";
}

#define MM_FAIL(b, rule, field, value, ...)                                                        \
    linx_engine_fail(&(b)->status, (rule), linx_mm_rule_name(rule), (field), (int64_t)(value),     \
                     "mmad: " __VA_ARGS__)

static uint64_t up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

static float real(unsigned dtype, const uint8_t *p)
{
    uint16_t h;
    float f;

    switch (dtype) {
    case LINX_DT_FP16:
        memcpy(&h, p, 2);
        return linx_fp16_to_float(h);
    case LINX_DT_BF16:
        memcpy(&h, p, 2);
        return linx_bf16_to_float(h);
    case LINX_DT_FP8:
        return linx_e4m3_to_float(*p);
    default:
        memcpy(&f, p, 4);
        return f;
    }
}

bool linx_mmad(LinxBuffers *b, const LinxMmad *op)
{
    const LinxDTypeInfo *dt = linx_dtype_info(op->dtype);
    bool integer = op->dtype == LINX_DT_S8;
    uint64_t es, c0, mp, np, kp, a_bytes, b_bytes, c_bytes;
    uint8_t *a, *bm, *c;
    bool zz = b->profile != LINX_BUF_PROFILE_950;

    linx_engine_status_ok(&b->status);
    if (!integer && op->dtype != LINX_DT_FP16 && op->dtype != LINX_DT_BF16 &&
        op->dtype != LINX_DT_FP32 && op->dtype != LINX_DT_FP8) {
        return MM_FAIL(b, LINX_MM_BAD_DTYPE, "CTRL", op->dtype,
                       "DataType %u (%s) is not S8, FP16, BF16, FP32 or FP8", op->dtype,
                       linx_dtype_name(op->dtype));
    }
    if (op->m < 1 || op->m > MAX_DIM) {
        return MM_FAIL(b, LINX_MM_BAD_DIMS, "M", op->m, "m %" PRIu64 " outside 1..%d", op->m,
                       MAX_DIM);
    }
    if (op->n < 1 || op->n > MAX_DIM) {
        return MM_FAIL(b, LINX_MM_BAD_DIMS, "N", op->n, "n %" PRIu64 " outside 1..%d", op->n,
                       MAX_DIM);
    }
    if (op->k < 1 || op->k > MAX_DIM) {
        return MM_FAIL(b, LINX_MM_BAD_DIMS, "K", op->k, "k %" PRIu64 " outside 1..%d", op->k,
                       MAX_DIM);
    }
    if (op->a % AB_ALIGN || op->b % AB_ALIGN || op->c % C_ALIGN) {
        const char *f = op->a % AB_ALIGN ? "A" : op->b % AB_ALIGN ? "B" : "C";
        uint64_t v = op->a % AB_ALIGN ? op->a : op->b % AB_ALIGN ? op->b : op->c;

        return MM_FAIL(b, LINX_MM_ALIGN, f, v, "%s offset 0x%" PRIx64 " is not %d-byte aligned",
                       f, v, *f == 'C' ? C_ALIGN : AB_ALIGN);
    }
    es = dt->size;
    c0 = BLOCK / es;
    mp = up(op->m, FRAC);
    np = up(op->n, FRAC);
    kp = up(op->k, c0);
    a_bytes = mp * kp * es;
    b_bytes = kp * np * es;
    c_bytes = mp * np * 4;
    if (linx_buffer_range(b, LINX_BUF_L0A, op->a, a_bytes, &a) != LINX_BUF_OK) {
        return MM_FAIL(b, LINX_MM_A_RANGE, "A", op->a,
                       "A (%" PRIu64 " x %" PRIu64 " fractal-padded, %" PRIu64
                       " bytes at 0x%" PRIx64 ") is past L0A (%u bytes)",
                       mp, kp, a_bytes, op->a, b->buf[LINX_BUF_L0A].size);
    }
    if (linx_buffer_range(b, LINX_BUF_L0B, op->b, b_bytes, &bm) != LINX_BUF_OK) {
        return MM_FAIL(b, LINX_MM_B_RANGE, "B", op->b,
                       "B (%" PRIu64 " x %" PRIu64 ", %" PRIu64 " bytes at 0x%" PRIx64
                       ") is past L0B (%u bytes)",
                       kp, np, b_bytes, op->b, b->buf[LINX_BUF_L0B].size);
    }
    if (linx_buffer_range(b, LINX_BUF_L0C, op->c, c_bytes, &c) != LINX_BUF_OK) {
        return MM_FAIL(b, LINX_MM_C_RANGE, "C", op->c,
                       "C (%" PRIu64 " x %" PRIu64 ", %" PRIu64 " bytes at 0x%" PRIx64
                       ") is past L0C (%u bytes)",
                       mp, np, c_bytes, op->c, b->buf[LINX_BUF_L0C].size);
    }
    for (uint64_t i = 0; i < op->m; i++) {
        for (uint64_t j = 0; j < op->n; j++) {
            uint8_t *out = c + ((j / FRAC) * mp * FRAC + i * FRAC + j % FRAC) * 4;
            uint32_t si = 0;
            float sf = 0.0f;

            for (uint64_t kk = 0; kk < op->k; kk++) {
                uint64_t ao = zz ? (i / FRAC) * kp * FRAC + (kk / c0) * FRAC * c0 +
                                       (i % FRAC) * c0 + kk % c0
                                 : (kk / c0) * mp * c0 + i * c0 + kk % c0;
                uint64_t bo = (kk / c0) * np * c0 + j * c0 + kk % c0;

                if (integer) {
                    si += (uint32_t)((int32_t)(int8_t)a[ao] * (int32_t)(int8_t)bm[bo]);
                } else {
                    float p = real(op->dtype, a + ao * es) * real(op->dtype, bm + bo * es);
                    sf += p;
                }
            }
            if (integer) {
                uint32_t old = 0;
                if (op->accumulate) {
                    memcpy(&old, out, 4);
                }
                si += old;
                memcpy(out, &si, 4);
            } else {
                float old = 0.0f;
                if (op->accumulate) {
                    memcpy(&old, out, 4);
                    sf = old + sf;
                }
                memcpy(out, &sf, 4);
            }
        }
    }
    return true;
}

bool linx_mmad_go(LinxBuffers *b, const uint64_t *r)
{
    LinxMmad op;

    memset(&op, 0, sizeof(op));
    op.a = r[LINX_MM_REG_A];
    op.b = r[LINX_MM_REG_B];
    op.c = r[LINX_MM_REG_C];
    op.m = r[LINX_MM_REG_M];
    op.n = r[LINX_MM_REG_N];
    op.k = r[LINX_MM_REG_K];
    op.dtype = (uint8_t)(r[LINX_MM_REG_CTRL] & 0x1f);
    op.accumulate = (r[LINX_MM_REG_CTRL] >> 8) & 1;
    return linx_mmad(b, &op);
}
