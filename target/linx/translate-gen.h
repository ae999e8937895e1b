/*
 * LinxISA front end: the translator's toolkit - the translation context and
 * the emitters (operands, helper calls, traps, block start; translate-gen.c,
 * gen_helper_<name> below) shared by the translation loop (translate.c), the
 * per-uop-class translators in insn_trans/trans_<class>.c.inc, the kernel
 * block translators (kernel-*.c), TMA headers (tma-translate.c) and
 * tracing (trace-translate.c).  The toolkit knows none of them.
 *
 * A translation block (TB) is one guest block (docs/frontend.md): it starts
 * at a block-start marker, runs the payload, and commits at the next
 * marker or BSTOP.  Everything the ISA calls "block state" that does not
 * depend on run-time values (branch kind, block type, header target,
 * whether SETC.TGT/SETRET/SETC ran, the ClockHands ring heads and fill
 * counts, which LBx a B.DIM wrote) is tracked here, at translation time,
 * in LinxBlockState.  Run-time values (CARG, TGT, the queue contents, GPRs)
 * live in CPU-state globals.
 *
 * Invariants:
 *   - LinxBlockState after translating instructions [bpc, pc) is a pure
 *     function of those instructions, so a TB entered in the middle of a
 *     block (TB_F_RESUME) rebuilds it by translating [env->bpc, pc) into a
 *     scratch op list that is then dropped (linx_block_replay);
 *   - translators read sources before they write destinations, and push a
 *     ClockHands queue only through gen_write_dst();
 *   - no IR local temp is live across a label a translator emits.
 */
#ifndef LINX_TARGET_TRANSLATE_GEN_H
#define LINX_TARGET_TRANSLATE_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "decode.h"
#include "helper-ops.h"
#include "helper-proto.h"
#include "profile.h"
#include "hw/linx/tma.h"
#include "tcg/ir.h"
#include "tcg/tb.h"

/* CPU-state words that are IR globals: env offsets below this many bytes
 * are mapped (cpu.h keeps every such field in front of mgr_ssr). */
#define LINX_GLOBAL_SLOTS 64
/* Bytes of code the front end reads at once (within a page). */
#define LINX_FETCH_AHEAD 64

/* Limits of one TB. */
enum {
    LINX_TB_MAX_INSNS = 512,      /* then the block continues in a resume TB */
    LINX_REPLAY_MAX_INSNS = 8192, /* longest block prefix a resume TB rebuilds */
    LINX_LOOP_COPIES = 8,         /* copies of a self-looping block per TB */
    LINX_LOOP_MAX_INSNS = 64,     /* ... while the TB stays this short */
};

/* Translation-time block state (see the file comment). */
typedef struct LinxBlockState {
    uint64_t bpc;        /* block start marker */
    uint8_t kind;        /* LinxBranchKind */
    uint8_t type;        /* LinxBlockType */
    bool has_target;     /* the header encodes a target */
    uint64_t target;     /* that target */
    bool tgt_set;        /* SETC.TGT ran: TGT (global) holds the target */
    bool carg_set;       /* a SETC ran: CARG (global) is valid, else 0 */
    bool ra_set;         /* SETRET ran (call headers) */
    bool setret_ok;      /* the previous insn was a CALL header: SETRET fuses */
    bool is_header;      /* tile/kernel header: only B.* descriptors allowed */
    bool is_template;    /* one-instruction template block */
    /* System-call continuation (profile acrc_continues_block): 1 after an
     * ACRC, 2 after the C.BSTOP that follows it when the block continues
     * at the next C.BSTART.STD (docs/frontend.md "System calls"). */
    uint8_t acrc_cont;
    uint8_t lb_written;  /* LBx written by B.DIM in this block (bit x) */
    uint8_t hdr_nior;    /* B.IOR values gathered (header blocks) */
    uint8_t hdr_niot;    /* B.IOT/B.IOTI descriptors gathered */
    uint64_t hdr_ior_regs; /* their register codes, 5 bits each */
    uint8_t t_head, t_count; /* T ring: t#1 = tq[t_head], pushes since start */
    uint8_t u_head, u_count;
    /* Commit trace (trace-translate.c): the tile header's Function and
     * DataType, the B.IOT/B.IOTI seen and SrcTile0/1 of the last one. */
    uint16_t tr_func;
    uint8_t tr_dtype, tr_niot, tr_src0, tr_src1;
} LinxBlockState;

/* How translation of the current instruction ended the TB. */
typedef enum LinxDisasJump {
    DISAS_NEXT,     /* continue with the next instruction */
    DISAS_COMMIT,   /* block ends after this insn (BSTOP, template) */
    DISAS_NORETURN, /* code already left the TB (trap raised) */
} LinxDisasJump;

