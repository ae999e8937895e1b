/*
 * TEPL specialised kernels (tepl.h): element-wise operations as host loops
 * over the contiguous runs of the valid region, one loop per (operation,
 * element type), written so the compiler vectorises them.
 *
 * Runs: ND rows (the whole valid region when ValidCol = Col), DN columns,
 * NZ fractal rows (c0 elements), ZN fractal columns.  Sources and
 * destination share the layout and shape, so a run is at the same offset
 * in every tile.
 *
 * Floating point uses the host's IEEE arithmetic in round-to-nearest-even
 * (the default MXCSR), which is exactly the reference's result for add,
 * sub, mul, div, sqrt and 1/x; NaN results are replaced by the default NaN
 * (the fpu library's rule); max/min follow maximumNumber/minimumNumber.
 * FP16 and BF16 are computed in float and rounded once: float has at
 * least 2p + 2 bits for both, so the result is the correctly rounded one.
 * TEXP, TLOG and TRSQRT give the reference's bits too: 1/sqrt is the same
 * two IEEE double operations (SSE2 lanes), rounded once; e^x and ln x come from the
 * double-precision functions of fpu-fastmath.h, and a result is kept only
 * when the value widened by their margin rounds the same at both ends
 * (then the reference's value, which lies in between, rounds to it too),
 * else the element is computed by the reference's own function.  FP32
 * runs two elements at a time (the vector forms of fpu-fastmath.h);
 * FP16 and BF16 one element at a time.
 * Reductions, broadcasts and transposes go element by element through
 * the layout formula with the element type's own arithmetic (below).
 */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "hw/linx/tepl.h"
#include "hw/linx/tile-dtype.h"
#include "fpu/fpu-fastmath.h"
#include "fpu/fpu.h"

/* The bounds of fpu-fastmath.h were measured without contraction; no
 * errno from sqrt (nothing reads it) lets the loops vectorise. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-math-errno", "no-trapping-math")
#endif

#define DNAN32 0x7fc00000u
#define DNAN64 UINT64_C(0x7ff8000000000000)
#define DNAN16 0x7e00u
#define DNANBF 0x7fc0u

typedef void (*RunFn)(uint8_t *d, const uint8_t *a, const uint8_t *b, size_t n, uint64_t s);

/* ---------------------------------------------------------------------
 * Float helpers
 * --------------------------------------------------------------------- */

static inline float f_canon(float r)
{
    float dn;
    uint32_t bits = DNAN32;

    memcpy(&dn, &bits, sizeof(dn));
    return r != r ? dn : r;
}

static inline double d_canon(double r)
{
    double dn;
    uint64_t bits = DNAN64;

    memcpy(&dn, &bits, sizeof(dn));
    return r != r ? dn : r;
}

/* maximumNumber / minimumNumber (FMAX/FMIN): a NaN yields the other
 * operand, two NaNs the default NaN, -0 < +0. */
#define DEF_MINMAX(T, name, canon)                                                   \
    static inline T name##_max(T a, T b)                                             \
    {                                                                                \
        if (a != a || b != b) {                                                      \
            return (a != a && b != b) ? canon(a) : (a != a ? b : a);                \
        }                                                                            \
        if (a == b) {                                                                \
            return signbit(a) ? b : a;                                               \
        }                                                                            \
        return a > b ? a : b;                                                        \
    }                                                                                \
    static inline T name##_min(T a, T b)                                             \
    {                                                                                \
        if (a != a || b != b) {                                                      \
            return (a != a && b != b) ? canon(a) : (a != a ? b : a);                \
        }                                                                            \
        if (a == b) {                                                                \
            return signbit(a) ? a : b;                                               \
        }                                                                            \
        return a < b ? a : b;                                                        \
    }
DEF_MINMAX(float, f, f_canon)
DEF_MINMAX(double, d, d_canon)

/* ---------------------------------------------------------------------
 * Loops: vector-vector (b) and vector-scalar (s) forms of each operation
 * --------------------------------------------------------------------- */

