/*
 * LoadData 2D engine and its guest register page (see buffers-loaddata.h).
 */
#include "hw/linx/buffers-loaddata.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    MAX_START = 65535,
    MAX_REPEAT = 255,
    MAX_STRIDE = 65535,
    MAX_GAP = 65535,
    L1_SRC_ALIGN = 32,
    B16_SIDE = 16,        /* a b16 fractal is 16 x 16 */
    FAULT_VALUE_SHIFT = 32, /* FAULT register: rule | value << 32 */
};

/* Register page: register numbers (offset / 8) and CTRL bits. */
enum {
    REG_SRC = 0,
    REG_DST,
    REG_CTRL,
    REG_START,
    REG_REPEAT,
    REG_SRC_STRIDE,
    REG_DST_GAP,
    REG_GO,
    REG_FAULT,
};

enum {
    CTRL_FROM_L1 = 1 << 0,
    CTRL_TO_L0B = 1 << 1,
    CTRL_TRANSPOSE = 1 << 2,
    CTRL_ADDR_MODE = 1 << 3,
    CTRL_DTYPE_SHIFT = 8,
    REG_BYTES = 8,
};

static const char *const rule_names[LINX_LD__END - LINX_LD_BAD_PARAM] = {
    "loaddata-bad-param", "loaddata-bad-path",   "loaddata-bad-dtype",
    "loaddata-transpose", "loaddata-dst-align",  "loaddata-src-align",
    "loaddata-neg-index", "loaddata-src-range",  "loaddata-dst-range",
    "loaddata-gm-fault",
};

const char *linx_ld_rule_name(unsigned rule)
{
    if (rule == LINX_LD_OK) {
        return "ok";
    }
    if (rule < LINX_LD_BAD_PARAM || rule >= LINX_LD__END) {
        return "?";
    }
    return rule_names[rule - LINX_LD_BAD_PARAM];
}

/* Fill @f (rule and value) and the buffers' engine status (the report
 * line: "loaddata: <what> (<registers>)"). */
static bool ld_fail(LinxBuffers *b, const LinxLoadData2D *op, TmaFault *f, LinxLdRule rule,
                    uint64_t value, const char *field, const char *what, ...)
    __attribute__((format(printf, 7, 8)));

static bool ld_fail(LinxBuffers *b, const LinxLoadData2D *op, TmaFault *f, LinxLdRule rule,
                    uint64_t value, const char *field, const char *what, ...)
{
    char text[120];
    va_list ap;

    f->rule = (uint16_t)rule;
    f->value = value;
    va_start(ap, what);
    vsnprintf(text, sizeof(text), what, ap);
    va_end(ap);
    linx_engine_fail(&b->status, rule, linx_ld_rule_name(rule), field, (int64_t)value,
                     "loaddata: %s (START_INDEX %" PRIu64 ", SRC_STRIDE %" PRIu64
                     ", REPEAT %" PRIu64 ", ADDR_MODE %u, SRC 0x%" PRIx64 ", DST 0x%" PRIx64
                     ", CTRL from %s to %s%s, DataType %u)",
                     text, op->start_index, op->src_stride, op->repeat_times, op->addr_mode,
                     op->src, op->dst, op->from == LINX_LD_FROM_L1 ? "L1" : "GM",
                     op->to == LINX_BUF_L0B ? "L0B" : op->to == LINX_BUF_L0A ? "L0A" : "?",
                     op->transpose ? " transposed" : "", op->dtype);
    if (rule == LINX_LD_GM_FAULT) {
        b->status.gm_addr = value;
    }
    return false;
}

/* Element types LoadData moves (Ascend C: u8, s8, u16, s16, half, bf16,
 * u32, s32, float; int4 is not a tile-machine type). */
static bool ld_dtype_ok(unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_U8: case LINX_DT_S8: case LINX_DT_U16: case LINX_DT_S16:
    case LINX_DT_FP16: case LINX_DT_BF16: case LINX_DT_U32: case LINX_DT_S32:
    case LINX_DT_FP32:
        return true;
    default:
        return false;
    }
}

static void transpose_b16(uint8_t *dst, const uint8_t *src)
{
    for (unsigned a = 0; a < B16_SIDE; a++) {
        for (unsigned c = 0; c < B16_SIDE; c++) {
            memcpy(dst + (a * B16_SIDE + c) * 2, src + (c * B16_SIDE + a) * 2, 2);
        }
    }
}

