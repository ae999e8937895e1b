/*
 * TMA blocks (TLOAD / TSTORE / TMOV): descriptor model, legality rules,
 * translation-time planning and run-time execution.
 *
 * The front end uses it in three steps (docs/tile.md has the details):
 *
 *   1. Translation time, header ingestion.  At a BSTART.TMA (or the
 *      BSTART.TLOAD/TSTORE/TMOV aliases) the target calls
 *      tma_desc_begin(), then feeds every following instruction to
 *      tma_desc_add() until it returns false (the first non-descriptor:
 *      the header has ended); target/linx/tma-header.h decodes them into
 *      the tma_desc_*() calls below.
 *
 *        TmaDesc d;
 *        tma_desc_begin(&d, &bstart_insn);
 *        while (next insn && tma_desc_add(&d, &insn)) { ... }
 *
 *   2. Translation time, planning.  tma_plan() applies every legality
 *      rule whose inputs are constants (immediate B.DIM values, B.IOTI
 *      sizes, absent stride), selects a host kernel for the element size,
 *      layout and shape, and precomputes the shape when it is constant.
 *
 *        TmaPlan *p = g_new(TmaPlan, 1);   // lives as long as the TB
 *        tma_plan(&d, &opts, p);
 *        if (p->fault.rule != TMA_OK) {
 *            // constant-illegal header: emit a raise of p->fault (rule,
 *            // value; the target maps it to its trap) at the block's PC
 *        } else {
 *            // emit: fill a TmaRuntimeArgs from the registers named by
 *            // p->lb_reg / base_reg / stride_reg / size_reg (only those
 *            // in p->dyn are read) and call a helper doing tma_exec()
 *        }
 *
 *   3. Run time.  The helper calls
 *
 *        TmaFault f;
 *        if (!tma_exec(tiles, gm, p, &args, &f)) {
 *            // raise the trap the target maps f to
 *            // (target/linx/tile-trap.h), at the block's PC
 *        }
 *
 *      tma_exec() does the remaining checks, validates the whole GM
 *      footprint with guest_mem_window() before any side effect (so faults
 *      are precise and restartable), runs the kernel, and for TLOAD/TMOV
 *      pushes the destination tile.  The target fills the arguments from
 *      its registers (tma_args_from_gprs, target/linx/tma-header.h).
 *
 * Semantics (shared/docs/tile-semantics.md 2.1-2.4, decisions.md 3-5):
 *   LB0 = GM inner element count (must not be 0), LB1 = GM outer count
 *   (0 counts as 1), LB2 = tile columns Col (0 means Col = LB0).  For ND GM, ValidCol = LB0 and
 *   ValidRow = LB1; for DN GM (column-major), ValidRow = LB0 and
 *   ValidCol = LB1.  Row = n * TileBytes / (Col * esize) for n source
 *   tiles; sub-tiles merge along columns (ND) or rows (DN).  Only the
 *   ValidRow x ValidCol window moves.  Stride (bytes between GM rows, or
 *   columns for DN) defaults to LB0 * esize.
 *
 * Nothing here keeps global state; plans are immutable after tma_plan().
 */
#ifndef LINX_HW_TMA_H
#define LINX_HW_TMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/tile-regs.h"

#define TMA_MAX_SRC_TILES 8

/* BSTART.TMA Function. */
typedef enum TmaOp {
    TMA_OP_TLOAD = 0,
    TMA_OP_TSTORE = 1,
    TMA_OP_TMOV = 2,
} TmaOp;

/* Layout selector, named by (GM side, TR side); direction-neutral.  The
 * v0.4 B.ARG names are the TLOAD spelling; TSTORE spells them NZ2ND, ... */
typedef enum TmaLayout {
    TMA_LAYOUT_NORM = 0, /* GM ND <-> TR ND */
    TMA_LAYOUT_ND_NZ,    /* ND2NZ  (store: NZ2ND) */
    TMA_LAYOUT_ND_ZN,    /* ND2ZN  (store: ZN2ND) */
    TMA_LAYOUT_DN_NZ,    /* DN2NZ  (store: NZ2DN) */
    TMA_LAYOUT_DN_ZN,    /* DN2ZN  (store: ZN2DN) */
    TMA_LAYOUT__COUNT
} TmaLayout;

