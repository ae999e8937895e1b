/*
 * linx-optest parametric cases (docs/optest.md "Matrix"): a [matrix] or
 * [matrix NAME] group declares axes and case keys with placeholders; it
 * expands into one case per combination of the axes' values.
 *
 *   [matrix tload]
 *   dtype = f16, f32, i8           # axes: keys that are not case keys
 *   shape = 16x16, 40x50
 *   name = {dtype}-{shape}         # default: tload-f16-16x16 (NAME-values)
 *   exclude = dtype=i8 shape=40x50 # ';'-separated clauses of axis=GLOB terms
 *   generate = gen.py {dtype} {shape.0} {shape.1}
 *   defines = DTYPE={dtype}
 *   args = {shape.0} {shape.1}
 *   input.x = x.npy at vx
 *   output.y = golden y.npy at vy
 *
 * Placeholders: {AXIS}, {AXIS.N} (the Nth part of the value, from 0, split
 * at ':' when it has one, else at 'x': {shape.1} of 16x32 is 32), {suite}, {matrix}, {case} (not in `name`) and {out} (the case's
 * data directory); {{ and }} are literal braces.  Axes vary first to last,
 * the last fastest, so cases come out grouped by the first axis.
 */
#include <fnmatch.h>
#include <glib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"

enum {
    MAX_AXES = 16,
    MAX_EXPANSION = 20000, /* combinations of one matrix */
};

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

char *opt_expand(const char *tmpl, const char *const *names, const char *const *values,
                 size_t n, char *err, size_t errlen)
{
    GString *out = g_string_new(NULL);

    for (const char *p = tmpl; *p;) {
        const char *close;
        size_t len, dot;
        long part = -1;
        bool found = false;

        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            g_string_append_c(out, p[0]);
            p += 2;
            continue;
        }
        if (*p != '{') {
            g_string_append_c(out, *p++);
            continue;
        }
        close = strchr(p, '}');
        if (!close) {
            fail(err, errlen, "unclosed '{' in '%s' (write {{ for a brace)", tmpl);
            g_string_free(out, TRUE);
            return NULL;
        }
        len = (size_t)(close - p - 1);
        dot = len;
        for (size_t i = 0; i < len; i++) {
            if (p[1 + i] == '.') {
                dot = i;
                break;
            }
        }
        if (dot < len) {
            char *end;
            part = strtol(p + 1 + dot + 1, &end, 10);
            if (end != close || part < 0) {
                fail(err, errlen, "bad placeholder '%.*s' (expected {NAME} or {NAME.N})",
                     (int)len + 2, p);
                g_string_free(out, TRUE);
                return NULL;
            }
        }
        for (size_t i = 0; i < n && !found; i++) {
            if (strlen(names[i]) == dot && strncmp(names[i], p + 1, dot) == 0) {
                found = true;
                if (part < 0) {
                    g_string_append(out, values[i]);
                } else {
                    const char *sep = strchr(values[i], ':') ? ":" : "x";
                    gchar **f = g_strsplit(values[i], sep, -1);
                    guint nf = g_strv_length(f);
                    if ((guint)part >= nf) {
                        fail(err, errlen, "placeholder '%.*s': '%s' has %u '%s'-separated parts",
                             (int)len + 2, p, values[i], nf, sep);
                        g_strfreev(f);
                        g_string_free(out, TRUE);
                        return NULL;
                    }
                    g_string_append(out, f[part]);
                    g_strfreev(f);
                }
            }
        }
        if (!found) {
            fail(err, errlen, "unknown placeholder '%.*s'", (int)len + 2, p);
            g_string_free(out, TRUE);
            return NULL;
        }
        p = close + 1;
    }
    return g_string_free(out, FALSE);
}

static bool is_case_key(const char *k)
{
    static const char *const keys[] = { "args",     "status",      "program", "defines",
                                        "generate", "skip",        "timeout", "expect-trap",
                                        "trapnum",  "traparg0" };

    if (strncmp(k, "input.", 6) == 0 || strncmp(k, "output.", 7) == 0) {
        return true;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
        if (strcmp(k, keys[i]) == 0) {
            return true;
        }
    }
    return false;
}

