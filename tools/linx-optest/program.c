/*
 * linx-optest programs (docs/optest.md "Programs"): each distinct
 * (program, defines) pair of a run is built once, in the runner, before
 * the first case that needs it is forked, so every case's process
 * inherits it.
 *
 * * .s: assembled with the linx-as library; symbols come from the
 *   assembler.  With `defines`, every whole-word NAME in the text (a run
 *   of letters, digits and '_' not inside a longer one) is replaced by its
 *   VALUE first: a substitution without conditionals, in the runner, cheap
 *   enough for a matrix of hundreds of variants (`DTYPE=FP16 SRCS=T#2,T#1`).
 * * .S: the C preprocessor first (`cpp -P -undef -nostdinc -x
 *   assembler-with-cpp -DNAME=VALUE...`, the program named by
 *   LINX_OPTEST_CPP, default cpp), then linx-as: the case's `defines`
 *   select dtypes, layouts and shapes of one kernel source, as pto-isa
 *   instantiates a kernel template per case.
 * * anything else: an ELF file; symbols from its symbol table.
 *
 * Every program is kept as a parsed ELF image in memory, which the virt
 * machine loads from; a Linux user-mode program loads by name, so an
 * assembled one is also written to a temporary file for user-mode suites
 * (removed when the cache is freed).
 */
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optest.h"
#include "tools/linx-as/linx-as.h"
#include "util/elf-file.h"

struct OptProgram {
    char *key;       /* source path + '\n' + defines */
    char *src;       /* source path */
    char *path;      /* the ELF to load (a temporary file for assembly) */
    bool temp;
    LinxAs *as;      /* assembled: symbols from here */
    ElfFile elf;     /* the image (symbols from here when not assembled) */
    bool have_elf;
    char *error;     /* build failed: why (every case using it fails) */
};

