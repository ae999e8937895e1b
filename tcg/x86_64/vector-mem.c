/*
 * Vector program memory accesses and calls as host instructions
 * (tcg/vec.h, vector-gen.h, vector-ops.h): typed loads and stores
 * (contiguous, strided, masked; per-lane loops where the host has no
 * vector form), gathers with their window and alias checks, per-lane
 * and per-block calls into C.
 */
#include <stddef.h>
#include <string.h>

#include "vector-ops.h"

/* ---------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------- */

/* Scalar load of (1 << lg) bytes at [base + disp] extended into eax/rax. */
static void ld_elem(VGen *g, unsigned lg, bool sign, bool q, int base, int index, int32_t disp)
{
    X86Emitter *e = g->e;
    int w = q ? X86_P_W : 0;

    switch (lg) {
    case 0:
        x86_modrm_mem(e, (sign ? OPC_MOVSBQ : OPC_MOVZBL) | (sign ? w : 0), X86_RAX, base, index,
                      0, disp);
        break;
    case 1:
        x86_modrm_mem(e, (sign ? OPC_MOVSWQ : OPC_MOVZWL) | (sign ? w : 0), X86_RAX, base, index,
                      0, disp);
        break;
    case 2:
        if (q && sign) {
            x86_modrm_mem(e, OPC_MOVSXD_GvEd | X86_P_W, X86_RAX, base, index, 0, disp);
        } else {
            x86_modrm_mem(e, OPC_MOV_GvEv, X86_RAX, base, index, 0, disp);
        }
        break;
    default:
        x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, X86_RAX, base, index, 0, disp);
        break;
    }
}

static void st_elem(VGen *g, unsigned lg, int base, int32_t disp)
{
    X86Emitter *e = g->e;

    switch (lg) {
    case 0: x86_modrm_mem(e, OPC_MOV_EbGb | X86_P_BYTE_R, X86_RAX, base, X86_NO_REG, 0, disp); break;
    case 1: x86_modrm_mem(e, OPC_MOV_EvGv | X86_P_66, X86_RAX, base, X86_NO_REG, 0, disp); break;
    case 2: x86_modrm_mem(e, OPC_MOV_EvGv, X86_RAX, base, X86_NO_REG, 0, disp); break;
    default: x86_modrm_mem(e, OPC_MOV_EvGv | X86_P_W, X86_RAX, base, X86_NO_REG, 0, disp); break;
    }
}

/* for (r15 = 0; r15 < L; r15++) if (r14 & 1 << r15) { <body> }:
 * returns the position of the body's start; loop_end() closes it. */
static size_t loop_begin(VGen *g, size_t *skip)
{
    X86Emitter *e = g->e;
    size_t top;

    x86_modrm_rr(e, OPC_ALU_GvEv(X86_ALU_XOR), VG_IDX_REG, VG_IDX_REG);
    x86_align(e, 16, 0);
    top = e->pos;
    /* bt r14d, r15d; jnc next */
    x86_modrm_rr(e, 0xa3 | X86_P_0F, VG_IDX_REG, VG_BITS_REG);
    *skip = x86_jcc_rel32(e, X86_CC_AE);
    return top;
}

static void loop_end(VGen *g, size_t top, size_t skip)
{
    X86Emitter *e = g->e;
    size_t back;

    x86_patch_rel32(e, skip, e->pos);
    x86_modrm_rr(e, OPC_GRP1_EvIb, X86_ALU_ADD, VG_IDX_REG);
    x86_byte(e, 1);
    x86_modrm_rr(e, OPC_GRP1_EvIb, X86_ALU_CMP, VG_IDX_REG);
    x86_byte(e, (uint8_t)g->lanes);
    back = x86_jcc_rel32(e, X86_CC_B);
    x86_patch_rel32(e, back, top);
}

/* Per-lane load of stream @s (rdi = lane address, advancing by stride)
 * into array D, then into d. */
