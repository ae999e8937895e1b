/*
 * The SIMD kernel compiler's translation-time values and the helpers its
 * parts share (kernel-simd.c: values, integer ops, memory, phases;
 * kernel-simd-fp.c: floating point).  Internal to those files.
 */
#ifndef LINX_KERNEL_SIMD_INTERNAL_H
#define LINX_KERNEL_SIMD_INTERNAL_H

#include "insn-forms.h"
#include "kernel-internal.h"
#include "kernel-simd.h"

enum { EXT_S, EXT_Z, EXT_X /* upper 32 bits unknown: only low bits valid */ };
enum { VK_CONST, VK_UNI, VK_VAR, VK_MASK };

/* A value at translation time: a queue entry, an operand or a result. */
typedef struct KSV {
    uint8_t kind;
    uint8_t ext;        /* VAR: of v32 */
    uint8_t ph;         /* VAR/MASK: phase of v32/v64/m */
    int8_t spill;       /* spill buffer, -1 none */
    bool spill64;
    int64_t c;          /* CONST */
    uint16_t s;         /* UNI */
    uint16_t v32, v64;  /* VAR */
    uint16_t m;         /* MASK */
    int16_t def;        /* defining insn (liveness), -1: initial */
} KSV;

typedef struct KSComp {
    KCtx k;             /* .bi, .ctx for kop_fld & co. */
    KBody *body;
    KSProg *sp;
    VecProg *vp;
    unsigned phase;
    bool fail;
    KSV q[LINX_KQUEUES][LINX_KQUEUE_DEPTH];
    KSV p;              /* CONST 1 (all on), UNI (s != 0), MASK */
    int16_t last_read[KS_MAX_INSNS + 1]; /* per def: last insn reading it */
    int8_t uext[KS_MAX_UNI];  /* known 32-bit extension of a scalar, or -1 */
    uint8_t uphase[KS_MAX_UNI]; /* first phase a scalar can be computed in */
    int64_t stride[VEC_MAX_STREAMS];
    unsigned nstreams;
    bool store_seen;
    /* per-phase caches */
    uint16_t scal32[KS_MAX_UNI], scal64[KS_MAX_UNI];
    uint16_t lane32;
} KSComp;

/* Values (kernel-simd.c "Vector values", "Operands", "Results"). */
bool ks_fail(KSComp *c);
uint16_t ks_vop(KSComp *c, VecOp op, VecType t, uint16_t a, uint16_t b, uint16_t cc, uint16_t m,
                int64_t imm, uint8_t aux);
uint16_t ks_vconst(KSComp *c, int64_t v, bool w64);
KSV ks_kconst(int64_t v);
KSV ks_kvar32(KSComp *c, uint16_t v, unsigned ext);
KSV ks_kvar64(KSComp *c, uint16_t v);
KSV ks_kmask(KSComp *c, uint16_t m);
uint16_t ks_as32(KSComp *c, KSV *x);
uint16_t ks_as64(KSComp *c, KSV *x);
bool ks_rd_raw(KSComp *c, unsigned code, KSV *out, LinxKReg *r);
bool ks_wr(KSComp *c, KSV v, bool vd, bool compare);
bool ks_vdom(KSComp *c);

/* Floating point (kernel-simd-fp.c). */
bool ks_op_fp(KSComp *c, unsigned kop, unsigned nops);
bool ks_op_cvt(KSComp *c, unsigned kind);

#endif
