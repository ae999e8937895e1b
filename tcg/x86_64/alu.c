/*
 * x86-64 code for the IR's arithmetic, logic, shift, compare and
 * extension ops (mov .. ext32u in tcg/ir-ops.h).
 *
 * Every op follows the same steps: load the inputs (constants that fit a
 * sign-extended imm32 stay immediates), choose the output register
 * (preferably the register of an input that dies here, so two-operand
 * x86 forms need no copy), emit, bind the output.  Flags are only live
 * between a compare and the SETcc/CMOVcc/Jcc that reads it; register
 * allocator moves, loads and spills in between never touch the flags
 * (they are MOVs).
 *
 * Choices: add uses LEA when the output is a new register; and with
 * 0xff/0xffff/0xffffffff becomes a zero-extension; multiplies by a
 * constant use the three-operand IMUL; high multiplies use one-operand
 * MUL/IMUL (rdx:rax); variable shifts use SHLX/SHRX/SARX when the host has
 * BMI2, else the count goes to CL; clz/ctz/ctpop use LZCNT/TZCNT/POPCNT
 * when cpuid reports them, else BSR/BSF with a CMOV for the zero input
 * (64, as the IR defines) and a SWAR bit count.
 */
#include <stdlib.h>

#include "x86-gen.h"

static const uint8_t cond_to_x86[] = {
    [IR_COND_EQ] = X86_CC_E,   [IR_COND_NE] = X86_CC_NE,    [IR_COND_LT] = X86_CC_L,
    [IR_COND_GE] = X86_CC_GE,  [IR_COND_LE] = X86_CC_LE,    [IR_COND_GT] = X86_CC_G,
    [IR_COND_LTU] = X86_CC_B,  [IR_COND_GEU] = X86_CC_AE,   [IR_COND_LEU] = X86_CC_BE,
    [IR_COND_GTU] = X86_CC_A,  [IR_COND_TSTEQ] = X86_CC_E,  [IR_COND_TSTNE] = X86_CC_NE,
};

/* The same test with swapped operands. */
static const uint8_t cond_swapped[] = {
    [IR_COND_NEVER] = IR_COND_NEVER, [IR_COND_ALWAYS] = IR_COND_ALWAYS,
    [IR_COND_EQ] = IR_COND_EQ,       [IR_COND_NE] = IR_COND_NE,
    [IR_COND_LT] = IR_COND_GT,       [IR_COND_GE] = IR_COND_LE,
    [IR_COND_LE] = IR_COND_GE,       [IR_COND_GT] = IR_COND_LT,
    [IR_COND_LTU] = IR_COND_GTU,     [IR_COND_GEU] = IR_COND_LEU,
    [IR_COND_LEU] = IR_COND_GEU,     [IR_COND_GTU] = IR_COND_LTU,
    [IR_COND_TSTEQ] = IR_COND_TSTEQ, [IR_COND_TSTNE] = IR_COND_TSTNE,
};

/* SWAR population count masks. */
#define POP_M1 UINT64_C(0x5555555555555555)
#define POP_M2 UINT64_C(0x3333333333333333)
#define POP_M4 UINT64_C(0x0f0f0f0f0f0f0f0f)
#define POP_H01 UINT64_C(0x0101010101010101)
#define POP_SHIFT 56

/* bsr gives the index of the top set bit; clz = 63 - index = index ^ 63.
 * For a zero input, CLZ_ZERO_PRE ^ 63 = 64. */
#define CLZ_XOR 63
#define CLZ_ZERO_PRE 127
#define CTZ_ZERO 64

#define ZEXT8_MASK 0xff
#define ZEXT16_MASK 0xffff
#define ZEXT32_MASK UINT64_C(0xffffffff)
#define SHIFT_MASK 63

X86Cond x86_cond(IRCond c)
{
    return (X86Cond)cond_to_x86[c];
}

static IRTemp in_temp(const IRInsn *insn, unsigned k)
{
    return (IRTemp)insn->args[insn->nout + k];
}

static bool has_feature(X86Gen *g, uint32_t f)
{
    return (g->bs->host_features & f) != 0;
}

