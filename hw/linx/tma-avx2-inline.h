/*
 * AVX2 building blocks of the TMA kernels, as always-inline functions so
 * that callers with constant shapes get fully specialised code: the
 * run-time-shape and fixed-shape kernels (tma-kernels-avx2.c) and the
 * native fixed-shape baselines of the tile benchmark (tests/bench).
 *
 * Only include on x86-64; every function carries target("avx2"), so the
 * including file needs no special flags, but callers must check
 * tma_host_has_avx2() before running them.
 *
 *   copy_bytes   n bytes with 32-byte moves and an overlapping tail
 *   nd_sub       ND rows (one copy when GM and tile rows are both dense)
 *   nz_sub       NZ 32-byte runs in GM-row order
 *   zn_sub       ZN c0 x c0 blocks transposed in registers
 *                (transpose_e1/e2/e4/e8), partial blocks via tma_zn_edge
 * Arguments are in the effective orientation of tma-kernels.h.
 */
#ifndef LINX_HW_TMA_AVX2_INLINE_H
#define LINX_HW_TMA_AVX2_INLINE_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hw/linx/tma-kernels.h"

#define INLINE_AVX2 static inline __attribute__((always_inline, target("avx2")))

INLINE_AVX2 __m256i ld32(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

INLINE_AVX2 void st32(uint8_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)p, v);
}

/* Copy @n bytes (no overlap between @d and @s). */
INLINE_AVX2 void copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 32) {
        size_t k = 0;

        for (; k + 128 <= n; k += 128) {
            __m256i a = ld32(s + k), b = ld32(s + k + 32);
            __m256i c = ld32(s + k + 64), e = ld32(s + k + 96);
            st32(d + k, a);
            st32(d + k + 32, b);
            st32(d + k + 64, c);
            st32(d + k + 96, e);
        }
        for (; k + 32 <= n; k += 32) {
            st32(d + k, ld32(s + k));
        }
        if (k < n) {
            st32(d + n - 32, ld32(s + n - 32));
        }
    } else if (n >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + n - 16), b);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n >= 2) {
        uint16_t a, b;
        memcpy(&a, s, 2);
        memcpy(&b, s + n - 2, 2);
        memcpy(d, &a, 2);
        memcpy(d + n - 2, &b, 2);
    } else if (n == 1) {
        *d = *s;
    }
}

/* ------------------------------------------------------------------ */
/* ND and NZ                                                           */
/* ------------------------------------------------------------------ */

INLINE_AVX2 void nd_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tc, uint32_t vr,
                        uint32_t vc, unsigned esize, bool store)
{
    size_t row_bytes = (size_t)vc * esize, tile_row = (size_t)tc * esize;

    if (row_bytes == tile_row && stride == tile_row) {
        if (store) {
            copy_bytes(gm, tile, row_bytes * vr);
        } else {
            copy_bytes(tile, gm, row_bytes * vr);
        }
        return;
    }
    for (uint32_t r = 0; r < vr; r++) {
        if (store) {
            copy_bytes(gm + r * stride, tile + r * tile_row, row_bytes);
        } else {
            copy_bytes(tile + r * tile_row, gm + r * stride, row_bytes);
        }
    }
}

