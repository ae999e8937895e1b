/*
 * The CPU state as gdb sees it: ONE table of registers (name, feature,
 * type, where the value lives), from which the stub answers g/G/p/P and
 * generates the target description XML (target.xml and one file per
 * feature).  gdbstub/gdb-xml/ holds the same XML, committed for readers
 * and other tools; the gdbstub-xml test regenerates it from this table and
 * fails on a difference (`ninja -C build regen-gdb-xml` rewrites it).
 *
 * Register numbers are table indexes: the core feature comes first (R0-R23
 * with their ABI names, then pc = 24), then the block state, the
 * ClockHands queues and the user SSRs.  Every register is 64 bits, sent
 * little-endian.
 *
 * Invariants:
 *   - reads of the block state and the T/U queues are exact only after
 *     linx_cpu_sync_block_state(); the stub syncs once at every stop;
 *   - writing pc makes the next instruction run as a mid-block entry
 *     (env->resume) unless the new pc holds a block-start marker, so the
 *     exec loop rebuilds the block state by replay (docs/frontend.md);
 *   - read-only registers (zero, translation-time block facts, cycle, acr)
 *     ignore writes of their current value and refuse others.
 */
#ifndef LINX_GDBSTUB_REGS_H
#define LINX_GDBSTUB_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "target/linx/cpu.h"

/* Target description features, in register-number order. */
typedef enum GdbFeatureId {
    GDB_FEATURE_CORE,
    GDB_FEATURE_BLOCK,
    GDB_FEATURE_CLOCKHANDS,
    GDB_FEATURE_SSR,
    GDB_FEATURE_COUNT,
} GdbFeatureId;

typedef struct GdbFeature {
    const char *name;  /* <feature name="..."> */
    const char *file;  /* annex / file name under gdbstub/gdb-xml/ */
    const char *doc;   /* one-line comment in the XML */
} GdbFeature;

/* The architecture name in target.xml. */
#define GDB_ARCH_NAME "linx"
#define GDB_TARGET_XML "target.xml"
#define GDB_REG_BYTES 8

extern const GdbFeature gdb_features[GDB_FEATURE_COUNT];

/* Number of registers in the table (g packet = this many x 16 digits). */
unsigned gdb_reg_count(void);
/* Register number of pc and sp (expedited in stop replies). */
unsigned gdb_reg_pc(void);
unsigned gdb_reg_sp(void);

/* Name of register @n, or NULL past the end. */
const char *gdb_reg_name(unsigned n);
/* Register number of @name, or -1. */
int gdb_reg_lookup(const char *name);

/* Value of register @n (0 past the end). */
uint64_t gdb_reg_read(CPULinxState *env, unsigned n);
/* Write register @n: false for an unknown register or a read-only one
 * whose value would change. */
bool gdb_reg_write(CPULinxState *env, unsigned n, uint64_t v);

/* Set the pc the way a debugger does (see the file comment). */
void gdb_set_pc(CPULinxState *env, uint64_t pc);

/* The XML of feature @f, or of target.xml (@f == GDB_FEATURE_COUNT), as a
 * new string (g_free). */
char *gdb_xml_feature(GdbFeatureId f);
/* The XML served for @annex ("target.xml", "linx-core.xml", ...), or NULL
 * for an unknown annex (g_free). */
char *gdb_xml_annex(const char *annex);

#endif /* LINX_GDBSTUB_REGS_H */
