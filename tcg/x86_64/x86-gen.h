/*
 * State shared by the pieces of the x86-64 backend while one TB is being
 * generated (internal to tcg/x86_64/).
 *
 *   gen.c       backend_gen_tb(): liveness, the op loop, finishing the TB
 *   regalloc.c  where each temp lives (host register, memory, constant)
 *   alu.c       arithmetic, logic, shifts, compares, extensions
 *   mem.c       host loads/stores, guest loads/stores (TLB fast path and
 *               out-of-line slow paths)
 *   branch.c    labels, branches, TB exits, helper calls
 *   prologue.c  backend_init(): host features, prologue/epilogue;
 *               backend_set_jmp()
 *   disas.c     -d out_asm listing (capstone)
 *
 * Register assignment (docs/backend.md):
 *   rbp        env (callee-saved, fixed for the whole run)
 *   r15        the guest memory's direct-window base (fixed for the run)
 *   rsp        stack pointer; 16-byte aligned at every instruction of a TB
 *   the other 13 registers are allocated to temps.
 *
 * Frame (built by the prologue, addressed from rsp):
 *   [rsp + 0, 16)                     outgoing stack arguments 7 and 8
 *   [rsp + 16, 16 + 16 * 8)           slow-path save area, one slot per
 *                                     host register number
 *   [rsp + X86_FRAME_SPILL_OFF, ...)  spill slots for local temps
 * A TB that needs more spill slots than the static frame has subtracts
 * frame_ext more from rsp on entry and adds it back before leaving.
 */
#ifndef LINX_TCG_X86_64_X86_GEN_H
#define LINX_TCG_X86_64_X86_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "tcg/backend.h"

/* Host CPU features (BackendState.host_features). */
enum {
    X86_FEAT_LZCNT = 1 << 0,
    X86_FEAT_BMI1 = 1 << 1, /* TZCNT, ANDN */
    X86_FEAT_BMI2 = 1 << 2, /* SHLX/SHRX/SARX */
    X86_FEAT_POPCNT = 1 << 3,
};

#define X86_ENV_REG X86_RBP
/* The direct window's base (BackendState.guest_base) for the whole run:
 * the prologue loads it, guest accesses address [A + r15] on a TLB hit.
 * Never allocated (also when the backend is not in direct mode). */
#define X86_GUEST_BASE_REG X86_R15
/* BackendState.pinned_env_offset's global (callee-saved, so helpers keep
 * it); not allocated while pinning is on. */
#define X86_PINNED_REG X86_R14

/* Frame layout (see above).  The prologue pushes six registers after the
 * return address, so FRAME_SIZE = 8 (mod 16) keeps rsp 16-byte aligned. */
#define X86_FRAME_ARGS_OFF 0
#define X86_FRAME_STACK_ARGS 2
#define X86_FRAME_SAVE_OFF (X86_FRAME_ARGS_OFF + 8 * X86_FRAME_STACK_ARGS)
#define X86_FRAME_SPILL_OFF (X86_FRAME_SAVE_OFF + 8 * X86_NB_REGS)
#define X86_FRAME_STATIC_SLOTS 128
#define X86_FRAME_SIZE (X86_FRAME_SPILL_OFF + 8 * X86_FRAME_STATIC_SLOTS + 8)
#define X86_FRAME_MAX_SLOTS (1u << 16)

/* SysV AMD64 calling convention. */
#define X86_NB_ARG_REGS 6
extern const uint8_t x86_arg_regs[X86_NB_ARG_REGS];
#define X86_RET_REG X86_RAX
#define X86_REG_BIT(r) ((uint16_t)(1u << (r)))
#define X86_CALL_CLOBBERED                                                               \
    (X86_REG_BIT(X86_RAX) | X86_REG_BIT(X86_RCX) | X86_REG_BIT(X86_RDX) |               \
     X86_REG_BIT(X86_RSI) | X86_REG_BIT(X86_RDI) | X86_REG_BIT(X86_R8) |                \
     X86_REG_BIT(X86_R9) | X86_REG_BIT(X86_R10) | X86_REG_BIT(X86_R11))
#define X86_ALLOCATABLE                                                                  \
    ((uint16_t)(0xffffu & ~X86_REG_BIT(X86_RSP) & ~X86_REG_BIT(X86_ENV_REG) &            \
                ~X86_REG_BIT(X86_GUEST_BASE_REG)))
/* Any register an input may be read from (env stays in rbp). */
#define X86_ANY_REG ((uint16_t)(X86_ALLOCATABLE | X86_REG_BIT(X86_ENV_REG)))

/* Where a temp's value is. */
typedef enum X86ValLoc {
    X86_VAL_DEAD,  /* no value (local before its definition / after its last use) */
    X86_VAL_REG,   /* in host register .reg */
    X86_VAL_MEM,   /* only in memory (env field or spill slot) */
    X86_VAL_CONST, /* known constant .cval, not materialised */
} X86ValLoc;