INLINE_AVX2 void nz_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tr, uint32_t vr,
                        uint32_t vc, unsigned esize, bool store)
{
    size_t row_bytes = (size_t)vc * esize;
    size_t nfull = row_bytes / TMA_BLOCK_BYTES, tail = row_bytes % TMA_BLOCK_BYTES;
    size_t bs = (size_t)tr * TMA_BLOCK_BYTES;

    for (uint32_t r = 0; r < vr; r++) {
        uint8_t *g = gm + r * stride;
        uint8_t *t = tile + (size_t)r * TMA_BLOCK_BYTES;
        size_t b = 0;

        if (store) {
            for (; b + 4 <= nfull; b += 4) {
                __m256i v0 = ld32(t + b * bs), v1 = ld32(t + (b + 1) * bs);
                __m256i v2 = ld32(t + (b + 2) * bs), v3 = ld32(t + (b + 3) * bs);
                st32(g + b * 32, v0);
                st32(g + b * 32 + 32, v1);
                st32(g + b * 32 + 64, v2);
                st32(g + b * 32 + 96, v3);
            }
            for (; b < nfull; b++) {
                st32(g + b * 32, ld32(t + b * bs));
            }
            if (tail) {
                copy_bytes(g + b * 32, t + b * bs, tail);
            }
        } else {
            for (; b + 4 <= nfull; b += 4) {
                __m256i v0 = ld32(g + b * 32), v1 = ld32(g + b * 32 + 32);
                __m256i v2 = ld32(g + b * 32 + 64), v3 = ld32(g + b * 32 + 96);
                st32(t + b * bs, v0);
                st32(t + (b + 1) * bs, v1);
                st32(t + (b + 2) * bs, v2);
                st32(t + (b + 3) * bs, v3);
            }
            for (; b < nfull; b++) {
                st32(t + b * bs, ld32(g + b * 32));
            }
            if (tail) {
                copy_bytes(t + b * bs, g + b * 32, tail);
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Block transposes: rows of 32 bytes at @s (stride @ss) -> @d (@ds)   */
/* ------------------------------------------------------------------ */

/* 4 x 4 of 64-bit elements. */
INLINE_AVX2 void transpose_e8(const uint8_t *s, size_t ss, uint8_t *d, size_t ds)
{
    __m256i r0 = ld32(s), r1 = ld32(s + ss), r2 = ld32(s + 2 * ss), r3 = ld32(s + 3 * ss);
    __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
    __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);

    st32(d, _mm256_permute2x128_si256(t0, t2, 0x20));
    st32(d + ds, _mm256_permute2x128_si256(t1, t3, 0x20));
    st32(d + 2 * ds, _mm256_permute2x128_si256(t0, t2, 0x31));
    st32(d + 3 * ds, _mm256_permute2x128_si256(t1, t3, 0x31));
}

/* 8 x 8 of 32-bit elements. */
INLINE_AVX2 void transpose_e4(const uint8_t *s, size_t ss, uint8_t *d, size_t ds)
{
    __m256i r[8], t[8], u[8];

    for (int i = 0; i < 8; i++) {
        r[i] = ld32(s + i * ss);
    }
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int g = 0; g < 8; g += 4) {
        u[g] = _mm256_unpacklo_epi64(t[g], t[g + 2]);
        u[g + 1] = _mm256_unpackhi_epi64(t[g], t[g + 2]);
        u[g + 2] = _mm256_unpacklo_epi64(t[g + 1], t[g + 3]);
        u[g + 3] = _mm256_unpackhi_epi64(t[g + 1], t[g + 3]);
    }
    for (int k = 0; k < 4; k++) {
        st32(d + k * ds, _mm256_permute2x128_si256(u[k], u[k + 4], 0x20));
        st32(d + (k + 4) * ds, _mm256_permute2x128_si256(u[k], u[k + 4], 0x31));
    }
}

/* In-lane 8 x 8 transpose of 16-bit elements over rows a[0..7]: out[k]
 * holds, per 128-bit lane L, column 8L + k of the 8 rows. */
INLINE_AVX2 void lane_transpose_e2(const __m256i a[8], __m256i out[8])
{
    __m256i p[8], q[8];

    for (int m = 0; m < 8; m += 2) {
        p[m] = _mm256_unpacklo_epi16(a[m], a[m + 1]);
        p[m + 1] = _mm256_unpackhi_epi16(a[m], a[m + 1]);
    }
    q[0] = _mm256_unpacklo_epi32(p[0], p[2]);
    q[1] = _mm256_unpackhi_epi32(p[0], p[2]);
    q[2] = _mm256_unpacklo_epi32(p[1], p[3]);
    q[3] = _mm256_unpackhi_epi32(p[1], p[3]);
    q[4] = _mm256_unpacklo_epi32(p[4], p[6]);
    q[5] = _mm256_unpackhi_epi32(p[4], p[6]);
    q[6] = _mm256_unpacklo_epi32(p[5], p[7]);
    q[7] = _mm256_unpackhi_epi32(p[5], p[7]);
    for (int k = 0; k < 4; k++) {
        out[2 * k] = _mm256_unpacklo_epi64(q[k], q[k + 4]);
        out[2 * k + 1] = _mm256_unpackhi_epi64(q[k], q[k + 4]);
    }
}

/* 16 x 16 of 16-bit elements. */
INLINE_AVX2 void transpose_e2(const uint8_t *s, size_t ss, uint8_t *d, size_t ds)
{
    __m256i a[8], lo[8], hi[8];

    for (int i = 0; i < 8; i++) {
        a[i] = ld32(s + i * ss);
    }
    lane_transpose_e2(a, lo);
    for (int i = 0; i < 8; i++) {
        a[i] = ld32(s + (i + 8) * ss);
    }
    lane_transpose_e2(a, hi);
    for (int k = 0; k < 8; k++) {
        st32(d + k * ds, _mm256_permute2x128_si256(lo[k], hi[k], 0x20));
        st32(d + (k + 8) * ds, _mm256_permute2x128_si256(lo[k], hi[k], 0x31));
    }
}

/* In-lane 16 x 16 transpose of bytes over rows a[0..15]: out[k] holds,
 * per lane L, column 16L + k of the 16 rows. */
INLINE_AVX2 void lane_transpose_e1(const __m256i a[16], __m256i out[16])
{
    __m256i p[16], q[16], r[16];

    for (int m = 0; m < 16; m += 2) {
        p[m] = _mm256_unpacklo_epi8(a[m], a[m + 1]);
        p[m + 1] = _mm256_unpackhi_epi8(a[m], a[m + 1]);
    }
    for (int n = 0; n < 16; n += 4) {
        q[n] = _mm256_unpacklo_epi16(p[n], p[n + 2]);
        q[n + 1] = _mm256_unpackhi_epi16(p[n], p[n + 2]);
        q[n + 2] = _mm256_unpacklo_epi16(p[n + 1], p[n + 3]);
        q[n + 3] = _mm256_unpackhi_epi16(p[n + 1], p[n + 3]);
    }
    for (int h = 0; h < 16; h += 8) {
        for (int x = 0; x < 4; x++) {
            r[h + 2 * x] = _mm256_unpacklo_epi32(q[h + x], q[h + 4 + x]);
            r[h + 2 * x + 1] = _mm256_unpackhi_epi32(q[h + x], q[h + 4 + x]);
        }
    }
    for (int y = 0; y < 8; y++) {
        out[2 * y] = _mm256_unpacklo_epi64(r[y], r[8 + y]);
        out[2 * y + 1] = _mm256_unpackhi_epi64(r[y], r[8 + y]);
    }
}

/* 32 x 32 bytes. */
INLINE_AVX2 void transpose_e1(const uint8_t *s, size_t ss, uint8_t *d, size_t ds)
{
    __m256i a[16], lo[16], hi[16];

    for (int i = 0; i < 16; i++) {
        a[i] = ld32(s + i * ss);
    }
    lane_transpose_e1(a, lo);
    for (int i = 0; i < 16; i++) {
        a[i] = ld32(s + (i + 16) * ss);
    }
    lane_transpose_e1(a, hi);
    for (int k = 0; k < 16; k++) {
        st32(d + k * ds, _mm256_permute2x128_si256(lo[k], hi[k], 0x20));
        st32(d + (k + 16) * ds, _mm256_permute2x128_si256(lo[k], hi[k], 0x31));
    }
}

INLINE_AVX2 void transpose_block(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                 unsigned esize)
{
    switch (esize) {
    case 1:
        transpose_e1(s, ss, d, ds);
        break;
    case 2:
        transpose_e2(s, ss, d, ds);
        break;
    case 4:
        transpose_e4(s, ss, d, ds);
        break;
    default:
        transpose_e8(s, ss, d, ds);
        break;
    }
}

INLINE_AVX2 void zn_sub(uint8_t *gm, size_t stride, uint8_t *tile, uint32_t tc, uint32_t vr,
                        uint32_t vc, unsigned esize, bool store)
{
    uint32_t n = TMA_BLOCK_BYTES / esize;
    uint32_t rfull = vr / n * n, cfull = vc / n * n;

    for (uint32_t r = 0; r < rfull; r += n) {
        uint8_t *blkrow = tile + (size_t)r * tc * esize;
        uint8_t *grow = gm + r * stride;

        for (uint32_t c = 0; c < cfull; c += n) {
            uint8_t *g = grow + (size_t)c * esize;
            uint8_t *t = blkrow + (size_t)c * TMA_BLOCK_BYTES;

            if (store) {
                transpose_block(t, TMA_BLOCK_BYTES, g, stride, esize);
            } else {
                transpose_block(g, stride, t, TMA_BLOCK_BYTES, esize);
            }
        }
    }
    if (cfull < vc) {
        tma_zn_edge(gm, stride, tile, tc, 0, rfull, cfull, vc, esize, store);
    }
    if (rfull < vr) {
        tma_zn_edge(gm, stride, tile, tc, rfull, vr, 0, vc, esize, store);
    }
}

#endif /* LINX_HW_TMA_AVX2_INLINE_H */
