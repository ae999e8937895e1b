/*
 * TEPL reference: one element at a time, through the logical (i, j) of
 * every tile (linx_tile_elem_offset) and the fpu library's IEEE
 * operations (round to nearest even, flags dropped).  It is the oracle of
 * the specialised kernels (tepl-kernels.c) and deliberately shares no
 * code with them except the two functions computed in double precision
 * (TLOG, TRSQRT), which both use (tepl_log_bits, tepl_rsqrt_bits).
 */
#include <math.h>
#include <string.h>

#include "hw/linx/tepl.h"
#include "hw/linx/tile-dtype.h"
#include "fpu/fpu.h"

/* LinxFpFormat of a float tile DataType. */
static LinxFpFormat fp_format(unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_FP64: return LINX_FP64;
    case LINX_DT_FP32: return LINX_FP32;
    case LINX_DT_BF16: return LINX_BF16;
    default: return LINX_FP16;
    }
}

typedef struct RefCtx {
    const LinxTeplGeom *g;
    LinxFpFormat fmt;
    bool is_float, is_signed;
    LinxFpEnv fe;
} RefCtx;

static uint64_t get(const RefCtx *c, const uint8_t *buf, uint32_t i, uint32_t j)
{
    const LinxTeplGeom *g = c->g;
    size_t off = linx_tile_elem_offset(g->layout, i, j, g->rows, g->cols, g->esize) * g->esize;
    uint64_t v = 0;

    memcpy(&v, buf + off, g->esize);
    return v;
}

static void put(const RefCtx *c, uint32_t i, uint32_t j, uint64_t v)
{
    const LinxTeplGeom *g = c->g;
    size_t off = linx_tile_elem_offset(g->dlayout, i, j, g->drows, g->dcols, g->esize) * g->esize;

    memcpy(g->dst + off, &v, g->esize);
}

