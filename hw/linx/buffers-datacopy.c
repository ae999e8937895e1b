/*
 * DataCopy GM -> L1 (see buffers-datacopy.h).
 */
#include "hw/linx/buffers-datacopy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    BLOCK = 32,
    MAX_BLOCK_COUNT = 4095,
    MAX_BLOCK_LEN = 65535,
    MAX_GAP = 65535,
    MAX_ND_NUM = 4095,
    MAX_N = 16384,
    MAX_D = 65535,
    MAX_MATRIX_STRIDE = 65535,
    MAX_NZ_STRIDE = 16384,
};

static const char *const rule_names[LINX_DC__END - LINX_DC_BAD_PARAM] = {
    "datacopy-bad-param", "datacopy-bad-dtype", "datacopy-dst-align",
    "datacopy-src-stride", "datacopy-dst-range", "datacopy-gm-fault",
};

const char *linx_dc_rule_name(unsigned rule)
{
    if (rule == LINX_DC_OK) {
        return "ok";
    }
    return rule >= LINX_DC_BAD_PARAM && rule < LINX_DC__END ? rule_names[rule - LINX_DC_BAD_PARAM]
                                                             : "?";
}

#define DC_FAIL(b, rule, field, value, ...)                                                        \
    linx_engine_fail(&(b)->status, (rule), linx_dc_rule_name(rule), (field), (int64_t)(value),     \
                     "datacopy: " __VA_ARGS__)

static bool range(LinxBuffers *b, const char *field, uint64_t v, uint64_t lo, uint64_t hi)
{
    if (v < lo || v > hi) {
        return DC_FAIL(b, LINX_DC_BAD_PARAM, field, v, "%s %" PRIu64 " outside %" PRIu64
                       "..%" PRIu64, field, v, lo, hi);
    }
    return true;
}

static bool gm_fault(LinxBuffers *b, uint64_t fa, uint64_t src)
{
    DC_FAIL(b, LINX_DC_GM_FAULT, "SRC", src, "GM source fault at 0x%" PRIx64 " (SRC 0x%" PRIx64
            ")", fa, src);
    b->status.gm_addr = fa;
    return false;
}

static bool bursts(LinxBuffers *b, GuestMemory *gm, const LinxDataCopy *op)
{
    uint64_t src_step, dst_step, dst_end, fa = 0;
    uint8_t *l1, *host = NULL;

    if (!range(b, "BLOCK_COUNT", op->block_count, 1, MAX_BLOCK_COUNT) ||
        !range(b, "BLOCK_LEN", op->block_len, 1, MAX_BLOCK_LEN) ||
        !range(b, "SRC_GAP", op->src_gap, 0, MAX_GAP) ||
        !range(b, "DST_GAP", op->dst_gap, 0, MAX_GAP)) {
        return false;
    }
    if (op->dst % BLOCK) {
        return DC_FAIL(b, LINX_DC_DST_ALIGN, "DST", op->dst,
                       "L1 destination 0x%" PRIx64 " is not 32-byte aligned", op->dst);
    }
    src_step = (op->block_len + op->src_gap) * BLOCK;
    dst_step = (op->block_len + op->dst_gap) * BLOCK;
    dst_end = op->dst + (op->block_count - 1) * dst_step + op->block_len * BLOCK;
    if (linx_buffer_range(b, LINX_BUF_L1, op->dst, dst_end - op->dst, &l1) != LINX_BUF_OK) {
        return DC_FAIL(b, LINX_DC_DST_RANGE, "DST", op->dst,
                       "destination ends at 0x%" PRIx64 ", past L1 (%u bytes; BLOCK_COUNT %"
                       PRIu64 ", BLOCK_LEN %" PRIu64 ", DST_GAP %" PRIu64 ")",
                       dst_end, b->buf[LINX_BUF_L1].size, op->block_count, op->block_len,
                       op->dst_gap);
    }
    if (op->src > UINT64_MAX - op->block_count * src_step ||
        guest_mem_window(gm, op->src, op->block_count, op->block_len * BLOCK, src_step,
                         GM_PROT_READ, &host, &fa) != GM_OK) {
        return gm_fault(b, fa ? fa : op->src, op->src);
    }
    for (uint64_t i = 0; i < op->block_count; i++) {
        if (guest_mem_read(gm, op->src + i * src_step, l1 + i * dst_step, op->block_len * BLOCK,
                           GM_PROT_READ, &fa) != GM_OK) {
            return gm_fault(b, fa, op->src); /* not reached: checked above */
        }
    }
    return true;
}

