/*
 * TMA planning: the legality rules and the translation-time plan.
 *
 * Rules (docs/tile.md, "Illegal parameters"; the traps they become are
 * the target's: target/linx/tile-trap.c):
 *   - reserved BSTART.TMA Function;
 *   - missing or bad descriptors, reported in the order
 *     B.ARG > B.TEXT > B.IOT > B.IOR > B.DIM, then B.IOD;
 *   - illegal values (seed 000, v0.4 section 9), with the offending value;
 *   - GM access faults, with the address.
 *
 * Each value rule depends on some inputs (LB0, LB1, Col, tile size,
 * stride).  tma_plan() runs the rules whose inputs are constants in the
 * header; tma_exec() runs the others with the run-time values.
 */
#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"
#include "hw/linx/tma-kernels.h"

enum {
    IOTI_SIZE_MIN_CODE = 5,
    IOTI_SIZE_MAX_CODE = 8,
    IOTI_SIZE_BIAS = 4,
    DST_KIND_MAX = 3, /* t, u, m, n */
};

typedef struct TmaRuleInfo {
    const char *name;
    const char *text;
} TmaRuleInfo;

static const TmaRuleInfo rule_info[TMA_R__COUNT] = {
    [TMA_OK] = { "ok", "no fault" },
    [TMA_R_RESERVED_FUNC] = { "reserved-function", "reserved BSTART.TMA Function" },
    [TMA_R_MISSING_ARG] = { "missing-barg", "TLOAD/TSTORE header without B.ARG or B.DATR" },
    [TMA_R_BAD_ARG] = { "bad-barg", "reserved layout selector or TMOV mode" },
    [TMA_R_ARG_CONFLICT] = { "barg-and-datr", "header has both B.ARG and B.DATR" },
    [TMA_R_TEXT_IN_TMA] = { "btext-in-tma", "B.TEXT in a TMA header" },
    [TMA_R_MISSING_IOT] = { "missing-biot", "header without B.IOT/B.IOTI" },
    [TMA_R_BAD_TILE_SIZE] = { "bad-tile-size", "tile size outside 512 B..4 KB" },
    [TMA_R_BAD_DST_TILE] = { "bad-dst-tile", "destination tile kind is not t/u/m/n" },
    [TMA_R_IOT_COMBINATION] = { "biot-combination",
                                "source tiles do not fit the operation (TLOAD with sources, "
                                "TSTORE without or with more than 8, TMOV V2V without exactly "
                                "one, or a B.IOT after the last one)" },
    [TMA_R_MIXED_SIZES] = { "mixed-tile-sizes", "B.IOT descriptors declare different tile sizes" },
    [TMA_R_MISSING_IOR] = { "missing-bior", "TLOAD/TSTORE header without B.IOR" },
    [TMA_R_BAD_IOR] = { "bad-bior", "B.IOR names no base address register" },
    [TMA_R_MISSING_DIM] = { "missing-bdim", "no B.DIM writes LB0 (GM inner count)" },
    [TMA_R_BAD_DIM] = { "bad-bdim", "C.B.DIM LoopNest names no LB register" },
    [TMA_R_BAD_IOD] = { "bad-biod",
                        "malformed B.IOD (more than one, a repeated tag, or a self dependency)" },
    [TMA_R_BAD_DTYPE] = { "bad-dtype", "data type not supported by the tile machine" },
    [TMA_R_LB0_ZERO] = { "lb0-zero", "LB0 (GM inner count) is 0" },
    [TMA_R_COL_TOO_WIDE] = { "col-too-wide", "Col x esize exceeds the tile size (Row would be 0)" },
    [TMA_R_VALIDCOL_GT_COL] = { "validcol-gt-col", "ValidCol > Col" },
    [TMA_R_VALIDROW_GT_ROW] = { "validrow-gt-row", "ValidRow > Row (derived from the tile size)" },
    [TMA_R_MERGE_COL] = { "merge-col",
                          "multi-input ND store: Col not a multiple of the tile count" },
    [TMA_R_MERGE_ROW] = { "merge-row",
                          "multi-input DN store: Row not a multiple of the tile count" },
    [TMA_R_NZ_COL] = { "nz-col", "NZ tile: Col not a multiple of 32/esize" },
    [TMA_R_NZ_ROW] = { "nz-row", "NZ tile: Row not a multiple of 16" },
    [TMA_R_ZN_ROW] = { "zn-row", "ZN tile: Row not a multiple of 32/esize" },
    [TMA_R_ZN_COL] = { "zn-col", "ZN tile: Col not a multiple of 16" },
    [TMA_R_STORE_OVERLAP] = { "store-overlap", "TSTORE rows overlap (Stride < LB0 x esize)" },
    [TMA_R_TILE_EMPTY] = { "tile-empty", "source tile was never written" },
    [TMA_R_TILE_SIZE] = { "tile-size-mismatch",
                          "source tile size differs from the B.IOT transfer size" },
    [TMA_R_MIXED_LAYOUT] = { "mixed-tile-layouts", "source tiles have different layouts" },
    [TMA_R_ACC_EMPTY] = { "acc-empty", "TMOV A2V with no accumulator result" },
    [TMA_R_MOV_SHAPE] = { "mov-shape", "TMOV window does not fit the source tile" },
    [TMA_R_ATOMIC_OP] = { "atomic-op", "B.ATTR atomic on a TLOAD or TMOV (AtomicAdd is a TSTORE)" },
    [TMA_R_ATOMIC_DTYPE] = { "atomic-dtype",
                             "AtomicAdd of a type seed 001 does not allow (only FP32, FP16, BF16, "
                             "S32, S16, S8)" },
    [TMA_R_TILE_SHAPE] = { "tile-shape",
                           "an NZ (ZN) source tile was laid out for another Row (Col) than the "
                           "TSTORE derives from its size and Col (value: the tile's Row or Col)" },
    [TMA_R_GM_FAULT] = { "gm-fault", "guest memory fault" },
};

