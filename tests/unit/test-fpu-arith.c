/*
 * Floating-point arithmetic tests (fpu): known vectors for
 * FADD FSUB FMUL FDIV FSQRT FRECIP and the FMA family in every rounding
 * mode, with the exact flags expected.
 *
 * Every vector runs through all three implementations (automatic, software
 * only, host with MXCSR capture) and twice: with clear flags, and with NX
 * already set (the RNE shortcut behaves differently then).  The rounded
 * vectors were computed with an exact rational model (Python fractions)
 * written independently of the C code; the special-value vectors follow
 * IEEE 754-2019 and docs/fpu.md (default NaN, NV for sNaN, signed zeros).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "fpu/fpu.h"

enum {
    NX = LINX_FPF_NX,
    UF = LINX_FPF_UF,
    OF = LINX_FPF_OF,
    DZ = LINX_FPF_DZ,
    NV = LINX_FPF_NV,
    NUM_RM = 5,
};

typedef enum TestOp {
    T_ADD,
    T_SUB,
    T_MUL,
    T_DIV,
    T_SQRT,
    T_RECIP,
    T_FMADD,
    T_FMSUB,
    T_FNMADD,
    T_FNMSUB,
} TestOp;

static const char *const op_names[] = {
    "fadd", "fsub", "fmul", "fdiv", "fsqrt", "frecip",
    "fmadd", "fmsub", "fnmadd", "fnmsub",
};

/* One operation with its result and flags in RNE, RDN, RUP, RTZ, RMM. */
typedef struct ArithVec {
    uint8_t op;
    uint8_t fmt;
    uint64_t a, b, c;
    uint64_t r[NUM_RM];
    uint8_t f[NUM_RM];
} ArithVec;

/* Default NaNs. */
#define DN64 0x7ff8000000000000ull
#define DN32 0x7fc00000ull
#define ALL5(x) { x, x, x, x, x }
/* Results that differ only in RDN (the sign of an exact zero sum). */
#define RDN_ONLY(x, y) { x, y, x, x, x }

