/*
 * linxemu's intermediate representation (modelled on QEMU's TCG).
 *
 * A translation block's guest code is turned by the front end
 * (target/linx/translate.c) into a linear list of IR instructions over
 * 64-bit temporaries.  The optimiser (tcg/optimize.c) folds and removes
 * ops in place; then either the x86-64 backend (tcg/x86_64/) emits host
 * code, or the interpreter (tcg/interp.c) runs the list as is.  The two
 * must agree exactly: the interpreter is the JIT's differential oracle.
 *
 * Temps:
 *   IR_TEMP_FIXED   the CPU-state pointer (env); read-only, always live
 *   IR_TEMP_GLOBAL  a 64-bit field of the CPU state at a fixed offset; the
 *                   backend may cache it in a host register inside a TB
 *                   but writes it back before every guest memory op,
 *                   helper call (unless the helper's flags say it needs
 *                   no globals) and TB exit
 *   IR_TEMP_LOCAL   a TB-local value; dead after its last use
 *   IR_TEMP_CONST   a constant; never written
 *
 * Rules the front end keeps (the validator, ir_validate(), checks them in
 * debug builds after the front end and after the optimiser):
 *   - a local temp is written before it is read on every path;
 *   - locals are not live across set_label (write them back to a global
 *     or recompute them); they do live across brcond on the fall-through
 *     path;
 *   - every path ends in exit_tb, goto_ptr, br or a call of an
 *     IR_CALL_NORETURN helper; goto_tb is followed by exit_tb with only
 *     plain ops (no branch, call or guest memory access) between, and each
 *     slot is used once;
 *   - constants and the env temp are never written.
 *
 * goto_tb semantics: when the slot is chained to another TB, execution
 * continues at that TB directly and the ops between goto_tb and exit_tb
 * (typically "store the next pc") are skipped; unchained, they run and
 * exit_tb returns (uintptr_t)tb | slot to the exec loop, which may chain
 * the slot then.  So a chained successor must not rely on env->pc.
 *
 * The op table is tcg/ir-ops.h; docs/ir.md is generated from it
 * (scripts/gen-ir-doc.py).  Names of globals are copied.
 *
 * Usage:
 *   IRContext *ir = ir_context_new();
 *   IRTemp r1 = ir_global(ir, offsetof(CPULinxState, gpr[1]), "sp");  // once
 *   ...
 *   ir_reset(ir);                          // per TB
 *   IRTemp t = ir_temp(ir);
 *   ir_gen_addi(ir, t, r1, 16);
 *   ir_gen_qemu_ld(ir, t, t, IR_MO_64 | IR_MO_ALIGN, pc);
 *   ...
 */
#ifndef LINX_TCG_IR_H
#define LINX_TCG_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IR_F_BB_END (1u << 0)
#define IR_F_SIDE (1u << 1)
#define IR_F_MEM (1u << 2)
#define IR_F_CALL (1u << 3)
#define IR_F_LABEL (1u << 4)

typedef enum IROpcode {
#define IR_OP(name, outs, ins, consts, flags, doc) IR_##name,
#include "ir-ops.h"
#undef IR_OP
    IR_NB_OPS
} IROpcode;

typedef struct IROpInfo {
    const char *name;
    uint8_t nout, nin, nconst;
    uint8_t flags;
    const char *doc;
} IROpInfo;

extern const IROpInfo ir_op_info[IR_NB_OPS];

typedef uint32_t IRTemp;
typedef uint32_t IRLabel;
#define IR_NO_TEMP UINT32_MAX

typedef enum IRTempKind {
    IR_TEMP_FIXED,
    IR_TEMP_GLOBAL,
    IR_TEMP_LOCAL,
    IR_TEMP_CONST,
} IRTempKind;

typedef struct IRTempInfo {
    uint8_t kind;       /* IRTempKind */
    int32_t env_offset; /* IR_TEMP_GLOBAL: byte offset in the CPU state */
    int64_t value;      /* IR_TEMP_CONST */
    const char *name;   /* globals and fixed: for dumps */
} IRTempInfo;

