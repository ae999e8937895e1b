/*
 * TEPL: element-wise tile operations (BSTART.TEPL TileOpcode, DataType),
 * shared/docs/tile-semantics.md 2.7 and isa/v0.4/state/engine_ops.json.
 *
 *   dst(i, j) = f(src0(i, j), src1(i, j))   for i < ValidRow, j < ValidCol
 *
 * Geometry (docs/kernels.md "TEPL"): the element type is the header's
 * DataType; ValidCol = LB0 (must not be 0), ValidRow = LB1 (0 counts as
 * 1), Col = LB2 (0: LB0) is the tile row length and Row = TileBytes /
 * (Col x esize), TileBytes being the destination size (B.IOT(I)).  The
 * tiles' layout is the first source's (ND when unknown); (i, j) goes
 * through linx_tile_elem_offset, so ND, DN, NZ and ZN tiles all work.
 * Every source must have been written with exactly TileBytes and the
 * same layout.  The destination is pushed with that layout and shape;
 * its elements outside the valid region are 0.
 *
 * Mode 0 (two-source: TADD TSUB TMUL TDIV TMAX TMIN TAND TOR TXOR TSHL
 * TSHR TPRELU; one-source: TRELU TEXP TLOG TSQRT TRSQRT TRECIP; row/column
 * reductions TROWMAX/MIN/SUM -> dst(i, 0), TCOLMAX/MIN/SUM -> dst(0, j);
 * broadcasts TROWEXPAND dst(i, j) = src(i, 0), TCOLEXPAND src(0, j);
 * TTRANSPOSE; TEXPANDS fills with the B.IOR scalar) and Mode 1 (TADDS ..
 * TSHRS: src1(i, j) replaced by the B.IOR scalar, truncated to the element
 * type).  TCVT, TGATHER, TSCATTER and TRESHAPE are not implemented
 * (linx_tepl_op_info marks them).
 *
 * Numbers: integers wrap; integer division by 0 and MIN / -1 give 0
 * (engine_ops.json); shifts by the element width or more give 0 (sign
 * fill for TSHR of signed types).  Floating point is IEEE with
 * round-to-nearest-even whatever FCSR says, NaN results are the default
 * NaN, FCSR is not touched (an engine op); TMAX/TMIN are maximumNumber/
 * minimumNumber (the FMAX/FMIN rules); TRELU is x > 0 ? x : +0; TEXP is
 * the fpu library's correctly rounded exp; TLOG and TRSQRT are computed
 * in double precision and rounded once.  Reductions accumulate in j (or
 * i) order in the element type.
 *
 * Two implementations: specialised host kernels (tepl-kernels.c, the
 * default) and the per-element reference (tepl-ref.c, the oracle the
 * tests compare against; LINX_TEPL_REFERENCE=1 selects it when blocks are
 * translated).  Every check runs before the destination is written; on a
 * failure nothing changes and @f names the rule (rules 0x70..) and the
 * offending value.
 */
#ifndef LINX_HW_TEPL_H
#define LINX_HW_TEPL_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/linx/tile-regs.h"
#include "hw/linx/tma.h"

/* TileOpcodes (engine_ops.json: (Mode << 5) | Function). */
enum {
    LINX_TEPL_TADD = 0x00, LINX_TEPL_TSUB, LINX_TEPL_TMUL, LINX_TEPL_TDIV,
    LINX_TEPL_TMAX, LINX_TEPL_TMIN, LINX_TEPL_TAND, LINX_TEPL_TOR,
    LINX_TEPL_TXOR, LINX_TEPL_TSHL, LINX_TEPL_TSHR, LINX_TEPL_TRELU,
    LINX_TEPL_TPRELU, LINX_TEPL_TCVT, LINX_TEPL_TEXP, LINX_TEPL_TLOG,
    LINX_TEPL_TSQRT, LINX_TEPL_TRSQRT, LINX_TEPL_TROWMAX, LINX_TEPL_TROWMIN,
    LINX_TEPL_TROWSUM, LINX_TEPL_TCOLMAX, LINX_TEPL_TCOLMIN, LINX_TEPL_TCOLSUM,
    LINX_TEPL_TRECIP, LINX_TEPL_TEXPANDS, LINX_TEPL_TGATHER, LINX_TEPL_TSCATTER,
    LINX_TEPL_TRESHAPE, LINX_TEPL_TTRANSPOSE, LINX_TEPL_TCOLEXPAND, LINX_TEPL_TROWEXPAND,
    LINX_TEPL_MODE1 = 0x20, /* TADDS .. TSHRS = 0x20 + the Mode 0 function */
    LINX_TEPL_TSHRS = 0x2a,
};

/* Operation classes. */
typedef enum LinxTeplClass {
    LINX_TEPLC_BINARY,    /* dst = f(src0, src1) (Mode 1: src1 = the scalar) */
    LINX_TEPLC_UNARY,     /* dst = f(src0) */
    LINX_TEPLC_ROWRED,    /* dst(i, 0) = reduce_j src0(i, j) */
    LINX_TEPLC_COLRED,    /* dst(0, j) = reduce_i src0(i, j) */
    LINX_TEPLC_ROWEXPAND, /* dst(i, j) = src0(i, 0) */
    LINX_TEPLC_COLEXPAND, /* dst(i, j) = src0(0, j) */
    LINX_TEPLC_TRANSPOSE, /* dst(j, i) = src0(i, j) */
    LINX_TEPLC_FILL,      /* dst(i, j) = scalar */
} LinxTeplClass;

