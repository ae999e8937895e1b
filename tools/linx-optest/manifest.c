/*
 * linx-optest manifests (docs/optest.md "Manifest"): an INI/TOML-like key
 * file read with GLib's GKeyFile.
 *
 *   [suite]
 *   name = vadd                    # default: the file name
 *   program = vadd.s               # .s: linx-as; .S: C preprocessor, then linx-as; else ELF
 *   machine = virt                 # virt (default) or user (Linux user mode)
 *   timeout = 60                   # seconds per case
 *   ram = 256                      # MiB (virt)
 *   rtol = 1e-6                    # default tolerances of the outputs
 *   atol = 0
 *   ulp = 0
 *
 *   [case small]
 *   args = 16 3                    # virt: a0, a1, ...; user: argv[1..]
 *   status = 0                     # expected exit status (default 0)
 *   input.a = a16.npy at va        # FILE at PLACE [dtype T]
 *   input.b = b16.bin at vb dtype f32
 *   output.c = golden c16.npy at vc [dtype T] [rtol R] [atol A] [ulp N] [nan-equal no]
 *   program = other.S              # optional: this case's program
 *   defines = N=16 DT=f32          # .S programs: preprocessor definitions
 *   generate = gen.py 16           # writes the case's files (generate.c)
 *   timeout = 5                    # this case's limit
 *   skip = reason                  # reported as skipped, not run
 *
 *   [matrix NAME]                  # cases for every combination of the axes
 *   dtype = f16, f32               # an axis (any key that is not a case key)
 *   shape = 16x16, 40x50
 *   name = {dtype}-{shape}         # case names (default: NAME-values joined by '-')
 *   exclude = dtype=f16 shape=40x50; ...
 *   generate = gen.py {dtype} {shape.0} {shape.1}
 *   ...case keys with {axis} placeholders
 *
 * PLACE is a symbol of the program, symbol+offset, or an address (0x...).
 * The program's name is relative to the manifest's directory, data files
 * to the suite's data directory (--data, --data-root/SUITE, else the
 * manifest's), those of a generated case to its own directory.  Comments
 * are lines starting with '#'.
 */
#include <glib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/buffers.h"
#include "optest.h"

enum {
    DEFAULT_TIMEOUT_S = 60,
    DEFAULT_RAM_MIB = 256,
    MAX_RAM_MIB = 65536,
    MAX_CASES = 100000,
};

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;

    if (!*s || *s == '-') {
        return false;
    }
    *v = g_ascii_strtoull(s, &end, 0);
    return *end == 0;
}

static bool parse_double(const char *s, double *v)
{
    char *end;

    *v = g_ascii_strtod(s, &end);
    return *s && *end == 0 && *v >= 0 && *v < 1e300;
}

/* The tile buffer a PLACE names (hw/linx/buffers.h), or -1. */
static int buffer_of_name(const char *s, size_t len)
{
    for (int i = 0; i < LINX_BUF__COUNT; i++) {
        const char *name = linx_buffer_name(i);
        if (strlen(name) == len && strncmp(s, name, len) == 0) {
            return i;
        }
    }
    return -1;
}

/* "0x80000", "sym", "sym+64", "L1", "L0A+0x100" */
static bool parse_place(const char *s, OptPlace *p)
{
    const char *plus = strchr(s, '+');
    size_t len = plus ? (size_t)(plus - s) : strlen(s);

    memset(p, 0, sizeof(*p));
    p->buffer = -1;
    if ((s[0] >= '0' && s[0] <= '9')) {
        return parse_u64(s, &p->addr);
    }
    p->buffer = buffer_of_name(s, len);
    if (p->buffer < 0) {
        p->symbol = g_strndup(s, len);
    }
    return len > 0 && (!plus || parse_u64(plus + 1, &p->addr));
}

/* "FILE at PLACE [dtype T]" */
static bool parse_input(const char *key, const char *val, OptInput *in, char *err, size_t errlen)
{
    gchar **w = g_strsplit_set(val, " \t", -1);
    unsigned n = 0;
    bool ok = true, have_at = false;

    in->name = g_strdup(key);
    for (gchar **p = w; *p && ok; p++) {
        if (!**p) {
            continue;
        }
        if (n++ == 0) {
            in->file = g_strdup(*p);
        } else if (strcmp(*p, "at") == 0 && p[1] && !have_at) {
            ok = parse_place(*++p, &in->at);
            have_at = true;
        } else if (strcmp(*p, "dtype") == 0 && p[1]) {
            in->dtype = opt_dtype_parse(*++p);
            ok = in->dtype != OPT_DT_NONE;
        } else {
            ok = false;
        }
    }
    g_strfreev(w);
    if (!ok || !in->file || !have_at) {
        return fail(err, errlen, "input.%s: expected 'FILE at PLACE [dtype T]', got '%s'", key,
                    val);
    }
    return true;
}

