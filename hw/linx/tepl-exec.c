/*
 * TEPL blocks: the operation table, every legality rule, the geometry and
 * the destination push (tepl.h).  The element work is in tepl-kernels.c
 * (specialised) and tepl-ref.c (reference).
 *
 * Order of the checks (all before the destination is touched): element
 * type for the operation, LB0, destination size, sources written with the
 * destination's size and one layout, shape (Row >= 1, the valid region
 * inside Row x Col, NZ/ZN fractal alignment).
 */
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tepl.h"
#include "hw/linx/tile-dtype.h"

enum {
    TEPL_SIZE_MIN = 512,
    TEPL_SIZE_MAX = 4096,
    TEPL_FRACTAL_ROWS = 16,
    TEPL_FRACTAL_BYTES = 32,
    /* linx_tepl_pack fields */
    PK_OPCODE_BITS = 10,
    PK_DTYPE_SHIFT = 10,
    PK_NSRC_SHIFT = 15,
    PK_SRC0_SHIFT = 17,
    PK_SRC1_SHIFT = 22,
    PK_DST_SHIFT = 27,
    PK_ARG_SHIFT = 30,
    PK_REF_SHIFT = 35,
};

#define OPB(n, op, k, s, i, f) { n, op, k, s, op, false, false, false, i, f }
#define OPS(n, op, k, s, base, i, f) { n, op, k, s, base, true, true, false, i, f }
static const LinxTeplOpInfo tepl_ops[] = {
    OPB("TADD", LINX_TEPL_TADD, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TSUB", LINX_TEPL_TSUB, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TMUL", LINX_TEPL_TMUL, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TDIV", LINX_TEPL_TDIV, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TMAX", LINX_TEPL_TMAX, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TMIN", LINX_TEPL_TMIN, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TAND", LINX_TEPL_TAND, LINX_TEPLC_BINARY, 2, true, false),
    OPB("TOR", LINX_TEPL_TOR, LINX_TEPLC_BINARY, 2, true, false),
    OPB("TXOR", LINX_TEPL_TXOR, LINX_TEPLC_BINARY, 2, true, false),
    OPB("TSHL", LINX_TEPL_TSHL, LINX_TEPLC_BINARY, 2, true, false),
    OPB("TSHR", LINX_TEPL_TSHR, LINX_TEPLC_BINARY, 2, true, false),
    OPB("TRELU", LINX_TEPL_TRELU, LINX_TEPLC_UNARY, 1, true, true),
    OPB("TPRELU", LINX_TEPL_TPRELU, LINX_TEPLC_BINARY, 2, true, true),
    OPB("TEXP", LINX_TEPL_TEXP, LINX_TEPLC_UNARY, 1, false, true),
    OPB("TLOG", LINX_TEPL_TLOG, LINX_TEPLC_UNARY, 1, false, true),
    OPB("TSQRT", LINX_TEPL_TSQRT, LINX_TEPLC_UNARY, 1, false, true),
    OPB("TRSQRT", LINX_TEPL_TRSQRT, LINX_TEPLC_UNARY, 1, false, true),
    OPB("TROWMAX", LINX_TEPL_TROWMAX, LINX_TEPLC_ROWRED, 1, true, true),
    OPB("TROWMIN", LINX_TEPL_TROWMIN, LINX_TEPLC_ROWRED, 1, true, true),
    OPB("TROWSUM", LINX_TEPL_TROWSUM, LINX_TEPLC_ROWRED, 1, true, true),
    OPB("TCOLMAX", LINX_TEPL_TCOLMAX, LINX_TEPLC_COLRED, 1, true, true),
    OPB("TCOLMIN", LINX_TEPL_TCOLMIN, LINX_TEPLC_COLRED, 1, true, true),
    OPB("TCOLSUM", LINX_TEPL_TCOLSUM, LINX_TEPLC_COLRED, 1, true, true),
    OPB("TRECIP", LINX_TEPL_TRECIP, LINX_TEPLC_UNARY, 1, false, true),
    OPS("TEXPANDS", LINX_TEPL_TEXPANDS, LINX_TEPLC_FILL, 0, LINX_TEPL_TEXPANDS, true, true),
    OPB("TTRANSPOSE", LINX_TEPL_TTRANSPOSE, LINX_TEPLC_TRANSPOSE, 1, true, true),
    OPB("TCOLEXPAND", LINX_TEPL_TCOLEXPAND, LINX_TEPLC_COLEXPAND, 1, true, true),
    OPB("TROWEXPAND", LINX_TEPL_TROWEXPAND, LINX_TEPLC_ROWEXPAND, 1, true, true),
    OPS("TADDS", 0x20, LINX_TEPLC_BINARY, 1, LINX_TEPL_TADD, true, true),
    OPS("TSUBS", 0x21, LINX_TEPLC_BINARY, 1, LINX_TEPL_TSUB, true, true),
    OPS("TMULS", 0x22, LINX_TEPLC_BINARY, 1, LINX_TEPL_TMUL, true, true),
    OPS("TDIVS", 0x23, LINX_TEPLC_BINARY, 1, LINX_TEPL_TDIV, true, true),
    OPS("TMAXS", 0x24, LINX_TEPLC_BINARY, 1, LINX_TEPL_TMAX, true, true),
    OPS("TMINS", 0x25, LINX_TEPLC_BINARY, 1, LINX_TEPL_TMIN, true, true),
    OPS("TANDS", 0x26, LINX_TEPLC_BINARY, 1, LINX_TEPL_TAND, true, false),
    OPS("TORS", 0x27, LINX_TEPLC_BINARY, 1, LINX_TEPL_TOR, true, false),
    OPS("TXORS", 0x28, LINX_TEPLC_BINARY, 1, LINX_TEPL_TXOR, true, false),
    OPS("TSHLS", 0x29, LINX_TEPLC_BINARY, 1, LINX_TEPL_TSHL, true, false),
    OPS("TSHRS", 0x2a, LINX_TEPLC_BINARY, 1, LINX_TEPL_TSHR, true, false),
};