typedef struct DisasContext {
    CPULinxState *env;
    IRContext *ir;
    TranslationBlock *tb;
    IRTemp g[LINX_GLOBAL_SLOTS]; /* IRTemp of each global CPU-state word */

    uint64_t pc;      /* current instruction */
    uint64_t next_pc; /* the one after it */
    const LinxInsn *insn;
    unsigned insn_index; /* within the TB */
    bool replay;         /* rebuilding state only; ops are dropped */
    uint8_t acrc_prev;   /* bs.acrc_cont before the current instruction */
    bool traced;         /* the commit-trace call of this insn is emitted */
    LinxDisasJump jump;
    LinxBlockState bs;
    /* CARG / TGT values set by the last instruction and not yet in their
     * globals (IR_NO_TEMP: none): a SETC right before the commit feeds
     * the branch without a store; gen_flush_block_args() writes them
     * before anything else runs. */
    IRTemp carg_val, tgt_val;
    /* carg_val is carg_cond(carg_l, carg_r) (a SETC of a compare) */
    bool carg_cmp;
    IRCond carg_cond;
    IRTemp carg_l, carg_r;
    /* Self-looping blocks (translate.c, gen_loop_copy_end): the TB holds
     * up to LINX_LOOP_COPIES copies of the block; count_base is the
     * insn_index where the current copy starts, loop_exit the label of
     * the shared fall-through exit. */
    unsigned count_base;
    unsigned loop_copies;
    bool has_loop_exit;
    IRLabel loop_exit;
    /* The label at the start of the TB's first block (after the exit
     * check), when the TB may loop back to it inside (gen_loop_back). */
    bool has_loop_head;
    IRLabel loop_head;
    /* The TMA header being translated (tma-translate.c): its descriptors
     * as decoded, planned at the block's commit.  Valid while
     * bs.is_header && bs.type == LINX_BLK_TMA; rebuilt by a replay like
     * LinxBlockState. */
    TmaDesc tma;
    /* Code bytes read ahead (translate.c, fetch_bytes): [fetch_base,
     * fetch_base + fetch_len) of one guest page, read with one access
     * checked for execute permission instead of two per instruction. */
    uint64_t fetch_base;
    uint32_t fetch_len;
    uint8_t fetch_buf[LINX_FETCH_AHEAD];
} DisasContext;

/* ---- CPU-state globals ---- */

/* The IR global for the 64-bit env word at byte offset @off. */
IRTemp linx_global(DisasContext *ctx, int off);
#define cpu_gpr(ctx, i) linx_global((ctx), (int)offsetof(CPULinxState, gpr[i]))
#define cpu_field(ctx, f) linx_global((ctx), (int)offsetof(CPULinxState, f))

/* Commit trace (TB_F_TRACE): record the data access of the current
 * instruction (@lg = log2 size) for helper_trace_insn. */
void gen_trace_mem(DisasContext *ctx, bool store, IRTemp addr, IRTemp val, unsigned lg);

/* Write a pending CARG/TGT value (DisasContext.carg_val/tgt_val) to its
 * global. */
void gen_flush_block_args(DisasContext *ctx);

/* ---- Operands ---- */

/* Field @id of the current instruction (0 when the form has none). */
int64_t linx_fld(const DisasContext *ctx, LinxFieldId id);
bool linx_has_fld(const DisasContext *ctx, LinxFieldId id);

/* Read 5-bit source code @code (zero, GPR, t#k, u#k) as a temp.  The
 * result may be a global or a constant: never write it. */
IRTemp gen_read_src(DisasContext *ctx, unsigned code);
/* Write @val to 5-bit destination code @code (discard, GPR, ->u, ->t). */
void gen_write_dst(DisasContext *ctx, unsigned code, IRTemp val);
/* Fresh local temp / constant. */
IRTemp gen_temp(DisasContext *ctx);
IRTemp gen_const(DisasContext *ctx, int64_t v);

/* Store the ClockHands state (heads of a replayed prefix etc.) so helpers
 * that look at the queues see it. */
void gen_sync_queues(DisasContext *ctx);

/* ---- Helpers and traps ---- */

void gen_call(DisasContext *ctx, const IRHelperInfo *h, IRTemp ret, unsigned nargs,
              const IRTemp *args);
/* Raise an architectural exception at the current instruction and end the
 * TB (the rest of the block is not translated). */
void gen_raise(DisasContext *ctx, unsigned trapnum, unsigned cause, uint64_t traparg0);
/* The pc operand of a guest memory access or memory helper at this
 * instruction: ctx->pc with the TB's not yet counted instructions
 * (tcg/softmmu.h LINX_PC_RETIRED_SHIFT), so a fault counts them. */
