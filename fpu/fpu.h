/*
 * LinxISA floating-point library: IEEE 754 arithmetic, compares and
 * conversions for the FSU instructions (FADD ... UCVTF, and the V.F* forms)
 * and for the tile engine (FP16/BF16/FP8 conversions).
 *
 * The library is plain C with no global mutable state.  All state lives in
 * a LinxFpEnv owned by the caller: the rounding mode it reads and the
 * exception flags it accumulates (sticky, never cleared here).  The caller
 * maps the guest FCSR in and out:
 *
 *     LinxFpEnv fe;
 *     linx_fpenv_from_fcsr(&fe, env->fcsr);
 *     rd = linx_fadd(&fe, rs1, rs2, LINX_FP64);
 *     env->fcsr = linx_fpenv_to_fcsr(&fe, env->fcsr);
 *
 * Values travel as raw bit patterns in uint64_t.  A narrower format uses the
 * low bits of its operands (the upper bits are ignored, there is no
 * NaN-boxing check) and returns its result zero-extended to 64 bits
 * (docs/fpu.md section "Registers").
 *
 * Invariants (docs/fpu.md has the reasons):
 *  - results are IEEE 754-2019 correctly rounded in all five rounding modes;
 *    tininess is detected after rounding; UF is raised only when the result
 *    is tiny and inexact; FP exceptions never trap;
 *  - every NaN result is the format's default NaN (positive, quiet, payload
 *    zero); an sNaN operand raises NV;
 *  - FEXP is e^x rounded from a ~100-bit approximation, FRECIP is the
 *    correctly rounded 1/x;
 *  - the library never leaves the host FP environment changed; FEXP needs
 *    it in its default state (round to nearest, no flush-to-zero), which
 *    is how the C runtime starts.  The RNE shortcut checks MXCSR itself.
 *
 * Implementation: a software path (unpack, compute exactly, round once,
 * pack) handles every format and rounding mode; on x86-64 hosts FP32/FP64
 * add/sub/mul/div/sqrt/fma use the host SSE/FMA instructions for RNE, RDN,
 * RUP and RTZ (docs/fpu.md section "Host path").
 */
#ifndef LINX_FPU_H
#define LINX_FPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Floating-point formats.  FP8_E4M3 is the OCP "E4M3FN" format (no
 * infinities, one NaN code per sign, max 448); FP8_E5M2 is IEEE-like. */
typedef enum LinxFpFormat {
    LINX_FP64 = 0,
    LINX_FP32,
    LINX_FP16,
    LINX_BF16,
    LINX_FP8_E4M3,
    LINX_FP8_E5M2,
    LINX_FP_NUM_FORMATS,
} LinxFpFormat;

/* Rounding modes, numbered as FCSR.RM (bits 10:8).  Values 5..7 are
 * reserved; the library rounds them as RNE (see linx_fp_rm_valid()). */
typedef enum LinxFpRound {
    LINX_RM_RNE = 0, /* to nearest, ties to even */
    LINX_RM_RDN = 1, /* toward -infinity */
    LINX_RM_RUP = 2, /* toward +infinity */
    LINX_RM_RTZ = 3, /* toward zero */
    LINX_RM_RMM = 4, /* to nearest, ties away from zero */
} LinxFpRound;

/* Exception flags, at their FCSR bit positions (bits 4:0). */
enum {
    LINX_FPF_NX = 1 << 0, /* inexact */
    LINX_FPF_UF = 1 << 1, /* underflow */
    LINX_FPF_OF = 1 << 2, /* overflow */
    LINX_FPF_DZ = 1 << 3, /* divide by zero */
    LINX_FPF_NV = 1 << 4, /* invalid operation */
    LINX_FPF_ALL = 0x1f,
};

/* FCSR layout: flags in 4:0, RM in 10:8. */
enum {
    LINX_FP_FCSR_FLAGS_MASK = 0x1f,
    LINX_FP_FCSR_RM_SHIFT = 8,
    LINX_FP_FCSR_RM_MASK = 0x7 << 8,
};

/* Which implementation serves an operation.  AUTO is the default (a zeroed
 * LinxFpEnv); SOFT and HOST exist for tests and benchmarks. */
