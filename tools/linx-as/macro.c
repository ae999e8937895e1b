/*
 * Macros and repetitions with GNU as semantics (docs/assembler.md
 * "Macros"): .macro NAME [PARAM[=DEFAULT|:req|:vararg]]... / .endm,
 * .exitm, .purgem NAME, .rept COUNT / .endr, .irp SYM, VALUES... / .endr,
 * .irpc SYM, CHARS / .endr.
 *
 * Works on source lines before they become statements: every line of a
 * file goes through as_macro_line(), which collects the bodies of
 * definitions (nesting counted, so a .rept inside a .macro body ends at its
 * own .endr) and expands invocations and repetitions by feeding the
 * substituted lines back through itself (so bodies may invoke macros and
 * repeat).  In a body, \PARAM is the argument (\() separates it from what
 * follows), \@ the number of macro expansions so far.  Expanded lines keep
 * the file and line of the invocation for diagnostics.  Limits: 100 levels
 * of nesting, 1 Mi expanded lines per run (a runaway .rept is an error,
 * not a hang).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "as-internal.h"

enum {
    MAX_DEPTH = 100,
    MAX_EXPANDED = 1 << 20,
    MAX_PARAMS = 64,
};

typedef enum BodyKind { BODY_MACRO, BODY_REPT, BODY_IRP, BODY_IRPC } BodyKind;

typedef struct AsMacroParam {
    char *name;
    char *def;      /* default value or NULL */
    bool req, vararg;
} AsMacroParam;

struct AsMacro {
    char *name;
    AsMacroParam params[MAX_PARAMS];
    unsigned nparams;
    char **lines;
    uint32_t nlines, cap;
};

/* The definition being collected (LinxAs.mc_collect). */
struct AsMacroCollect {
    BodyKind kind;
    unsigned nest;       /* nested definitions inside the body */
    uint32_t file, line; /* where it started */
    struct AsMacro m;    /* body; for .irp/.irpc/.rept also the header */
    int64_t count;       /* .rept */
    char *irp_values;    /* .irp / .irpc: the value list */
};

