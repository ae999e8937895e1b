/*
 * Fast TMATMUL / TMATMUL.ACC (see tile-cube-fast.h, docs/kernels.md).
 *
 * The operands are unpacked once into plain arrays: A (NZ) into row-major
 * m x k, B (ZN) into row-major k x npad (npad = n rounded up to CB, zero
 * padded), fp16 / bf16 / e4m3 widened to fp32 (exact), int8
 * sign-extended to 32 bits, int32 as it is.  Dense (ND) operands are read
 * row-major with rows of k (A) and n (B) elements.  Then RB x CB register blocks of the result: for each k in
 * order, c[r][j] = c[r][j] + a[r][k] * b[k][j], which is the reference's
 * "s += A(i, k) * B(k, j)" per element, so every rounding is the same
 * (no fused multiply-add: the vector code is compiled for SSE2 or AVX2,
 * neither has FMA).  Integer products and sums are in uint32 (wrapping,
 * as the reference's).  A generic GCC/clang vector-extension body is
 * built twice: for the baseline ISA and, on x86-64, with AVX2 (chosen at
 * run time).
 */
#include "hw/linx/tile-cube-fast.h"

#include <stdlib.h>
#include <string.h>

#include "hw/linx/tile-dtype.h"

enum {
    MAX_K = 512,    /* longer sums: the reference (their operands are thin) */
    RB = 4,         /* result rows per register block */
    CB = 16,        /* result columns per register block (2 vectors) */
    VLEN = 8,       /* 32-bit elements per vector */
    BLOCK_BYTES = 32,
    A_MAX = LINX_TILE_MAX_BYTES + (RB - 1) * MAX_K,
    B_MAX = LINX_TILE_MAX_BYTES + (CB - 1) * MAX_K,
};

typedef float VF __attribute__((vector_size(32)));
typedef uint32_t VU __attribute__((vector_size(32)));

/* An unpacked element: fp32 for the real types, int32 bits for S8 / S32. */
typedef union Word {
    float f;
    uint32_t u;
} Word;

/* Unpacked operands, per thread (a helper may run on any vCPU thread). */
typedef struct CubeBufs {
    _Alignas(32) Word a[A_MAX];
    _Alignas(32) Word b[B_MAX];
} CubeBufs;

static _Thread_local CubeBufs bufs;

bool linx_cube_reference_from_env(void)
{
    const char *v = getenv("LINX_CUBE_REFERENCE");

    return v && v[0] && strcmp(v, "0") != 0;
}

static uint32_t round_up(uint32_t v, uint32_t to)
{
    return (v + to - 1) / to * to;
}

/* One element of @dtype as the 32-bit word the kernels work on: fp32 bits
 * for the real types, the (sign-extended) value for S8 and S32. */
static inline uint32_t unpack(unsigned dtype, const uint8_t *p)
{
    uint16_t h;
    uint32_t w;
    float f;

    switch (dtype) {
    case LINX_DT_S8:
        return (uint32_t)(int32_t)(int8_t)*p;
    case LINX_DT_FP16:
        memcpy(&h, p, 2);
        f = linx_fp16_to_float(h);
        memcpy(&w, &f, 4);
        return w;
    case LINX_DT_BF16:
        memcpy(&h, p, 2);
        return (uint32_t)h << 16;
    case LINX_DT_FP8:
        f = linx_e4m3_to_float(*p);
        memcpy(&w, &f, 4);
        return w;
    default:
        memcpy(&w, p, 4);
        return w;
    }
}

/* A (NZ: element (i, c) at ((c / c0) * rows + i) * c0 + c % c0; dense: at
 * i * k + c) into row-major m x k, rows m..mpad-1 zero. */
