/*
 * Inline tile block moves (tcg/tile-move.h): the fast case of a helper
 * call flagged IR_CALL_TILE_MOVE as host code in the TB.
 *
 * Emitted after the call's arguments are in place (rdi env, rsi block,
 * rdx base, rcx stride, r8 size, r9 plan), before the call instruction:
 *
 *     checks (rax, r10, r11 only)    ; any failure: jmp slow
 *     gm host pointer -> r10, tile data -> r11, row pointer -> rsi
 *     (loads: the pushed slot -> r8, its ring index -> rdi)
 *     the runs: vector moves (AVX-512 zmm / AVX2 ymm, overlapping tails),
 *     general-register moves below 16 bytes (r9)
 *     (loads: the push commit: meta, head, the hand's views, pushes)
 *     vzeroupper; jmp done
 *   slow:
 *     call helper                    ; the arguments are untouched
 *   done:
 *
 * The call's register bookkeeping (globals written back, call-clobbered
 * registers free) is done by x86_gen_call before this code, so both paths
 * leave the same state.  AVX-512 pairs two 32-byte runs that are adjacent
 * in the GM row (NZ: fractal columns b and b+1 of one row) into one 64-byte
 * GM access: stores vmovdqu ymm, [tile + a]; vinserti64x4 zmm, zmm,
 * [tile + b], 1; vmovdqu64 [gm], zmm, loads vmovdqu64 zmm, [gm]; vmovdqu
 * [tile + a], ymm; vextracti64x4 [tile + b], zmm, 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tcg/tile-move.h"
#include "vector-emit.h"
#include "x86-gen.h"

enum {
    TM_GM = X86_R10,   /* host address of GM (0, 0) */
    TM_TILE = X86_R11, /* tile data */
    TM_ROW = X86_RSI,  /* GM row pointer (stride from a register) */
    TM_STRIDE = X86_RCX,
    TM_BASE = X86_RDX,
    TM_TS = X86_RAX,
    TM_GPR = X86_R9,   /* small moves (the plan argument: not needed past the checks) */
    TM_VREGS = 8,      /* vector registers used round-robin */
    TM_MAX_SLOW = 16,
    STRIDE_LIMIT = 0x7fffffff,
};

typedef struct TmEmit {
    X86Emitter *e;
    bool avx512;
    bool store;
    int gm_base;
    unsigned vreg;
    size_t slow[TM_MAX_SLOW];
    unsigned nslow;
} TmEmit;

static void tm_fail_if(TmEmit *t, X86Cond cc)
{
    if (t->nslow == TM_MAX_SLOW) {
        fprintf(stderr, "linxemu: x86-64 backend: tile move with too many checks\n");
        abort();
    }
    t->slow[t->nslow++] = x86_jcc_rel32(t->e, cc);
}

/* One vector move of 16 << lenlog bytes: VX_128, VX_256 or VX_512. */
static void vmove(TmEmit *t, int len, int dbase, int32_t ddisp, int sbase, int32_t sdisp)
{
    bool evex = len == VX_512;
    VxOpc ld = VX(VX_0F, VX_F3, evex ? 1 : 0, 0x6f), st = VX(VX_0F, VX_F3, evex ? 1 : 0, 0x7f);
    int r = (int)(t->vreg++ % TM_VREGS);

    vx_rm(t->e, evex, ld, len, r, 0, vx_mem(sbase, -1, 0, sdisp), 0, false, false);
    vx_rm(t->e, evex, st, len, r, 0, vx_mem(dbase, -1, 0, ddisp), 0, false, false);
}

