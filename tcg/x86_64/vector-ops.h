/*
 * Internal to tcg/x86_64/vector-ops.c and vector-mem.c (one VecInsn as
 * host instructions): the opcodes, small helpers and what the two files
 * share.  vector-mem.c has the memory accesses (loads, stores, gathers)
 * and the calls; vector-ops.c everything else and the dispatch.
 */
#ifndef LINX_TCG_X86_64_VECTOR_OPS_H
#define LINX_TCG_X86_64_VECTOR_OPS_H

#include "vector-gen.h"
#include "x86-gen.h"

/* ---- opcodes (Intel manual names) ---- */
#define O_PADD(q) VX(VX_0F, VX_66, q, (q) ? 0xd4 : 0xfe)
#define O_PSUB(q) VX(VX_0F, VX_66, q, (q) ? 0xfb : 0xfa)
#define O_PMULLD VX(VX_0F38, VX_66, 0, 0x40)
#define O_PMULLQ VX(VX_0F38, VX_66, 1, 0x40)
#define O_PMULUDQ VX(VX_0F, VX_66, 1, 0xf4)
#define O_PAND(q) VX(VX_0F, VX_66, q, 0xdb)
#define O_PANDN(q) VX(VX_0F, VX_66, q, 0xdf)
#define O_POR(q) VX(VX_0F, VX_66, q, 0xeb)
#define O_PXOR(q) VX(VX_0F, VX_66, q, 0xef)
#define O_SHIFT_D VX(VX_0F, VX_66, 0, 0x72) /* /6 sll, /2 srl, /4 sra */
#define O_SHIFT_Q VX(VX_0F, VX_66, 1, 0x73) /* /6 sll, /2 srl */
#define O_PSRAQ VX(VX_0F, VX_66, 1, 0x72)   /* EVEX /4 */
#define O_PSLLV(q) VX(VX_0F38, VX_66, q, 0x47)
#define O_PSRLV(q) VX(VX_0F38, VX_66, q, 0x45)
#define O_PSRAV(q) VX(VX_0F38, VX_66, q, 0x46)
#define O_PMAXS(q) VX(VX_0F38, VX_66, q, 0x3d)
#define O_PMINS(q) VX(VX_0F38, VX_66, q, 0x39)
#define O_PMAXU(q) VX(VX_0F38, VX_66, q, 0x3f)
#define O_PMINU(q) VX(VX_0F38, VX_66, q, 0x3b)
#define O_VPCMP(q) VX(VX_0F3A, VX_66, q, 0x1f)
#define O_VPCMPU(q) VX(VX_0F3A, VX_66, q, 0x1e)
#define O_PCMPEQD VX(VX_0F, VX_66, 0, 0x76)
#define O_PCMPGTD VX(VX_0F, VX_66, 0, 0x66)
#define O_PCMPEQQ VX(VX_0F38, VX_66, 0, 0x29)
#define O_PCMPGTQ VX(VX_0F38, VX_66, 0, 0x37)
#define O_PTESTM(q) VX(VX_0F38, VX_66, q, 0x27)
#define O_PTESTNM(q) VX(VX_0F38, VX_F3, q, 0x27)
#define O_PBLENDM(q) VX(VX_0F38, VX_66, q, 0x64)
#define O_PBLENDVB VX(VX_0F3A, VX_66, 0, 0x4c)
#define O_PMOVM2(q) VX(VX_0F38, VX_F3, q, 0x38)
#define O_PMOVSXDQ VX(VX_0F38, VX_66, 0, 0x25)
#define O_PMOVZXDQ VX(VX_0F38, VX_66, 0, 0x35)
#define O_PMOVQD VX(VX_0F38, VX_F3, 0, 0x35)
#define O_VINSERTI64X4 VX(VX_0F3A, VX_66, 1, 0x3a)
#define O_VEXTRACTI64X4 VX(VX_0F3A, VX_66, 1, 0x3b)
#define O_VEXTRACTI128 VX(VX_0F3A, VX_66, 0, 0x39)
#define O_VPERMQ VX(VX_0F3A, VX_66, 1, 0x00)
#define O_VSHUFPS VX(VX_0F, VX_NP, 0, 0xc6)
#define O_PBROADCAST_GPR(q) VX(VX_0F38, VX_66, q, 0x7c)
#define O_MOVD_XG(q) VX(VX_0F, VX_66, q, 0x6e) /* vmovd/vmovq xmm, r32/r64 */
#define O_PBROADCASTD VX(VX_0F38, VX_66, 0, 0x58)
#define O_PBROADCASTQ(evex) VX(VX_0F38, VX_66, evex, 0x59)
#define O_MOVDQU32 VX(VX_0F, VX_F3, 0, 0x6f)
#define O_MOVDQU64 VX(VX_0F, VX_F3, 1, 0x6f)
#define O_MOVDQU32_ST VX(VX_0F, VX_F3, 0, 0x7f)
#define O_MOVDQU64_ST VX(VX_0F, VX_F3, 1, 0x7f)
#define O_MOVDQA(q) VX(VX_0F, VX_66, q, 0x6f)
#define O_MASKMOV_LD(q) VX(VX_0F38, VX_66, q, 0x8c)
#define O_MASKMOV_ST(q) VX(VX_0F38, VX_66, q, 0x8e)
#define O_PTERNLOG(q) VX(VX_0F3A, VX_66, q, 0x25)
#define O_PTEST VX(VX_0F38, VX_66, 0, 0x17)
/* FP: W32 single (no prefix), W64 double (66, W1) */
#define O_FP(q, opc) VX(VX_0F, (q) ? VX_66 : VX_NP, q, opc)
#define O_FMA213(q, opc) VX(VX_0F38, VX_66, q, opc)
#define O_ADDSS(q) VX(VX_0F, (q) ? VX_F2 : VX_F3, q, 0x58)
#define O_MOVSS_LD(q) VX(VX_0F, (q) ? VX_F2 : VX_F3, q, 0x10)
#define O_MOVSS_ST(q) VX(VX_0F, (q) ? VX_F2 : VX_F3, q, 0x11)
/* gathers / scatters (EVEX) */
#define O_GATHER_DD VX(VX_0F38, VX_66, 0, 0x90)
#define O_GATHER_DQ VX(VX_0F38, VX_66, 1, 0x90)
#define O_GATHER_QD VX(VX_0F38, VX_66, 0, 0x91)
#define O_GATHER_QQ VX(VX_0F38, VX_66, 1, 0x91)
#define O_SCATTER_DD VX(VX_0F38, VX_66, 0, 0xa0)
#define O_SCATTER_DQ VX(VX_0F38, VX_66, 1, 0xa0)
/* mask registers (VEX) */
#define O_KAND VX(VX_0F, VX_NP, 0, 0x41)
#define O_KANDN VX(VX_0F, VX_NP, 0, 0x42)
#define O_KOR VX(VX_0F, VX_NP, 0, 0x45)
#define O_KXNOR VX(VX_0F, VX_NP, 0, 0x46)
#define O_KNOT VX(VX_0F, VX_NP, 0, 0x44)
#define O_KUNPCKBW VX(VX_0F, VX_66, 0, 0x4b)
#define O_KORTEST VX(VX_0F, VX_NP, 0, 0x98)
#define O_KMOV_KK VX(VX_0F, VX_NP, 0, 0x90)
#define O_KMOV_KG VX(VX_0F, VX_NP, 0, 0x92)
#define O_KMOV_GK VX(VX_0F, VX_NP, 0, 0x93)

