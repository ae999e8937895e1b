/*
 * linx-as internals: the assembly context and what the assembler's source
 * files share.
 *
 * Files of the assembler, one idea each:
 *   lexer.c       lines, comments, labels, identifiers, string literals
 *   expr.c        expressions and their values
 *   symbols.c     symbol table and numeric local labels
 *   sections.c    sections, location counters, emitting bytes, layout
 *   directives.c  the dot directives: table, sections, symbols, files
 *   directives-data.c  ... data, .insn, alignment, .org, .comm
 *   template.c    seed template-block syntax (TSTORE/TLOAD/MPAR/MSEQ): parsing
 *   template-emit.c  ... and expansion into header instructions
 *   seed-body.c   seed 004 kernel-body spellings mapped to v0.4 forms
 *   pcrel.c       symbolic operands of ADDTPC/HL.ADDTPC and the low-part ADDI
 *   assemble.c    the two passes and the public API
 *   elf-write.c   ELF (ET_EXEC, ET_REL) and raw binary output
 *   listing.c     the -a listing
 *   objdump-input.c  llvm-objdump listings read back as source (--objdump)
 *   diag.c        error messages
 *   main.c        the command line
 *
 * Invariants: a statement's size is fixed in pass 1 and pass 2 must emit
 * exactly that many bytes; symbol values are (section, offset) pairs until
 * the sections get addresses, absolute afterwards.  Nothing is global.
 */
#ifndef LINX_TOOLS_AS_INTERNAL_H
#define LINX_TOOLS_AS_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "linx-as.h"
#include "target/linx/asm-insn.h"

/* Pseudo section numbers of a value or symbol. */
enum {
    AS_SEC_ABS = -1,   /* plain number */
    AS_SEC_UNDEF = -2, /* not defined (yet) */
};

#define AS_DEFAULT_MAX_ERRORS 50
#define AS_MAX_SECTIONS 256   /* what the ELF and raw writers take (sections.c) */
#define AS_ERRLEN 256

/* A value: absolute (sec == AS_SEC_ABS) or an offset in a section.  In
 * pass 2 every value is absolute.  !known: depends on an undefined symbol. */
typedef struct AsValue {
    int64_t v;
    int sec;
    bool known;
    int8_t addr; /* net count of address terms: 1 = an address, 0 = a number */
} AsValue;

typedef enum AsStmtKind {
    AS_ST_LABEL,     /* name: */
    AS_ST_INSN,      /* one instruction, encoded by linx_asm_insn */
    AS_ST_DIRECTIVE, /* .something */
    AS_ST_ASSIGN,    /* name = expr */
    AS_ST_TEMPLATE,  /* seed template block, expanded to several instructions */
} AsStmtKind;

struct AsTemplate;

typedef struct AsStmt {
    uint8_t kind;       /* AsStmtKind */
    bool failed;        /* reported in pass 1: pass 2 skips it */
    uint16_t dir;       /* directive index (AS_ST_DIRECTIVE) */
    uint32_t file;      /* index in LinxAs.files */
    uint32_t line;      /* 1-based */
    uint32_t col;       /* 0-based column of text in the line */
    int32_t sec;        /* section it is in */
    uint64_t off;       /* location counter before it */
    uint64_t size;      /* bytes it occupies */
    char *text;         /* statement text, NUL-terminated (points into the file copy) */
    char *args;         /* operands (inside text), or "" */
    char *rewritten;    /* owned: text after a seed-body rewrite, or the call header
                         * of a fused call ("..., ra=LABEL"), or NULL */
    char *ra_label;     /* owned: LABEL of a fused call's "ra=LABEL", or NULL */
    uint32_t sym;       /* AS_ST_LABEL / AS_ST_ASSIGN: symbol index */
    uint64_t numlabel;  /* AS_ST_LABEL of a numeric label ("1:"): its number */
    bool is_numlabel;
    struct AsTemplate *tmpl; /* AS_ST_TEMPLATE: owned */
} AsStmt;

typedef struct AsFile {
    char *name;
    char *src;          /* original text, NUL-terminated (for messages) */
    char *work;         /* copy that the lexer cuts into statements */
    size_t len;
    uint32_t *line_off; /* start offset of each line */
    uint32_t nlines;
} AsFile;