/* "golden FILE at PLACE [dtype T] [rtol R] [atol A] [ulp N] [nan-equal yes|no]" */
static bool parse_output(const char *key, const char *val, const OptTolerance *def,
                         OptOutput *out, char *err, size_t errlen)
{
    gchar **w = g_strsplit_set(val, " \t", -1);
    bool ok = true, have_at = false;

    out->name = g_strdup(key);
    out->tol = *def;
    for (gchar **p = w; *p && ok; p++) {
        if (!**p) {
            continue;
        }
        if (!p[1]) {
            ok = false;
        } else if (strcmp(*p, "golden") == 0 && !out->golden) {
            out->golden = g_strdup(*++p);
        } else if (strcmp(*p, "at") == 0 && !have_at) {
            ok = parse_place(*++p, &out->at);
            have_at = true;
        } else if (strcmp(*p, "dtype") == 0) {
            out->dtype = opt_dtype_parse(*++p);
            ok = out->dtype != OPT_DT_NONE;
        } else if (strcmp(*p, "rtol") == 0) {
            ok = parse_double(*++p, &out->tol.rtol);
        } else if (strcmp(*p, "atol") == 0) {
            ok = parse_double(*++p, &out->tol.atol);
        } else if (strcmp(*p, "ulp") == 0) {
            ok = parse_u64(*++p, &out->tol.ulp);
        } else if (strcmp(*p, "nan-equal") == 0) {
            p++;
            out->tol.nan_equal = strcmp(*p, "yes") == 0;
            ok = out->tol.nan_equal || strcmp(*p, "no") == 0;
        } else {
            ok = false;
        }
    }
    g_strfreev(w);
    if (!ok || !out->golden || !have_at) {
        return fail(err, errlen,
                    "output.%s: expected 'golden FILE at PLACE [dtype T] [rtol R] [atol A] "
                    "[ulp N] [nan-equal yes|no]', got '%s'", key, val);
    }
    return true;
}

static bool valid_name(const char *s)
{
    if (!*s) {
        return false;
    }
    for (const char *p = s; *p; p++) {
        if (*p == '/' || *p == ' ' || *p == '\t' || (unsigned char)*p < 0x20) {
            return false;
        }
    }
    return true;
}

/* Where generated files of the suite go: ROOT/SUITE, --data, or
 * optest-data/SUITE in the working directory. */
static char *generated_base(const OptSuite *s, const OptDataOptions *d)
{
    if (d && d->data_root) {
        return g_build_filename(d->data_root, s->name, NULL);
    }
    if (d && d->data) {
        return g_strdup(d->data);
    }
    return g_build_filename("optest-data", s->name, NULL);
}

char *opt_generated_dir(const OptSuite *s, const OptDataOptions *d, const char *case_name)
{
    char *base = generated_base(s, d);
    char *dir = g_build_filename(base, case_name, NULL);

    g_free(base);
    return dir;
}