struct OptProgramCache {
    GPtrArray *progs;
    GHashTable *by_key; /* key -> OptProgram (owned by progs) */
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void program_free(gpointer pp)
{
    OptProgram *p = pp;

    if (p->temp && p->path) {
        unlink(p->path);
    }
    if (p->as) {
        linx_as_free(p->as);
    }
    if (p->have_elf) {
        elf_file_close(&p->elf);
    }
    g_free(p->path);
    g_free(p->key);
    g_free(p->src);
    g_free(p->error);
    g_free(p);
}

OptProgramCache *opt_program_cache_new(void)
{
    OptProgramCache *pc = g_new0(OptProgramCache, 1);

    pc->progs = g_ptr_array_new_with_free_func(program_free);
    pc->by_key = g_hash_table_new(g_str_hash, g_str_equal);
    return pc;
}

void opt_program_cache_free(OptProgramCache *pc)
{
    if (pc) {
        g_hash_table_destroy(pc->by_key);
        g_ptr_array_free(pc->progs, TRUE);
        g_free(pc);
    }
}

static bool valid_define(const char *d)
{
    if (!g_ascii_isalpha(*d) && *d != '_') {
        return false;
    }
    for (const char *p = d; *p && *p != '='; p++) {
        if (!g_ascii_isalnum(*p) && *p != '_') {
            return false;
        }
    }
    return true;
}

/* @text with each whole-word NAME of @defines replaced by its VALUE
 * (a new string), or NULL with p->error set. */
static char *substitute(OptProgram *p, const char *text, const char *defines)
{
    gchar **defs = g_strsplit_set(defines, " \t", -1);
    GPtrArray *names = g_ptr_array_new(), *values = g_ptr_array_new();
    GString *out = g_string_sized_new(strlen(text) + 256);
    char *res = NULL;

    for (gchar **d = defs; *d; d++) {
        char *eq;
        if (!**d) {
            continue;
        }
        eq = strchr(*d, '=');
        if (!valid_define(*d) || !eq || eq == *d) {
            p->error = g_strdup_printf("defines: '%s' is not NAME=VALUE", *d);
            goto out;
        }
        *eq = 0;
        g_ptr_array_add(names, *d);
        g_ptr_array_add(values, eq + 1);
    }
    for (const char *q = text; *q;) {
        if (g_ascii_isalpha(*q) || *q == '_') {
            const char *e = q;
            bool done = false;
            while (g_ascii_isalnum(*e) || *e == '_') {
                e++;
            }
            for (guint i = 0; i < names->len && !done; i++) {
                const char *n = g_ptr_array_index(names, i);
                if (strlen(n) == (size_t)(e - q) && strncmp(n, q, (size_t)(e - q)) == 0) {
                    g_string_append(out, g_ptr_array_index(values, i));
                    done = true;
                }
            }
            if (!done) {
                g_string_append_len(out, q, e - q);
            }
            q = e;
        } else if (g_ascii_isdigit(*q)) {
            /* a number (0x1f, 4KB): not a name */
            while (g_ascii_isalnum(*q) || *q == '_') {
                g_string_append_c(out, *q++);
            }
        } else {
            g_string_append_c(out, *q++);
        }
    }
    res = g_string_free(out, FALSE);
    out = NULL;
out:
    if (out) {
        g_string_free(out, TRUE);
    }
    g_ptr_array_free(names, TRUE);
    g_ptr_array_free(values, TRUE);
    g_strfreev(defs);
    return res;
}

/* Run the preprocessor over @src: the text, or NULL with p->error set. */
static char *preprocess(OptProgram *p, const char *src, const char *defines, gsize *len)
{
    const char *cpp = getenv("LINX_OPTEST_CPP");
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    gchar **defs = g_strsplit_set(defines ? defines : "", " \t", -1);
    gchar *out = NULL, *errs = NULL;
    GError *ge = NULL;
    gint wst = 0;

    g_ptr_array_add(argv, g_strdup(cpp && *cpp ? cpp : "cpp"));
    g_ptr_array_add(argv, g_strdup("-P"));
    g_ptr_array_add(argv, g_strdup("-undef"));
    g_ptr_array_add(argv, g_strdup("-nostdinc"));
    g_ptr_array_add(argv, g_strdup("-x"));
    g_ptr_array_add(argv, g_strdup("assembler-with-cpp"));
    for (gchar **d = defs; *d; d++) {
        if (!**d) {
            continue;
        }
        if (!valid_define(*d)) {
            p->error = g_strdup_printf("defines: '%s' is not NAME or NAME=VALUE", *d);
            g_strfreev(defs);
            g_ptr_array_free(argv, TRUE);
            return NULL;
        }
        g_ptr_array_add(argv, g_strdup_printf("-D%s", *d));
    }
    g_strfreev(defs);
    g_ptr_array_add(argv, g_strdup(src));
    g_ptr_array_add(argv, NULL);
    if (!g_spawn_sync(NULL, (gchar **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                      &errs, &wst, &ge)) {
        p->error = g_strdup_printf("cannot run the preprocessor (%s; set LINX_OPTEST_CPP)",
                                   ge->message);
        g_error_free(ge);
    } else if (!g_spawn_check_wait_status(wst, NULL)) {
        p->error = g_strdup_printf("%s: the preprocessor failed:\n%s", src, errs ? errs : "");
        g_free(out);
        out = NULL;
    }
    g_free(errs);
    g_ptr_array_free(argv, TRUE);
    if (out) {
        *len = strlen(out);
    }
    return out;
}

/* An assembled program's temporary file (user mode loads by name). */
static void program_write_file(OptProgram *p, const char *src)
{
    char tmpl[4096];
    const char *tmp = getenv("TMPDIR");
    int fd;

    snprintf(tmpl, sizeof(tmpl), "%s/linx-optest-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemp(tmpl);
    if (fd < 0) {
        p->error = g_strdup_printf("cannot create a temporary file %s: %s", tmpl,
                                   strerror(errno));
        return;
    }
    close(fd);
    p->path = g_strdup(tmpl);
    p->temp = true;
    if (!linx_as_write_file(p->as, tmpl)) {
        p->error = g_strdup_printf("%s: cannot write the assembled program:\n%s", src,
                                   linx_as_diagnostics(p->as));
    }
}

static void program_build(OptProgram *p, const char *src, const char *defines)
{
    bool cpp = ends_with(src, ".S");
    bool has_defs = defines && strspn(defines, " \t") != strlen(defines);
    LinxAsOptions o;
    char err[512];
    uint8_t *img = NULL;
    size_t len = 0;
    bool ok;

    if (!cpp && !ends_with(src, ".s")) {
        if (has_defs) {
            p->error = g_strdup_printf("%s: defines need an assembly program (.s or .S)", src);
            return;
        }
        if (!elf_file_open(&p->elf, src, err, sizeof(err))) {
            p->error = g_strdup(err);
            return;
        }
        p->have_elf = true;
        p->path = g_strdup(src);
        return;
    }
    linx_as_default_options(&o);
    p->as = linx_as_new(&o);
    if (cpp) {
        gsize n = 0;
        char *text = preprocess(p, src, defines, &n);
        if (!text) {
            return;
        }
        linx_as_add_source(p->as, src, text, n);
        g_free(text);
        ok = true;
    } else if (has_defs) {
        gchar *text = NULL, *subst;
        GError *ge = NULL;
        if (!g_file_get_contents(src, &text, NULL, &ge)) {
            p->error = g_strdup_printf("%s: %s", src, ge->message);
            g_error_free(ge);
            return;
        }
        subst = substitute(p, text, defines);
        g_free(text);
        if (!subst) {
            return;
        }
        linx_as_add_source(p->as, src, subst, strlen(subst));
        g_free(subst);
        ok = true;
    } else {
        ok = linx_as_add_file(p->as, src);
    }
    if (!ok || !linx_as_assemble(p->as)) {
        p->error = g_strdup_printf("%s%s%s: assembly failed:\n%s", src, has_defs ? " with " : "",
                                   has_defs ? defines : "", linx_as_diagnostics(p->as));
        return;
    }
    if (!linx_as_output(p->as, &img, &len) ||
        !elf_file_parse(&p->elf, img, len, src, err, sizeof(err))) {
        p->error = g_strdup_printf("%s: cannot make the ELF image:\n%s", src,
                                   img ? err : linx_as_diagnostics(p->as));
        free(img);
        return;
    }
    free(img);
    p->have_elf = true;
}

static char *program_source(const OptSuite *s, const OptCase *c)
{
    const char *prog = c->program ? c->program : s->program;

    return g_path_is_absolute(prog) ? g_strdup(prog) : g_build_filename(s->mdir, prog, NULL);
}

char *opt_program_key(const OptSuite *s, const OptCase *c)
{
    char *src = program_source(s, c);
    char *key = g_strdup_printf("%s\n%s", src, c->defines ? c->defines : "");

    g_free(src);
    return key;
}

const OptProgram *opt_program_get(OptProgramCache *pc, const OptSuite *s, const OptCase *c,
                                  char *err, size_t errlen)
{
    char *src = program_source(s, c);
    char *key = opt_program_key(s, c);
    OptProgram *p = NULL;

    p = g_hash_table_lookup(pc->by_key, key);
    if (!p) {
        p = g_new0(OptProgram, 1);
        p->key = key;
        p->src = g_strdup(src);
        key = NULL;
        program_build(p, src, c->defines);
        g_ptr_array_add(pc->progs, p);
        g_hash_table_insert(pc->by_key, p->key, p);
    }
    if (!p->error && !p->path && s->machine == OPT_MACHINE_USER) {
        program_write_file(p, src);
    }
    g_free(key);
    g_free(src);
    if (p->error) {
        snprintf(err, errlen, "%s", p->error);
        return NULL;
    }
    return p;
}

const char *opt_program_path(const OptProgram *p)
{
    return p->path;
}

const ElfFile *opt_program_elf(const OptProgram *p)
{
    return &p->elf;
}

const char *opt_program_source(const OptProgram *p)
{
    return p->src;
}

bool opt_program_resolve(const OptProgram *p, const OptPlace *pl, uint64_t *addr)
{
    if (!pl->symbol) {
        *addr = pl->addr;
        return true;
    }
    if (p->as) {
        if (!linx_as_symbol_value(p->as, pl->symbol, addr)) {
            return false;
        }
    } else {
        bool found = false;
        for (unsigned i = 0; i < p->elf.nsymbols && !found; i++) {
            if (p->elf.symbols[i].name && strcmp(p->elf.symbols[i].name, pl->symbol) == 0) {
                *addr = p->elf.symbols[i].value;
                found = true;
            }
        }
        if (!found) {
            return false;
        }
    }
    *addr += pl->addr;
    return true;
}