#define LOOPS(name, T, EXPR)                                                         \
    static __attribute__((unused)) void name##_vv(uint8_t *d8, const uint8_t *a8, const uint8_t *b8, size_t n, \
                          uint64_t s)                                                \
    {                                                                                \
        T *d = (T *)d8;                                                              \
        const T *pa = (const T *)a8, *pb = (const T *)b8;                            \
        (void)s;                                                                     \
        for (size_t i = 0; i < n; i++) {                                             \
            T a = pa[i], b = pb[i];                                                  \
            d[i] = (EXPR);                                                           \
        }                                                                            \
    }                                                                                \
    static __attribute__((unused)) void name##_vs(uint8_t *d8, const uint8_t *a8, const uint8_t *b8, size_t n, \
                          uint64_t s)                                                \
    {                                                                                \
        T *d = (T *)d8;                                                              \
        const T *pa = (const T *)a8;                                                 \
        T b;                                                                         \
        (void)b8;                                                                    \
        memcpy(&b, &s, sizeof(b));                                                   \
        for (size_t i = 0; i < n; i++) {                                             \
            T a = pa[i];                                                             \
            d[i] = (EXPR);                                                           \
        }                                                                            \
    }

/* Unary operations: the vv slot, @b unused. */
#define ULOOP(name, T, EXPR)                                                         \
    static __attribute__((unused)) void name##_vv(uint8_t *d8, const uint8_t *a8,    \
                                                  const uint8_t *b8, size_t n, uint64_t s) \
    {                                                                                \
        T *d = (T *)d8;                                                              \
        const T *pa = (const T *)a8;                                                 \
        (void)b8;                                                                    \
        (void)s;                                                                     \
        for (size_t i = 0; i < n; i++) {                                             \
            T a = pa[i];                                                             \
            d[i] = (EXPR);                                                           \
        }                                                                            \
    }

/* fp32 */
LOOPS(f32_add, float, f_canon(a + b))
LOOPS(f32_sub, float, f_canon(a - b))
LOOPS(f32_mul, float, f_canon(a * b))
LOOPS(f32_div, float, f_canon(a / b))
LOOPS(f32_max, float, f_max(a, b))
LOOPS(f32_min, float, f_min(a, b))
LOOPS(f32_prelu, float, a > 0 ? a : f_canon(a * b))
ULOOP(f32_relu, float, a > 0 ? a : 0.0f)
ULOOP(f32_sqrt, float, f_canon(sqrtf(a)))
ULOOP(f32_recip, float, f_canon(1.0f / a))
/* fp64 */
LOOPS(f64_add, double, d_canon(a + b))
LOOPS(f64_sub, double, d_canon(a - b))
LOOPS(f64_mul, double, d_canon(a * b))
LOOPS(f64_div, double, d_canon(a / b))
LOOPS(f64_max, double, d_max(a, b))
LOOPS(f64_min, double, d_min(a, b))
LOOPS(f64_prelu, double, a > 0 ? a : d_canon(a * b))
ULOOP(f64_relu, double, a > 0 ? a : 0.0)
ULOOP(f64_sqrt, double, d_canon(sqrt(a)))
ULOOP(f64_recip, double, d_canon(1.0 / a))

/* ---------------------------------------------------------------------
 * TEXP, TLOG, TRSQRT
 * --------------------------------------------------------------------- */

typedef float LinxV2f __attribute__((vector_size(8)));

/* FP32 e^x (@is_log false) or ln x of @n elements, two at a time: the
 * double result rounded to float where the margin proves it, the
 * reference's function elsewhere. */
