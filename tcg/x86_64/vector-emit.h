/*
 * VEX and EVEX instruction encoding for the vector lane programs
 * (tcg/vec.h, vector-gen.c).  Knows encodings, nothing about programs.
 *
 * An instruction is named by a VxOpc: opcode map (0F, 0F38, 0F3A), the
 * implied prefix (pp), W and the opcode byte, as the Intel manual writes
 * them: "EVEX.512.66.0F38.W0 40 /r" is VX(VX_0F38, VX_66, 0, 0x40).
 * Register numbers are 0-31 for vector registers (EVEX; VEX reaches
 * 0-15), 0-15 for general registers, 0-7 for mask registers.
 *
 * EVEX memory operands are always encoded with a 32-bit displacement
 * (or none): the compressed disp8*N form is never emitted, so the
 * displacement needs no scaling.
 *
 * Usage:
 *   vx_rr(e, true, VX(VX_0F, VX_66, 0, 0xfe), VX_512, 1, 2, 3, 0, false); // vpaddd zmm1, zmm2, zmm3
 *   vx_rm(e, false, VX(VX_0F, VX_F3, 0, 0x6f), VX_256, 4, 0, vx_mem(X86_RAX, X86_RBX, 2, 0), 0, false, false);
 */
#ifndef LINX_TCG_X86_64_VECTOR_EMIT_H
#define LINX_TCG_X86_64_VECTOR_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "emit.h"

enum { VX_0F = 1, VX_0F38 = 2, VX_0F3A = 3 };
enum { VX_NP = 0, VX_66 = 1, VX_F3 = 2, VX_F2 = 3 };
enum { VX_128 = 0, VX_256 = 1, VX_512 = 2 };

typedef struct VxOpc {
    uint8_t map, pp, w, opc;
} VxOpc;

#define VX(map_, pp_, w_, opc_) ((VxOpc){ (map_), (pp_), (w_), (opc_) })

/* A memory operand: [base + index << scale + disp]; index -1 for none.
 * With vsib the index is a vector register (gathers, scatters). */
typedef struct VxMem {
    int8_t base, index;
    uint8_t scale;
    bool vsib;
    int32_t disp;
} VxMem;

static inline VxMem vx_mem(int base, int index, unsigned scale, int32_t disp)
{
    return (VxMem){ (int8_t)base, (int8_t)index, (uint8_t)scale, false, disp };
}

static inline VxMem vx_vsib(int base, int vindex, unsigned scale, int32_t disp)
{
    return (VxMem){ (int8_t)base, (int8_t)vindex, (uint8_t)scale, true, disp };
}

/* reg, vvvv, rm registers; @k the write mask (0: none), @z zeroing.  VEX
 * ignores k and z (callers never ask). */
void vx_rr(X86Emitter *e, bool evex, VxOpc o, int len, int reg, int vvvv, int rm, int k, bool z);
/* @bcst: EVEX embedded broadcast of one element from memory. */
void vx_rm(X86Emitter *e, bool evex, VxOpc o, int len, int reg, int vvvv, VxMem m, int k, bool z,
           bool bcst);

/* Legacy-encoded (no VEX) forms used around the vector code. */
void vx_ldmxcsr(X86Emitter *e, int base, int32_t disp);
void vx_stmxcsr(X86Emitter *e, int base, int32_t disp);
void vx_vzeroupper(X86Emitter *e);

#endif /* LINX_TCG_X86_64_VECTOR_EMIT_H */