bool linx_loaddata_2d(LinxBuffers *b, GuestMemory *gm, const LinxLoadData2D *op, TmaFault *f)
{
    const uint64_t frac = LINX_LD_FRACTAL_BYTES;
    uint64_t n = op->repeat_times, min_s, max_s, last_d, gap;
    uint8_t *dst, *src = NULL;
    uint64_t fa = 0;

    f->rule = LINX_LD_OK;
    /* Parameter ranges (LoadData2DParams). */
    if (op->start_index > MAX_START) {
        return ld_fail(b, op, f, LINX_LD_BAD_PARAM, op->start_index, "START_INDEX",
                       "start index %" PRIu64 " > %d", op->start_index, MAX_START);
    }
    if (op->repeat_times > MAX_REPEAT) {
        return ld_fail(b, op, f, LINX_LD_BAD_PARAM, op->repeat_times, "REPEAT_TIMES",
                       "repeat times %" PRIu64 " > %d", op->repeat_times, MAX_REPEAT);
    }
    if (op->src_stride > MAX_STRIDE) {
        return ld_fail(b, op, f, LINX_LD_BAD_PARAM, op->src_stride, "SRC_STRIDE",
                       "source stride %" PRIu64 " > %d", op->src_stride, MAX_STRIDE);
    }
    if (op->dst_gap > MAX_GAP) {
        return ld_fail(b, op, f, LINX_LD_BAD_PARAM, op->dst_gap, "DST_GAP",
                       "destination gap %" PRIu64 " > %d", op->dst_gap, MAX_GAP);
    }
    if (op->addr_mode > 1) {
        return ld_fail(b, op, f, LINX_LD_BAD_PARAM, op->addr_mode, "CTRL",
                       "address mode %u > 1", op->addr_mode);
    }
    /* Paths: GM or L1 -> L0A/L0B; the 950 has only L1 -> L0. */
    if ((op->to != LINX_BUF_L0A && op->to != LINX_BUF_L0B) || op->from > LINX_LD_FROM_L1) {
        return ld_fail(b, op, f, LINX_LD_BAD_PATH, op->to, "CTRL",
                       "destination %u is not L0A or L0B", op->to);
    }
    if (op->from == LINX_LD_FROM_GM && (b->profile == LINX_BUF_PROFILE_950 || !gm)) {
        return ld_fail(b, op, f, LINX_LD_BAD_PATH, op->from, "CTRL",
                       "GM source on the %s profile (L1 -> L0 only)",
                       linx_buffer_profile_name(b->profile));
    }
    if (!ld_dtype_ok(op->dtype)) {
        return ld_fail(b, op, f, LINX_LD_BAD_DTYPE, op->dtype, "CTRL",
                       "DataType %u (%s) is not one LoadData moves", op->dtype,
                       linx_dtype_name(op->dtype));
    }
    /* ifTranspose: b16 only, L1 -> L0 only (Ascend C only warns; the
     * emulator is strict, tile-semantics.md 2.5). */
    if (op->transpose && (linx_dtype_info(op->dtype)->size != 2 ||
                          op->from != LINX_LD_FROM_L1)) {
        return ld_fail(b, op, f, LINX_LD_TRANSPOSE, op->dtype, "CTRL",
                       "ifTranspose needs a 16-bit type from L1 (%s from %s)",
                       linx_dtype_name(op->dtype), op->from == LINX_LD_FROM_L1 ? "L1" : "GM");
    }
    if (op->dst % frac != 0) {
        return ld_fail(b, op, f, LINX_LD_DST_ALIGN, op->dst, "DST",
                       "destination offset 0x%" PRIx64 " is not 512-byte aligned", op->dst);
    }
    if (op->from == LINX_LD_FROM_L1 && op->src % L1_SRC_ALIGN != 0) {
        return ld_fail(b, op, f, LINX_LD_SRC_ALIGN, op->src, "SRC",
                       "L1 source offset 0x%" PRIx64 " is not 32-byte aligned", op->src);
    }
    if (n == 0) {
        return true; /* NOP */
    }
    if (op->addr_mode == 1) {
        if (op->start_index < (n - 1) * op->src_stride) {
            return ld_fail(b, op, f, LINX_LD_NEG_INDEX, op->start_index, "START_INDEX",
                           "start index %" PRId64 " < 0",
                           (int64_t)op->start_index - (int64_t)((n - 1) * op->src_stride));
        }
        min_s = op->start_index - (n - 1) * op->src_stride;
        max_s = op->start_index;
    } else {
        min_s = op->start_index;
        max_s = op->start_index + (n - 1) * op->src_stride;
    }
    gap = b->profile == LINX_BUF_PROFILE_950 ? 0 : op->dst_gap; /* no effect on 950 */
    last_d = (n - 1) * (gap + 1);
    if (linx_buffer_range(b, (LinxBufferId)op->to, op->dst, (last_d + 1) * frac, &dst) !=
        LINX_BUF_OK) {
        return ld_fail(b, op, f, LINX_LD_DST_RANGE, op->dst + (last_d + 1) * frac, "DST",
                       "destination slots end at 0x%" PRIx64 ", past %s (%u bytes)",
                       op->dst + (last_d + 1) * frac, b->buf[op->to].name, b->buf[op->to].size);
    }
    if (op->from == LINX_LD_FROM_L1) {
        if (op->src > UINT64_MAX - max_s * frac ||
            linx_buffer_range(b, LINX_BUF_L1, op->src + min_s * frac,
                              (max_s - min_s + 1) * frac, &src) != LINX_BUF_OK) {
            return ld_fail(b, op, f, LINX_LD_SRC_RANGE, op->src + (max_s + 1) * frac, "SRC",
                           "source fractals end at 0x%" PRIx64 ", past L1 (%u bytes)",
                           op->src + (max_s + 1) * frac, b->buf[LINX_BUF_L1].size);
        }
        src -= min_s * frac; /* src = the byte of fractal 0 */
    } else {
        /* The source fractals form a 2-D footprint: n rows of 512 bytes,
         * srcStride fractals apart; check it whole before copying. */
        uint8_t *host;
        uint64_t base = op->src + min_s * frac;
        GuestFault gf;

        if (op->src > UINT64_MAX - (max_s + 1) * frac) {
            return ld_fail(b, op, f, LINX_LD_GM_FAULT, op->src, "SRC",
                           "GM source 0x%" PRIx64 " wraps the address space", op->src);
        }
        gf = guest_mem_window(gm, base, n, frac, op->src_stride * frac, GM_PROT_READ, &host, &fa);
        if (gf != GM_OK) {
            return ld_fail(b, op, f, LINX_LD_GM_FAULT, fa, "SRC",
                           "GM source fault at 0x%" PRIx64, fa);
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = op->addr_mode ? op->start_index - i * op->src_stride
                                   : op->start_index + i * op->src_stride;
        uint8_t *d = dst + i * (gap + 1) * frac;
        uint8_t tmp[LINX_LD_FRACTAL_BYTES];

        if (op->from == LINX_LD_FROM_L1) {
            if (op->transpose) {
                transpose_b16(tmp, src + s * frac);
                memcpy(d, tmp, frac);
            } else {
                memmove(d, src + s * frac, frac);
            }
        } else if (guest_mem_read(gm, op->src + s * frac, d, frac, GM_PROT_READ, &fa) != GM_OK) {
            return ld_fail(b, op, f, LINX_LD_GM_FAULT, fa, "SRC",
                           "GM source fault at 0x%" PRIx64, fa); /* not reached */
        }
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Guest register page                                                 */
/* ------------------------------------------------------------------ */

static bool regs_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    LinxBuffers *b = opaque;
    unsigned r = (unsigned)(offset / REG_BYTES);

    if (size != REG_BYTES || offset % REG_BYTES || r >= LINX_BUFFERS_LD_NREGS) {
        return false;
    }
    *value = b->ld_reg[r];
    return true;
}

static bool regs_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    LinxBuffers *b = opaque;
    unsigned r = (unsigned)(offset / REG_BYTES);
    LinxLoadData2D op;
    TmaFault f;

    if (size != REG_BYTES || offset % REG_BYTES || r >= LINX_BUFFERS_LD_NREGS) {
        return false;
    }
    if (r != REG_GO) {
        b->ld_reg[r] = value;
        return true;
    }
    memset(&op, 0, sizeof(op));
    op.src = b->ld_reg[REG_SRC];
    op.dst = b->ld_reg[REG_DST];
    op.from = (b->ld_reg[REG_CTRL] & CTRL_FROM_L1) ? LINX_LD_FROM_L1 : LINX_LD_FROM_GM;
    op.to = (b->ld_reg[REG_CTRL] & CTRL_TO_L0B) ? LINX_BUF_L0B : LINX_BUF_L0A;
    op.transpose = (b->ld_reg[REG_CTRL] & CTRL_TRANSPOSE) != 0;
    op.addr_mode = (b->ld_reg[REG_CTRL] & CTRL_ADDR_MODE) ? 1 : 0;
    op.dtype = (uint8_t)((b->ld_reg[REG_CTRL] >> CTRL_DTYPE_SHIFT) & 0x1f);
    op.start_index = b->ld_reg[REG_START];
    op.repeat_times = b->ld_reg[REG_REPEAT];
    op.src_stride = b->ld_reg[REG_SRC_STRIDE];
    op.dst_gap = b->ld_reg[REG_DST_GAP];
    if (!linx_loaddata_2d(b, b->gm, &op, &f)) {
        b->ld_reg[REG_GO] = f.rule;
        /* FAULT: the address of a GM fault, else rule | value << 32. */
        b->ld_reg[REG_FAULT] = f.rule == LINX_LD_GM_FAULT
                                   ? f.value
                                   : (uint64_t)f.rule | f.value << FAULT_VALUE_SHIFT;
        b->status_addr = b->base + LINX_LD_REGS_OFFSET + offset;
        return false; /* the guest store faults; the report names the rule */
    }
    b->ld_reg[REG_GO] = LINX_LD_OK;
    return true;
}

static const GuestMMIOOps regs_ops = { regs_read, regs_write };

bool linx_loaddata_map_regs(LinxBuffers *b, GuestMemory *gm)
{
    return guest_mem_map_mmio(gm, b->base + LINX_LD_REGS_OFFSET, LINX_LD_REGS_LEN, &regs_ops, b);
}