static bool load_lanes(VGen *g, const VecInsn *in, int64_t stride)
{
    X86Emitter *e = g->e;
    bool q = isq(in);
    unsigned lg = in->aux & 3, esz = q ? 8 : 4;
    size_t top, skip;
    int z = vg_scratch(g, 0);

    vg_lane_bits(g, in->m);
    vo_stream_ptr(g, X86_RDI, (unsigned)in->imm);
    if (!vo_add_lane_offset(g, X86_RDI, stride)) {
        return false;
    }
    vo_zero(g, z);
    vg_store_vec(g, z, stack_mem(vg_arr(3)));
    vg_store_vec(g, z, stack_mem(vg_arr(3) + (int32_t)g->vbytes));
    x86_mov_rr(e, X86_RSI, X86_RDI);
    top = loop_begin(g, &skip);
    /* rsi = rdi + r15 * stride */
    x86_mov_rr(e, X86_RSI, VG_IDX_REG);
    x86_imul_rri(e, X86_RSI, X86_RSI, (int32_t)stride);
    x86_alu_rr(e, X86_ALU_ADD, X86_RSI, X86_RDI);
    ld_elem(g, lg, in->aux & 4, q, X86_RSI, X86_NO_REG, 0);
    x86_modrm_mem(e, OPC_MOV_EvGv | (q ? X86_P_W : 0), X86_RAX, X86_RSP, VG_IDX_REG,
                  q ? 3 : 2, vg_arr(3));
    loop_end(g, top, skip);
    vg_load_arr(g, in->d, 3);
    (void)esz;
    return true;
}

static bool store_lanes(VGen *g, const VecInsn *in, int64_t stride)
{
    X86Emitter *e = g->e;
    bool q = in->type == VT_W64;
    unsigned lg = in->aux & 3;
    size_t top, skip;

    vg_store_arr(g, in->a, 2);
    vg_lane_bits(g, in->m);
    vo_stream_ptr(g, X86_RDI, (unsigned)in->imm);
    if (!vo_add_lane_offset(g, X86_RDI, stride)) {
        return false;
    }
    top = loop_begin(g, &skip);
    x86_mov_rr(e, X86_RSI, VG_IDX_REG);
    x86_imul_rri(e, X86_RSI, X86_RSI, (int32_t)stride);
    x86_alu_rr(e, X86_ALU_ADD, X86_RSI, X86_RDI);
    x86_modrm_mem(e, OPC_MOV_GvEv | (q ? X86_P_W : 0), X86_RAX, X86_RSP, VG_IDX_REG, q ? 3 : 2,
                  vg_arr(2));
    st_elem(g, lg, X86_RSI, 0);
    loop_end(g, top, skip);
    return true;
}

/* vpmovsx/zx opcode for @lg bytes -> dword (q false) or qword lanes */
static VxOpc ext_opc(unsigned lg, bool sign, bool q)
{
    static const uint8_t to_d[2] = { 0x21, 0x23 };       /* bd, wd (sx; zx + 0x10) */
    static const uint8_t to_q[3] = { 0x22, 0x24, 0x25 }; /* bq, wq, dq */
    uint8_t o = q ? to_q[lg] : to_d[lg];

    return VX(VX_0F38, VX_66, 0, sign ? o : (uint8_t)(o + 0x10));
}