#define X86_NEVER UINT32_MAX /* "no further use" */

typedef struct X86Temp {
    uint8_t loc;           /* X86ValLoc */
    uint8_t reg;
    uint8_t kind;          /* IRTempKind */
    bool mem_coherent;     /* memory holds the current value */
    bool has_slot;         /* local: spill slot assigned */
    bool active;           /* local: listed in X86Gen.active */
    bool pinned;           /* global: always in X86_PINNED_REG */
    uint32_t slot;         /* local: spill slot index */
    int32_t env_offset;    /* global: field offset */
    int64_t cval;          /* X86_VAL_CONST */
    uint32_t next_use;     /* index of the next op reading it, or X86_NEVER */
} X86Temp;

/* Markers in reg_owner[] besides temp numbers. */
#define X86_OWNER_FREE UINT32_MAX
#define X86_OWNER_SCRATCH (UINT32_MAX - 1)
#define X86_OWNER_FIXED (UINT32_MAX - 2)

/* A dirty global written back by a slow path before it calls out. */
typedef struct X86SyncEntry {
    int32_t env_offset;
    uint8_t reg; /* X86_NO_REG: store .value */
    uint64_t value;
} X86SyncEntry;

/* An out-of-line guest memory slow path. */
typedef struct X86SlowPath {
    bool is_store;
    uint8_t memop;
    uint8_t addr_reg;
    uint8_t val_reg;    /* load: result; store: value (X86_NO_REG: .val_const) */
    uint64_t val_const;
    uint64_t pc;
    uint16_t save_mask; /* call-clobbered registers live across the access */
    uint32_t jcc_field; /* rel32 of the fast path's jne */
    uint32_t return_pos;
    bool hostfault;     /* no TLB check: a host fault at access_pos comes here */
    uint32_t access_pos, entry_pos;
    uint32_t sync_start, sync_count;
} X86SlowPath;

/* A brcond whose taken path writes dirty globals back out of line:
 * "jcc stub" in the body; the stub (after the slow paths) stores the
 * globals recorded at the branch and jumps to the label. */
typedef struct X86BranchStub {
    uint32_t jcc_field; /* rel32 of the body's jcc */
    uint32_t label;
    uint32_t sync_start, sync_count;
} X86BranchStub;

typedef struct X86LabelRef {
    uint32_t field; /* position of a rel32 */
    uint32_t label;
} X86LabelRef;

/* One guest instruction boundary, for the out_asm listing. */
typedef struct X86InsnMark {
    uint32_t pos;
    uint64_t pc;
} X86InsnMark;

/* A loop inside the TB (gen.c find_loops): a label whose only reference
 * is one later br (the back edge).  Globals the loop reads before writing
 * ("loop-carried": guest registers) live in fixed registers from the
 * label to the back edge: loaded once before the label, moved back into
 * those registers at the back edge instead of being written to env and
 * loaded again (docs/backend.md "Loops inside a TB"). */
#define X86_LOOP_MAX_GLOBALS 6

typedef struct X86Loop {
    uint32_t head_op, back_op; /* the set_label and the br */
    unsigned n;
    IRTemp glob[X86_LOOP_MAX_GLOBALS];
    uint8_t reg[X86_LOOP_MAX_GLOBALS];
    bool written[X86_LOOP_MAX_GLOBALS];    /* dirty at the head */
    uint32_t first_read[X86_LOOP_MAX_GLOBALS];
} X86Loop;

