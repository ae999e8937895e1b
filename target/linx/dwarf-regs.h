/*
 * DWARF register numbers of the LinxISA GPRs (docs/decisions.md D10).
 *
 * Two numberings exist and stock debuggers can only use one of them:
 *   LINX_DWARF_LLVM      the LinxISA LLVM backend's: Rn is DWARF n
 *                        (LinxISARegisterInfo.td, DwarfRegNum<[n]> for
 *                        R0-R23; the T/U queue registers have none);
 *   LINX_DWARF_DEBUGGER  the number RISC-V gives the register with the same
 *                        ABI name (zero 0, ra 1, sp 2, s0 8, s1 9, a0-a7
 *                        10-17, s2-s8 18-24; x0-x3 have no counterpart).
 * Stock gdb accepts a Linx target only as riscv:rv64 (the gdb stub's compat
 * description) and then reads DWARF register n as RISC-V's xn, found by
 * name; so what linx-as -g writes (CFI) and what the stub's compat
 * description tells lldb (dwarf_regnum) use LINX_DWARF_DEBUGGER, and the
 * pure Linx description uses LINX_DWARF_LLVM.
 *
 *   int n = linx_dwarf_regnum(LINX_DWARF_DEBUGGER, LINX_REG_SP);   // 2
 */
#ifndef LINX_TARGET_DWARF_REGS_H
#define LINX_TARGET_DWARF_REGS_H

typedef enum LinxDwarfRegs {
    LINX_DWARF_DEBUGGER, /* RISC-V's number of the same ABI name (default) */
    LINX_DWARF_LLVM,     /* the LinxISA LLVM backend's: Rn = n */
} LinxDwarfRegs;

/* DWARF number of GPR @gpr (0-23) under @numbering, or -1 (none, or not a
 * GPR). */
int linx_dwarf_regnum(LinxDwarfRegs numbering, unsigned gpr);

#endif /* LINX_TARGET_DWARF_REGS_H */