bool vo_op_load(VGen *g, const VecInsn *in)
{
    bool q = isq(in), sign = in->aux & 4;
    unsigned lg = in->aux & 3, size = 1u << lg;
    int64_t stride = g->p->stream[in->imm].stride;
    unsigned half = g->lanes / 2;

    if (lg == 3 && !q) {
        return vg_fail(g, "64-bit load into 32-bit lanes");
    }
    if (stride == 0) {
        /* one element for every lane */
        vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
        ld_elem(g, lg, sign, q, X86_RSI, X86_NO_REG, 0);
        for (unsigned p = 0; p < nparts(in->type); p++) {
            int d = vg_def(g, in->d, (int)p);
            vo_bcast_gpr(g, d, X86_RAX, q);
            if (in->m != VEC_NONE) {
                if (g->evex) {
                    int k = vo_mask_part(g, in->m, q ? (int)p : -1, 0);
                    vg_rrk(g, O_MOVDQA(q), d, 0, d, k, true);
                } else {
                    vg_rr(g, O_PAND(0), d, d, vo_mask_part(g, in->m, q ? (int)p : -1, 1));
                }
            }
        }
        return true;
    }
    if (stride == (int64_t)size) {
        if (g->evex) {
            vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
            for (unsigned p = 0; p < nparts(in->type); p++) {
                VxMem m = vx_mem(X86_RSI, VG_LANE_REG, lg, (int32_t)(p * half * size));
                int k = vg_kmask(g, in->m, q ? (int)p : -1);
                int d = vg_def(g, in->d, (int)p);
                VxOpc o = (q ? lg == 3 : lg == 2) ? (q ? O_MOVDQU64 : O_MOVDQU32)
                                                  : ext_opc(lg, sign, q);
                vg_rm(g, o, d, 0, m, k, k != 0);
            }
            return true;
        }
        /* AVX2 */
        if ((q ? lg == 3 : lg == 2)) {
            vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
            for (unsigned p = 0; p < nparts(in->type); p++) {
                VxMem m = vx_mem(X86_RSI, VG_LANE_REG, lg, (int32_t)(p * half * size));
                int s = vg_scratch(g, 0);
                bool masked = vg_vmask(g, in->m, q ? (int)p : -1, 0);
                int d = vg_def(g, in->d, (int)p);
                if (masked) {
                    vg_rm(g, O_MASKMOV_LD(q), d, s, m, 0, false);
                } else {
                    vg_load_vec(g, d, m);
                }
            }
            return true;
        }
        if (!g->tail) {
            vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
            for (unsigned p = 0; p < nparts(in->type); p++) {
                VxMem m = vx_mem(X86_RSI, VG_LANE_REG, lg, (int32_t)(p * half * size));
                int d = vg_def(g, in->d, (int)p);
                vg_rm(g, ext_opc(lg, sign, q), d, 0, m, 0, false);
                if (in->m != VEC_NONE) {
                    vg_rr(g, O_PAND(0), d, d, vo_mask_part(g, in->m, q ? (int)p : -1, 1));
                }
            }
            return true;
        }
        return load_lanes(g, in, stride);
    }
    /* strided: AVX-512 gathers for whole elements */
    if (g->evex && (q ? lg == 3 : lg == 2) && x86_fits_s32(stride * 16)) {
        int32_t idx[16];
        int32_t io;
        for (unsigned i = 0; i < 16; i++) {
            idx[i] = (int32_t)(stride * (int64_t)i);
        }
        io = vg_pool(g, idx, sizeof(idx), 64);
        vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
        if (!vo_add_lane_offset(g, X86_RSI, stride)) {
            return false;
        }
        for (unsigned p = 0; p < nparts(in->type); p++) {
            int k = vg_kmask(g, in->m, q ? (int)p : -1);
            int s = vg_scratch(g, 0);
            int d = vg_def(g, in->d, (int)p);
            if (k == 0) {
                vx_rr(g->e, false, O_KXNOR, 1, 6, 6, 6, 0, false);
            } else if (k != 6) {
                vx_rr(g->e, false, O_KMOV_KK, 0, 6, 0, k, 0, false);
            }
            vo_zero(g, d);
            if (!q) {
                vg_load_vec(g, s, pool_mem(io));
                vx_rm(g->e, true, O_GATHER_DD, VX_512, d, 0, vx_vsib(X86_RSI, s, 0, 0), 6, false,
                      false);
            } else {
                vx_rm(g->e, true, VX(VX_0F, VX_F3, 0, 0x6f), VX_256, s, 0,
                      pool_mem(io + (int32_t)(p * 32)), 0, false, false);
                vx_rm(g->e, true, O_GATHER_DQ, VX_512, d, 0, vx_vsib(X86_RSI, s, 0, 0), 6, false,
                      false);
            }
        }
        return true;
    }
    return load_lanes(g, in, stride);
}

