/*
 * Host floating-point path (x86-64): FP32/FP64 add, mul, div, sqrt and
 * fused multiply-add on the host's SSE/FMA units.
 *
 * SSE arithmetic is IEEE 754 correctly rounded in RNE/RDN/RUP/RTZ, and with
 * all exceptions masked it detects tininess after rounding and raises UE
 * only for a tiny inexact result - the same rules as the guest.  What the
 * host does differently is NaN propagation (it returns a quieted operand,
 * or its own negative default NaN), so callers never pass NaN operands
 * here, and a NaN the host generates is replaced by the guest default NaN.
 *
 * Two entry points:
 *  - linx_host_arith(): loads MXCSR with the guest rounding mode and clear
 *    flags, runs the instruction, reads the flags back and restores MXCSR.
 *    The three steps live in one asm statement, so the compiler cannot move
 *    the arithmetic across the MXCSR writes.
 *  - linx_host_fast_rne(): RNE with the process's own MXCSR (RNE, masked,
 *    no FTZ/DAZ - the C runtime default).  It only accepts results whose
 *    flags follow from the result itself: a normal number above the
 *    smallest normal (no OF/UF/NV/DZ possible) whose exactness is either
 *    irrelevant (NX already set in the guest FCSR) or cheap to prove, or an
 *    exact zero.  Exactness: TwoSum for sums; for FP32 products, quotients
 *    and roots a check in double (products of floats are exact there); for
 *    FP64 products, quotients and roots one FMA computing the residual,
 *    inside exponent bounds that keep the residual representable.
 *    Everything else goes back to linx_host_arith().
 *
 * On other hosts both return false and the software path runs.
 */
#include "fpu-internal.h"

#include <string.h>

/* The error-free transforms below need every operation rounded on its
 * own. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(__x86_64__)

/* MXCSR fields (Intel SDM vol. 1, 10.2.3). */
enum {
    MXCSR_IE = 1 << 0,        /* invalid */
    MXCSR_ZE = 1 << 2,        /* divide by zero */
    MXCSR_OE = 1 << 3,        /* overflow */
    MXCSR_UE = 1 << 4,        /* underflow */
    MXCSR_PE = 1 << 5,        /* precision (inexact) */
    MXCSR_FLAGS = 0x3f,       /* IE DE ZE OE UE PE */
    MXCSR_DAZ = 1 << 6,
    MXCSR_MASKS = 0x3f << 7,  /* all exceptions masked */
    MXCSR_RC_SHIFT = 13,      /* 00 RN, 01 down, 10 up, 11 toward zero */
    MXCSR_RC = 3 << 13,
    MXCSR_FZ = 1 << 15,
};

/* FP64 field constants. */
enum {
    F64_FRAC_BITS = 52,
    F64_EXP_MASK = 0x7ff,
    F32_FRAC_BITS = 23,
    F32_EXP_MASK = 0xff,
};

static inline double d_from(uint64_t x)
{
    double d;
    __builtin_memcpy(&d, &x, sizeof(d));
    return d;
}

static inline uint64_t d_bits(double d)
{
    uint64_t x;
    __builtin_memcpy(&x, &d, sizeof(x));
    return x;
}

static inline float f_from(uint64_t x)
{
    uint32_t w = (uint32_t)x;
    float f;
    __builtin_memcpy(&f, &w, sizeof(f));
    return f;
}

static inline uint64_t f_bits(float f)
{
    uint32_t w;
    __builtin_memcpy(&w, &f, sizeof(w));
    return w;
}

static bool host_has_fma(void)
{
    return __builtin_cpu_supports("fma");
}

static uint8_t flags_from_mxcsr(uint32_t st)
{
    uint8_t f = 0;

    if (st & MXCSR_IE) {
        f |= LINX_FPF_NV;
    }
    if (st & MXCSR_ZE) {
        f |= LINX_FPF_DZ;
    }
    if (st & MXCSR_OE) {
        f |= LINX_FPF_OF;
    }
    if (st & MXCSR_UE) {
        f |= LINX_FPF_UF;
    }
    if (st & MXCSR_PE) {
        f |= LINX_FPF_NX;
    }
    return f;
}

/* ---- MXCSR-captured operations ----------------------------------------- */