typedef enum LinxFpImpl {
    LINX_FP_IMPL_AUTO = 0, /* fastest correct path */
    LINX_FP_IMPL_SOFT,     /* software path only */
    LINX_FP_IMPL_HOST,     /* host instructions with MXCSR capture where
                              supported, no RNE shortcut; else software */
} LinxFpImpl;

typedef struct LinxFpEnv {
    uint8_t rm;           /* LinxFpRound */
    uint8_t flags;        /* LINX_FPF_*, sticky */
    uint8_t impl;         /* LinxFpImpl */
    bool fp8_saturate;    /* FP8 overflow gives max finite instead of
                             inf (E5M2) / NaN (E4M3) */
} LinxFpEnv;

/* Integer types of the conversions, numbered as the ISA's integer type
 * table (docs/isa 05c_convert_type_encoding): u64 0, u32 1, u16 2, u8 3,
 * s64 8, s32 9, s16 10, s8 11. */
typedef enum LinxIntType {
    LINX_U64 = 0,
    LINX_U32 = 1,
    LINX_U16 = 2,
    LINX_U8 = 3,
    LINX_S64 = 8,
    LINX_S32 = 9,
    LINX_S16 = 10,
    LINX_S8 = 11,
} LinxIntType;

/* Result of linx_fcompare(). */
typedef enum LinxFpRelation {
    LINX_FREL_LESS,
    LINX_FREL_EQUAL,
    LINX_FREL_GREATER,
    LINX_FREL_UNORDERED,
} LinxFpRelation;

/* ---- Environment ------------------------------------------------------ */

static inline void linx_fpenv_init(LinxFpEnv *fe, LinxFpRound rm)
{
    fe->rm = (uint8_t)rm;
    fe->flags = 0;
    fe->impl = LINX_FP_IMPL_AUTO;
    fe->fp8_saturate = false;
}

/* Load RM and the sticky flags from an FCSR value. */
static inline void linx_fpenv_from_fcsr(LinxFpEnv *fe, uint64_t fcsr)
{
    linx_fpenv_init(fe, (LinxFpRound)((fcsr & LINX_FP_FCSR_RM_MASK) >>
                                      LINX_FP_FCSR_RM_SHIFT));
    fe->flags = (uint8_t)(fcsr & LINX_FP_FCSR_FLAGS_MASK);
}

/* @fcsr with its flag bits replaced by @fe's flags (RM is left alone). */
static inline uint64_t linx_fpenv_to_fcsr(const LinxFpEnv *fe, uint64_t fcsr)
{
    return (fcsr & ~(uint64_t)LINX_FP_FCSR_FLAGS_MASK) |
           (fe->flags & LINX_FP_FCSR_FLAGS_MASK);
}

/* True for RM values 0..4.  An instruction that uses a reserved dynamic
 * rounding mode is the caller's to reject (docs/fpu.md). */
static inline bool linx_fp_rm_valid(unsigned rm)
{
    return rm <= LINX_RM_RMM;
}

/* ---- Format facts ----------------------------------------------------- */

/* Width in bits of a format (64, 32, 16 or 8). */
unsigned linx_fp_format_bits(LinxFpFormat fmt);
/* Short lower-case name ("fp64", "e4m3", ...). */
const char *linx_fp_format_name(LinxFpFormat fmt);
/* The format's default NaN. */
uint64_t linx_fp_default_nan(LinxFpFormat fmt);
bool linx_fp_is_nan(uint64_t a, LinxFpFormat fmt);
bool linx_fp_is_snan(uint64_t a, LinxFpFormat fmt);

/* Scalar SrcType field (0 double, 1 single; 2 and 3 reserved). */
bool linx_fp_format_from_srctype(unsigned srctype, LinxFpFormat *out);
/* FCVT/V.FCVT floating-point type code (FP64 0, FP32 1, FP16 4, BF16 5,
 * e4m3 7, e5m2 8).  TF32, HF32, HiF8 and the sub-byte formats are not
 * supported and return false, as reserved codes do. */
bool linx_fp_format_from_cvt_type(unsigned code, LinxFpFormat *out);
/* Integer type code of the conversions; false for unsupported widths. */
bool linx_int_type_valid(unsigned code);