/* TLOAD pad policy for tile cells outside the GM window. */
typedef enum TmaPad {
    TMA_PAD_NULL = 0, /* not written: the new tile keeps its slot's old bytes */
    TMA_PAD_ZERO = 1,
    TMA_PAD_MAX = 2,  /* +inf for floats (E4M3: +448), the type maximum for integers */
    TMA_PAD_MIN = 3,  /* -inf for floats (E4M3: -448), the type minimum for integers */
} TmaPad;

/* TMOV modes (B.ARG): tile to tile, or ACC raw bits to a tile. */
typedef enum TmaMovMode {
    TMA_MOV_V2V = 0,
    TMA_MOV_A2V = 1,
} TmaMovMode;

/* Where the layout selector came from. */
typedef enum TmaLayoutSource {
    TMA_LSRC_NONE = 0,
    TMA_LSRC_BARG,  /* v0.4 B.ARG format (or a fixed B.ARG word) */
    TMA_LSRC_DATR,  /* seed-000 B.DATR */
} TmaLayoutSource;

/* AtomicAdd (B.ATTR atomic, TSTORE only; seed 001): GM(i, j) = GM(i, j) +
 * tile(i, j) over the window, in the DataType: S8/S16/S32 wrap, FP32 /
 * FP16 / BF16 round to nearest even (tma-atomic.c); other types raise
 * atomic-dtype, atomic on TLOAD/TMOV atomic-op. */

/* Legality rules.  tma_rule_name() gives a stable short name, and
 * tma_rule_text() a sentence; docs/tile.md lists the traps the target
 * raises for them (target/linx/tile-trap.c). */
typedef enum TmaRule {
    TMA_OK = 0,
    /* a reserved operation */
    TMA_R_RESERVED_FUNC,
    /* missing, malformed or conflicting header descriptors */
    TMA_R_MISSING_ARG,
    TMA_R_BAD_ARG,
    TMA_R_ARG_CONFLICT,
    TMA_R_TEXT_IN_TMA,
    TMA_R_MISSING_IOT,
    TMA_R_BAD_TILE_SIZE,
    TMA_R_BAD_DST_TILE,
    TMA_R_IOT_COMBINATION,
    TMA_R_MIXED_SIZES,
    TMA_R_MISSING_IOR,
    TMA_R_BAD_IOR,
    TMA_R_MISSING_DIM,
    TMA_R_BAD_DIM,
    TMA_R_BAD_IOD,
    /* illegal values (TmaFault.value: the offending one) */
    TMA_R_BAD_DTYPE,
    TMA_R_LB0_ZERO,
    TMA_R_COL_TOO_WIDE,
    TMA_R_VALIDCOL_GT_COL,
    TMA_R_VALIDROW_GT_ROW,
    TMA_R_MERGE_COL,
    TMA_R_MERGE_ROW,
    TMA_R_NZ_COL,
    TMA_R_NZ_ROW,
    TMA_R_ZN_ROW,
    TMA_R_ZN_COL,
    TMA_R_STORE_OVERLAP,
    TMA_R_TILE_EMPTY,
    TMA_R_TILE_SIZE,
    TMA_R_MIXED_LAYOUT,
    TMA_R_ACC_EMPTY,
    TMA_R_MOV_SHAPE,
    TMA_R_ATOMIC_OP,
    TMA_R_ATOMIC_DTYPE,
    TMA_R_TILE_SHAPE,
    /* guest memory fault (TmaFault.value: the faulting guest address) */
    TMA_R_GM_FAULT,
    TMA_R__COUNT
} TmaRule;

/* The status a tile engine returns when it refuses an operation, in the
 * device's own terms: the rule it broke and the offending value.  The
 * engines share it (TMA, LoadData, CUBE, TEPL: TmaRule, LinxLdRule,
 * LinxCubeRule, LinxTeplRule, whose numbers do not overlap), and each
 * rule names the field it checks.  The architectural trap (TRAPNUM,
 * CAUSE, TRAPARG0) is the target's business: target/linx/tile-trap.h. */