/* A general-register move of @size bytes (1, 2, 4, 8) through rax. */
static void gmove(TmEmit *t, unsigned size, int dbase, int32_t ddisp, int sbase, int32_t sdisp)
{
    switch (size) {
    case 8:
        x86_ld(t->e, OPC_MOV_GvEv | X86_P_W, TM_GPR, sbase, sdisp);
        x86_st(t->e, OPC_MOV_EvGv | X86_P_W, TM_GPR, dbase, ddisp);
        break;
    case 4:
        x86_ld(t->e, OPC_MOV_GvEv, TM_GPR, sbase, sdisp);
        x86_st(t->e, OPC_MOV_EvGv, TM_GPR, dbase, ddisp);
        break;
    case 2:
        x86_ld(t->e, OPC_MOVZWL, TM_GPR, sbase, sdisp);
        x86_st(t->e, OPC_MOV_EvGv | X86_P_66, TM_GPR, dbase, ddisp);
        break;
    default:
        x86_ld(t->e, OPC_MOVZBL, TM_GPR, sbase, sdisp);
        x86_st(t->e, OPC_MOV_EbGb | X86_P_BYTE_R, TM_GPR, dbase, ddisp);
        break;
    }
}

/* Copy @len bytes (no overlap between source and destination; the tails
 * overlap the body, as copy_bytes in hw/linx/tma-avx2-inline.h). */
static void copy_run(TmEmit *t, unsigned len, int dbase, int32_t d, int sbase, int32_t s)
{
    if (len >= 64 && t->avx512) {
        unsigned k = 0;

        for (; k + 64 <= len; k += 64) {
            vmove(t, VX_512, dbase, d + (int32_t)k, sbase, s + (int32_t)k);
        }
        if (k < len) {
            unsigned tail = len - k <= 32 ? 32 : 64;

            vmove(t, tail == 64 ? VX_512 : VX_256, dbase, d + (int32_t)(len - tail), sbase,
                  s + (int32_t)(len - tail));
        }
    } else if (len >= 32) {
        unsigned k = 0;

        for (; k + 32 <= len; k += 32) {
            vmove(t, VX_256, dbase, d + (int32_t)k, sbase, s + (int32_t)k);
        }
        if (k < len) {
            vmove(t, VX_256, dbase, d + (int32_t)(len - 32), sbase, s + (int32_t)(len - 32));
        }
    } else if (len >= 16) {
        vmove(t, VX_128, dbase, d, sbase, s);
        if (len > 16) {
            vmove(t, VX_128, dbase, d + (int32_t)(len - 16), sbase, s + (int32_t)(len - 16));
        }
    } else {
        unsigned size = len >= 8 ? 8 : len >= 4 ? 4 : len >= 2 ? 2 : 1;

        gmove(t, size, dbase, d, sbase, s);
        if (len > size) {
            gmove(t, size, dbase, d + (int32_t)(len - size), sbase, s + (int32_t)(len - size));
        }
    }
}

/* Two 32-byte tile runs to 64 adjacent GM bytes (AVX-512 stores). */
static void pair_store(TmEmit *t, int32_t gdisp, int32_t t0, int32_t t1)
{
    int r = (int)(t->vreg++ % TM_VREGS);

    vx_rm(t->e, false, VX(VX_0F, VX_F3, 0, 0x6f), VX_256, r, 0, vx_mem(TM_TILE, -1, 0, t0), 0,
          false, false);
    vx_rm(t->e, true, VX(VX_0F3A, VX_66, 1, 0x3a), VX_512, r, r, vx_mem(TM_TILE, -1, 0, t1), 0,
          false, false);
    x86_byte(t->e, 1);
    vx_rm(t->e, true, VX(VX_0F, VX_F3, 1, 0x7f), VX_512, r, 0, vx_mem(t->gm_base, -1, 0, gdisp),
          0, false, false);
}

/* 64 adjacent GM bytes to two 32-byte tile runs (AVX-512 loads). */
static void pair_load(TmEmit *t, int32_t gdisp, int32_t t0, int32_t t1)
{
    int r = (int)(t->vreg++ % TM_VREGS);

    vx_rm(t->e, true, VX(VX_0F, VX_F3, 1, 0x6f), VX_512, r, 0, vx_mem(t->gm_base, -1, 0, gdisp),
          0, false, false);
    vx_rm(t->e, false, VX(VX_0F, VX_F3, 0, 0x7f), VX_256, r, 0, vx_mem(TM_TILE, -1, 0, t0), 0,
          false, false);
    /* vextracti64x4 [tile + t1], zmm, 1 */
    vx_rm(t->e, true, VX(VX_0F3A, VX_66, 1, 0x3b), VX_512, r, 0, vx_mem(TM_TILE, -1, 0, t1), 0,
          false, false);
    x86_byte(t->e, 1);
}