static int64_t sext(const RefCtx *c, uint64_t v)
{
    unsigned bits = 8 * c->g->esize;

    return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static uint64_t trunc_elem(const RefCtx *c, uint64_t v)
{
    unsigned bits = 8 * c->g->esize;

    return bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* x > 0 for an element. */
static bool positive(RefCtx *c, uint64_t a)
{
    if (c->is_float) {
        LinxFpEnv fe = c->fe;
        return linx_fcompare(&fe, a, 0, c->fmt, false) == LINX_FREL_GREATER;
    }
    return c->is_signed ? sext(c, a) > 0 : a != 0;
}

static uint64_t to_double_and_back(uint64_t a, unsigned fmt, int which)
{
    LinxFpEnv fe;
    uint64_t d, r;
    double x, y;

    linx_fpenv_init(&fe, LINX_RM_RNE);
    d = linx_fcvt_f2f(&fe, a, (LinxFpFormat)fmt, LINX_FP64);
    memcpy(&x, &d, sizeof(x));
    y = which ? 1.0 / sqrt(x) : log(x);
    if (y != y) {
        return linx_fp_default_nan((LinxFpFormat)fmt);
    }
    memcpy(&r, &y, sizeof(r));
    return linx_fcvt_f2f(&fe, r, LINX_FP64, (LinxFpFormat)fmt);
}

uint64_t tepl_log_bits(uint64_t a, unsigned fmt)
{
    return to_double_and_back(a, fmt, 0);
}

uint64_t tepl_rsqrt_bits(uint64_t a, unsigned fmt)
{
    return to_double_and_back(a, fmt, 1);
}

static uint64_t binary(RefCtx *c, unsigned op, uint64_t a, uint64_t b)
{
    LinxFpEnv *fe = &c->fe;
    unsigned bits = 8 * c->g->esize;
    int64_t sa = sext(c, a), sb = sext(c, b);

    if (c->is_float) {
        switch (op) {
        case LINX_TEPL_TADD: return linx_fadd(fe, a, b, c->fmt);
        case LINX_TEPL_TSUB: return linx_fsub(fe, a, b, c->fmt);
        case LINX_TEPL_TMUL: return linx_fmul(fe, a, b, c->fmt);
        case LINX_TEPL_TDIV: return linx_fdiv(fe, a, b, c->fmt);
        case LINX_TEPL_TMAX: return linx_fmax(fe, a, b, c->fmt);
        case LINX_TEPL_TMIN: return linx_fmin(fe, a, b, c->fmt);
        default: /* TPRELU */
            return positive(c, a) ? a : linx_fmul(fe, a, b, c->fmt);
        }
    }
    switch (op) {
    case LINX_TEPL_TADD: return trunc_elem(c, a + b);
    case LINX_TEPL_TSUB: return trunc_elem(c, a - b);
    case LINX_TEPL_TMUL: return trunc_elem(c, a * b);
    case LINX_TEPL_TDIV:
        if (c->is_signed) {
            if (sb == 0 || (sb == -1 && sa == sext(c, UINT64_C(1) << (bits - 1)))) {
                return 0;
            }
            return trunc_elem(c, (uint64_t)(sa / sb));
        }
        return b == 0 ? 0 : a / b;
    case LINX_TEPL_TMAX:
        return c->is_signed ? (sa > sb ? a : b) : (a > b ? a : b);
    case LINX_TEPL_TMIN:
        return c->is_signed ? (sa < sb ? a : b) : (a < b ? a : b);
    case LINX_TEPL_TAND: return a & b;
    case LINX_TEPL_TOR: return a | b;
    case LINX_TEPL_TXOR: return a ^ b;
    case LINX_TEPL_TSHL: return b >= bits ? 0 : trunc_elem(c, a << b);
    case LINX_TEPL_TSHR:
        if (c->is_signed) {
            return trunc_elem(c, (uint64_t)(b >= bits ? (sa < 0 ? -1 : 0) : sa >> b));
        }
        return b >= bits ? 0 : a >> b;
    default: /* TPRELU */
        return positive(c, a) ? a : trunc_elem(c, a * b);
    }
}

static uint64_t unary(RefCtx *c, unsigned op, uint64_t a)
{
    LinxFpEnv *fe = &c->fe;

    switch (op) {
    case LINX_TEPL_TRELU: return positive(c, a) ? a : 0;
    case LINX_TEPL_TEXP: return linx_fexp(fe, a, c->fmt);
    case LINX_TEPL_TLOG: return tepl_log_bits(a, c->fmt);
    case LINX_TEPL_TSQRT: return linx_fsqrt(fe, a, c->fmt);
    case LINX_TEPL_TRSQRT: return tepl_rsqrt_bits(a, c->fmt);
    default: /* TRECIP */
        return linx_frecip(fe, a, c->fmt);
    }
}

static uint64_t reduce(RefCtx *c, unsigned op, uint64_t acc, uint64_t v)
{
    switch (op) {
    case LINX_TEPL_TROWSUM:
    case LINX_TEPL_TCOLSUM:
        return binary(c, LINX_TEPL_TADD, acc, v);
    case LINX_TEPL_TROWMAX:
    case LINX_TEPL_TCOLMAX:
        return binary(c, LINX_TEPL_TMAX, acc, v);
    default:
        return binary(c, LINX_TEPL_TMIN, acc, v);
    }
}

void linx_tepl_run_ref(const LinxTeplGeom *g)
{
    const LinxTeplOpInfo *oi = g->oi;
    RefCtx c;

    memset(&c, 0, sizeof(c));
    c.g = g;
    c.is_float = g->kind == LINX_DTK_FLOAT;
    c.is_signed = g->kind == LINX_DTK_SINT;
    c.fmt = fp_format(g->dtype);
    linx_fpenv_init(&c.fe, LINX_RM_RNE);
    switch (oi->cls) {
    case LINX_TEPLC_BINARY:
    case LINX_TEPLC_UNARY:
    case LINX_TEPLC_FILL:
    case LINX_TEPLC_ROWEXPAND:
    case LINX_TEPLC_COLEXPAND:
        for (uint32_t i = 0; i < g->vrows; i++) {
            for (uint32_t j = 0; j < g->vcols; j++) {
                uint64_t r;
                switch (oi->cls) {
                case LINX_TEPLC_BINARY:
                    r = binary(&c, oi->base, get(&c, g->src[0], i, j),
                               oi->scalar ? g->scalar : get(&c, g->src[1], i, j));
                    break;
                case LINX_TEPLC_UNARY:
                    r = unary(&c, oi->base, get(&c, g->src[0], i, j));
                    break;
                case LINX_TEPLC_FILL:
                    r = g->scalar;
                    break;
                case LINX_TEPLC_ROWEXPAND:
                    r = get(&c, g->src[0], i, 0);
                    break;
                default:
                    r = get(&c, g->src[0], 0, j);
                    break;
                }
                put(&c, i, j, r);
            }
        }
        break;
    case LINX_TEPLC_ROWRED:
        for (uint32_t i = 0; i < g->vrows; i++) {
            uint64_t acc = get(&c, g->src[0], i, 0);
            for (uint32_t j = 1; j < g->vcols; j++) {
                acc = reduce(&c, oi->base, acc, get(&c, g->src[0], i, j));
            }
            put(&c, i, 0, acc);
        }
        break;
    case LINX_TEPLC_COLRED:
        for (uint32_t j = 0; j < g->vcols; j++) {
            uint64_t acc = get(&c, g->src[0], 0, j);
            for (uint32_t i = 1; i < g->vrows; i++) {
                acc = reduce(&c, oi->base, acc, get(&c, g->src[0], i, j));
            }
            put(&c, 0, j, acc);
        }
        break;
    default: /* TTRANSPOSE: the destination is ND Col x Row */
        for (uint32_t i = 0; i < g->vrows; i++) {
            for (uint32_t j = 0; j < g->vcols; j++) {
                put(&c, j, i, get(&c, g->src[0], i, j));
            }
        }
        break;
    }
}