const char *tma_rule_name(TmaRule rule)
{
    return rule < TMA_R__COUNT ? rule_info[rule].name : "?";
}

const char *tma_rule_text(TmaRule rule)
{
    return rule < TMA_R__COUNT ? rule_info[rule].text : "?";
}

void tma_rule_fault(TmaRule rule, uint64_t value, TmaFault *f)
{
    f->rule = (uint16_t)rule;
    f->value = value;
}

void tma_options_from_env(TmaOptions *opts)
{
    const char *r = getenv("LINX_TMA_REFERENCE");
    const char *p = getenv("LINX_TMA_PORTABLE");

    memset(opts, 0, sizeof(*opts));
    opts->reference = r && r[0] && strcmp(r, "0") != 0;
    opts->portable = p && p[0] && strcmp(p, "0") != 0;
}

/* ------------------------------------------------------------------ */
/* Value rules                                                         */
/* ------------------------------------------------------------------ */

/* Inputs a value rule depends on: TMA_DYN_* bits plus COL (LB2, or LB0
 * when LB2 is 0). */
#define IN_COL (1u << 6)

/* Does a rule with inputs @in run now?  At plan time when all its inputs
 * are constant, at run time when one is not. */
static bool rule_runs(const TmaPlan *p, unsigned in, bool runtime)
{
    unsigned dyn = p->dyn;

    if (dyn & (TMA_DYN_LB2 | TMA_DYN_LB0)) {
        /* Col = LB2 ? LB2 : LB0: dynamic if LB2 is, or if LB2 is the
         * constant 0 and LB0 is dynamic. */
        if ((dyn & TMA_DYN_LB2) || (p->lb[2] == 0 && (dyn & TMA_DYN_LB0))) {
            dyn |= IN_COL;
        }
    }
    return ((in & dyn) != 0) == runtime;
}

static bool fail(TmaFault *f, TmaRule rule, uint64_t value)
{
    tma_rule_fault(rule, value, f);
    return false;
}