static double mx_f64(LinxFpOp op, double x, double y, double z, uint32_t mx,
                     uint32_t old, uint32_t *st)
{
    switch (op) {
    case LINX_FPOP_ADD:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "addsd %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_MUL:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "mulsd %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_DIV:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "divsd %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_SQRT:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "sqrtsd %[x], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_FMA:
        /* z = x * y + z */
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "vfmadd231sd %[y], %[x], %[z]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [z] "+x"(z), [s] "=m"(*st)
                         : [x] "x"(x), [y] "x"(y), [m] "m"(mx),
                           [o] "m"(old));
        return z;
    }
    return x;
}

static float mx_f32(LinxFpOp op, float x, float y, float z, uint32_t mx,
                    uint32_t old, uint32_t *st)
{
    switch (op) {
    case LINX_FPOP_ADD:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "addss %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_MUL:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "mulss %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_DIV:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "divss %[y], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [y] "x"(y), [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_SQRT:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "sqrtss %[x], %[x]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [x] "+x"(x), [s] "=m"(*st)
                         : [m] "m"(mx), [o] "m"(old));
        return x;
    case LINX_FPOP_FMA:
        __asm__ volatile("ldmxcsr %[m]\n\t"
                         "vfmadd231ss %[y], %[x], %[z]\n\t"
                         "stmxcsr %[s]\n\t"
                         "ldmxcsr %[o]"
                         : [z] "+x"(z), [s] "=m"(*st)
                         : [x] "x"(x), [y] "x"(y), [m] "m"(mx),
                           [o] "m"(old));
        return z;
    }
    return x;
}

bool linx_host_arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                     uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    uint32_t old, mx, st = 0;
    uint64_t r;

    if (fe->rm > LINX_RM_RTZ || (fmt != LINX_FP64 && fmt != LINX_FP32) ||
        (op == LINX_FPOP_FMA && !host_has_fma())) {
        return false;
    }
    __asm__ volatile("stmxcsr %0" : "=m"(old));
    mx = (old & ~(uint32_t)(MXCSR_FLAGS | MXCSR_DAZ | MXCSR_FZ | MXCSR_RC)) |
         MXCSR_MASKS | ((uint32_t)fe->rm << MXCSR_RC_SHIFT);
    if (fmt == LINX_FP64) {
        r = d_bits(mx_f64(op, d_from(a), d_from(b), d_from(c), mx, old, &st));
        if (((r >> F64_FRAC_BITS) & F64_EXP_MASK) == F64_EXP_MASK &&
            (r << 12) != 0) {
            r = linx_fp_format_info[LINX_FP64].default_nan;
        }
    } else {
        r = f_bits(mx_f32(op, f_from(a), f_from(b), f_from(c), mx, old, &st));
        if (((r >> F32_FRAC_BITS) & F32_EXP_MASK) == F32_EXP_MASK &&
            (r & ((1u << F32_FRAC_BITS) - 1)) != 0) {
            r = linx_fp_format_info[LINX_FP32].default_nan;
        }
    }
    fe->flags |= flags_from_mxcsr(st);
    *res = r;
    return true;
}

/* ---- RNE shortcut ------------------------------------------------------- */

/* Plain operations in the default MXCSR state.  asm keeps the compiler from
 * reassociating or contracting them. */
#define HOST_BINOP(name, type, insn)                                                           \
    static inline type name(type x, type y)                                                    \
    {                                                                                          \
        __asm__(insn " %1, %0" : "+x"(x) : "x"(y));                                            \
        return x;                                                                              \
    }
#define HOST_SQRT(name, type, insn)                                                            \
    static inline type name(type x)                                                            \
    {                                                                                          \
        __asm__(insn " %0, %0" : "+x"(x));                                                     \
        return x;                                                                              \
    }

HOST_BINOP(hadd_d, double, "addsd")
HOST_BINOP(hsub_d, double, "subsd")
HOST_BINOP(hmul_d, double, "mulsd")
HOST_BINOP(hdiv_d, double, "divsd")
HOST_SQRT(hsqrt_d, double, "sqrtsd")
HOST_BINOP(hadd_f, float, "addss")
HOST_BINOP(hsub_f, float, "subss")
HOST_BINOP(hmul_f, float, "mulss")
HOST_BINOP(hdiv_f, float, "divss")
HOST_SQRT(hsqrt_f, float, "sqrtss")

/* x * y + z with one rounding; only called when the host has FMA. */
static inline double hfma_d(double x, double y, double z)
{
    __asm__("vfmadd231sd %[y], %[x], %[z]" : [z] "+x"(z) : [x] "x"(x),
            [y] "x"(y));
    return z;
}