static void unpack_a(const LinxTileSlot *a, unsigned dtype, unsigned esize, bool dense,
                     uint32_t m, uint32_t mpad, uint32_t k, Word *out)
{
    uint32_t c0 = BLOCK_BYTES / esize, rows = a->meta.rows;

    for (uint32_t i = 0; dense && i < m; i++) {
        const uint8_t *src = a->data + (size_t)i * k * esize;

        for (uint32_t t = 0; t < k; t++) {
            out[(size_t)i * k + t].u = unpack(dtype, src + (size_t)t * esize);
        }
    }
    for (uint32_t i = 0; !dense && i < m; i++) {
        for (uint32_t cb = 0; cb * c0 < k; cb++) {
            const uint8_t *src = a->data + ((size_t)cb * rows + i) * c0 * esize;
            uint32_t run = k - cb * c0 < c0 ? k - cb * c0 : c0;

            for (uint32_t t = 0; t < run; t++) {
                out[(size_t)i * k + cb * c0 + t].u = unpack(dtype, src + (size_t)t * esize);
            }
        }
    }
    memset(out + (size_t)m * k, 0, (size_t)(mpad - m) * k * sizeof(*out));
}

/* B (ZN: element (r, j) at ((r / c0) * cols + j) * c0 + r % c0; dense: at
 * r * n + j) into row-major k x npad, columns n..npad-1 zero. */
static void unpack_b(const LinxTileSlot *b, unsigned dtype, unsigned esize, bool dense,
                     uint32_t n, uint32_t npad, uint32_t k, Word *out)
{
    uint32_t c0 = BLOCK_BYTES / esize, cols = b->meta.cols;

    memset(out, 0, (size_t)k * npad * sizeof(*out));
    for (uint32_t r = 0; dense && r < k; r++) {
        const uint8_t *src = b->data + (size_t)r * n * esize;

        for (uint32_t j = 0; j < n; j++) {
            out[(size_t)r * npad + j].u = unpack(dtype, src + (size_t)j * esize);
        }
    }
    for (uint32_t j = 0; !dense && j < n; j++) {
        for (uint32_t rb = 0; rb * c0 < k; rb++) {
            const uint8_t *src = b->data + ((size_t)rb * cols + j) * c0 * esize;
            uint32_t run = k - rb * c0 < c0 ? k - rb * c0 : c0;

            for (uint32_t t = 0; t < run; t++) {
                out[(size_t)(rb * c0 + t) * npad + j].u = unpack(dtype, src + (size_t)t * esize);
            }
        }
    }
}

/* Store rows i..i+RB-1 (those < m), columns j..j+CB-1 (those < n) of a
 * register block: ACC = c, or ACC = ACC + c. */
static inline __attribute__((always_inline)) void store_f32(uint8_t *acc, const float *c,
                                                            uint32_t i, uint32_t j, uint32_t m,
                                                            uint32_t n, bool accumulate)
{
    for (uint32_t r = 0; r < RB && i + r < m; r++) {
        for (uint32_t t = 0; t < CB && j + t < n; t++) {
            uint8_t *o = acc + ((size_t)(i + r) * n + j + t) * 4;
            float v = c[r * CB + t], old;

            if (accumulate) {
                memcpy(&old, o, 4);
                v = old + v;
            }
            memcpy(o, &v, 4);
        }
    }
}

static inline __attribute__((always_inline)) void store_u32(uint8_t *acc, const uint32_t *c,
                                                            uint32_t i, uint32_t j, uint32_t m,
                                                            uint32_t n, bool accumulate)
{
    for (uint32_t r = 0; r < RB && i + r < m; r++) {
        for (uint32_t t = 0; t < CB && j + t < n; t++) {
            uint8_t *o = acc + ((size_t)(i + r) * n + j + t) * 4;
            uint32_t v = c[r * CB + t], old;

            if (accumulate) {
                memcpy(&old, o, 4);
                v += old;
            }
            memcpy(o, &v, 4);
        }
    }
}

/*
 * The kernels.  @A row-major mpad x k, @B row-major k x npad (32-byte
 * aligned, npad a multiple of CB).  Both bodies are the same loop nest.
 */
