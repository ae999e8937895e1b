/*
 * Operation codes the translators pass to the generic helpers (one helper
 * per operation family, the operation a constant argument).  Shared by
 * the insn_trans translators and the helper_*.c files.
 */
#ifndef LINX_TARGET_HELPER_OPS_H
#define LINX_TARGET_HELPER_OPS_H

/* Operation codes shared with helper_fp.c. */
enum {
    LINX_FOP_ADD,
    LINX_FOP_SUB,
    LINX_FOP_MUL,
    LINX_FOP_DIV,
    LINX_FOP_MIN,
    LINX_FOP_MAX,
    LINX_FOP_MADD,
    LINX_FOP_MSUB,
    LINX_FOP_NMADD,
    LINX_FOP_NMSUB,
    LINX_FOP_SQRT,
    LINX_FOP_ABS,
    LINX_FOP_RECIP,
    LINX_FOP_EXP,
    LINX_FOP_EQ,
    LINX_FOP_NE,
    LINX_FOP_LT,
    LINX_FOP_GE,
    LINX_FOP_SIGNALING = 1 << 7, /* compare: signal NV on any NaN */
};

/* Conversion kinds (helper_fp_cvt). */
enum {
    LINX_FCVT_F2F,  /* FCVT: FCSR rounding */
    LINX_FCVT_F2I_A, /* to integer, nearest ties away */
    LINX_FCVT_F2I_M, /* toward -inf */
    LINX_FCVT_F2I_N, /* nearest even */
    LINX_FCVT_F2I_P, /* toward +inf */
    LINX_FCVT_F2I_Z, /* toward zero */
    LINX_FCVT_S2F,  /* SCVTF */
    LINX_FCVT_U2F,  /* UCVTF */
};

/* Op codes shared with helper_amo (helper_mem.c). */
enum {
    LINX_AMO_ADD,
    LINX_AMO_AND,
    LINX_AMO_OR,
    LINX_AMO_XOR,
    LINX_AMO_SMAX,
    LINX_AMO_SMIN,
    LINX_AMO_UMAX,
    LINX_AMO_UMIN,
    LINX_AMO_SWAP,
};

/* Bitfield op codes shared with helper_bitfield (helper_int.c). */
enum {
    LINX_BF_BXU,
    LINX_BF_BXS,
    LINX_BF_CLZ,
    LINX_BF_CTZ,
    LINX_BF_BCNT,
    LINX_BF_BIC,
    LINX_BF_BIS,
    LINX_BF_REV,
};

#endif /* LINX_TARGET_HELPER_OPS_H */