static const ArithVec rounded_vectors[] = {
    /* 0.1 + 0.2 */
    { T_ADD, LINX_FP64, 0x3fb999999999999a, 0x3fc999999999999a, 0x0,
      { 0x3fd3333333333334, 0x3fd3333333333333, 0x3fd3333333333334,
        0x3fd3333333333333, 0x3fd3333333333334 },
      ALL5(NX) },
    /* 1 + 2^-53: a tie; RNE keeps the even 1, RMM goes away */
    { T_ADD, LINX_FP64, 0x3ff0000000000000, 0x3ca0000000000000, 0x0,
      { 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000001,
        0x3ff0000000000000, 0x3ff0000000000001 },
      ALL5(NX) },
    /* -1 - 2^-53 */
    { T_ADD, LINX_FP64, 0xbff0000000000000, 0xbca0000000000000, 0x0,
      { 0xbff0000000000000, 0xbff0000000000001, 0xbff0000000000000,
        0xbff0000000000000, 0xbff0000000000001 },
      ALL5(NX) },
    /* 1 + 3*2^-53: a tie rounding up to even */
    { T_ADD, LINX_FP64, 0x3ff0000000000000, 0x3cb8000000000000, 0x0,
      { 0x3ff0000000000002, 0x3ff0000000000001, 0x3ff0000000000002,
        0x3ff0000000000001, 0x3ff0000000000002 },
      ALL5(NX) },
    /* max + max overflows */
    { T_ADD, LINX_FP64, 0x7fefffffffffffff, 0x7fefffffffffffff, 0x0,
      { 0x7ff0000000000000, 0x7fefffffffffffff, 0x7ff0000000000000,
        0x7fefffffffffffff, 0x7ff0000000000000 },
      ALL5(OF|NX) },
    /* -max - max overflows */
    { T_ADD, LINX_FP64, 0xffefffffffffffff, 0xffefffffffffffff, 0x0,
      { 0xfff0000000000000, 0xfff0000000000000, 0xffefffffffffffff,
        0xffefffffffffffff, 0xfff0000000000000 },
      ALL5(OF|NX) },
    /* max + ulp/2: a tie at the top, overflow only when rounding up */
    { T_ADD, LINX_FP64, 0x7fefffffffffffff, 0x7c90000000000000, 0x0,
      { 0x7ff0000000000000, 0x7fefffffffffffff, 0x7ff0000000000000,
        0x7fefffffffffffff, 0x7ff0000000000000 },
      { OF|NX, NX, OF|NX, NX, OF|NX } },
    /* subnormal + subnormal is exact */
    { T_ADD, LINX_FP64, 0x1, 0x3, 0x0,
      { 0x4, 0x4, 0x4, 0x4, 0x4 },
      ALL5(0) },
    /* min normal - min subnormal: exact subnormal, no UF */
    { T_SUB, LINX_FP64, 0x10000000000000, 0x1, 0x0,
      { 0xfffffffffffff, 0xfffffffffffff, 0xfffffffffffff, 0xfffffffffffff,
        0xfffffffffffff },
      ALL5(0) },
    /* 1 - 2^-54 */
    { T_SUB, LINX_FP64, 0x3ff0000000000000, 0x3c90000000000000, 0x0,
      { 0x3ff0000000000000, 0x3fefffffffffffff, 0x3ff0000000000000,
        0x3fefffffffffffff, 0x3ff0000000000000 },
      ALL5(NX) },
    /* 1/3 */
    { T_DIV, LINX_FP64, 0x3ff0000000000000, 0x4008000000000000, 0x0,
      { 0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555556,
        0x3fd5555555555555, 0x3fd5555555555555 },
      ALL5(NX) },
    /* -1/3 */
    { T_DIV, LINX_FP64, 0xbff0000000000000, 0x4008000000000000, 0x0,
      { 0xbfd5555555555555, 0xbfd5555555555556, 0xbfd5555555555555,
        0xbfd5555555555555, 0xbfd5555555555555 },
      ALL5(NX) },
    /* 2/3 */
    { T_DIV, LINX_FP64, 0x4000000000000000, 0x4008000000000000, 0x0,
      { 0x3fe5555555555555, 0x3fe5555555555555, 0x3fe5555555555556,
        0x3fe5555555555555, 0x3fe5555555555555 },
      ALL5(NX) },
    /* 6/3 is exact */
    { T_DIV, LINX_FP64, 0x4018000000000000, 0x4008000000000000, 0x0,
      { 0x4000000000000000, 0x4000000000000000, 0x4000000000000000,
        0x4000000000000000, 0x4000000000000000 },
      ALL5(0) },
    /* min subnormal / 2: zero or min subnormal */
    { T_DIV, LINX_FP64, 0x1, 0x4000000000000000, 0x0,
      { 0x0, 0x0, 0x1, 0x0, 0x1 },
      ALL5(UF|NX) },
    /* max / 0.5 overflows */
    { T_DIV, LINX_FP64, 0x7fefffffffffffff, 0x3fe0000000000000, 0x0,
      { 0x7ff0000000000000, 0x7fefffffffffffff, 0x7ff0000000000000,
        0x7fefffffffffffff, 0x7ff0000000000000 },
      ALL5(OF|NX) },
    /* min subnormal * 0.5: a tie at zero */
    { T_MUL, LINX_FP64, 0x1, 0x3fe0000000000000, 0x0,
      { 0x0, 0x0, 0x1, 0x0, 0x1 },
      ALL5(UF|NX) },
    /* min normal * (1-2^-53): rounds to min normal, tiny after rounding */
    { T_MUL, LINX_FP64, 0x10000000000000, 0x3fefffffffffffff, 0x0,
      { 0x10000000000000, 0xfffffffffffff, 0x10000000000000, 0xfffffffffffff,
        0x10000000000000 },
      ALL5(UF|NX) },
    /* min normal * 0.5: exact subnormal */
    { T_MUL, LINX_FP64, 0x10000000000000, 0x3fe0000000000000, 0x0,
      { 0x8000000000000, 0x8000000000000, 0x8000000000000, 0x8000000000000,
        0x8000000000000 },
      ALL5(0) },
    /* max * 2 overflows */
    { T_MUL, LINX_FP64, 0x7fefffffffffffff, 0x4000000000000000, 0x0,
      { 0x7ff0000000000000, 0x7fefffffffffffff, 0x7ff0000000000000,
        0x7fefffffffffffff, 0x7ff0000000000000 },
      ALL5(OF|NX) },
    /* -max * 2 overflows */
    { T_MUL, LINX_FP64, 0xffefffffffffffff, 0x4000000000000000, 0x0,
      { 0xfff0000000000000, 0xfff0000000000000, 0xffefffffffffffff,
        0xffefffffffffffff, 0xfff0000000000000 },
      ALL5(OF|NX) },
    /* (1+2^-52)^2 */
    { T_MUL, LINX_FP64, 0x3ff0000000000001, 0x3ff0000000000001, 0x0,
      { 0x3ff0000000000002, 0x3ff0000000000002, 0x3ff0000000000003,
        0x3ff0000000000002, 0x3ff0000000000002 },
      ALL5(NX) },
    /* 0.1 * 3 */
    { T_MUL, LINX_FP64, 0x3fb999999999999a, 0x4008000000000000, 0x0,
      { 0x3fd3333333333334, 0x3fd3333333333333, 0x3fd3333333333334,
        0x3fd3333333333333, 0x3fd3333333333334 },
      ALL5(NX) },
    /* fma exact where mul then add would round */
    { T_FMADD, LINX_FP64, 0x3ff0000000000001, 0x3fefffffffffffff,
      0xbff0000000000000,
      { 0x3c9ffffffffffffe, 0x3c9ffffffffffffe, 0x3c9ffffffffffffe,
        0x3c9ffffffffffffe, 0x3c9ffffffffffffe },
      ALL5(0) },
    /* fma 2^-1022 - 2^-1077: not tiny after rounding in RNE/RUP/RMM */
    { T_FMADD, LINX_FP64, 0x9a70000000000000, 0x2220000000000000,
      0x10000000000000,
      { 0x10000000000000, 0xfffffffffffff, 0x10000000000000, 0xfffffffffffff,
        0x10000000000000 },
      { NX, UF|NX, NX, UF|NX, NX } },
    /* fma 0.1*10 - 1: the rounding error of 0.1*10 */
    { T_FMADD, LINX_FP64, 0x3fb999999999999a, 0x4024000000000000,
      0xbff0000000000000,
      { 0x3c90000000000000, 0x3c90000000000000, 0x3c90000000000000,
        0x3c90000000000000, 0x3c90000000000000 },
      ALL5(0) },
    /* fma max*2 - max = max, no overflow */
    { T_FMADD, LINX_FP64, 0x7fefffffffffffff, 0x4000000000000000,
      0xffefffffffffffff,
      { 0x7fefffffffffffff, 0x7fefffffffffffff, 0x7fefffffffffffff,
        0x7fefffffffffffff, 0x7fefffffffffffff },
      ALL5(0) },
    /* fma 1*1 + 2^-60 */
    { T_FMADD, LINX_FP64, 0x3ff0000000000000, 0x3ff0000000000000,
      0x3c30000000000000,
      { 0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000001,
        0x3ff0000000000000, 0x3ff0000000000000 },
      ALL5(NX) },
    /* fma subnormal product + subnormal */
    { T_FMADD, LINX_FP64, 0x8000000000000, 0x3fe0000000000001, 0x1,
      { 0x4000000000001, 0x4000000000001, 0x4000000000002, 0x4000000000001,
        0x4000000000001 },
      ALL5(UF|NX) },
    /* fp32 0.1 + 0.2 */
    { T_ADD, LINX_FP32, 0x3dcccccd, 0x3e4ccccd, 0x0,
      { 0x3e99999a, 0x3e999999, 0x3e99999a, 0x3e999999, 0x3e99999a },
      ALL5(NX) },
    /* fp32 1 + 2^-24: a tie */
    { T_ADD, LINX_FP32, 0x3f800000, 0x33800000, 0x0,
      { 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800000, 0x3f800001 },
      ALL5(NX) },
    /* fp32 min subnormal * 0.5 */
    { T_MUL, LINX_FP32, 0x1, 0x3f000000, 0x0,
      { 0x0, 0x0, 0x1, 0x0, 0x1 },
      ALL5(UF|NX) },
    /* fp32 min normal * (1-2^-24): tiny after rounding */
    { T_MUL, LINX_FP32, 0x800000, 0x3f7fffff, 0x0,
      { 0x800000, 0x7fffff, 0x800000, 0x7fffff, 0x800000 },
      ALL5(UF|NX) },
    /* fp32 max * 2 */
    { T_MUL, LINX_FP32, 0x7f7fffff, 0x40000000, 0x0,
      { 0x7f800000, 0x7f7fffff, 0x7f800000, 0x7f7fffff, 0x7f800000 },
      ALL5(OF|NX) },
    /* fp32 1/3 */
    { T_DIV, LINX_FP32, 0x3f800000, 0x40400000, 0x0,
      { 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaab },
      ALL5(NX) },
    /* fp32 1/10 */
    { T_DIV, LINX_FP32, 0x3f800000, 0x41200000, 0x0,
      { 0x3dcccccd, 0x3dcccccc, 0x3dcccccd, 0x3dcccccc, 0x3dcccccd },
      ALL5(NX) },
    /* fp32 fma 0.1*10 - 1 */
    { T_FMADD, LINX_FP32, 0x3dcccccd, 0x41200000, 0xbf800000,
      { 0x32800000, 0x32800000, 0x32800000, 0x32800000, 0x32800000 },
      ALL5(0) },
    /* fp32 fma subnormal product + subnormal */
    { T_FMADD, LINX_FP32, 0x400000, 0x3f000001, 0x1,
      { 0x200001, 0x200001, 0x200002, 0x200001, 0x200001 },
      ALL5(UF|NX) },
    /* fp32 -0.1 - 0.2 */
    { T_SUB, LINX_FP32, 0xbdcccccd, 0x3e4ccccd, 0x0,
      { 0xbe99999a, 0xbe99999a, 0xbe999999, 0xbe999999, 0xbe99999a },
      ALL5(NX) },
    /* fp16 1 + 2^-11: a tie */
    { T_ADD, LINX_FP16, 0x3c00, 0x1000, 0x0,
      { 0x3c00, 0x3c00, 0x3c01, 0x3c00, 0x3c01 },
      ALL5(NX) },
    /* fp16 max * 2 */
    { T_MUL, LINX_FP16, 0x7bff, 0x4000, 0x0,
      { 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0x7c00 },
      ALL5(OF|NX) },
    /* fp16 1/3 */
    { T_DIV, LINX_FP16, 0x3c00, 0x4200, 0x0,
      { 0x3555, 0x3555, 0x3556, 0x3555, 0x3555 },
      ALL5(NX) },
    /* fp16 min subnormal * 0.5 */
    { T_MUL, LINX_FP16, 0x1, 0x3800, 0x0,
      { 0x0, 0x0, 0x1, 0x0, 0x1 },
      ALL5(UF|NX) },
    /* fp16 fma fl(1/3)*3 - 1 */
    { T_FMADD, LINX_FP16, 0x3555, 0x4200, 0xbc00,
      { 0x8c00, 0x8c00, 0x8c00, 0x8c00, 0x8c00 },
      ALL5(0) },
    /* bf16 1 + 2^-8: a tie */
    { T_ADD, LINX_BF16, 0x3f80, 0x3b80, 0x0,
      { 0x3f80, 0x3f80, 0x3f81, 0x3f80, 0x3f81 },
      ALL5(NX) },
    /* bf16 1/3 */
    { T_DIV, LINX_BF16, 0x3f80, 0x4040, 0x0,
      { 0x3eab, 0x3eaa, 0x3eab, 0x3eaa, 0x3eab },
      ALL5(NX) },
    /* bf16 max * 2 */
    { T_MUL, LINX_BF16, 0x7f7f, 0x4000, 0x0,
      { 0x7f80, 0x7f7f, 0x7f80, 0x7f7f, 0x7f80 },
      ALL5(OF|NX) },
};