typedef struct AsSection {
    char *name;
    uint32_t type;      /* ELF_SHT_PROGBITS or ELF_SHT_NOBITS */
    uint64_t flags;     /* ELF_SHF_* */
    uint64_t align;     /* largest alignment requested */
    uint64_t size;      /* final size (from pass 1) */
    uint64_t lc;        /* location counter of the current pass */
    uint8_t *data;      /* pass 2 contents (PROGBITS) */
    uint64_t addr;      /* assigned address */
    uint32_t elf_index; /* section header index in the output */
    bool explicit_use;  /* named by a directive or holding data */
} AsSection;

typedef struct AsSymbol {
    char *name;
    int32_t sec;         /* AS_SEC_ABS, AS_SEC_UNDEF or a section */
    int64_t value;       /* offset in sec, or the absolute value */
    uint64_t size;
    uint8_t type;        /* STT_* */
    uint8_t bind;        /* STB_* */
    bool defined;
    bool has_size;
    bool is_equ;         /* defined by .equ/.set/= */
    bool explicit_local; /* .local */
    bool is_address;     /* a label, or an .equ of an address */
    bool referenced;
    uint8_t equ_state;   /* AS_EQU_* */
    const char *equ_expr;/* pending .equ expression text (lazy) */
    uint32_t equ_stmt;   /* statement of that .equ */
    uint32_t equ_gen;    /* equ_resolve round that left it unknown */
    uint32_t def_file, def_line;
    uint32_t ref_stmt;   /* first statement that referenced it (+1), 0 none */
    uint32_t elf_index;
} AsSymbol;

enum {
    AS_EQU_NONE,
    AS_EQU_PENDING, /* value not computed yet: evaluate equ_expr on use */
    AS_EQU_BUSY,    /* being evaluated (cycle detection) */
};

typedef struct AsNumLabel {
    uint64_t num;
    uint32_t *stmts;    /* defining label statements, in order */
    uint32_t n, cap;
} AsNumLabel;

enum { AS_SECTION_STACK_DEPTH = 16 };

struct LinxAs {
    LinxAsOptions opt;

    AsFile *files;
    uint32_t nfiles, files_cap;

    AsStmt *stmts;
    uint32_t nstmts, stmts_cap;

    AsSection *secs;
    int nsecs, secs_cap;
    int cur_sec;
    int prev_sec;
    int sec_stack[AS_SECTION_STACK_DEPTH];
    int sec_sp;

    AsSymbol *syms;
    uint32_t nsyms, syms_cap;
    uint32_t *hash;        /* symbol index + 1, 0 = empty */
    uint32_t hash_cap;

    AsNumLabel *numlabels;
    uint32_t nnumlabels, numlabels_cap;

    int pass;              /* 1 or 2 */
    uint32_t cur_stmt;     /* statement being processed */
    bool addresses_known;  /* sections have addresses (pass 2) */
    bool assembled;        /* linx_as_assemble succeeded */
    bool in_block_comment; /* lexer state across lines */
    bool ended;            /* .end seen */
    unsigned include_depth;
    uint32_t equ_gen;      /* rounds of equ_resolve (symbols.c) */
    uint32_t equ_missing;  /* pending .equ named by the one being evaluated (+1) */
    bool equ_defer;        /* inside equ_resolve: do not evaluate pending .equ */

    char **seed_bodies;    /* body labels of seed MPAR/MSEQ headers seen so far */
    uint32_t nseed_bodies, seed_bodies_cap;
    bool in_seed_body;     /* between such a label and its block terminator */

    char *file_sym;        /* name from .file, for an STT_FILE symbol */
    uint64_t entry;

    /* Macros and repetitions (macro.c). */
    struct AsMacro **macros;
    uint32_t nmacros, macros_cap;
    struct AsMacroCollect *mc_collect; /* the body being collected */
    char **macro_text;                 /* expanded lines (statements point into them) */
    uint32_t nmacro_text, macro_text_cap;
    uint32_t macro_expanded;           /* lines expanded so far (limit) */
    uint32_t macro_count;              /* \@ */
    bool macro_exit;                   /* .exitm seen */
    unsigned warnings;
    /* The tile/kernel header pass 2 is in (linx-as warns when another
     * instruction than a B.* descriptor sits inside one). */
    bool in_header;
    bool header_warned;
    uint32_t header_line;
    char *diag;
    size_t diag_len, diag_cap;
    struct AsDiagRec *diag_recs; /* where each message is in diag, for sorting */
    uint32_t ndiag, diag_recs_cap;
    unsigned errors;
    unsigned total_lines;
    uint64_t source_bytes; /* of all files added, for LINX_AS_MAX_TOTAL_SOURCE_BYTES */
};