typedef struct TmaFault {
    uint16_t rule;     /* TMA_OK (0) = no fault */
    uint64_t value;    /* the offending value (a tile id for operand rules,
                        * the faulting guest address for GM faults) */
} TmaFault;

const char *tma_rule_name(TmaRule rule);
const char *tma_rule_text(TmaRule rule);
/* Fill @f for @rule; @value is the offending parameter or the faulting
 * address (TMA_R_GM_FAULT). */
void tma_rule_fault(TmaRule rule, uint64_t value, TmaFault *f);

/* ------------------------------------------------------------------ */
/* Descriptor: what the header says, before any checking              */
/* ------------------------------------------------------------------ */

/* A value "register reg + imm" as encoded: reg 0 (the zero register)
 * makes it the constant imm; other registers are run-time inputs the
 * target supplies (TmaRuntimeArgs). */
typedef struct TmaOperand {
    uint8_t reg;
    uint64_t imm;
} TmaOperand;

/* One B.IOT / B.IOTI descriptor, fields as encoded. */
typedef struct TmaIot {
    bool src_absent[2]; /* S0V, S1V: 1 = that source is absent */
    bool reuse[2];      /* S0R, S1R hints */
    uint8_t src[2];     /* SrcTile0/1: tile ids 0..31 */
    uint8_t dst;        /* DstTile: 0 t, 1 u, 2 m, 3 n, 4 acc, 5-7 reserved */
    bool size_is_reg;   /* B.IOT: size in bytes from register @size */
    uint8_t size;       /* B.IOTI SizeCode (bytes = 2^(code+4)) or B.IOT RegSrc */
    bool last;          /* group = 1 */
} TmaIot;

typedef struct TmaDesc {
    uint8_t func;        /* BSTART.TMA Function (TmaOp, >= 3 reserved) */
    uint8_t dtype;       /* BSTART DataType */
    uint8_t layout_src;  /* TmaLayoutSource */
    uint8_t layout_code; /* raw B.ARG format or B.DATR Layout */
    uint8_t pad_code;    /* raw B.DATR Pad */
    bool layout_conflict; /* both B.ARG and B.DATR seen */
    uint8_t dim_mask;    /* bit k: LBk written by a B.DIM */
    bool dim_bad;        /* a C.B.DIM named no LB register (LoopNest > 2) */
    TmaOperand lb[3];
    uint8_t nior;        /* B.IOR count; the last one binds base/stride */
    uint8_t ior[3];      /* RegSrc0..2 of the last B.IOR */
    uint8_t niot;        /* B.IOT/B.IOTI count */
    uint8_t nsrc;        /* source tiles (all descriptors; > 8 is illegal) */
    uint8_t src[TMA_MAX_SRC_TILES];
    uint8_t dst_kind;    /* DstTile of the first descriptor */
    bool size_is_reg;    /* size of the first descriptor ... */
    uint8_t size;        /* ... SizeCode or register */
    bool size_mixed;     /* later descriptors name another size */
    bool iot_after_last; /* a B.IOT followed the one marked last */
    bool last_seen;
    uint8_t niod;        /* B.IOD count */
    bool iod_dup;        /* a dependency tag repeated inside a B.IOD */
    uint8_t iod[4];      /* DepSrc0..2, DepDst of the first B.IOD */
    uint8_t ntext;       /* B.TEXT count (illegal in TMA headers) */
    bool lb0_whole;      /* LB0 = 0 reads as the whole tile (else illegal) */
    bool atomic;         /* B.ATTR atomic: TSTORE AtomicAdd (GM += tile) */
} TmaDesc;

/* Start a descriptor for BSTART.TMA Function @func with DataType @dtype. */
void tma_desc_init(TmaDesc *d, unsigned func, unsigned dtype);

/* The descriptors, field by field (the target decodes the instructions:
 * tma_desc_begin/tma_desc_add in target/linx/tma-header.h; the
 * assembler's seed syntax and tests call these directly). */
void tma_desc_set_barg(TmaDesc *d, unsigned format);
/* A fixed-word B.ARG form (0x000FA023 NORM.normal, ...); false if @word
 * is not one of the five fixed words. */
