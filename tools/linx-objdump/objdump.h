/*
 * linx-objdump's parts: the options (main.c), the ELF headers, symbols,
 * relocations and contents (elf-dump.c) and the disassembly of ELF
 * sections and hex words (disasm.c).  The command line and the output
 * shapes follow llvm-objdump (docs/disassembly.md).
 */
#ifndef LINX_TOOLS_OBJDUMP_H
#define LINX_TOOLS_OBJDUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "target/linx/disas.h"
#include "util/elf-file.h"

#define OBJDUMP_MAX_SECTIONS 64

typedef struct ObjdumpOptions {
    bool disassemble;     /* -d: executable sections */
    bool disassemble_all; /* -D: every allocated section with contents */
    bool headers;         /* -h */
    bool relocs;          /* -r */
    bool syms;            /* -t */
    bool contents;        /* -s */
    bool raw_insn;        /* bytes column (--no-show-raw-insn clears) */
    bool leading_addr;    /* address column (--no-leading-addr clears) */
    bool symbolize;       /* --symbolize-operands */
    unsigned flags;       /* LINX_DISAS_F_* (-M legacy) */
    const LinxProfile *profile; /* -M linx-toolchain / linx-v0.4; NULL: auto */
    const char *sections[OBJDUMP_MAX_SECTIONS]; /* -j NAME */
    unsigned nsections;
    uint64_t start, stop; /* --start-address, --stop-address (stop: exclusive) */
    bool have_start, have_stop;
    const char *hex, *hex_file; /* --hex WORDS, --hex-file FILE */
} ObjdumpOptions;

/* Is section @name selected (no -j, or named by one)? */
bool objdump_section_selected(const ObjdumpOptions *o, const char *name);

/* elf-dump.c */
void objdump_section_headers(const ElfFile *ef, const ObjdumpOptions *o);
void objdump_symbols(const ElfFile *ef);
void objdump_relocations(const ElfFile *ef, const ObjdumpOptions *o);
void objdump_contents(const ElfFile *ef, const ObjdumpOptions *o);

/* disasm.c: 0 or the exit status of an error. */
int objdump_disassemble_elf(const char *path, const ElfFile *ef, const ObjdumpOptions *o);
int objdump_disassemble_hex(const ObjdumpOptions *o);

#endif /* LINX_TOOLS_OBJDUMP_H */