const LinxTeplOpInfo *linx_tepl_op_info(unsigned opcode)
{
    for (size_t i = 0; i < sizeof(tepl_ops) / sizeof(tepl_ops[0]); i++) {
        if (tepl_ops[i].opcode == opcode) {
            return &tepl_ops[i];
        }
    }
    return NULL;
}

/* The rules' names and sentences (the report line, docs/kernels.md "TEPL"). */
static const struct {
    const char *name, *text;
} rules[LINX_TEPL__END - LINX_TEPL_BAD_OP] = {
    [LINX_TEPL_BAD_OP - LINX_TEPL_BAD_OP] = { "tepl-bad-op",
                                              "reserved or unimplemented TEPL opcode" },
    [LINX_TEPL_BAD_DTYPE - LINX_TEPL_BAD_OP] = { "tepl-bad-dtype",
                                                 "element type not defined for the operation" },
    [LINX_TEPL_LB0_ZERO - LINX_TEPL_BAD_OP] = { "tepl-lb0-zero", "LB0 is 0" },
    [LINX_TEPL_BAD_SIZE - LINX_TEPL_BAD_OP] = {
        "tepl-bad-size", "destination size not a power of two in 512 B..4 KB" },
    [LINX_TEPL_SHAPE - LINX_TEPL_BAD_OP] = {
        "tepl-shape", "Col x esize > size, ValidCol > Col, ValidRow > Row or not fractal-aligned" },
    [LINX_TEPL_TILE_EMPTY - LINX_TEPL_BAD_OP] = { "tepl-tile-empty",
                                                  "source tile was never written" },
    [LINX_TEPL_TILE_SIZE - LINX_TEPL_BAD_OP] = {
        "tepl-tile-size", "source tile size differs from the destination's" },
    [LINX_TEPL_LAYOUTS - LINX_TEPL_BAD_OP] = { "tepl-layouts",
                                               "source tiles have different layouts" },
};