static char *dup_range(const char *s, size_t n)
{
    char *p = as_xmalloc(n + 1);

    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static void body_add(struct AsMacro *m, const char *line)
{
    as_grow((void **)&m->lines, &m->cap, m->nlines + 1, sizeof(char *));
    m->lines[m->nlines++] = dup_range(line, strlen(line));
}

static void macro_clear(struct AsMacro *m)
{
    free(m->name);
    for (unsigned i = 0; i < m->nparams; i++) {
        free(m->params[i].name);
        free(m->params[i].def);
    }
    for (uint32_t i = 0; i < m->nlines; i++) {
        free(m->lines[i]);
    }
    free(m->lines);
    memset(m, 0, sizeof(*m));
}

static void line_error(LinxAs *as, uint32_t file, uint32_t line, const char *fmt, const char *arg)
{
    AsStmt st;

    memset(&st, 0, sizeof(st));
    st.file = file;
    st.line = line;
    as_error(as, &st, 0, fmt, arg);
}

/* The first word of @p (a directive or mnemonic) and its length. */
static size_t word_len(const char *p)
{
    size_t n = 0;

    while (p[n] && !as_is_space((unsigned char)p[n]) && p[n] != ',') {
        n++;
    }
    return n;
}

static bool word_is(const char *p, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(p, w, n) == 0;
}

static struct AsMacro *find_macro(LinxAs *as, const char *name, size_t n)
{
    for (uint32_t i = 0; i < as->nmacros; i++) {
        if (strlen(as->macros[i]->name) == n && strncasecmp(as->macros[i]->name, name, n) == 0) {
            return as->macros[i];
        }
    }
    return NULL;
}

/* Split @s into arguments: at top-level commas (quotes, (), [] and {}
 * kept whole); with no comma, at blanks (GNU accepts both).  Quoted
 * arguments lose their quotes.  Returns the count (at most @max). */
static unsigned split_args(const char *s, char **out, unsigned max, bool blanks)
{
    unsigned n = 0;
    const char *p = as_skip_ws(s);
    bool has_comma = false;
    int depth = 0;
    bool q = false;

    for (const char *t = p; *t; t++) {
        if (*t == '"' && (t == p || t[-1] != '\\')) {
            q = !q;
        } else if (!q && (*t == '(' || *t == '[' || *t == '{')) {
            depth++;
        } else if (!q && (*t == ')' || *t == ']' || *t == '}')) {
            depth--;
        } else if (!q && depth == 0 && *t == ',') {
            has_comma = true;
        }
    }
    while (*p && n < max) {
        const char *start = p, *end;

        depth = 0;
        q = false;
        while (*p) {
            if (*p == '"' && (p == start || p[-1] != '\\')) {
                q = !q;
            } else if (!q && (*p == '(' || *p == '[' || *p == '{')) {
                depth++;
            } else if (!q && (*p == ')' || *p == ']' || *p == '}')) {
                depth--;
            } else if (!q && depth == 0 &&
                       (*p == ',' || (!has_comma && blanks && as_is_space((unsigned char)*p)))) {
                break;
            }
            p++;
        }
        end = p;
        while (end > start && as_is_space((unsigned char)end[-1])) {
            end--;
        }
        if (end - start >= 2 && *start == '"' && end[-1] == '"') {
            start++;
            end--;
        }
        out[n++] = dup_range(start, (size_t)(end - start));
        if (*p) {
            p = as_skip_ws(p + 1);
        }
    }
    return n;
}

/* A body line with \NAME (NAME in @names) replaced by @vals, \@ by @count
 * (when >= 0) and \() removed. */
static char *substitute(const char *line, char **names, char **vals, unsigned n, long count)
{
    size_t cap = strlen(line) + 64, len = 0;
    char *out = as_xmalloc(cap);

    for (const char *p = line; *p;) {
        const char *rep = NULL;
        size_t skip = 1, rlen = 0;
        char num[24];

        if (*p == '\\') {
            if (p[1] == '@' && count >= 0) {
                snprintf(num, sizeof(num), "%ld", count);
                rep = num;
                skip = 2;
            } else if (p[1] == '(' && p[2] == ')') {
                rep = "";
                skip = 3;
            } else {
                size_t il = as_ident_len(p + 1);

                for (unsigned i = 0; il && i < n; i++) {
                    if (strlen(names[i]) == il && strncmp(names[i], p + 1, il) == 0) {
                        rep = vals[i] ? vals[i] : "";
                        skip = il + 1;
                        break;
                    }
                }
            }
        }
        if (rep) {
            rlen = strlen(rep);
        } else {
            rep = p;
            rlen = 1;
            skip = 1;
        }
        if (len + rlen + 1 > cap) {
            cap = (len + rlen + 1) * 2;
            out = as_xrealloc(out, cap);
        }
        memcpy(out + len, rep, rlen);
        len += rlen;
        p += skip;
    }
    out[len] = '\0';
    return out;
}

static void process(LinxAs *as, uint32_t fi, uint32_t lineno, char *line, unsigned depth);

/* Feed an expanded line (owned by the assembler from now on). */
static bool feed(LinxAs *as, uint32_t fi, uint32_t lineno, char *text, unsigned depth)
{
    if (++as->macro_expanded > MAX_EXPANDED) {
        if (as->macro_expanded == MAX_EXPANDED + 1) {
            line_error(as, fi, lineno, "macro: expansion larger than %s lines (a runaway .rept?)",
                       "1048576");
        }
        free(text);
        return false;
    }
    as_grow((void **)&as->macro_text, &as->macro_text_cap, as->nmacro_text + 1, sizeof(char *));
    as->macro_text[as->nmacro_text++] = text;
    process(as, fi, lineno, text, depth + 1);
    return !as_too_many_errors(as);
}

static void expand_body(LinxAs *as, const struct AsMacro *m, char **names, char **vals,
                        unsigned n, long count, uint32_t fi, uint32_t lineno, unsigned depth,
                        bool is_macro)
{
    for (uint32_t i = 0; i < m->nlines; i++) {
        if (!feed(as, fi, lineno, substitute(m->lines[i], names, vals, n, count), depth)) {
            return;
        }
        if (is_macro && as->macro_exit) {
            as->macro_exit = false;
            return;
        }
    }
}

static void invoke(LinxAs *as, struct AsMacro *m, const char *args, uint32_t fi, uint32_t lineno,
                   unsigned depth)
{
    char *given[MAX_PARAMS] = { 0 }, *vals[MAX_PARAMS] = { 0 }, *names[MAX_PARAMS];
    unsigned ng = split_args(args, given, MAX_PARAMS, true), pos = 0;

    for (unsigned i = 0; i < m->nparams; i++) {
        names[i] = m->params[i].name;
    }
    for (unsigned g = 0; g < ng; g++) {
        char *eq = strchr(given[g], '=');
        size_t il = as_ident_len(given[g]);

        /* keyword=value */
        if (eq && il && given[g] + il == eq) {
            unsigned i;
            for (i = 0; i < m->nparams; i++) {
                if (strlen(names[i]) == il && strncmp(names[i], given[g], il) == 0) {
                    break;
                }
            }
            if (i < m->nparams) {
                free(vals[i]);
                vals[i] = dup_range(eq + 1, strlen(eq + 1));
                continue;
            }
        }
        if (pos < m->nparams && m->params[pos].vararg) {
            /* the rest, joined by commas */
            size_t need = strlen(given[g]) + 1 + (vals[pos] ? strlen(vals[pos]) + 2 : 0);
            char *v = as_xmalloc(need);

            snprintf(v, need, "%s%s%s", vals[pos] ? vals[pos] : "", vals[pos] ? ", " : "",
                     given[g]);
            free(vals[pos]);
            vals[pos] = v;
            continue;
        }
        if (pos >= m->nparams) {
            line_error(as, fi, lineno, "macro: too many arguments to '%s'", m->name);
            goto out;
        }
        vals[pos++] = dup_range(given[g], strlen(given[g]));
    }
    for (unsigned i = 0; i < m->nparams; i++) {
        if (!vals[i] && m->params[i].def) {
            vals[i] = dup_range(m->params[i].def, strlen(m->params[i].def));
        }
        if (!vals[i] && m->params[i].req) {
            line_error(as, fi, lineno, "macro: missing value for the required parameter '%s'",
                       m->params[i].name);
            goto out;
        }
    }
    expand_body(as, m, names, vals, m->nparams, (long)as->macro_count++, fi, lineno, depth, true);
out:
    for (unsigned i = 0; i < MAX_PARAMS; i++) {
        free(given[i]);
        free(vals[i]);
    }
}

/* The end of a collected body: define the macro, or run the repetition. */
static void finish(LinxAs *as, unsigned depth)
{
    struct AsMacroCollect *c = as->mc_collect;
    uint32_t fi = c->file, lineno = c->line;

    as->mc_collect = NULL;
    if (c->kind == BODY_MACRO) {
        struct AsMacro *m = as_xmalloc(sizeof(*m));

        *m = c->m;
        as_grow((void **)&as->macros, &as->macros_cap, as->nmacros + 1, sizeof(*as->macros));
        as->macros[as->nmacros++] = m;
        free(c);
        return;
    }
    if (c->kind == BODY_REPT) {
        for (int64_t i = 0; c->m.nlines && i < c->count && !as_too_many_errors(as) &&
                            as->macro_expanded <= MAX_EXPANDED;
             i++) {
            expand_body(as, &c->m, NULL, NULL, 0, -1, fi, lineno, depth, false);
        }
    } else {
        char *vals[4096];
        unsigned n = 0;
        char *name = c->m.name;

        if (c->kind == BODY_IRP) {
            n = split_args(c->irp_values, vals, 4096, false);
            if (n == 0) {
                vals[n++] = dup_range("", 0); /* GNU: one pass with an empty value */
            }
        } else {
            const char *v = as_skip_ws(c->irp_values);
            size_t vl = strlen(v);

            if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
                v++;
                vl -= 2;
            }
            for (size_t i = 0; i < vl && n < 4096; i++) {
                vals[n++] = dup_range(v + i, 1);
            }
        }
        for (unsigned i = 0; i < n; i++) {
            if (!as_too_many_errors(as) && as->macro_expanded <= MAX_EXPANDED) {
                expand_body(as, &c->m, &name, &vals[i], 1, -1, fi, lineno, depth, false);
            }
            free(vals[i]);
        }
    }
    free(c->irp_values);
    macro_clear(&c->m);
    free(c);
}