static bool valid_axis(const char *k)
{
    static const char *const reserved[] = { "suite", "case", "matrix", "out" };

    for (size_t i = 0; i < G_N_ELEMENTS(reserved); i++) {
        if (strcmp(k, reserved[i]) == 0) {
            return false;
        }
    }
    for (const char *p = k; *p; p++) {
        if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-') {
            return false;
        }
    }
    return *k != 0;
}

typedef struct Axis {
    const char *name;
    gchar **values;
    guint n;
} Axis;

/* True when the combination @idx matches a clause of @exclude. */
static bool excluded(gchar **clauses, const Axis *ax, unsigned nax, const unsigned *idx,
                     bool *bad, char *err, size_t errlen)
{
    for (gchar **c = clauses; c && *c; c++) {
        gchar **terms = g_strsplit_set(*c, " \t", -1);
        bool all = true, any = false;

        for (gchar **t = terms; *t && all; t++) {
            char *eq = strchr(*t, '=');
            bool known = false;

            if (!**t) {
                continue;
            }
            any = true;
            if (!eq) {
                *bad = !fail(err, errlen, "exclude: expected AXIS=GLOB terms, got '%s'", *t);
                g_strfreev(terms);
                return false;
            }
            *eq = 0;
            for (unsigned a = 0; a < nax; a++) {
                if (strcmp(ax[a].name, *t) == 0) {
                    known = true;
                    all = fnmatch(eq + 1, ax[a].values[idx[a]], 0) == 0;
                }
            }
            if (!known) {
                *bad = !fail(err, errlen, "exclude: no axis '%s'", *t);
                g_strfreev(terms);
                return false;
            }
        }
        g_strfreev(terms);
        if (any && all) {
            return true;
        }
    }
    return false;
}