typedef struct LinxTeplOpInfo {
    const char *name;
    uint16_t opcode;
    uint8_t cls;        /* LinxTeplClass */
    uint8_t nsrc;       /* source tiles */
    uint8_t base;       /* the Mode 0 operation (Mode 1: opcode - 0x20) */
    bool scalar;        /* Mode 1 / TEXPANDS: the B.IOR scalar is an operand */
    bool needs_ior, needs_arg;
    bool int_ok, float_ok; /* element types the operation is defined for */
} LinxTeplOpInfo;

/* Info for @opcode; NULL for reserved opcodes and the ones linxemu does
 * not implement (TCVT, TGATHER, TSCATTER, TRESHAPE). */
const LinxTeplOpInfo *linx_tepl_op_info(unsigned opcode);

typedef struct LinxTeplOp {
    uint16_t opcode;
    uint8_t dtype;      /* header DataType */
    uint8_t nsrc;
    uint8_t src[2];     /* tile ids */
    uint8_t dst_kind;   /* hand: t u m n */
    uint32_t dst_bytes; /* B.IOT(I) size */
    uint64_t lb[3];     /* LB0-2 */
    uint64_t scalar;    /* the B.IOR value (Mode 1, TEXPANDS) */
} LinxTeplOp;

typedef enum LinxTeplRule {
    LINX_TEPL_OK = 0,
    LINX_TEPL_BAD_OP = 0x70,  /* reserved / unimplemented opcode */
    LINX_TEPL_BAD_DTYPE,      /* element type not supported by the operation */
    LINX_TEPL_LB0_ZERO,       /* LB0 = 0 */
    LINX_TEPL_BAD_SIZE,       /* destination size not 512..4096, a power of two */
    LINX_TEPL_SHAPE,          /* Row = 0, ValidCol > Col, ValidRow > Row, fractal rules */
    LINX_TEPL_TILE_EMPTY,     /* a source tile was never written */
    LINX_TEPL_TILE_SIZE,      /* a source's size differs from the destination's */
    LINX_TEPL_LAYOUTS,        /* sources of different layouts */
    LINX_TEPL__END
} LinxTeplRule;

/* A rule's short name ("tepl-shape") and sentence; "?" outside the rules. */
const char *linx_tepl_rule_name(unsigned rule);
const char *linx_tepl_rule_text(unsigned rule);

/* Run one TEPL block: true on success (the destination is pushed); false
 * with @f filled and nothing changed.  @reference selects the per-element
 * oracle. */
bool linx_tepl_exec(LinxTileState *ts, const LinxTeplOp *op, bool reference, TmaFault *f);

/* Translation-time packing of the static part (kernel-header.c) and its
 * inverse (helper_tepl). */
uint64_t linx_tepl_pack(unsigned opcode, unsigned dtype, unsigned nsrc, const uint8_t src[2],
                        unsigned dst_kind, unsigned arg, bool reference);
void linx_tepl_unpack(uint64_t desc, LinxTeplOp *op, bool *reference);

/* LINX_TEPL_REFERENCE=1 in the environment (read when a block is
 * translated). */
bool linx_tepl_reference_from_env(void);

/* ---- internal to the tepl-*.c files ---- */

/* The resolved geometry of an operation (tepl-exec.c). */
typedef struct LinxTeplGeom {
    const LinxTeplOpInfo *oi;
    unsigned esize, lg;     /* element size and its log2 */
    unsigned kind;          /* LinxDTypeKind */
    uint32_t rows, cols;    /* the tiles' logical matrix */
    uint32_t vrows, vcols;  /* the valid region */
    uint32_t drows, dcols;  /* the destination's matrix (transposed for TTRANSPOSE) */
    unsigned dtype;         /* LinxTileDType */
    unsigned layout;        /* LinxTileLayout of the sources */
    unsigned dlayout;       /* ... of the destination (ND for TTRANSPOSE) */
    const uint8_t *src[2];  /* source data */
    uint8_t *dst;           /* destination data (zeroed by the caller) */
    uint64_t scalar;        /* the scalar operand, truncated to the element */
} LinxTeplGeom;

/* Reference: element by element through linx_tile_elem_offset and the
 * fpu library. */
void linx_tepl_run_ref(const LinxTeplGeom *g);
/* Specialised kernels; false when there is none for @g (the caller then
 * runs the reference). */
bool linx_tepl_run_fast(const LinxTeplGeom *g);
/* TLOG / TRSQRT of element bits @a in LinxFpFormat @fmt: computed in
 * double precision, rounded once (both implementations use these). */
uint64_t tepl_log_bits(uint64_t a, unsigned fmt);
uint64_t tepl_rsqrt_bits(uint64_t a, unsigned fmt);

#endif /* LINX_HW_TEPL_H */
