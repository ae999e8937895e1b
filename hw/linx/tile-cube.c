/*
 * The cube: TMATMUL / TMATMUL.ACC / ACCCVT reference semantics (see
 * tile-cube.h).
 */
#include "hw/linx/tile-cube.h"

#include <string.h>

#include "hw/linx/acc-convert.h"
#include "hw/linx/tile-cube-fast.h"
#include "hw/linx/tile-dtype.h"

enum {
    MAX_DIM = 4095,
    ACC_ELEM_BYTES = 4,
    FRACTAL_ROWS = 16,
    BLOCK_BYTES = 32,
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
        "cube-operands",
        "not two sources (TMATMUL, .ACC) or three (.BIAS), or a bad destination (ACCCVT)" },
    [LINX_CUBE_TILE_EMPTY - LINX_CUBE_BAD_FUNC] = { "cube-tile-empty",
                                                    "source tile was never written" },
    [LINX_CUBE_LEFT - LINX_CUBE_BAD_FUNC] = {
        "cube-left", "A (SrcTile0) is not an NZ tile of at least m x k or an ND tile "
                     "holding m x k elements, of the input type" },
    [LINX_CUBE_RIGHT - LINX_CUBE_BAD_FUNC] = {
        "cube-right", "B (SrcTile1) is not a ZN tile of at least k x n (an ND tile holding "
                      "k x n elements when A is ND), of the input type" },
    [LINX_CUBE_CHAIN - LINX_CUBE_BAD_FUNC] = {
        "cube-acc-chain",
        "TMATMUL.ACC or ACCCVT without a matching ACC (same m x n, type and layout)" },
    [LINX_CUBE_DST_SIZE - LINX_CUBE_BAD_FUNC] = {
        "cube-dst-size", "ACCCVT output does not fit its destination tile" },
    [LINX_CUBE_BAD_QUANT - LINX_CUBE_BAD_FUNC] = { "cube-bad-quant", "reserved quant mode" },
    [LINX_CUBE_BIAS - LINX_CUBE_BAD_FUNC] = {
        "cube-bias", "the bias (third source) is not an ND row of at least n elements of the "
                     "ACC type" },
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
    f->value = value;
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
    case LINX_DT_S32:
        return LINX_DT_S32;
    case LINX_DT_FP16:
    case LINX_DT_BF16:
    case LINX_DT_FP32:
    case LINX_DT_FP8:
        return LINX_DT_FP32;
    default:
        return LINX_DT_NONE;
    }
}

/* Check a TMATMUL operand: written, of @dtype, and either of the fractal
 * @layout with a recorded shape >= rows x cols, or an ND tile holding
 * rows x cols elements; @family: LINX_TL_NONE for either (A), else the one
 * A chose (B).  *dense says which it is. */
static bool check_operand(const LinxTileSlot *s, unsigned layout, unsigned family,
                          unsigned dtype, uint64_t rows, uint64_t cols, LinxCubeRule rule,
                          unsigned id, bool *dense, TmaFault *f)
{
    const LinxDTypeInfo *dt = linx_dtype_info(dtype);

    if (s->meta.bytes == 0) {
        return cube_fail(f, LINX_CUBE_TILE_EMPTY, id);
    }
    if (s->meta.dtype != LINX_DT_NONE && s->meta.dtype != dtype) {
        return cube_fail(f, rule, id);
    }
    if (family != LINX_TL_NONE && (s->meta.layout == LINX_TL_ND) != (family == LINX_TL_ND)) {
        return cube_fail(f, rule, id); /* A and B of different families */
    }
    if (s->meta.layout == LINX_TL_ND) {
        *dense = true;
        if (rows * cols * dt->size > s->meta.bytes) {
            return cube_fail(f, rule, id);
        }
        return true;
    }
    *dense = false;
    if (s->meta.layout != layout || s->meta.rows < rows || s->meta.cols < cols ||
        (uint64_t)s->meta.rows * s->meta.cols * dt->size > s->meta.bytes) {
        return cube_fail(f, rule, id);
    }
    return true;
}

static float load_real(unsigned dtype, const uint8_t *p)
{
    uint16_t h;
    float v;

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
        memcpy(&v, p, 4);
        return v;
    }
}

static uint32_t load_int(unsigned dtype, const uint8_t *p)
{
    uint32_t v;

    if (dtype == LINX_DT_S8) {
        return (uint32_t)(int32_t)(int8_t)*p;
    }
    memcpy(&v, p, 4);
    return v;
}

/* Element offset of A(i, k') / B(k', j) in its tile. */
static size_t operand_offset(const LinxTileSlot *s, bool dense, unsigned layout, uint32_t r,
                             uint32_t c, uint32_t dense_cols, unsigned esize)
{
    if (dense) {
        return (size_t)r * dense_cols + c;
    }
    return linx_tile_elem_offset(layout, r, c, s->meta.rows, s->meta.cols, esize);
}

