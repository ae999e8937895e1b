/*
 * Kernel bodies as host SIMD (docs/kernels.md "SIMD mode"): the compiled
 * form of a body (KSProg) shared by the compiler (kernel-simd.c, at
 * translation time) and the run-time part (kernel-simd-run.c,
 * helper_ksimd, once per lane group).
 *
 * A KSProg is one vector lane program (tcg/vec.h) per phase of the body,
 * plus what the run-time part computes around them for each group:
 *   - uniform scalars (KSUni): values equal in every lane (scalar
 *     imports, lc1, lc2, LB0-2, immediates, reduction results and
 *     integer operations on them), evaluated in C into VecFrame.s[];
 *   - memory accesses (KSAccess): for each, the lane-0 address (a
 *     scalar) and the stride per lane, so the footprint of the whole
 *     group is known before any lane runs and is checked at once
 *     (bounds, alignment, permissions, code pages, watchpoints, and
 *     aliasing: see kernel-simd-run.c);
 *   - reductions (KSRed) at the end of each phase but the last;
 *   - spill buffers for per-lane values that live across a phase.
 */
#ifndef LINX_TARGET_KERNEL_SIMD_H
#define LINX_TARGET_KERNEL_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#include "tcg/vec.h"

struct CPUArchState;

enum {
    KS_MAX_PHASES = 16,
    KS_MAX_UNI = 256,
    KS_MAX_ACCESS = 24,
    KS_MAX_SPILL = 8,      /* spill buffers (VEC_MAX_STREAMS - accesses) */
    KS_MAX_INSNS = 256,    /* body instructions the mode takes */
    /* Lanes a group may have in this mode (lane numbers in 32 bits). */
    KS_MAX_LANES = INT32_MAX,
};

/* Uniform scalar operations (64-bit, as the lane code computes them). */
typedef enum KSUniOp {
    KU_CONST,   /* d = imm */
    KU_RI,      /* d = env->kern.ri[imm] */
    KU_LB,      /* d = env->lb[imm] */
    KU_LC,      /* d = env->lc[imm] (1 or 2) */
    KU_RED,     /* d = a reduction's result (set by the run-time part) */
    KU_EXT,     /* d = low 8 << lg bits of a, extended by sign */
    KU_ADD, KU_SUB, KU_MUL, KU_AND, KU_OR, KU_XOR, KU_ANDN,
    KU_SHL, KU_SHR, KU_SAR, /* by b & 63 */
    KU_NEG, KU_NOT,
    KU_SMAX, KU_SMIN, KU_UMAX, KU_UMIN,
    KU_SETC,    /* d = cond(imm) (a, b) ? 1 : 0; imm a VecCond; VC_GT: (a & b) != 0 */
    KU_SEL,     /* d = a != 0 ? b : c */
    KU_CALL2,   /* d = fn(a, b) (integer helpers: div, rem) */
    KU_BITF,    /* d = helper_bitfield(imm, a, 0) */
} KSUniOp;

typedef struct KSUni {
    uint8_t op;       /* KSUniOp */
    uint8_t phase;    /* evaluated before this phase runs */
    uint8_t lg;       /* KU_EXT */
    bool sign;
    uint16_t d, a, b, c; /* scalar indices */
    int64_t imm;
    uint64_t fn;      /* KU_CALL2 */
} KSUni;

typedef enum KSAccessKind {
    KA_GUEST,   /* bridged guest memory */
    KA_TILE,    /* a bound tile (tile index) */
    KA_SPILL,   /* a spill buffer */
    KA_GATHER,  /* bridged, per-lane addresses (checked block by block) */
} KSAccessKind;

typedef struct KSAccess {
    uint8_t kind;     /* KSAccessKind */
    uint8_t phase;
    uint8_t lg;       /* element size */
    uint8_t tile;     /* KA_TILE: 0..5 */
    bool store;
    uint8_t stream;   /* VecFrame.ptr index */
    uint16_t base;    /* scalar: lane 0's guest address / tile offset */
    int64_t stride;   /* bytes per lane */
} KSAccess;

typedef struct KSRed {
    uint8_t op;       /* KX_RD* (kernel-ops.h) */
    uint8_t acc;      /* accumulator of the phase program */
    uint8_t vr;       /* VecRedOp used */
    bool w64;         /* W64 accumulator (else W32) */
    bool sign32;      /* W32 integer: the result extends from 32 bits signed */
    uint8_t fmt;      /* FP: LinxFpFormat */
    uint8_t src_lg;   /* SrcL's type (integer identities) */
    bool src_sign;
    uint16_t res;     /* scalar receiving the destination-typed result */
    uint8_t dst_lg;
    bool dst_sign;
    bool dst_p;       /* ->p: the result is p (r != 0) for every lane */
} KSRed;

typedef struct KSProg {
    unsigned nphases;
    VecFn fn[KS_MAX_PHASES];
    uint16_t ninsns[KS_MAX_PHASES]; /* instructions per lane of each phase */
    KSRed red[KS_MAX_PHASES];       /* at the end of phase i (i < nphases - 1) */
    KSUni uni[KS_MAX_UNI];
    unsigned nuni;
    KSAccess acc[KS_MAX_ACCESS];
    unsigned nacc;
    uint8_t spill_stream[KS_MAX_SPILL];
    uint8_t spill_lg[KS_MAX_SPILL];
    unsigned nspill;
    unsigned nscalars;
    bool fp;          /* FP operations: FCSR.RM must be one the host has */
    bool gathers;
} KSProg;

/* Compile the body of @k (kernel-internal.h) for the host's SIMD; NULL
 * when the body has something this mode does not take, under the
 * interpreter, or when LINX_KERNEL_LANEWISE / LINX_KERNEL_NOSIMD is set. */
struct KCtx;
const KSProg *ks_compile(struct KCtx *k);

/* kernel-simd-math.c: V.FEXP FP32 for a block of lanes (VO_VCALL). */
void ks_fexp32_block(void *env, const uint32_t *in, uint32_t *out, uint64_t bits, uint64_t imm);
/* The same through the AVX-512 code (the host must have AVX-512F) or the
 * baseline code (tests compare both with linx_fexp()). */
void ks_fexp32_block_path(void *env, const uint32_t *in, uint32_t *out, uint64_t bits,
                          bool avx512);

/* kernel-simd-run.c: lane records and spill memory beyond the inline
 * ones, freed when the CPU leaves its exec context. */
void *linx_kernel_heap(struct CPUArchState *env, unsigned which, uint64_t bytes);
void linx_kernel_release(struct CPUArchState *env);

#endif /* LINX_TARGET_KERNEL_SIMD_H */