bool tma_desc_set_barg_word(TmaDesc *d, uint32_t word);
void tma_desc_set_datr(TmaDesc *d, unsigned layout, unsigned pad);
void tma_desc_set_dim(TmaDesc *d, unsigned lb, unsigned reg, uint64_t imm);
void tma_desc_add_ior(TmaDesc *d, unsigned src0, unsigned src1, unsigned src2);
void tma_desc_add_iot(TmaDesc *d, const TmaIot *iot);
void tma_desc_add_iod(TmaDesc *d, unsigned dep0, unsigned dep1, unsigned dep2, unsigned dst);
void tma_desc_add_text(TmaDesc *d);
/* B.ATTR atomic (the fields of a B.ATTR other than atom are not read). */
void tma_desc_set_atomic(TmaDesc *d);

/* Selector encodings (docs/tile.md).  B.ARG format codes (v0.4):
 * NORM 0, ND2NZ 1, ND2ZN 3, DN2ZN 8, DN2NZ 9, NZ2DN.canon 28; for TMOV
 * also A2V 2.  B.DATR Layout codes (LinxISA PTO-0.58 numbering): NORM 0,
 * ND2NZ 4, ND2ZN 3, DN2NZ 9, DN2ZN 8 (TLOAD/TMOV), NZ2ND 27, ZN2ND 17,
 * NZ2DN 28, ZN2DN 18 (TSTORE); B.DATR Pad: 0 Null, 1 Zero, 2 Max, 3 Min. */
bool tma_layout_from_barg(unsigned op, unsigned format, TmaLayout *layout,
                          TmaMovMode *mode);
bool tma_layout_from_datr(unsigned op, unsigned code, TmaLayout *layout);
/* Inverse, for the assembler: B.DATR Layout code of @layout for @op. */
unsigned tma_datr_code(unsigned op, TmaLayout layout);
/* Seed / disassembly spelling of a selector in @op's direction. */
const char *tma_layout_name(unsigned op, TmaLayout layout);

/* ------------------------------------------------------------------ */
/* Plan: translation-time result                                      */
/* ------------------------------------------------------------------ */

struct TmaXfer;
typedef void (*TmaKernelFn)(const struct TmaXfer *x);

typedef struct TmaOptions {
    bool reference; /* use the per-element reference kernels (the oracle) */
    bool portable;  /* never use host SIMD kernels */
} TmaOptions;

/* Fill TmaOptions from the environment: LINX_TMA_REFERENCE=1,
 * LINX_TMA_PORTABLE=1 (for front ends that have no option of their own). */
void tma_options_from_env(TmaOptions *opts);

/* Which inputs are only known at run time (TmaPlan.dyn). */
enum {
    TMA_DYN_LB0 = 1 << 0,
    TMA_DYN_LB1 = 1 << 1,
    TMA_DYN_LB2 = 1 << 2,
    TMA_DYN_SIZE = 1 << 3,
    TMA_DYN_STRIDE = 1 << 4,
    TMA_DYN_SHAPE = TMA_DYN_LB0 | TMA_DYN_LB1 | TMA_DYN_LB2 | TMA_DYN_SIZE,
};

/* Resolved shape of one transfer (architectural orientation). */
typedef struct TmaShape {
    uint32_t valid_rows, valid_cols; /* window of the merged matrix */
    uint32_t rows, cols;             /* merged logical matrix */
    uint32_t sub_rows, sub_cols;     /* one tile's logical matrix */
    uint32_t gm_inner, gm_outer;     /* LB0, LB1: GM footprint in elements */
    uint32_t tile_bytes;             /* one tile */
} TmaShape;