static const ArithVec special_vectors[] = {
    /* NaN operands give the default NaN; NV only for a signalling one. */
    { T_ADD, LINX_FP64, 0x7ff8000000000001ull, 0x3ff0000000000000ull, 0,
      ALL5(DN64), ALL5(0) },
    { T_ADD, LINX_FP64, 0x3ff0000000000000ull, 0xfff8000000000123ull, 0,
      ALL5(DN64), ALL5(0) },
    { T_ADD, LINX_FP64, 0x7ff0000000000001ull, 0x3ff0000000000000ull, 0,
      ALL5(DN64), ALL5(NV) },
    { T_MUL, LINX_FP64, 0x7ff8000000000000ull, 0x7ff4000000000000ull, 0,
      ALL5(DN64), ALL5(NV) },
    { T_SQRT, LINX_FP64, 0xfff4000000000000ull, 0, 0, ALL5(DN64), ALL5(NV) },
    { T_ADD, LINX_FP32, 0x7fc00001, 0x3f800000, 0, ALL5(DN32), ALL5(0) },
    { T_DIV, LINX_FP32, 0x7f800001, 0x3f800000, 0, ALL5(DN32), ALL5(NV) },
    { T_ADD, LINX_FP16, 0x7d00, 0x3c00, 0, ALL5(0x7e00), ALL5(NV) },
    { T_ADD, LINX_BF16, 0xffc1, 0x3f80, 0, ALL5(0x7fc0), ALL5(0) },
    /* Invalid operations. */
    { T_ADD, LINX_FP64, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0,
      ALL5(DN64), ALL5(NV) },
    { T_SUB, LINX_FP32, 0x7f800000, 0x7f800000, 0, ALL5(DN32), ALL5(NV) },
    { T_MUL, LINX_FP64, 0x7ff0000000000000ull, 0, 0, ALL5(DN64), ALL5(NV) },
    { T_MUL, LINX_FP32, 0x80000000, 0xff800000, 0, ALL5(DN32), ALL5(NV) },
    { T_DIV, LINX_FP64, 0, 0x8000000000000000ull, 0, ALL5(DN64), ALL5(NV) },
    { T_DIV, LINX_FP64, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0,
      ALL5(DN64), ALL5(NV) },
    { T_SQRT, LINX_FP64, 0xbff0000000000000ull, 0, 0, ALL5(DN64), ALL5(NV) },
    { T_SQRT, LINX_FP32, 0xff800000, 0, 0, ALL5(DN32), ALL5(NV) },
    { T_SQRT, LINX_FP32, 0x80000001, 0, 0, ALL5(DN32), ALL5(NV) },
    /* Division by zero: only a finite nonzero dividend raises DZ. */
    { T_DIV, LINX_FP64, 0x3ff0000000000000ull, 0, 0,
      ALL5(0x7ff0000000000000ull), ALL5(DZ) },
    { T_DIV, LINX_FP64, 0xbff0000000000000ull, 0, 0,
      ALL5(0xfff0000000000000ull), ALL5(DZ) },
    { T_DIV, LINX_FP64, 0x3ff0000000000000ull, 0x8000000000000000ull, 0,
      ALL5(0xfff0000000000000ull), ALL5(DZ) },
    { T_DIV, LINX_FP32, 0x00000001, 0x80000000, 0, ALL5(0xff800000),
      ALL5(DZ) },
    { T_DIV, LINX_FP64, 0x7ff0000000000000ull, 0, 0,
      ALL5(0x7ff0000000000000ull), ALL5(0) },
    { T_RECIP, LINX_FP64, 0, 0, 0, ALL5(0x7ff0000000000000ull), ALL5(DZ) },
    { T_RECIP, LINX_FP32, 0x80000000, 0, 0, ALL5(0xff800000), ALL5(DZ) },
    { T_RECIP, LINX_FP64, 0xfff0000000000000ull, 0, 0,
      ALL5(0x8000000000000000ull), ALL5(0) },
    /* Infinities. */
    { T_ADD, LINX_FP64, 0x7ff0000000000000ull, 0xbff0000000000000ull, 0,
      ALL5(0x7ff0000000000000ull), ALL5(0) },
    { T_SUB, LINX_FP32, 0xff800000, 0x3f800000, 0, ALL5(0xff800000),
      ALL5(0) },
    { T_MUL, LINX_FP64, 0x7ff0000000000000ull, 0xc000000000000000ull, 0,
      ALL5(0xfff0000000000000ull), ALL5(0) },
    { T_DIV, LINX_FP64, 0xbff0000000000000ull, 0x7ff0000000000000ull, 0,
      ALL5(0x8000000000000000ull), ALL5(0) },
    { T_SQRT, LINX_FP64, 0x7ff0000000000000ull, 0, 0,
      ALL5(0x7ff0000000000000ull), ALL5(0) },
    /* Signed zeros: x + (-x) and +0 + -0 are +0, except -0 in RDN. */
    { T_ADD, LINX_FP64, 0, 0x8000000000000000ull, 0,
      RDN_ONLY(0, 0x8000000000000000ull), ALL5(0) },
    { T_ADD, LINX_FP64, 0x8000000000000000ull, 0x8000000000000000ull, 0,
      ALL5(0x8000000000000000ull), ALL5(0) },
    { T_SUB, LINX_FP64, 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0,
      RDN_ONLY(0, 0x8000000000000000ull), ALL5(0) },
    { T_SUB, LINX_FP32, 0x3dcccccd, 0x3dcccccd, 0,
      RDN_ONLY(0, 0x80000000), ALL5(0) },
    { T_ADD, LINX_FP16, 0x3c00, 0xbc00, 0, RDN_ONLY(0, 0x8000), ALL5(0) },
    { T_MUL, LINX_FP64, 0xbff0000000000000ull, 0, 0,
      ALL5(0x8000000000000000ull), ALL5(0) },
    { T_DIV, LINX_FP32, 0x80000000, 0x3f800000, 0, ALL5(0x80000000),
      ALL5(0) },
    { T_SQRT, LINX_FP64, 0x8000000000000000ull, 0, 0,
      ALL5(0x8000000000000000ull), ALL5(0) },
    { T_SQRT, LINX_FP32, 0x80000000, 0, 0, ALL5(0x80000000), ALL5(0) },
    /* A zero operand: the other operand comes back unchanged. */
    { T_ADD, LINX_FP64, 0x8000000000000000ull, 0x0000000000000001ull, 0,
      ALL5(0x0000000000000001ull), ALL5(0) },
    /* Square roots (rounded vectors from an exact model). */
    { T_SQRT, LINX_FP64, 0x4000000000000000ull, 0, 0,
      { 0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bcdull,
        0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bcdull }, ALL5(NX) },
    { T_SQRT, LINX_FP64, 0x3fe0000000000000ull, 0, 0,
      { 0x3fe6a09e667f3bcdull, 0x3fe6a09e667f3bccull, 0x3fe6a09e667f3bcdull,
        0x3fe6a09e667f3bccull, 0x3fe6a09e667f3bcdull }, ALL5(NX) },
    { T_SQRT, LINX_FP64, 0x4010000000000000ull, 0, 0,
      ALL5(0x4000000000000000ull), ALL5(0) },
    { T_SQRT, LINX_FP64, 0x0000000000000001ull, 0, 0,
      ALL5(0x1e60000000000000ull), ALL5(0) },
    { T_SQRT, LINX_FP64, 0x0000000000000002ull, 0, 0,
      { 0x1e66a09e667f3bcdull, 0x1e66a09e667f3bccull, 0x1e66a09e667f3bcdull,
        0x1e66a09e667f3bccull, 0x1e66a09e667f3bcdull }, ALL5(NX) },
    { T_SQRT, LINX_FP64, 0x0000000000000003ull, 0, 0,
      { 0x1e6bb67ae8584caaull, 0x1e6bb67ae8584caaull, 0x1e6bb67ae8584cabull,
        0x1e6bb67ae8584caaull, 0x1e6bb67ae8584caaull }, ALL5(NX) },
    { T_SQRT, LINX_FP64, 0x7fefffffffffffffull, 0, 0,
      { 0x5fefffffffffffffull, 0x5fefffffffffffffull, 0x5ff0000000000000ull,
        0x5fefffffffffffffull, 0x5fefffffffffffffull }, ALL5(NX) },
    { T_SQRT, LINX_FP32, 0x40000000, 0, 0,
      { 0x3fb504f3, 0x3fb504f3, 0x3fb504f4, 0x3fb504f3, 0x3fb504f3 },
      ALL5(NX) },
    { T_SQRT, LINX_FP32, 0x00000001, 0, 0,
      { 0x1a3504f3, 0x1a3504f3, 0x1a3504f4, 0x1a3504f3, 0x1a3504f3 },
      ALL5(NX) },
    { T_SQRT, LINX_FP16, 0x4000, 0, 0,
      { 0x3da8, 0x3da8, 0x3da9, 0x3da8, 0x3da8 }, ALL5(NX) },
    { T_SQRT, LINX_BF16, 0x4000, 0, 0,
      { 0x3fb5, 0x3fb5, 0x3fb6, 0x3fb5, 0x3fb5 }, ALL5(NX) },
    /* FRECIP is the correctly rounded 1/x. */
    { T_RECIP, LINX_FP64, 0x4008000000000000ull, 0, 0,
      { 0x3fd5555555555555ull, 0x3fd5555555555555ull, 0x3fd5555555555556ull,
        0x3fd5555555555555ull, 0x3fd5555555555555ull }, ALL5(NX) },
    { T_RECIP, LINX_FP32, 0x41200000, 0, 0,
      { 0x3dcccccd, 0x3dcccccc, 0x3dcccccd, 0x3dcccccc, 0x3dcccccd },
      ALL5(NX) },
    { T_RECIP, LINX_FP64, 0x7fe0000000000000ull, 0, 0,
      ALL5(0x0008000000000000ull), ALL5(0) },
    /* FMA: inf*0 is invalid even with a quiet NaN addend. */
    { T_FMADD, LINX_FP64, 0x7ff0000000000000ull, 0, 0x7ff8000000000000ull,
      ALL5(DN64), ALL5(NV) },
    { T_FMADD, LINX_FP32, 0, 0xff800000, 0x3f800000, ALL5(DN32), ALL5(NV) },
    { T_FMADD, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x7ff0000000000001ull, ALL5(DN64), ALL5(NV) },
    { T_FMADD, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x7ff8000000000000ull, ALL5(DN64), ALL5(0) },
    { T_FMADD, LINX_FP64, 0x7ff0000000000000ull, 0x3ff0000000000000ull,
      0xfff0000000000000ull, ALL5(DN64), ALL5(NV) },
    { T_FMADD, LINX_FP64, 0x7fe0000000000000ull, 0x7fe0000000000000ull,
      0xfff0000000000000ull, ALL5(0xfff0000000000000ull), ALL5(0) },
    { T_FMADD, LINX_FP64, 0x3ff0000000000000ull, 0x3ff0000000000000ull,
      0xbff0000000000000ull, RDN_ONLY(0, 0x8000000000000000ull), ALL5(0) },
    { T_FMADD, LINX_FP64, 0, 0xbff0000000000000ull, 0,
      RDN_ONLY(0, 0x8000000000000000ull), ALL5(0) },
    { T_FMADD, LINX_FP64, 0, 0xbff0000000000000ull, 0x8000000000000000ull,
      ALL5(0x8000000000000000ull), ALL5(0) },
    { T_FMADD, LINX_FP64, 0, 0x3ff0000000000000ull, 0x0000000000000005ull,
      ALL5(0x0000000000000005ull), ALL5(0) },
    /* The FMA family: a*b + c, a*b - c, -(a*b) - c, -(a*b) + c. */
    { T_FMADD, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x3ff0000000000000ull, ALL5(0x401c000000000000ull), ALL5(0) },
    { T_FMSUB, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x3ff0000000000000ull, ALL5(0x4014000000000000ull), ALL5(0) },
    { T_FNMADD, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x3ff0000000000000ull, ALL5(0xc01c000000000000ull), ALL5(0) },
    { T_FNMSUB, LINX_FP64, 0x4000000000000000ull, 0x4008000000000000ull,
      0x3ff0000000000000ull, ALL5(0xc014000000000000ull), ALL5(0) },
    { T_FNMSUB, LINX_FP32, 0x40000000, 0x40400000, 0x3f800000,
      ALL5(0xc0a00000), ALL5(0) },
    /* Negation happens before the one rounding: -(a*b) with a*b =
     * 1 + 2^-51 + 2^-104 rounds toward +inf to -(1 + 2^-51). */
    { T_FNMADD, LINX_FP64, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0,
      { 0xbff0000000000002ull, 0xbff0000000000003ull, 0xbff0000000000002ull,
        0xbff0000000000002ull, 0xbff0000000000002ull }, ALL5(NX) },
    { T_FNMSUB, LINX_FP64, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0,
      { 0xbff0000000000002ull, 0xbff0000000000003ull, 0xbff0000000000002ull,
        0xbff0000000000002ull, 0xbff0000000000002ull }, ALL5(NX) },
    { T_FMSUB, LINX_FP64, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0,
      { 0x3ff0000000000002ull, 0x3ff0000000000002ull, 0x3ff0000000000003ull,
        0x3ff0000000000002ull, 0x3ff0000000000002ull }, ALL5(NX) },
    /* Single precision reads bits 31:0 only and zero-extends its result. */
    { T_ADD, LINX_FP32, 0xdeadbeef3f800000ull, 0xffffffff3f800000ull, 0,
      ALL5(0x40000000), ALL5(0) },
    { T_SQRT, LINX_FP32, 0x1234567840800000ull, 0, 0, ALL5(0x40000000),
      ALL5(0) },
    { T_ADD, LINX_FP16, 0xffffffffffff3c00ull, 0x3c00, 0, ALL5(0x4000),
      ALL5(0) },
};