typedef struct X86Gen {
    BackendState *bs;
    IRContext *ir;
    TranslationBlock *tb;
    X86Emitter e;

    /* Per temp. */
    X86Temp *temps;
    unsigned ntemps, temps_cap;
    uint32_t *first_use; /* liveness: each temp's first reader */
    unsigned first_use_cap;

    /* Globals whose state may differ from "in env, coherent" (bit i of
     * word i / 64: temp i): set by ra_touch_global() whenever a global is
     * loaded, written or pinned; the passes over globals (sync, drop,
     * label, env access, slow-path write-back) visit only these, in
     * increasing temp order (the order of a scan of all globals). */
    uint64_t *dirty;
    unsigned ndirty, dirty_cap;
    /* temps[] of the globals are those the last TB left (kept in the IR
     * context with the same BackendState, pinned global and globals):
     * ra_init_tb() re-initialises only the touched ones. */
    bool globals_kept;

    /* Locals that got a value since the last label (X86Temp.active). */
    IRTemp *active;
    unsigned nactive, active_cap;

    /* Per host register: owning temp or an X86_OWNER_ marker. */
    uint32_t reg_owner[X86_NB_REGS];
    uint16_t locked;   /* registers the current op reads or writes */

    /* Liveness: for op i, next_after[i * IR_MAX_ARGS + k] is the next op
     * after i that reads temp operand k (outputs first), or X86_NEVER. */
    uint32_t *next_after;
    unsigned next_after_cap;
    unsigned cur;      /* index of the op being generated */

    /* Spill slots. */
    uint8_t *slot_busy;
    unsigned slot_cap;    /* entries allocated in slot_busy */
    unsigned nslots;      /* slots available in this TB's frame */
    unsigned slots_high;  /* highest slot count used */
    unsigned frame_ext;   /* bytes subtracted from rsp on entry (multiple of 16) */

    /* Labels. */
    int64_t *label_pos;   /* -1 until set */
    unsigned label_pos_cap;
    int32_t *label_loop;  /* index in loops[] of the loop the label heads, or -1 */
    X86Loop *loops;
    unsigned nloops, loops_cap;
    X86LabelRef *label_refs;
    unsigned nlabel_refs, label_refs_cap;

    /* Slow paths and the globals they write back. */
    X86SlowPath *slow;
    unsigned nslow, slow_cap;
    X86SyncEntry *sync;
    unsigned nsync, sync_cap;
    /* Taken paths of brconds that left globals dirty. */
    X86BranchStub *stubs;
    unsigned nstubs, stubs_cap;

    /* Guest instruction boundaries (only kept when listing). */
    X86InsnMark *marks;
    unsigned nmarks, marks_cap;

    /* Pinned global (BackendState.pinned_env_offset >= 0): pin_on; the
     * temp (IR_NO_TEMP when this IR has no global there); reload the
     * register from env after the current op (an env store hit it). */
    bool pin_on;
    IRTemp pinned_temp;
    bool pinned_reload;

    /* A shl by 1..3 whose only reader is the next op, an add (alu.c
     * fuse_scaled_add): no code for the shl; the add is one lea with
     * the shifted value as its scaled index.  fuse_op: that add's index
     * (X86_NEVER: none pending); fuse_reg: where fuse_x was at the shl. */
    uint32_t fuse_op;
    IRTemp fuse_d, fuse_x;
    uint8_t fuse_reg, fuse_shift;

    size_t body_end;    /* where the slow paths start */
    bool unreachable;   /* after br/exit: skip ops until the next label */
    bool failed;        /* an internal limit was hit (message printed) */
} X86Gen;

/* ---- gen.c ---- */
bool x86_grow(void **arr, unsigned *cap, unsigned need, size_t elem);
/* Is input/output operand @k of the current op not needed after it? */
bool x86_arg_dies(X86Gen *g, const IRInsn *insn, unsigned k);

/* ---- regalloc.c ---- */
void ra_init_tb(X86Gen *g);

/* Global @t may leave its initial state (see X86Gen.dirty). */
static inline void ra_touch_global(X86Gen *g, IRTemp t)
{
    if (g->temps[t].kind == IR_TEMP_GLOBAL) {
        g->dirty[t / 64] |= 1ull << (t % 64);
    }
}

/* for (i = each global in X86Gen.dirty, increasing) */
#define RA_FOR_EACH_TOUCHED_GLOBAL(g, i)                                                 \
    for (unsigned ra_w_ = 0; ra_w_ < (g)->ndirty; ra_w_++)                                \
        for (uint64_t ra_m_ = (g)->dirty[ra_w_];                                         \
             ra_m_ && ((i) = ra_w_ * 64 + (unsigned)__builtin_ctzll(ra_m_), true);       \
             ra_m_ &= ra_m_ - 1)
/* Load temp @t into a register from @allowed (prefer @prefer) and lock it. */
int ra_load(X86Gen *g, IRTemp t, uint16_t allowed, uint16_t prefer);
/* Load @t into exactly @reg, moving out whatever is there (locks @reg). */
void ra_load_fixed(X86Gen *g, IRTemp t, int reg);
/* A locked scratch register from @allowed, released after the op. */
int ra_scratch(X86Gen *g, uint16_t allowed);
/* Make @reg free (moving or spilling its owner) and lock it as scratch. */
void ra_claim(X86Gen *g, int reg);
/* Register for output @k: reuses input @in_k's register when that input
 * dies here (or is the output itself), else a fresh register not in @avoid. */
