/*
 * VEX and EVEX encoding (vector-emit.h).
 *
 * VEX (three-byte form only):  C4  [~R ~X ~B m-mmmm]  [W ~vvvv L pp]
 * EVEX:  62  [~R ~X ~B ~R' 0 0 mm]  [W ~vvvv 1 pp]  [z L'L b ~V' aaa]
 * then opcode, ModRM, [SIB], [disp32].  R/R' extend ModRM.reg to 5 bits;
 * for a register rm, B and X extend it; for memory, B extends the base,
 * X the index, and V' the index of a VSIB operand.
 */
#include "vector-emit.h"

#define MOD_INDIRECT 0x00
#define MOD_DISP8 0x40
#define MOD_DISP32 0x80
#define MOD_REG 0xc0

static void emit_mem(X86Emitter *e, int reg, VxMem m, bool evex)
{
    int base = m.base & 7, mod;
    bool need_sib = m.index >= 0 || base == 4;

    if (m.disp == 0 && base != 5) {
        mod = MOD_INDIRECT;
    } else if (!evex && x86_fits_s8(m.disp)) {
        mod = MOD_DISP8;
    } else {
        mod = MOD_DISP32;
    }
    if (!need_sib) {
        x86_byte(e, (uint8_t)(mod | ((reg & 7) << 3) | base));
    } else {
        int idx = m.index >= 0 ? (m.index & 7) : 4;
        x86_byte(e, (uint8_t)(mod | ((reg & 7) << 3) | 4));
        x86_byte(e, (uint8_t)((m.scale << 6) | (idx << 3) | base));
    }
    if (mod == MOD_DISP8) {
        x86_byte(e, (uint8_t)m.disp);
    } else if (mod == MOD_DISP32) {
        x86_u32(e, (uint32_t)m.disp);
    }
}

static void vex_prefix(X86Emitter *e, VxOpc o, int len, int reg, int vvvv, int x, int b)
{
    x86_byte(e, 0xc4);
    x86_byte(e, (uint8_t)(((reg & 8) ? 0 : 0x80) | ((x & 8) ? 0 : 0x40) | ((b & 8) ? 0 : 0x20) |
                          o.map));
    x86_byte(e, (uint8_t)((o.w ? 0x80 : 0) | ((~vvvv & 15) << 3) | (len ? 4 : 0) | o.pp));
}

/* @x: the bits extending rm (register) or index (memory); @vhigh: bit 4
 * of vvvv, or of a VSIB index. */
static void evex_prefix(X86Emitter *e, VxOpc o, int len, int reg, int vvvv, int x, int b, int k,
                        bool z, bool bcst, int vhigh)
{
    x86_byte(e, 0x62);
    x86_byte(e, (uint8_t)(((reg & 8) ? 0 : 0x80) | ((x & 0x18) ? 0 : 0x40) | ((b & 8) ? 0 : 0x20) |
                          ((reg & 16) ? 0 : 0x10) | o.map));
    x86_byte(e, (uint8_t)((o.w ? 0x80 : 0) | ((~vvvv & 15) << 3) | 4 | o.pp));
    x86_byte(e, (uint8_t)((z ? 0x80 : 0) | (len << 5) | (bcst ? 0x10 : 0) |
                          ((vhigh & 16) ? 0 : 0x08) | (k & 7)));
}

void vx_rr(X86Emitter *e, bool evex, VxOpc o, int len, int reg, int vvvv, int rm, int k, bool z)
{
    if (evex) {
        /* For a register rm, EVEX.X is its bit 4 and EVEX.B its bit 3. */
        evex_prefix(e, o, len, reg, vvvv, (rm & 16) ? 8 : 0, rm, k, z, false, vvvv);
    } else {
        vex_prefix(e, o, len, reg, vvvv, 0, rm);
    }
    x86_byte(e, o.opc);
    x86_byte(e, (uint8_t)(MOD_REG | ((reg & 7) << 3) | (rm & 7)));
}

void vx_rm(X86Emitter *e, bool evex, VxOpc o, int len, int reg, int vvvv, VxMem m, int k, bool z,
           bool bcst)
{
    int idx = m.index >= 0 ? m.index : 0;

    if (evex) {
        evex_prefix(e, o, len, reg, vvvv, idx & 8, m.base, k, z, bcst,
                    m.vsib ? idx : vvvv);
    } else {
        vex_prefix(e, o, len, reg, vvvv, idx, m.base);
    }
    x86_byte(e, o.opc);
    emit_mem(e, reg, m, evex);
}

/* 0F AE /2 and /3 (legacy SSE encoding). */
static void mxcsr_op(X86Emitter *e, int ext, int base, int32_t disp)
{
    x86_modrm_mem(e, 0xae | X86_P_0F, ext, base, X86_NO_REG, 0, disp);
}

void vx_ldmxcsr(X86Emitter *e, int base, int32_t disp)
{
    mxcsr_op(e, 2, base, disp);
}

void vx_stmxcsr(X86Emitter *e, int base, int32_t disp)
{
    mxcsr_op(e, 3, base, disp);
}

void vx_vzeroupper(X86Emitter *e)
{
    x86_byte(e, 0xc5);
    x86_byte(e, 0xf8);
    x86_byte(e, 0x77);
}