static uint64_t run_op(LinxFpEnv *fe, const ArithVec *v)
{
    LinxFpFormat fmt = (LinxFpFormat)v->fmt;

    switch ((TestOp)v->op) {
    case T_ADD:
        return linx_fadd(fe, v->a, v->b, fmt);
    case T_SUB:
        return linx_fsub(fe, v->a, v->b, fmt);
    case T_MUL:
        return linx_fmul(fe, v->a, v->b, fmt);
    case T_DIV:
        return linx_fdiv(fe, v->a, v->b, fmt);
    case T_SQRT:
        return linx_fsqrt(fe, v->a, fmt);
    case T_RECIP:
        return linx_frecip(fe, v->a, fmt);
    case T_FMADD:
        return linx_fmadd(fe, v->a, v->b, v->c, fmt);
    case T_FMSUB:
        return linx_fmsub(fe, v->a, v->b, v->c, fmt);
    case T_FNMADD:
        return linx_fnmadd(fe, v->a, v->b, v->c, fmt);
    case T_FNMSUB:
        return linx_fnmsub(fe, v->a, v->b, v->c, fmt);
    }
    return 0;
}

static const char *const impl_names[] = { "auto", "soft", "host" };

/* Run every vector in every mode, implementation and initial-flag state;
 * return the number of mismatches (each one is printed). */
