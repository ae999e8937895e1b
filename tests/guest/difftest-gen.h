/*
 * Random valid LinxISA programs for the differential fuzzer
 * (linx-difftest.c), as assembly text that linx-as assembles.
 *
 * A program is a list of lines; difftest_gen() fills it from a seed, and
 * the minimiser deletes lines.  Layout and register conventions: code at
 * DT_CODE_BASE, x1 holds the base of the DT_RAM_SIZE RAM buffer at
 * DT_RAM_BASE and is never written, x2 a small aligned index, x3 loop
 * counters; the program ends with `ebreak 0` (or an earlier trap, which
 * every run must agree on).
 *
 * What it draws from:
 *  - scalar bodies: every scalar form of the ISA catalog (target/linx/
 *    insn-forms.*) that is not control flow, a system effect or
 *    PC-relative, with random fields that keep it valid (memory offsets
 *    aligned and inside the buffer), printed by the disassembler;
 *  - blocks: FALL, forward COND, counted backward loops, calls of small
 *    functions (FENTRY/FRET.STK, RET blocks, SETRET), forward DIRECT;
 *  - tile blocks: TMA TLOAD/TSTORE headers with legal and illegal
 *    parameters (zero or too large dimensions, bad data types and tile
 *    sizes, missing arguments);
 *  - MPAR/MSEQ kernel blocks with random lane counts and bodies of
 *    vector ALU, compare/select, bridged loads/stores and reductions;
 *  - rarely, a faulting instruction (misaligned, unmapped, ebreak N).
 */
#ifndef LINX_TESTS_DIFFTEST_GEN_H
#define LINX_TESTS_DIFFTEST_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DT_CODE_BASE UINT64_C(0x10000)
#define DT_CODE_SIZE UINT64_C(0x40000)
#define DT_RAM_BASE UINT64_C(0x80000000)
#define DT_RAM_SIZE UINT64_C(0x10000)
#define DT_STACK_TOP UINT64_C(0x7ff00000)
#define DT_STACK_SIZE UINT64_C(0x10000)

typedef struct DtProgram {
    char **line;
    bool *keep; /* the minimiser's mask: false = left out */
    unsigned n, cap;
} DtProgram;

/* Which kinds of blocks difftest_gen() may use (all by default). */
typedef struct DtGenOptions {
    bool tiles;
    bool kernels;
} DtGenOptions;

/* A new program from @seed (the same seed gives the same program). */
void difftest_gen(DtProgram *p, uint64_t seed, const DtGenOptions *o);
void difftest_program_free(DtProgram *p);
/* The kept lines as one text (malloc'ed). */
char *difftest_program_text(const DtProgram *p);
/* Is line @i one the minimiser may drop (not a label, directive or the
 * final ebreak)? */
bool difftest_line_droppable(const DtProgram *p, unsigned i);

/* The catalog forms scalar bodies draw from (-l lists them). */
unsigned difftest_body_forms(unsigned *forms, unsigned max);

#endif /* LINX_TESTS_DIFFTEST_GEN_H */