/* ---- Arithmetic (FADD FSUB FMUL FDIV FSQRT FRECIP FEXP, FMA family) ---- */

uint64_t linx_fadd(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fsub(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fmul(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fdiv(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fsqrt(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt);
/* 1/a, correctly rounded (as FDIV 1.0, a). */
uint64_t linx_frecip(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt);
/* e^a (fpu-exp.c). */
uint64_t linx_fexp(LinxFpEnv *fe, uint64_t a, LinxFpFormat fmt);

/* Fused multiply-add with one rounding:
 *   FMADD  a*b + c     FMSUB  a*b - c
 *   FNMADD -(a*b) - c  FNMSUB -(a*b) + c */
uint64_t linx_fmadd(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                    LinxFpFormat fmt);
uint64_t linx_fmsub(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                    LinxFpFormat fmt);
uint64_t linx_fnmadd(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                     LinxFpFormat fmt);
uint64_t linx_fnmsub(LinxFpEnv *fe, uint64_t a, uint64_t b, uint64_t c,
                     LinxFpFormat fmt);

/* |a|: a sign-bit operation, no flags, NaNs pass unchanged. */
uint64_t linx_fabs(uint64_t a, LinxFpFormat fmt);
/* -a: a sign-bit operation, no flags, NaNs pass unchanged. */
uint64_t linx_fneg(uint64_t a, LinxFpFormat fmt);

/* ---- Compares, min/max (fpu-compare.c) -------------------------------- */

/* Relation of a to b; +0 == -0.  Raises NV on an sNaN operand, or on any
 * NaN operand when @signaling. */
LinxFpRelation linx_fcompare(LinxFpEnv *fe, uint64_t a, uint64_t b,
                             LinxFpFormat fmt, bool signaling);
/* Ordered compares returning 0 or 1 (a NaN operand gives 0).  The plain
 * forms are quiet (NV only for sNaN); the S forms signal on any NaN. */
uint64_t linx_feq(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fne(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_flt(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fge(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_feqs(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fnes(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_flts(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fges(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
/* IEEE 754-2019 maximumNumber/minimumNumber: a NaN operand (quiet or
 * signalling) loses to a number; both NaN gives the default NaN; -0 < +0;
 * NV on an sNaN operand. */
uint64_t linx_fmax(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);
uint64_t linx_fmin(LinxFpEnv *fe, uint64_t a, uint64_t b, LinxFpFormat fmt);

/* ---- Conversions (fpu-convert.c) -------------------------------------- */

/* Float to float (FCVT), rounded with fe->rm. */
uint64_t linx_fcvt_f2f(LinxFpEnv *fe, uint64_t a, LinxFpFormat from,
                       LinxFpFormat to);
/* Float to integer with rounding mode @rm (FCVTN/M/P/Z/A pass RNE, RDN,
 * RUP, RTZ, RMM; pass fe->rm for a dynamic mode).  Out-of-range values
 * saturate and raise NV; NaN gives the maximum value and raises NV; a
 * result that needs rounding raises NX.  The value comes back as the
 * register holds it: signed types sign-extended, unsigned zero-extended. */
uint64_t linx_fcvt_f2i(LinxFpEnv *fe, uint64_t a, LinxFpFormat from,
                       LinxIntType to, LinxFpRound rm);
/* Integer (SCVTF for signed types, UCVTF for unsigned) to float, rounded
 * with fe->rm; the low bits of @a hold the integer. */
uint64_t linx_fcvt_i2f(LinxFpEnv *fe, uint64_t a, LinxIntType from,
                       LinxFpFormat to);

/* Convert @n little-endian elements from @src (format @from) to @dst
 * (format @to), with fe->rm: the tile engine's bulk form.  Same results
 * and flags as @n calls of linx_fcvt_f2f(); FP32<->FP16 use the host F16C
 * unit and FP32<->BF16 integer shortcuts where they are exact. */
void linx_fcvt_buf(LinxFpEnv *fe, void *dst, LinxFpFormat to,
                   const void *src, LinxFpFormat from, size_t n);

#endif /* LINX_FPU_H */
