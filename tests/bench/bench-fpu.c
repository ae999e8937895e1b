/*
 * Floating-point library benchmark: operations per second of the
 * automatic path (RNE shortcut + host MXCSR path), the host MXCSR path and
 * the software path, each as a ratio against the host's own instruction
 * measured in the same run (a plain C loop), so the numbers compare across
 * machines.
 *
 *   ninja -C build benchmark      (or run build/tests/bench/bench-fpu)
 *   bench-fpu [seconds-per-case]  (default 0.05)
 *
 * Columns: Mops/s of the path, then "x native" = path time / native time
 * (lower is better).  The last column for the software rows compares
 * software with the host MXCSR path.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fpu/fpu.h"

enum {
    NUM_OPERANDS = 1024,
    MASK = NUM_OPERANDS - 1,
    CHUNK = 4096,
};

typedef enum BenchOp {
    B_ADD,
    B_MUL,
    B_DIV,
    B_SQRT,
    B_FMA,
    B_EXP,
    B_CVT_F32_F16,
    B_CVT_F32_BF16,
    B_NUM_OPS,
} BenchOp;

static const char *const op_names[] = {
    "fadd", "fmul", "fdiv", "fsqrt", "fmadd", "fexp", "cvt.f32>f16",
    "cvt.f32>bf16",
};

typedef struct Operands {
    uint64_t a64[NUM_OPERANDS], b64[NUM_OPERANDS], c64[NUM_OPERANDS];
    uint64_t a32[NUM_OPERANDS], b32[NUM_OPERANDS], c32[NUM_OPERANDS];
} Operands;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* Positive normal numbers in [1, 4) (no special cases on any path). */
static void fill(Operands *o)
{
    for (int i = 0; i < NUM_OPERANDS; i++) {
        double d[3];
        for (int k = 0; k < 3; k++) {
            d[k] = 1.0 + (double)(rng() >> 11) * 0x1p-52;
        }
        memcpy(&o->a64[i], &d[0], 8);
        memcpy(&o->b64[i], &d[1], 8);
        memcpy(&o->c64[i], &d[2], 8);
        float f[3] = { (float)d[0], (float)d[1], (float)d[2] };
        uint32_t w;
        memcpy(&w, &f[0], 4);
        o->a32[i] = w;
        memcpy(&w, &f[1], 4);
        o->b32[i] = w;
        memcpy(&w, &f[2], 4);
        o->c32[i] = w;
    }
}

/* ---- Native baseline ------------------------------------------------------ */

static double as_d(uint64_t x)
{
    double d;
    memcpy(&d, &x, 8);
    return d;
}