/* Conditions (brcond, setcond, movcond).  Unsigned ones end in U. */
typedef enum IRCond {
    IR_COND_NEVER,
    IR_COND_ALWAYS,
    IR_COND_EQ,
    IR_COND_NE,
    IR_COND_LT,
    IR_COND_GE,
    IR_COND_LE,
    IR_COND_GT,
    IR_COND_LTU,
    IR_COND_GEU,
    IR_COND_LEU,
    IR_COND_GTU,
    IR_COND_TSTEQ, /* (a & b) == 0 */
    IR_COND_TSTNE, /* (a & b) != 0 */
} IRCond;

#define IR_NB_CONDS (IR_COND_TSTNE + 1)

/* "eq", "ltu", ... ("?" when out of range). */
const char *ir_cond_name(unsigned cond);

/* Guest memory operation descriptor (qemu_ld/qemu_st c0). */
typedef enum IRMemOp {
    IR_MO_8 = 0,
    IR_MO_16 = 1,
    IR_MO_32 = 2,
    IR_MO_64 = 3,
    IR_MO_SIZE = 3,
    IR_MO_SIGN = 1 << 2,  /* sign-extend loads */
    IR_MO_ALIGN = 1 << 3, /* misaligned address raises the alignment fault */
} IRMemOp;

/* Helper description.  All arguments and the result are 64-bit integers
 * (pointers are passed as uint64_t).  The list lives in
 * target/linx/helper.h; helpers.c builds these records from it. */
enum {
    IR_CALL_NO_RWG = 1 << 0, /* neither reads nor writes globals */
    IR_CALL_NO_WG = 1 << 1,  /* reads but does not write globals */
    IR_CALL_NO_SE = 1 << 2,  /* pure: may be removed when unused */
    IR_CALL_NORETURN = 1 << 3,
    /* (env, block, base, stride, size, plan): a block move the backend may
     * emit inline, calling the helper only when its checks fail
     * (tcg/tile-move.h); elsewhere an ordinary call. */
    IR_CALL_TILE_MOVE = 1 << 4,
};

#define IR_MAX_HELPER_ARGS 8

typedef struct IRHelperInfo {
    const char *name;
    void *func;
    uint8_t nargs;   /* 0..IR_MAX_HELPER_ARGS */
    uint8_t has_ret; /* returns uint64_t */
    uint8_t flags;   /* IR_CALL_* */
    void *ffi_cif;   /* prepared lazily by the interpreter */
} IRHelperInfo;

#define IR_MAX_ARGS 12

/* IRContext.pass_scratch slots. */
enum {
    IR_SCRATCH_OPTIMIZER,
    IR_SCRATCH_BACKEND,
    IR_NB_PASS_SCRATCH
};

typedef struct IRInsn {
    uint16_t op;  /* IROpcode */
    uint8_t nout; /* actual counts (differ from ir_op_info only for call) */
    uint8_t nin;
    uint8_t nconst;
    uint8_t dead; /* removed by the optimiser */
    uint64_t args[IR_MAX_ARGS]; /* outs (IRTemp), ins (IRTemp), consts */
} IRInsn;

typedef struct IRContext {
    IRInsn *insns;
    unsigned ninsns, insns_cap;
    IRTempInfo *temps;
    unsigned ntemps, temps_cap;
    unsigned nglobals; /* temps [0, nglobals) survive ir_reset() */
    unsigned nlabels;
    IRTemp env;        /* the fixed CPU-state pointer temp */
    const IRHelperInfo **helpers; /* helper table indexed by call c0 */
    unsigned nhelpers, helpers_cap;
    /* Bit t: global t (t < 64) may hold a value written by an op of this
     * TB that no IR_discard has dropped yet - an op named it as an output
     * since ir_reset() or since the front end last took the bit
     * (ir_take_global_written), or a label was set since (control may
     * arrive from anywhere; a front end that knows a label's only ways in
     * may put back the bits of those, as translate.c does after its
     * TB-start checks).  A discard of a global whose bit is clear
     * changes nothing (the optimiser and backend hold no newer value than
     * env's), so the front end leaves it out (docs/performance.md,
     * "Translation cost"). */
    uint64_t globals_written;
    /* Working memory of the passes that run on this context's op list
     * (optimiser, backend), kept from one TB to the next so a translation
     * allocates and clears nothing it does not use (docs/performance.md,
     * "Translation cost").  Owned by the pass that set it; freed by
     * ir_context_free() through .free. */
    struct {
        void *p;
        void (*free)(void *p);
    } pass_scratch[IR_NB_PASS_SCRATCH];
} IRContext;

