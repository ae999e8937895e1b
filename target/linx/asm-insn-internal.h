/*
 * Internals of the one-instruction assembler (asm-insn.c, asm-insn-ops.c,
 * asm-insn-tile.c):
 * the parse state of one template match and the helpers the operand-kind
 * parsers share.  Not for use outside target/linx/asm-insn*.c.
 *
 * A match walks a template's items over the text; each operand parser
 * reads its operand at c->p, stores field values with set_field() (which
 * checks the value fits, with a message naming the range) and returns
 * false with an error on anything it cannot accept.
 */
#ifndef LINX_TARGET_ASM_INSN_INTERNAL_H
#define LINX_TARGET_ASM_INSN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asm-insn.h"
#include "disas-syntax.h"

typedef enum AsmErrLevel {
    ASM_ERR_NONE,
    ASM_ERR_SYNTAX,   /* the text does not have this template's shape */
    ASM_ERR_SEMANTIC, /* shape matches, a value does not fit */
} AsmErrLevel;

typedef struct AsmCtx {
    const char *text; /* whole instruction text (columns count from here) */
    const char *p;    /* current position */
    const LinxAsmEnv *env;
    bool legacy;
    bool layout_only; /* linx_asm_insn_length: expressions are skipped */
    unsigned form;
    int64_t val[LINX_MAX_FIELDS];
    uint32_t set; /* slots given a value */
    AsmErrLevel level;
    unsigned col;
    char msg[256];
} AsmCtx;

/* Record an error at @at (the more specific error of a match wins). */
bool asm_fail(AsmCtx *c, const char *at, AsmErrLevel level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

const char *asm_skip_ws(const char *p);
bool asm_is_ident_char(char ch);
/* Length of the token at @p made of identifier characters, plus '.' when
 * @dots. */
size_t asm_token_len(const char *p, bool dots);

/* Match literal text (white space in it matches any white space). */
bool asm_match_lit(AsmCtx *c, const char *lit);
/* Consume @word (case-insensitive) if it is the next token; no error. */
bool asm_accept(AsmCtx *c, const char *word);

/* Store @value into field @fid, checking it fits; @scale_log2 and @what
 * only shape the error message (values shown in the user's units). */
bool asm_set_field(AsmCtx *c, unsigned fid, int64_t value, const char *at, const char *what,
                   unsigned scale_log2);

/* Parse an expression operand (through env->eval); *@known is false when
 * it names a symbol not defined yet. */
bool asm_expr(AsmCtx *c, int64_t *value, bool *known);

/* Parse one operand of kind @it->kind. */
bool asm_parse_item(AsmCtx *c, const LinxSynItem *it);

/* Shared operand helpers (asm-insn-ops.c). */
const char *asm_tok_start(AsmCtx *c);          /* skip blanks, return c->p */
bool asm_parse_reg5(AsmCtx *c, int *reg);      /* a 5-bit register name */
bool asm_set(AsmCtx *c, unsigned fid, int64_t v, const char *at); /* "immediate" */
bool asm_parse_shift(AsmCtx *c, int64_t *shift, bool *present);   /* optional <<N */
int asm_parse_srcr_type(AsmCtx *c);            /* .sw .uw .neg .not, or 0 */
const LinxFormField *asm_field_of(AsmCtx *c, unsigned fid);

/* Block-descriptor and kernel-register kinds (asm-insn-tile.c). */
bool asm_parse_ior(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_iord(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_iots(AsmCtx *c);
bool asm_parse_iotd(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_regid10(AsmCtx *c, unsigned fid, bool base, int *srcr_type);
bool asm_parse_vd(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_vlane(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_vidx(AsmCtx *c, const LinxSynItem *it);
bool asm_parse_attr(AsmCtx *c);
bool asm_parse_hint(AsmCtx *c);
bool asm_parse_lvpar(AsmCtx *c, const LinxSynItem *it);

#endif /* LINX_TARGET_ASM_INSN_INTERNAL_H */
