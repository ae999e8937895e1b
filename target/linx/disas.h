/*
 * LinxISA disassembler: one decoded instruction to text, in the syntax of
 * the LinxISA llvm-objdump listings (../shared/guest/disasm).
 *
 *   mnemonic<TAB>operands[ {Field=value,...}][ <symbol+0xoff>]
 *
 * e.g. "addi\tzero, 64, \t->t", "C.BSTART.STD\tCOND, 0xa294a <.LBB301_13>",
 * "B.IOTI\t[t#3.reuse, t#2.reuse]\t->u<2KB>".  Printing is table-driven:
 * each form's template (disas-syntax.h, generated from the catalog) says
 * which operand kinds to print from which fields.  The text is lossless:
 * fields the usual syntax does not show are appended as "{Field=value}"
 * when non-zero, so linx_asm_insn() (asm-insn.h) gives back the same bits.
 *
 * Options: LINX_DISAS_F_LEGACY prints the spellings of the v0.3-era
 * toolchain that produced the shared listings (FP16 = data-type code 4,
 * "BSTART.VPAR VCALL" for the MPAR/TEPL collision, MAMULB, tile sizes
 * clamped to 4KB, "BSTART.STD DIRECT" for the simm25 header, ...).  The
 * differences are listed in docs/disassembly.md.  Legacy text is for
 * comparing with old listings; it is not guaranteed to be lossless.
 *
 * No state: everything the printer needs is in its arguments.
 *
 *   LinxInsn insn;
 *   char text[LINX_DISAS_MAX];
 *   if (linx_decode(buf, len, &insn) == LINX_DECODE_OK) {
 *       linx_disas_insn(&insn, pc, NULL, text, sizeof(text));
 *   }
 */
#ifndef LINX_TARGET_DISAS_H
#define LINX_TARGET_DISAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "profile.h"

/* Enough for any instruction, including overrides and a long symbol. */
#define LINX_DISAS_MAX 1024

enum {
    /* v0.3-era spellings of the shared llvm-objdump listings. */
    LINX_DISAS_F_LEGACY = 1 << 0,
    /* Decode a BSTART/C.BSTART + C.SETRET pair as the fused BSTART.CALL
     * pseudo-instruction (linx_disas_bytes only). */
    LINX_DISAS_F_FUSED_CALL = 1 << 1,
};

/* Symbol lookup: name of the symbol covering @addr and @addr's offset from
 * it, or NULL when none.  The name must stay valid until the call returns. */
typedef const char *(*LinxSymbolLookup)(void *opaque, uint64_t addr, uint64_t *offset);

/* What a sequential listing knows about the header it is in (optional,
 * LinxDisasEnv.header): the disassembler keeps it, so a B.ARG inside a
 * CUBE ACCCVT header prints its quant mode (NORM, QSCALAR) instead of a
 * TMA layout selector. */
typedef struct LinxDisasHeader {
    unsigned type;  /* LinxBlockType of the header being listed, 0 = none */
    unsigned func;
} LinxDisasHeader;

typedef struct LinxDisasEnv {
    unsigned flags; /* LINX_DISAS_F_* */
    LinxSymbolLookup lookup;
    void *opaque;
    /* ISA profile for the SrcRType suffixes (profile.h); NULL: the
     * default, linx-toolchain. */
    const LinxProfile *profile;
    /* Listing state (may be NULL): updated by every linx_disas_insn(). */
    LinxDisasHeader *header;
} LinxDisasEnv;

/* Print @insn, located at @pc, into @buf (always NUL-terminated when
 * @len > 0).  @env may be NULL (no symbols, default syntax).  Illegal
 * instructions (form LINX_F__COUNT) print as ".insn 0x<packed>", which the
 * assembler accepts too.  Returns the length the full text has (like
 * snprintf). */
size_t linx_disas_insn(const LinxInsn *insn, uint64_t pc, const LinxDisasEnv *env, char *buf,
                       size_t len);

/* Decode and print the instruction at @bytes (@avail readable).  Sets
 * *@insn_len to the bytes consumed (the length from the first halfword,
 * even for illegal encodings; 0 only when fewer than 2 bytes remain) and
 * returns the decode status; truncated input prints "<truncated>". */
LinxDecodeStatus linx_disas_bytes(const uint8_t *bytes, size_t avail, uint64_t pc,
                                  const LinxDisasEnv *env, char *buf, size_t len,
                                  unsigned *insn_len);

/* Make a disassembly one line for reports and messages, in place: tabs
 * become spaces, runs of spaces one space, leading spaces go
 * ("ldi\t[a1, 0], \t->a0" -> "ldi [a1, 0], ->a0"). */
void linx_disas_squeeze(char *text);

/* The raw-bytes column of llvm-objdump for an instruction of @len bytes:
 * "3000", "02001181", "000e 02001181" (48-bit: prefix halfword, word),
 * "0129127f 01f92109" (64-bit: prefix word, main word). */
size_t linx_disas_hex(const uint8_t *bytes, unsigned len, char *buf, size_t buflen);

#endif /* LINX_TARGET_DISAS_H */