static inline void f32_trans(float *d, const float *pa, size_t n, bool is_log)
{
    for (size_t i0 = 0; i0 < n; i0 += 2) {
        size_t m = n - i0 < 2 ? n - i0 : 2;
        LinxV2f xf = { 1.0f, 1.0f }, rf, lof, hif;
        LinxV2d x, y, mg;
        LinxV2i in;

        memcpy(&xf, pa + i0, m * sizeof(float));
        x = __builtin_convertvector(xf, LinxV2d);
        if (is_log) {
            in = (x > 0.0) & (x < 0x1p1000); /* finite, positive, not NaN */
            x = (LinxV2d)(((LinxV2u)in & (LinxV2u)x) | (~(LinxV2u)in & (LinxV2u)linx_v2d(1.0)));
            y = linx_log_fast2(x);
        } else {
            in = (x >= -LINX_EXP_FAST_MAX) & (x <= LINX_EXP_FAST_MAX); /* not NaN */
            x = (LinxV2d)((LinxV2u)in & (LinxV2u)x); /* +0 outside */
            y = linx_exp_fast2(x);
        }
        mg = (LinxV2d)((LinxV2u)y & UINT64_C(0x7fffffffffffffff)) * LINX_FASTMATH_MARGIN;
        rf = __builtin_convertvector(y, LinxV2f);
        lof = __builtin_convertvector(y - mg, LinxV2f);
        hif = __builtin_convertvector(y + mg, LinxV2f);
        for (size_t j = 0; j < m; j++) {
            if (in[j] && lof[j] == hif[j]) {
                d[i0 + j] = rf[j];
            } else {
                uint32_t a, v;
                memcpy(&a, &pa[i0 + j], 4);
                if (is_log) {
                    v = (uint32_t)tepl_log_bits(a, LINX_FP32);
                } else {
                    LinxFpEnv fe;
                    linx_fpenv_init(&fe, LINX_RM_RNE);
                    v = (uint32_t)linx_fexp(&fe, a, LINX_FP32);
                }
                memcpy(&d[i0 + j], &v, 4);
            }
        }
    }
}

static void f32_exp_vv(uint8_t *d8, const uint8_t *a8, const uint8_t *b8, size_t n, uint64_t s)
{
    (void)b8;
    (void)s;
    f32_trans((float *)d8, (const float *)a8, n, false);
}

static void f32_log_vv(uint8_t *d8, const uint8_t *a8, const uint8_t *b8, size_t n, uint64_t s)
{
    (void)b8;
    (void)s;
    f32_trans((float *)d8, (const float *)a8, n, true);
}

/* Exactly the reference's two double operations (IEEE sqrt and divide,
 * the same bits in a vector lane), rounded once; two lanes at a time. */
static void f32_rsqrt_vv(uint8_t *d8, const uint8_t *a8, const uint8_t *b8, size_t n,
                         uint64_t s)
{
    float *d = (float *)d8;
    const float *pa = (const float *)a8;

    (void)b8;
    (void)s;
    for (size_t i0 = 0; i0 < n; i0 += 2) {
        size_t m = n - i0 < 2 ? n - i0 : 2;
        LinxV2f xf = { 1.0f, 1.0f }, rf;
        LinxV2d x, y;

        memcpy(&xf, pa + i0, m * sizeof(float));
        x = __builtin_convertvector(xf, LinxV2d);
#if defined(__SSE2__)
        y = (LinxV2d)_mm_div_pd(_mm_set1_pd(1.0), _mm_sqrt_pd((__m128d)x));
#else
        y = (LinxV2d){ 1.0 / sqrt(x[0]), 1.0 / sqrt(x[1]) };
#endif
        rf = __builtin_convertvector(y, LinxV2f);
        for (size_t j = 0; j < m; j++) {
            d[i0 + j] = f_canon(rf[j]);
        }
    }
}

static uint64_t half_exp(uint64_t a, LinxFpFormat fmt)
{
    LinxFpEnv fe;

    linx_fpenv_init(&fe, LINX_RM_RNE);
    return linx_fexp(&fe, a, fmt);
}

static uint64_t half_log(uint64_t a, LinxFpFormat fmt)
{
    LinxFpEnv fe;
    uint64_t xb, lo, hi;
    double x, y, m;

    linx_fpenv_init(&fe, LINX_RM_RNE);
    xb = linx_fcvt_f2f(&fe, a, fmt, LINX_FP64);
    x = linx_fm_from_bits(xb);
    if (!(x > 0 && x < 0x1p1000)) {
        return tepl_log_bits(a, fmt);
    }
    y = linx_log_fast(x);
    m = fabs(y) * LINX_FASTMATH_MARGIN;
    lo = linx_fcvt_f2f(&fe, linx_fm_bits(y - m), LINX_FP64, fmt);
    hi = linx_fcvt_f2f(&fe, linx_fm_bits(y + m), LINX_FP64, fmt);
    return lo == hi ? lo : tepl_log_bits(a, fmt);
}