IRContext *ir_context_new(void);
void ir_context_free(IRContext *ir);

/* Register a global (before the first ir_reset). */
IRTemp ir_global(IRContext *ir, int env_offset, const char *name);

/* Start a new translation block: drop locals, constants, labels and ops. */
void ir_reset(IRContext *ir);

IRTemp ir_temp(IRContext *ir);
IRTemp ir_const(IRContext *ir, int64_t value);
IRLabel ir_label(IRContext *ir);

/* Append one op; @args holds nout + nin + nconst values. */
IRInsn *ir_emit(IRContext *ir, IROpcode op, const uint64_t *args);

/* Whether a discard of global @t may matter (see globals_written); clears
 * the bit, so call it only when the discard is then emitted. */
static inline bool ir_take_global_written(IRContext *ir, IRTemp t)
{
    uint64_t bit;

    if (t >= 64 || t >= ir->nglobals) {
        return true;
    }
    bit = (uint64_t)1 << t;
    if (!(ir->globals_written & bit)) {
        return false;
    }
    ir->globals_written &= ~bit;
    return true;
}

/* Call @h with @nargs temps; @ret receives the result (IR_NO_TEMP if none).
 * The helper is added to the context's table on first use (ir_helper_index):
 * helper records must outlive the context. */
void ir_gen_call(IRContext *ir, const IRHelperInfo *h, IRTemp ret, unsigned nargs,
                 const IRTemp *args);

/* Index of @h in the helper table (added if new).  Indices never change. */
unsigned ir_helper_index(IRContext *ir, const IRHelperInfo *h);

/* Print the op list (for -d op / op_opt), one op per line:
 *    ---- 0x10002 (insn 1)
 *    add tmp12, sp, $0x10
 *    qemu_ld tmp13, tmp12, u64+al, pc=0x10002
 *    call helper_div tmp14 <- a0, a1
 *    brcond tmp13, $0x0, eq, $L0
 */
void ir_dump(const IRContext *ir, void *file /* FILE * */);
/* The same for an op list kept elsewhere (a TB's copy). */
void ir_dump_insns(const IRInsn *insns, unsigned n, const IRTempInfo *temps, unsigned ntemps,
                   const IRHelperInfo *const *helpers, unsigned nhelpers, void *file);

/* Check the rules above; returns false and prints why on failure. */
bool ir_validate(const IRContext *ir, void *file /* FILE * */);

/* ---- Typed emitters (one line each, so translators read like the ISA) ---- */

static inline void ir_gen_op3(IRContext *ir, IROpcode op, IRTemp d, IRTemp a, IRTemp b)
{
    uint64_t args[3] = { d, a, b };
    ir_emit(ir, op, args);
}

static inline void ir_gen_op2(IRContext *ir, IROpcode op, IRTemp d, IRTemp a)
{
    uint64_t args[2] = { d, a };
    ir_emit(ir, op, args);
}

static inline void ir_gen_mov(IRContext *ir, IRTemp d, IRTemp a)
{
    ir_gen_op2(ir, IR_mov, d, a);
}

static inline void ir_gen_movi(IRContext *ir, IRTemp d, int64_t v)
{
    uint64_t args[2] = { d, (uint64_t)v };
    ir_emit(ir, IR_movi, args);
}

static inline void ir_gen_add(IRContext *ir, IRTemp d, IRTemp a, IRTemp b)
{
    ir_gen_op3(ir, IR_add, d, a, b);
}

static inline void ir_gen_addi(IRContext *ir, IRTemp d, IRTemp a, int64_t imm)
{
    ir_gen_op3(ir, IR_add, d, a, ir_const(ir, imm));
}

static inline void ir_gen_sub(IRContext *ir, IRTemp d, IRTemp a, IRTemp b)
{
    ir_gen_op3(ir, IR_sub, d, a, b);
}

static inline void ir_gen_and(IRContext *ir, IRTemp d, IRTemp a, IRTemp b)
{
    ir_gen_op3(ir, IR_and, d, a, b);
}