static int check_vectors(const ArithVec *vecs, size_t n)
{
    static const uint8_t presets[] = { 0, NX };
    int bad = 0;

    for (size_t i = 0; i < n; i++) {
        const ArithVec *v = &vecs[i];
        for (unsigned rm = 0; rm < NUM_RM; rm++) {
            for (unsigned impl = 0; impl < 3; impl++) {
                for (unsigned p = 0; p < 2; p++) {
                    LinxFpEnv fe;
                    linx_fpenv_init(&fe, (LinxFpRound)rm);
                    fe.impl = (uint8_t)impl;
                    fe.flags = presets[p];
                    uint64_t r = run_op(&fe, v);
                    uint8_t want = v->f[rm] | presets[p];
                    if (r != v->r[rm] || fe.flags != want) {
                        print_message("vector %zu %s %s(%#llx, %#llx, %#llx)"
                                      " rm %u impl %s preset %#x: got %#llx "
                                      "flags %#x, want %#llx flags %#x\n",
                                      i, linx_fp_format_name(v->fmt),
                                      op_names[v->op],
                                      (unsigned long long)v->a,
                                      (unsigned long long)v->b,
                                      (unsigned long long)v->c, rm,
                                      impl_names[impl], presets[p],
                                      (unsigned long long)r, fe.flags,
                                      (unsigned long long)v->r[rm], want);
                        bad++;
                    }
                }
            }
        }
    }
    return bad;
}