#define HALF_TRANS(p, FMT)                                                                \
    ULOOP(p##_exp, uint16_t, (uint16_t)half_exp(a, FMT))                                  \
    ULOOP(p##_log, uint16_t, (uint16_t)half_log(a, FMT))                                  \
    ULOOP(p##_rsqrt, uint16_t, (uint16_t)tepl_rsqrt_bits(a, FMT))

HALF_TRANS(f16, LINX_FP16)
HALF_TRANS(bf16, LINX_BF16)

/* Integers: wrap; division by 0 and MIN / -1 give 0; shifts by the width
 * or more give 0 (sign fill for signed right shifts).  Products are formed
 * in uint64_t: 16-bit operands promote to int, whose product overflows
 * (undefined behaviour; UBSan found it in test-tepl). */
#define INT_LOOPS(p, T, UT, SIGNED)                                                          \
    LOOPS(p##_add, T, (T)((UT)a + (UT)b))                                                   \
    LOOPS(p##_sub, T, (T)((UT)a - (UT)b))                                                   \
    LOOPS(p##_mul, T, (T)((uint64_t)(UT)a * (UT)b))                                         \
    LOOPS(p##_div, T, (b == 0 || (SIGNED && b == (T)-1 && a == (T)((UT)1 << (8 * sizeof(T) - 1)))) \
                          ? (T)0 : (T)(a / b))                                              \
    LOOPS(p##_max, T, a > b ? a : b)                                                        \
    LOOPS(p##_min, T, a < b ? a : b)                                                        \
    LOOPS(p##_and, T, (T)(a & b))                                                           \
    LOOPS(p##_or, T, (T)(a | b))                                                            \
    LOOPS(p##_xor, T, (T)(a ^ b))                                                           \
    LOOPS(p##_shl, T, (UT)b >= 8 * sizeof(T) ? (T)0 : (T)((UT)a << (UT)b))                   \
    LOOPS(p##_shr, T, (UT)b >= 8 * sizeof(T)                                                 \
                          ? (T)((SIGNED && ((UT)a >> (8 * sizeof(T) - 1))) ? (UT)-1 : (UT)0) \
                          : (T)(a >> (UT)b))                                                \
    LOOPS(p##_prelu, T, a > 0 ? a : (T)((uint64_t)(UT)a * (UT)b))                           \
    ULOOP(p##_relu, T, a > 0 ? a : (T)0)

INT_LOOPS(s8, int8_t, uint8_t, 1)
INT_LOOPS(u8, uint8_t, uint8_t, 0)
INT_LOOPS(s16, int16_t, uint16_t, 1)
INT_LOOPS(u16, uint16_t, uint16_t, 0)
INT_LOOPS(s32, int32_t, uint32_t, 1)
INT_LOOPS(u32, uint32_t, uint32_t, 0)
INT_LOOPS(s64, int64_t, uint64_t, 1)
INT_LOOPS(u64, uint64_t, uint64_t, 0)

/* fp16 / bf16 through float, rounded once. */
#define HALF_LOOPS(p, TOF, FROMF, DNAN)                                                   \
    static inline uint16_t p##_pack(float r)                                              \
    {                                                                                     \
        return r != r ? (uint16_t)DNAN : FROMF(r);                                         \
    }                                                                                     \
    LOOPS(p##_add, uint16_t, p##_pack(TOF(a) + TOF(b)))                                   \
    LOOPS(p##_sub, uint16_t, p##_pack(TOF(a) - TOF(b)))                                   \
    LOOPS(p##_mul, uint16_t, p##_pack(TOF(a) * TOF(b)))                                   \
    LOOPS(p##_div, uint16_t, p##_pack(TOF(a) / TOF(b)))                                   \
    LOOPS(p##_max, uint16_t, p##_pack(f_max(TOF(a), TOF(b))))                             \
    LOOPS(p##_min, uint16_t, p##_pack(f_min(TOF(a), TOF(b))))                             \
    LOOPS(p##_prelu, uint16_t, TOF(a) > 0 ? a : p##_pack(TOF(a) * TOF(b)))                 \
    ULOOP(p##_relu, uint16_t, TOF(a) > 0 ? a : (uint16_t)0)                               \
    ULOOP(p##_sqrt, uint16_t, p##_pack(sqrtf(TOF(a))))                                    \
    ULOOP(p##_recip, uint16_t, p##_pack(1.0f / TOF(a)))

HALF_LOOPS(f16, linx_fp16_to_float, linx_float_to_fp16, DNAN16)
HALF_LOOPS(bf16, linx_bf16_to_float, linx_float_to_bf16, DNANBF)

/* ---------------------------------------------------------------------
 * Reductions, broadcasts, transposes
 *
 * Element by element through linx_tile_elem_offset, as the reference, but
 * with the element type's own arithmetic instead of the fpu library's
 * (the same results, as for the loops above): a row or column is
 * accumulated in index order from its first element's bits (a single
 * element is stored as it is, NaN payload and all); floats add with one
 * rounding per step (FP16/BF16 through float, rounded once per step) and
 * a NaN sum is the default NaN; max/min are maximumNumber/minimumNumber;
 * integers wrap.  Broadcasts and transposes copy bits.
 * --------------------------------------------------------------------- */

typedef enum RedOp { RED_SUM, RED_MAX, RED_MIN } RedOp;

static RedOp red_op(unsigned base)
{
    switch (base) {
    case LINX_TEPL_TROWSUM:
    case LINX_TEPL_TCOLSUM:
        return RED_SUM;
    case LINX_TEPL_TROWMAX:
    case LINX_TEPL_TCOLMAX:
        return RED_MAX;
    default:
        return RED_MIN;
    }
}

#define SRC_OFF(g, r, c) linx_tile_elem_offset((g)->layout, (r), (c), (g)->rows, (g)->cols, (g)->esize)
#define DST_OFF(g, r, c)                                                                       \
    linx_tile_elem_offset((g)->dlayout, (r), (c), (g)->drows, (g)->dcols, (g)->esize)

/* One reduction loop per element type: @T the element, @COMBINE(acc, x)
 * the step.  Rows (@rows true: dst(i, 0)) or columns (dst(0, j)). */
#define RED_KERNEL(name, T, COMBINE)                                                          \
    static void name(const LinxTeplGeom *g, bool rows, RedOp op)                             \
    {                                                                                         \
        const T *src = (const T *)(const void *)g->src[0];                                   \
        T *dst = (T *)(void *)g->dst;                                                         \
        uint32_t nout = rows ? g->vrows : g->vcols, nin = rows ? g->vcols : g->vrows;         \
        (void)op;                                                                             \
        for (uint32_t o = 0; o < nout; o++) {                                                 \
            T acc = rows ? src[SRC_OFF(g, o, 0)] : src[SRC_OFF(g, 0, o)];                     \
            for (uint32_t k = 1; k < nin; k++) {                                              \
                T x = rows ? src[SRC_OFF(g, o, k)] : src[SRC_OFF(g, k, o)];                   \
                acc = COMBINE(acc, x);                                                        \
            }                                                                                 \
            if (rows) {                                                                       \
                dst[DST_OFF(g, o, 0)] = acc;                                                  \
            } else {                                                                          \
                dst[DST_OFF(g, 0, o)] = acc;                                                  \
            }                                                                                 \
        }                                                                                     \
    }

#define F32_RED(a, b) (op == RED_SUM ? f_canon((a) + (b)) : op == RED_MAX ? f_max(a, b) : f_min(a, b))
#define F64_RED(a, b) (op == RED_SUM ? d_canon((a) + (b)) : op == RED_MAX ? d_max(a, b) : d_min(a, b))
#define HALF_RED(p, TOF, a, b)                                                                \
    (op == RED_SUM   ? p##_pack(TOF(a) + TOF(b))                                              \
     : op == RED_MAX ? p##_pack(f_max(TOF(a), TOF(b)))                                        \
                     : p##_pack(f_min(TOF(a), TOF(b))))
#define F16_RED(a, b) HALF_RED(f16, linx_fp16_to_float, a, b)
#define BF16_RED(a, b) HALF_RED(bf16, linx_bf16_to_float, a, b)
#define INT_RED(T, UT) (op == RED_SUM ? (T)((UT)a + (UT)b) : op == RED_MAX ? (a > b ? a : b) : (a < b ? a : b))

RED_KERNEL(red_f32, float, F32_RED)
RED_KERNEL(red_f64, double, F64_RED)
RED_KERNEL(red_f16, uint16_t, F16_RED)
RED_KERNEL(red_bf16, uint16_t, BF16_RED)
#define INT_COMBINE(T, UT)                                                                    \
    static inline T red_comb_##T(T a, T b, RedOp op)                                         \
    {                                                                                         \
        return INT_RED(T, UT);                                                                \
    }
INT_COMBINE(int8_t, uint8_t)
INT_COMBINE(uint8_t, uint8_t)
INT_COMBINE(int16_t, uint16_t)
INT_COMBINE(uint16_t, uint16_t)
INT_COMBINE(int32_t, uint32_t)
INT_COMBINE(uint32_t, uint32_t)
INT_COMBINE(int64_t, uint64_t)
INT_COMBINE(uint64_t, uint64_t)
#define S8_RED(a, b) red_comb_int8_t(a, b, op)
#define U8_RED(a, b) red_comb_uint8_t(a, b, op)
#define S16_RED(a, b) red_comb_int16_t(a, b, op)
#define U16_RED(a, b) red_comb_uint16_t(a, b, op)
#define S32_RED(a, b) red_comb_int32_t(a, b, op)
#define U32_RED(a, b) red_comb_uint32_t(a, b, op)
#define S64_RED(a, b) red_comb_int64_t(a, b, op)
#define U64_RED(a, b) red_comb_uint64_t(a, b, op)
RED_KERNEL(red_s8, int8_t, S8_RED)
RED_KERNEL(red_u8, uint8_t, U8_RED)
RED_KERNEL(red_s16, int16_t, S16_RED)
RED_KERNEL(red_u16, uint16_t, U16_RED)
RED_KERNEL(red_s32, int32_t, S32_RED)
RED_KERNEL(red_u32, uint32_t, U32_RED)
RED_KERNEL(red_s64, int64_t, S64_RED)
RED_KERNEL(red_u64, uint64_t, U64_RED)

static bool run_reduce(const LinxTeplGeom *g, bool rows)
{
    RedOp op = red_op(g->oi->base);

    switch (g->dtype) {
    case LINX_DT_FP32: red_f32(g, rows, op); return true;
    case LINX_DT_FP64: red_f64(g, rows, op); return true;
    case LINX_DT_FP16: red_f16(g, rows, op); return true;
    case LINX_DT_BF16: red_bf16(g, rows, op); return true;
    case LINX_DT_S8: red_s8(g, rows, op); return true;
    case LINX_DT_U8: red_u8(g, rows, op); return true;
    case LINX_DT_S16: red_s16(g, rows, op); return true;
    case LINX_DT_U16: red_u16(g, rows, op); return true;
    case LINX_DT_S32: red_s32(g, rows, op); return true;
    case LINX_DT_U32: red_u32(g, rows, op); return true;
    case LINX_DT_S64: red_s64(g, rows, op); return true;
    case LINX_DT_U64: red_u64(g, rows, op); return true;
    default: return false;
    }
}

/* TROWEXPAND dst(i, j) = src(i, 0), TCOLEXPAND src(0, j), TTRANSPOSE
 * dst(j, i) = src(i, j): bit copies. */
static void run_copy(const LinxTeplGeom *g)
{
    size_t es = g->esize;
    unsigned cls = g->oi->cls;

    for (uint32_t i = 0; i < g->vrows; i++) {
        for (uint32_t j = 0; j < g->vcols; j++) {
            size_t so = cls == LINX_TEPLC_ROWEXPAND   ? SRC_OFF(g, i, 0)
                        : cls == LINX_TEPLC_COLEXPAND ? SRC_OFF(g, 0, j)
                                                      : SRC_OFF(g, i, j);
            size_t d = cls == LINX_TEPLC_TRANSPOSE ? DST_OFF(g, j, i) : DST_OFF(g, i, j);
            memcpy(g->dst + d * es, g->src[0] + so * es, es);
        }
    }
}

/* ---------------------------------------------------------------------
 * Selection
 * --------------------------------------------------------------------- */

typedef struct KernelSet {
    RunFn vv[LINX_TEPL_TRECIP + 1];
    RunFn vs[LINX_TEPL_TRECIP + 1];
} KernelSet;

#define SET_INT(p)                                                                          \
    {                                                                                       \
        .vv = { [LINX_TEPL_TADD] = p##_add_vv, [LINX_TEPL_TSUB] = p##_sub_vv,               \
                [LINX_TEPL_TMUL] = p##_mul_vv, [LINX_TEPL_TDIV] = p##_div_vv,               \
                [LINX_TEPL_TMAX] = p##_max_vv, [LINX_TEPL_TMIN] = p##_min_vv,               \
                [LINX_TEPL_TAND] = p##_and_vv, [LINX_TEPL_TOR] = p##_or_vv,                 \
                [LINX_TEPL_TXOR] = p##_xor_vv, [LINX_TEPL_TSHL] = p##_shl_vv,               \
                [LINX_TEPL_TSHR] = p##_shr_vv, [LINX_TEPL_TPRELU] = p##_prelu_vv,           \
                [LINX_TEPL_TRELU] = p##_relu_vv },                                         \
        .vs = { [LINX_TEPL_TADD] = p##_add_vs, [LINX_TEPL_TSUB] = p##_sub_vs,               \
                [LINX_TEPL_TMUL] = p##_mul_vs, [LINX_TEPL_TDIV] = p##_div_vs,               \
                [LINX_TEPL_TMAX] = p##_max_vs, [LINX_TEPL_TMIN] = p##_min_vs,               \
                [LINX_TEPL_TAND] = p##_and_vs, [LINX_TEPL_TOR] = p##_or_vs,                 \
                [LINX_TEPL_TXOR] = p##_xor_vs, [LINX_TEPL_TSHL] = p##_shl_vs,               \
                [LINX_TEPL_TSHR] = p##_shr_vs },                                           \
    }
#define SET_FLOAT(p)                                                                        \
    {                                                                                       \
        .vv = { [LINX_TEPL_TADD] = p##_add_vv, [LINX_TEPL_TSUB] = p##_sub_vv,               \
                [LINX_TEPL_TMUL] = p##_mul_vv, [LINX_TEPL_TDIV] = p##_div_vv,               \
                [LINX_TEPL_TMAX] = p##_max_vv, [LINX_TEPL_TMIN] = p##_min_vv,               \
                [LINX_TEPL_TPRELU] = p##_prelu_vv, [LINX_TEPL_TRELU] = p##_relu_vv,         \
                [LINX_TEPL_TSQRT] = p##_sqrt_vv, [LINX_TEPL_TRECIP] = p##_recip_vv,         \
                TRANS_##p },                                                                \
        .vs = { [LINX_TEPL_TADD] = p##_add_vs, [LINX_TEPL_TSUB] = p##_sub_vs,               \
                [LINX_TEPL_TMUL] = p##_mul_vs, [LINX_TEPL_TDIV] = p##_div_vs,               \
                [LINX_TEPL_TMAX] = p##_max_vs, [LINX_TEPL_TMIN] = p##_min_vs },             \
    }

/* TEXP, TLOG, TRSQRT: no FP64 TEPL (docs/decisions.md D3), so none. */
#define TRANS_f32 [LINX_TEPL_TEXP] = f32_exp_vv, [LINX_TEPL_TLOG] = f32_log_vv,              \
                  [LINX_TEPL_TRSQRT] = f32_rsqrt_vv
#define TRANS_f16 [LINX_TEPL_TEXP] = f16_exp_vv, [LINX_TEPL_TLOG] = f16_log_vv,              \
                  [LINX_TEPL_TRSQRT] = f16_rsqrt_vv
#define TRANS_bf16 [LINX_TEPL_TEXP] = bf16_exp_vv, [LINX_TEPL_TLOG] = bf16_log_vv,           \
                   [LINX_TEPL_TRSQRT] = bf16_rsqrt_vv
#define TRANS_f64 [LINX_TEPL_TEXP] = NULL

static const KernelSet set_s8 = SET_INT(s8), set_u8 = SET_INT(u8);
static const KernelSet set_s16 = SET_INT(s16), set_u16 = SET_INT(u16);
static const KernelSet set_s32 = SET_INT(s32), set_u32 = SET_INT(u32);
static const KernelSet set_s64 = SET_INT(s64), set_u64 = SET_INT(u64);
static const KernelSet set_f32 = SET_FLOAT(f32), set_f64 = SET_FLOAT(f64);
static const KernelSet set_f16 = SET_FLOAT(f16), set_bf16 = SET_FLOAT(bf16);

static const KernelSet *kernel_set(unsigned dtype)
{
    switch (dtype) {
    case LINX_DT_S8: return &set_s8;
    case LINX_DT_U8: return &set_u8;
    case LINX_DT_S16: return &set_s16;
    case LINX_DT_U16: return &set_u16;
    case LINX_DT_S32: return &set_s32;
    case LINX_DT_U32: return &set_u32;
    case LINX_DT_S64: return &set_s64;
    case LINX_DT_U64: return &set_u64;
    case LINX_DT_FP32: return &set_f32;
    case LINX_DT_FP64: return &set_f64;
    case LINX_DT_FP16: return &set_f16;
    case LINX_DT_BF16: return &set_bf16;
    default: return NULL;
    }
}

static void fill(uint8_t *d, const uint8_t *a, const uint8_t *b, size_t n, uint64_t s,
                 unsigned esize)
{
    (void)a;
    (void)b;
    for (size_t i = 0; i < n; i++) {
        memcpy(d + i * esize, &s, esize);
    }
}

/* Call @fn (or fill) on every contiguous run of the valid region. */
static void for_runs(const LinxTeplGeom *g, RunFn fn)
{
    size_t es = g->esize;
    uint32_t c0 = 32 / g->esize;
    const uint8_t *a = g->src[0], *b = g->src[1];

#define RUN(off, len)                                                                    \
    do {                                                                                 \
        size_t o_ = (size_t)(off) * es;                                                  \
        if (fn) {                                                                        \
            fn(g->dst + o_, a ? a + o_ : NULL, b ? b + o_ : NULL, (len), g->scalar);     \
        } else {                                                                         \
            fill(g->dst + o_, NULL, NULL, (len), g->scalar, g->esize);                   \
        }                                                                                \
    } while (0)

    switch (g->layout) {
    case LINX_TL_DN:
        for (uint32_t j = 0; j < g->vcols; j++) {
            RUN((size_t)j * g->rows, g->vrows);
        }
        break;
    case LINX_TL_NZ:
        for (uint32_t cb = 0; cb * c0 < g->vcols; cb++) {
            uint32_t len = g->vcols - cb * c0 < c0 ? g->vcols - cb * c0 : c0;
            for (uint32_t i = 0; i < g->vrows; i++) {
                RUN((size_t)cb * g->rows * c0 + (size_t)i * c0, len);
            }
        }
        break;
    case LINX_TL_ZN:
        for (uint32_t rb = 0; rb * c0 < g->vrows; rb++) {
            uint32_t len = g->vrows - rb * c0 < c0 ? g->vrows - rb * c0 : c0;
            for (uint32_t j = 0; j < g->vcols; j++) {
                RUN((size_t)rb * g->cols * c0 + (size_t)j * c0, len);
            }
        }
        break;
    default:
        if (g->vcols == g->cols) {
            RUN(0, (size_t)g->vrows * g->cols);
        } else {
            for (uint32_t i = 0; i < g->vrows; i++) {
                RUN((size_t)i * g->cols, g->vcols);
            }
        }
        break;
    }
#undef RUN
}

bool linx_tepl_run_fast(const LinxTeplGeom *g)
{
    const KernelSet *ks = kernel_set(g->dtype);
    const LinxTeplOpInfo *oi = g->oi;
    RunFn fn;

    if (oi->cls == LINX_TEPLC_FILL) {
        for_runs(g, NULL);
        return true;
    }
    if (oi->cls == LINX_TEPLC_ROWRED || oi->cls == LINX_TEPLC_COLRED) {
        return run_reduce(g, oi->cls == LINX_TEPLC_ROWRED);
    }
    if (oi->cls == LINX_TEPLC_ROWEXPAND || oi->cls == LINX_TEPLC_COLEXPAND ||
        oi->cls == LINX_TEPLC_TRANSPOSE) {
        run_copy(g);
        return true;
    }
    if (!ks || (oi->cls != LINX_TEPLC_BINARY && oi->cls != LINX_TEPLC_UNARY) ||
        oi->base > LINX_TEPL_TRECIP) {
        return false;
    }
    fn = oi->scalar ? ks->vs[oi->base] : ks->vv[oi->base];
    if (!fn) {
        return false;
    }
    for_runs(g, fn);
    return true;
}