X86Cond x86_gen_compare(X86Gen *g, IRCond c, IRTemp a, IRTemp b)
{
    int64_t va, vb;
    int32_t imm;

    if (ra_is_const(g, a, &va) && !ra_is_const(g, b, &vb)) {
        IRTemp t = a;
        a = b;
        b = t;
        c = (IRCond)cond_swapped[c];
    }
    int ra = ra_load(g, a, X86_ANY_REG, 0);
    if (ra_const_s32(g, b, &imm)) {
        if (c == IR_COND_TSTEQ || c == IR_COND_TSTNE) {
            x86_test_ri(&g->e, ra, imm);
        } else if (imm == 0 && (c == IR_COND_EQ || c == IR_COND_NE)) {
            x86_test_rr(&g->e, ra, ra);
        } else {
            x86_alu_ri(&g->e, X86_ALU_CMP, ra, imm);
        }
    } else {
        int rb = ra_load(g, b, X86_ANY_REG, 0);
        if (c == IR_COND_TSTEQ || c == IR_COND_TSTNE) {
            x86_test_rr(&g->e, ra, rb);
        } else {
            x86_alu_rr(&g->e, X86_ALU_CMP, ra, rb);
        }
    }
    return x86_cond(c);
}

/* ------------------------------------------------------------------ */
/* Moves                                                               */
/* ------------------------------------------------------------------ */

static void gen_mov(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0], s = in_temp(insn, 0);
    int64_t v;

    if (d == s) {
        return;
    }
    if (ra_is_const(g, s, &v)) {
        ra_set_output_const(g, d, (uint64_t)v);
        return;
    }
    if (g->temps[s].loc == X86_VAL_REG && ra_can_reuse(g, insn, 1, g->temps[s].reg)) {
        /* The source dies here: its register simply changes hands. */
        ra_set_output_reg(g, d, g->temps[s].reg);
        return;
    }
    int rs = ra_load(g, s, X86_ANY_REG, 0);
    if (g->temps[d].kind == IR_TEMP_GLOBAL && !g->temps[d].pinned &&
        x86_arg_dies(g, insn, 0)) {
        /* Nothing reads the global before it is written back anyway:
         * store it now instead of copying into a register of its own. */
        ra_store_output(g, d, rs);
        return;
    }
    int rd = ra_out_reg(g, insn, 0, rs, 0);
    x86_mov_rr(&g->e, rd, rs);
    ra_set_output_reg(g, d, rd);
}

/* ------------------------------------------------------------------ */
/* Two-operand ALU ops                                                 */
/* ------------------------------------------------------------------ */

/* Output register for "d = a op b" computed as "mov rd, ra; op rd, rb":
 * ra itself when a dies, rb when the op commutes and b dies (then *swap
 * is set), else a register other than ra/rb. */
static int binop_out(X86Gen *g, const IRInsn *insn, unsigned ka, int ra, unsigned kb, int rb,
                     bool commutative, bool *swap)
{
    *swap = false;
    if (ra_can_reuse(g, insn, 1 + ka, ra)) {
        return ra;
    }
    if (rb >= 0 && commutative && ra_can_reuse(g, insn, 1 + kb, rb)) {
        *swap = true;
        return rb;
    }
    return ra_out_reg(g, insn, -1, -1, X86_REG_BIT(ra) | (rb >= 0 ? X86_REG_BIT(rb) : 0));
}

static void gen_and_imm(X86Gen *g, int rd, int ra, int64_t v)
{
    if ((uint64_t)v == ZEXT8_MASK) {
        x86_modrm_rr(&g->e, OPC_MOVZBL | X86_P_BYTE_RM, rd, ra);
    } else if ((uint64_t)v == ZEXT16_MASK) {
        x86_modrm_rr(&g->e, OPC_MOVZWL, rd, ra);
    } else if ((uint64_t)v == ZEXT32_MASK) {
        x86_mov_rr32(&g->e, rd, ra);
    } else {
        x86_mov_rr(&g->e, rd, ra);
        x86_alu_ri(&g->e, X86_ALU_AND, rd, (int32_t)v);
    }
}

/*
 * add(y, shl(x, 1..3)) as one lea y + x * 2^s (x86's scaled index), when
 * the shifted value is a local whose only reader is the add right after
 * the shl (front ends compute indexed addresses "base + index << s" this
 * way).  At the shl (@v its constant count): is the next op such an add?
 * Then x is loaded, nothing is emitted, and the add does both
 * (gen_fused_add).  Between the two ops no code runs, so x's register
 * still holds x even when x died at the shl.
 */
