/*
 * Conversions: float to float (FCVT, V.FCVT), float to integer (FCVTN/M/
 * P/Z/A, V.FCVTI), integer to float (SCVTF, UCVTF, V.ICVTF), and the bulk
 * element conversion the tile engine uses.
 *
 * Float to integer follows the RISC-V rules (docs/fpu.md): the value is
 * rounded with the given mode, then a result outside the destination range
 * saturates to the nearest bound and raises NV (NaN gives the maximum, like
 * +infinity); NX is raised only for in-range results that needed rounding.
 * -0.0 converts to 0 with no flag; a negative value that rounds to 0 in an
 * unsigned type is 0 with NX, not NV.
 *
 * Bulk conversion has shortcuts for the tile engine's common pairs, with
 * the same results and flags as the element-by-element path: FP32<->FP16
 * on the host F16C unit (fpu-host.c), FP32->BF16 by integer rounding of the
 * top half where no overflow or tiny result can occur, BF16->FP32 by a
 * shift.  NaNs always take the element path (default NaN, NV for sNaN).
 */
#include "fpu-internal.h"

/* Integer type code fields: bit 3 = signed, bits 1:0 = log2(64 / width). */
enum {
    INT_TYPE_SIGNED = 8,
    INT_TYPE_WIDTH_MASK = 3,
};

static unsigned int_width(LinxIntType t)
{
    return 64u >> ((unsigned)t & INT_TYPE_WIDTH_MASK);
}

static bool int_signed(LinxIntType t)
{
    return ((unsigned)t & INT_TYPE_SIGNED) != 0;
}

static bool valid_format(LinxFpFormat fmt)
{
    return (unsigned)fmt < LINX_FP_NUM_FORMATS;
}

/* ---- Float to float ----------------------------------------------------- */

static uint64_t f2f(LinxFpEnv *fe, uint64_t a, LinxFpFormat from,
                    LinxFpFormat to)
{
    LinxFpParts p = linx_fp_unpack(a, from);

    switch (p.cls) {
    case LINX_FPC_QNAN:
    case LINX_FPC_SNAN:
        return linx_fp_propagate_nan(fe, to, &p, NULL, NULL);
    case LINX_FPC_INF:
        if (!linx_fp_format_info[to].has_inf && !fe->fp8_saturate) {
            /* E4M3 cannot hold an infinity. */
            return linx_fp_invalid(fe, to);
        }
        return linx_fp_pack_inf(fe, to, p.sign);
    case LINX_FPC_ZERO:
        return linx_fp_pack_zero(to, p.sign);
    default:
        return linx_fp_round_pack(fe, to, fe->rm, p.sign, p.exp, p.sig);
    }
}

uint64_t linx_fcvt_f2f(LinxFpEnv *fe, uint64_t a, LinxFpFormat from,
                       LinxFpFormat to)
{
    if (!valid_format(from) || !valid_format(to)) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    return f2f(fe, a & linx_fp_mask(from), from, to);
}

/* ---- Float to integer --------------------------------------------------- */