bool tma_shape_resolve(const TmaPlan *p, const uint64_t lb[3], uint64_t tile_bytes,
                       uint64_t stride, bool runtime, TmaShape *s, TmaFault *f)
{
    uint64_t esize = p->esize;
    uint64_t n = p->op == TMA_OP_TSTORE ? p->nsrc : 1;
    uint64_t inner = lb[0], outer = lb[1] ? lb[1] : 1;
    uint64_t col = lb[2] ? lb[2] : lb[0];
    uint64_t total, rows = 0, vr, vc, sub_rows = 0, sub_cols = 0;
    uint64_t c0 = TMA_BLOCK_BYTES / esize;
    unsigned in_vr = p->gm_dn ? TMA_DYN_LB0 : TMA_DYN_LB1;
    unsigned in_vc = p->gm_dn ? TMA_DYN_LB1 : TMA_DYN_LB0;
    bool nz = p->tile_layout == LINX_TL_NZ, zn = p->tile_layout == LINX_TL_ZN;

    if (rule_runs(p, TMA_DYN_LB0, runtime) && inner == 0 && !p->lb0_whole) {
        return fail(f, TMA_R_LB0_ZERO, 0);
    }
    if (rule_runs(p, TMA_DYN_SIZE, runtime) &&
        (tile_bytes < LINX_TILE_MIN_BYTES || tile_bytes > LINX_TILE_MAX_BYTES)) {
        return fail(f, TMA_R_BAD_TILE_SIZE, tile_bytes);
    }
    total = n * tile_bytes;
    if (inner == 0 && p->lb0_whole) {
        /* The compiler's "C.B.DIMI 0, ->lb0": the whole tile as one GM row
         * (PTO-Kernel backend.hpp: cols = LB0 ? LB0 : tile elements). */
        inner = total / esize;
        col = lb[2] ? lb[2] : inner;
    }
    if (col != 0 && col <= total / esize) {
        rows = total / (col * esize);
    }
    if (rule_runs(p, TMA_DYN_LB0 | IN_COL | TMA_DYN_SIZE, runtime) && rows == 0) {
        return fail(f, TMA_R_COL_TOO_WIDE, col);
    }
    vr = p->gm_dn ? inner : outer;
    vc = p->gm_dn ? outer : inner;
    if (rule_runs(p, in_vc | IN_COL, runtime) && vc > col) {
        return fail(f, TMA_R_VALIDCOL_GT_COL, vc);
    }
    if (rule_runs(p, in_vr | IN_COL | TMA_DYN_SIZE, runtime) && vr > rows) {
        return fail(f, TMA_R_VALIDROW_GT_ROW, vr);
    }
    if (n > 1 && !p->gm_dn && rule_runs(p, IN_COL, runtime) && col % n != 0) {
        return fail(f, TMA_R_MERGE_COL, col);
    }
    if (n > 1 && p->gm_dn && rule_runs(p, IN_COL | TMA_DYN_SIZE, runtime) && rows % n != 0) {
        return fail(f, TMA_R_MERGE_ROW, rows);
    }
    if (n != 0) {
        sub_rows = p->gm_dn ? rows / n : rows;
        sub_cols = p->gm_dn ? col : col / n;
    }
    if (nz && rule_runs(p, IN_COL, runtime) && sub_cols % c0 != 0) {
        return fail(f, TMA_R_NZ_COL, sub_cols);
    }
    if (nz && rule_runs(p, IN_COL | TMA_DYN_SIZE, runtime) && sub_rows % TMA_FRACTAL_ROWS != 0) {
        return fail(f, TMA_R_NZ_ROW, sub_rows);
    }
    if (zn && rule_runs(p, IN_COL | TMA_DYN_SIZE, runtime) && sub_rows % c0 != 0) {
        return fail(f, TMA_R_ZN_ROW, sub_rows);
    }
    if (zn && rule_runs(p, IN_COL, runtime) && sub_cols % TMA_FRACTAL_ROWS != 0) {
        return fail(f, TMA_R_ZN_COL, sub_cols);
    }
    if (p->op == TMA_OP_TSTORE && p->stride_reg != 0 &&
        rule_runs(p, TMA_DYN_STRIDE | TMA_DYN_LB0 | TMA_DYN_LB1, runtime) && outer > 1 &&
        inner <= UINT64_MAX / esize && stride < inner * esize) {
        return fail(f, TMA_R_STORE_OVERLAP, stride);
    }
    /* All legal: every value now fits 32 bits (Col, Row <= 8 * 4096). */
    s->valid_rows = (uint32_t)vr;
    s->valid_cols = (uint32_t)vc;
    s->rows = (uint32_t)rows;
    s->cols = (uint32_t)col;
    s->sub_rows = (uint32_t)sub_rows;
    s->sub_cols = (uint32_t)sub_cols;
    s->gm_inner = (uint32_t)inner;
    s->gm_outer = (uint32_t)outer;
    s->tile_bytes = (uint32_t)tile_bytes;
    return true;
}

/* ------------------------------------------------------------------ */
/* Planning                                                            */
/* ------------------------------------------------------------------ */