static bool fuse_scaled_add(X86Gen *g, const IRInsn *insn, int64_t v)
{
    IRContext *ir = g->ir;
    IRTemp d = (IRTemp)insn->args[0], x = in_temp(insn, 0);
    unsigned s = (unsigned)(v & SHIFT_MASK), j = g->cur + 1;
    int64_t c;

    if (s < 1 || s > 3 || g->temps[d].kind != IR_TEMP_LOCAL || x == d) {
        return false;
    }
    while (j < ir->ninsns && (ir->insns[j].dead || ir->insns[j].op == IR_insn_start)) {
        j++;
    }
    if (j >= ir->ninsns || g->next_after[(size_t)g->cur * IR_MAX_ARGS] != j) {
        return false; /* d's next reader is not the next op */
    }
    const IRInsn *add = &ir->insns[j];
    if (add->op != IR_add || add->nout != 1 || add->nin != 2) {
        return false;
    }
    unsigned kd = (IRTemp)add->args[1] == d ? 1 : 2, ky = 3 - kd;
    IRTemp y = (IRTemp)add->args[ky];
    if ((IRTemp)add->args[kd] != d || y == d || ra_is_const(g, y, &c) ||
        g->next_after[(size_t)j * IR_MAX_ARGS + kd] != X86_NEVER) {
        return false; /* d read twice, added to a constant, or read later */
    }
    g->fuse_reg = (uint8_t)ra_load(g, x, X86_ANY_REG, 0);
    g->fuse_op = j;
    g->fuse_d = d;
    g->fuse_x = x;
    g->fuse_shift = (uint8_t)s;
    return true;
}

static void gen_fused_add(X86Gen *g, const IRInsn *insn)
{
    IRTemp x = g->fuse_x;
    IRTemp y = (IRTemp)insn->args[1] == g->fuse_d ? in_temp(insn, 1) : in_temp(insn, 0);
    unsigned ky = (IRTemp)insn->args[1] == g->fuse_d ? 1 : 0;
    int rx, ry, rd;

    g->fuse_op = X86_NEVER;
    if (g->temps[x].loc == X86_VAL_DEAD) {
        /* x died at the shl; its register was not given to anything. */
        rx = g->fuse_reg;
        if (g->reg_owner[rx] != X86_OWNER_FREE) {
            fprintf(stderr, "linxemu: x86-64 backend: scaled index register %d taken\n", rx);
            abort();
        }
        g->reg_owner[rx] = X86_OWNER_SCRATCH;
        g->locked |= X86_REG_BIT(rx);
        ry = ra_load(g, y, X86_ANY_REG, 0);
        rd = rx;
    } else {
        rx = ra_load(g, x, X86_ANY_REG, 0);
        ry = ra_load(g, y, X86_ANY_REG, 0);
        rd = ra_out_reg(g, insn, (int)ky, ry, 0);
    }
    x86_lea(&g->e, rd, ry, rx, g->fuse_shift, 0);
    ra_set_output_reg(g, (IRTemp)insn->args[0], rd);
}