/* ---- ZN blocks: c0 x c0 element transposes (transpose_esize) ---- */

/* The blocks run as a loop (unrolled, 8 TSTOREs of 16 blocks each would
 * not fit the instruction caches): the block row pointer TM_ROW, the
 * block's byte offset in the GM row TM_COL, the tile pointer TM_TILE at
 * the block, the GM stride in TM_STRIDE, rows walked by TM_WALK. */
enum { TM_WALK = X86_R9, TM_COL = X86_R10, TM_COUNT = X86_RDX };

typedef struct TmBlock {
    int walk_row; /* the row TM_WALK points at, -1: not set */
} TmBlock;

/* The memory operand of row @j of the block's GM side, byte @off in it. */
static VxMem gm_row(TmEmit *t, TmBlock *b, unsigned j, int32_t off)
{
    if (b->walk_row < 0 || (unsigned)b->walk_row > j) {
        x86_lea(t->e, TM_WALK, TM_ROW, TM_COL, 0, 0);
        b->walk_row = 0;
    }
    for (; (unsigned)b->walk_row < j; b->walk_row++) {
        x86_alu_rr(t->e, X86_ALU_ADD, TM_WALK, TM_STRIDE);
    }
    return vx_mem(TM_WALK, -1, 0, off);
}

static VxMem tile_row(TmBlock *b, unsigned j, int32_t off)
{
    (void)b;
    return vx_mem(TM_TILE, -1, 0, (int32_t)(32 * j) + off);
}

/* Source row @j of the block: GM for loads, the tile for stores. */
static VxMem src_row(TmEmit *t, TmBlock *b, unsigned j, int32_t off)
{
    return t->store ? tile_row(b, j, off) : gm_row(t, b, j, off);
}

static VxMem dst_row(TmEmit *t, TmBlock *b, unsigned j)
{
    return t->store ? gm_row(t, b, j, 0) : tile_row(b, j, 0);
}

/* d = unpack(a, b) of opcode @opc (66 0F 60..6D): ymm, or zmm (EVEX,
 * W1 for the qword forms) on AVX-512 hosts. */
static void unpck(TmEmit *t, uint8_t opc, int d, int a, int b)
{
    if (t->avx512) {
        vx_rr(t->e, true, VX(VX_0F, VX_66, opc >= 0x6c ? 1 : 0, opc), VX_512, d, a, b, 0, false);
    } else {
        vx_rr(t->e, false, VX(VX_0F, VX_66, 0, opc), VX_256, d, a, b, 0, false);
    }
}

enum {
    PUNPCKLWD = 0x61, PUNPCKHWD = 0x69, PUNPCKLDQ = 0x62, PUNPCKHDQ = 0x6a,
    PUNPCKLQDQ = 0x6c, PUNPCKHQDQ = 0x6d,
};

/* One c0 x c0 block (AVX2, ymm0-15).  Half h of the source rows: input
 * ymm i (i < n = c0 / 2) holds bytes 16h .. 16h+15 of source rows i
 * (low lane) and i + n (high lane); an in-lane n x n transpose leaves in
 * out[k] destination row h * n + k, whole (hw/linx/tma-avx2-inline.h
 * lane_transpose_e2 is the same network for words). */
