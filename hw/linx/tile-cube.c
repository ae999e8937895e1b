/*
 * The cube: TMATMUL / TMATMUL.ACC / ACCCVT reference semantics (see
 * tile-cube.h).
 */
#include "hw/linx/tile-cube.h"

#include <string.h>

#include "hw/linx/tile-cube-fast.h"
#include "hw/linx/tile-dtype.h"
#include "target/linx/cpu.h"

enum {
    MAX_DIM = 4095,
    ACC_ELEM_BYTES = 4,
    FRACTAL_ROWS = 16,
    BLOCK_BYTES = 32,
    TRAPARG_VALUE_SHIFT = 32,
    QUANT_SCALE_MASK = 0xffffe000u, /* fp19: sign, exponent, top 10 mantissa bits */
    QUANT_OFFSET_SHIFT = 37,
    QUANT_OFFSET_BITS = 9,
    Q8_PRE_MIN = -256,
    Q8_PRE_MAX = 255,
};

/* The rules' names and sentences (the report line, docs/tile.md "Cube"). */
static const struct {
    const char *name, *text;
} rules[LINX_CUBE__END - LINX_CUBE_BAD_FUNC] = {
    [LINX_CUBE_BAD_FUNC - LINX_CUBE_BAD_FUNC] = { "cube-bad-function",
                                                  "reserved BSTART.CUBE Function" },
    [LINX_CUBE_BAD_DTYPE - LINX_CUBE_BAD_FUNC] = { "cube-bad-dtype",
                                                   "type or conversion not supported" },
    [LINX_CUBE_BAD_DIMS - LINX_CUBE_BAD_FUNC] = {
        "cube-bad-dims", "m, n or k outside 1..4095, or m x n larger than the ACC" },
    [LINX_CUBE_OPERANDS - LINX_CUBE_BAD_FUNC] = {
        "cube-operands", "not two sources (TMATMUL), or a bad destination (ACCCVT)" },
    [LINX_CUBE_TILE_EMPTY - LINX_CUBE_BAD_FUNC] = { "cube-tile-empty",
                                                    "source tile was never written" },
    [LINX_CUBE_LEFT - LINX_CUBE_BAD_FUNC] = {
        "cube-left", "A is not an NZ tile of at least m x k of the input type" },
    [LINX_CUBE_RIGHT - LINX_CUBE_BAD_FUNC] = {
        "cube-right", "B is not a ZN tile of at least k x n of the input type" },
    [LINX_CUBE_CHAIN - LINX_CUBE_BAD_FUNC] = {
        "cube-acc-chain", "TMATMUL.ACC or ACCCVT without a matching ACC" },
    [LINX_CUBE_DST_SIZE - LINX_CUBE_BAD_FUNC] = {
        "cube-dst-size", "ACCCVT output does not fit the destination tile" },
    [LINX_CUBE_BAD_QUANT - LINX_CUBE_BAD_FUNC] = { "cube-bad-quant", "reserved quant mode" },
};

const char *linx_cube_rule_name(unsigned rule)
{
    if (rule == LINX_CUBE_OK) {
        return "ok";
    }
    if (rule < LINX_CUBE_BAD_FUNC || rule >= LINX_CUBE__END) {
        return "?";
    }
    return rules[rule - LINX_CUBE_BAD_FUNC].name;
}

const char *linx_cube_rule_text(unsigned rule)
{
    if (rule == LINX_CUBE_OK) {
        return "no fault";
    }
    if (rule < LINX_CUBE_BAD_FUNC || rule >= LINX_CUBE__END) {
        return "?";
    }
    return rules[rule - LINX_CUBE_BAD_FUNC].text;
}

static bool cube_fail(TmaFault *f, LinxCubeRule rule, uint64_t value)
{
    f->rule = (uint16_t)rule;
    f->trapnum = LINX_TRAP_ILLEGAL_INST;
    f->cause = LINX_CAUSE(rule == LINX_CUBE_BAD_FUNC ? LINX_EC_ILLEGAL : LINX_EC_PARAM, 0);
    f->traparg0 = (uint64_t)rule | value << TRAPARG_VALUE_SHIFT;
    return false;
}