uint64_t gen_mem_pc(const DisasContext *ctx);
/* Illegal instruction at the current pc. */
bool gen_illegal(DisasContext *ctx);
/* Commit-trace record of the current instruction (TB_F_TRACE), for
 * translators whose instruction leaves the TB through a helper. */
void gen_trace_insn(DisasContext *ctx);
/* The block fields of the current instruction's record, packed with its
 * length (trace-info.h); updates the block's trace bookkeeping. */
uint64_t linx_trace_translate_info(DisasContext *ctx);

/* ---- Block structure (trans_bbd.c.inc / translate.c) ---- */

/* Is @form a block-start marker (BSTART*, C.BSTART*, HL.BSTART*, templates)? */
bool linx_form_is_marker(unsigned form);
/* Is @insn, the next instruction of the block, a marker that continues
 * the block instead of starting one (the C.BSTART.STD after "acrc;
 * C.BSTOP" under a profile with acrc_continues_block)? */
bool linx_insn_continues_block(const DisasContext *ctx, const LinxInsn *insn);
/* Begin a block at the current instruction. */
void gen_block_start(DisasContext *ctx, LinxBranchKind kind, LinxBlockType type,
                     bool has_target, uint64_t target);

/* ---- TMA headers (tma-translate.c) ---- */

/* BSTART.TMA / TLOAD / TSTORE / TMOV: start a TMA header block. */
bool gen_tma_header_start(DisasContext *ctx);
/* A B.* descriptor of the current TMA header: record it in ctx->tma. */
void gen_tma_desc(DisasContext *ctx);
/* Commit of a TMA header: plan it and emit the helper call (true, the
 * block falls through), or the raise of a constant-illegal header (false,
 * the TB ends here). */
bool gen_tma_commit(DisasContext *ctx);
/* End the TB with the raise of @f at the block's BPC, recording f->rule
 * in env->tile_fault (helper_tma_raise; TMA, TEPL and CUBE rules). */
void gen_tile_fault_raise(DisasContext *ctx, const TmaFault *f);
/* The same with the trap given (rule @rule recorded for the report). */
struct LinxTileTrap;
void gen_tile_trap_raise(DisasContext *ctx, unsigned rule, const struct LinxTileTrap *t);

/* gen_helper_<name>(ctx, ret, args...) emitters for the helpers listed in
 * helper.h, generated by the preprocessor.  @ret is IR_NO_TEMP for
 * helpers without a result; every argument is an IRTemp (pass
 * ctx->ir->env for an env argument).
 *
 *   gen_helper_div(ctx, q, a, b);
 */
#define DEF_HELPER_1(name, flags, ret, t1) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1) \
    { \
        IRTemp args[1] = { a1 }; \
        gen_call(ctx, &helper_info_##name, r, 1, args); \
    }
#define DEF_HELPER_2(name, flags, ret, t1, t2) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1, IRTemp a2) \
    { \
        IRTemp args[2] = { a1, a2 }; \
        gen_call(ctx, &helper_info_##name, r, 2, args); \
    }
#define DEF_HELPER_3(name, flags, ret, t1, t2, t3) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1, IRTemp a2, \
                                         IRTemp a3) \
    { \
        IRTemp args[3] = { a1, a2, a3 }; \
        gen_call(ctx, &helper_info_##name, r, 3, args); \
    }
#define DEF_HELPER_4(name, flags, ret, t1, t2, t3, t4) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1, IRTemp a2, \
                                         IRTemp a3, IRTemp a4) \
    { \
        IRTemp args[4] = { a1, a2, a3, a4 }; \
        gen_call(ctx, &helper_info_##name, r, 4, args); \
    }
#define DEF_HELPER_5(name, flags, ret, t1, t2, t3, t4, t5) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1, IRTemp a2, \
                                         IRTemp a3, IRTemp a4, IRTemp a5) \
    { \
        IRTemp args[5] = { a1, a2, a3, a4, a5 }; \
        gen_call(ctx, &helper_info_##name, r, 5, args); \
    }
#define DEF_HELPER_6(name, flags, ret, t1, t2, t3, t4, t5, t6) \
    static inline void gen_helper_##name(DisasContext *ctx, IRTemp r, IRTemp a1, IRTemp a2, \
                                         IRTemp a3, IRTemp a4, IRTemp a5, IRTemp a6) \
    { \
        IRTemp args[6] = { a1, a2, a3, a4, a5, a6 }; \
        gen_call(ctx, &helper_info_##name, r, 6, args); \
    }

#include "helper.h"

#undef DEF_HELPER_1
#undef DEF_HELPER_2
#undef DEF_HELPER_3
#undef DEF_HELPER_4
#undef DEF_HELPER_5
#undef DEF_HELPER_6

#endif /* LINX_TARGET_TRANSLATE_GEN_H */