static const uint8_t layout_tile[TMA_LAYOUT__COUNT] = {
    [TMA_LAYOUT_NORM] = LINX_TL_ND,  [TMA_LAYOUT_ND_NZ] = LINX_TL_NZ,
    [TMA_LAYOUT_ND_ZN] = LINX_TL_ZN, [TMA_LAYOUT_DN_NZ] = LINX_TL_NZ,
    [TMA_LAYOUT_DN_ZN] = LINX_TL_ZN,
};

static bool plan_fail(TmaPlan *p, TmaRule rule, uint64_t value)
{
    tma_rule_fault(rule, value, &p->fault);
    return false;
}

/* Descriptor-format rules, in the digest's reporting order. */
static bool plan_format(const TmaDesc *d, TmaPlan *p)
{
    bool is_mov = d->func == TMA_OP_TMOV;
    bool mov_convert;

    if (d->func > TMA_OP_TMOV) {
        return plan_fail(p, TMA_R_RESERVED_FUNC, d->func);
    }
    /* B.ARG */
    if (d->layout_conflict) {
        return plan_fail(p, TMA_R_ARG_CONFLICT, 0);
    }
    if (d->layout_src == TMA_LSRC_NONE) {
        if (!is_mov) {
            return plan_fail(p, TMA_R_MISSING_ARG, 0);
        }
        p->layout = TMA_LAYOUT_NORM; /* TMOV default: ND, V2V */
    } else if (d->layout_src == TMA_LSRC_BARG) {
        TmaLayout l;
        TmaMovMode m;

        if (!tma_layout_from_barg(d->func, d->layout_code, &l, &m)) {
            return plan_fail(p, TMA_R_BAD_ARG, d->layout_code);
        }
        p->layout = (uint8_t)l;
        p->mov_mode = (uint8_t)m;
    } else {
        TmaLayout l;

        if (!tma_layout_from_datr(d->func, d->layout_code, &l)) {
            return plan_fail(p, TMA_R_BAD_ARG, d->layout_code);
        }
        p->layout = (uint8_t)l;
        p->pad = d->pad_code;
    }
    p->tile_layout = layout_tile[p->layout];
    p->gm_dn = p->layout == TMA_LAYOUT_DN_NZ || p->layout == TMA_LAYOUT_DN_ZN;
    mov_convert = is_mov && p->layout != TMA_LAYOUT_NORM;
    /* B.TEXT */
    if (d->ntext) {
        return plan_fail(p, TMA_R_TEXT_IN_TMA, 0);
    }
    /* B.IOT */
    if (d->niot == 0) {
        return plan_fail(p, TMA_R_MISSING_IOT, 0);
    }
    if (!d->size_is_reg && (d->size < IOTI_SIZE_MIN_CODE || d->size > IOTI_SIZE_MAX_CODE)) {
        return plan_fail(p, TMA_R_BAD_TILE_SIZE, d->size);
    }
    if (d->func != TMA_OP_TSTORE && d->dst_kind > DST_KIND_MAX) {
        return plan_fail(p, TMA_R_BAD_DST_TILE, d->dst_kind);
    }
    if (d->iot_after_last ||
        (d->func == TMA_OP_TLOAD && d->nsrc != 0) ||
        (d->func == TMA_OP_TSTORE && (d->nsrc == 0 || d->nsrc > TMA_MAX_SRC_TILES)) ||
        (is_mov && p->mov_mode == TMA_MOV_V2V && d->nsrc != 1) ||
        (is_mov && p->mov_mode == TMA_MOV_A2V && d->nsrc != 0)) {
        return plan_fail(p, TMA_R_IOT_COMBINATION, d->nsrc);
    }
    if (d->size_mixed) {
        return plan_fail(p, TMA_R_MIXED_SIZES, 0);
    }
    /* B.IOR */
    if (!is_mov) {
        if (d->nior == 0) {
            return plan_fail(p, TMA_R_MISSING_IOR, 0);
        }
        if (d->layout_src == TMA_LSRC_DATR) {
            p->base_reg = d->ior[0]; /* seed 000: [base, stride] */
            p->stride_reg = d->ior[1];
        } else if (d->ior[1] != 0) {
            p->stride_reg = d->ior[0]; /* v0.4: [stride, base] */
            p->base_reg = d->ior[1];
        } else {
            p->base_reg = d->ior[0];
        }
        if (p->base_reg == 0) {
            return plan_fail(p, TMA_R_BAD_IOR, 0);
        }
    }
    /* B.DIM */
    if (d->dim_bad) {
        return plan_fail(p, TMA_R_BAD_DIM, 0);
    }
    if ((!is_mov || mov_convert) && !(d->dim_mask & 1)) {
        return plan_fail(p, TMA_R_MISSING_DIM, 0);
    }
    /* B.IOD */
    if (d->niod > 1 || d->iod_dup) {
        return plan_fail(p, TMA_R_BAD_IOD, d->niod);
    }
    return true;
}