bool opt_matrix_expand(void *kfv, const char *group, OptSuite *s, const OptTolerance *def,
                       const OptDataOptions *d, char *err, size_t errlen)
{
    GKeyFile *kf = kfv;
    const char *mname = group[6] ? group + 7 : "";
    gsize nkeys = 0;
    gchar **keys = g_key_file_get_keys(kf, group, &nkeys, NULL);
    Axis ax[MAX_AXES];
    unsigned nax = 0, idx[MAX_AXES] = { 0 };
    const char *ckeys[64];
    char *ctmpl[64];
    unsigned nck = 0;
    char *name_tmpl = NULL, *exclude = NULL;
    gchar **clauses = NULL;
    unsigned long total = 1, made = 0;
    char sub[768];
    bool ok = true, bad = false;

    sub[0] = 0;
    while (*mname == ' ') {
        mname++;
    }
    for (gsize i = 0; i < nkeys && ok; i++) {
        gchar *v;
        for (gsize k = 0; k < i && ok; k++) {
            if (strcmp(keys[k], keys[i]) == 0) {
                ok = fail(sub, sizeof(sub), "key '%s' appears twice", keys[i]);
            }
        }
        v = ok ? g_key_file_get_string(kf, group, keys[i], NULL) : NULL;
        if (!v) {
            continue;
        }
        g_strstrip(v);
        if (strcmp(keys[i], "name") == 0) {
            name_tmpl = v;
        } else if (strcmp(keys[i], "exclude") == 0) {
            exclude = v;
        } else if (is_case_key(keys[i])) {
            if (nck == G_N_ELEMENTS(ckeys)) {
                ok = fail(sub, sizeof(sub), "more than %zu case keys", G_N_ELEMENTS(ckeys));
                g_free(v);
            } else {
                ckeys[nck] = keys[i];
                ctmpl[nck++] = v;
            }
        } else if (!valid_axis(keys[i])) {
            ok = fail(sub, sizeof(sub), "'%s' is not an axis name (letters, digits, _ and -; "
                      "not suite, case, matrix, out) nor a case key", keys[i]);
            g_free(v);
        } else if (nax == MAX_AXES) {
            ok = fail(sub, sizeof(sub), "more than %d axes", MAX_AXES);
            g_free(v);
        } else {
            gchar **vals = g_strsplit(v, ",", -1);
            guint n = 0;
            for (gchar **p = vals; *p; p++) {
                g_strstrip(*p);
                if (**p) {
                    vals[n++] = *p;
                } else {
                    g_free(*p);
                }
            }
            vals[n] = NULL;
            g_free(v);
            ax[nax].name = keys[i];
            ax[nax].values = vals;
            ax[nax].n = n;
            nax++;
            if (n == 0) {
                ok = fail(sub, sizeof(sub), "axis '%s' has no values", keys[i]);
            } else {
                total *= n;
                if (total > MAX_EXPANSION) {
                    ok = fail(sub, sizeof(sub), "more than %d combinations", MAX_EXPANSION);
                }
            }
        }
    }
    if (ok && nax == 0) {
        ok = fail(sub, sizeof(sub), "no axes (keys other than case keys, name and exclude)");
    }
    if (ok && exclude) {
        clauses = g_strsplit(exclude, ";", -1);
    }
    for (unsigned long combo = 0; ok && combo < total; combo++) {
        const char *names[MAX_AXES + 4], *values[MAX_AXES + 4];
        OptKeyValue kv[64];
        char *cname = NULL, *out = NULL;
        unsigned nn = 0, nkv = 0;
        OptCase c;

        for (unsigned a = 0; a < nax; a++) {
            names[nn] = ax[a].name;
            values[nn++] = ax[a].values[idx[a]];
        }
        names[nn] = "suite";
        values[nn++] = s->name;
        names[nn] = "matrix";
        values[nn++] = mname;
        if (!excluded(clauses, ax, nax, idx, &bad, sub, sizeof(sub))) {
            if (bad) {
                ok = false;
                break;
            }
            if (name_tmpl) {
                cname = opt_expand(name_tmpl, names, values, nn, sub, sizeof(sub));
            } else {
                GString *g = g_string_new(mname);
                for (unsigned a = 0; a < nax; a++) {
                    if (g->len) {
                        g_string_append_c(g, '-');
                    }
                    g_string_append(g, ax[a].values[idx[a]]);
                }
                cname = g_string_free(g, FALSE);
            }
            ok = cname != NULL;
            if (ok) {
                out = opt_generated_dir(s, d, cname);
                names[nn] = "case";
                values[nn++] = cname;
                names[nn] = "out";
                values[nn++] = out;
            }
            for (unsigned k = 0; k < nck && ok; k++) {
                kv[nkv].key = ckeys[k];
                kv[nkv].value = opt_expand(ctmpl[k], names, values, nn, sub, sizeof(sub));
                ok = kv[nkv++].value != NULL;
                if (!ok) {
                    char *m = g_strdup_printf("%s: %s", ckeys[k], sub);
                    snprintf(sub, sizeof(sub), "%s", m);
                    g_free(m);
                }
            }
            if (ok) {
                ok = opt_case_from_keys(s, cname, kv, nkv, def, d, &c, sub, sizeof(sub));
                if (ok) {
                    GString *p = g_string_new(NULL);
                    for (unsigned a = 0; a < nax; a++) {
                        g_string_append_printf(p, "%s%s=%s", a ? " " : "", ax[a].name,
                                               ax[a].values[idx[a]]);
                    }
                    c.params = g_string_free(p, FALSE);
                    ok = opt_suite_add_case(s, &c, sub, sizeof(sub));
                    made++;
                }
            }
            for (unsigned k = 0; k < nkv; k++) {
                g_free(kv[k].value);
            }
            g_free(cname);
            g_free(out);
        }
        for (unsigned a = nax; a-- > 0;) { /* the odometer: last axis fastest */
            if (++idx[a] < ax[a].n) {
                break;
            }
            idx[a] = 0;
        }
    }
    if (ok && made == 0) {
        ok = fail(sub, sizeof(sub), "every combination is excluded");
    }
    if (!ok) {
        fail(err, errlen, "[%s] %s", group, sub);
    }
    for (unsigned a = 0; a < nax; a++) {
        g_strfreev(ax[a].values);
    }
    for (unsigned k = 0; k < nck; k++) {
        g_free(ctmpl[k]);
    }
    g_strfreev(clauses);
    g_free(name_tmpl);
    g_free(exclude);
    g_strfreev(keys);
    return ok;
}