static uint32_t round_up(uint32_t v, uint32_t to)
{
    return (v + to - 1) / to * to;
}

/* ACC type for an input type, or LINX_DT_NONE. */
static unsigned acc_type(unsigned in)
{
    switch (in) {
    case LINX_DT_S8:
        return LINX_DT_S32;
    case LINX_DT_FP16:
    case LINX_DT_BF16:
    case LINX_DT_FP32:
        return LINX_DT_FP32;
    default:
        return LINX_DT_NONE;
    }
}

/* Check a TMATMUL operand: written, @layout, type @dtype, >= rows x cols. */
static bool check_operand(const LinxTileSlot *s, unsigned layout, unsigned dtype, uint64_t rows,
                          uint64_t cols, LinxCubeRule rule, unsigned id, TmaFault *f)
{
    const LinxDTypeInfo *dt = linx_dtype_info(dtype);

    if (s->meta.bytes == 0) {
        return cube_fail(f, LINX_CUBE_TILE_EMPTY, id);
    }
    if (s->meta.layout != layout || (s->meta.dtype != LINX_DT_NONE && s->meta.dtype != dtype) ||
        s->meta.rows < rows || s->meta.cols < cols ||
        (uint64_t)s->meta.rows * s->meta.cols * dt->size > s->meta.bytes) {
        return cube_fail(f, rule, id);
    }
    return true;
}