int ra_out_reg(X86Gen *g, const IRInsn *insn, int in_k, int in_reg, uint16_t avoid);
/* May the op overwrite @reg, which holds input operand @k (absolute index)? */
bool ra_can_reuse(X86Gen *g, const IRInsn *insn, unsigned k, int reg);
/* Put @t's value into @reg (already claimed) without binding it there. */
void ra_copy_into(X86Gen *g, IRTemp t, int reg);
/* discard: @t is dead from here on. */
void ra_discard(X86Gen *g, IRTemp t);
/* Is temp @t a constant (kind or state) that fits a sign-extended imm32? */
bool ra_is_const(X86Gen *g, IRTemp t, int64_t *v);
bool ra_const_s32(X86Gen *g, IRTemp t, int32_t *v);
/* After the code of the op: drop dead inputs, bind outputs to registers. */
void ra_set_output_reg(X86Gen *g, IRTemp t, int reg);
void ra_set_output_const(X86Gen *g, IRTemp t, uint64_t v);
/* Global output @t stored straight from @reg to env (no register kept). */
void ra_store_output(X86Gen *g, IRTemp t, int reg);
void ra_end_op(X86Gen *g, const IRInsn *insn);
/* Write back temp @t if memory is stale. */
void ra_sync_temp(X86Gen *g, IRTemp t);
/* Write back every dirty global (values stay in registers). */
void ra_sync_globals(X86Gen *g);
/* The same before a branch, label or TB exit: the pinned global stays in
 * its register (its home across blocks and TBs). */
void ra_sync_globals_at_boundary(X86Gen *g);
/* Forget register copies of globals (they may have changed in memory). */
void ra_drop_globals(X86Gen *g, uint16_t regs);
/* Write back and forget globals overlapping env[off, off + size). */
void ra_env_access(X86Gen *g, int64_t off, unsigned size, bool is_store);
/* Free the call-clobbered registers: live values move to free callee-saved
 * registers or to memory. */
void ra_evict_call_clobbered(X86Gen *g, const IRInsn *insn);
/* Start of a label: everything canonical (globals in memory). */
void ra_at_label(X86Gen *g);
/* Spill slot frame offset of a local (allocating the slot). */
int32_t ra_slot_offset(X86Gen *g, IRTemp t);
/* Record the dirty globals (for a slow path, or with @branch for a
 * brcond's taken path, which leaves the pinned global in its register);
 * returns the first index. */
uint32_t ra_record_dirty_globals(X86Gen *g, uint32_t *count, bool branch);
/* Call-clobbered registers holding values live after the current op. */
uint16_t ra_live_clobbered(X86Gen *g, const IRInsn *insn);
bool ra_temp_live_after(X86Gen *g, const IRInsn *insn, IRTemp t);

/* ---- alu.c ---- */
bool x86_gen_alu(X86Gen *g, const IRInsn *insn);
X86Cond x86_cond(IRCond c);
/* Emit the compare for @c on (a, b); returns the x86 condition to test.
 * Inputs are loaded (and locked) as needed. */
X86Cond x86_gen_compare(X86Gen *g, IRCond c, IRTemp a, IRTemp b);

/* ---- mem.c ---- */
bool x86_gen_mem(X86Gen *g, const IRInsn *insn);
void x86_gen_slow_paths(X86Gen *g);
/* Report the host-fault accesses of the committed TB at @rx (BackendState.fault_site). */
void x86_report_fault_sites(X86Gen *g, const uint8_t *rx);
/* Store the recorded dirty globals g->sync[start, start + count) to env. */
void x86_emit_sync(X86Gen *g, uint32_t start, uint32_t count);

/* ---- branch.c ---- */
bool x86_gen_branch(X86Gen *g, const IRInsn *insn);
void x86_gen_call(X86Gen *g, const IRInsn *insn);
/* The out-of-line taken paths of brconds (after the slow paths). */
void x86_gen_branch_stubs(X86Gen *g);
void x86_resolve_labels(X86Gen *g);
/* Move up to X86_NB_REGS values into registers at once (cycles via xchg). */
void x86_parallel_move(X86Emitter *e, const uint8_t *dst, const uint8_t *src, unsigned n);
/* Call a C function from generated code: @target, result in rax. */
void x86_emit_call(X86Gen *g, const void *target);

/* ---- tile-move.c ---- */
struct TcgTileMove;
/* Inline fast case of an IR_CALL_TILE_MOVE call (tcg/tile-move.h), emitted
 * after its arguments are in place: returns false (nothing emitted) when
 * it cannot, else true with *done the rel32 of the jump over the call
 * that follows (the failed checks land on that call). */
bool x86_gen_tile_move(X86Gen *g, const struct TcgTileMove *m, size_t *done);
/* rsp back to the prologue's frame before leaving the TB. */
void x86_restore_frame(X86Gen *g);

/* ---- disas.c ---- */
void x86_disas_tb(FILE *f, const X86Gen *g, const uint8_t *code, size_t size);
/* Any code (vector lane programs): @rx its executable address. */
void x86_disas_code(FILE *f, const char *title, const uint8_t *code, size_t size, uint64_t rx);

#endif /* LINX_TCG_X86_64_X86_GEN_H */