/* The bias of TMATMUL.BIAS: an ND (or untracked) tile holding >= n ACC-type
 * elements in its first row. */
static bool check_bias(const LinxTileSlot *s, unsigned at, uint64_t n, unsigned id, TmaFault *f)
{
    if (s->meta.bytes == 0) {
        return cube_fail(f, LINX_CUBE_TILE_EMPTY, id);
    }
    if ((s->meta.dtype != LINX_DT_NONE && s->meta.dtype != at) ||
        (s->meta.layout != LINX_TL_ND && s->meta.layout != LINX_TL_NONE) ||
        n * ACC_ELEM_BYTES > s->meta.bytes) {
        return cube_fail(f, LINX_CUBE_BIAS, id);
    }
    return true;
}

static void reference_matmul(const LinxTileSlot *a, const LinxTileSlot *b, bool dense,
                             const LinxCubeOp *op, unsigned at, bool accumulate, uint8_t *acc)
{
    const LinxDTypeInfo *dt = linx_dtype_info(op->dtype);
    uint32_t m = (uint32_t)op->m, n = (uint32_t)op->n, k = (uint32_t)op->k;

    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            uint8_t *out = acc + ((size_t)i * n + j) * ACC_ELEM_BYTES;

            if (at == LINX_DT_S32) {
                uint32_t s = 0, old;

                for (uint32_t kk = 0; kk < k; kk++) {
                    size_t ao = operand_offset(a, dense, LINX_TL_NZ, i, kk, k, dt->size);
                    size_t bo = operand_offset(b, dense, LINX_TL_ZN, kk, j, n, dt->size);

                    /* The low 32 bits of the product, summed modulo 2^32. */
                    s += load_int(op->dtype, a->data + ao * dt->size) *
                         load_int(op->dtype, b->data + bo * dt->size);
                }
                if (accumulate) {
                    memcpy(&old, out, 4);
                    s += old;
                }
                memcpy(out, &s, 4);
            } else {
                float s = 0.0f, old;

                for (uint32_t kk = 0; kk < k; kk++) {
                    size_t ao = operand_offset(a, dense, LINX_TL_NZ, i, kk, k, dt->size);
                    size_t bo = operand_offset(b, dense, LINX_TL_ZN, kk, j, n, dt->size);
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
}

/* ACC(i, j) += bias(j) in the ACC type (fp32 rounding, int32 wrapping). */
static void add_bias(uint8_t *acc, const uint8_t *bias, unsigned at, uint32_t m, uint32_t n)
{
    for (uint32_t i = 0; i < m; i++) {
        for (uint32_t j = 0; j < n; j++) {
            uint8_t *o = acc + ((size_t)i * n + j) * ACC_ELEM_BYTES;

            if (at == LINX_DT_S32) {
                uint32_t x, y;
                memcpy(&x, o, 4);
                memcpy(&y, bias + (size_t)j * 4, 4);
                x += y;
                memcpy(o, &x, 4);
            } else {
                float x, y;
                memcpy(&x, o, 4);
                memcpy(&y, bias + (size_t)j * 4, 4);
                x += y;
                memcpy(o, &x, 4);
            }
        }
    }
}

static bool exec_matmul(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f)
{
    LinxAccState *acc = &ts->acc;
    unsigned at = acc_type(op->dtype);
    const LinxTileSlot *a, *b, *bias = NULL;
    bool accumulate = op->func == LINX_CUBE_TMATMUL_ACC;
    bool with_bias = op->func == LINX_CUBE_TMATMUL_BIAS;
    bool dense_a, dense_b;

    if (at == LINX_DT_NONE) {
        return cube_fail(f, LINX_CUBE_BAD_DTYPE, op->dtype);
    }
    if (op->m < 1 || op->m > MAX_DIM || op->n < 1 || op->n > MAX_DIM || op->k < 1 ||
        op->k > MAX_DIM || op->m * op->n > LINX_ACC_MAX_ELEMS) {
        return cube_fail(f, LINX_CUBE_BAD_DIMS, op->m * op->n);
    }
    if (op->nsrc != (with_bias ? 3 : 2)) {
        return cube_fail(f, LINX_CUBE_OPERANDS, op->nsrc);
    }
    a = linx_tile_get(ts, op->src[0]);
    b = linx_tile_get(ts, op->src[1]);
    if (!check_operand(a, LINX_TL_NZ, LINX_TL_NONE, op->dtype, op->m, op->k, LINX_CUBE_LEFT,
                       op->src[0], &dense_a, f) ||
        !check_operand(b, LINX_TL_ZN, dense_a ? LINX_TL_ND : LINX_TL_NZ, op->dtype, op->k, op->n,
                       LINX_CUBE_RIGHT, op->src[1], &dense_b, f)) {
        return false;
    }
    if (with_bias) {
        bias = linx_tile_get(ts, op->src[2]);
        if (!check_bias(bias, at, op->n, op->src[2], f)) {
            return false;
        }
    }
    if (accumulate &&
        (!acc->valid || acc->m != op->m || acc->n != op->n || acc->dtype != at ||
         acc->layout != (dense_a ? LINX_TL_ND : LINX_TL_NZ))) {
        return cube_fail(f, LINX_CUBE_CHAIN, acc->valid);
    }
    /* The same results vectorised (docs/kernels.md "CUBE"), or the loops. */
    if (op->reference ||
        !linx_cube_matmul_fast(a, b, op->dtype, dense_a, (uint32_t)op->m, (uint32_t)op->n,
                               (uint32_t)op->k, accumulate, acc->data)) {
        reference_matmul(a, b, dense_a, op, at, accumulate, acc->data);
    }
    if (bias) {
        add_bias(acc->data, bias->data, at, (uint32_t)op->m, (uint32_t)op->n);
    }
    acc->m = (uint16_t)op->m;
    acc->n = (uint16_t)op->n;
    acc->dtype = (uint8_t)at;
    acc->layout = dense_a ? LINX_TL_ND : LINX_TL_NZ;
    acc->valid = true;
    return true;
}

static bool exec_acccvt(LinxTileState *ts, const LinxCubeOp *op, TmaFault *f)
{
    const LinxAccState *acc = &ts->acc;
    const LinxDTypeInfo *dt = linx_dtype_info(op->dtype);
    bool nd = acc->layout == LINX_TL_ND;
    LinxTileSlot *dst;
    LinxTileMeta m;
    uint32_t rows, cols;

    if (op->quant > LINX_CUBE_QUANT_SCALAR) {
        return cube_fail(f, LINX_CUBE_BAD_QUANT, op->quant);
    }
    if (op->dst_kind > LINX_HAND_N || op->nsrc != 0) {
        return cube_fail(f, LINX_CUBE_OPERANDS, op->dst_kind);
    }
    if (!acc->valid) {
        return cube_fail(f, LINX_CUBE_CHAIN, 0);
    }
    if (!dt || !linx_acc_convert_ok(acc->dtype, op->dtype, op->quant)) {
        return cube_fail(f, LINX_CUBE_BAD_DTYPE, op->dtype);
    }
    if (op->dst_bytes < LINX_TILE_MIN_BYTES || op->dst_bytes > LINX_TILE_MAX_BYTES) {
        return cube_fail(f, LINX_CUBE_DST_SIZE, op->dst_bytes);
    }
    if (nd) {
        rows = acc->m;
        cols = acc->n;
        if ((uint64_t)rows * cols * dt->size > op->dst_bytes) {
            return cube_fail(f, LINX_CUBE_DST_SIZE, (uint64_t)rows * cols * dt->size);
        }
    } else {
        /* round_up(m, 16) x round_up(n, c0): a TSTORE of it must derive
         * the same Row (Row = TileBytes / (Col x esize), seed 000), else
         * it raises tile-shape (tma-exec.c) instead of reading the
         * fractals at the wrong places. */
        cols = round_up(acc->n, BLOCK_BYTES / dt->size);
        rows = round_up(acc->m, FRACTAL_ROWS);
        if ((uint64_t)rows * cols * dt->size > op->dst_bytes) {
            return cube_fail(f, LINX_CUBE_DST_SIZE, (uint64_t)rows * cols * dt->size);
        }
    }
    dst = linx_tile_push_slot(ts, (LinxTileHand)op->dst_kind);
    memset(dst->data, 0, op->dst_bytes);
    for (uint32_t i = 0; i < acc->m; i++) {
        for (uint32_t j = 0; j < acc->n; j++) {
            size_t off = nd ? (size_t)i * cols + j
                            : linx_tile_elem_offset(LINX_TL_NZ, i, j, rows, cols, dt->size);

            linx_acc_convert(acc->dtype, op->dtype, op->quant, op->quant_word, false,
                             acc->data + ((size_t)i * acc->n + j) * ACC_ELEM_BYTES,
                             dst->data + off * dt->size);
        }
    }
    memset(&m, 0, sizeof(m));
    m.bytes = op->dst_bytes;
    m.dtype = op->dtype;
    m.layout = nd ? LINX_TL_ND : LINX_TL_NZ;
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
    case LINX_CUBE_TMATMUL_BIAS:
        return exec_matmul(ts, op, f);
    case LINX_CUBE_ACCCVT:
        return exec_acccvt(ts, op, f);
    default:
        return cube_fail(f, LINX_CUBE_BAD_FUNC, op->func);
    }
}