static bool nd2nz(LinxBuffers *b, GuestMemory *gm, const LinxDataCopy *op)
{
    const LinxDTypeInfo *dt = linx_dtype_info(op->dtype);
    uint64_t es, c0, row_bytes, last, fa = 0;
    uint8_t *l1, *host = NULL, *row;

    if (!dt || dt->size > 4) {
        return DC_FAIL(b, LINX_DC_BAD_DTYPE, "CTRL", op->dtype,
                       "DataType %u (%s) is not an 8-, 16- or 32-bit type", op->dtype,
                       linx_dtype_name(op->dtype));
    }
    if (!range(b, "ND_NUM", op->nd_num, 0, MAX_ND_NUM) ||
        !range(b, "N_VALUE", op->n_value, 0, MAX_N) ||
        !range(b, "D_VALUE", op->d_value, 0, MAX_D) ||
        !range(b, "SRC_ND_MATRIX_STRIDE", op->src_nd_matrix_stride, 0, MAX_MATRIX_STRIDE) ||
        !range(b, "SRC_D_VALUE", op->src_d_value, 1, MAX_D) ||
        !range(b, "DST_NZ_C0_STRIDE", op->dst_nz_c0_stride, 1, MAX_NZ_STRIDE) ||
        !range(b, "DST_NZ_N_STRIDE", op->dst_nz_n_stride, 1, MAX_NZ_STRIDE) ||
        !range(b, "DST_NZ_MATRIX_STRIDE", op->dst_nz_matrix_stride, 1, MAX_MATRIX_STRIDE)) {
        return false;
    }
    if (op->dst % BLOCK) {
        return DC_FAIL(b, LINX_DC_DST_ALIGN, "DST", op->dst,
                       "L1 destination 0x%" PRIx64 " is not 32-byte aligned", op->dst);
    }
    if (op->src_d_value < op->d_value) {
        return DC_FAIL(b, LINX_DC_SRC_STRIDE, "SRC_D_VALUE", op->src_d_value,
                       "source row stride %" PRIu64 " < D_VALUE %" PRIu64, op->src_d_value,
                       op->d_value);
    }
    if (op->nd_num == 0 || op->n_value == 0 || op->d_value == 0) {
        return true; /* nothing to move */
    }
    es = dt->size;
    c0 = BLOCK / es;
    /* The last byte written: matrix nd_num - 1, row n - 1, the last C0
     * block of columns (written whole). */
    last = ((op->nd_num - 1) * op->dst_nz_matrix_stride +
            ((op->d_value - 1) / c0) * op->dst_nz_c0_stride * c0 +
            (op->n_value - 1) * op->dst_nz_n_stride * c0 + c0) * es;
    if (linx_buffer_range(b, LINX_BUF_L1, op->dst, last, &l1) != LINX_BUF_OK) {
        return DC_FAIL(b, LINX_DC_DST_RANGE, "DST", op->dst,
                       "NZ destination ends at 0x%" PRIx64 ", past L1 (%u bytes; N_VALUE %"
                       PRIu64 ", D_VALUE %" PRIu64 ", DST_NZ_C0_STRIDE %" PRIu64 ")",
                       op->dst + last, b->buf[LINX_BUF_L1].size, op->n_value, op->d_value,
                       op->dst_nz_c0_stride);
    }
    /* The GM source: every matrix's rows, checked before any byte moves. */
    row_bytes = op->d_value * es;
    for (uint64_t i = 0; i < op->nd_num; i++) {
        uint64_t base = op->src + i * op->src_nd_matrix_stride * es;

        if (guest_mem_window(gm, base, op->n_value, row_bytes, op->src_d_value * es,
                             GM_PROT_READ, &host, &fa) != GM_OK) {
            return gm_fault(b, fa, op->src);
        }
    }
    row = malloc(row_bytes);
    if (!row) {
        return DC_FAIL(b, LINX_DC_BAD_PARAM, "D_VALUE", op->d_value, "out of host memory");
    }
    for (uint64_t i = 0; i < op->nd_num; i++) {
        for (uint64_t r = 0; r < op->n_value; r++) {
            uint64_t g = op->src + (i * op->src_nd_matrix_stride + r * op->src_d_value) * es;

            if (guest_mem_read(gm, g, row, row_bytes, GM_PROT_READ, &fa) != GM_OK) {
                free(row);
                return gm_fault(b, fa, op->src); /* not reached: checked above */
            }
            for (uint64_t c = 0; c < op->d_value; c += c0) {
                uint64_t n = op->d_value - c < c0 ? op->d_value - c : c0;
                uint8_t *d = l1 + (i * op->dst_nz_matrix_stride + (c / c0) * op->dst_nz_c0_stride *
                                   c0 + r * op->dst_nz_n_stride * c0) * es;

                memcpy(d, row + c * es, n * es);
                memset(d + n * es, 0, (c0 - n) * es); /* the partial block's tail */
            }
        }
    }
    free(row);
    return true;
}

bool linx_datacopy(LinxBuffers *b, GuestMemory *gm, const LinxDataCopy *op)
{
    linx_engine_status_ok(&b->status);
    if (!gm) {
        return DC_FAIL(b, LINX_DC_GM_FAULT, "SRC", op->src, "no guest memory");
    }
    return op->nd2nz ? nd2nz(b, gm, op) : bursts(b, gm, op);
}

bool linx_datacopy_go(LinxBuffers *b, const uint64_t *r)
{
    LinxDataCopy op;

    memset(&op, 0, sizeof(op));
    op.src = r[LINX_DC_REG_SRC];
    op.dst = r[LINX_DC_REG_DST];
    op.nd2nz = r[LINX_DC_REG_CTRL] & 1;
    op.dtype = (uint8_t)((r[LINX_DC_REG_CTRL] >> 8) & 0x1f);
    if (op.nd2nz) {
        op.n_value = r[LINX_DC_REG_N];
        op.d_value = r[LINX_DC_REG_D];
        op.src_d_value = r[LINX_DC_REG_SRC_D];
        op.dst_nz_c0_stride = r[LINX_DC_REG_C0_STRIDE];
        op.nd_num = r[LINX_DC_REG_ND_NUM];
        op.src_nd_matrix_stride = r[LINX_DC_REG_SRC_MATRIX];
        op.dst_nz_matrix_stride = r[LINX_DC_REG_DST_MATRIX];
        op.dst_nz_n_stride = r[LINX_DC_REG_N_STRIDE];
    } else {
        op.block_count = r[LINX_DC_REG_N];
        op.block_len = r[LINX_DC_REG_D];
        op.src_gap = r[LINX_DC_REG_SRC_D];
        op.dst_gap = r[LINX_DC_REG_C0_STRIDE];
    }
    return linx_datacopy(b, b->gm, &op);
}
