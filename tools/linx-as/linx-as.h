/*
 * linx-as: the LinxISA assembler, as a library.
 *
 * The `linx-as` program (main.c) is a thin command line around this API;
 * the unit tests and the benchmark drive the same API in memory.  One
 * LinxAs object holds everything about one assembly (sources, sections,
 * symbols, diagnostics): nothing is global, so several assemblies can run
 * in one process.
 *
 * Invariants:
 *  - Two passes.  Pass 1 parses every statement, fixes every statement's
 *    size and every label's section offset (instruction lengths never
 *    depend on operand values in LinxISA).  Section addresses are then
 *    assigned and pass 2 encodes with every symbol known.
 *  - No relocations: every expression must resolve at assembly time.
 *  - A failed assembly produces no output file (see linx_as_write_file).
 *
 * Usage:
 *   LinxAsOptions o;
 *   linx_as_default_options(&o);
 *   LinxAs *as = linx_as_new(&o);
 *   linx_as_add_source(as, "t.s", text, strlen(text));
 *   if (!linx_as_assemble(as)) fputs(linx_as_diagnostics(as), stderr);
 *   else linx_as_write_file(as, "t.elf");
 *   linx_as_free(as);
 */
#ifndef LINX_TOOLS_LINX_AS_H
#define LINX_TOOLS_LINX_AS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Address `.text` is assumed to start at (the virt machine's load base). */
#define LINX_AS_DEFAULT_BASE 0x10000u

typedef enum LinxAsFormat {
    LINX_AS_FMT_EXEC, /* ELF ET_EXEC, static, with program headers */
    LINX_AS_FMT_REL,  /* ELF ET_REL, fully resolved, no relocations */
    LINX_AS_FMT_BIN,  /* raw bytes from the lowest to the highest loaded address */
} LinxAsFormat;

typedef struct LinxAsOptions {
    uint64_t base;        /* address of the first (executable) section */
    const char *entry;    /* symbol name or number; NULL: _start, else .text start */
    LinxAsFormat format;
    unsigned insn_flags;  /* LINX_ASM_F_* passed to the instruction encoder */
    unsigned max_errors;  /* stop reporting after this many (0: 50) */
    /* ISA profile of the encodings (-mcpu; target/linx/profile.h); NULL:
     * the default, linx-toolchain. */
    const struct LinxProfile *profile;
    /* -g: DWARF line table, functions, variables and frame CFI (ELF only;
     * docs/assembler.md "Debug information"). */
    bool debug_info;
    /* DWARF register numbers of -g (LinxDwarfRegs, target/linx/dwarf-regs.h):
     * 0 = what stock debuggers use (default), 1 = the LinxISA LLVM
     * backend's (--dwarf-regs=llvm). */
    unsigned dwarf_regs;
} LinxAsOptions;

typedef struct LinxAs LinxAs;

void linx_as_default_options(LinxAsOptions *o);

LinxAs *linx_as_new(const LinxAsOptions *o);
void linx_as_free(LinxAs *as);

/* Add a source (copied).  @name is used in messages.  Files are assembled
 * in the order added, as if concatenated. */
void linx_as_add_source(LinxAs *as, const char *name, const char *text, size_t len);

/* Read and add a file; false (with a diagnostic) when it cannot be read. */
bool linx_as_add_file(LinxAs *as, const char *path);

/* Largest source file read (bytes), and all sources together (includes
 * counted): larger inputs, e.g. '.include "/dev/zero"', are refused with a
 * message instead of growing without bound. */
#define LINX_AS_MAX_SOURCE_BYTES (UINT64_C(128) << 20)
#define LINX_AS_MAX_TOTAL_SOURCE_BYTES (UINT64_C(512) << 20)

/* Read all of @f into a malloc'ed, NUL-terminated buffer.  0 on success,
 * else an errno value: EFBIG when @f holds more than
 * LINX_AS_MAX_SOURCE_BYTES (reading stops there), ENOMEM. */
int linx_as_read_stream(FILE *f, char **buf, size_t *len);

/* Run both passes.  False when any error was reported. */
bool linx_as_assemble(LinxAs *as);

/* All messages so far, one "file:line:col: error: rule: what" line each,
 * followed by the source line and a caret.  Never NULL. */
const char *linx_as_diagnostics(const LinxAs *as);
unsigned linx_as_error_count(const LinxAs *as);

/* The output image in the configured format (malloc'ed, caller frees). */
bool linx_as_output(LinxAs *as, uint8_t **buf, size_t *len);

/* Write the output to @path through a temporary file renamed into place;
 * on any failure nothing is left at @path. */
bool linx_as_write_file(LinxAs *as, const char *path);

/* Listing: address, bytes and source line for every source line. */
void linx_as_listing(LinxAs *as, FILE *out);

/* After a successful assembly: a symbol's final value (address for labels). */
bool linx_as_symbol_value(const LinxAs *as, const char *name, uint64_t *value);

/* After a successful assembly: a section's address, size and bytes (NULL
 * for NOBITS).  False when there is no such section. */
bool linx_as_section(const LinxAs *as, const char *name, uint64_t *addr, uint64_t *size,
                     const uint8_t **data);

/* Entry address chosen for the output (after a successful assembly). */
uint64_t linx_as_entry(const LinxAs *as);

/* Turn an llvm-objdump listing ("addr: bytes<TAB>text" lines) into
 * assembler source: the instructions placed at their addresses relative to
 * *@base (the first address), gaps as .org.  *@expect receives the image
 * the bytes column describes (*@expect_len bytes from *@base).  Both
 * buffers are malloc'ed.  False when there is no instruction line. */
bool linx_as_objdump_source(const char *listing, size_t len, char **src, size_t *srclen,
                            uint64_t *base, uint8_t **expect, size_t *expect_len);

/* Number of source lines and statements seen (for the benchmark). */
unsigned linx_as_line_count(const LinxAs *as);

#endif /* LINX_TOOLS_LINX_AS_H */
