/*
 * Native baselines of bench-kernels: the same work as the guest kernels in
 * plain C, built at -O2 (tests/bench/meson.build), so GCC's default
 * auto-vectorisation (SSE2 on the baseline x86-64 target) applies where it
 * can: restrict pointers and constant trip counts, nothing hand-tuned.
 * Each function takes the data area; the arrays are at BK_X, BK_Y, BK_Z.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "bench-kernels-native.h"

#define AT(T, m, off) ((T *)((m) + (off)))

void bk_vadd_4k(uint8_t *m)
{
    const int32_t *restrict a = AT(const int32_t, m, BK_X), *restrict b =
                                                                AT(const int32_t, m, BK_Y);
    int32_t *restrict c = AT(int32_t, m, BK_Z);

    for (unsigned i = 0; i < 4096; i++) {
        c[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
    }
}

#define SAXPY_OUT(name, N)                                                                         \
    void name(uint8_t *m)                                                                          \
    {                                                                                              \
        const float *restrict x = AT(const float, m, BK_X), *restrict y =                          \
                                                                AT(const float, m, BK_Y);          \
        float *restrict z = AT(float, m, BK_Z);                                                    \
        const float s = 3.0f;                                                                      \
        for (unsigned i = 0; i < (N); i++) {                                                       \
            z[i] = s * x[i] + y[i];                                                                \
        }                                                                                          \
    }
#define SAXPY_IN(name, N)                                                                          \
    void name(uint8_t *m)                                                                          \
    {                                                                                              \
        const float *restrict x = AT(const float, m, BK_X);                                        \
        float *restrict y = AT(float, m, BK_Y);                                                    \
        const float s = 3.0f;                                                                      \
        for (unsigned i = 0; i < (N); i++) {                                                       \
            y[i] = s * x[i] + y[i];                                                                \
        }                                                                                          \
    }
SAXPY_OUT(bk_saxpy_4k, 4096)
SAXPY_OUT(bk_saxpy_64k, 65536)
SAXPY_OUT(bk_saxpy_1m, 1u << 20)
SAXPY_IN(bk_saxpy_in_64k, 65536)
SAXPY_IN(bk_saxpy_in_1m, 1u << 20)

/* Row-wise softmax as the guest body computes it: m = max over the row,
 * e = exp(x - m), s = sum of e in order, y = e / s. */
static inline void softmax_rows(uint8_t *m, unsigned rows, unsigned cols)
{
    for (unsigned r = 0; r < rows; r++) {
        const float *restrict x = AT(const float, m, BK_X) + (size_t)r * cols;
        float *restrict y = AT(float, m, BK_Z) + (size_t)r * cols;
        float mx = x[0], s = 0.0f;
        for (unsigned c = 1; c < cols; c++) {
            mx = x[c] > mx ? x[c] : mx;
        }
        for (unsigned c = 0; c < cols; c++) {
            y[c] = expf(x[c] - mx);
            s += y[c];
        }
        for (unsigned c = 0; c < cols; c++) {
            y[c] = y[c] / s;
        }
    }
}

void bk_softmax_64x1024(uint8_t *m)
{
    softmax_rows(m, 64, 1024);
}

void bk_softmax_1x65536(uint8_t *m)
{
    softmax_rows(m, 1, 65536);
}

void bk_rdadd_64k(uint8_t *m)
{
    const int32_t *restrict x = AT(const int32_t, m, BK_X);
    int64_t s = 0;

    for (unsigned i = 0; i < 65536; i++) {
        s += x[i];
    }
    *AT(int64_t, m, BK_Z) = s;
}

void bk_gather_64k(uint8_t *m)
{
    const uint32_t *restrict idx = AT(const uint32_t, m, BK_X);
    const int32_t *restrict t = AT(const int32_t, m, BK_Y);
    int32_t *restrict z = AT(int32_t, m, BK_Z);

    for (unsigned i = 0; i < 65536; i++) {
        z[i] = t[idx[i]];
    }
}

void bk_tadd_f32(uint8_t *m)
{
    const float *restrict a = AT(const float, m, BK_X), *restrict b = AT(const float, m, BK_Y);
    float *restrict c = AT(float, m, BK_Z);

    for (unsigned i = 0; i < 1024; i++) {
        c[i] = a[i] + b[i];
    }
}

void bk_tadd_i8(uint8_t *m)
{
    const uint8_t *restrict a = m + BK_X, *restrict b = m + BK_Y;
    uint8_t *restrict c = m + BK_Z;

    for (unsigned i = 0; i < 4096; i++) {
        c[i] = (uint8_t)(a[i] + b[i]);
    }
}

/* C (32 x 32) = A (32 x 32) x B (32 x 32), row-major, k in order. */
void bk_mm_f32(uint8_t *m)
{
    const float *a = AT(const float, m, BK_X), *b = AT(const float, m, BK_Y);
    float *c = AT(float, m, BK_Z);

    for (unsigned i = 0; i < 32; i++) {
        for (unsigned j = 0; j < 32; j++) {
            float s = 0;
            for (unsigned k = 0; k < 32; k++) {
                s += a[i * 32 + k] * b[k * 32 + j];
            }
            c[i * 32 + j] = s;
        }
    }
}

void bk_mm_i8(uint8_t *m)
{
    const int8_t *a = AT(const int8_t, m, BK_X), *b = AT(const int8_t, m, BK_Y);
    int32_t *c = AT(int32_t, m, BK_Z);

    for (unsigned i = 0; i < 32; i++) {
        for (unsigned j = 0; j < 32; j++) {
            int32_t s = 0;
            for (unsigned k = 0; k < 32; k++) {
                s += a[i * 32 + k] * b[k * 32 + j];
            }
            c[i * 32 + j] = s;
        }
    }
}