/* .macro NAME params: the header of a definition. */
static void begin_macro(LinxAs *as, const char *args, uint32_t fi, uint32_t lineno)
{
    struct AsMacroCollect *c = as_xcalloc(1, sizeof(*c));
    char *ps[MAX_PARAMS];
    const char *p = as_skip_ws(args);
    size_t nl = as_ident_len(p);
    unsigned n;

    c->kind = BODY_MACRO;
    c->file = fi;
    c->line = lineno;
    if (nl == 0) {
        line_error(as, fi, lineno, "bad directive: .macro needs a name%s", "");
    }
    c->m.name = dup_range(p, nl);
    p = as_skip_ws(p + nl);
    if (*p == ',') {
        p++;
    }
    n = split_args(p, ps, MAX_PARAMS, true);
    for (unsigned i = 0; i < n; i++) {
        AsMacroParam *mp = &c->m.params[c->m.nparams++];
        char *eq = strchr(ps[i], '='), *colon = strchr(ps[i], ':');

        if (eq) {
            mp->def = dup_range(eq + 1, strlen(eq + 1));
            *eq = '\0';
        }
        if (colon && (!eq || colon < eq)) {
            if (strcasecmp(colon + 1, "req") == 0) {
                mp->req = true;
            } else if (strcasecmp(colon + 1, "vararg") == 0) {
                mp->vararg = true;
            } else {
                line_error(as, fi, lineno, "bad directive: unknown parameter qualifier ':%s'",
                           colon + 1);
            }
            *colon = '\0';
        }
        mp->name = dup_range(ps[i], strlen(ps[i]));
        free(ps[i]);
    }
    if (nl && find_macro(as, c->m.name, nl)) {
        line_error(as, fi, lineno, "bad directive: macro '%s' is already defined", c->m.name);
    }
    as->mc_collect = c;
}

