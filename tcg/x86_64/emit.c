/*
 * x86-64 instruction encoder (see emit.h).
 *
 * Encoding layout of one instruction, in order:
 *   [66] [F2|F3] [REX] [0F [38|3A]] opcode [ModRM [SIB] [disp8|disp32]] [imm]
 * REX = 0100WRXB: W selects 64-bit operands, R/X/B extend ModRM.reg,
 * SIB.index and ModRM.rm/SIB.base to r8-r15.  Byte registers 4-7 mean
 * SPL/BPL/SIL/DIL only when a REX prefix is present (AH/CH/DH/BH without
 * one), so byte operands in those registers force an empty REX (0x40).
 */
#include "emit.h"

#include <string.h>

/* ModRM.mod values. */
#define MOD_INDIRECT 0x00 /* [base] */
#define MOD_DISP8 0x40    /* [base + disp8] */
#define MOD_DISP32 0x80   /* [base + disp32] */
#define MOD_REG 0xc0      /* register direct */

#define REX_BASE 0x40
#define REX_W 0x08
#define REX_R 0x04
#define REX_X 0x02
#define REX_B 0x01

/* ModRM.rm / SIB.base value 4 means "a SIB byte follows"; SIB.index 4
 * means "no index". */
#define RM_SIB 4
#define SIB_NO_INDEX 4
/* ModRM.rm 5 with mod 00 is RIP-relative, so [rbp]/[r13] need a disp8 0. */
#define RM_RBP_LIKE 5

void x86_u64(X86Emitter *e, uint64_t v)
{
    x86_u32(e, (uint32_t)v);
    x86_u32(e, (uint32_t)(v >> 32));
}

void x86_patch_u32(X86Emitter *e, size_t pos, uint32_t v)
{
    if (pos + 4 <= e->cap) {
        memcpy(e->buf + pos, &v, 4);
    }
}