const char *linx_tepl_rule_name(unsigned rule)
{
    if (rule >= LINX_TEPL_BAD_OP && rule < LINX_TEPL__END) {
        return rules[rule - LINX_TEPL_BAD_OP].name;
    }
    return rule == LINX_TEPL_OK ? "ok" : "?";
}

const char *linx_tepl_rule_text(unsigned rule)
{
    if (rule >= LINX_TEPL_BAD_OP && rule < LINX_TEPL__END) {
        return rules[rule - LINX_TEPL_BAD_OP].text;
    }
    return rule == LINX_TEPL_OK ? "no fault" : "?";
}

uint64_t linx_tepl_pack(unsigned opcode, unsigned dtype, unsigned nsrc, const uint8_t src[2],
                        unsigned dst_kind, unsigned arg, bool reference)
{
    return (uint64_t)(opcode & ((1u << PK_OPCODE_BITS) - 1)) |
           (uint64_t)(dtype & 31) << PK_DTYPE_SHIFT | (uint64_t)(nsrc & 3) << PK_NSRC_SHIFT |
           (uint64_t)(src[0] & 31) << PK_SRC0_SHIFT | (uint64_t)(src[1] & 31) << PK_SRC1_SHIFT |
           (uint64_t)(dst_kind & 7) << PK_DST_SHIFT | (uint64_t)(arg & 31) << PK_ARG_SHIFT |
           (uint64_t)reference << PK_REF_SHIFT;
}

void linx_tepl_unpack(uint64_t desc, LinxTeplOp *op, bool *reference)
{
    memset(op, 0, sizeof(*op));
    op->opcode = desc & ((1u << PK_OPCODE_BITS) - 1);
    op->dtype = (desc >> PK_DTYPE_SHIFT) & 31;
    op->nsrc = (desc >> PK_NSRC_SHIFT) & 3;
    op->src[0] = (desc >> PK_SRC0_SHIFT) & 31;
    op->src[1] = (desc >> PK_SRC1_SHIFT) & 31;
    op->dst_kind = (desc >> PK_DST_SHIFT) & 7;
    *reference = (desc >> PK_REF_SHIFT) & 1;
}

bool linx_tepl_reference_from_env(void)
{
    const char *v = getenv("LINX_TEPL_REFERENCE");

    return v && v[0] && strcmp(v, "0") != 0;
}

static bool fail(TmaFault *f, unsigned rule, uint64_t value)
{
    f->rule = (uint16_t)rule;
    f->value = value;
    return false;
}

/* The scalar operand truncated to the element (low bits, engine_ops.json
 * "truncate_low_bits"). */
static uint64_t truncate_scalar(uint64_t v, unsigned esize)
{
    return esize >= 8 ? v : v & ((UINT64_C(1) << (8 * esize)) - 1);
}

/* Fractal alignment of an NZ/ZN tile of @rows x @cols (tile-semantics 2.1). */
static bool fractal_ok(unsigned layout, uint32_t rows, uint32_t cols, unsigned esize)
{
    uint32_t c0 = TEPL_FRACTAL_BYTES / esize;

    if (layout == LINX_TL_NZ) {
        return rows % TEPL_FRACTAL_ROWS == 0 && cols % c0 == 0;
    }
    if (layout == LINX_TL_ZN) {
        return rows % c0 == 0 && cols % TEPL_FRACTAL_ROWS == 0;
    }
    return true;
}

