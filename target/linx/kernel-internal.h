/*
 * Kernel-body translator internals, shared by kernel-body.c (structure:
 * decoding the body, lane loops, phases, branches), kernel-cache.c (the
 * lane-state cache) and kernel-ops.c (one V.* instruction).
 *
 * A body is decoded once into a KBody (instructions, branch targets,
 * phases) and translated into one TB.  Lane state (vector queues, scalar
 * hands, p) is tracked at translation time by a KCache: inside an IR basic
 * block every entry is a constant, an IR local or a word of the lane
 * record; at every label the record holds the canonical state (#1 first),
 * so IR locals never live across a label (tcg/ir.h rule).  Straight-line
 * bodies never touch the record at all: a lane starts with all-constant
 * state (empty queues read 0, p = 1).
 *
 * Phases: cross-lane instructions (V.RD*, V.SHFL*) split a body into
 * phases; each phase runs for every lane of the group (lc0 in [0, LB0))
 * before the cross-lane instruction runs over the group's lane records
 * (env->kern.lanes[lc0]).  Branches may not cross a phase boundary.
 */
#ifndef LINX_TARGET_KERNEL_INTERNAL_H
#define LINX_TARGET_KERNEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel.h"
#include "translate-gen.h"

enum {
    LINX_KBODY_MAX_INSNS = 1024, /* longest body the translator takes */
    LINX_KBODY_MAX_PHASES = 64,
    LINX_KBODY_MAX_STUBS = 4096,
};

/* What a body instruction is. */
typedef enum KInsnKind {
    KI_OP,          /* a lane instruction (V.*) */
    KI_BRANCH,      /* B.EQ .. B.GEU, B.Z, B.NZ, J */
    KI_JR,          /* JR: computed target */
    KI_BARRIER,     /* cross-lane: V.RD*, V.SHFL*, V.SHFLI* */
    KI_ILLEGAL,     /* not allowed in a body: E_INST(EC_ILLEGAL) when reached */
    KI_UNSUPPORTED, /* allowed, but not in this position (a branch across a
                     * phase boundary, JR with phases): EC_ILLEGAL + log */
    KI_FETCH_FAULT, /* the bytes could not be fetched: INST_PAGE_FAULT */
    KI_TOO_LONG,    /* past LINX_KBODY_MAX_INSNS or a third page: EC_BFETCH */
} KInsnKind;

/* Branch targets besides an instruction index. */
enum {
    KT_END = -1,    /* the body's terminator: the lane ends */
    KT_ESCAPE = -2, /* outside the body: E_BLOCK(EC_BFETCH) */
};

typedef struct KBodyInsn {
    LinxInsn insn;
    uint64_t pc;
    uint8_t kind;       /* KInsnKind */
    uint8_t phase;
    bool is_target;     /* a branch jumps here: the insn starts with a label */
    IRLabel label;
    int32_t target;     /* KI_BRANCH: insn index, KT_END or KT_ESCAPE */
    uint64_t target_pc;
    uint64_t fault_addr; /* KI_FETCH_FAULT */
} KBodyInsn;

typedef struct KBody {
    uint64_t start;     /* BodyTPC */
    uint64_t end;       /* pc of the terminator (or where decoding stopped) */
    uint64_t bytes;     /* guest bytes covered, terminator included */
    unsigned n;
    KBodyInsn *insns;
    unsigned nphases;   /* phases: barriers + 1 */
    /* static facts checked when the kernel starts */
    bool uses_vmvn;     /* names vm or vn (illegal under VS8) */
    uint64_t vmvn_pc;
    int max_ri;         /* highest ri index named, -1 none */
    uint64_t max_ri_pc;
} KBody;

/* Where a piece of lane state is at translation time. */
typedef enum KLocKind {
    KL_CONST, /* a known constant */
    KL_TEMP,  /* an IR local (mem_slot: the record word that also holds it, or -1) */
    KL_MEM,   /* the lane record's word mem_slot of this queue */
} KLocKind;

typedef struct KLoc {
    uint8_t kind;
    int8_t mem_slot;
    IRTemp temp;
    int64_t value;
} KLoc;

/* An out-of-line raise the TB ends with. */
typedef struct KStub {
    IRLabel label;
    uint32_t trapnum, cause;
    uint64_t arg;      /* TRAPARG0, or ... */
    bool arg_dynamic;  /* ... env->kern.fault_arg when set */
    uint64_t pc;
} KStub;

typedef struct KCtx {
    DisasContext *ctx;
    IRContext *ir;
    KBody *body;
    /* lane state */
    KLoc q[LINX_KQUEUES][LINX_KQUEUE_DEPTH];
    KLoc p;
    bool xlane;         /* records are env->kern.lanes[lc0] (bodies with phases) */
    IRTemp base;        /* record address in this basic block (IR_NO_TEMP: not yet) */
    bool dead;          /* after an unconditional branch, until the next label */
    unsigned count;     /* instructions since insn_count was last updated */
    /* the instruction being translated */
    const KBodyInsn *bi;
    unsigned index;
    IRLabel l_lane_end;
    bool lane_end_used;
    /* out-of-line raises */
    KStub *stubs;
    unsigned nstubs;
    /* vector mode (kernel-vec.c): the program, or NULL */
    const struct KVProg *vec;
    /* SIMD mode (kernel-simd.c): the compiled body, or NULL */
    const struct KSProg *simd;
} KCtx;