/* Saturated result for an invalid conversion. */
static uint64_t int_bound(LinxIntType t, bool negative)
{
    unsigned w = int_width(t);

    if (int_signed(t)) {
        int64_t lim = negative ? INT64_MIN : INT64_MAX;
        return (uint64_t)(lim >> (64 - w));
    }
    if (negative) {
        return 0;
    }
    return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

uint64_t linx_fcvt_f2i(LinxFpEnv *fe, uint64_t a, LinxFpFormat from,
                       LinxIntType to, LinxFpRound rm)
{
    if (!valid_format(from) || !linx_int_type_valid(to)) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    LinxFpParts p = linx_fp_unpack(a & linx_fp_mask(from), from);
    const unsigned w = int_width(to);
    const bool is_signed = int_signed(to);

    switch (p.cls) {
    case LINX_FPC_QNAN:
    case LINX_FPC_SNAN:
        fe->flags |= LINX_FPF_NV;
        return int_bound(to, false);
    case LINX_FPC_INF:
        fe->flags |= LINX_FPF_NV;
        return int_bound(to, p.sign);
    case LINX_FPC_ZERO:
        return 0;
    default:
        break;
    }

    /* |value| = sig * 2^(exp - 63): split into integer and a 64-bit
     * fraction (binary point above bit 63, sticky in bit 0). */
    uint64_t ipart, frac;
    if (p.exp >= 64) {
        fe->flags |= LINX_FPF_NV;
        return int_bound(to, p.sign);
    } else if (p.exp == 63) {
        ipart = p.sig;
        frac = 0;
    } else if (p.exp >= 0) {
        ipart = p.sig >> (63 - p.exp);
        frac = p.sig << (p.exp + 1);
    } else {
        ipart = 0;
        frac = linx_shr_jam64(p.sig, -1 - p.exp);
    }
    if (frac && linx_fp_round_up(rm, p.sign, frac, UINT64_C(1) << 63, ipart & 1)) {
        ipart++;
        if (ipart == 0) { /* carried out of 64 bits */
            fe->flags |= LINX_FPF_NV;
            return int_bound(to, p.sign);
        }
    }

    /* Range check of the rounded magnitude. */
    uint64_t max_pos = is_signed ? (UINT64_C(1) << (w - 1)) - 1
                                 : (w == 64 ? UINT64_MAX
                                            : (UINT64_C(1) << w) - 1);
    uint64_t max_neg = is_signed ? UINT64_C(1) << (w - 1) : 0;
    if ((!p.sign && ipart > max_pos) || (p.sign && ipart > max_neg)) {
        fe->flags |= LINX_FPF_NV;
        return int_bound(to, p.sign);
    }
    if (frac) {
        fe->flags |= LINX_FPF_NX;
    }
    if (p.sign) {
        /* Negative in-range values exist only for signed types (or zero). */
        return (uint64_t)0 - ipart;
    }
    return ipart;
}

/* ---- Integer to float --------------------------------------------------- */

uint64_t linx_fcvt_i2f(LinxFpEnv *fe, uint64_t a, LinxIntType from,
                       LinxFpFormat to)
{
    if (!valid_format(to) || !linx_int_type_valid(from)) {
        fe->flags |= LINX_FPF_NV;
        return 0;
    }
    const unsigned w = int_width(from);
    uint64_t v = w == 64 ? a : a & ((UINT64_C(1) << w) - 1);
    bool sign = false;

    if (int_signed(from) && ((v >> (w - 1)) & 1)) {
        sign = true;
        /* Magnitude of the w-bit two's complement value. */
        v = (w == 64 ? 0 : (UINT64_C(1) << w)) - v;
    }
    if (v == 0) {
        return 0;
    }
    int lz = __builtin_clzll(v);
    return linx_fp_round_pack(fe, to, fe->rm, sign, 63 - lz, v << lz);
}

/* ---- Bulk conversion ---------------------------------------------------- */

static uint64_t load_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static void store_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint64_t elem_f32_f16(LinxFpEnv *fe, uint64_t a)
{
    return f2f(fe, a, LINX_FP32, LINX_FP16);
}

static uint64_t elem_f16_f32(LinxFpEnv *fe, uint64_t a)
{
    return f2f(fe, a, LINX_FP16, LINX_FP32);
}

/* FP32 field constants for the BF16 shortcuts. */
enum {
    F32_EXP_SHIFT = 23,
    F32_EXP_FIELD = 0xff,
    BF16_SHIFT = 16,
    BF16_EXP_BITS = 0x7f80,
    LOW16 = 0xffff,
    HALF16 = 0x8000,
};

#define F32_ABS_MASK UINT32_C(0x7fffffff)
#define F32_INF UINT32_C(0x7f800000)
#define F32_SIGN_SHIFT 31

/* FP32 -> BF16 of one value by integer rounding of the top 16 bits: valid
 * for exponent fields 2..254 (no subnormal or tiny result possible) when
 * the result does not overflow; returns false otherwise. */
static bool bf16_shortcut(LinxFpEnv *fe, uint32_t x, uint16_t *out)
{
    uint32_t e = (x >> F32_EXP_SHIFT) & F32_EXP_FIELD;
    bool neg = x >> F32_SIGN_SHIFT;
    uint32_t r;

    if (e < 2 || e == F32_EXP_FIELD) {
        return false;
    }
    switch (fe->rm) {
    case LINX_RM_RNE:
        r = (x + (LOW16 >> 1) + ((x >> BF16_SHIFT) & 1)) >> BF16_SHIFT;
        break;
    case LINX_RM_RTZ:
        r = x >> BF16_SHIFT;
        break;
    case LINX_RM_RUP:
        r = (neg ? x : x + LOW16) >> BF16_SHIFT;
        break;
    case LINX_RM_RDN:
        r = (neg ? x + LOW16 : x) >> BF16_SHIFT;
        break;
    case LINX_RM_RMM:
        r = (x + HALF16) >> BF16_SHIFT;
        break;
    default:
        return false;
    }
    if ((r & BF16_EXP_BITS) == BF16_EXP_BITS) {
        return false; /* overflow: the general path sets OF */
    }
    if (x & LOW16) {
        fe->flags |= LINX_FPF_NX;
    }
    *out = (uint16_t)r;
    return true;
}

/* The BF16 <-> FP32 and FP16 <-> FP32 pairs the tile engine uses most have
 * shortcuts; LINX_FP_IMPL_SOFT turns them off (tests compare the two). */
static bool bulk_shortcut(LinxFpEnv *fe, uint8_t *d, LinxFpFormat to,
                          const uint8_t *s, LinxFpFormat from, size_t n)
{
    if (fe->impl == LINX_FP_IMPL_SOFT) {
        return false;
    }
    if (from == LINX_FP32 && to == LINX_FP16) {
        return linx_host_cvt_f32_f16(fe, d, s, n, elem_f32_f16);
    }
    if (from == LINX_FP16 && to == LINX_FP32) {
        return linx_host_cvt_f16_f32(fe, d, s, n, elem_f16_f32);
    }
    if (from == LINX_FP32 && to == LINX_BF16) {
        for (size_t i = 0; i < n; i++) {
            uint32_t x = (uint32_t)load_le(s + 4 * i, 4);
            uint16_t h;
            if (!bf16_shortcut(fe, x, &h)) {
                h = (uint16_t)f2f(fe, x, LINX_FP32, LINX_BF16);
            }
            store_le(d + 2 * i, h, 2);
        }
        return true;
    }
    if (from == LINX_BF16 && to == LINX_FP32) {
        for (size_t i = 0; i < n; i++) {
            uint32_t h = (uint32_t)load_le(s + 2 * i, 2);
            uint32_t w = h << BF16_SHIFT;
            if ((w & F32_ABS_MASK) > F32_INF) {
                w = (uint32_t)f2f(fe, h, LINX_BF16, LINX_FP32);
            }
            store_le(d + 4 * i, w, 4);
        }
        return true;
    }
    return false;
}

void linx_fcvt_buf(LinxFpEnv *fe, void *dst, LinxFpFormat to,
                   const void *src, LinxFpFormat from, size_t n)
{
    if (!valid_format(from) || !valid_format(to)) {
        fe->flags |= LINX_FPF_NV;
        return;
    }
    const unsigned sb = linx_fp_format_info[from].bits / 8;
    const unsigned db = linx_fp_format_info[to].bits / 8;
    const uint8_t *s = src;
    uint8_t *d = dst;

    if (bulk_shortcut(fe, d, to, s, from, n)) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = f2f(fe, load_le(s + i * sb, sb), from, to);
        store_le(d + i * db, v, db);
    }
}
