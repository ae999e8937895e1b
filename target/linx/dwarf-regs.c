/*
 * DWARF register numbers of the LinxISA GPRs (see dwarf-regs.h).
 */
#include "dwarf-regs.h"

#include "cpu.h"

/* RISC-V's DWARF number of each Linx GPR's ABI name (the RISC-V psABI:
 * DWARF n = xn; x1 ra, x2 sp, x8 s0, x9 s1, x10-x17 a0-a7, x18-x27
 * s2-s11).  Linx x0-x3 (R20-R23) have no RISC-V register of that name. */
static const signed char debugger_numbers[LINX_NUM_GPRS] = {
    0,                              /* zero */
    2,                              /* sp */
    10, 11, 12, 13, 14, 15, 16, 17, /* a0-a7 */
    1,                              /* ra */
    8,  9,                          /* s0, s1 */
    18, 19, 20, 21, 22, 23, 24,     /* s2-s8 */
    -1, -1, -1, -1,                 /* x0-x3 */
};

int linx_dwarf_regnum(LinxDwarfRegs numbering, unsigned gpr)
{
    if (gpr >= LINX_NUM_GPRS) {
        return -1;
    }
    return numbering == LINX_DWARF_LLVM ? (int)gpr : debugger_numbers[gpr];
}