bool linx_tepl_exec(LinxTileState *ts, const LinxTeplOp *op, bool reference, TmaFault *f)
{
    const LinxTeplOpInfo *oi = linx_tepl_op_info(op->opcode);
    const LinxDTypeInfo *di = linx_dtype_info(op->dtype);
    LinxTileHand hand = (LinxTileHand)(op->dst_kind & 3);
    LinxTeplGeom g;
    LinxTileSlot *dslot;
    LinxTileMeta m;
    uint64_t col;

    memset(f, 0, sizeof(*f));
    memset(&g, 0, sizeof(g));
    if (!oi) {
        return fail(f, LINX_TEPL_BAD_OP, op->opcode);
    }
    if (!di || di->code == LINX_DT_FP8 ||
        (di->kind == LINX_DTK_FLOAT ? !oi->float_ok : !oi->int_ok)) {
        return fail(f, LINX_TEPL_BAD_DTYPE, op->dtype);
    }
    if (op->lb[0] == 0) {
        return fail(f, LINX_TEPL_LB0_ZERO, 0);
    }
    if (op->dst_bytes < TEPL_SIZE_MIN || op->dst_bytes > TEPL_SIZE_MAX ||
        (op->dst_bytes & (op->dst_bytes - 1))) {
        return fail(f, LINX_TEPL_BAD_SIZE, op->dst_bytes);
    }
    g.oi = oi;
    g.esize = di->size;
    g.lg = di->size_log2;
    g.kind = di->kind;
    g.dtype = di->code;
    g.layout = LINX_TL_ND;
    for (unsigned i = 0; i < oi->nsrc && i < op->nsrc; i++) {
        const LinxTileSlot *s = linx_tile_get_const(ts, op->src[i]);
        unsigned lay = s->meta.layout == LINX_TL_NONE ? LINX_TL_ND : s->meta.layout;
        if (s->meta.bytes == 0) {
            return fail(f, LINX_TEPL_TILE_EMPTY, op->src[i]);
        }
        if (s->meta.bytes != op->dst_bytes) {
            return fail(f, LINX_TEPL_TILE_SIZE, s->meta.bytes);
        }
        if (i > 0 && lay != g.layout) {
            return fail(f, LINX_TEPL_LAYOUTS, op->src[i]);
        }
        g.layout = lay;
        g.src[i] = s->data;
    }
    col = op->lb[2] ? op->lb[2] : op->lb[0];
    g.vcols = op->lb[0] > UINT32_MAX ? UINT32_MAX : (uint32_t)op->lb[0];
    g.vrows = op->lb[1] == 0 ? 1 : op->lb[1] > UINT32_MAX ? UINT32_MAX : (uint32_t)op->lb[1];
    if (col * g.esize > op->dst_bytes || col == 0) {
        return fail(f, LINX_TEPL_SHAPE, col);
    }
    g.cols = (uint32_t)col;
    g.rows = (uint32_t)(op->dst_bytes / (col * g.esize));
    if (g.vcols > g.cols) {
        return fail(f, LINX_TEPL_SHAPE, g.vcols);
    }
    if (g.vrows > g.rows) {
        return fail(f, LINX_TEPL_SHAPE, g.vrows);
    }
    if (!fractal_ok(g.layout, g.rows, g.cols, g.esize)) {
        return fail(f, LINX_TEPL_SHAPE, g.layout);
    }
    g.drows = g.rows;
    g.dcols = g.cols;
    g.dlayout = g.layout;
    if (oi->cls == LINX_TEPLC_TRANSPOSE) {
        /* dst(j, i) = src(i, j): an ND tile of Col x Row, so every valid
         * element has a place. */
        g.dlayout = LINX_TL_ND;
        g.drows = g.cols;
        g.dcols = g.rows;
    }
    g.scalar = truncate_scalar(op->scalar, g.esize);

    /* Write the spare slot, then make it hand#1 (the sources stay
     * untouched even when they are on the same hand). */
    dslot = linx_tile_push_slot(ts, hand);
    memset(dslot->data, 0, op->dst_bytes);
    g.dst = dslot->data;
    if (reference || !linx_tepl_run_fast(&g)) {
        linx_tepl_run_ref(&g);
    }
    memset(&m, 0, sizeof(m));
    m.bytes = op->dst_bytes;
    m.dtype = di->code;
    m.layout = (uint8_t)g.dlayout;
    m.rows = (uint16_t)g.drows;
    m.cols = (uint16_t)g.dcols;
    m.valid_rows = (uint16_t)(oi->cls == LINX_TEPLC_TRANSPOSE ? g.vcols : g.vrows);
    m.valid_cols = (uint16_t)(oi->cls == LINX_TEPLC_TRANSPOSE ? g.vrows : g.vcols);
    linx_tile_push_commit(ts, hand, &m);
    return true;
}
