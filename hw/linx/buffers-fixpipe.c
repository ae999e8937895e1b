/*
 * Fixpipe: L0C -> GM with conversion, quantisation, ReLU, bias and
 * AtomicAdd (see buffers-fixpipe.h).
 */
#include "hw/linx/buffers-fixpipe.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/acc-convert.h"
#include "hw/linx/atomic-add.h"
#include "hw/linx/tile-dtype.h"

enum {
    FRAC = 16,
    MAX_N = 4095,
    MAX_M_ND = 8192,
    MAX_M_NZ = 65535,
    L0C_ALIGN = 64,
    L1_ALIGN = 32,
};

static const char *const rule_names[LINX_FP__END - LINX_FP_BAD_DIMS] = {
    "fixpipe-bad-dims",   "fixpipe-bad-dtype",   "fixpipe-bad-quant", "fixpipe-nz-cols",
    "fixpipe-dst-stride", "fixpipe-src-range",   "fixpipe-quant-range", "fixpipe-bias-range",
    "fixpipe-atomic-dtype", "fixpipe-gm-fault",
};

const char *linx_fp_rule_name(unsigned rule)
{
    if (rule == LINX_FP_OK) {
        return "ok";
    }
    return rule >= LINX_FP_BAD_DIMS && rule < LINX_FP__END ? rule_names[rule - LINX_FP_BAD_DIMS]
                                                           : "?";
}

#define FP_FAIL(b, rule, field, value, ...)                                                        \
    linx_engine_fail(&(b)->status, (rule), linx_fp_rule_name(rule), (field), (int64_t)(value),     \
                     "fixpipe: " __VA_ARGS__)

static uint64_t up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

