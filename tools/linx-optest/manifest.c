/*
 * linx-optest manifests (docs/optest.md "Manifest"): an INI/TOML-like key
 * file read with GLib's GKeyFile.
 *
 *   [suite]
 *   name = vadd                    # default: the file name
 *   program = vadd.s               # .s / .S: assembled with linx-as; else an ELF
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
 *
 * PLACE is a symbol of the program, symbol+offset, or an address (0x...).
 * The program's name is relative to the manifest's directory, data files
 * to --data (default: the manifest's directory too).  Comments are lines
 * starting with '#'.
 */
#include <glib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"

enum {
    DEFAULT_TIMEOUT_S = 60,
    DEFAULT_RAM_MIB = 256,
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

    if (!*s) {
        return false;
    }
    *v = g_ascii_strtoull(s, &end, 0);
    return *end == 0;
}

static bool parse_double(const char *s, double *v)
{
    char *end;

    *v = g_ascii_strtod(s, &end);
    return *s && *end == 0 && *v >= 0;
}

static bool parse_place(const char *s, OptPlace *p)
{
    const char *plus = strchr(s, '+');

    memset(p, 0, sizeof(*p));
    if ((s[0] >= '0' && s[0] <= '9')) {
        return parse_u64(s, &p->addr);
    }
    if (plus) {
        p->symbol = g_strndup(s, (gsize)(plus - s));
        return parse_u64(plus + 1, &p->addr);
    }
    p->symbol = g_strdup(s);
    return true;
}

/* "FILE at PLACE [dtype T]" */
static bool parse_input(const char *key, const char *val, OptInput *in, char *err, size_t errlen)
{
    gchar **w = g_strsplit_set(val, " \t", -1);
    unsigned n = 0;
    bool ok = true, have_at = false;

    memset(in, 0, sizeof(*in));
    in->name = g_strdup(key);
    for (gchar **p = w; *p && ok; p++) {
        if (!**p) {
            continue;
        }
        if (n++ == 0) {
            in->file = g_strdup(*p);
        } else if (strcmp(*p, "at") == 0 && p[1]) {
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

    memset(out, 0, sizeof(*out));
    out->name = g_strdup(key);
    out->tol = *def;
    for (gchar **p = w; *p && ok; p++) {
        if (!**p) {
            continue;
        }
        if (!p[1]) {
            ok = false;
        } else if (strcmp(*p, "golden") == 0) {
            out->golden = g_strdup(*++p);
        } else if (strcmp(*p, "at") == 0) {
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

static bool load_case(GKeyFile *kf, const char *group, const OptTolerance *def, OptCase *c,
                      char *err, size_t errlen)
{
    gsize nkeys = 0;
    gchar **keys = g_key_file_get_keys(kf, group, &nkeys, NULL);
    char sub[256];
    bool ok = true;

    memset(c, 0, sizeof(*c));
    c->name = g_strdup(group + strlen("case "));
    g_strstrip(c->name);
    for (gsize i = 0; i < nkeys && ok; i++) {
        gchar *val = g_key_file_get_string(kf, group, keys[i], NULL);
        const char *k = keys[i];
        sub[0] = 0;
        if (!val) {
            continue;
        }
        g_strstrip(val);
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
            for (gchar **p = w; *p; p++) {
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
        } else {
            ok = fail(sub, sizeof(sub), "unknown key '%s'", k);
        }
        g_free(val);
    }
    g_strfreev(keys);
    if (ok && c->noutputs == 0) {
        ok = fail(sub, sizeof(sub), "no output.* to check");
    }
    if (!ok) {
        fail(err, errlen, "[%s] %s", group, sub);
    }
    return ok;
}

bool opt_suite_load(const char *path, const char *data_dir, OptSuite *s, char *err,
                    size_t errlen)
{
    GKeyFile *kf = g_key_file_new();
    GError *ge = NULL;
    gchar **groups;
    OptTolerance def = { 1e-6, 0, 0, true };
    gchar *v;
    char sub[512];
    bool ok = true;

    memset(s, 0, sizeof(*s));
    s->path = g_strdup(path);
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &ge)) {
        fail(err, errlen, "%s: %s", path, ge->message);
        g_error_free(ge);
        g_key_file_free(kf);
        return false;
    }
    s->mdir = g_path_get_dirname(path);
    s->dir = data_dir ? g_strdup(data_dir) : g_strdup(s->mdir);
    if (!g_key_file_has_group(kf, "suite")) {
        fail(err, errlen, "%s: no [suite] group", path);
        g_key_file_free(kf);
        return false;
    }
    v = g_key_file_get_string(kf, "suite", "name", NULL);
    s->name = v ? v : g_path_get_basename(path);
    s->program = g_key_file_get_string(kf, "suite", "program", NULL);
    s->timeout = DEFAULT_TIMEOUT_S;
    s->ram_mib = DEFAULT_RAM_MIB;
    v = g_key_file_get_string(kf, "suite", "machine", NULL);
    if (v && strcmp(v, "user") == 0) {
        s->machine = OPT_MACHINE_USER;
    } else if (v && strcmp(v, "virt") != 0) {
        ok = fail(sub, sizeof(sub), "machine: expected virt or user, got '%s'", v);
    }
    g_free(v);
    {
        static const char *const num_keys[] = { "timeout", "ram", "rtol", "atol", "ulp" };
        for (size_t i = 0; i < 5 && ok; i++) {
            double d;
            v = g_key_file_get_string(kf, "suite", num_keys[i], NULL);
            if (!v) {
                continue;
            }
            g_strstrip(v);
            if (!parse_double(v, &d)) {
                ok = fail(sub, sizeof(sub), "%s: expected a number, got '%s'", num_keys[i], v);
            } else if (i == 0) {
                s->timeout = d;
            } else if (i == 1) {
                s->ram_mib = (uint64_t)d;
            } else if (i == 2) {
                def.rtol = d;
            } else if (i == 3) {
                def.atol = d;
            } else {
                def.ulp = (uint64_t)d;
            }
            g_free(v);
        }
    }
    if (ok && !s->program) {
        ok = fail(sub, sizeof(sub), "[suite] has no program");
    }
    groups = g_key_file_get_groups(kf, NULL);
    for (gchar **g = groups; *g && ok; g++) {
        if (strcmp(*g, "suite") == 0) {
            continue;
        }
        if (strncmp(*g, "case ", 5) != 0) {
            ok = fail(sub, sizeof(sub), "unknown group [%s] (expected [suite] or [case NAME])",
                      *g);
            break;
        }
        s->cases = realloc(s->cases, (s->ncases + 1) * sizeof(OptCase));
        ok = load_case(kf, *g, &def, &s->cases[s->ncases], sub, sizeof(sub));
        s->ncases++;
    }
    g_strfreev(groups);
    g_key_file_free(kf);
    if (ok && s->ncases == 0) {
        ok = fail(sub, sizeof(sub), "no [case NAME] groups");
    }
    if (!ok) {
        fail(err, errlen, "%s: %s", path, sub);
        opt_suite_free(s);
    }
    return ok;
}

char *opt_suite_file(const OptSuite *s, const char *rel)
{
    return g_path_is_absolute(rel) ? g_strdup(rel) : g_build_filename(s->dir, rel, NULL);
}

void opt_suite_free(OptSuite *s)
{
    for (unsigned i = 0; i < s->ncases; i++) {
        OptCase *c = &s->cases[i];
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
    }
    free(s->cases);
    g_free(s->name);
    g_free(s->path);
    g_free(s->dir);
    g_free(s->mdir);
    g_free(s->program);
    memset(s, 0, sizeof(*s));
}