/* ---- kernel-cache.c: lane state ---- */

/* Record word of queue @q entry @e (0 = #1), or of p (q = LINX_KQUEUES). */
unsigned kc_word(unsigned q, unsigned e);
/* A lane starts: empty queues (0), p = 1. */
void kc_init_lane(KCtx *k);
/* After a label: everything is in the record, canonical. */
void kc_init_mem(KCtx *k);
/* Value of entry #@kidx (1..4) of queue @q. */
IRTemp kc_read(KCtx *k, unsigned q, unsigned kidx);
/* Push @v on queue @q (the oldest entry drops). */
void kc_push(KCtx *k, unsigned q, IRTemp v);
IRTemp kc_read_p(KCtx *k);
void kc_write_p(KCtx *k, IRTemp v);
/* p is a known non-zero constant (every v.* runs unpredicated). */
bool kc_p_active(const KCtx *k);
/* Leave the record canonical.  @keep: the locals stay valid (a brcond
 * follows and translation continues on its fall-through path). */
void kc_flush(KCtx *k, bool keep);
/* Add the instructions translated since the last call to insn_count. */
void kc_count(KCtx *k);

/* ---- kernel-body.c: services for kernel-ops.c ---- */

/* A label that raises when branched to (TRAPARG0 @arg, or env->kern.
 * fault_arg when @dynamic) at @pc. */
IRLabel kb_stub(KCtx *k, unsigned trapnum, unsigned cause, uint64_t arg, bool dynamic,
                uint64_t pc);
/* The current instruction raises E_INST(EC_ILLEGAL) (always, when reached). */
void kb_illegal(KCtx *k);

/* ---- kernel-ops.c: operands and one lane instruction ---- */

typedef enum KDst {
    KD_VALUE,   /* an ordinary result */
    KD_COMPARE, /* a compare: may write ->p from the v.* domain */
} KDst;

const LinxInsn *kop_cur(const KCtx *k);
int64_t kop_fld(const KCtx *k, LinxFieldId id);
/* The SrcRType field as a modifier, under the CPU's ISA profile. */
LinxSrcRMod kop_srcr_mod(const KCtx *k);
bool kop_has(const KCtx *k, LinxFieldId id);
IRTemp kop_tmp(KCtx *k);
IRTemp kop_cst(KCtx *k, int64_t v);
/* Extend the low 8 << @lg bits of @v (sign or zero). */
IRTemp kop_ext(KCtx *k, IRTemp v, unsigned lg, bool sign);
/* Raw value of RegId10 source @code (IR_NO_TEMP: it names nothing). */
IRTemp kop_read_raw(KCtx *k, unsigned code, LinxKReg *r);
/* Integer source extended by its RegId10 type. */
IRTemp kop_read_int(KCtx *k, unsigned code);
IRTemp kop_read_field(KCtx *k, LinxFieldId id);
/* Does the instruction name a vector queue (the v.* domain)? */
bool kop_vdomain(const KCtx *k);
/* Write @v to RegDst (typed, predicated when @vd); false: not a
 * destination this instruction may write. */
bool kop_write(KCtx *k, IRTemp v, bool vd, KDst how);

/* kernel-mem.c: loads, stores, atomics. */
bool kop_is_mem(unsigned form);
bool kop_mem(KCtx *k);
bool kop_atomic(KCtx *k, unsigned op, unsigned lg, bool ret);


/* Translate one KI_OP instruction; false when it is not a legal body
 * instruction (the caller raises E_INST(EC_ILLEGAL)). */
bool kop_translate(KCtx *k);
/* Is @form a cross-lane instruction (V.RD*, V.SHFL*)? */
bool kop_is_barrier(unsigned form);
/* Is @form a body instruction at all (V.* lane ops; not V.QPUSH/QPOP)? */
bool kop_is_lane_op(unsigned form);
/* Operand facts for the body scan: names vm/vn, highest ri index. */
void kop_operand_facts(const LinxInsn *insn, bool *vmvn, int *max_ri);
/* The 64-bit descriptor helper_kernel_xlane takes for barrier @insn. */
uint64_t kop_barrier_desc(const LinxInsn *insn);

/* ---- kernel-vec.c: vector mode of straight-line bodies ---- */

typedef struct KVProg KVProg;
/* The body as a program for helper_kvec, allocated with the TB; NULL when
 * the body has anything vector mode does not take (or
 * LINX_KERNEL_LANEWISE is set). */
const KVProg *kv_compile(KCtx *k);

/* Is @t a constant temp, and its value. */
static inline bool kir_is_const(const IRContext *ir, IRTemp t)
{
    return ir->temps[t].kind == IR_TEMP_CONST;
}

static inline int64_t kir_const_value(const IRContext *ir, IRTemp t)
{
    return ir->temps[t].value;
}

/* Offsets of env->kern fields for env-relative loads and stores. */
#define KERN_OFF(f) ((int32_t)offsetof(CPULinxState, kern.f))

#endif /* LINX_TARGET_KERNEL_INTERNAL_H */