bool linx_fixpipe(LinxBuffers *b, GuestMemory *gm, const LinxFixpipe *op)
{
    const LinxDTypeInfo *od = linx_dtype_info(op->out_dtype);
    uint64_t src_rows = op->src_rows ? op->src_rows : up(op->m, FRAC);
    uint64_t oes, c0 = 0, stride, lines, line_bytes, line_step, fa = 0;
    uint8_t *c, *quant = NULL, *bias = NULL, *host = NULL, *buf;

    linx_engine_status_ok(&b->status);
    if (op->quant > LINX_ACC_QUANT_VECTOR) {
        return FP_FAIL(b, LINX_FP_BAD_QUANT, "CTRL", op->quant, "quant mode %u is reserved",
                       op->quant);
    }
    if (!od || !linx_acc_convert_ok(op->acc_dtype, op->out_dtype, op->quant)) {
        return FP_FAIL(b, LINX_FP_BAD_DTYPE, "CTRL", op->out_dtype,
                       "%s ACC -> %s is not a conversion of quant mode %u",
                       linx_dtype_name(op->acc_dtype), linx_dtype_name(op->out_dtype), op->quant);
    }
    if (op->n < 1 || op->n > MAX_N) {
        return FP_FAIL(b, LINX_FP_BAD_DIMS, "N", op->n, "N %" PRIu64 " outside 1..%d", op->n,
                       MAX_N);
    }
    if (op->m < 1 || op->m > (op->nz ? MAX_M_NZ : MAX_M_ND)) {
        return FP_FAIL(b, LINX_FP_BAD_DIMS, "M", op->m, "M %" PRIu64 " outside 1..%d (%s)", op->m,
                       op->nz ? MAX_M_NZ : MAX_M_ND, op->nz ? "NZ" : "ND");
    }
    if (src_rows < op->m || src_rows % FRAC) {
        return FP_FAIL(b, LINX_FP_BAD_DIMS, "SRC_ROWS", src_rows,
                       "SRC_ROWS %" PRIu64 " is below M %" PRIu64 " or not a multiple of 16",
                       src_rows, op->m);
    }
    if (op->atomic && !tma_atomic_dtype_ok(op->out_dtype)) {
        return FP_FAIL(b, LINX_FP_ATOMIC_DTYPE, "CTRL", op->out_dtype,
                       "AtomicAdd of %s (seed 001 allows FP32, FP16, BF16, S32, S16, S8)",
                       linx_dtype_name(op->out_dtype));
    }
    oes = od->size;
    if (op->nz) {
        c0 = op->c0_8 ? 8 : oes == 1 ? 32 : FRAC;
        if (op->c0_8 && op->out_dtype != LINX_DT_FP32) {
            return FP_FAIL(b, LINX_FP_NZ_COLS, "CTRL", op->out_dtype,
                           "NZ c0 = 8 needs an FP32 output, not %s",
                           linx_dtype_name(op->out_dtype));
        }
        if (op->n % c0) {
            return FP_FAIL(b, LINX_FP_NZ_COLS, "N", op->n,
                           "NZ output: N %" PRIu64 " is not a multiple of c0 %" PRIu64, op->n,
                           c0);
        }
        stride = op->dst_stride ? op->dst_stride : up(op->m, FRAC) * c0;
        if (stride < op->m * c0) {
            return FP_FAIL(b, LINX_FP_DST_STRIDE, "DST_STRIDE", stride,
                           "NZ column blocks %" PRIu64 " elements apart overlap (M %" PRIu64
                           " x c0 %" PRIu64 ")", stride, op->m, c0);
        }
        lines = op->n / c0;
        line_bytes = op->m * c0 * oes;
    } else {
        stride = op->dst_stride ? op->dst_stride : op->n;
        if (stride < op->n) {
            return FP_FAIL(b, LINX_FP_DST_STRIDE, "DST_STRIDE", stride,
                           "ND rows %" PRIu64 " elements apart overlap (N %" PRIu64 ")", stride,
                           op->n);
        }
        lines = op->m;
        line_bytes = op->n * oes;
    }
    line_step = stride * oes;
    if (op->src % L0C_ALIGN ||
        linx_buffer_range(b, LINX_BUF_L0C, op->src, up(op->n, FRAC) * src_rows * 4, &c) !=
            LINX_BUF_OK) {
        return FP_FAIL(b, LINX_FP_SRC_RANGE, "SRC", op->src,
                       "L0C source 0x%" PRIx64 " (%" PRIu64 " x %" PRIu64
                       " NZ) is unaligned or past L0C (%u bytes)",
                       op->src, src_rows, up(op->n, FRAC), b->buf[LINX_BUF_L0C].size);
    }
    if (op->quant == LINX_ACC_QUANT_VECTOR &&
        (op->quant_addr % L1_ALIGN ||
         linx_buffer_range(b, LINX_BUF_L1, op->quant_addr, op->n * 8, &quant) != LINX_BUF_OK)) {
        return FP_FAIL(b, LINX_FP_QUANT_RANGE, "QUANT_ADDR", op->quant_addr,
                       "per-channel words at L1 0x%" PRIx64 " (%" PRIu64
                       " x 8 bytes) unaligned or past L1", op->quant_addr, op->n);
    }
    if (op->bias &&
        (op->bias_addr % L1_ALIGN ||
         linx_buffer_range(b, LINX_BUF_L1, op->bias_addr, op->n * 4, &bias) != LINX_BUF_OK)) {
        return FP_FAIL(b, LINX_FP_BIAS_RANGE, "BIAS_ADDR", op->bias_addr,
                       "bias at L1 0x%" PRIx64 " (%" PRIu64 " x 4 bytes) unaligned or past L1",
                       op->bias_addr, op->n);
    }
    /* The whole GM footprint, for writing (and reading: AtomicAdd). */
    if (!gm || op->dst > UINT64_MAX - lines * line_step ||
        (op->atomic && guest_mem_window(gm, op->dst, lines, line_bytes, line_step, GM_PROT_READ,
                                        &host, &fa) != GM_OK) ||
        guest_mem_window(gm, op->dst, lines, line_bytes, line_step, GM_PROT_WRITE, &host, &fa) !=
            GM_OK) {
        FP_FAIL(b, LINX_FP_GM_FAULT, "DST", op->dst,
                "GM destination fault at 0x%" PRIx64 " (DST 0x%" PRIx64 ", %" PRIu64
                " lines of %" PRIu64 " bytes, %" PRIu64 " apart)",
                fa ? fa : op->dst, op->dst, lines, line_bytes, line_step);
        b->status.gm_addr = fa ? fa : op->dst;
        return false;
    }
    buf = malloc(line_bytes);
    if (!buf) {
        return FP_FAIL(b, LINX_FP_GM_FAULT, "DST", op->dst, "out of host memory");
    }
    for (uint64_t l = 0; l < lines; l++) {
        uint64_t g = op->dst + l * line_step;

        if (op->atomic) {
            guest_mem_read(gm, g, buf, line_bytes, GM_PROT_READ, &fa);
        }
        for (uint64_t e = 0; e < line_bytes / oes; e++) {
            /* (i, j) of this line's element e. */
            uint64_t i = op->nz ? e / c0 : l, j = op->nz ? l * c0 + e % c0 : e;
            const uint8_t *x = c + ((j / FRAC) * src_rows * FRAC + i * FRAC + j % FRAC) * 4;
            uint8_t in[4], out[4];
            uint64_t word = op->quant == LINX_ACC_QUANT_VECTOR ? 0 : op->quant_word;

            memcpy(in, x, 4);
            if (bias) {
                if (op->acc_dtype == LINX_DT_S32) {
                    uint32_t v, w;
                    memcpy(&v, in, 4);
                    memcpy(&w, bias + j * 4, 4);
                    v += w;
                    memcpy(in, &v, 4);
                } else {
                    float v, w;
                    memcpy(&v, in, 4);
                    memcpy(&w, bias + j * 4, 4);
                    v += w;
                    memcpy(in, &v, 4);
                }
            }
            if (quant) {
                memcpy(&word, quant + j * 8, 8);
            }
            linx_acc_convert(op->acc_dtype, op->out_dtype, op->quant, word, op->relu, in, out);
            if (op->atomic) {
                tma_atomic_add_elem(buf + e * oes, out, op->out_dtype);
            } else {
                memcpy(buf + e * oes, out, oes);
            }
        }
        guest_mem_write(gm, g, buf, line_bytes, &fa); /* checked above */
    }
    free(buf);
    return true;
}