static void transpose_block(TmEmit *t, const TcgTileMove *m)
{
    TmBlock b = { -1 };
    unsigned es = m->transpose_esize, n = 16 / es;

    /* AVX-512: both halves at once, input zmm i = [row i h0 | row i + n
     * h0 | row i h1 | row i + n h1] (vinserti32x4), out[k] = [dest row k
     * | dest row n + k] (vmovdqu ymm, vextracti64x4). */
    for (unsigned h = 0; h < (t->avx512 ? 1u : 2u); h++) {
        int out[8];

        for (unsigned i = 0; i < n && t->avx512; i++) {
            vx_rm(t->e, false, VX(VX_0F, VX_F3, 0, 0x6f), VX_128, (int)i, 0,
                  src_row(t, &b, i, 0), 0, false, false);
        }
        for (unsigned q = 1; q < 4 && t->avx512; q++) {
            for (unsigned i = 0; i < n; i++) {
                /* vinserti32x4 zmm_i, zmm_i, m128, q */
                vx_rm(t->e, true, VX(VX_0F3A, VX_66, 0, 0x38), VX_512, (int)i, (int)i,
                      src_row(t, &b, (q & 1) * n + i, 16 * (int32_t)(q >> 1)), 0, false, false);
                x86_byte(t->e, (uint8_t)q);
            }
        }
        for (unsigned i = 0; i < n && !t->avx512; i++) {
            vx_rm(t->e, false, VX(VX_0F, VX_F3, 0, 0x6f), VX_128, (int)i, 0,
                  src_row(t, &b, i, 16 * (int32_t)h), 0, false, false);
        }
        for (unsigned i = 0; i < n && !t->avx512; i++) {
            /* vinserti128 ymm_i, ymm_i, m128, 1 */
            vx_rm(t->e, false, VX(VX_0F3A, VX_66, 0, 0x38), VX_256, (int)i, (int)i,
                  src_row(t, &b, n + i, 16 * (int32_t)h), 0, false, false);
            x86_byte(t->e, 1);
        }
        switch (es) {
        case 8:
            unpck(t, PUNPCKLQDQ, 8, 0, 1);
            unpck(t, PUNPCKHQDQ, 9, 0, 1);
            out[0] = 8, out[1] = 9;
            break;
        case 4:
            unpck(t, PUNPCKLDQ, 8, 0, 1);
            unpck(t, PUNPCKHDQ, 9, 0, 1);
            unpck(t, PUNPCKLDQ, 10, 2, 3);
            unpck(t, PUNPCKHDQ, 11, 2, 3);
            unpck(t, PUNPCKLQDQ, 0, 8, 10);
            unpck(t, PUNPCKHQDQ, 1, 8, 10);
            unpck(t, PUNPCKLQDQ, 2, 9, 11);
            unpck(t, PUNPCKHQDQ, 3, 9, 11);
            for (unsigned k = 0; k < 4; k++) {
                out[k] = (int)k;
            }
            break;
        default: /* 2: p in ymm8-15, q in ymm0-7, out in ymm8-15 */
            for (unsigned i = 0; i < 8; i += 2) {
                unpck(t, PUNPCKLWD, 8 + (int)i, (int)i, (int)i + 1);
                unpck(t, PUNPCKHWD, 9 + (int)i, (int)i, (int)i + 1);
            }
            for (unsigned g = 0; g < 8; g += 4) {
                unpck(t, PUNPCKLDQ, (int)g, 8 + (int)g, 10 + (int)g);
                unpck(t, PUNPCKHDQ, 1 + (int)g, 8 + (int)g, 10 + (int)g);
                unpck(t, PUNPCKLDQ, 2 + (int)g, 9 + (int)g, 11 + (int)g);
                unpck(t, PUNPCKHDQ, 3 + (int)g, 9 + (int)g, 11 + (int)g);
            }
            for (unsigned k = 0; k < 4; k++) {
                unpck(t, PUNPCKLQDQ, 8 + 2 * (int)k, (int)k, (int)k + 4);
                unpck(t, PUNPCKHQDQ, 9 + 2 * (int)k, (int)k, (int)k + 4);
                out[2 * k] = 8 + 2 * (int)k;
                out[2 * k + 1] = 9 + 2 * (int)k;
            }
            break;
        }
        for (unsigned k = 0; k < n; k++) {
            vx_rm(t->e, false, VX(VX_0F, VX_F3, 0, 0x7f), VX_256, out[k], 0,
                  dst_row(t, &b, h * n + k), 0, false, false);
        }
        for (unsigned k = 0; k < n && t->avx512; k++) {
            /* vextracti64x4 [dest row n + k], zmm, 1 */
            vx_rm(t->e, true, VX(VX_0F3A, VX_66, 1, 0x3b), VX_512, out[k], 0,
                  dst_row(t, &b, n + k), 0, false, false);
            x86_byte(t->e, 1);
        }
    }
    t->vreg++;
}