bool vo_op_store(VGen *g, const VecInsn *in)
{
    bool q = in->type == VT_W64;
    unsigned lg = in->aux & 3, size = 1u << lg;
    int64_t stride = g->p->stream[in->imm].stride;
    unsigned half = g->lanes / 2;

    if (lg == 3 && !q) {
        return vg_fail(g, "64-bit store from 32-bit lanes");
    }
    if (stride == (int64_t)size) {
        if (g->evex) {
            static const uint8_t narrow_d[2] = { 0x31, 0x33 };       /* vpmovdb, vpmovdw */
            static const uint8_t narrow_q[3] = { 0x32, 0x34, 0x35 }; /* vpmovqb, qw, qd */
            vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
            for (unsigned p = 0; p < nparts(in->type); p++) {
                VxMem m = vx_mem(X86_RSI, VG_LANE_REG, lg, (int32_t)(p * half * size));
                int a = vg_use(g, in->a, (int)p);
                int k = vg_kmask(g, in->m, q ? (int)p : -1);
                size_t skip = 0;
                if (in->m != VEC_NONE) {
                    /* no store at all for an empty mask: a masked store
                     * over pages not yet writable (copy-on-write zero
                     * pages) takes a microcode assist per instruction */
                    vx_rr(g->e, false, O_KORTEST, 0, k, 0, k, 0, false);
                    skip = x86_jcc_rel32(g->e, X86_CC_E);
                }
                if (q ? lg == 3 : lg == 2) {
                    vg_rm(g, q ? O_MOVDQU64_ST : O_MOVDQU32_ST, a, 0, m, k, false);
                } else {
                    VxOpc o = VX(VX_0F38, VX_F3, 0, q ? narrow_q[lg] : narrow_d[lg]);
                    vg_rm(g, o, a, 0, m, k, false);
                }
                if (skip) {
                    x86_patch_rel32(g->e, skip, g->e->pos);
                }
            }
            return true;
        }
        if (q ? lg == 3 : lg == 2) {
            vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
            for (unsigned p = 0; p < nparts(in->type); p++) {
                VxMem m = vx_mem(X86_RSI, VG_LANE_REG, lg, (int32_t)(p * half * size));
                int a = vg_use(g, in->a, (int)p), s = vg_scratch(g, 0);
                if (vg_vmask(g, in->m, q ? (int)p : -1, 0)) {
                    size_t skip = 0;
                    if (in->m != VEC_NONE) {
                        vx_rr(g->e, false, O_PTEST, VX_256, s, 0, s, 0, false);
                        skip = x86_jcc_rel32(g->e, X86_CC_E); /* as above */
                    }
                    vg_rm(g, O_MASKMOV_ST(q), a, s, m, 0, false);
                    if (skip) {
                        x86_patch_rel32(g->e, skip, g->e->pos);
                    }
                } else {
                    vg_store_vec(g, a, m);
                }
            }
            return true;
        }
        return store_lanes(g, in, stride);
    }
    if (g->evex && stride != 0 && (q ? lg == 3 : lg == 2) && x86_fits_s32(stride * 16)) {
        int32_t idx[16];
        int32_t io;
        for (unsigned i = 0; i < 16; i++) {
            idx[i] = (int32_t)(stride * (int64_t)i);
        }
        io = vg_pool(g, idx, sizeof(idx), 64);
        vo_stream_ptr(g, X86_RSI, (unsigned)in->imm);
        if (!vo_add_lane_offset(g, X86_RSI, stride)) {
            return false;
        }
        for (unsigned p = 0; p < nparts(in->type); p++) {
            int a = vg_use(g, in->a, (int)p);
            int k = vg_kmask(g, in->m, q ? (int)p : -1);
            int s = vg_scratch(g, 0);
            if (k == 0) {
                vx_rr(g->e, false, O_KXNOR, 1, 6, 6, 6, 0, false);
            } else if (k != 6) {
                vx_rr(g->e, false, O_KMOV_KK, 0, 6, 0, k, 0, false);
            }
            if (!q) {
                vg_load_vec(g, s, pool_mem(io));
                vx_rm(g->e, true, O_SCATTER_DD, VX_512, a, 0, vx_vsib(X86_RSI, s, 0, 0), 6, false,
                      false);
            } else {
                vx_rm(g->e, true, VX(VX_0F, VX_F3, 0, 0x6f), VX_256, s, 0,
                      pool_mem(io + (int32_t)(p * 32)), 0, false, false);
                vx_rm(g->e, true, O_SCATTER_DQ, VX_512, a, 0, vx_vsib(X86_RSI, s, 0, 0), 6, false,
                      false);
            }
        }
        return true;
    }
    return store_lanes(g, in, stride);
}

/* Horizontal unsigned min (max) of the 8 qwords of scratch @v into its
 * lane 0, @t a scratch register (AVX-512). */
static void hreduce_q(VGen *g, bool max, int v, int t)
{
    X86Emitter *e = g->e;
    VxOpc o = max ? O_PMAXU(1) : O_PMINU(1);

    vx_rr(e, true, O_VEXTRACTI64X4, VX_512, v, 0, t, 0, false); /* t = v[4..7] */
    imm8(g, 1);
    vx_rr(e, true, o, VX_256, v, v, t, 0, false);
    vx_rr(e, true, VX(VX_0F3A, VX_66, 1, 0x39), VX_256, v, 0, t, 0, false); /* vextracti64x2 */
    imm8(g, 1);
    vx_rr(e, true, o, VX_128, v, v, t, 0, false);
    vx_rr(e, true, VX(VX_0F, VX_66, 0, 0x70), VX_128, t, 0, v, 0, false); /* vpshufd */
    imm8(g, 0x4e);
    vx_rr(e, true, o, VX_128, v, v, t, 0, false);
}