static void test_rounded_vectors(void **state)
{
    (void)state;
    assert_int_equal(check_vectors(rounded_vectors,
                                   sizeof(rounded_vectors) /
                                   sizeof(rounded_vectors[0])), 0);
}

static void test_special_vectors(void **state)
{
    (void)state;
    assert_int_equal(check_vectors(special_vectors,
                                   sizeof(special_vectors) /
                                   sizeof(special_vectors[0])), 0);
}

/* Flags are sticky: an exact operation leaves earlier flags alone. */
static void test_flags_sticky(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_init(&fe, LINX_RM_RNE);
    fe.flags = DZ | UF;
    assert_int_equal(linx_fadd(&fe, 0x3ff0000000000000ull,
                               0x3ff0000000000000ull, LINX_FP64),
                     0x4000000000000000ull);
    assert_int_equal(fe.flags, DZ | UF);
    linx_fdiv(&fe, 0x3ff0000000000000ull, 0x4008000000000000ull, LINX_FP64);
    assert_int_equal(fe.flags, DZ | UF | NX);
}

/* FCSR mapping: flags in 4:0, RM in 10:8, other bits preserved. */
static void test_fcsr_mapping(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_from_fcsr(&fe, (LINX_RM_RUP << 8) | NV | 0x10000);
    assert_int_equal(fe.rm, LINX_RM_RUP);
    assert_int_equal(fe.flags, NV);
    assert_int_equal(linx_fdiv(&fe, 0x3ff0000000000000ull,
                               0x4008000000000000ull, LINX_FP64),
                     0x3fd5555555555556ull);
    assert_int_equal(linx_fpenv_to_fcsr(&fe, (LINX_RM_RUP << 8) | 0x10000),
                     (LINX_RM_RUP << 8) | 0x10000 | NV | NX);
    assert_true(linx_fp_rm_valid(LINX_RM_RMM));
    assert_false(linx_fp_rm_valid(5));
    assert_false(linx_fp_rm_valid(7));
}

