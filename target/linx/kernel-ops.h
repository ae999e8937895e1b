/*
 * Operation descriptors shared by the kernel-body translator (kernel-ops.c,
 * which packs them into constant helper arguments) and the kernel helpers
 * (kernel-helpers.c, kernel-xlane.c, which unpack them).
 *
 *   helper_kfp1/2/3(env, operands..., op | fmt << KFP_FMT_SHIFT)
 *       fmt = LinxFpFormat of the operands
 *   helper_kcvt(env, a, kind | src << KCVT_SRC_SHIFT | dst << KCVT_DST_SHIFT)
 *       src/dst = 5-bit convert type codes (manual 05c)
 *   helper_kernel_xlane(env, desc, pc)
 *       desc = op | SrcL << KX_SRCL_SHIFT | SrcR << KX_SRCR_SHIFT |
 *              SrcP << KX_SRCP_SHIFT | RegDst << KX_DST_SHIFT |
 *              imm << KX_IMM_SHIFT | KX_HAS_IMM (RegId10 codes)
 */
#ifndef LINX_TARGET_KERNEL_OPS_H
#define LINX_TARGET_KERNEL_OPS_H

#include <stdbool.h>
#include <stdint.h>

/* helper_kfp*: arithmetic first, compares from KFP_EQ on (results 0/1). */
enum {
    KFP_ADD,
    KFP_SUB,
    KFP_MUL,
    KFP_DIV,
    KFP_MAX,
    KFP_MIN,
    KFP_MADD,
    KFP_MSUB,
    KFP_NMADD,
    KFP_NMSUB,
    KFP_ABS,
    KFP_SQRT,
    KFP_RECIP,
    KFP_EXP,
    KFP_CLASS,
    KFP_EQ,
    KFP_NE,
    KFP_LT,
    KFP_GE,
    KFP_OP_MASK = 0x3f,
    KFP_SIGNALING = 0x40, /* compares: NV on any NaN */
    KFP_FMT_SHIFT = 8,
};

/* helper_kcvt kinds. */
enum {
    KCVT_F2F,  /* V.FCVT: FCSR rounding */
    KCVT_F2I,  /* V.FCVTI: toward zero, saturating (NaN -> the maximum) */
    KCVT_I2I,  /* V.ICVT: sign/zero extension or truncation */
    KCVT_I2F,  /* V.ICVTF: FCSR rounding */
    KCVT_KIND_MASK = 0xff,
    KCVT_SRC_SHIFT = 8,
    KCVT_DST_SHIFT = 16,
};

/* helper_kernel_xlane operations. */
enum {
    KX_NONE,
    KX_RDADD,
    KX_RDAND,
    KX_RDOR,
    KX_RDXOR,
    KX_RDMAX,
    KX_RDMIN,
    KX_RDFADD,
    KX_RDFMAX,
    KX_RDFMIN,
    KX_SHFL_UP,
    KX_SHFL_DOWN,
    KX_SHFL_IDX,
    KX_SHFL_BFLY,
    KX_OP_MASK = 0xff,
    KX_CODE_MASK = 0x3ff,
    KX_SRCL_SHIFT = 8,
    KX_SRCR_SHIFT = 18,
    KX_SRCP_SHIFT = 28,
    KX_DST_SHIFT = 38,
    KX_IMM_SHIFT = 48,
    KX_IMM_MASK = 0x7f,
};
#define KX_HAS_IMM (UINT64_C(1) << 55)

/* A lane value of 8 << @lg bits (lg 0..3) extended to 64 bits, signed
 * when @sign: how the kernel helpers read a RegId10 operand's type. */
static inline uint64_t kop_lane_ext(uint64_t v, unsigned lg, bool sign)
{
    unsigned sh;

    if (lg >= 3) {
        return v;
    }
    sh = 64 - (8u << lg);
    return sign ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

#endif /* LINX_TARGET_KERNEL_OPS_H */