/* AVX-512: rcx = min, rdx = max of the enabled lanes' addresses (a, two
 * W64 parts) in vector registers (the same values as the per-lane loop:
 * disabled lanes take no part, an empty block never gets here); a
 * misaligned enabled address bails out as there. */
static void gather_bounds_evex(VGen *g, const VecInsn *in, unsigned size)
{
    X86Emitter *e = g->e;
    int mn = vg_scratch(g, 0), mx = vg_scratch(g, 1), t = vg_scratch(g, 2);

    vg_load_vec(g, mn, pool_mem(vg_pool_splat(g, UINT64_MAX, 8)));
    vo_zero(g, mx);
    for (int p = 0; p < 2; p++) {
        int a = vg_use(g, in->a, p), k = vg_kmask(g, in->m, p);
        /* merge masking: disabled lanes keep MAX / 0 */
        vx_rr(e, true, O_PMINU(1), VX_512, mn, mn, a, k, false);
        vx_rr(e, true, O_PMAXU(1), VX_512, mx, mx, a, k, false);
        if ((in->imm & VG_ALIGN) && size > 1) {
            /* k0 = enabled lanes with a & (size - 1) != 0 */
            vx_rm(e, true, O_PTESTM(1), VX_512, 0, a,
                  pool_mem(vg_pool_splat(g, size - 1, 8)), k, false, false);
            vx_rr(e, false, O_KORTEST, 0, 0, 0, 0, 0, false); /* kortestw k0, k0 */
            vg_jcc_bail(g, X86_CC_NE);
        }
    }
    hreduce_q(g, false, mn, t);
    hreduce_q(g, true, mx, t);
    vx_rm(e, true, O_MOVDQU64_ST, VX_128, mn, 0, stack_mem(vg_arr(1)), 0, false, false);
    vx_rm(e, true, O_MOVDQU64_ST, VX_128, mx, 0, stack_mem(vg_arr(1) + 16), 0, false, false);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RCX, X86_RSP, vg_arr(1));
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RDX, X86_RSP, vg_arr(1) + 16);
}

/*
 * Gather from guest addresses (a, W64): every enabled lane's address is
 * checked (alignment, the frame's window, the store ranges) before any
 * access; a failed check bails out before the block.
 */