/* ---- memory ---------------------------------------------------------- */
void *as_xmalloc(size_t n);
void *as_xcalloc(size_t n, size_t size);
void *as_xrealloc(void *p, size_t n);
char *as_xstrndup(const char *s, size_t n);
/* Grow *p (element size @esize) so that index @need - 1 fits. */
void as_grow(void **p, uint32_t *cap, uint32_t need, size_t esize);

/* Text for a linx_as_read_stream() error number (assemble.c). */
const char *as_read_error(int e);

/* ---- diagnostics (diag.c) ------------------------------------------------ */
/* Report an error at column @col (0-based) of statement @st's line. */
void as_error(LinxAs *as, const AsStmt *st, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void as_verror(LinxAs *as, uint32_t file, uint32_t line, unsigned col, const char *fmt,
               va_list ap);
/* Column (0-based) of pointer @p, which points into @st's line. */
unsigned as_col(const LinxAs *as, const AsStmt *st, const char *p);
/* Report without a source position (e.g. "cannot open file"). */
void as_error_nopos(LinxAs *as, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool as_too_many_errors(const LinxAs *as);
/* Put the messages in source order (pass 2 finds some after pass 1). */
void as_diag_sort(LinxAs *as);
/* ---- macros (macro.c) ---- */
void as_macro_line(LinxAs *as, uint32_t fi, uint32_t lineno, char *line);
void as_macro_end_file(LinxAs *as, uint32_t fi);
void as_macros_free(LinxAs *as);
/* One comment-free line into statements (lexer.c). */
void as_lex_stmt_line(LinxAs *as, uint32_t fi, uint32_t lineno, char *line);
/* A warning (does not fail the run; printed with the diagnostics). */
void as_warning(LinxAs *as, const AsStmt *st, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- lexer (lexer.c) ------------------------------------------------------ */
static inline bool as_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
static inline bool as_is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
           c == '$';
}
static inline bool as_is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static inline bool as_is_ident_char(int c)
{
    return as_is_ident_start(c) || as_is_digit(c);
}
static inline const char *as_skip_ws(const char *p)
{
    while (as_is_space((unsigned char)*p)) {
        p++;
    }
    return p;
}
size_t as_ident_len(const char *p);
/* Cut comments off @line in place (handles strings and block comments). */
void as_strip_comment(LinxAs *as, char *line);
/* Split file @fi into lines and statements (pass 1 front end). */
void as_lex_file(LinxAs *as, uint32_t fi);
/* Parse a "..." literal at *pp (escapes decoded) into a malloc'ed buffer;
 * false with @err set on a malformed literal. */
bool as_parse_string(const char **pp, char **out, size_t *outlen, char *err, size_t errlen);
/* End of the comma-separated argument starting at @p (nesting of (), [],
 * strings and character literals respected). */
const char *as_arg_end(const char *p);
/* Case-insensitive compare of @n bytes of @p with NUL-terminated @word,
 * requiring the whole word. */
bool as_word_eq(const char *p, size_t n, const char *word);

/* ---- expressions (expr.c) ------------------------------------------------ */
/* Parse and evaluate the expression at *pp, advancing *pp.  False with
 * @err set on a syntax error, an undefined symbol in pass 2, or an
 * operation on values that cannot be combined. */
bool as_expr(LinxAs *as, const char **pp, AsValue *out, char *err, size_t errlen);
/* The same, also telling whether the value is an address (one label, '.',
 * numeric label or .equ of one, plus or minus numbers) rather than a
 * number (label differences are numbers). */
bool as_expr_sym(LinxAs *as, const char **pp, AsValue *out, bool *symbolic, char *err,
                 size_t errlen);
/* Parse an expression that must be an absolute value now; reports errors
 * against @st and returns false. */
bool as_expr_abs(LinxAs *as, AsStmt *st, const char **pp, int64_t *v, const char *what);
/* The callback given to linx_asm_insn (LinxAsmEnv.eval). */
bool as_expr_eval_cb(void *opaque, const char **pp, int64_t *value, bool *known, char *err,
                     size_t errlen);
/* Value in the form needed now: absolute when addresses are known. */
AsValue as_value_of_loc(const LinxAs *as, int sec, uint64_t off);

/* ---- symbols (symbols.c) --------------------------------------------------- */
AsSymbol *as_sym_find(const LinxAs *as, const char *name, size_t len);
uint32_t as_sym_intern(LinxAs *as, const char *name, size_t len);
/* The current value of a symbol (evaluating a pending .equ); false with
 * @err on a cycle or an expression error. */
bool as_sym_value(LinxAs *as, AsSymbol *s, AsValue *out, char *err, size_t errlen);
void as_numlabel_define(LinxAs *as, uint64_t num, uint32_t stmt);
/* Value of "Nb" (@forward false) or "Nf" seen from the current statement. */
bool as_numlabel_value(LinxAs *as, uint64_t num, bool forward, AsValue *out);
void as_symbols_free(LinxAs *as);

/* ---- sections (sections.c) ------------------------------------------------- */
int as_section_find(const LinxAs *as, const char *name);
/* Find or create a section; new ones get attributes from their name.  -1
 * when @name is new and AS_MAX_SECTIONS exist already. */
int as_section_get(LinxAs *as, const char *name);
/* as_section_get reporting "too many sections" against @st (-1 then). */
int as_section_get_at(LinxAs *as, AsStmt *st, const char *name);
void as_section_switch(LinxAs *as, int sec);
/* Append bytes at the location counter (pass 2 stores them). */
void as_emit(LinxAs *as, const void *bytes, uint64_t n);
void as_emit_fill(LinxAs *as, uint64_t n, uint8_t value);
void as_emit_le(LinxAs *as, uint64_t value, unsigned size);
/* Give every section an address (format decides page grouping). */
void as_layout(LinxAs *as);
void as_sections_alloc_data(LinxAs *as);
void as_sections_free(LinxAs *as);
static inline bool as_sec_loaded(const AsSection *s)
{
    return (s->flags & 2u /* SHF_ALLOC */) != 0;
}

/* ---- directives (directives.c) ------------------------------------------- */
/* Index of directive @name (with its dot) or -1. */
int as_directive_find(const char *name, size_t len);
void as_directive_run(LinxAs *as, AsStmt *st);
void as_assign_run(LinxAs *as, AsStmt *st);

/* ---- templates (template.c, template-emit.c) ------------------------------ */
bool as_template_mnemonic(const char *mn, size_t len);
/* Pass 1: parse, choose encodings, set st->size. */
bool as_template_parse(LinxAs *as, AsStmt *st);
/* Pass 2: evaluate operands and emit the header instructions. */
void as_template_emit(LinxAs *as, AsStmt *st);
void as_template_free(struct AsTemplate *t);
/* Listing text of the @i-th expanded instruction (NULL past the end). */
const char *as_template_insn_text(const struct AsTemplate *t, unsigned i, unsigned *len_out);

/* ---- page-relative operands (pcrel.c) ---------------------------------------- */
/* Pass 2: the text to encode when a page-relative instruction names an
 * address (malloc'ed), or NULL to encode @text as it is.  Errors are
 * reported against @st and set *@failed. */
char *as_pcrel_rewrite(LinxAs *as, const AsStmt *st, const char *text, uint64_t pc, bool *failed);

/* ---- seed kernel-body spellings (seed-body.c) ------------------------------ */
/* NULL if @text needs no change, else the v0.4 spelling (malloc'ed).
 * Only for instructions inside a seed kernel body (see seed-body.c). */
char *as_seed_body_rewrite(const char *text);
/* A seed MPAR/MSEQ header names @name (@len bytes) as its body. */
void as_seed_body_note(LinxAs *as, const char *name, size_t len);
/* Pass 1 bookkeeping of the "inside a seed kernel body" state. */
void as_seed_body_track(LinxAs *as, const AsStmt *st);

/* ---- symbol types and debug information (symbol-types.c, dwarf.c) -------- */
/* After pass 2: type and size the labels the source left untyped, and
 * with -g add the DWARF sections. */
void as_debug_finish(LinxAs *as);

#endif /* LINX_TOOLS_AS_INTERNAL_H */