static void begin_repeat(LinxAs *as, BodyKind kind, const char *args, uint32_t fi,
                         uint32_t lineno)
{
    struct AsMacroCollect *c = as_xcalloc(1, sizeof(*c));
    const char *p = as_skip_ws(args);

    c->kind = kind;
    c->file = fi;
    c->line = lineno;
    if (kind == BODY_REPT) {
        AsStmt st;
        int64_t v = 0;

        memset(&st, 0, sizeof(st));
        st.file = fi;
        st.line = lineno;
        st.text = (char *)args;
        if (as_expr_abs(as, &st, &p, &v, "the .rept count") && v < 0) {
            line_error(as, fi, lineno, "bad directive: negative .rept count%s", "");
            v = 0;
        }
        c->count = v;
    } else {
        size_t nl = as_ident_len(p);

        if (nl == 0) {
            line_error(as, fi, lineno, "bad directive: .irp / .irpc need a symbol%s", "");
        }
        c->m.name = dup_range(p, nl);
        p = as_skip_ws(p + nl);
        if (*p == ',') {
            p++;
        }
        c->irp_values = dup_range(p, strlen(p));
    }
    as->mc_collect = c;
}

static void process(LinxAs *as, uint32_t fi, uint32_t lineno, char *line, unsigned depth)
{
    char *p = (char *)as_skip_ws(line);
    size_t wl;
    char *labels_end = NULL;

    if (depth > MAX_DEPTH) {
        line_error(as, fi, lineno, "macro: expansions nested more than %s deep", "100");
        return;
    }
    wl = word_len(p);
    if (as->mc_collect) {
        struct AsMacroCollect *c = as->mc_collect;

        if (word_is(p, wl, ".macro") || word_is(p, wl, ".rept") || word_is(p, wl, ".irp") ||
            word_is(p, wl, ".irpc")) {
            c->nest++;
        } else if (word_is(p, wl, ".endm") || word_is(p, wl, ".endr")) {
            bool want_endm = c->kind == BODY_MACRO;

            if (c->nest == 0) {
                if (word_is(p, wl, ".endm") != want_endm) {
                    line_error(as, fi, lineno, "bad directive: %s closes nothing here",
                               want_endm ? ".endr" : ".endm");
                }
                finish(as, depth);
                return;
            }
            c->nest--;
        }
        body_add(&c->m, line);
        return;
    }
    if (word_is(p, wl, ".macro")) {
        begin_macro(as, p + wl, fi, lineno);
        return;
    }
    if (word_is(p, wl, ".rept")) {
        begin_repeat(as, BODY_REPT, p + wl, fi, lineno);
        return;
    }
    if (word_is(p, wl, ".irp")) {
        begin_repeat(as, BODY_IRP, p + wl, fi, lineno);
        return;
    }
    if (word_is(p, wl, ".irpc")) {
        begin_repeat(as, BODY_IRPC, p + wl, fi, lineno);
        return;
    }
    if (word_is(p, wl, ".endm") || word_is(p, wl, ".endr")) {
        line_error(as, fi, lineno, "bad directive: %s without a .macro / .rept / .irp", ".endm");
        return;
    }
    if (word_is(p, wl, ".exitm")) {
        if (depth == 0) {
            line_error(as, fi, lineno, "bad directive: .exitm outside a macro%s", "");
        } else {
            as->macro_exit = true;
        }
        return;
    }
    if (word_is(p, wl, ".purgem")) {
        const char *n = as_skip_ws(p + wl);
        size_t nl = as_ident_len(n);

        for (uint32_t i = 0; i < as->nmacros; i++) {
            if (strlen(as->macros[i]->name) == nl && strncasecmp(as->macros[i]->name, n, nl) == 0) {
                macro_clear(as->macros[i]);
                free(as->macros[i]);
                as->macros[i] = as->macros[--as->nmacros];
                return;
            }
        }
        line_error(as, fi, lineno, "bad directive: .purgem of an unknown macro%s", "");
        return;
    }
    /* Labels before an invocation: "label: name args". */
    for (char *q = p;;) {
        size_t il = as_ident_len(q);

        if (il && q[il] == ':') {
            labels_end = q + il + 1;
            q = (char *)as_skip_ws(labels_end);
            continue;
        }
        p = q;
        break;
    }
    wl = word_len(p);
    if (as->nmacros && wl) {
        struct AsMacro *m = find_macro(as, p, wl);

        if (m) {
            if (labels_end) {
                char save = *labels_end;

                *labels_end = '\0';
                as_lex_stmt_line(as, fi, lineno, line);
                *labels_end = save;
            }
            invoke(as, m, p + wl, fi, lineno, depth);
            return;
        }
    }
    as_lex_stmt_line(as, fi, lineno, line);
}

void as_macro_line(LinxAs *as, uint32_t fi, uint32_t lineno, char *line)
{
    as_strip_comment(as, line);
    process(as, fi, lineno, line, 0);
}

void as_macro_end_file(LinxAs *as, uint32_t fi)
{
    if (as->mc_collect && as->mc_collect->file == fi) {
        struct AsMacroCollect *c = as->mc_collect;

        line_error(as, c->file, c->line, "bad directive: %s without its end at the end of the file",
                   c->kind == BODY_MACRO ? ".macro" : c->kind == BODY_REPT ? ".rept" : ".irp");
        as->mc_collect = NULL;
        free(c->irp_values);
        macro_clear(&c->m);
        free(c);
    }
}

void as_macros_free(LinxAs *as)
{
    for (uint32_t i = 0; i < as->nmacros; i++) {
        macro_clear(as->macros[i]);
        free(as->macros[i]);
    }
    free(as->macros);
    for (uint32_t i = 0; i < as->nmacro_text; i++) {
        free(as->macro_text[i]);
    }
    free(as->macro_text);
    if (as->mc_collect) {
        free(as->mc_collect->irp_values);
        macro_clear(&as->mc_collect->m);
        free(as->mc_collect);
    }
}