bool opt_case_from_keys(const OptSuite *s, const char *name, const OptKeyValue *kv, size_t n,
                        const OptTolerance *def, const OptDataOptions *d, OptCase *c,
                        char *err, size_t errlen)
{
    char sub[512];
    bool ok = true;

    memset(c, 0, sizeof(*c));
    c->name = g_strdup(name);
    c->trapnum = -1;
    sub[0] = 0;
    if (!valid_name(name)) {
        ok = fail(sub, sizeof(sub), "case name '%s' is empty or has '/', blanks or control "
                  "characters", name);
    }
    for (size_t i = 0; i < n && ok; i++) {
        const char *k = kv[i].key, *val = kv[i].value;

        if (strncmp(k, "input.", 6) == 0) {
            if (c->ninputs == OPT_MAX_TENSORS) {
                ok = fail(sub, sizeof(sub), "more than %d inputs", OPT_MAX_TENSORS);
            } else {
                ok = parse_input(k + 6, val, &c->inputs[c->ninputs++], sub, sizeof(sub));
            }
        } else if (strncmp(k, "output.", 7) == 0) {
            if (c->noutputs == OPT_MAX_TENSORS) {
                ok = fail(sub, sizeof(sub), "more than %d outputs", OPT_MAX_TENSORS);
            } else {
                ok = parse_output(k + 7, val, def, &c->outputs[c->noutputs++], sub,
                                  sizeof(sub));
            }
        } else if (strcmp(k, "args") == 0) {
            gchar **w = g_strsplit_set(val, " \t,", -1);
            for (gchar **p = w; *p && ok; p++) {
                if (**p && c->nargs < OPT_MAX_ARGS) {
                    c->args[c->nargs++] = g_strdup(*p);
                } else if (**p) {
                    ok = fail(sub, sizeof(sub), "more than %d args", OPT_MAX_ARGS);
                }
            }
            g_strfreev(w);
        } else if (strcmp(k, "status") == 0) {
            uint64_t v = 0;

            ok = parse_u64(val, &v) && v < 256;
            c->status = ok ? (int)v : 0;
            if (!ok) {
                fail(sub, sizeof(sub), "status: expected 0..255, got '%s'", val);
            }
        } else if (strcmp(k, "timeout") == 0) {
            ok = parse_double(val, &c->timeout) && c->timeout > 0;
            if (!ok) {
                fail(sub, sizeof(sub), "timeout: expected seconds > 0, got '%s'", val);
            }
        } else if (strcmp(k, "program") == 0 && *val && !c->program) {
            c->program = g_strdup(val);
        } else if (strcmp(k, "defines") == 0 && !c->defines) {
            c->defines = g_strdup(val);
        } else if (strcmp(k, "generate") == 0 && *val && !c->generate) {
            c->generate = g_strdup(val);
        } else if (strcmp(k, "expect-trap") == 0 && *val && !c->expect_trap) {
            c->expect_trap = g_strdup(val);
        } else if (strcmp(k, "trapnum") == 0) {
            uint64_t v = 0;

            ok = parse_u64(val, &v) && v < 64;
            c->trapnum = ok ? (int)v : -1;
            if (!ok) {
                fail(sub, sizeof(sub), "trapnum: expected a TRAPNUM 0..63, got '%s'", val);
            }
        } else if (strcmp(k, "traparg0") == 0) {
            ok = parse_u64(val, &c->traparg0);
            c->have_traparg0 = ok;
            if (!ok) {
                fail(sub, sizeof(sub), "traparg0: expected an integer, got '%s'", val);
            }
        } else if (strcmp(k, "skip") == 0 && !c->skip) {
            c->skip = g_strdup(*val ? val : "skipped");
        } else {
            ok = fail(sub, sizeof(sub), "unknown key '%s'", k);
        }
    }
    if (ok && (c->trapnum >= 0 || c->have_traparg0) && !c->expect_trap) {
        c->expect_trap = g_strdup("any");
    }
    if (ok && c->noutputs == 0 && !c->expect_trap) {
        ok = fail(sub, sizeof(sub), "no output.* and no expect-trap to check");
    }
    if (ok && c->generate) {
        c->datadir = opt_generated_dir(s, d, c->name);
    }
    if (!ok) {
        fail(err, errlen, "[case %s] %s", name, sub);
        opt_case_free(c);
    }
    return ok;
}

void opt_case_free(OptCase *c)
{
    for (unsigned j = 0; j < c->ninputs; j++) {
        g_free(c->inputs[j].name);
        g_free(c->inputs[j].file);
        g_free(c->inputs[j].at.symbol);
    }
    for (unsigned j = 0; j < c->noutputs; j++) {
        g_free(c->outputs[j].name);
        g_free(c->outputs[j].golden);
        g_free(c->outputs[j].at.symbol);
    }
    for (unsigned j = 0; j < c->nargs; j++) {
        g_free(c->args[j]);
    }
    g_free(c->name);
    g_free(c->program);
    g_free(c->defines);
    g_free(c->generate);
    g_free(c->datadir);
    g_free(c->skip);
    g_free(c->params);
    g_free(c->expect_trap);
    memset(c, 0, sizeof(*c));
}