/* The runs as a grid of nbr block rows of nbc blocks (tcg/tile-move.h:
 * row R * c0, gm_off C * 32, tile_off R * @tile_row_step + C * 32 * c0);
 * false when they are not one. */
static bool block_grid(const TcgTileMove *m, unsigned *nbr, unsigned *nbc, int32_t *row_step)
{
    unsigned c0 = 32 / m->transpose_esize, nc = 0;

    while (nc < m->nruns && m->runs[nc].row == 0) {
        nc++;
    }
    if (nc == 0 || m->nruns % nc) {
        return false;
    }
    *nbc = nc;
    *nbr = m->nruns / nc;
    *row_step = *nbr > 1 ? (int32_t)m->runs[nc].tile_off - (int32_t)m->runs[0].tile_off : 0;
    for (unsigned i = 0; i < m->nruns; i++) {
        const TcgTileRun *r = &m->runs[i];
        unsigned R = i / nc, C = i % nc;

        if (r->len != 32 || r->row != R * c0 || r->gm_off != C * 32 ||
            (int32_t)r->tile_off !=
                (int32_t)m->runs[0].tile_off + (int32_t)R * *row_step + (int32_t)(C * 32 * c0)) {
            return false;
        }
    }
    return true;
}

/* All blocks: tcg/tile-move.h transpose_esize, after the GM pointer is
 * in TM_GM and the tile data in TM_TILE. */
static void transpose_blocks(TmEmit *t, const TcgTileMove *m, unsigned nbr, unsigned nbc,
                             int32_t row_step)
{
    X86Emitter *e = t->e;
    unsigned c0 = 32 / m->transpose_esize;
    size_t outer, inner, j;

    if (!m->stride_reg) {
        x86_movi(e, TM_STRIDE, m->row_bytes);
    }
    x86_mov_rr(e, TM_ROW, TM_GM);
    if (m->runs[0].tile_off) {
        x86_alu_ri(e, X86_ALU_ADD, TM_TILE, m->runs[0].tile_off);
    }
    x86_movi(e, TM_COUNT, nbr);
    outer = e->pos;
    x86_alu_rr(e, X86_ALU_XOR, TM_COL, TM_COL);
    inner = e->pos;
    transpose_block(t, m);
    x86_alu_ri(e, X86_ALU_ADD, TM_TILE, (int32_t)(32 * c0));
    x86_alu_ri(e, X86_ALU_ADD, TM_COL, 32);
    x86_alu_ri(e, X86_ALU_CMP, TM_COL, (int32_t)(32 * nbc));
    j = x86_jcc_rel32(e, X86_CC_B);
    x86_patch_rel32(e, j, inner);
    if (row_step != (int32_t)(32 * c0 * nbc)) {
        x86_alu_ri(e, X86_ALU_ADD, TM_TILE, row_step - (int32_t)(32 * c0 * nbc));
    }
    x86_imul_rri(e, TM_WALK, TM_STRIDE, (int32_t)c0);
    x86_alu_rr(e, X86_ALU_ADD, TM_ROW, TM_WALK);
    x86_alu_ri(e, X86_ALU_SUB, TM_COUNT, 1);
    j = x86_jcc_rel32(e, X86_CC_NE);
    x86_patch_rel32(e, j, outer);
}