static void gen_binop(X86Gen *g, const IRInsn *insn, X86AluOp aop, bool commutative)
{
    IRTemp d = (IRTemp)insn->args[0];
    IROpcode op = (IROpcode)insn->op;
    unsigned ka = 0, kb = 1;
    int64_t v;
    int32_t imm;
    bool swap;

    if (commutative && ra_is_const(g, in_temp(insn, 0), &v) &&
        !ra_is_const(g, in_temp(insn, 1), &v)) {
        ka = 1;
        kb = 0;
    }
    IRTemp a = in_temp(insn, ka), b = in_temp(insn, kb);
    int ra = ra_load(g, a, X86_ANY_REG, 0);
    bool and_zext = op == IR_and && ra_is_const(g, b, &v) &&
                    ((uint64_t)v == ZEXT8_MASK || (uint64_t)v == ZEXT16_MASK ||
                     (uint64_t)v == ZEXT32_MASK);
    if (and_zext || ra_const_s32(g, b, &imm)) {
        if (!and_zext) {
            v = imm;
        }
        if (op == IR_sub && v != INT32_MIN) {
            op = IR_add;
            v = -v;
            aop = X86_ALU_ADD;
        }
        int rd = ra_out_reg(g, insn, (int)ka, ra, 0);
        if (op == IR_and) {
            gen_and_imm(g, rd, ra, v);
        } else if (op == IR_add && rd != ra) {
            x86_lea(&g->e, rd, ra, X86_NO_REG, 0, (int32_t)v);
        } else {
            x86_mov_rr(&g->e, rd, ra);
            x86_alu_ri(&g->e, aop, rd, (int32_t)v);
        }
        ra_set_output_reg(g, d, rd);
        return;
    }
    int rb = ra_load(g, b, X86_ANY_REG, 0);
    int rd = binop_out(g, insn, ka, ra, kb, rb, commutative, &swap);
    if (swap) {
        int t = ra;
        ra = rb;
        rb = t;
    }
    if (op == IR_add && rd != ra) {
        x86_lea(&g->e, rd, ra, rb, 0, 0);
    } else {
        x86_mov_rr(&g->e, rd, ra);
        x86_alu_rr(&g->e, aop, rd, rb);
    }
    ra_set_output_reg(g, d, rd);
}

static void gen_mul(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    unsigned ka = 0, kb = 1;
    int64_t v;
    int32_t imm;
    bool swap;

    if (ra_is_const(g, in_temp(insn, 0), &v) && !ra_is_const(g, in_temp(insn, 1), &v)) {
        ka = 1;
        kb = 0;
    }
    IRTemp a = in_temp(insn, ka), b = in_temp(insn, kb);
    int ra = ra_load(g, a, X86_ANY_REG, 0);
    if (ra_const_s32(g, b, &imm)) {
        int rd = ra_out_reg(g, insn, (int)ka, ra, 0);
        x86_imul_rri(&g->e, rd, ra, imm);
        ra_set_output_reg(g, d, rd);
        return;
    }
    int rb = ra_load(g, b, X86_ANY_REG, 0);
    int rd = binop_out(g, insn, ka, ra, kb, rb, true, &swap);
    if (swap) {
        int t = ra;
        ra = rb;
        rb = t;
    }
    x86_mov_rr(&g->e, rd, ra);
    x86_imul_rr(&g->e, rd, rb);
    ra_set_output_reg(g, d, rd);
}

/* mulsh/muluh: one-operand IMUL/MUL, rdx:rax = rax * r/m; high half in rdx. */
static void gen_mulh(X86Gen *g, const IRInsn *insn, bool is_signed)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp a = in_temp(insn, 0), b = in_temp(insn, 1);

    ra_claim(g, X86_RAX);
    ra_claim(g, X86_RDX);
    int rb = ra_load(g, b, X86_ANY_REG & ~X86_REG_BIT(X86_RAX) & ~X86_REG_BIT(X86_RDX), 0);
    ra_copy_into(g, a, X86_RAX);
    x86_grp3(&g->e, is_signed ? X86_EXT3_IMUL : X86_EXT3_MUL, rb);
    ra_set_output_reg(g, d, X86_RDX);
}

static void gen_andc(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp a = in_temp(insn, 0), b = in_temp(insn, 1);
    int64_t v;

    int ra = ra_load(g, a, X86_ANY_REG, 0);
    if (ra_is_const(g, b, &v) && x86_fits_s32(~v)) {
        int rd = ra_out_reg(g, insn, 0, ra, 0);
        gen_and_imm(g, rd, ra, ~v);
        ra_set_output_reg(g, d, rd);
        return;
    }
    int rb = ra_load(g, b, X86_ANY_REG, 0);
    if (a == b) {
        int rd = ra_out_reg(g, insn, -1, -1, 0);
        x86_movi(&g->e, rd, 0);
        ra_set_output_reg(g, d, rd);
        return;
    }
    if (has_feature(g, X86_FEAT_BMI1)) {
        /* ANDN rd, rb, ra: rd = ~rb & ra, any rd. */
        int rd = ra_can_reuse(g, insn, 1, ra) ? ra : ra_out_reg(g, insn, 1, rb, 0);
        x86_vex_rr(&g->e, OPC_ANDN, rd, rb, ra);
        ra_set_output_reg(g, d, rd);
        return;
    }
    /* rd = ~rb; rd &= ra (rd must not be ra). */
    int rd = ra_out_reg(g, insn, 1, rb, X86_REG_BIT(ra));
    x86_mov_rr(&g->e, rd, rb);
    x86_grp3(&g->e, X86_EXT3_NOT, rd);
    x86_alu_rr(&g->e, X86_ALU_AND, rd, ra);
    ra_set_output_reg(g, d, rd);
}