bool vo_op_gather(VGen *g, const VecInsn *in)
{
    X86Emitter *e = g->e;
    bool q = isq(in), sign = in->aux & 4;
    unsigned lg = in->aux & 3, size = 1u << lg;
    size_t top, skip, none, win_ok, after;
    const int32_t lo_off = VG_MISC + 32, hi_off = VG_MISC + 40;

    vg_store_arr(g, in->a, 0);
    vg_lane_bits(g, in->m);
    /* rcx = min, rdx = max over the enabled lanes */
    x86_movi(e, X86_RCX, UINT64_MAX);
    x86_movi(e, X86_RDX, 0);
    x86_test_rr(e, VG_BITS_REG, VG_BITS_REG);
    none = x86_jcc_rel32(e, X86_CC_E);
    if (g->evex) {
        gather_bounds_evex(g, in, size);
    } else {
        top = loop_begin(g, &skip);
        x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, X86_RAX, X86_RSP, VG_IDX_REG, 3, vg_arr(0));
        if ((in->imm & VG_ALIGN) && size > 1) {
            x86_test_ri(e, X86_RAX, (int32_t)(size - 1));
            vg_jcc_bail(g, X86_CC_NE);
        }
        x86_alu_rr(e, X86_ALU_CMP, X86_RAX, X86_RCX);
        x86_cmov(e, X86_CC_B, X86_RCX, X86_RAX);
        x86_alu_rr(e, X86_ALU_CMP, X86_RAX, X86_RDX);
        x86_cmov(e, X86_CC_A, X86_RDX, X86_RAX);
        loop_end(g, top, skip);
    }
    /* rdx = end of the highest element (a wrap fails the window check) */
    x86_alu_ri(e, X86_ALU_ADD, X86_RDX, (int32_t)size);
    vg_jcc_bail(g, X86_CC_B);
    x86_st(e, OPC_MOV_EvGv | X86_P_W, X86_RCX, X86_RSP, lo_off);
    x86_st(e, OPC_MOV_EvGv | X86_P_W, X86_RDX, X86_RSP, hi_off);
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_RCX, VG_FRAME_REG, X86_NO_REG, 0,
                  (int32_t)offsetof(VecFrame, glo));
    {
        size_t f1 = x86_jcc_rel32(e, X86_CC_B), f2;
        x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_RDX, VG_FRAME_REG, X86_NO_REG,
                      0, (int32_t)offsetof(VecFrame, ghi));
        f2 = x86_jcc_rel32(e, X86_CC_A);
        win_ok = x86_jmp_rel32(e);
        x86_patch_rel32(e, f1, e->pos);
        x86_patch_rel32(e, f2, e->pos);
    }
    /* outside the window: ask gwin(f, lo, hi) */
    vg_save_live(g);
    vx_stmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vx_ldmxcsr(e, X86_RSP, VG_HOST_MXCSR);
    vx_vzeroupper(e); /* C code may use SSE: no dirty upper halves (saved above) */
    x86_mov_rr(e, X86_RDI, VG_FRAME_REG);
    x86_mov_rr(e, X86_RSI, X86_RCX);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RAX, VG_FRAME_REG, (int32_t)offsetof(VecFrame, gwin));
    x86_modrm_rr(e, OPC_GRP5_Ev, X86_EXT5_CALL, X86_RAX);
    vx_ldmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vg_restore_live(g);
    x86_modrm_rr(e, OPC_TEST_EvGv | X86_P_BYTE_R | X86_P_BYTE_RM, X86_RAX, X86_RAX);
    vg_jcc_bail(g, X86_CC_E);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RCX, X86_RSP, lo_off);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RDX, X86_RSP, hi_off);
    x86_patch_rel32(e, win_ok, e->pos);
    /* the store ranges: hi <= lo_j or lo >= hi_j */
    for (unsigned j = 0; j < g->p->ngather_checks; j++) {
        size_t ok1;
        x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_RDX, VG_FRAME_REG, X86_NO_REG, 0,
                      (int32_t)offsetof(VecFrame, gst_lo[j]));
        ok1 = x86_jcc_rel32(e, X86_CC_BE);
        x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_RCX, VG_FRAME_REG, X86_NO_REG, 0,
                      (int32_t)offsetof(VecFrame, gst_hi[j]));
        vg_jcc_bail(g, X86_CC_B);
        x86_patch_rel32(e, ok1, e->pos);
    }
    x86_patch_rel32(e, none, e->pos);
    /* the accesses: host = guest + gdelta */
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RSI, VG_FRAME_REG, (int32_t)offsetof(VecFrame, gdelta));
    if (g->evex && (q ? lg == 3 : lg == 2)) {
        for (unsigned p = 0; p < 2; p++) {
            int idx = vg_use(g, in->a, (int)p);
            int k = vg_kmask(g, in->m, (int)p);
            int s = vg_scratch(g, 0);
            int d = q ? vg_def(g, in->d, (int)p) : (p ? s : vg_def(g, in->d, 0));
            if (k == 0) {
                vx_rr(e, false, O_KXNOR, 1, 6, 6, 6, 0, false);
            } else if (k != 6) {
                vx_rr(e, false, O_KMOV_KK, 0, 6, 0, k, 0, false);
            }
            vo_zero(g, d);
            vx_rm(e, true, q ? O_GATHER_QQ : O_GATHER_QD, VX_512, d, 0,
                  vx_vsib(X86_RSI, idx, 0, 0), 6, false, false);
            if (!q && p == 1) {
                int dd = vg_def(g, in->d, 0);
                vg_rr(g, O_VINSERTI64X4, dd, dd, s);
                imm8(g, 1);
            }
        }
        return true;
    }
    {
        int z = vg_scratch(g, 0);
        vo_zero(g, z);
        vg_store_vec(g, z, stack_mem(vg_arr(3)));
        vg_store_vec(g, z, stack_mem(vg_arr(3) + (int32_t)g->vbytes));
        top = loop_begin(g, &skip);
        x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, X86_RDI, X86_RSP, VG_IDX_REG, 3, vg_arr(0));
        ld_elem(g, lg, sign, q, X86_RSI, X86_RDI, 0);
        x86_modrm_mem(e, OPC_MOV_EvGv | (q ? X86_P_W : 0), X86_RAX, X86_RSP, VG_IDX_REG,
                      q ? 3 : 2, vg_arr(3));
        loop_end(g, top, skip);
        vg_load_arr(g, in->d, 3);
    }
    after = e->pos;
    (void)after;
    return true;
}