/* The checks of tcg/tile-move.h steps 1-3. */
static void gen_checks(TmEmit *t, const TcgTileMove *m)
{
    X86Emitter *e = t->e;
    int32_t c = m->cache_off;

    x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_TS, X86_ENV_REG, m->env_tiles_off);
    x86_test_rr(e, TM_TS, TM_TS);
    tm_fail_if(t, X86_CC_E);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_R10, X86_ENV_REG, m->env_mem_off);
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_R10, TM_TS, X86_NO_REG, 0, c);
    tm_fail_if(t, X86_CC_NE);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, X86_R10, X86_R10, m->gen_off);
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_R10, TM_TS, X86_NO_REG, 0, c + 8);
    tm_fail_if(t, X86_CC_NE);
    if (m->stride_reg) {
        if (m->rows > 1 && m->store) {
            x86_alu_ri(e, X86_ALU_CMP, TM_STRIDE, (int32_t)m->row_bytes);
            tm_fail_if(t, X86_CC_B); /* overlapping rows: the helper raises */
        }
        x86_alu_ri(e, X86_ALU_CMP, TM_STRIDE, STRIDE_LIMIT);
        tm_fail_if(t, X86_CC_A);
        x86_imul_rri(e, X86_R10, TM_STRIDE, (int32_t)(m->rows - 1));
        x86_alu_ri(e, X86_ALU_ADD, X86_R10, (int32_t)m->row_bytes);
    } else {
        x86_movi(e, X86_R10, (uint64_t)m->rows * m->row_bytes);
    }
    x86_alu_rr(e, X86_ALU_ADD, X86_R10, TM_BASE); /* end */
    tm_fail_if(t, X86_CC_B);                      /* carry: wraps */
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, TM_BASE, TM_TS, X86_NO_REG, 0, c + 16);
    tm_fail_if(t, X86_CC_B);                      /* base < lo */
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_CMP) | X86_P_W, X86_R10, TM_TS, X86_NO_REG, 0, c + 24);
    tm_fail_if(t, X86_CC_A);                      /* end > hi */
    if (!m->store) {
        return;
    }
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_TILE, TM_TS, m->view_off); /* the slot */
    x86_modrm_mem(e, OPC_GRP1_EvIz, X86_ALU_CMP, TM_TILE, X86_NO_REG, 0, m->meta_bytes_off);
    x86_u32(e, m->tile_bytes);
    tm_fail_if(t, X86_CC_NE);
    if (m->meta_dim_off >= 0) {
        size_t other, zero;

        x86_modrm_mem(e, 0x80, X86_ALU_CMP, TM_TILE, X86_NO_REG, 0, m->meta_layout_off);
        x86_byte(e, m->meta_layout);
        other = x86_jcc_rel32(e, X86_CC_NE);
        x86_ld(e, OPC_MOVZWL, X86_R10, TM_TILE, m->meta_dim_off);
        x86_test_rr(e, X86_R10, X86_R10);
        zero = x86_jcc_rel32(e, X86_CC_E);
        x86_alu_ri(e, X86_ALU_CMP, X86_R10, m->meta_dim);
        tm_fail_if(t, X86_CC_NE);
        x86_patch_rel32(e, other, e->pos);
        x86_patch_rel32(e, zero, e->pos);
    }
}

/* Loads: the hand's spare slot -> TM_SLOT (kept for the commit), its
 * ring index -> TM_NEXT, its data -> TM_TILE. */
enum { TM_SLOT = X86_R8, TM_NEXT = X86_RDI, TM_TMP = X86_R9 };

static void push_slot(TmEmit *t, const TcgTileMove *m)
{
    X86Emitter *e = t->e;
    size_t keep;

    x86_ld(e, OPC_MOVZBL, TM_NEXT, TM_TS, m->head_off);
    x86_alu_ri(e, X86_ALU_ADD, TM_NEXT, 1);
    x86_alu_ri(e, X86_ALU_CMP, TM_NEXT, m->ring);
    keep = x86_jcc_rel32(e, X86_CC_B);
    x86_alu_rr(e, X86_ALU_XOR, TM_NEXT, TM_NEXT);
    x86_patch_rel32(e, keep, e->pos);
    x86_imul_rri(e, TM_SLOT, TM_NEXT, m->slot_size);
    x86_lea(e, TM_SLOT, TM_TS, TM_SLOT, 0, m->slot_off);
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_TILE, TM_SLOT, m->slot_data_off);
}