static void gen_shift(X86Gen *g, const IRInsn *insn, X86ShiftOp sop, int bmi2_opc)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp a = in_temp(insn, 0), b = in_temp(insn, 1);
    int64_t v;

    if (ra_is_const(g, b, &v)) {
        if (sop == X86_SHIFT_SHL && fuse_scaled_add(g, insn, v)) {
            return;
        }
        int ra = ra_load(g, a, X86_ANY_REG, 0);
        int rd = ra_out_reg(g, insn, 0, ra, 0);
        x86_mov_rr(&g->e, rd, ra);
        if (v & SHIFT_MASK) {
            x86_shift_ri(&g->e, sop, rd, (unsigned)(v & SHIFT_MASK));
        }
        ra_set_output_reg(g, d, rd);
        return;
    }
    if (bmi2_opc && has_feature(g, X86_FEAT_BMI2)) {
        /* SHLX/SHRX/SARX rd, ra, rb: three operands, count masked to 6 bits. */
        int ra = ra_load(g, a, X86_ANY_REG, 0);
        int rb = ra_load(g, b, X86_ANY_REG, 0);
        int rd = ra_can_reuse(g, insn, 1, ra) ? ra : ra_out_reg(g, insn, 1, rb, 0);
        x86_vex_rr(&g->e, bmi2_opc, rd, rb, ra);
        ra_set_output_reg(g, d, rd);
        return;
    }
    /* Count in CL (the hardware masks it to 6 bits, as the IR does). */
    ra_load_fixed(g, b, X86_RCX);
    int ra = ra_load(g, a, X86_ANY_REG & ~X86_REG_BIT(X86_RCX), 0);
    int rd = ra_out_reg(g, insn, 0, ra, X86_REG_BIT(X86_RCX));
    x86_mov_rr(&g->e, rd, ra);
    x86_shift_cl(&g->e, sop, rd);
    ra_set_output_reg(g, d, rd);
}

/* ------------------------------------------------------------------ */
/* One-operand ops                                                     */
/* ------------------------------------------------------------------ */

static void gen_popcount_swar(X86Gen *g, int rd, int ra)
{
    int t = ra_scratch(g, X86_ALLOCATABLE);
    int k = ra_scratch(g, X86_ALLOCATABLE);

    x86_mov_rr(&g->e, rd, ra);
    /* x -= (x >> 1) & M1 */
    x86_mov_rr(&g->e, t, rd);
    x86_shift_ri(&g->e, X86_SHIFT_SHR, t, 1);
    x86_movi(&g->e, k, POP_M1);
    x86_alu_rr(&g->e, X86_ALU_AND, t, k);
    x86_alu_rr(&g->e, X86_ALU_SUB, rd, t);
    /* x = (x & M2) + ((x >> 2) & M2) */
    x86_movi(&g->e, k, POP_M2);
    x86_mov_rr(&g->e, t, rd);
    x86_alu_rr(&g->e, X86_ALU_AND, t, k);
    x86_shift_ri(&g->e, X86_SHIFT_SHR, rd, 2);
    x86_alu_rr(&g->e, X86_ALU_AND, rd, k);
    x86_alu_rr(&g->e, X86_ALU_ADD, rd, t);
    /* x = (x + (x >> 4)) & M4 */
    x86_mov_rr(&g->e, t, rd);
    x86_shift_ri(&g->e, X86_SHIFT_SHR, t, 4);
    x86_alu_rr(&g->e, X86_ALU_ADD, rd, t);
    x86_movi(&g->e, k, POP_M4);
    x86_alu_rr(&g->e, X86_ALU_AND, rd, k);
    /* x = (x * H01) >> 56 */
    x86_movi(&g->e, k, POP_H01);
    x86_imul_rr(&g->e, rd, k);
    x86_shift_ri(&g->e, X86_SHIFT_SHR, rd, POP_SHIFT);
}