static inline float hfma_f(float x, float y, float z)
{
    __asm__("vfmadd231ss %[y], %[x], %[z]" : [z] "+x"(z) : [x] "x"(x),
            [y] "x"(y));
    return z;
}

/* Knuth's TwoSum: the rounding error of s = x + y is zero iff exact.
 * Valid because s is finite. */
static bool sum_exact_d(double x, double y, double s)
{
    double bb = hsub_d(s, x);
    double err = hadd_d(hsub_d(x, hsub_d(s, bb)), hsub_d(y, bb));
    return err == 0;
}

static bool sum_exact_f(float x, float y, float s)
{
    float bb = hsub_f(s, x);
    float err = hadd_f(hsub_f(x, hsub_f(s, bb)), hsub_f(y, bb));
    return err == 0;
}

/* Result class of the shortcut. */
typedef enum FastClass {
    FAST_NORMAL,  /* normal and above the smallest normal */
    FAST_ZERO,
    FAST_OTHER,   /* inf, NaN, subnormal, smallest normal: not handled */
} FastClass;

static FastClass classify(uint64_t r, unsigned frac_bits, unsigned exp_mask)
{
    unsigned e = (r >> frac_bits) & exp_mask;
    uint64_t f = r & ((UINT64_C(1) << frac_bits) - 1);

    if (e == exp_mask) {
        return FAST_OTHER;
    }
    if (e == 0) {
        return f == 0 ? FAST_ZERO : FAST_OTHER;
    }
    if (e == 1 && f == 0) {
        return FAST_OTHER;
    }
    return FAST_NORMAL;
}

static bool is_zero_bits(uint64_t x, unsigned bits)
{
    return (x << (65 - bits)) == 0;
}

/* Is a zero result of @op exact?  (Otherwise it underflowed.)  FMA zeros
 * are left to the MXCSR path. */
static bool zero_is_exact(LinxFpOp op, uint64_t a, uint64_t b, unsigned bits)
{
    switch (op) {
    case LINX_FPOP_ADD:
    case LINX_FPOP_SQRT:
        return true; /* a sum that rounds to zero is zero; sqrt(0) = 0 */
    case LINX_FPOP_MUL:
        return is_zero_bits(a, bits) || is_zero_bits(b, bits);
    case LINX_FPOP_DIV:
        return is_zero_bits(a, bits);
    default:
        return false;
    }
}

/* FP64 exponent-field bounds inside which the FMA-based exactness tests
 * below cannot underflow or overflow (|x| in [2^-900, 2^900)). */
enum {
    F64_EXACT_LO = 1023 - 900,
    F64_EXACT_HI = 1023 + 900,
};

static bool f64_in_exact_range(double x)
{
    unsigned e = (d_bits(x) >> F64_FRAC_BITS) & F64_EXP_MASK;
    return e >= F64_EXACT_LO && e < F64_EXACT_HI;
}

/* Is the RNE result r of an FP64 op exact?  *known is false when no cheap
 * test applies.  The residuals x*y - r, x - r*y and x - r*r are exactly
 * representable away from the exponent limits, so one FMA decides. */
static bool f64_exact(LinxFpOp op, double x, double y, double r, bool *known)
{
    *known = true;
    if (op == LINX_FPOP_ADD) {
        return sum_exact_d(x, y, r);
    }
    if (op == LINX_FPOP_FMA || !host_has_fma() || !f64_in_exact_range(r) ||
        !f64_in_exact_range(x) ||
        (op != LINX_FPOP_SQRT && !f64_in_exact_range(y))) {
        *known = false;
        return false;
    }
    switch (op) {
    case LINX_FPOP_MUL:
        return hfma_d(x, y, -r) == 0;
    case LINX_FPOP_DIV:
        return hfma_d(-r, y, x) == 0;
    default: /* SQRT */
        return hfma_d(-r, r, x) == 0;
    }
}

static bool fast_f64(LinxFpEnv *fe, LinxFpOp op, uint64_t a, uint64_t b,
                     uint64_t c, uint64_t *res)
{
    double x = d_from(a), y = d_from(b), r;

    switch (op) {
    case LINX_FPOP_ADD:
        r = hadd_d(x, y);
        break;
    case LINX_FPOP_MUL:
        r = hmul_d(x, y);
        break;
    case LINX_FPOP_DIV:
        r = hdiv_d(x, y);
        break;
    case LINX_FPOP_SQRT:
        r = hsqrt_d(x);
        break;
    default:
        if (!host_has_fma()) {
            return false;
        }
        r = hfma_d(x, y, d_from(c));
        break;
    }
    uint64_t rb = d_bits(r);
    switch (classify(rb, F64_FRAC_BITS, F64_EXP_MASK)) {
    case FAST_ZERO:
        if (!zero_is_exact(op, a, b, 64)) {
            return false;
        }
        break;
    case FAST_NORMAL:
        if (!(fe->flags & LINX_FPF_NX)) {
            bool known;
            bool exact = f64_exact(op, x, y, r, &known);
            if (!known) {
                return false;
            }
            if (!exact) {
                fe->flags |= LINX_FPF_NX;
            }
        }
        break;
    default:
        return false;
    }
    *res = rb;
    return true;
}