/* Reserved rounding modes 5..7 round as RNE and never crash. */
static void test_reserved_rm(void **state)
{
    (void)state;
    for (unsigned rm = 5; rm < 8; rm++) {
        LinxFpEnv fe = { .rm = (uint8_t)rm };
        assert_int_equal(linx_fadd(&fe, 0x3ff0000000000000ull,
                                   0x3ca0000000000000ull, LINX_FP64),
                         0x3ff0000000000000ull);
        assert_int_equal(fe.flags, NX);
    }
}

/* FABS and FNEG are sign-bit operations: no flags, NaNs unchanged. */
static void test_abs_neg(void **state)
{
    (void)state;
    assert_int_equal(linx_fabs(0xbff0000000000000ull, LINX_FP64),
                     0x3ff0000000000000ull);
    assert_int_equal(linx_fabs(0xfff4000000000001ull, LINX_FP64),
                     0x7ff4000000000001ull);
    assert_int_equal(linx_fabs(0xffffffff80000000ull, LINX_FP32), 0);
    assert_int_equal(linx_fabs(0x12345678bf800000ull, LINX_FP32), 0x3f800000);
    assert_int_equal(linx_fneg(0, LINX_FP64), 0x8000000000000000ull);
    assert_int_equal(linx_fneg(0x7fc00000, LINX_FP32), 0xffc00000);
    assert_int_equal(linx_fabs(0xff, LINX_FP8_E4M3), 0x7f);
}