/* FP compare predicates (imm8 of vcmpps) */
enum { P_EQ_OQ = 0x00, P_LT_OS = 0x01, P_UNORD_Q = 0x03, P_NEQ_OQ = 0x0c, P_GE_OS = 0x0d,
       P_EQ_OS = 0x10, P_LT_OQ = 0x11, P_NEQ_OS = 0x1c, P_GE_OQ = 0x1d };

static inline bool isq(const VecInsn *in)
{
    return in->type == VT_W64;
}

static inline unsigned nparts(VecType t)
{
    return t == VT_W64 ? 2 : 1;
}

static inline void imm8(VGen *g, unsigned v)
{
    x86_byte(g->e, (uint8_t)v);
}

static inline VxMem pool_mem(int32_t off)
{
    return vx_mem(VG_POOL_REG, -1, 0, off);
}

static inline VxMem frame_mem(size_t off)
{
    return vx_mem(VG_FRAME_REG, -1, 0, (int32_t)off);
}

static inline VxMem stack_mem(int32_t off)
{
    return vx_mem(X86_RSP, -1, 0, off);
}

/* vector-ops.c */
void vo_zero(VGen *g, int d);
int vo_mask_part(VGen *g, uint16_t m, int part, int si);
void vo_stream_ptr(VGen *g, int r, unsigned s);
bool vo_add_lane_offset(VGen *g, int r, int64_t stride);
void vo_bcast_gpr(VGen *g, int d, int r, bool q);

/* vector-mem.c */
bool vo_call_lanes(VGen *g, const VecInsn *in, uint64_t fn, uint16_t d);
bool vo_op_load(VGen *g, const VecInsn *in);
bool vo_op_store(VGen *g, const VecInsn *in);
bool vo_op_gather(VGen *g, const VecInsn *in);
bool vo_call_block(VGen *g, const VecInsn *in);

#endif /* LINX_TCG_X86_64_VECTOR_OPS_H */
