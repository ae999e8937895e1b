/*
 * x86-64 instruction encoder for the backend.
 *
 * Knows instruction encodings and nothing about the IR.  An X86Emitter
 * appends bytes to the read-write view of the code buffer; every append
 * checks space, and once the buffer is full the emitter keeps counting
 * bytes without writing (overflow is set) so the caller can abandon the
 * TB.  rx_base is the executable address of buf[0]: relative branches and
 * calls are computed against it (W^X double mapping, tcg/code-buffer.h).
 *
 * Opcodes are named after the Intel manual's operand notation, as QEMU's
 * tcg/i386 does: OPC_MOV_GvEv is "MOV Gv, Ev" (reg <- r/m), OPC_MOV_EvGv
 * is "MOV Ev, Gv" (r/m <- reg).  The low 8 bits of an OPC_ value are the
 * opcode byte; the X86_P_ bits above them select the escape bytes,
 * mandatory prefixes and REX.W.
 *
 * Usage:
 *   X86Emitter e = { .buf = rw, .rx_base = (uintptr_t)rx, .cap = room };
 *   x86_alu_rr(&e, X86_ALU_ADD, X86_RAX, X86_RBX);      // add rax, rbx
 *   x86_ld(&e, OPC_MOV_GvEv | X86_P_W, X86_RCX, X86_RBP, 16);
 *   if (e.overflow) { ... abandon ... }
 */
#ifndef LINX_TCG_X86_64_EMIT_H
#define LINX_TCG_X86_64_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum X86Reg {
    X86_RAX = 0,
    X86_RCX = 1,
    X86_RDX = 2,
    X86_RBX = 3,
    X86_RSP = 4,
    X86_RBP = 5,
    X86_RSI = 6,
    X86_RDI = 7,
    X86_R8 = 8,
    X86_R9 = 9,
    X86_R10 = 10,
    X86_R11 = 11,
    X86_R12 = 12,
    X86_R13 = 13,
    X86_R14 = 14,
    X86_R15 = 15,
    X86_NB_REGS = 16,
    X86_NO_REG = 0xff,
} X86Reg;

/* Condition codes (the low nibble of Jcc/SETcc/CMOVcc). */
typedef enum X86Cond {
    X86_CC_O = 0x0,
    X86_CC_NO = 0x1,
    X86_CC_B = 0x2,  /* unsigned < */
    X86_CC_AE = 0x3, /* unsigned >= */
    X86_CC_E = 0x4,
    X86_CC_NE = 0x5,
    X86_CC_BE = 0x6, /* unsigned <= */
    X86_CC_A = 0x7,  /* unsigned > */
    X86_CC_S = 0x8,
    X86_CC_NS = 0x9,
    X86_CC_P = 0xa,
    X86_CC_NP = 0xb,
    X86_CC_L = 0xc,  /* signed < */
    X86_CC_GE = 0xd, /* signed >= */
    X86_CC_LE = 0xe, /* signed <= */
    X86_CC_G = 0xf,  /* signed > */
} X86Cond;

/* Opcode modifiers (bits above the opcode byte). */
#define X86_P_0F 0x100        /* 0x0F escape */
#define X86_P_0F38 0x200      /* 0x0F 0x38 escape */
#define X86_P_0F3A 0x400      /* 0x0F 0x3A escape */
#define X86_P_66 0x800        /* operand-size prefix (16-bit operand) */
#define X86_P_W 0x1000        /* REX.W: 64-bit operand */
#define X86_P_F3 0x2000       /* mandatory F3 prefix */
#define X86_P_F2 0x4000       /* mandatory F2 prefix */
#define X86_P_BYTE_R 0x8000   /* ModRM.reg is a byte register */
#define X86_P_BYTE_RM 0x10000 /* ModRM.rm is a byte register */

/* One-byte opcodes. */
#define OPC_ALU_EvGv(aluop) (0x01 + ((aluop) << 3)) /* ADD..CMP Ev, Gv */
#define OPC_ALU_GvEv(aluop) (0x03 + ((aluop) << 3)) /* ADD..CMP Gv, Ev */
#define OPC_MOVSXD_GvEd 0x63       /* MOVSXD Gv, Ed */
#define OPC_PUSH_Iz 0x68
#define OPC_IMUL_GvEvIz 0x69
#define OPC_IMUL_GvEvIb 0x6b
#define OPC_JCC_short 0x70         /* + cc, rel8 */
#define OPC_GRP1_EvIz 0x81         /* ALU Ev, imm32; /aluop */
#define OPC_GRP1_EvIb 0x83         /* ALU Ev, imm8 sign-extended; /aluop */
#define OPC_TEST_EvGv 0x85
#define OPC_XCHG_EvGv 0x87
#define OPC_MOV_EbGb 0x88
#define OPC_MOV_EvGv 0x89
#define OPC_MOV_GvEv 0x8b
#define OPC_LEA_GvM 0x8d
#define OPC_POP_Ev 0x8f            /* /0 */
#define OPC_NOP 0x90
#define OPC_MOV_Iv 0xb8            /* + reg: MOV r, imm32 (imm64 with REX.W) */
#define OPC_SHIFT_EvIb 0xc1        /* /ext, imm8 */
#define OPC_RET 0xc3
#define OPC_MOV_EbIb 0xc6          /* /0 */
#define OPC_MOV_EvIz 0xc7          /* /0 */
#define OPC_SHIFT_Ev1 0xd1         /* /ext, count 1 */
#define OPC_SHIFT_EvCL 0xd3        /* /ext, count in CL */
#define OPC_CALL_Jz 0xe8
#define OPC_JMP_Jz 0xe9
#define OPC_JMP_short 0xeb
#define OPC_GRP3_Ev 0xf7           /* /0 TEST Iz, /2 NOT, /3 NEG, /4 MUL, /5 IMUL */
#define OPC_GRP5_Ev 0xff           /* /2 CALL, /4 JMP, /6 PUSH */
#define OPC_PUSH_r 0x50            /* + reg */
#define OPC_POP_r 0x58             /* + reg */

