/*
 * linx-as error reporting (and the checked allocation helpers).
 *
 * Every message has the form
 *
 *   file:line:col: error: <rule>: <what>
 *     <the source line>
 *     <caret under the column>
 *
 * where <rule> is one of a small fixed set of phrases ("unknown mnemonic",
 * "wrong operand kind", "immediate out of range", "undefined symbol",
 * "duplicate symbol", "misaligned target", "bad directive", ...) and <what>
 * quotes the offending text.  Messages are collected in the LinxAs object;
 * the command line prints them, the tests read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as-internal.h"

void *as_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "linx-as: out of memory\n");
        exit(2);
    }
    return p;
}

void *as_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "linx-as: out of memory\n");
        exit(2);
    }
    return p;
}

void *as_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "linx-as: out of memory\n");
        exit(2);
    }
    return p;
}

char *as_xstrndup(const char *s, size_t n)
{
    char *d = as_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void as_grow(void **p, uint32_t *cap, uint32_t need, size_t esize)
{
    uint32_t c = *cap;

    if (need <= c) {
        return;
    }
    c = c ? c : 16;
    while (c < need) {
        c *= 2;
    }
    *p = as_xrealloc(*p, (size_t)c * esize);
    memset((char *)*p + (size_t)*cap * esize, 0, (size_t)(c - *cap) * esize);
    *cap = c;
}

typedef struct AsDiagRec {
    uint64_t key; /* file << 32 | line; messages without a position last */
    uint32_t seq;
    size_t off, len;
} AsDiagRec;

static void diag_append(LinxAs *as, const char *s, size_t n)
{
    if (as->diag_len + n + 1 > as->diag_cap) {
        size_t c = as->diag_cap ? as->diag_cap : 1024;
        while (c < as->diag_len + n + 1) {
            c *= 2;
        }
        as->diag = as_xrealloc(as->diag, c);
        as->diag_cap = c;
    }
    memcpy(as->diag + as->diag_len, s, n);
    as->diag_len += n;
    as->diag[as->diag_len] = '\0';
}

static void diag_vprintf(LinxAs *as, const char *fmt, va_list ap)
{
    char buf[1024];
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);

    if (n < 0) {
        return;
    }
    diag_append(as, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void diag_printf(LinxAs *as, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vprintf(as, fmt, ap);
    va_end(ap);
}

bool as_too_many_errors(const LinxAs *as)
{
    unsigned max = as->opt.max_errors ? as->opt.max_errors : AS_DEFAULT_MAX_ERRORS;
    return as->errors >= max;
}

/* Print the source line and a caret under column @col (tabs kept so that
 * the caret lines up in a terminal). */
static void diag_show_line(LinxAs *as, const AsFile *f, uint32_t line, unsigned col)
{
    const char *s, *e;

    if (line == 0 || line > f->nlines) {
        return;
    }
    s = f->src + f->line_off[line - 1];
    e = s;
    while (*e && *e != '\n' && *e != '\r') {
        e++;
    }
    diag_append(as, "  ", 2);
    diag_append(as, s, (size_t)(e - s));
    diag_append(as, "\n  ", 3);
    for (unsigned i = 0; i < col && s + i < e; i++) {
        diag_append(as, s[i] == '\t' ? "\t" : " ", 1);
    }
    diag_append(as, "^\n", 2);
}

static void diag_record(LinxAs *as, uint64_t key, size_t start)
{
    AsDiagRec *r;

    as_grow((void **)&as->diag_recs, &as->diag_recs_cap, as->ndiag + 1, sizeof(AsDiagRec));
    r = &as->diag_recs[as->ndiag];
    r->key = key;
    r->seq = as->ndiag++;
    r->off = start;
    r->len = as->diag_len - start;
}

static int diag_cmp(const void *a, const void *b)
{
    const AsDiagRec *x = a, *y = b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void as_diag_sort(LinxAs *as)
{
    char *sorted;
    size_t n = 0;

    if (as->ndiag < 2) {
        return;
    }
    qsort(as->diag_recs, as->ndiag, sizeof(AsDiagRec), diag_cmp);
    sorted = as_xmalloc(as->diag_cap);
    for (uint32_t i = 0; i < as->ndiag; i++) {
        memcpy(sorted + n, as->diag + as->diag_recs[i].off, as->diag_recs[i].len);
        as->diag_recs[i].off = n;
        as->diag_recs[i].seq = i;
        n += as->diag_recs[i].len;
    }
    /* Text not in a record (the "too many errors" line) goes last. */
    if (n < as->diag_len) {
        static const char note[] = "linx-as: too many errors, stopping\n";
        memcpy(sorted + n, note, sizeof(note) - 1);
        n += sizeof(note) - 1;
    }
    sorted[n] = '\0';
    free(as->diag);
    as->diag = sorted;
    as->diag_len = n;
}

void as_verror(LinxAs *as, uint32_t file, uint32_t line, unsigned col, const char *fmt,
               va_list ap)
{
    const AsFile *f = file < as->nfiles ? &as->files[file] : NULL;
    size_t start = as->diag_len;

    as->errors++;
    if (as->errors > (as->opt.max_errors ? as->opt.max_errors : AS_DEFAULT_MAX_ERRORS)) {
        return;
    }
    diag_printf(as, "%s:%u:%u: error: ", f ? f->name : "<input>", line, col + 1);
    diag_vprintf(as, fmt, ap);
    diag_append(as, "\n", 1);
    if (f) {
        diag_show_line(as, f, line, col);
    }
    diag_record(as, (uint64_t)file << 32 | line, start);
    if (as_too_many_errors(as)) {
        diag_printf(as, "linx-as: too many errors, stopping\n");
    }
}

void as_warning(LinxAs *as, const AsStmt *st, unsigned col, const char *fmt, ...)
{
    const AsFile *f = st->file < as->nfiles ? &as->files[st->file] : NULL;
    size_t start = as->diag_len;
    va_list ap;

    as->warnings++;
    diag_printf(as, "%s:%u:%u: warning: ", f ? f->name : "<input>", st->line, col + 1);
    va_start(ap, fmt);
    diag_vprintf(as, fmt, ap);
    va_end(ap);
    diag_append(as, "\n", 1);
    if (f) {
        diag_show_line(as, f, st->line, col);
    }
    diag_record(as, (uint64_t)st->file << 32 | st->line, start);
}

void as_error(LinxAs *as, const AsStmt *st, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    as_verror(as, st->file, st->line, col, fmt, ap);
    va_end(ap);
}

void as_error_nopos(LinxAs *as, const char *fmt, ...)
{
    va_list ap;
    size_t start = as->diag_len;

    as->errors++;
    diag_printf(as, "linx-as: error: ");
    va_start(ap, fmt);
    diag_vprintf(as, fmt, ap);
    va_end(ap);
    diag_append(as, "\n", 1);
    diag_record(as, UINT64_MAX, start);
}

unsigned as_col(const LinxAs *as, const AsStmt *st, const char *p)
{
    const AsFile *f = &as->files[st->file];
    const char *line = f->work + f->line_off[st->line - 1];

    if (p < line || p > f->work + f->len) {
        return st->col;
    }
    return (unsigned)(p - line);
}

const char *linx_as_diagnostics(const LinxAs *as)
{
    return as->diag ? as->diag : "";
}

unsigned linx_as_error_count(const LinxAs *as)
{
    return as->errors;
}
