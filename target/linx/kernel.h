/*
 * Kernel blocks through the translator: MPAR/MSEQ/VPAR/VSEQ headers and
 * their bodies, TEPL headers and CUBE headers (docs/kernels.md).
 *
 * How a kernel runs:
 *   1. The header block (BSTART.MPAR ... B.* descriptors) is translated as
 *      usual; at its commit (kernel-header.c) the translator decodes the
 *      header's descriptors again, checks the mandatory ones, stores the
 *      scalar imports and bindings into env->kern, binds the tiles
 *      (helper_kernel_bind) and jumps to the body with env->resume =
 *      TB_F_BODY, so the exec loop looks the body up as a TB of its own
 *      (key: body pc, TB_F_BODY).
 *   2. The body TB (kernel-body.c) holds the whole kernel: the lane loops
 *      (lc0 fastest, then lc1, lc2: isa/v0.4/state/kernel_execution.json)
 *      around the body translated once, in IR, with the vector queues as
 *      translation-time renamed temps (kernel-ops.c).  It ends by pushing
 *      the output tile and jumping to the header's continuation.
 *   3. TEPL and CUBE headers become one helper call at the commit with
 *      their static parameters packed at translation time.
 *
 * This header is the interface to translate.c and the unit tests: the
 * RegId10 operand decoder (pure) and the two translator hooks.
 */
#ifndef LINX_TARGET_KERNEL_H
#define LINX_TARGET_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel-state.h"

/* ---- RegId10 operands (manual 05b, isa/v0.4-draft/registers/regid10.json) ---- */

typedef enum LinxKRegKind {
    LINX_KR_VEC,      /* vector queue: source entry vq#k, destination push */
    LINX_KR_HAND,     /* scalar hand: source t#k / u#k, destination ->t / ->u */
    LINX_KR_RI,       /* scalar import ri0..ri11 */
    LINX_KR_LC,       /* lane counter lc0..lc2 */
    LINX_KR_LB,       /* loop bound lb0..lb2 */
    LINX_KR_TILE,     /* tile base TA..TD, TO, TS */
    LINX_KR_P,        /* the predicate (exec mask) */
    LINX_KR_ZERO,     /* zero; as a destination: no output */
    LINX_KR_RESERVED, /* not a register in v0.4 (TE..TH, TO2, TO3, ...) */
} LinxKRegKind;

/* Kernel queue numbers (env->kern lane records, kernel-state.h). */
enum {
    LINX_KQ_VT = 0,
    LINX_KQ_VU = 1,
    LINX_KQ_VM = 2,
    LINX_KQ_VN = 3,
    LINX_KQ_T = 4,
    LINX_KQ_U = 5,
};

typedef struct LinxKReg {
    uint8_t kind;       /* LinxKRegKind */
    uint8_t queue;      /* VEC, HAND: LINX_KQ_* */
    uint8_t k;          /* VEC, HAND sources: entry 1..4 (0 for destinations) */
    uint8_t index;      /* RI: 0..11; LC, LB: 0..2; TILE: 0..5 (TA..TD, TO, TS) */
    uint8_t size_log2;  /* element width: 3 d, 2 w, 1 h, 0 b */
    bool st;            /* RegId10[9]: signed (integer ops) / reserved (FP ops) */
    bool reuse;         /* the .reuse hint (class 3): no architectural effect */
} LinxKReg;

/* Decode a RegId10 source / destination operand; the kind is
 * LINX_KR_RESERVED (and the result false) for codes v0.4 does not name
 * in that role. */
bool linx_kreg_src(unsigned code, LinxKReg *r);
bool linx_kreg_dst(unsigned code, LinxKReg *r);

/* ---- CUBE headers (kernel-header.c -> helper_cube) ---- */

enum {
    LINX_KCUBE_ACCCVT = 8, /* BSTART.CUBE Function of ACCCVT */
};

/* The static part of a CUBE block: Function, DataType, up to 3 source
 * tiles (A, B, the bias of TMATMUL.BIAS; @nsrc 4 = more than three),
 * ACCCVT's destination hand and quant mode (B.ARG format), whether B.IOR
 * gave two quant values, whether TMATMUL uses the reference loops
 * (LINX_CUBE_REFERENCE). */
uint64_t linx_kcube_pack(unsigned func, unsigned dtype, unsigned nsrc, const uint8_t src[3],
                         unsigned dst_kind, unsigned quant, bool two_quant, bool reference);

/* LINX_KERNEL_LANEWISE=1: bodies translated from now on run lane by
 * lane only, without the vector mode of kernel-vec.c (tests, benchmarks). */
bool linx_kernel_lanewise_from_env(void);

/* ---- Translator hooks (translate.c) ---- */

struct DisasContext;

/* Is @type (LinxBlockType) a header this file translates at its commit:
 * MPAR, MSEQ, VPAR, VSEQ, TEPL, CUBE? */
bool linx_kernel_header_type(unsigned type);

/* Commit of such a header block: emit its work and successor.  @fall is
 * the block's fall-through address, @bad_fall whether that is not a block
 * start (E_BLOCK(EC_CFI) kind CFI_MISSING_NEXT_MARKER). */
void gen_kernel_header_commit(struct DisasContext *ctx, uint64_t fall, bool bad_fall);

/* Translate the TB of a kernel body (tb->flags has TB_F_BODY): the whole
 * kernel, from ctx->tb->pc to the body's terminator. */
void linx_kernel_translate_body(struct DisasContext *ctx);

#endif /* LINX_TARGET_KERNEL_H */