/* Two-byte (0F) opcodes. */
#define OPC_NOPL_Ev (0x1f | X86_P_0F)   /* multi-byte NOP, /0 */
#define OPC_CMOVCC (0x40 | X86_P_0F)    /* + cc: CMOVcc Gv, Ev */
#define OPC_JCC_long (0x80 | X86_P_0F)  /* + cc: Jcc rel32 */
#define OPC_SETCC (0x90 | X86_P_0F)     /* + cc: SETcc Eb */
#define OPC_IMUL_GvEv (0xaf | X86_P_0F)
#define OPC_MOVZBL (0xb6 | X86_P_0F)    /* MOVZX Gv, Eb */
#define OPC_MOVZWL (0xb7 | X86_P_0F)    /* MOVZX Gv, Ew */
#define OPC_POPCNT (0xb8 | X86_P_0F | X86_P_F3)
#define OPC_BSF (0xbc | X86_P_0F)
#define OPC_TZCNT (0xbc | X86_P_0F | X86_P_F3)
#define OPC_BSR (0xbd | X86_P_0F)
#define OPC_LZCNT (0xbd | X86_P_0F | X86_P_F3)
#define OPC_MOVSBQ (0xbe | X86_P_0F)    /* MOVSX Gv, Eb */
#define OPC_MOVSWQ (0xbf | X86_P_0F)    /* MOVSX Gv, Ew */
#define OPC_BSWAP (0xc8 | X86_P_0F)     /* + reg */

/* VEX-encoded BMI1/BMI2 (always 64-bit: VEX.W1). */
#define OPC_ANDN (0xf2 | X86_P_0F38)            /* ANDN Gy, By, Ey: Gy = ~By & Ey */
#define OPC_SHLX (0xf7 | X86_P_0F38 | X86_P_66) /* SHLX Gy, Ey, By */
#define OPC_SARX (0xf7 | X86_P_0F38 | X86_P_F3)
#define OPC_SHRX (0xf7 | X86_P_0F38 | X86_P_F2)
#define OPC_RORX (0xf0 | X86_P_0F3A | X86_P_F2) /* RORX Gy, Ey, Ib (VEX.vvvv unused) */

/* ALU group (ModRM.reg of OPC_GRP1, and OPC_ALU_*). */
typedef enum X86AluOp {
    X86_ALU_ADD = 0,
    X86_ALU_OR = 1,
    X86_ALU_ADC = 2,
    X86_ALU_SBB = 3,
    X86_ALU_AND = 4,
    X86_ALU_SUB = 5,
    X86_ALU_XOR = 6,
    X86_ALU_CMP = 7,
} X86AluOp;

/* Shift group (ModRM.reg of OPC_SHIFT_*). */
typedef enum X86ShiftOp {
    X86_SHIFT_ROL = 0,
    X86_SHIFT_ROR = 1,
    X86_SHIFT_SHL = 4,
    X86_SHIFT_SHR = 5,
    X86_SHIFT_SAR = 7,
} X86ShiftOp;

/* ModRM.reg extensions of OPC_GRP3_Ev and OPC_GRP5_Ev. */
enum {
    X86_EXT3_TEST = 0,
    X86_EXT3_NOT = 2,
    X86_EXT3_NEG = 3,
    X86_EXT3_MUL = 4,
    X86_EXT3_IMUL = 5,
    X86_EXT5_CALL = 2,
    X86_EXT5_JMP = 4,
    X86_EXT5_PUSH = 6,
};

/* Length of the patchable direct jump (E9 rel32). */
#define X86_JMP_REL32_SIZE 5

typedef struct X86Emitter {
    uint8_t *buf;      /* read-write view of the first byte */
    uintptr_t rx_base; /* executable address of buf[0] */
    size_t pos;        /* bytes emitted (keeps counting after overflow) */
    size_t cap;        /* bytes available at buf */
    bool overflow;
} X86Emitter;

static inline bool x86_fits_s8(int64_t v)
{
    return v == (int8_t)v;
}

static inline bool x86_fits_s32(int64_t v)
{
    return v == (int32_t)v;
}

