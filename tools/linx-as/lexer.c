/*
 * linx-as lexer: cuts a source file into lines and statements.
 *
 * Comments (docs/assembler.md "Syntax"):
 *   - `#` as the first non-blank character of a line, or followed by a
 *     blank or the end of the line (so `t#1` is not a comment; clang emits
 *     "# " comments, LinxISA's MCAsmInfo uses "# " for this reason);
 *   - `;` and `//` to the end of the line (llvm-objdump's annotations);
 *   - C block comments, which may span lines.
 * Comment characters inside "strings" and 'c' literals do not count.
 * Comment text is blanked or cut in the working copy only, so columns in
 * messages match the original line.
 *
 * A line holds any number of labels (`name:`, numeric `1:`) followed by at
 * most one statement: an assignment `name = expr`, a directive `.xxx`, a
 * seed template block, or an instruction.  A statement that is just "..."
 * (the seeds' examples elide code that way) is ignored.  Every statement is handed to
 * pass 1 (assemble.c) as soon as it is cut, because directives such as
 * .section change how the following statements are read.
 */
#include <string.h>

#include "as-internal.h"

#define ELISION "..."

/* Pass 1 of one statement (assemble.c). */
void as_pass1_stmt(LinxAs *as, uint32_t idx);

size_t as_ident_len(const char *p)
{
    size_t n = 0;

    if (!as_is_ident_start((unsigned char)p[0])) {
        return 0;
    }
    while (as_is_ident_char((unsigned char)p[n])) {
        n++;
    }
    return n;
}

bool as_word_eq(const char *p, size_t n, const char *word)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char a = p[i], b = word[i];
        if (b == '\0') {
            return false;
        }
        if (a >= 'A' && a <= 'Z') {
            a = (char)(a - 'A' + 'a');
        }
        if (b >= 'A' && b <= 'Z') {
            b = (char)(b - 'A' + 'a');
        }
        if (a != b) {
            return false;
        }
    }
    return word[i] == '\0';
}

/* Skip a character literal starting at the quote @p; returns the first
 * character after it.  Accepts 'c', '\n' and gas's unclosed 'c. */
static const char *skip_char_literal(const char *p)
{
    p++;
    if (*p == '\\' && p[1]) {
        p += 2;
    } else if (*p) {
        p++;
    }
    if (*p == '\'') {
        p++;
    }
    return p;
}

/* Skip a string literal starting at the quote @p (to its closing quote or
 * the end of the line). */
static const char *skip_string(const char *p)
{
    p++;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1]) {
            p++;
        }
        p++;
    }
    return *p ? p + 1 : p;
}

void as_strip_comment(LinxAs *as, char *line)
{
    char *p = line;
    bool first = true;

    if (as->in_block_comment) {
        char *end = strstr(p, "*/");
        if (!end) {
            memset(p, ' ', strlen(p));
            return;
        }
        memset(p, ' ', (size_t)(end + 2 - p));
        as->in_block_comment = false;
        p = end + 2;
    }
    while (*p) {
        char c = *p;
        if (as_is_space((unsigned char)c)) {
            p++;
            continue;
        }
        if (c == '"') {
            p = (char *)skip_string(p);
        } else if (c == '\'') {
            p = (char *)skip_char_literal(p);
        } else if (c == ';' || (c == '/' && p[1] == '/')) {
            *p = '\0';
            return;
        } else if (c == '#' && (first || p[1] == '\0' || as_is_space((unsigned char)p[1]))) {
            *p = '\0';
            return;
        } else if (c == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            if (!end) {
                *p = '\0';
                as->in_block_comment = true;
                return;
            }
            memset(p, ' ', (size_t)(end + 2 - p));
            p = end + 2;
            continue;
        } else {
            p++;
        }
        first = false;
    }
}

const char *as_arg_end(const char *p)
{
    int depth = 0;

    while (*p) {
        char c = *p;
        if (c == '"') {
            p = skip_string(p);
            continue;
        }
        if (c == '\'') {
            p = skip_char_literal(p);
            continue;
        }
        if (c == '(' || c == '[') {
            depth++;
        } else if ((c == ')' || c == ']') && depth > 0) {
            depth--;
        } else if (c == ',' && depth == 0) {
            break;
        }
        p++;
    }
    return p;
}

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

bool as_parse_string(const char **pp, char **out, size_t *outlen, char *err, size_t errlen)
{
    const char *p = *pp;
    size_t cap = 16, n = 0;
    char *buf;

    if (*p != '"') {
        snprintf(err, errlen, "expected a string literal");
        return false;
    }
    buf = as_xmalloc(cap);
    p++;
    while (*p && *p != '"') {
        int c = (unsigned char)*p++;
        if (c == '\\') {
            int e = (unsigned char)*p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'v': c = '\v'; break;
            case 'e': c = 0x1b; break;
            case '\\': c = '\\'; break;
            case '"': c = '"'; break;
            case '\'': c = '\''; break;
            case 'x': {
                int v = 0, digits = 0, d;
                while ((d = hex_digit((unsigned char)*p)) >= 0 && digits < 2) {
                    v = v * 16 + d;
                    p++;
                    digits++;
                }
                if (!digits) {
                    snprintf(err, errlen, "bad escape: '\\x' without hex digits");
                    free(buf);
                    return false;
                }
                c = v;
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    int v = e - '0', digits = 1;
                    while (*p >= '0' && *p <= '7' && digits < 3) {
                        v = v * 8 + (*p++ - '0');
                        digits++;
                    }
                    c = v & 0xff;
                } else {
                    snprintf(err, errlen, "bad escape: '\\%c'", e ? e : ' ');
                    free(buf);
                    return false;
                }
                break;
            }
        }
        if (n + 1 >= cap) {
            cap *= 2;
            buf = as_xrealloc(buf, cap);
        }
        buf[n++] = (char)c;
    }
    if (*p != '"') {
        snprintf(err, errlen, "unterminated string literal");
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *pp = p + 1;
    *out = buf;
    *outlen = n;
    return true;
}

