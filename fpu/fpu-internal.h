/*
 * Internals of the floating-point library (fpu/): the format
 * table, the unpacked representation, the single rounding routine, and the
 * interfaces between the public entry points, the software path and the
 * host path.  Not for use outside fpu/ and its tests.
 *
 * Unpacked numbers (LinxFpParts): a finite nonzero value is
 *     (-1)^sign * sig * 2^(exp - 63),   bit 63 of sig set,
 * so exp is the unbiased exponent of the leading bit.  Subnormal inputs are
 * normalised on unpack.  Intermediate results carry a "sticky" bit: bit 0
 * of sig is ORed with every discarded bit below it, which keeps the single
 * final rounding exact as long as bit 0 lies at least two places below the
 * rounding position (it always does: formats have at most 53 bits).
 */
#ifndef LINX_FPU_INTERNAL_H
#define LINX_FPU_INTERNAL_H

#include "fpu.h"

__extension__ typedef unsigned __int128 LinxU128;

typedef enum LinxFpClass {
    LINX_FPC_ZERO,
    LINX_FPC_NORMAL, /* finite nonzero (subnormals included, normalised) */
    LINX_FPC_INF,
    LINX_FPC_QNAN,
    LINX_FPC_SNAN,
} LinxFpClass;

typedef struct LinxFpParts {
    uint8_t cls;   /* LinxFpClass */
    bool sign;
    int32_t exp;
    uint64_t sig;
} LinxFpParts;

typedef struct LinxFpFormatInfo {
    const char *name;
    uint8_t bits;      /* total width */
    uint8_t exp_bits;
    uint8_t frac_bits; /* stored fraction bits; precision is frac_bits + 1 */
    int16_t bias;
    bool has_inf;      /* false for E4M3: the top exponent holds numbers and
                          only S.1111.111 is NaN */
    uint64_t default_nan;
} LinxFpFormatInfo;

extern const LinxFpFormatInfo linx_fp_format_info[LINX_FP_NUM_FORMATS];

/* Internal operation codes for the arithmetic dispatch. */
typedef enum LinxFpOp {
    LINX_FPOP_ADD,
    LINX_FPOP_MUL,
    LINX_FPOP_DIV,
    LINX_FPOP_SQRT,
    LINX_FPOP_FMA, /* a*b + c */
} LinxFpOp;

/* ---- Bit helpers ------------------------------------------------------- */

static inline uint64_t linx_fp_mask(LinxFpFormat fmt)
{
    unsigned bits = linx_fp_format_info[fmt].bits;
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static inline uint64_t linx_fp_sign_bit(LinxFpFormat fmt)
{
    return UINT64_C(1) << (linx_fp_format_info[fmt].bits - 1);
}

/* Shift right by @n, ORing everything shifted out into bit 0. */
static inline uint64_t linx_shr_jam64(uint64_t x, int n)
{
    if (n <= 0) {
        return x;
    }
    if (n >= 64) {
        return x != 0;
    }
    return (x >> n) | ((x << (64 - n)) != 0);
}

static inline LinxU128 linx_shr_jam128(LinxU128 x, int n)
{
    if (n <= 0) {
        return x;
    }
    if (n >= 128) {
        return x != 0;
    }
    return (x >> n) | ((x << (128 - n)) != 0);
}

static inline int linx_clz128(LinxU128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);

    if (hi) {
        return __builtin_clzll(hi);
    }
    return 64 + __builtin_clzll((uint64_t)x);
}

/* A nonzero 128-bit significand narrowed to 64 bits with its leading bit
 * at 63: *exp is adjusted by the normalising shift. */
static inline uint64_t linx_narrow128(LinxU128 x, int32_t *exp, int lead_pos)
{
    int lz = linx_clz128(x);

    *exp += (127 - lz) - lead_pos;
    x <<= lz;
    return (uint64_t)(x >> 64) | ((uint64_t)x != 0);
}

/* ---- Packing and rounding (fpu-format.c) ------------------------------- */

LinxFpParts linx_fp_unpack(uint64_t bits, LinxFpFormat fmt);