static inline void ir_gen_andi(IRContext *ir, IRTemp d, IRTemp a, int64_t imm)
{
    ir_gen_op3(ir, IR_and, d, a, ir_const(ir, imm));
}

static inline void ir_gen_or(IRContext *ir, IRTemp d, IRTemp a, IRTemp b)
{
    ir_gen_op3(ir, IR_or, d, a, b);
}

static inline void ir_gen_xor(IRContext *ir, IRTemp d, IRTemp a, IRTemp b)
{
    ir_gen_op3(ir, IR_xor, d, a, b);
}

static inline void ir_gen_shli(IRContext *ir, IRTemp d, IRTemp a, unsigned sh)
{
    ir_gen_op3(ir, IR_shl, d, a, ir_const(ir, sh & 63));
}

static inline void ir_gen_shri(IRContext *ir, IRTemp d, IRTemp a, unsigned sh)
{
    ir_gen_op3(ir, IR_shr, d, a, ir_const(ir, sh & 63));
}

static inline void ir_gen_sari(IRContext *ir, IRTemp d, IRTemp a, unsigned sh)
{
    ir_gen_op3(ir, IR_sar, d, a, ir_const(ir, sh & 63));
}

static inline void ir_gen_setcond(IRContext *ir, IRCond c, IRTemp d, IRTemp a, IRTemp b)
{
    uint64_t args[4] = { d, a, b, c };
    ir_emit(ir, IR_setcond, args);
}

static inline void ir_gen_movcond(IRContext *ir, IRCond c, IRTemp d, IRTemp a, IRTemp b,
                                  IRTemp vtrue, IRTemp vfalse)
{
    uint64_t args[6] = { d, a, b, vtrue, vfalse, c };
    ir_emit(ir, IR_movcond, args);
}

static inline void ir_gen_brcond(IRContext *ir, IRCond c, IRTemp a, IRTemp b, IRLabel l)
{
    uint64_t args[4] = { a, b, c, l };
    ir_emit(ir, IR_brcond, args);
}

static inline void ir_gen_br(IRContext *ir, IRLabel l)
{
    uint64_t args[1] = { l };
    ir_emit(ir, IR_br, args);
}

static inline void ir_gen_set_label(IRContext *ir, IRLabel l)
{
    uint64_t args[1] = { l };
    ir_emit(ir, IR_set_label, args);
}

/* Host (env-relative) loads and stores. */
static inline void ir_gen_ld(IRContext *ir, IROpcode op, IRTemp d, IRTemp base, int32_t off)
{
    uint64_t args[3] = { d, base, (uint64_t)(int64_t)off };
    ir_emit(ir, op, args);
}

static inline void ir_gen_st(IRContext *ir, IROpcode op, IRTemp v, IRTemp base, int32_t off)
{
    uint64_t args[3] = { v, base, (uint64_t)(int64_t)off };
    ir_emit(ir, op, args);
}

static inline void ir_gen_qemu_ld(IRContext *ir, IRTemp d, IRTemp addr, unsigned memop,
                                  uint64_t pc)
{
    uint64_t args[4] = { d, addr, memop, pc };
    ir_emit(ir, IR_qemu_ld, args);
}

static inline void ir_gen_qemu_st(IRContext *ir, IRTemp v, IRTemp addr, unsigned memop,
                                  uint64_t pc)
{
    uint64_t args[4] = { v, addr, memop, pc };
    ir_emit(ir, IR_qemu_st, args);
}

static inline void ir_gen_goto_tb(IRContext *ir, unsigned slot)
{
    uint64_t args[1] = { slot };
    ir_emit(ir, IR_goto_tb, args);
}

static inline void ir_gen_exit_tb(IRContext *ir, uint64_t val)
{
    uint64_t args[1] = { val };
    ir_emit(ir, IR_exit_tb, args);
}

static inline void ir_gen_goto_ptr(IRContext *ir, IRTemp ptr)
{
    uint64_t args[1] = { ptr };
    ir_emit(ir, IR_goto_ptr, args);
}

static inline void ir_gen_insn_start(IRContext *ir, uint64_t pc, unsigned index)
{
    uint64_t args[2] = { pc, index };
    ir_emit(ir, IR_insn_start, args);
}

#endif /* LINX_TCG_IR_H */