static void gen_unop(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    int ra = ra_load(g, in_temp(insn, 0), X86_ANY_REG, 0);
    int rd = ra_out_reg(g, insn, 0, ra, 0);
    X86Emitter *e = &g->e;

    switch (insn->op) {
    case IR_neg:
    case IR_not:
        x86_mov_rr(e, rd, ra);
        x86_grp3(e, insn->op == IR_neg ? X86_EXT3_NEG : X86_EXT3_NOT, rd);
        break;
    case IR_bswap64:
        x86_mov_rr(e, rd, ra);
        x86_bswap(e, rd);
        break;
    case IR_ext8s:
        x86_modrm_rr(e, OPC_MOVSBQ | X86_P_W | X86_P_BYTE_RM, rd, ra);
        break;
    case IR_ext8u:
        x86_modrm_rr(e, OPC_MOVZBL | X86_P_BYTE_RM, rd, ra);
        break;
    case IR_ext16s:
        x86_modrm_rr(e, OPC_MOVSWQ | X86_P_W, rd, ra);
        break;
    case IR_ext16u:
        x86_modrm_rr(e, OPC_MOVZWL, rd, ra);
        break;
    case IR_ext32s:
        x86_modrm_rr(e, OPC_MOVSXD_GvEd | X86_P_W, rd, ra);
        break;
    case IR_ext32u:
        x86_mov_rr32(e, rd, ra);
        break;
    case IR_clz:
        if (has_feature(g, X86_FEAT_LZCNT)) {
            x86_modrm_rr(e, OPC_LZCNT | X86_P_W, rd, ra);
        } else {
            int t = ra_scratch(g, X86_ALLOCATABLE);
            x86_movi(e, t, CLZ_ZERO_PRE);
            x86_modrm_rr(e, OPC_BSR | X86_P_W, rd, ra);
            x86_cmov(e, X86_CC_E, rd, t);
            x86_alu_ri(e, X86_ALU_XOR, rd, CLZ_XOR);
        }
        break;
    case IR_ctz:
        if (has_feature(g, X86_FEAT_BMI1)) {
            x86_modrm_rr(e, OPC_TZCNT | X86_P_W, rd, ra);
        } else {
            int t = ra_scratch(g, X86_ALLOCATABLE);
            x86_movi(e, t, CTZ_ZERO);
            x86_modrm_rr(e, OPC_BSF | X86_P_W, rd, ra);
            x86_cmov(e, X86_CC_E, rd, t);
        }
        break;
    case IR_ctpop:
        if (has_feature(g, X86_FEAT_POPCNT)) {
            x86_modrm_rr(e, OPC_POPCNT | X86_P_W, rd, ra);
        } else {
            gen_popcount_swar(g, rd, ra);
        }
        break;
    default:
        break;
    }
    ra_set_output_reg(g, d, rd);
}

/* ------------------------------------------------------------------ */
/* Conditions                                                          */
/* ------------------------------------------------------------------ */

static void gen_setcond(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRCond c = (IRCond)insn->args[3];

    if (c == IR_COND_NEVER || c == IR_COND_ALWAYS) {
        ra_set_output_const(g, d, c == IR_COND_ALWAYS);
        return;
    }
    X86Cond cc = x86_gen_compare(g, c, in_temp(insn, 0), in_temp(insn, 1));
    int rd = -1;
    for (unsigned k = 0; k < 2 && rd < 0; k++) {
        X86Temp *ts = &g->temps[in_temp(insn, k)];
        if (ts->loc == X86_VAL_REG && ra_can_reuse(g, insn, 1 + k, ts->reg)) {
            rd = ts->reg;
        }
    }
    if (rd < 0) {
        rd = ra_out_reg(g, insn, -1, -1, 0);
    }
    /* SETcc writes the low byte only: zero-extend it afterwards. */
    x86_setcc(&g->e, cc, rd);
    x86_modrm_rr(&g->e, OPC_MOVZBL | X86_P_BYTE_RM, rd, rd);
    ra_set_output_reg(g, d, rd);
}