/* ---------------------------------------------------------------------
 * Calls
 * --------------------------------------------------------------------- */

bool vo_call_lanes(VGen *g, const VecInsn *in, uint64_t fn, uint16_t d)
{
    static const uint8_t argreg[VEC_CALL_ARGS] = { X86_RDI, X86_RSI, X86_RDX, X86_RCX, X86_R8 };
    X86Emitter *e = g->e;
    uint16_t ops[3] = { in->a, in->b, in->c };
    size_t top, skip;

    for (unsigned i = 0; i < 3; i++) {
        if (ops[i] != VEC_NONE) {
            vg_store_arr(g, ops[i], i);
        }
    }
    vg_lane_bits(g, VEC_NONE);
    vg_save_live(g);
    vx_stmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vx_ldmxcsr(e, X86_RSP, VG_HOST_MXCSR);
    vx_vzeroupper(e); /* C code may use SSE: no dirty upper halves (saved above) */
    top = loop_begin(g, &skip);
    for (unsigned j = 0; j < VEC_CALL_ARGS; j++) {
        static const uint8_t fma_args[VEC_CALL_ARGS] = { VA_ENV, VA_A, VA_B, VA_C, VA_NONE };
        int r = argreg[j];
        unsigned kind = in->op == VO_FMA ? fma_args[j] : in->args[j];
        switch (kind) {
        case VA_ENV:
            x86_ld(e, OPC_MOV_GvEv | X86_P_W, r, VG_FRAME_REG, (int32_t)offsetof(VecFrame, env));
            break;
        case VA_A: case VA_B: case VA_C: {
            unsigned i = kind - VA_A;
            bool wide = g->val[ops[i]].type == VT_W64;
            if (wide) {
                x86_modrm_mem(e, OPC_MOV_GvEv | X86_P_W, r, X86_RSP, VG_IDX_REG, 3, vg_arr(i));
            } else if (in->arg_sign & (1u << i)) {
                x86_modrm_mem(e, OPC_MOVSXD_GvEd | X86_P_W, r, X86_RSP, VG_IDX_REG, 2, vg_arr(i));
            } else {
                x86_modrm_mem(e, OPC_MOV_GvEv, r, X86_RSP, VG_IDX_REG, 2, vg_arr(i));
            }
            break;
        }
        case VA_IMM:
            x86_movi(e, r, (uint64_t)in->call_imm);
            break;
        default:
            x86_movi(e, r, 0);
            break;
        }
    }
    vg_call_host(g, fn);
    if (d != VEC_NONE) {
        bool wide = g->val[d].type == VT_W64;
        x86_modrm_mem(e, OPC_MOV_EvGv | (wide ? X86_P_W : 0), X86_RAX, X86_RSP, VG_IDX_REG,
                      wide ? 3 : 2, vg_arr(3));
    }
    loop_end(g, top, skip);
    vx_ldmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vg_restore_live(g);
    if (d != VEC_NONE) {
        vg_load_arr(g, d, 3);
    }
    return true;
}

/* fn(env, in, out, bits, imm) once for the block */
bool vo_call_block(VGen *g, const VecInsn *in)
{
    X86Emitter *e = g->e;

    vg_store_arr(g, in->a, 0);
    vg_lane_bits(g, VEC_NONE);
    vg_save_live(g);
    vx_stmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vx_ldmxcsr(e, X86_RSP, VG_HOST_MXCSR);
    vx_vzeroupper(e); /* C code may use SSE: no dirty upper halves (saved above) */
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_RDI, VG_FRAME_REG, (int32_t)offsetof(VecFrame, env));
    x86_lea(e, X86_RSI, X86_RSP, X86_NO_REG, 0, vg_arr(0));
    x86_lea(e, X86_RDX, X86_RSP, X86_NO_REG, 0, vg_arr(3));
    x86_mov_rr(e, X86_RCX, VG_BITS_REG);
    x86_movi(e, X86_R8, (uint64_t)in->call_imm);
    vg_call_host(g, in->fn);
    vx_ldmxcsr(e, X86_RSP, VG_CUR_MXCSR);
    vg_restore_live(g);
    vg_load_arr(g, in->d, 3);
    return true;
}