/* The RNE shortcut must not trust a host MXCSR that someone left in
 * another rounding mode or with FTZ/DAZ set: results stay exact. */
static void test_host_mxcsr_state(void **state)
{
    (void)state;
#if defined(__x86_64__)
    /* RC = toward zero, FZ and DAZ set, exceptions masked. */
    uint32_t odd = 0x1f80 | (3u << 13) | (1u << 15) | (1u << 6), old;
    LinxFpEnv fe;

    __asm__ volatile("stmxcsr %0" : "=m"(old));
    __asm__ volatile("ldmxcsr %0" : : "m"(odd));
    linx_fpenv_init(&fe, LINX_RM_RNE);
    uint64_t sum = linx_fadd(&fe, 0x3fb999999999999aull,
                             0x3fc999999999999aull, LINX_FP64);
    uint64_t tiny = linx_fmul(&fe, 0x0010000000000000ull,
                              0x3fe0000000000000ull, LINX_FP64);
    uint64_t sub = linx_fadd(&fe, 0x00000001, 0x00000001, LINX_FP32);
    __asm__ volatile("ldmxcsr %0" : : "m"(old));
    assert_int_equal(sum, 0x3fd3333333333334ull);
    assert_int_equal(tiny, 0x0008000000000000ull);
    assert_int_equal(sub, 0x00000002);
    assert_int_equal(fe.flags, NX);
#else
    skip();
#endif
}

/* A bad format is reported as NV with a zero result, never a crash. */
static void test_bad_format(void **state)
{
    LinxFpEnv fe;

    (void)state;
    linx_fpenv_init(&fe, LINX_RM_RNE);
    assert_int_equal(linx_fadd(&fe, 1, 2, (LinxFpFormat)99), 0);
    assert_int_equal(fe.flags, NV);
    assert_int_equal(linx_fabs(1, (LinxFpFormat)-1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounded_vectors),
        cmocka_unit_test(test_special_vectors),
        cmocka_unit_test(test_flags_sticky),
        cmocka_unit_test(test_fcsr_mapping),
        cmocka_unit_test(test_reserved_rm),
        cmocka_unit_test(test_abs_neg),
        cmocka_unit_test(test_host_mxcsr_state),
        cmocka_unit_test(test_bad_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
