/*
 * Integer helpers: division (the ISA's defined results for x/0 and
 * MIN/-1, never a host trap) and the bitfield operations the translator
 * does not expand inline.  All are pure functions of their arguments.
 *
 * Division (semantics_conventions division): quotient rounds toward zero;
 * x/0 = 0 remainder x; MIN/-1 = MIN remainder 0; *W forms compute on the
 * low words (signed or unsigned) and sign-extend the 32-bit result.
 */
#include <stdint.h>

#include "helper-ops.h"
#include "helper-proto.h"

uint64_t helper_div(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;

    if (y == 0) {
        return 0;
    }
    if (x == INT64_MIN && y == -1) {
        return a;
    }
    return (uint64_t)(x / y);
}

uint64_t helper_rem(uint64_t a, uint64_t b)
{
    int64_t x = (int64_t)a, y = (int64_t)b;

    if (y == 0) {
        return a;
    }
    if (x == INT64_MIN && y == -1) {
        return 0;
    }
    return (uint64_t)(x % y);
}

uint64_t helper_divu(uint64_t a, uint64_t b)
{
    return b == 0 ? 0 : a / b;
}

uint64_t helper_remu(uint64_t a, uint64_t b)
{
    return b == 0 ? a : a % b;
}

static uint64_t sext32(uint64_t v)
{
    return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

uint64_t helper_divw(uint64_t a, uint64_t b)
{
    int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;

    if (y == 0) {
        return 0;
    }
    if (x == INT32_MIN && y == -1) {
        return sext32((uint32_t)x);
    }
    return sext32((uint32_t)(x / y));
}

uint64_t helper_remw(uint64_t a, uint64_t b)
{
    int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;

    if (y == 0) {
        return sext32((uint32_t)x);
    }
    if (x == INT32_MIN && y == -1) {
        return 0;
    }
    return sext32((uint32_t)(x % y));
}

uint64_t helper_divuw(uint64_t a, uint64_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b;

    return y == 0 ? 0 : sext32(x / y);
}

uint64_t helper_remuw(uint64_t a, uint64_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b;

    return sext32(y == 0 ? x : x % y);
}

/* ---- Bitfields: M and N on a 64-bit ring (semantics_conventions) ---- */

static uint64_t ror64(uint64_t v, unsigned m)
{
    m &= 63;
    return m ? (v >> m) | (v << (64 - m)) : v;
}

static uint64_t rol64(uint64_t v, unsigned m)
{
    return ror64(v, (64 - (m & 63)) & 63);
}

static uint64_t low_mask(unsigned n)
{
    return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* @desc = op | M << 8 | N << 16 (N = 1..64). */
uint64_t helper_bitfield(uint64_t desc, uint64_t src, uint64_t unused)
{
    unsigned op = desc & 0xff;
    unsigned m = (desc >> 8) & 63;
    unsigned n = (desc >> 16) & 127;
    uint64_t mask = low_mask(n);
    uint64_t field = ror64(src, m) & mask;
    uint64_t r = 0;

    (void)unused;
    if (n == 0 || n > 64) {
        return 0;
    }
    switch (op) {
    case LINX_BF_BXU:
        return field;
    case LINX_BF_BXS:
        return n == 64 ? field : (uint64_t)((int64_t)(field << (64 - n)) >> (64 - n));
    case LINX_BF_CLZ:
        /* Leading zeros of the N-bit field (N when it is zero). */
        return field == 0 ? n : (uint64_t)(__builtin_clzll(field) - (64 - (int)n));
    case LINX_BF_CTZ:
        return field == 0 ? n : (uint64_t)__builtin_ctzll(field);
    case LINX_BF_BCNT:
        return (uint64_t)__builtin_popcountll(field);
    case LINX_BF_BIC:
        return src & ~rol64(mask, m);
    case LINX_BF_BIS:
        return src | rol64(mask, m);
    case LINX_BF_REV:
        /* Byte order of the field reversed; N not a multiple of 8 -> 0. */
        if (n % 8) {
            return 0;
        }
        for (unsigned i = 0; i < n / 8; i++) {
            r = (r << 8) | ((field >> (8 * i)) & 0xff);
        }
        return r;
    default:
        return 0;
    }
}

/* HL.BFI: insert the low N bits of @ins into @dst at bit M (ring). */
uint64_t helper_bfi(uint64_t dst, uint64_t ins, uint64_t m, uint64_t n)
{
    uint64_t mask = rol64(low_mask((unsigned)n), (unsigned)m);

    return (dst & ~mask) | (rol64(ins & low_mask((unsigned)n), (unsigned)m) & mask);
}