typedef struct TmaPlan {
    /* ---- What tma_exec()'s fast path reads, kept together (the first two
     * cache lines) so a call touches little of the plan. ---- */
    TmaKernelFn kernel;
    bool fast;            /* tma_exec may take its fast path (constant
                           * shape, TLOAD or one-tile TSTORE) */
    uint8_t op;           /* TmaOp */
    uint8_t esize;        /* bytes per element */
    uint8_t tile_layout;  /* LinxTileLayout of the TR side */
    uint8_t gm_dn;        /* GM side is column-major */
    uint8_t pad;          /* TmaPad (TLOAD, TMOV) */
    uint8_t dst_hand;     /* LinxTileHand pushed by TLOAD/TMOV */
    uint8_t stride_reg;   /* 0: stride omitted (contiguous) */
    uint8_t src[TMA_MAX_SRC_TILES];
    TmaShape shape;
    uint64_t pad_pattern; /* pad element bits */
    /* ---- The rest. ---- */
    TmaFault fault;       /* rule != TMA_OK: the header is constant-illegal */
    uint8_t dtype;        /* LinxTileDType */
    uint8_t layout;       /* TmaLayout */
    uint8_t mov_mode;     /* TmaMovMode (TMOV) */
    uint8_t nsrc;
    uint8_t dyn;          /* TMA_DYN_* */
    uint8_t dim_mask;     /* which LBs the header wrote */
    bool lb0_whole;       /* LB0 = 0: the whole tile (TmaDesc.lb0_whole) */
    bool atomic;          /* TSTORE AtomicAdd: GM element += tile element */
    bool shape_const;     /* @shape is final */
    /* Registers feeding the run-time values (codes as encoded). */
    uint8_t lb_reg[3];
    uint8_t base_reg;
    uint8_t size_reg;     /* B.IOT size register, 0 for B.IOTI */
    uint64_t lb_imm[3];
    /* Constant inputs (valid where the dyn bit is clear). */
    uint64_t lb[3];
    uint64_t stride;
    uint32_t tile_bytes;
    const char *kernel_name;
} TmaPlan;

/* Plan a header.  Always fills @p; p->fault.rule says whether the header
 * is constant-illegal (checks run in the digest's priority order:
 * reserved function, then missing/bad descriptors B.ARG > B.TEXT > B.IOT >
 * B.IOR > B.DIM, B.IOD, then the value rules). */
void tma_plan(const TmaDesc *d, const TmaOptions *opts, TmaPlan *p);

/* ------------------------------------------------------------------ */
/* Run time                                                            */
/* ------------------------------------------------------------------ */

typedef struct TmaRuntimeArgs {
    uint64_t lb[3];      /* LB0..LB2 as B.DIM wrote them (reg + imm) */
    uint64_t base;       /* GM base address */
    uint64_t stride;     /* GM stride register value (if p->stride_reg) */
    uint64_t tile_bytes; /* B.IOT size register value (if p->size_reg) */
} TmaRuntimeArgs;

/* Execute one planned TMA block.  Returns true on success; on a fault
 * returns false with @f filled and no architectural side effect. */
bool tma_exec(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, const TmaRuntimeArgs *a,
              TmaFault *f);

/* Repeated execution of one plan with less per-call work (the
 * translator's TMA blocks, target/linx/tma-translate.h).  @x is storage
 * the caller keeps with the plan (struct TmaXfer, hw/linx/tma-kernels.h):
 * tma_xfer_prepare() fills its constant part once and returns false when
 * the plan has no fast path (then always use tma_exec()).
 * tma_exec_prepared() writes only the per-call fields of @x, so one @x
 * must not be used by two calls at once.  It runs the fast path's case
 * (footprint in the cached RAM block, source tile of the transfer size)
 * and returns false, with no side effect, for anything else: the caller
 * then runs tma_exec(), which does the rest and reports faults. */
bool tma_xfer_prepare(const TmaPlan *p, struct TmaXfer *x);
bool tma_exec_prepared(LinxTileState *ts, GuestMemory *gm, const TmaPlan *p, struct TmaXfer *x,
                       uint64_t base, uint64_t stride);

/* Resolve the shape from input values and run the value rules.  Each rule
 * depends on some of the TMA_DYN_* inputs: with @runtime false (tma_plan)
 * only rules whose inputs are all constant in @p run; with @runtime true
 * (tma_exec) only the others do, so every rule runs exactly once.
 * Returns false with @f filled when a rule fails. */
bool tma_shape_resolve(const TmaPlan *p, const uint64_t lb[3], uint64_t tile_bytes,
                       uint64_t stride, bool runtime, TmaShape *s, TmaFault *f);

#endif /* LINX_HW_TMA_H */