#define CUBE_KERNEL_BODY(VT, ET, MEMBER, STORE)                                                    \
    for (uint32_t i = 0; i < m; i += RB) {                                                 \
        const Word *a = A + (size_t)i * k;                                                 \
        for (uint32_t j = 0; j < npad; j += CB) {                                          \
            VT c[RB][2];                                                                   \
            ET out[RB * CB];                                                               \
            const Word *bp = B + j;                                                        \
                                                                                           \
            memset(c, 0, sizeof(c));                                                       \
            for (uint32_t kk = 0; kk < k; kk++, bp += npad) {                              \
                VT b0, b1;                                                                 \
                                                                                           \
                memcpy(&b0, bp, sizeof(b0));                                               \
                memcpy(&b1, bp + VLEN, sizeof(b1));                                        \
                for (unsigned r = 0; r < RB; r++) {                                        \
                    ET x = a[(size_t)r * k + kk].MEMBER;                                   \
                                                                                           \
                    c[r][0] = c[r][0] + x * b0;                                            \
                    c[r][1] = c[r][1] + x * b1;                                            \
                }                                                                          \
            }                                                                              \
            memcpy(out, c, sizeof(out));                                                   \
            STORE(acc, out, i, j, m, n, accumulate);                                       \
        }                                                                                  \
    }

#define CUBE_KERNELS(SUFFIX, ATTR)                                                         \
    static ATTR void mm_f32_##SUFFIX(const Word *A, const Word *B, uint32_t m,             \
                                     uint32_t n, uint32_t k, uint32_t npad,                \
                                     bool accumulate, uint8_t *acc)                        \
    {                                                                                      \
        CUBE_KERNEL_BODY(VF, float, f, store_f32)                                             \
    }                                                                                      \
    static ATTR void mm_u32_##SUFFIX(const Word *A, const Word *B, uint32_t m,             \
                                     uint32_t n, uint32_t k, uint32_t npad,                \
                                     bool accumulate, uint8_t *acc)                        \
    {                                                                                      \
        CUBE_KERNEL_BODY(VU, uint32_t, u, store_u32)                                          \
    }

CUBE_KERNELS(generic, __attribute__((noinline)))
#if defined(__x86_64__)
CUBE_KERNELS(avx2, __attribute__((noinline, target("avx2"))))

static bool have_avx2(void)
{
    static int cached = -1;

    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return cached;
}
#endif

bool linx_cube_matmul_fast(const LinxTileSlot *a, const LinxTileSlot *b, unsigned dtype,
                           bool dense, uint32_t m, uint32_t n, uint32_t k, bool accumulate,
                           uint8_t *acc)
{
    const LinxDTypeInfo *dt = linx_dtype_info(dtype);
    uint32_t mpad = round_up(m, RB), npad = round_up(n, CB);
    CubeBufs *cb = &bufs;
    bool real = dtype != LINX_DT_S8 && dtype != LINX_DT_S32;

    if (!dt || k > MAX_K || (size_t)mpad * k > A_MAX || (size_t)k * npad > B_MAX ||
        (dtype != LINX_DT_S8 && dtype != LINX_DT_S32 && dtype != LINX_DT_FP16 &&
         dtype != LINX_DT_BF16 && dtype != LINX_DT_FP32 && dtype != LINX_DT_FP8)) {
        return false;
    }
    unpack_a(a, dtype, dt->size, dense, m, mpad, k, cb->a);
    unpack_b(b, dtype, dt->size, dense, n, npad, k, cb->b);
#if defined(__x86_64__)
    if (have_avx2()) {
        if (real) {
            mm_f32_avx2(cb->a, cb->b, m, n, k, npad, accumulate,
                        acc);
        } else {
            mm_u32_avx2(cb->a, cb->b, m, n, k, npad, accumulate, acc);
        }
        return true;
    }
#endif
    if (real) {
        mm_f32_generic(cb->a, cb->b, m, n, k, npad, accumulate,
                       acc);
    } else {
        mm_u32_generic(cb->a, cb->b, m, n, k, npad, accumulate, acc);
    }
    return true;
}