static void gen_movcond(X86Gen *g, const IRInsn *insn)
{
    IRTemp d = (IRTemp)insn->args[0];
    IRTemp vt = in_temp(insn, 2), vf = in_temp(insn, 3);
    IRCond c = (IRCond)insn->args[5];
    int64_t v;

    if (c == IR_COND_NEVER || c == IR_COND_ALWAYS) {
        IRTemp s = c == IR_COND_ALWAYS ? vt : vf;
        if (ra_is_const(g, s, &v)) {
            ra_set_output_const(g, d, (uint64_t)v);
            return;
        }
        int rs = ra_load(g, s, X86_ANY_REG, 0);
        int rd = ra_out_reg(g, insn, -1, -1, 0);
        x86_mov_rr(&g->e, rd, rs);
        ra_set_output_reg(g, d, rd);
        return;
    }
    X86Cond cc = x86_gen_compare(g, c, in_temp(insn, 0), in_temp(insn, 1));
    /* CMOV needs its source in a register; loads here are MOVs, so the
     * flags of the compare survive. */
    int rt = ra_load(g, vt, X86_ANY_REG, 0);
    int rf = -1;
    if (!ra_is_const(g, vf, &v)) {
        rf = ra_load(g, vf, X86_ANY_REG, 0);
    }
    int rd;
    if (rf >= 0 && ra_can_reuse(g, insn, 4, rf)) {
        rd = rf;
    } else if (rf >= 0 && ra_can_reuse(g, insn, 3, rt)) {
        x86_cmov(&g->e, (X86Cond)(cc ^ 1), rt, rf);
        ra_set_output_reg(g, d, rt);
        return;
    } else {
        rd = ra_out_reg(g, insn, -1, -1, X86_REG_BIT(rt) | (rf >= 0 ? X86_REG_BIT(rf) : 0));
        if (rf >= 0) {
            x86_mov_rr(&g->e, rd, rf);
        } else {
            x86_movi(&g->e, rd, (uint64_t)v);
        }
    }
    x86_cmov(&g->e, cc, rd, rt);
    ra_set_output_reg(g, d, rd);
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

bool x86_gen_alu(X86Gen *g, const IRInsn *insn)
{
    switch (insn->op) {
    case IR_mov:
        gen_mov(g, insn);
        return true;
    case IR_movi:
        ra_set_output_const(g, (IRTemp)insn->args[0], insn->args[1]);
        return true;
    case IR_setcond:
        gen_setcond(g, insn);
        return true;
    case IR_movcond:
        gen_movcond(g, insn);
        return true;
    case IR_add:
        if (g->fuse_op == g->cur) {
            gen_fused_add(g, insn);
            return true;
        }
        gen_binop(g, insn, X86_ALU_ADD, true);
        return true;
    case IR_sub:
        gen_binop(g, insn, X86_ALU_SUB, false);
        return true;
    case IR_and:
        gen_binop(g, insn, X86_ALU_AND, true);
        return true;
    case IR_or:
        gen_binop(g, insn, X86_ALU_OR, true);
        return true;
    case IR_xor:
        gen_binop(g, insn, X86_ALU_XOR, true);
        return true;
    case IR_mul:
        gen_mul(g, insn);
        return true;
    case IR_mulsh:
    case IR_muluh:
        gen_mulh(g, insn, insn->op == IR_mulsh);
        return true;
    case IR_andc:
        gen_andc(g, insn);
        return true;
    case IR_shl:
        gen_shift(g, insn, X86_SHIFT_SHL, OPC_SHLX);
        return true;
    case IR_shr:
        gen_shift(g, insn, X86_SHIFT_SHR, OPC_SHRX);
        return true;
    case IR_sar:
        gen_shift(g, insn, X86_SHIFT_SAR, OPC_SARX);
        return true;
    case IR_rotr:
        gen_shift(g, insn, X86_SHIFT_ROR, 0);
        return true;
    case IR_neg:
    case IR_not:
    case IR_bswap64:
    case IR_ext8s:
    case IR_ext8u:
    case IR_ext16s:
    case IR_ext16u:
    case IR_ext32s:
    case IR_ext32u:
    case IR_clz:
    case IR_ctz:
    case IR_ctpop:
        gen_unop(g, insn);
        return true;
    default:
        return false;
    }
}