static float load_real(unsigned dtype, const uint8_t *p)
{
    switch (dtype) {
    case LINX_DT_FP16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return linx_fp16_to_float(h);
    }
    case LINX_DT_BF16: {
        uint16_t b;
        memcpy(&b, p, 2);
        return linx_bf16_to_float(b);
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

static bool exec_matmul(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f)
{
    LinxAccState *acc = &ts->acc;
    unsigned at = acc_type(op->dtype);
    const LinxDTypeInfo *dt;
    const LinxTileSlot *a, *b;
    bool accumulate = op->func == LINX_CUBE_TMATMUL_ACC;

    if (at == LINX_DT_NONE) {
        return cube_fail(f, LINX_CUBE_BAD_DTYPE, op->dtype);
    }
    dt = linx_dtype_info(op->dtype);
    if (op->m < 1 || op->m > MAX_DIM || op->n < 1 || op->n > MAX_DIM || op->k < 1 ||
        op->k > MAX_DIM || op->m * op->n > LINX_ACC_MAX_ELEMS) {
        return cube_fail(f, LINX_CUBE_BAD_DIMS, op->m * op->n);
    }
    if (op->nsrc != 2) {
        return cube_fail(f, LINX_CUBE_OPERANDS, op->nsrc);
    }
    a = linx_tile_get(ts, op->src[0]);
    b = linx_tile_get(ts, op->src[1]);
    if (!check_operand(a, LINX_TL_NZ, op->dtype, op->m, op->k, LINX_CUBE_LEFT, op->src[0], f) ||
        !check_operand(b, LINX_TL_ZN, op->dtype, op->k, op->n, LINX_CUBE_RIGHT, op->src[1], f)) {
        return false;
    }
    if (accumulate && (!acc->valid || acc->m != op->m || acc->n != op->n || acc->dtype != at)) {
        return cube_fail(f, LINX_CUBE_CHAIN, acc->valid);
    }
    if (!op->reference && linx_cube_matmul_fast(a, b, op->dtype, (uint32_t)op->m,
                                                (uint32_t)op->n, (uint32_t)op->k, accumulate,
                                                acc->data)) {
        goto done; /* the same results, vectorised (docs/kernels.md "CUBE") */
    }
    for (uint32_t i = 0; i < op->m; i++) {
        for (uint32_t j = 0; j < op->n; j++) {
            uint8_t *out = acc->data + ((size_t)i * op->n + j) * ACC_ELEM_BYTES;

            if (at == LINX_DT_S32) {
                uint32_t s = 0, old;

                for (uint32_t kk = 0; kk < op->k; kk++) {
                    int8_t x = (int8_t)a->data[linx_tile_elem_offset(
                        LINX_TL_NZ, i, kk, a->meta.rows, a->meta.cols, 1)];
                    int8_t y = (int8_t)b->data[linx_tile_elem_offset(
                        LINX_TL_ZN, kk, j, b->meta.rows, b->meta.cols, 1)];
                    s += (uint32_t)((int32_t)x * (int32_t)y);
                }
                if (accumulate) {
                    memcpy(&old, out, 4);
                    s += old; /* wraps like int32 */
                }
                memcpy(out, &s, 4);
            } else {
                float s = 0.0f, old;

                for (uint32_t kk = 0; kk < op->k; kk++) {
                    size_t ao = linx_tile_elem_offset(LINX_TL_NZ, i, kk, a->meta.rows,
                                                      a->meta.cols, dt->size);
                    size_t bo = linx_tile_elem_offset(LINX_TL_ZN, kk, j, b->meta.rows,
                                                      b->meta.cols, dt->size);
                    float prod = load_real(op->dtype, a->data + ao * dt->size) *
                                 load_real(op->dtype, b->data + bo * dt->size);
                    s += prod;
                }
                if (accumulate) {
                    memcpy(&old, out, 4);
                    s = old + s;
                }
                memcpy(out, &s, 4);
            }
        }
    }
done:
    acc->m = (uint16_t)op->m;
    acc->n = (uint16_t)op->n;
    acc->dtype = (uint8_t)at;
    acc->valid = true;
    return true;
}

/* Round to nearest, ties to even, independent of the host rounding mode
 * (callers clamp @x to a small range first; NaN counts as 0). */
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

/* 8-bit quantisation (QF322B8_PRE / REQ8): the product is rounded to fp32
 * first, as the pto-isa golden (numpy float32) does, then ties-to-even. */
static uint8_t quant8(double x, uint64_t word, bool is_signed)
{
    uint32_t sbits = (uint32_t)word & QUANT_SCALE_MASK;
    int32_t off = (int32_t)((word >> QUANT_OFFSET_SHIFT) & ((1u << QUANT_OFFSET_BITS) - 1));
    float scale;
    double t;

    memcpy(&scale, &sbits, 4);
    if (off >= 1 << (QUANT_OFFSET_BITS - 1)) {
        off -= 1 << QUANT_OFFSET_BITS;
    }
    /* Clamp before rounding (the result is clipped anyway), so the
     * integer conversion in rne() stays in range. */
    t = clampd(rne(clampd((double)((float)x * scale), 2 * Q8_PRE_MIN, 2 * Q8_PRE_MAX)),
               Q8_PRE_MIN, Q8_PRE_MAX) + off;
    t = is_signed ? clampd(t, INT8_MIN, INT8_MAX) : clampd(t, 0, UINT8_MAX);
    return (uint8_t)(int8_t)(int32_t)t;
}

/* Convert one ACC element to the output type; false if not allowed. */
static bool convert(unsigned acc_dt, unsigned out, unsigned quant, uint64_t word,
                    const uint8_t *in, uint8_t *o)
{
    float fv;
    int32_t iv;
    uint32_t sbits = (uint32_t)word & QUANT_SCALE_MASK;
    float scale;

    memcpy(&fv, in, 4);
    memcpy(&iv, in, 4);
    memcpy(&scale, &sbits, 4);
    if (quant == LINX_CUBE_QUANT_NONE) {
        if (acc_dt == LINX_DT_FP32 && out == LINX_DT_FP32) {
            memcpy(o, &fv, 4);
        } else if (acc_dt == LINX_DT_FP32 && out == LINX_DT_FP16) {
            uint16_t h = linx_float_to_fp16(fv);
            memcpy(o, &h, 2);
        } else if (acc_dt == LINX_DT_FP32 && out == LINX_DT_BF16) {
            uint16_t h = linx_float_to_bf16(fv);
            memcpy(o, &h, 2);
        } else if (acc_dt == LINX_DT_S32 && out == LINX_DT_S32) {
            memcpy(o, &iv, 4);
        } else {
            return false;
        }
        return true;
    }
    if (out == LINX_DT_S8 || out == LINX_DT_U8) {
        *o = quant8(acc_dt == LINX_DT_FP32 ? (double)fv : (double)iv, word, out == LINX_DT_S8);
    } else if (acc_dt == LINX_DT_S32 && out == LINX_DT_FP16) {
        uint16_t h = linx_float_to_fp16((float)((double)iv * (double)scale));
        memcpy(o, &h, 2);
    } else {
        return false;
    }
    return true;
}

static bool exec_acccvt(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f)
{
    const LinxAccState *acc = &ts->acc;
    const LinxDTypeInfo *dt = linx_dtype_info(op->dtype);
    LinxTileSlot *dst;
    LinxTileMeta m;
    uint32_t c0, rows, cols;
    uint8_t probe[8];

    if (op->quant > LINX_CUBE_QUANT_SCALAR) {
        return cube_fail(f, LINX_CUBE_BAD_QUANT, op->quant);
    }
    if (op->dst_kind > LINX_HAND_N || op->nsrc != 0) {
        return cube_fail(f, LINX_CUBE_OPERANDS, op->dst_kind);
    }
    if (!acc->valid) {
        return cube_fail(f, LINX_CUBE_CHAIN, 0);
    }
    if (!dt || !convert(acc->dtype, op->dtype, op->quant, op->quant_word, acc->data, probe)) {
        return cube_fail(f, LINX_CUBE_BAD_DTYPE, op->dtype);
    }
    c0 = BLOCK_BYTES / dt->size;
    rows = round_up(acc->m, FRACTAL_ROWS);
    cols = round_up(acc->n, c0);
    if (op->dst_bytes < LINX_TILE_MIN_BYTES || op->dst_bytes > LINX_TILE_MAX_BYTES ||
        (uint64_t)rows * cols * dt->size > op->dst_bytes) {
        return cube_fail(f, LINX_CUBE_DST_SIZE, (uint64_t)rows * cols * dt->size);
    }
    dst = linx_tile_push_slot(ts, (LinxTileHand)op->dst_kind);
    memset(dst->data, 0, op->dst_bytes);
    for (uint32_t i = 0; i < acc->m; i++) {
        for (uint32_t j = 0; j < acc->n; j++) {
            size_t off = linx_tile_elem_offset(LINX_TL_NZ, i, j, rows, cols, dt->size);

            convert(acc->dtype, op->dtype, op->quant, op->quant_word,
                    acc->data + ((size_t)i * acc->n + j) * ACC_ELEM_BYTES,
                    dst->data + off * dt->size);
        }
    }
    memset(&m, 0, sizeof(m));
    m.bytes = op->dst_bytes;
    m.dtype = op->dtype;
    m.layout = LINX_TL_NZ;
    m.rows = (uint16_t)rows;
    m.cols = (uint16_t)cols;
    m.valid_rows = acc->m;
    m.valid_cols = acc->n;
    linx_tile_push_commit(ts, (LinxTileHand)op->dst_kind, &m);
    return true;
}

bool linx_cube_exec(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f)
{
    f->rule = LINX_CUBE_OK;
    switch (op->func) {
    case LINX_CUBE_TMATMUL:
    case LINX_CUBE_TMATMUL_ACC:
        return exec_matmul(ts, op, f);
    case LINX_CUBE_ACCCVT:
        return exec_acccvt(ts, op, f);
    default:
        return cube_fail(f, LINX_CUBE_BAD_FUNC, op->func);
    }
}
