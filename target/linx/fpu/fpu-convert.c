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

static bool round_int_up(unsigned rm, bool sign, uint64_t frac, bool lsb)
{
    const uint64_t half = UINT64_C(1) << 63;

    switch (rm) {
    case LINX_RM_RTZ:
        return false;
    case LINX_RM_RDN:
        return sign;
    case LINX_RM_RUP:
        return !sign;
    case LINX_RM_RMM:
        return frac >= half;
    default:
        return frac > half || (frac == half && lsb);
    }
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
    if (frac && round_int_up(rm, p.sign, frac, ipart & 1)) {
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

    for (size_t i = 0; i < n; i++) {
        uint64_t v = f2f(fe, load_le(s + i * sb, sb), from, to);
        store_le(d + i * db, v, db);
    }
}