/* FP32: products, quotients and roots are checked in double, where a
 * product of two floats is exact; an FMA as a double sum checked by
 * TwoSum. */
static bool f32_exact(LinxFpOp op, float x, float y, float z, float r)
{
    double dx = x, dy = y, dr = r;

    switch (op) {
    case LINX_FPOP_ADD:
        return sum_exact_f(x, y, r);
    case LINX_FPOP_MUL:
        return hmul_d(dx, dy) == dr;
    case LINX_FPOP_DIV:
        return hmul_d(dr, dy) == dx;
    case LINX_FPOP_SQRT:
        return hmul_d(dr, dr) == dx;
    default: {
        double p = hmul_d(dx, dy);
        double s = hadd_d(p, z);
        return sum_exact_d(p, z, s) && s == dr;
    }
    }
}

static bool fast_f32(LinxFpEnv *fe, LinxFpOp op, uint64_t a, uint64_t b,
                     uint64_t c, uint64_t *res)
{
    float x = f_from(a), y = f_from(b), z = f_from(c), r;

    switch (op) {
    case LINX_FPOP_ADD:
        r = hadd_f(x, y);
        break;
    case LINX_FPOP_MUL:
        r = hmul_f(x, y);
        break;
    case LINX_FPOP_DIV:
        r = hdiv_f(x, y);
        break;
    case LINX_FPOP_SQRT:
        r = hsqrt_f(x);
        break;
    default:
        if (!host_has_fma()) {
            return false;
        }
        r = hfma_f(x, y, z);
        break;
    }
    uint64_t rb = f_bits(r);
    switch (classify(rb, F32_FRAC_BITS, F32_EXP_MASK)) {
    case FAST_ZERO:
        if (!zero_is_exact(op, a, b, 32)) {
            return false;
        }
        break;
    case FAST_NORMAL:
        if (!(fe->flags & LINX_FPF_NX) && !f32_exact(op, x, y, z, r)) {
            fe->flags |= LINX_FPF_NX;
        }
        break;
    default:
        return false;
    }
    *res = rb;
    return true;
}

bool linx_host_fast_rne(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                        uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    uint32_t cur;

    /* The shortcut relies on the default MXCSR (RNE, no FTZ/DAZ); if some
     * code left it otherwise, take the path that sets MXCSR itself.
     * (STMXCSR is cheap; it is LDMXCSR that costs.) */
    __asm__ volatile("stmxcsr %0" : "=m"(cur));
    if (cur & (MXCSR_RC | MXCSR_FZ | MXCSR_DAZ)) {
        return false;
    }
    if (fmt == LINX_FP64) {
        return fast_f64(fe, op, a, b, c, res);
    }
    if (fmt == LINX_FP32) {
        return fast_f32(fe, op, a, b, c, res);
    }
    return false;
}

/* ---- Bulk FP32 <-> FP16 (F16C) -------------------------------------------- */

typedef float V4SF __attribute__((vector_size(16)));
typedef long long V2DI __attribute__((vector_size(16)));

enum {
    F16C_GROUP = 4,
    /* VCVTPS2PH immediate: bit 2 set = round as MXCSR.RC says. */
    F32_ABS_MASK = 0x7fffffff,
    F32_INF = 0x7f800000,
    F16_ABS_MASK = 0x7fff,
    F16_INF = 0x7c00,
};

/* CPUID leaf 1 ECX bits and the XCR0 bits the OS sets when it saves the
 * AVX (VEX) register state. */
enum {
    CPUID1_ECX_OSXSAVE = 1u << 27,
    CPUID1_ECX_F16C = 1u << 29,
    XCR0_SSE_AVX = 6,
};

/* F16C with OS support for VEX-encoded instructions.  Queried per bulk
 * call (CPUID is slow, but one call per buffer is noise); compilers differ
 * in whether __builtin_cpu_supports knows "f16c" (clang 14 does not). */