static float as_f(uint64_t x)
{
    uint32_t w = (uint32_t)x;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* One chunk of native operations; the sink defeats dead-code removal. */
static double native_chunk(BenchOp op, int fp64, const Operands *o,
                           unsigned start)
{
    double acc = 0;

    for (unsigned i = start; i < start + CHUNK; i++) {
        unsigned k = i & MASK;
        if (fp64) {
            double a = as_d(o->a64[k]), b = as_d(o->b64[k]);
            double c = as_d(o->c64[k]);
            switch (op) {
            case B_ADD:
                acc += a + b;
                break;
            case B_MUL:
                acc += a * b;
                break;
            case B_DIV:
                acc += a / b;
                break;
            case B_SQRT:
                acc += sqrt(a);
                break;
            case B_FMA:
                acc += fma(a, b, c);
                break;
            default:
                acc += exp(a);
                break;
            }
        } else {
            float a = as_f(o->a32[k]), b = as_f(o->b32[k]);
            float c = as_f(o->c32[k]);
            switch (op) {
            case B_ADD:
                acc += a + b;
                break;
            case B_MUL:
                acc += a * b;
                break;
            case B_DIV:
                acc += a / b;
                break;
            case B_SQRT:
                acc += sqrtf(a);
                break;
            case B_FMA:
                acc += fmaf(a, b, c);
                break;
            default:
                acc += expf(a);
                break;
            }
        }
    }
    return acc;
}

/* ---- Library paths -------------------------------------------------------- */

static uint64_t lib_chunk(BenchOp op, int fp64, LinxFpEnv *fe,
                          const Operands *o, unsigned start)
{
    LinxFpFormat fmt = fp64 ? LINX_FP64 : LINX_FP32;
    const uint64_t *a = fp64 ? o->a64 : o->a32;
    const uint64_t *b = fp64 ? o->b64 : o->b32;
    const uint64_t *c = fp64 ? o->c64 : o->c32;
    uint64_t acc = 0;

    for (unsigned i = start; i < start + CHUNK; i++) {
        unsigned k = i & MASK;
        switch (op) {
        case B_ADD:
            acc += linx_fadd(fe, a[k], b[k], fmt);
            break;
        case B_MUL:
            acc += linx_fmul(fe, a[k], b[k], fmt);
            break;
        case B_DIV:
            acc += linx_fdiv(fe, a[k], b[k], fmt);
            break;
        case B_SQRT:
            acc += linx_fsqrt(fe, a[k], fmt);
            break;
        case B_FMA:
            acc += linx_fmadd(fe, a[k], b[k], c[k], fmt);
            break;
        case B_EXP:
            acc += linx_fexp(fe, a[k], fmt);
            break;
        case B_CVT_F32_F16:
            acc += linx_fcvt_f2f(fe, o->a32[k], LINX_FP32, LINX_FP16);
            break;
        default:
            acc += linx_fcvt_f2f(fe, o->a32[k], LINX_FP32, LINX_BF16);
            break;
        }
    }
    return acc;
}

/* Native conversion baselines: F16C-free portable code would not be a
 * fair "native", so conversions use the library's own FP32 copy (a
 * memory-bound loop) as their baseline. */
static double native_cvt_chunk(const Operands *o, unsigned start)
{
    double acc = 0;
    for (unsigned i = start; i < start + CHUNK; i++) {
        acc += as_f(o->a32[i & MASK]);
    }
    return acc;
}

static volatile double sink_d;
static volatile uint64_t sink_u;

static double time_native(BenchOp op, int fp64, const Operands *o,
                          double secs)
{
    unsigned long n = 0;
    double t0 = now(), t;
    do {
        if (op >= B_CVT_F32_F16) {
            sink_d += native_cvt_chunk(o, (unsigned)n);
        } else {
            sink_d += native_chunk(op, fp64, o, (unsigned)n);
        }
        n += CHUNK;
        t = now() - t0;
    } while (t < secs);
    return n / t;
}

static double time_lib(BenchOp op, int fp64, LinxFpImpl impl, LinxFpRound rm,
                       bool nx_set, const Operands *o, double secs)
{
    unsigned long n = 0;
    LinxFpEnv fe;
    double t0 = now(), t;

    linx_fpenv_init(&fe, rm);
    fe.impl = (uint8_t)impl;
    do {
        /* A guest that already saw an inexact result keeps NX set. */
        fe.flags = nx_set ? LINX_FPF_NX : 0;
        sink_u += lib_chunk(op, fp64, &fe, o, (unsigned)n);
        n += CHUNK;
        t = now() - t0;
    } while (t < secs);
    return n / t;
}

/* ---- Bulk conversions ------------------------------------------------------ */

static double time_buf(LinxFpFormat from, LinxFpFormat to, LinxFpImpl impl,
                       const Operands *o, double secs)
{
    static uint8_t src[8 * NUM_OPERANDS], dst[8 * NUM_OPERANDS];
    unsigned long n = 0;
    LinxFpEnv fe;
    double t0, t;

    linx_fpenv_init(&fe, LINX_RM_RNE);
    fe.impl = (uint8_t)impl;
    /* Source values: the FP32 operands, narrowed first where needed. */
    for (int i = 0; i < NUM_OPERANDS; i++) {
        uint32_t w = (uint32_t)o->a32[i];
        memcpy(src + 4 * i, &w, 4);
    }
    if (from != LINX_FP32) {
        LinxFpEnv tmp = { 0 };
        linx_fcvt_buf(&tmp, dst, from, src, LINX_FP32, NUM_OPERANDS);
        memcpy(src, dst, sizeof(dst));
    }
    t0 = now();
    do {
        linx_fcvt_buf(&fe, dst, to, src, from, NUM_OPERANDS);
        sink_u += dst[n & 7];
        n += NUM_OPERANDS;
        t = now() - t0;
    } while (t < secs);
    return n / t;
}

static void bench_buffers(const Operands *o, double secs)
{
    static const LinxFpFormat pairs[][2] = {
        { LINX_FP32, LINX_FP16 }, { LINX_FP16, LINX_FP32 },
        { LINX_FP32, LINX_BF16 }, { LINX_BF16, LINX_FP32 },
        { LINX_FP32, LINX_FP8_E4M3 },
    };

    printf("\n%-16s %14s %14s %10s\n", "linx_fcvt_buf", "fast Melem/s",
           "soft Melem/s", "speedup");
    for (unsigned p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
        double fast = time_buf(pairs[p][0], pairs[p][1], LINX_FP_IMPL_AUTO,
                               o, secs);
        double soft = time_buf(pairs[p][0], pairs[p][1], LINX_FP_IMPL_SOFT,
                               o, secs);
        char name[32];
        snprintf(name, sizeof(name), "%s>%s",
                 linx_fp_format_name(pairs[p][0]),
                 linx_fp_format_name(pairs[p][1]));
        printf("%-16s %14.1f %14.1f %10.2f\n", name, fast / 1e6, soft / 1e6,
               fast / soft);
    }
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.05;
    static Operands o;

    if (secs <= 0) {
        secs = 0.05;
    }
    fill(&o);
    printf("%-13s %-4s %-22s %10s %10s %10s\n", "op", "fmt", "path",
           "Mops/s", "x native", "soft/host");
    for (int op = 0; op < B_NUM_OPS; op++) {
        for (int fp64 = 1; fp64 >= 0; fp64--) {
            if (op >= B_CVT_F32_F16 && fp64) {
                continue;
            }
            const char *fmt = op >= B_CVT_F32_F16 ? "" : fp64 ? "fp64"
                                                           : "fp32";
            double native = time_native(op, fp64, &o, secs);
            double autop = time_lib(op, fp64, LINX_FP_IMPL_AUTO, LINX_RM_RNE,
                                    true, &o, secs);
            double auto_nx0 = time_lib(op, fp64, LINX_FP_IMPL_AUTO,
                                       LINX_RM_RNE, false, &o, secs);
            double host = time_lib(op, fp64, LINX_FP_IMPL_HOST, LINX_RM_RTZ,
                                   true, &o, secs);
            double soft = time_lib(op, fp64, LINX_FP_IMPL_SOFT, LINX_RM_RNE,
                                   true, &o, secs);
            double rmm = time_lib(op, fp64, LINX_FP_IMPL_AUTO, LINX_RM_RMM,
                                  true, &o, secs);
            printf("%-13s %-4s %-22s %10.1f %10s\n", op_names[op], fmt,
                   op >= B_CVT_F32_F16 ? "native (fp32 load)" : "native",
                   native / 1e6, "1.00");
            printf("%-13s %-4s %-22s %10.1f %10.2f\n", op_names[op], fmt,
                   "auto RNE (NX set)", autop / 1e6, native / autop);
            printf("%-13s %-4s %-22s %10.1f %10.2f\n", op_names[op], fmt,
                   "auto RNE (NX clear)", auto_nx0 / 1e6, native / auto_nx0);
            printf("%-13s %-4s %-22s %10.1f %10.2f\n", op_names[op], fmt,
                   "host MXCSR (RTZ)", host / 1e6, native / host);
            printf("%-13s %-4s %-22s %10.1f %10.2f %10.2f\n", op_names[op],
                   fmt, "soft RNE", soft / 1e6, native / soft, host / soft);
            printf("%-13s %-4s %-22s %10.1f %10.2f %10.2f\n", op_names[op],
                   fmt, "auto RMM (soft)", rmm / 1e6, native / rmm,
                   host / rmm);
        }
    }
    bench_buffers(&o, secs);
    return 0;
}