void tma_plan(const TmaDesc *d, const TmaOptions *opts, TmaPlan *p)
{
    const LinxDTypeInfo *dt;
    TmaKernelKey key;
    TmaKernelChoice kc;
    TmaOptions no_opts = { 0 };

    memset(p, 0, sizeof(*p));
    p->op = d->func;
    p->dtype = d->dtype;
    p->dim_mask = d->dim_mask;
    p->lb0_whole = d->lb0_whole;
    p->nsrc = d->nsrc < TMA_MAX_SRC_TILES ? d->nsrc : TMA_MAX_SRC_TILES;
    memcpy(p->src, d->src, sizeof(p->src));
    p->dst_hand = d->dst_kind <= DST_KIND_MAX ? d->dst_kind : 0;
    if (!plan_format(d, p)) {
        return;
    }
    dt = linx_dtype_info(d->dtype);
    if (!dt) {
        plan_fail(p, TMA_R_BAD_DTYPE, d->dtype);
        return;
    }
    if (d->atomic && p->op != TMA_OP_TSTORE) {
        plan_fail(p, TMA_R_ATOMIC_OP, p->op);
        return;
    }
    if (d->atomic && !tma_atomic_dtype_ok(d->dtype)) {
        plan_fail(p, TMA_R_ATOMIC_DTYPE, d->dtype);
        return;
    }
    p->atomic = d->atomic;
    p->esize = dt->size;
    p->pad_pattern = p->pad == TMA_PAD_MAX ? dt->max_bits
                     : p->pad == TMA_PAD_MIN ? dt->min_bits : 0;

    /* Inputs: constant, or which register feeds them. */
    for (unsigned k = 0; k < 3; k++) {
        p->lb_reg[k] = d->lb[k].reg;
        p->lb_imm[k] = d->lb[k].imm;
        if ((d->dim_mask & (1u << k)) && d->lb[k].reg != 0) {
            p->dyn |= (uint8_t)(TMA_DYN_LB0 << k);
        } else {
            p->lb[k] = (d->dim_mask & (1u << k)) ? d->lb[k].imm : 0;
        }
    }
    if (d->size_is_reg) {
        p->size_reg = d->size;
        if (d->size != 0) {
            p->dyn |= TMA_DYN_SIZE;
        }
    } else {
        p->tile_bytes = 1u << (d->size + IOTI_SIZE_BIAS);
    }
    if (p->stride_reg != 0) {
        p->dyn |= TMA_DYN_STRIDE;
    }

    if (p->op == TMA_OP_TMOV) {
        /* TMOV V2V with a layout conversion is a TLOAD whose "GM" is the
         * dense source tile; the shape rules are the TLOAD ones. */
        if (p->mov_mode == TMA_MOV_A2V || p->layout == TMA_LAYOUT_NORM) {
            return;
        }
    }
    if (!tma_shape_resolve(p, p->lb, p->tile_bytes, p->stride, false, &p->shape, &p->fault)) {
        return;
    }
    p->shape_const = !(p->dyn & TMA_DYN_SHAPE);

    memset(&key, 0, sizeof(key));
    key.op = p->op == TMA_OP_TSTORE ? TMA_OP_TSTORE : TMA_OP_TLOAD;
    key.esize = p->esize;
    key.tile_layout = p->tile_layout;
    key.gm_dn = p->gm_dn;
    key.shape_const = p->shape_const;
    key.shape = p->shape;
    key.ntiles = p->op == TMA_OP_TSTORE ? p->nsrc : 1;
    key.atomic = p->atomic;
    key.dtype = p->dtype;
    kc = tma_kernel_select(&key, opts ? opts : &no_opts);
    p->kernel = kc.fn;
    p->kernel_name = kc.name;
    /* AtomicAdd reads GM too: the general path checks both permissions. */
    p->fast = p->shape_const && !p->atomic &&
              (p->op == TMA_OP_TLOAD || (p->op == TMA_OP_TSTORE && p->nsrc == 1));
}