/* linx_tile_push_commit (hw/linx/tile-regs.c) with the meta constant. */
static void push_commit(TmEmit *t, const TcgTileMove *m)
{
    X86Emitter *e = t->e;

    for (unsigned k = 0; k < 2; k++) {
        x86_movi(e, TM_TMP, m->meta[k]);
        x86_st(e, OPC_MOV_EvGv | X86_P_W, TM_TMP, TM_SLOT, m->meta_off + 8 * (int32_t)k);
    }
    x86_st(e, OPC_MOV_EbGb | X86_P_BYTE_R, TM_NEXT, TM_TS, m->head_off);
    /* view[1..7] = view[0..6], view[0] = the slot (eight 8-byte views) */
    for (int k = 7; k > 0; k--) {
        x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_TMP, TM_TS, m->view_off + 8 * (k - 1));
        x86_st(e, OPC_MOV_EvGv | X86_P_W, TM_TMP, TM_TS, m->view_off + 8 * k);
    }
    x86_st(e, OPC_MOV_EvGv | X86_P_W, TM_SLOT, TM_TS, m->view_off);
    x86_modrm_mem(e, OPC_GRP1_EvIb | X86_P_W, X86_ALU_ADD, TM_TS, X86_NO_REG, 0, m->pushes_off);
    x86_byte(e, 1);
}

bool x86_gen_tile_move(X86Gen *g, const TcgTileMove *m, size_t *done)
{
    TmEmit t = { .e = &g->e, .avx512 = g->bs->tile_move_isa >= 2, .store = m->store };
    X86Emitter *e = &g->e;
    unsigned row = 0, nbr = 0, nbc = 0;
    int32_t row_step = 0;

    if (!g->bs->tile_move_isa || m->nruns == 0 || m->rows == 0 ||
        (m->transpose_esize != 0 && m->transpose_esize != 2 && m->transpose_esize != 4 &&
         m->transpose_esize != 8) ||
        (m->transpose_esize && !block_grid(m, &nbr, &nbc, &row_step)) ||
        m->nruns > TCG_TILE_MOVE_MAX_RUNS) {
        return false;
    }
    gen_checks(&t, m);
    /* Past the checks: nothing fails any more. */
    x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_GM, TM_TS, m->cache_off + 32);
    x86_modrm_mem(e, OPC_ALU_GvEv(X86_ALU_SUB) | X86_P_W, TM_BASE, TM_TS, X86_NO_REG, 0,
                  m->cache_off + 16);
    x86_alu_rr(e, X86_ALU_ADD, TM_GM, TM_BASE);
    if (m->store) {
        x86_ld(e, OPC_MOV_GvEv | X86_P_W, TM_TILE, TM_TILE, m->slot_data_off);
    } else {
        push_slot(&t, m);
    }
    t.gm_base = TM_GM;
    if (m->transpose_esize) {
        transpose_blocks(&t, m, nbr, nbc, row_step);
    } else if (m->stride_reg) {
        x86_mov_rr(e, TM_ROW, TM_GM);
        t.gm_base = TM_ROW;
    }
    for (uint32_t i = 0; i < m->nruns && !m->transpose_esize; i++) {
        const TcgTileRun *r = &m->runs[i];
        int32_t gdisp;

        if (m->stride_reg) {
            for (; row < r->row; row++) {
                x86_alu_rr(e, X86_ALU_ADD, TM_ROW, TM_STRIDE);
            }
            gdisp = r->gm_off;
        } else {
            gdisp = (int32_t)(r->row * m->row_bytes + r->gm_off);
        }
        if (t.avx512 && r->len == 32 && i + 1 < m->nruns && m->runs[i + 1].len == 32 &&
            m->runs[i + 1].row == r->row && m->runs[i + 1].gm_off == r->gm_off + 32) {
            if (m->store) {
                pair_store(&t, gdisp, r->tile_off, m->runs[i + 1].tile_off);
            } else {
                pair_load(&t, gdisp, r->tile_off, m->runs[i + 1].tile_off);
            }
            i++;
            continue;
        }
        if (m->store) {
            copy_run(&t, r->len, t.gm_base, gdisp, TM_TILE, r->tile_off);
        } else {
            copy_run(&t, r->len, TM_TILE, r->tile_off, t.gm_base, gdisp);
        }
    }
    if (!m->store) {
        push_commit(&t, m);
    }
    if (t.vreg) {
        vx_vzeroupper(e);
    }
    *done = x86_jmp_rel32(e);
    for (unsigned k = 0; k < t.nslow; k++) {
        x86_patch_rel32(e, t.slow[k], e->pos);
    }
    g->bs->tile_moves++;
    return true;
}