static uint32_t new_stmt(LinxAs *as, uint32_t file, uint32_t line, char *text, char *line_start)
{
    AsStmt *st;

    as_grow((void **)&as->stmts, &as->stmts_cap, as->nstmts + 1, sizeof(AsStmt));
    st = &as->stmts[as->nstmts];
    memset(st, 0, sizeof(*st));
    st->file = file;
    st->line = line;
    st->col = (uint32_t)(text - line_start);
    st->text = text;
    st->args = text + strlen(text);
    st->sec = as->cur_sec;
    return as->nstmts++;
}

/* Cut one (comment-free) line into labels and a statement, running pass 1
 * on each.  The text must live as long as the assembler (statements point
 * into it). */
void as_lex_stmt_line(LinxAs *as, uint32_t fi, uint32_t lineno, char *line)
{
    char *p = line;
    char *end;

    end = line + strlen(line);
    while (end > line && as_is_space((unsigned char)end[-1])) {
        *--end = '\0';
    }

    for (;;) {
        size_t n;
        p = (char *)as_skip_ws(p);
        if (*p == '\0' || as->ended) {
            return;
        }
        if (as_is_digit((unsigned char)*p)) {
            n = 0;
            while (as_is_digit((unsigned char)p[n])) {
                n++;
            }
            if (p[n] != ':') {
                break;
            }
        } else {
            n = as_ident_len(p);
            if (n == 0 || p[n] != ':') {
                break;
            }
        }
        {
            uint32_t idx = new_stmt(as, fi, lineno, p, line);
            AsStmt *st = &as->stmts[idx];
            st->kind = AS_ST_LABEL;
            st->args = p + n; /* the label name is text[0..n) */
            p[n] = '\0';
            as_pass1_stmt(as, idx);
            p += n + 1;
        }
    }

    /* The seeds' elision mark "..." stands for code left out: nothing. */
    if (strcmp(p, ELISION) == 0) {
        return;
    }
    {
        uint32_t idx = new_stmt(as, fi, lineno, p, line);
        AsStmt *st = &as->stmts[idx];
        char *q = p;
        size_t n = as_ident_len(p);
        char *after = (char *)as_skip_ws(p + n);

        if (n > 0 && *after == '=' && after[1] != '=') {
            st->kind = AS_ST_ASSIGN;
            st->args = (char *)as_skip_ws(after + 1);
            as_pass1_stmt(as, idx);
            return;
        }
        while (*q && !as_is_space((unsigned char)*q)) {
            q++;
        }
        st->args = (char *)as_skip_ws(q);
        st->kind = (*p == '.' && as_directive_find(p, (size_t)(q - p)) >= 0) ? AS_ST_DIRECTIVE
                   : as_template_mnemonic(p, (size_t)(q - p))                 ? AS_ST_TEMPLATE
                                                                                : AS_ST_INSN;
        if (st->kind == AS_ST_DIRECTIVE) {
            st->dir = (uint16_t)as_directive_find(p, (size_t)(q - p));
        } else if (*p == '.' && st->kind == AS_ST_INSN) {
            /* ".foo" that is no directive: report it as one, not as an
             * unknown mnemonic. */
            st->kind = AS_ST_DIRECTIVE;
            st->dir = UINT16_MAX;
        }
        as_pass1_stmt(as, idx);
    }
}

void as_lex_file(LinxAs *as, uint32_t fi)
{
    AsFile *f = &as->files[fi]; /* re-fetched below: .include may move it */
    uint32_t cap = 0;
    size_t i = 0;

    f->nlines = 0;
    while (i <= f->len) {
        size_t s = i;
        as_grow((void **)&f->line_off, &cap, f->nlines + 1, sizeof(uint32_t));
        f->line_off[f->nlines++] = (uint32_t)s;
        while (i < f->len && f->src[i] != '\n') {
            i++;
        }
        if (i >= f->len) {
            break;
        }
        i++;
    }
    /* A final newline does not start another line. */
    if (f->nlines > 1 && f->line_off[f->nlines - 1] == f->len) {
        f->nlines--;
    }
    as->in_block_comment = false;
    for (uint32_t l = 0; l < as->files[fi].nlines; l++) {
        AsFile *cf = &as->files[fi];
        char *line = cf->work + cf->line_off[l];
        size_t avail = cf->len - cf->line_off[l];
        char *nl = memchr(line, '\n', avail);
        size_t len = nl ? (size_t)(nl - line) : avail;
        char *nul = memchr(line, '\0', len);

        if (nl) {
            *nl = '\0';
        }
        if (nl && nl > line && nl[-1] == '\r') {
            nl[-1] = '\0';
        }
        as->total_lines++;
        if (as_too_many_errors(as) || as->ended) {
            continue;
        }
        if (nul) {
            /* The rest of the line would be lost: GNU as reads on, we refuse. */
            AsStmt at = { .file = fi, .line = l + 1 };
            as_error(as, &at, (unsigned)(nul - line),
                     "bad character: NUL byte in the line (text after it would be ignored)");
            continue;
        }
        as_macro_line(as, fi, l + 1, line); /* comments, macros, then statements */
    }
    as_macro_end_file(as, fi);
}