/* Whether to add one unit in the last place, given the discarded bits
 * @rbits (nonzero), the value of half a unit @half, and the kept LSB
 * (fpu-format.c's rounding to a format, fpu-convert.c's to an integer). */
static inline bool linx_fp_round_up(unsigned rm, bool sign, uint64_t rbits, uint64_t half,
                                    bool lsb)
{
    switch (rm) {
    case LINX_RM_RTZ:
        return false;
    case LINX_RM_RDN:
        return sign;
    case LINX_RM_RUP:
        return !sign;
    case LINX_RM_RMM:
        return rbits >= half;
    default: /* RNE; reserved modes round as RNE */
        return rbits > half || (rbits == half && lsb);
    }
}

/* Round (-1)^sign * sig * 2^(exp - 63) to @fmt with @rm, raise NX/UF/OF in
 * @fe, and return the encoding.  sig must have bit 63 set (or be 0 for a
 * signed zero); bit 0 is the sticky bit. */
uint64_t linx_fp_round_pack(LinxFpEnv *fe, LinxFpFormat fmt, unsigned rm,
                            bool sign, int32_t exp, uint64_t sig);

/* Encodings of the non-finite and zero classes. */
uint64_t linx_fp_pack_zero(LinxFpFormat fmt, bool sign);
/* Infinity, or for E4M3 (no infinities) NaN, or +-max with fp8_saturate. */
uint64_t linx_fp_pack_inf(const LinxFpEnv *fe, LinxFpFormat fmt, bool sign);

/* Default NaN for an operation with NaN operands: raises NV if any operand
 * is signalling. */
uint64_t linx_fp_propagate_nan(LinxFpEnv *fe, LinxFpFormat fmt,
                               const LinxFpParts *a, const LinxFpParts *b,
                               const LinxFpParts *c);

/* Default NaN for an invalid operation: raises NV. */
uint64_t linx_fp_invalid(LinxFpEnv *fe, LinxFpFormat fmt);

static inline bool linx_fp_parts_nan(const LinxFpParts *p)
{
    return p->cls == LINX_FPC_QNAN || p->cls == LINX_FPC_SNAN;
}

/* ---- Software arithmetic (fpu-soft.c) ---------------------------------- */

/* Exact sum of two finite nonzero numbers, not yet rounded: returns false
 * for an exact zero (then *sign is the sign of that zero under @rm). */
bool linx_soft_add_exact(const LinxFpParts *a, const LinxFpParts *b,
                         unsigned rm, bool *sign, int32_t *exp,
                         uint64_t *sig);

uint64_t linx_soft_arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                         uint64_t a, uint64_t b, uint64_t c);

/* ---- Host arithmetic (fpu-host.c) -------------------------------------- */

/* Host instructions with MXCSR capture (x86-64).  Returns false when the
 * host cannot serve the request (format other than FP32/FP64, RMM or a
 * reserved mode, FMA without host FMA, or a non-x86 host).  Operands must
 * not be NaN. */
bool linx_host_arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                     uint64_t a, uint64_t b, uint64_t c, uint64_t *res);

/* RNE shortcut without touching MXCSR: returns false when the result is
 * not a plain normal number whose flags are cheap to know (then use
 * linx_host_arith()).  fe->rm must be RNE; operands must not be NaN. */
bool linx_host_fast_rne(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                        uint64_t a, uint64_t b, uint64_t c, uint64_t *res);

/* One element of a conversion (the software path), for the bulk host
 * converters' fallback.  Integer-only, so safe while MXCSR is changed. */
typedef uint64_t LinxFpElemCvt(LinxFpEnv *fe, uint64_t a);

/* Bulk FP32 -> FP16 and FP16 -> FP32 of @n little-endian elements on the
 * host's F16C unit (x86-64), with MXCSR flag capture; groups holding a NaN
 * go through @elem.  Returns false (nothing done) when the host lacks F16C
 * or the rounding mode is RMM/reserved. */
bool linx_host_cvt_f32_f16(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem);
bool linx_host_cvt_f16_f32(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem);

#endif /* LINX_FPU_INTERNAL_H */
