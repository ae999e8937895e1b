/*
 * linx-as debug output, shared by its files:
 *   symbol-types.c  STT_FUNC / STT_OBJECT and sizes for labels the source
 *                   did not type (always), and what each data label holds
 *   dwarf.c         with -g: .debug_info/.debug_abbrev/.debug_line/
 *                   .debug_aranges/.debug_ranges (a compile unit of
 *                   language DW_LANG_Mips_Assembler, one line-table row
 *                   per instruction, a subprogram per function, a variable
 *                   per data object)
 *   dwarf-frame.c   with -g: .debug_frame (CFI of the FENTRY frames)
 * docs/assembler.md "Debug information" says what is emitted and why.
 *
 * Everything is absolute (linx-as resolves every address; no relocations),
 * DWARF 4, 32-bit DWARF format, 8-byte addresses.
 */
#ifndef LINX_TOOLS_AS_DWARF_H
#define LINX_TOOLS_AS_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "as-internal.h"

/* A function: a typed (or global, or called) label in a code section. */
typedef struct AsFunc {
    uint32_t sym;
    int sec;
    uint64_t start, end; /* offsets in the section */
    uint32_t file, line; /* where its label is */
} AsFunc;

/* A data object: a label in a data section and what follows it. */
typedef struct AsObject {
    uint32_t sym;
    uint64_t size;
    uint8_t unit; /* element bytes (1, 2, 4, 8) of the data directives; 0: mixed */
    bool string;  /* only .ascii/.asciz/.string */
    bool fill;    /* only .zero/.space/.skip/.fill or .comm */
    uint32_t file, line;
} AsObject;

typedef struct AsSymInfo {
    AsFunc *funcs; /* by section, then offset */
    uint32_t nfuncs;
    AsObject *objs;
    uint32_t nobjs;
} AsSymInfo;

/* A growing byte buffer for the debug sections. */
typedef struct DwBuf {
    uint8_t *p;
    size_t len, cap;
} DwBuf;

void dw_put(DwBuf *b, const void *p, size_t n);
void dw_u8(DwBuf *b, uint8_t v);
void dw_le(DwBuf *b, uint64_t v, unsigned size);
void dw_uleb(DwBuf *b, uint64_t v);
void dw_sleb(DwBuf *b, int64_t v);
void dw_str(DwBuf *b, const char *s);
/* Overwrite @size bytes at @off (a length field written last). */
void dw_patch(DwBuf *b, size_t off, uint64_t v, unsigned size);

/* symbol-types.c */
void as_symbols_classify(LinxAs *as, AsSymInfo *info);
void as_sym_info_free(AsSymInfo *info);

/* dwarf-frame.c: the .debug_frame contents for @info's functions. */
void as_dwarf_frame(LinxAs *as, const AsSymInfo *info, DwBuf *out);

/* Add a non-loaded section named @name holding @b's bytes (taken). */
void as_debug_section(LinxAs *as, const char *name, DwBuf *b);

#endif /* LINX_TOOLS_AS_DWARF_H */