static bool add_case(OptSuite *s, OptCase *c, char *err, size_t errlen)
{
    OptCase *nc;

    for (unsigned i = 0; i < s->ncases; i++) {
        if (strcmp(s->cases[i].name, c->name) == 0) {
            fail(err, errlen, "[case %s] a second case of that name", c->name);
            opt_case_free(c);
            return false;
        }
    }
    if (s->ncases >= MAX_CASES) {
        fail(err, errlen, "more than %d cases", MAX_CASES);
        opt_case_free(c);
        return false;
    }
    nc = realloc(s->cases, (s->ncases + 1) * sizeof(OptCase));
    if (!nc) {
        opt_case_free(c);
        return fail(err, errlen, "out of memory");
    }
    s->cases = nc;
    s->cases[s->ncases++] = *c;
    return true;
}

bool opt_suite_add_case(OptSuite *s, OptCase *c, char *err, size_t errlen)
{
    return add_case(s, c, err, errlen);
}

static bool load_case(GKeyFile *kf, const char *group, OptSuite *s, const OptTolerance *def,
                      const OptDataOptions *d, char *err, size_t errlen)
{
    gsize nkeys = 0;
    gchar **keys = g_key_file_get_keys(kf, group, &nkeys, NULL);
    OptKeyValue *kv = g_new0(OptKeyValue, nkeys + 1);
    char *name = g_strstrip(g_strdup(group + strlen("case ")));
    char *out = opt_generated_dir(s, d, name);
    const char *names[] = { "suite", "case", "out" };
    const char *values[] = { s->name, name, out };
    size_t n = 0;
    bool ok = true;
    OptCase c;

    for (gsize i = 0; i < nkeys && ok; i++) {
        gchar *val;
        for (gsize k = 0; k < i && ok; k++) {
            if (strcmp(keys[k], keys[i]) == 0) {
                ok = fail(err, errlen, "key '%s' appears twice", keys[i]);
            }
        }
        val = ok ? g_key_file_get_string(kf, group, keys[i], NULL) : NULL;
        if (!val) {
            continue;
        }
        kv[n].key = keys[i];
        kv[n].value = opt_expand(g_strstrip(val), names, values, 3, err, errlen);
        g_free(val);
        ok = kv[n].value != NULL;
        n++;
    }
    if (ok) {
        ok = opt_case_from_keys(s, name, kv, n, def, d, &c, err, errlen) &&
             add_case(s, &c, err, errlen);
    } else {
        char *msg = g_strdup(err);
        fail(err, errlen, "[%s] %s", group, msg);
        g_free(msg);
    }
    for (size_t i = 0; i < n; i++) {
        g_free(kv[i].value);
    }
    g_free(kv);
    g_strfreev(keys);
    g_free(name);
    g_free(out);
    return ok;
}

static bool load_suite_keys(GKeyFile *kf, OptSuite *s, OptTolerance *def, char *err,
                            size_t errlen)
{
    static const char *const known[] = { "name", "program", "machine", "timeout",
                                         "ram", "rtol", "atol", "ulp" };
    gchar **keys = g_key_file_get_keys(kf, "suite", NULL, NULL);
    bool ok = true;
    gchar *v;

    for (gchar **k = keys; k && *k && ok; k++) {
        bool found = false;
        for (size_t i = 0; i < G_N_ELEMENTS(known); i++) {
            found |= strcmp(*k, known[i]) == 0;
        }
        if (!found) {
            ok = fail(err, errlen, "[suite] unknown key '%s'", *k);
        }
    }
    g_strfreev(keys);
    v = g_key_file_get_string(kf, "suite", "machine", NULL);
    if (ok && v) {
        g_strstrip(v);
        if (strcmp(v, "user") == 0) {
            s->machine = OPT_MACHINE_USER;
        } else if (strcmp(v, "virt") != 0) {
            ok = fail(err, errlen, "[suite] machine: expected virt or user, got '%s'", v);
        }
    }
    g_free(v);
    for (size_t i = 3; i < G_N_ELEMENTS(known) && ok; i++) {
        double x;

        v = g_key_file_get_string(kf, "suite", known[i], NULL);
        if (!v) {
            continue;
        }
        g_strstrip(v);
        if (!parse_double(v, &x)) {
            ok = fail(err, errlen, "[suite] %s: expected a number >= 0, got '%s'", known[i], v);
        } else if (i == 3) {
            s->timeout = x;
            ok = x > 0 || fail(err, errlen, "[suite] timeout: must be > 0");
        } else if (i == 4) {
            s->ram_mib = (uint64_t)x;
            ok = (x >= 1 && x <= MAX_RAM_MIB) ||
                 fail(err, errlen, "[suite] ram: expected 1..%d MiB, got '%s'", MAX_RAM_MIB, v);
        } else if (i == 5) {
            def->rtol = x;
        } else if (i == 6) {
            def->atol = x;
        } else {
            def->ulp = (uint64_t)x;
        }
        g_free(v);
    }
    return ok;
}