bool linx_fixpipe_go(LinxBuffers *b, const uint64_t *r)
{
    LinxFixpipe op;
    uint64_t ctrl = r[LINX_FP_REG_CTRL];

    memset(&op, 0, sizeof(op));
    op.src = r[LINX_FP_REG_SRC];
    op.dst = r[LINX_FP_REG_DST];
    op.m = r[LINX_FP_REG_M];
    op.n = r[LINX_FP_REG_N];
    op.src_rows = r[LINX_FP_REG_SRC_ROWS];
    op.dst_stride = r[LINX_FP_REG_DST_STRIDE];
    op.acc_dtype = (uint8_t)(ctrl & 0x1f);
    op.out_dtype = (uint8_t)((ctrl >> 8) & 0x1f);
    op.nz = (ctrl & LINX_FP_CTRL_NZ) != 0;
    op.quant = (uint8_t)((ctrl >> LINX_FP_CTRL_QUANT_SHIFT) & 3);
    op.relu = (ctrl & LINX_FP_CTRL_RELU) != 0;
    op.bias = (ctrl & LINX_FP_CTRL_BIAS) != 0;
    op.atomic = (ctrl & LINX_FP_CTRL_ATOMIC) != 0;
    op.c0_8 = (ctrl & LINX_FP_CTRL_C0_8) != 0;
    op.quant_word = r[LINX_FP_REG_QUANT];
    op.quant_addr = r[LINX_FP_REG_QUANT_ADDR];
    op.bias_addr = r[LINX_FP_REG_BIAS_ADDR];
    return linx_fixpipe(b, b->gm, &op);
}