/* Intel SDM vol. 2B, NOP: recommended multi-byte sequences. */
static const uint8_t nop_seqs[9][9] = {
    { 0 },
    { 0x90 },
    { 0x66, 0x90 },
    { 0x0f, 0x1f, 0x00 },
    { 0x0f, 0x1f, 0x40, 0x00 },
    { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

void x86_align(X86Emitter *e, unsigned align, unsigned phase)
{
    unsigned need = (unsigned)((phase + align - (e->pos % align)) % align);

    while (need > 0) {
        unsigned n = need > 8 ? 8 : need;
        for (unsigned i = 0; i < n; i++) {
            x86_byte(e, nop_seqs[n][i]);
        }
        need -= n;
    }
}

/* Prefixes, REX, escapes and opcode (at most 7 bytes) at @p; returns the
 * end.  Every instruction starts here: the callers below write a whole
 * instruction with one capacity check (translation cost,
 * docs/performance.md). */
static inline uint8_t *put_opc(uint8_t *p, int opc, int r, int rm, int index)
{
    int rex = 0;

    if (opc & X86_P_66) {
        *p++ = 0x66;
    }
    if (opc & X86_P_F3) {
        *p++ = 0xf3;
    } else if (opc & X86_P_F2) {
        *p++ = 0xf2;
    }
    rex |= (opc & X86_P_W) ? REX_W : 0;
    rex |= (r & 8) ? REX_R : 0;
    rex |= (index != X86_NO_REG && (index & 8)) ? REX_X : 0;
    rex |= (rm & 8) ? REX_B : 0;
    /* SPL/BPL/SIL/DIL need a REX prefix, even an empty one. */
    if (((opc & X86_P_BYTE_R) && r >= 4) || ((opc & X86_P_BYTE_RM) && rm >= 4)) {
        rex |= REX_BASE;
    }
    if (rex) {
        *p++ = (uint8_t)(REX_BASE | rex);
    }
    if (opc & (X86_P_0F | X86_P_0F38 | X86_P_0F3A)) {
        *p++ = 0x0f;
        if (opc & X86_P_0F38) {
            *p++ = 0x38;
        } else if (opc & X86_P_0F3A) {
            *p++ = 0x3a;
        }
    }
    *p++ = (uint8_t)opc;
    return p;
}

/* ModRM [SIB] [disp8|disp32] for [base + index << shift + disp] at @p
 * (at most 6 bytes); returns the end. */
static inline uint8_t *put_modrm_mem(uint8_t *p, int r, int base, int index, int shift,
                                     int32_t disp)
{
    int mod;

    /* [rbp]/[r13] have no mod-00 form (that slot is RIP-relative): use disp8. */
    if (disp == 0 && (base & 7) != RM_RBP_LIKE) {
        mod = MOD_INDIRECT;
    } else if (x86_fits_s8(disp)) {
        mod = MOD_DISP8;
    } else {
        mod = MOD_DISP32;
    }
    if (index == X86_NO_REG && (base & 7) != RM_SIB) {
        *p++ = (uint8_t)(mod | ((r & 7) << 3) | (base & 7));
    } else {
        /* rsp/r12 as base, or an index: ModRM.rm = 100 and a SIB byte
         * (scale << 6 | index << 3 | base); index 100 = none, so rsp can
         * never be an index. */
        int idx = index == X86_NO_REG ? SIB_NO_INDEX : (index & 7);
        *p++ = (uint8_t)(mod | ((r & 7) << 3) | RM_SIB);
        *p++ = (uint8_t)((shift << 6) | (idx << 3) | (base & 7));
    }
    if (mod == MOD_DISP8) {
        *p++ = (uint8_t)disp;
    } else if (mod == MOD_DISP32) {
        uint32_t v = (uint32_t)disp;
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
        p += 4;
    }
    return p;
}

/* Longest instruction put_opc + put_modrm_mem write (x86 allows 15). */
#define X86_MAX_PUT 15

/* Room for a whole instruction at pos: write it in place.  Otherwise the
 * bytes go one by one (x86_byte: those that fit, the position counts on). */
static inline bool room_for_insn(const X86Emitter *e)
{
    return e->pos + X86_MAX_PUT <= e->cap;
}

static void put_slow(X86Emitter *e, const uint8_t *b, const uint8_t *end)
{
    while (b < end) {
        x86_byte(e, *b++);
    }
}

void x86_opc(X86Emitter *e, int opc, int r, int rm, int index)
{
    uint8_t tmp[X86_MAX_PUT];

    if (room_for_insn(e)) {
        uint8_t *p = e->buf + e->pos;
        e->pos += (size_t)(put_opc(p, opc, r, rm, index) - p);
        return;
    }
    put_slow(e, tmp, put_opc(tmp, opc, r, rm, index));
}

void x86_modrm_rr(X86Emitter *e, int opc, int r, int rm)
{
    uint8_t tmp[X86_MAX_PUT];
    uint8_t *p = room_for_insn(e) ? e->buf + e->pos : tmp;
    uint8_t *end = put_opc(p, opc, r, rm, X86_NO_REG);

    *end++ = (uint8_t)(MOD_REG | ((r & 7) << 3) | (rm & 7));
    if (p == tmp) {
        put_slow(e, tmp, end);
    } else {
        e->pos += (size_t)(end - p);
    }
}

void x86_modrm_mem(X86Emitter *e, int opc, int r, int base, int index, int shift,
                   int32_t disp)
{
    uint8_t tmp[X86_MAX_PUT];
    uint8_t *p = room_for_insn(e) ? e->buf + e->pos : tmp;
    uint8_t *end = put_modrm_mem(put_opc(p, opc, r, base, index), r, base, index, shift, disp);

    if (p == tmp) {
        put_slow(e, tmp, end);
    } else {
        e->pos += (size_t)(end - p);
    }
}

void x86_vex_rr(X86Emitter *e, int opc, int r, int v, int rm)
{
    int mmmmm = (opc & X86_P_0F3A) ? 3 : (opc & X86_P_0F38) ? 2 : 1;
    int pp = (opc & X86_P_66) ? 1 : (opc & X86_P_F3) ? 2 : (opc & X86_P_F2) ? 3 : 0;

    /* Three-byte VEX: C4, then ~R ~X ~B mmmmm, then W ~vvvv L pp. */
    x86_byte(e, 0xc4);
    x86_byte(e, (uint8_t)(((r & 8) ? 0 : 0x80) | 0x40 | ((rm & 8) ? 0 : 0x20) | mmmmm));
    x86_byte(e, (uint8_t)(0x80 | ((~v & 15) << 3) | pp));
    x86_byte(e, (uint8_t)opc);
    x86_byte(e, (uint8_t)(MOD_REG | ((r & 7) << 3) | (rm & 7)));
}

void x86_mov_rr(X86Emitter *e, int d, int s)
{
    if (d != s) {
        x86_modrm_rr(e, OPC_MOV_GvEv | X86_P_W, d, s);
    }
}

void x86_mov_rr32(X86Emitter *e, int d, int s)
{
    /* Writing a 32-bit register zero-extends into the full register. */
    x86_modrm_rr(e, OPC_MOV_GvEv, d, s);
}

void x86_movi(X86Emitter *e, int d, uint64_t v)
{
    if (x86_fits_u32(v)) {
        /* B8+r id: the 32-bit move zero-extends (5 bytes, 6 with REX.B). */
        x86_opc(e, OPC_MOV_Iv + (d & 7), 0, d, X86_NO_REG);
        x86_u32(e, (uint32_t)v);
    } else if (x86_fits_s32((int64_t)v)) {
        /* REX.W C7 /0 id: sign-extended imm32. */
        x86_modrm_rr(e, OPC_MOV_EvIz | X86_P_W, 0, d);
        x86_u32(e, (uint32_t)v);
    } else {
        /* REX.W B8+r io: movabs. */
        x86_opc(e, (OPC_MOV_Iv + (d & 7)) | X86_P_W, 0, d, X86_NO_REG);
        x86_u64(e, v);
    }
}

void x86_alu_rr(X86Emitter *e, X86AluOp op, int d, int s)
{
    x86_modrm_rr(e, OPC_ALU_GvEv(op) | X86_P_W, d, s);
}

void x86_alu_ri(X86Emitter *e, X86AluOp op, int d, int32_t imm)
{
    if (x86_fits_s8(imm)) {
        x86_modrm_rr(e, OPC_GRP1_EvIb | X86_P_W, op, d);
        x86_byte(e, (uint8_t)imm);
    } else {
        x86_modrm_rr(e, OPC_GRP1_EvIz | X86_P_W, op, d);
        x86_u32(e, (uint32_t)imm);
    }
}

void x86_test_rr(X86Emitter *e, int a, int b)
{
    x86_modrm_rr(e, OPC_TEST_EvGv | X86_P_W, b, a);
}

void x86_test_ri(X86Emitter *e, int a, int32_t imm)
{
    if (imm >= 0 && imm <= 0xff && a < 4) {
        /* test al/cl/dl/bl, imm8: F6 /0 ib (no REX needed) */
        x86_modrm_rr(e, 0xf6, X86_EXT3_TEST, a);
        x86_byte(e, (uint8_t)imm);
    } else if (imm >= 0) {
        /* A non-negative imm32 tests only the low 32 bits: the 32-bit form suffices. */
        x86_modrm_rr(e, OPC_GRP3_Ev, X86_EXT3_TEST, a);
        x86_u32(e, (uint32_t)imm);
    } else {
        x86_modrm_rr(e, OPC_GRP3_Ev | X86_P_W, X86_EXT3_TEST, a);
        x86_u32(e, (uint32_t)imm);
    }
}

void x86_rorx(X86Emitter *e, int d, int s, unsigned count)
{
    /* VEX.LZ.F2.0F3A.W1 F0 /r ib; vvvv = 1111 (register 0 inverted). */
    x86_vex_rr(e, OPC_RORX, d, 0, s);
    x86_byte(e, (uint8_t)(count & 63));
}

void x86_shift_ri(X86Emitter *e, X86ShiftOp op, int d, unsigned count)
{
    if (count == 1) {
        x86_modrm_rr(e, OPC_SHIFT_Ev1 | X86_P_W, op, d);
    } else {
        x86_modrm_rr(e, OPC_SHIFT_EvIb | X86_P_W, op, d);
        x86_byte(e, (uint8_t)count);
    }
}

void x86_shift_cl(X86Emitter *e, X86ShiftOp op, int d)
{
    x86_modrm_rr(e, OPC_SHIFT_EvCL | X86_P_W, op, d);
}

void x86_grp3(X86Emitter *e, int ext, int rm)
{
    x86_modrm_rr(e, OPC_GRP3_Ev | X86_P_W, ext, rm);
}

void x86_lea(X86Emitter *e, int d, int base, int index, int shift, int32_t disp)
{
    x86_modrm_mem(e, OPC_LEA_GvM | X86_P_W, d, base, index, shift, disp);
}

void x86_imul_rr(X86Emitter *e, int d, int s)
{
    x86_modrm_rr(e, OPC_IMUL_GvEv | X86_P_W, d, s);
}

void x86_imul_rri(X86Emitter *e, int d, int s, int32_t imm)
{
    if (x86_fits_s8(imm)) {
        x86_modrm_rr(e, OPC_IMUL_GvEvIb | X86_P_W, d, s);
        x86_byte(e, (uint8_t)imm);
    } else {
        x86_modrm_rr(e, OPC_IMUL_GvEvIz | X86_P_W, d, s);
        x86_u32(e, (uint32_t)imm);
    }
}

void x86_setcc(X86Emitter *e, X86Cond cc, int d8)
{
    x86_modrm_rr(e, (OPC_SETCC + cc) | X86_P_BYTE_RM, 0, d8);
}

void x86_cmov(X86Emitter *e, X86Cond cc, int d, int s)
{
    x86_modrm_rr(e, (OPC_CMOVCC + cc) | X86_P_W, d, s);
}

void x86_xchg(X86Emitter *e, int a, int b)
{
    x86_modrm_rr(e, OPC_XCHG_EvGv | X86_P_W, a, b);
}

void x86_bswap(X86Emitter *e, int d)
{
    x86_opc(e, (OPC_BSWAP + (d & 7)) | X86_P_W, 0, d, X86_NO_REG);
}

void x86_push(X86Emitter *e, int r)
{
    x86_opc(e, OPC_PUSH_r + (r & 7), 0, r, X86_NO_REG);
}

void x86_pop(X86Emitter *e, int r)
{
    x86_opc(e, OPC_POP_r + (r & 7), 0, r, X86_NO_REG);
}

void x86_ret(X86Emitter *e)
{
    x86_byte(e, OPC_RET);
}

void x86_ld(X86Emitter *e, int opc, int d, int base, int32_t disp)
{
    x86_modrm_mem(e, opc, d, base, X86_NO_REG, 0, disp);
}

void x86_st(X86Emitter *e, int opc, int s, int base, int32_t disp)
{
    x86_modrm_mem(e, opc, s, base, X86_NO_REG, 0, disp);
}

void x86_sti(X86Emitter *e, unsigned size, int base, int32_t disp, int32_t v)
{
    switch (size) {
    case 1:
        x86_modrm_mem(e, OPC_MOV_EbIb, 0, base, X86_NO_REG, 0, disp);
        x86_byte(e, (uint8_t)v);
        break;
    case 2:
        x86_modrm_mem(e, OPC_MOV_EvIz | X86_P_66, 0, base, X86_NO_REG, 0, disp);
        x86_byte(e, (uint8_t)v);
        x86_byte(e, (uint8_t)(v >> 8));
        break;
    case 4:
        x86_modrm_mem(e, OPC_MOV_EvIz, 0, base, X86_NO_REG, 0, disp);
        x86_u32(e, (uint32_t)v);
        break;
    default:
        x86_modrm_mem(e, OPC_MOV_EvIz | X86_P_W, 0, base, X86_NO_REG, 0, disp);
        x86_u32(e, (uint32_t)v);
        break;
    }
}

void x86_sti64(X86Emitter *e, int base, int32_t disp, uint64_t v)
{
    if (x86_fits_s32((int64_t)v)) {
        x86_sti(e, 8, base, disp, (int32_t)v);
    } else {
        x86_sti(e, 4, base, disp, (int32_t)(uint32_t)v);
        x86_sti(e, 4, base, disp + 4, (int32_t)(uint32_t)(v >> 32));
    }
}

size_t x86_jcc_rel32(X86Emitter *e, X86Cond cc)
{
    x86_opc(e, OPC_JCC_long + cc, 0, 0, X86_NO_REG);
    size_t field = e->pos;
    x86_u32(e, 0);
    return field;
}

size_t x86_jmp_rel32(X86Emitter *e)
{
    x86_byte(e, OPC_JMP_Jz);
    size_t field = e->pos;
    x86_u32(e, 0);
    return field;
}

void x86_patch_rel32(X86Emitter *e, size_t field_pos, size_t target_pos)
{
    /* rel32 counts from the end of the 4-byte field. */
    x86_patch_u32(e, field_pos, (uint32_t)(int32_t)((int64_t)target_pos - (int64_t)(field_pos + 4)));
}

static bool rel32_reaches(const X86Emitter *e, size_t insn_len, uintptr_t target)
{
    int64_t disp = (int64_t)(target - (x86_rx_here(e) + insn_len));

    return x86_fits_s32(disp);
}

void x86_jmp_to(X86Emitter *e, uintptr_t target)
{
    if (rel32_reaches(e, X86_JMP_REL32_SIZE, target)) {
        x86_byte(e, OPC_JMP_Jz);
        x86_u32(e, (uint32_t)(target - (x86_rx_here(e) + 4)));
    } else {
        /* Never needed inside one code buffer; kept for completeness:
         * jmp [rip+0]; .quad target */
        x86_byte(e, OPC_GRP5_Ev);
        x86_byte(e, (uint8_t)(MOD_INDIRECT | (X86_EXT5_JMP << 3) | RM_RBP_LIKE));
        x86_u32(e, 0);
        x86_u64(e, target);
    }
}

void x86_jmp_reg(X86Emitter *e, int r)
{
    x86_modrm_rr(e, OPC_GRP5_Ev, X86_EXT5_JMP, r);
}

void x86_call_to(X86Emitter *e, uintptr_t target, int scratch)
{
    if (rel32_reaches(e, X86_JMP_REL32_SIZE, target)) {
        x86_byte(e, OPC_CALL_Jz);
        x86_u32(e, (uint32_t)(target - (x86_rx_here(e) + 4)));
    } else {
        x86_movi(e, scratch, target);
        x86_modrm_rr(e, OPC_GRP5_Ev, X86_EXT5_CALL, scratch);
    }
}
