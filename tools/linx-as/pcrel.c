/*
 * Symbolic operands of the page-relative instructions (docs/decisions.md
 * D5, digest 1.6).
 *
 * The disassembler prints ADDTPC's immediate as the raw field value
 * ("addtpc 3, ->t": three pages up), so a plain number stays a field
 * value.  LinxISA clang writes the address instead, as an
 * ADRP-style pair:
 *     addtpc .Lx, ->a2            the page delta of .Lx
 *     addi   a2, .Lx, ->a2        the low 12 bits of .Lx
 * When the operand names an address (a label, '.', a numeric label or an
 * .equ of one), it is turned into the field value here before the
 * encoder sees it:
 *     addtpc    A  ->  (page(A) - page(PC)) >> 12      (imm20, signed)
 *     hl.addtpc A  ->  A - page(PC)                    (imm32, signed)
 *     addi/addiw   ->  A & 0xfff
 * where page(x) = x & ~0xfff and PC is the instruction's address.  The
 * encoder then checks the range as for any number.
 */
#include <string.h>

#include "as-internal.h"

#define PCREL_PAGE_MASK 0xfffull
#define PCREL_PAGE_SHIFT 12

typedef enum PcrelKind {
    PCREL_NONE,
    PCREL_PAGE,      /* addtpc */
    PCREL_PAGE_LONG, /* hl.addtpc */
    PCREL_LOW12,     /* addi, addiw: second operand */
} PcrelKind;

static PcrelKind kind_of(const char *text, size_t *mlen)
{
    size_t n = 0;

    while (text[n] && !as_is_space((unsigned char)text[n])) {
        n++;
    }
    *mlen = n;
    if (as_word_eq(text, n, "addtpc")) {
        return PCREL_PAGE;
    }
    if (as_word_eq(text, n, "hl.addtpc")) {
        return PCREL_PAGE_LONG;
    }
    if (as_word_eq(text, n, "addi") || as_word_eq(text, n, "addiw")) {
        return PCREL_LOW12;
    }
    return PCREL_NONE;
}

char *as_pcrel_rewrite(LinxAs *as, const AsStmt *st, const char *text, uint64_t pc, bool *failed)
{
    size_t mlen;
    PcrelKind k = kind_of(text, &mlen);
    const char *start, *p;
    char err[AS_ERRLEN], num[32];
    AsValue v;
    bool symbolic = false;
    int64_t field;
    char *out;
    size_t nlen, tail;

    *failed = false;
    if (k == PCREL_NONE) {
        return NULL;
    }
    start = as_skip_ws(text + mlen);
    if (k == PCREL_LOW12) {
        /* The immediate is the second operand. */
        start = as_arg_end(start);
        if (*start != ',') {
            return NULL;
        }
        start = as_skip_ws(start + 1);
    }
    p = start;
    if (!as_expr_sym(as, &p, &v, &symbolic, err, sizeof(err)) || !symbolic || !v.known) {
        /* Not an address (or not an expression): the encoder decides. */
        return NULL;
    }
    switch (k) {
    case PCREL_PAGE:
        field = (int64_t)(((uint64_t)v.v & ~PCREL_PAGE_MASK) - (pc & ~PCREL_PAGE_MASK)) >>
                PCREL_PAGE_SHIFT;
        break;
    case PCREL_PAGE_LONG:
        field = (int64_t)((uint64_t)v.v - (pc & ~PCREL_PAGE_MASK));
        break;
    default:
        field = (int64_t)((uint64_t)v.v & PCREL_PAGE_MASK);
        break;
    }
    (void)st;
    nlen = (size_t)snprintf(num, sizeof(num), "%lld", (long long)field);
    tail = strlen(p);
    out = as_xmalloc((size_t)(start - text) + nlen + tail + 1);
    memcpy(out, text, (size_t)(start - text));
    memcpy(out + (start - text), num, nlen);
    memcpy(out + (start - text) + nlen, p, tail + 1);
    return out;
}