bool opt_suite_load(const char *path, const OptDataOptions *d, OptSuite *s, char *err,
                    size_t errlen)
{
    GKeyFile *kf = g_key_file_new();
    GError *ge = NULL;
    gchar **groups = NULL;
    OptTolerance def = { 1e-6, 0, 0, true };
    char sub[1024];
    bool ok = true;

    memset(s, 0, sizeof(*s));
    sub[0] = 0;
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &ge)) {
        fail(err, errlen, "%s: %s", path, ge->message);
        g_error_free(ge);
        g_key_file_free(kf);
        return false;
    }
    s->path = g_strdup(path);
    s->mdir = g_path_get_dirname(path);
    if (!g_key_file_has_group(kf, "suite")) {
        ok = fail(sub, sizeof(sub), "no [suite] group");
    }
    if (ok) {
        gchar *v = g_key_file_get_string(kf, "suite", "name", NULL);
        s->name = v ? g_strstrip(v) : g_path_get_basename(path);
        s->program = g_key_file_get_string(kf, "suite", "program", NULL);
        if (s->program) {
            g_strstrip(s->program);
        }
        s->timeout = DEFAULT_TIMEOUT_S;
        s->ram_mib = DEFAULT_RAM_MIB;
        if (!valid_name(s->name)) {
            ok = fail(sub, sizeof(sub), "[suite] name '%s' is empty or has '/' or blanks",
                      s->name);
        }
    }
    if (ok) {
        ok = load_suite_keys(kf, s, &def, sub, sizeof(sub));
    }
    if (ok) {
        if (d && d->data) {
            s->dir = g_strdup(d->data);
        } else if (d && d->data_root) {
            char *dir = g_build_filename(d->data_root, s->name, NULL);
            if (g_file_test(dir, G_FILE_TEST_IS_DIR)) {
                s->dir = dir;
            } else {
                g_free(dir);
            }
        }
        if (!s->dir) {
            s->dir = g_strdup(s->mdir);
        }
    }
    if (ok) {
        groups = g_key_file_get_groups(kf, NULL);
    }
    for (gchar **g = groups; g && *g && ok; g++) {
        if (strcmp(*g, "suite") == 0) {
            continue;
        }
        if (strncmp(*g, "case ", 5) == 0) {
            ok = load_case(kf, *g, s, &def, d, sub, sizeof(sub));
        } else if (strcmp(*g, "matrix") == 0 || strncmp(*g, "matrix ", 7) == 0) {
            ok = opt_matrix_expand(kf, *g, s, &def, d, sub, sizeof(sub));
        } else {
            ok = fail(sub, sizeof(sub),
                      "unknown group [%s] (expected [suite], [case NAME] or [matrix [NAME]])",
                      *g);
        }
    }
    g_strfreev(groups);
    g_key_file_free(kf);
    if (ok && s->ncases == 0) {
        ok = fail(sub, sizeof(sub), "no cases ([case NAME] or [matrix] groups)");
    }
    if (ok && !s->program) {
        for (unsigned i = 0; i < s->ncases && ok; i++) {
            if (!s->cases[i].program) {
                ok = fail(sub, sizeof(sub), "[suite] has no program (and case %s has none)",
                          s->cases[i].name);
            }
        }
    }
    if (!ok) {
        fail(err, errlen, "%s: %s", path, sub);
        opt_suite_free(s);
    }
    return ok;
}

char *opt_case_file(const OptSuite *s, const OptCase *c, const char *rel)
{
    if (g_path_is_absolute(rel)) {
        return g_strdup(rel);
    }
    return g_build_filename(c->datadir ? c->datadir : s->dir, rel, NULL);
}

void opt_suite_free(OptSuite *s)
{
    for (unsigned i = 0; i < s->ncases; i++) {
        opt_case_free(&s->cases[i]);
    }
    free(s->cases);
    g_free(s->name);
    g_free(s->path);
    g_free(s->dir);
    g_free(s->mdir);
    g_free(s->program);
    memset(s, 0, sizeof(*s));
}
