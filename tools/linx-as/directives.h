/*
 * linx-as directives: what directives.c (table, sections, symbols, files)
 * and directives-data.c (data, alignment, location, common symbols)
 * share.  Handlers run in both passes (as->pass) and must advance the
 * location counter by the same amount in each.
 */
#ifndef LINX_TOOLS_AS_DIRECTIVES_H
#define LINX_TOOLS_AS_DIRECTIVES_H

#include "as-internal.h"

#define AS_MAX_ALIGN_LOG2 16              /* .p2align 16 = 64 KiB at most */
#define AS_MAX_SECTION_BYTES (1ull << 28) /* 256 MiB per section */

/* ELF symbol binding and type codes. */
enum {
    AS_STB_LOCAL = 0,
    AS_STB_GLOBAL = 1,
    AS_STB_WEAK = 2,
    AS_STT_NOTYPE = 0,
    AS_STT_OBJECT = 1,
    AS_STT_FUNC = 2,
    AS_STT_TLS = 6,
};

/* The directive's name as written, and its length. */
const char *dir_name(const AsStmt *st);
int dir_name_len(const AsStmt *st);
/* Expect the end of the operands at @p (reports and returns false if not). */
bool dir_expect_end(LinxAs *as, AsStmt *st, const char *p);
/* Expect a ',' at *@pp and step over it. */
bool dir_expect_comma(LinxAs *as, AsStmt *st, const char **pp, const char *what);
/* A symbol name operand at *@pp (skips blanks); its length, 0 after reporting. */
size_t dir_symbol_operand(LinxAs *as, AsStmt *st, const char **pp);
/* False (reported) when the current section is NOBITS. */
bool dir_no_data_in_nobits(LinxAs *as, AsStmt *st);
/* False (reported) when @n more bytes would pass AS_MAX_SECTION_BYTES. */
bool dir_room_for(LinxAs *as, AsStmt *st, uint64_t n);

/* Handlers of directives-data.c. */
void dir_data(LinxAs *as, AsStmt *st, int size);
void dir_ascii(LinxAs *as, AsStmt *st, int zero);
void dir_space(LinxAs *as, AsStmt *st, int arg);
void dir_fill(LinxAs *as, AsStmt *st, int arg);
void dir_insn(LinxAs *as, AsStmt *st, int arg);
void dir_align(LinxAs *as, AsStmt *st, int bytes);
void dir_org(LinxAs *as, AsStmt *st, int arg);
void dir_comm(LinxAs *as, AsStmt *st, int global);

#endif /* LINX_TOOLS_AS_DIRECTIVES_H */