static inline bool x86_fits_u32(uint64_t v)
{
    return v == (uint32_t)v;
}

/* Executable address of the next byte. */
static inline uintptr_t x86_rx_here(const X86Emitter *e)
{
    return e->rx_base + e->pos;
}

/* Raw bytes (inline: every instruction goes through here). */
static inline void x86_byte(X86Emitter *e, uint8_t b)
{
    if (e->pos < e->cap) {
        e->buf[e->pos] = b;
    } else {
        e->overflow = true;
    }
    e->pos++;
}

static inline void x86_u32(X86Emitter *e, uint32_t v)
{
    if (e->pos + 4 <= e->cap) {
        e->buf[e->pos] = (uint8_t)v;
        e->buf[e->pos + 1] = (uint8_t)(v >> 8);
        e->buf[e->pos + 2] = (uint8_t)(v >> 16);
        e->buf[e->pos + 3] = (uint8_t)(v >> 24);
    } else {
        e->overflow = true;
    }
    e->pos += 4;
}

void x86_u64(X86Emitter *e, uint64_t v);
/* Overwrite the 32-bit value at @pos (fixups); ignored past the end. */
void x86_patch_u32(X86Emitter *e, size_t pos, uint32_t v);
/* Multi-byte NOPs (Intel's recommended sequences) until pos % @align == @phase. */
void x86_align(X86Emitter *e, unsigned align, unsigned phase);

/* Generic forms: prefixes, REX, escapes, opcode, ModRM (and SIB/disp). */
void x86_opc(X86Emitter *e, int opc, int r, int rm, int index);
void x86_modrm_rr(X86Emitter *e, int opc, int r, int rm);
/* r/m = [base + index << shift + disp]; index X86_NO_REG for none. */
void x86_modrm_mem(X86Emitter *e, int opc, int r, int base, int index, int shift,
                   int32_t disp);
/* VEX.L0 encoding with W = 1: opcode, ModRM.reg = @r, VEX.vvvv = @v. */
void x86_vex_rr(X86Emitter *e, int opc, int r, int v, int rm);

/* Common instructions (64-bit operand unless the name says otherwise). */
void x86_mov_rr(X86Emitter *e, int d, int s);
void x86_mov_rr32(X86Emitter *e, int d, int s);
/* d = v, shortest encoding that leaves the flags alone. */
void x86_movi(X86Emitter *e, int d, uint64_t v);
void x86_alu_rr(X86Emitter *e, X86AluOp op, int d, int s);
void x86_alu_ri(X86Emitter *e, X86AluOp op, int d, int32_t imm);
void x86_test_rr(X86Emitter *e, int a, int b);
void x86_test_ri(X86Emitter *e, int a, int32_t imm);
void x86_shift_ri(X86Emitter *e, X86ShiftOp op, int d, unsigned count);
/* rorx d, s, count (BMI2): d = s rotated right, s unchanged, flags kept. */
void x86_rorx(X86Emitter *e, int d, int s, unsigned count);
void x86_shift_cl(X86Emitter *e, X86ShiftOp op, int d);
void x86_grp3(X86Emitter *e, int ext, int rm);
void x86_lea(X86Emitter *e, int d, int base, int index, int shift, int32_t disp);
void x86_imul_rr(X86Emitter *e, int d, int s);
void x86_imul_rri(X86Emitter *e, int d, int s, int32_t imm);
void x86_setcc(X86Emitter *e, X86Cond cc, int d8);
void x86_cmov(X86Emitter *e, X86Cond cc, int d, int s);
void x86_xchg(X86Emitter *e, int a, int b);
void x86_bswap(X86Emitter *e, int d);
void x86_push(X86Emitter *e, int r);
void x86_pop(X86Emitter *e, int r);
void x86_ret(X86Emitter *e);

/* Memory: @opc is OPC_MOV_GvEv, OPC_MOVZBL, ... with X86_P_W as needed. */
void x86_ld(X86Emitter *e, int opc, int d, int base, int32_t disp);
void x86_st(X86Emitter *e, int opc, int s, int base, int32_t disp);
/* Store the immediate @v (1, 2, 4 or 8 bytes; 8 sign-extends an imm32). */
void x86_sti(X86Emitter *e, unsigned size, int base, int32_t disp, int32_t v);
/* Store a full 64-bit constant without a register (two 32-bit stores). */
void x86_sti64(X86Emitter *e, int base, int32_t disp, uint64_t v);

/* Control flow.  The *_rel32 forms return the position of the rel32 field
 * for x86_patch_rel32().  Targets are executable addresses. */
size_t x86_jcc_rel32(X86Emitter *e, X86Cond cc);
size_t x86_jmp_rel32(X86Emitter *e);
void x86_patch_rel32(X86Emitter *e, size_t field_pos, size_t target_pos);
void x86_jmp_to(X86Emitter *e, uintptr_t target);
void x86_jmp_reg(X86Emitter *e, int r);
/* Call @target: rel32 when in reach, else through @scratch (movabs). */
void x86_call_to(X86Emitter *e, uintptr_t target, int scratch);

#endif /* LINX_TCG_X86_64_EMIT_H */
