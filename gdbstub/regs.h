/*
 * The CPU state as gdb sees it: ONE table of registers (name, features,
 * type, DWARF numbers, where the value lives), from which the stub answers
 * g/G/p/P and generates both target descriptions.  gdbstub/gdb-xml/ holds
 * the same XML, committed for readers and other tools; the gdbstub-xml
 * test regenerates it from this table and fails on a difference
 * (`ninja -C build regen-gdb-xml` rewrites it).
 *
 * Two descriptions of the same registers (docs/gdbstub.md, decisions G9):
 *   compat (the default, served as target.xml): what stock gdb-multiarch
 *     and lldb accept - <architecture>riscv:rv64</architecture>,
 *     <osabi>none</osabi>, and an org.gnu.gdb.riscv.cpu feature holding the
 *     RISC-V x0-x15 ABI names: Linx registers where the name exists in
 *     Linx (zero ra sp s0 s1 a0-a5, tp and gp = the TP/GP SSRs), padding
 *     registers t0-t2 (always unavailable: 'x' digits) where it does not;
 *     every other Linx register in its own feature under its Linx name;
 *   linx (-g PORT,tdesc=linx): the pure Linx description, no architecture
 *     element, tp/gp among the SSRs, no padding.
 * Both are one self-contained target.xml (no xi:include: lldb 14 does not
 * follow it).
 *
 * Register numbers are table indexes and the same in both: the core comes
 * first (R0-R23 with their ABI names, then pc = 24), then the block state,
 * the ClockHands queues (tq1-tq4 = t#1-t#4, uq1-uq4 = u#1-u#4; not t1..t4,
 * which are RISC-V names) and the user SSRs; the three padding registers
 * come last, so the linx description is a prefix.  Every register is 64
 * bits, sent little-endian.
 *
 * Invariants:
 *   - reads of the block state and the T/U queues are exact only after
 *     linx_cpu_sync_block_state(); the stub syncs once at every stop;
 *   - writing pc makes the next instruction run as a mid-block entry
 *     (env->resume) unless the new pc holds a block-start marker, so the
 *     exec loop rebuilds the block state by replay (docs/frontend.md);
 *   - read-only registers (zero, translation-time block facts, cycle, acr)
 *     ignore writes of their current value and refuse others; padding
 *     registers ignore every write.
 */
#ifndef LINX_GDBSTUB_REGS_H
#define LINX_GDBSTUB_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "gdbstub/gdbstub.h" /* GdbTdesc */
#include "target/linx/cpu.h"

#define GDB_TARGET_XML "target.xml"
/* File names under gdbstub/gdb-xml/ (both are served as target.xml). */
#define GDB_XML_FILE_COMPAT "target.xml"
#define GDB_XML_FILE_LINX "linx-target.xml"
#define GDB_REG_BYTES 8
/* The architecture the compat description names. */
#define GDB_COMPAT_ARCH "riscv:rv64"

/* Number of registers in description @d (the g packet holds this many). */
unsigned gdb_reg_count(GdbTdesc d);
/* Register number of pc and sp (expedited in stop replies). */
unsigned gdb_reg_pc(void);
unsigned gdb_reg_sp(void);

/* Name of register @n, or NULL past the end of the table. */
const char *gdb_reg_name(unsigned n);
/* Register number of @name, or -1. */
int gdb_reg_lookup(const char *name);
/* A padding register (compat description only): no value, sent as 'x'. */
bool gdb_reg_is_padding(unsigned n);

/* Value of register @n (0 past the end and for padding). */
uint64_t gdb_reg_read(CPULinxState *env, unsigned n);
/* Write register @n: false for an unknown register or a read-only one
 * whose value would change. */
bool gdb_reg_write(CPULinxState *env, unsigned n, uint64_t v);

/* DWARF register number of register @n under description @d, or -1
 * (docs/decisions.md D10): compat numbers a register as RISC-V numbers the
 * register with its ABI name (ra 1, sp 2, s0 8, a0 10, s2 18, ...), which
 * is what gdb's riscv:rv64 gdbarch and linx-as -g's CFI use; linx uses the
 * LinxISA LLVM backend's numbering (Rn = n). */
int gdb_reg_dwarf(GdbTdesc d, unsigned n);

/* Set the pc the way a debugger does (see the file comment). */
void gdb_set_pc(CPULinxState *env, uint64_t pc);

/* target.xml of description @d, as a new string (g_free). */
char *gdb_xml_target(GdbTdesc d);
/* The XML served for @annex under @d ("target.xml" only), or NULL. */
char *gdb_xml_annex(GdbTdesc d, const char *annex);

#endif /* LINX_GDBSTUB_REGS_H */