static bool host_has_f16c(void)
{
    unsigned a, b, c, d;
    uint32_t xcr0_lo, xcr0_hi;

    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
                     : "a"(1), "c"(0));
    if (!(c & CPUID1_ECX_F16C) || !(c & CPUID1_ECX_OSXSAVE)) {
        return false;
    }
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    return (xcr0_lo & XCR0_SSE_AVX) == XCR0_SSE_AVX;
}

bool linx_host_cvt_f32_f16(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem)
{
    uint32_t old, mx, st = 0;
    size_t i = 0;

    if (fe->rm > LINX_RM_RTZ || !host_has_f16c()) {
        return false;
    }
    __asm__ volatile("stmxcsr %0" : "=m"(old));
    mx = (old & ~(uint32_t)(MXCSR_FLAGS | MXCSR_DAZ | MXCSR_FZ | MXCSR_RC)) |
         MXCSR_MASKS | ((uint32_t)fe->rm << MXCSR_RC_SHIFT);
    __asm__ volatile("ldmxcsr %0" : : "m"(mx));
    for (; i + F16C_GROUP <= n; i += F16C_GROUP) {
        uint32_t w[F16C_GROUP];
        bool nan = false;
        memcpy(w, src + 4 * i, sizeof(w));
        for (int k = 0; k < F16C_GROUP; k++) {
            nan |= (w[k] & F32_ABS_MASK) > F32_INF;
        }
        if (nan) {
            for (int k = 0; k < F16C_GROUP; k++) {
                uint16_t h = (uint16_t)elem(fe, w[k]);
                memcpy(dst + 2 * (i + k), &h, sizeof(h));
            }
            continue;
        }
        V4SF in;
        V2DI out;
        memcpy(&in, w, sizeof(in));
        __asm__ volatile("vcvtps2ph $4, %[in], %[out]"
                         : [out] "=x"(out) : [in] "x"(in));
        uint64_t halves = (uint64_t)out[0];
        memcpy(dst + 2 * i, &halves, sizeof(halves));
    }
    __asm__ volatile("stmxcsr %0" : "=m"(st));
    __asm__ volatile("ldmxcsr %0" : : "m"(old));
    fe->flags |= flags_from_mxcsr(st);
    for (; i < n; i++) {
        uint32_t w;
        memcpy(&w, src + 4 * i, sizeof(w));
        uint16_t h = (uint16_t)elem(fe, w);
        memcpy(dst + 2 * i, &h, sizeof(h));
    }
    return true;
}

/* FP16 -> FP32 is exact: only NaNs need the software path. */
bool linx_host_cvt_f16_f32(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem)
{
    size_t i = 0;

    if (!host_has_f16c()) {
        return false;
    }
    for (; i + F16C_GROUP <= n; i += F16C_GROUP) {
        uint16_t h[F16C_GROUP];
        bool nan = false;
        memcpy(h, src + 2 * i, sizeof(h));
        for (int k = 0; k < F16C_GROUP; k++) {
            nan |= (h[k] & F16_ABS_MASK) > F16_INF;
        }
        if (nan) {
            for (int k = 0; k < F16C_GROUP; k++) {
                uint32_t w = (uint32_t)elem(fe, h[k]);
                memcpy(dst + 4 * (i + k), &w, sizeof(w));
            }
            continue;
        }
        V2DI in = { 0, 0 };
        V4SF out;
        memcpy(&in, h, sizeof(h));
        __asm__("vcvtph2ps %[in], %[out]" : [out] "=x"(out) : [in] "x"(in));
        memcpy(dst + 4 * i, &out, sizeof(out));
    }
    for (; i < n; i++) {
        uint16_t h;
        memcpy(&h, src + 2 * i, sizeof(h));
        uint32_t w = (uint32_t)elem(fe, h);
        memcpy(dst + 4 * i, &w, sizeof(w));
    }
    return true;
}

#else /* !__x86_64__ */

bool linx_host_arith(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                     uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    return false;
}

bool linx_host_fast_rne(LinxFpEnv *fe, LinxFpOp op, LinxFpFormat fmt,
                        uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    return false;
}

bool linx_host_cvt_f32_f16(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem)
{
    return false;
}

bool linx_host_cvt_f16_f32(LinxFpEnv *fe, uint8_t *dst, const uint8_t *src,
                           size_t n, LinxFpElemCvt *elem)
{
    return false;
}

#endif /* __x86_64__ */
