/*
 * linx-optest generators (docs/optest.md "Generated data"): a case's
 * `generate = SCRIPT ARGS...` writes its inputs and goldens, the habit of
 * pto-isa's gen_data.py, built in.
 *
 * * The command runs with the case's data directory as its working
 *   directory (created first); SCRIPT is relative to the manifest's
 *   directory (else looked up in PATH); OPTEST_SUITE, OPTEST_CASE and
 *   OPTEST_OUT are set.  Exit status 0 means the files are written.
 * * A stamp file (.optest-generated, holding the command) marks the data
 *   as made by that command; a case whose stamp matches is not generated
 *   again unless --regenerate.
 * * Python scripts (.py) of many cases run in one interpreter per script
 *   (LINX_OPTEST_PYTHON, default python3) through a small driver that
 *   calls runpy.run_path once per case with that case's argv and working
 *   directory: numpy is imported once, not once per case.  Every other
 *   command is run on its own.
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "optest.h"

#define STAMP_NAME ".optest-generated"

/* The driver: argv[1] is a file of JSON arrays, one per case:
 * [index, suite, case, outdir, script, arg...]; prints [index, ok,
 * message] per case on stdout. */
static const char driver_py[] =
    "import contextlib, io, json, os, runpy, sys, traceback\n"
    "out = sys.stdout\n"
    "home = os.getcwd()\n"
    "for line in open(sys.argv[1], encoding='utf-8'):\n"
    "    idx, suite, case, d, script, *args = json.loads(line)\n"
    "    buf = io.StringIO()\n"
    "    ok = True\n"
    "    try:\n"
    "        os.makedirs(d, exist_ok=True)\n"
    "        os.chdir(d)\n"
    "        os.environ.update(OPTEST_SUITE=suite, OPTEST_CASE=case, OPTEST_OUT=d)\n"
    "        sys.argv = [script] + args\n"
    "        sdir = os.path.dirname(os.path.abspath(script))\n"
    "        if sdir not in sys.path:\n"
    "            sys.path.insert(0, sdir)\n"
    "        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):\n"
    "            try:\n"
    "                runpy.run_path(script, run_name='__main__')\n"
    "            except SystemExit as e:\n"
    "                if e.code not in (None, 0):\n"
    "                    ok = False\n"
    "                    print(e.code if isinstance(e.code, str) else\n"
    "                          'exit status %s' % e.code)\n"
    "    except BaseException:\n"
    "        ok = False\n"
    "        buf.write(traceback.format_exc())\n"
    "    finally:\n"
    "        os.chdir(home)\n"
    "    out.write(json.dumps([idx, ok, '' if ok else buf.getvalue()]) + '\\n')\n"
    "    out.flush()\n";

typedef struct Job {
    size_t idx;
    gchar **argv;    /* argv[0]: the resolved script or command */
    char *stamp;     /* the stamp file's path */
    char *command;   /* what the stamp holds */
} Job;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool up_to_date(const char *stamp, const char *command)
{
    gchar *text = NULL;
    bool same;

    if (!g_file_get_contents(stamp, &text, NULL, NULL)) {
        return false;
    }
    same = strcmp(text, command) == 0;
    g_free(text);
    return same;
}

/* The stamp (no fsync: g_file_set_contents syncs, hundreds of times per
 * build; a stamp lost in a crash only means generating again). */
static void write_stamp(const char *path, const char *command)
{
    FILE *f = fopen(path, "w");

    if (f) {
        fputs(command, f);
        fclose(f);
    }
}

static void json_str(GString *g, const char *s)
{
    g_string_append_c(g, '"');
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            g_string_append_printf(g, "\\%c", c);
        } else if (c < 0x20) {
            g_string_append_printf(g, "\\u%04x", c);
        } else {
            g_string_append_c(g, (char)c);
        }
    }
    g_string_append_c(g, '"');
}

static void report_failure(const OptRef *r, const char *command, const char *output)
{
    fprintf(stderr, "linx-optest: generator of %s/%s failed: %s\n%s%s", r->s->name, r->c->name,
            command, output ? output : "",
            output && *output && output[strlen(output) - 1] != '\n' ? "\n" : "");
}

static char *absolute(const char *path)
{
    return g_path_is_absolute(path) ? g_strdup(path) : g_canonicalize_filename(path, NULL);
}

/* Run one non-Python command; true on exit status 0. */
static bool run_one(const OptRef *r, const Job *j)
{
    gchar **envp = g_get_environ();
    gchar *out = NULL, *errs = NULL;
    GError *ge = NULL;
    gint wst = 0;
    bool ok;
    char *dir = absolute(r->c->datadir);

    envp = g_environ_setenv(envp, "OPTEST_SUITE", r->s->name, TRUE);
    envp = g_environ_setenv(envp, "OPTEST_CASE", r->c->name, TRUE);
    envp = g_environ_setenv(envp, "OPTEST_OUT", dir, TRUE);
    ok = g_spawn_sync(dir, j->argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errs, &wst,
                      &ge) &&
         g_spawn_check_wait_status(wst, NULL);
    if (!ok) {
        char *msg = g_strdup_printf("%s%s%s", ge ? ge->message : "", out ? out : "",
                                    errs ? errs : "");
        report_failure(r, j->command, msg);
        g_free(msg);
    }
    if (ge) {
        g_error_free(ge);
    }
    g_free(out);
    g_free(errs);
    g_free(dir);
    g_strfreev(envp);
    return ok;
}

/* Run the Python jobs @jobs (all of one script) in one interpreter. */
static unsigned run_python(const OptRef *refs, Job *jobs, size_t n, bool *failed)
{
    const char *py = getenv("LINX_OPTEST_PYTHON");
    const char *tmp = getenv("TMPDIR");
    char *list = g_strdup_printf("%s/linx-optest-gen-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    GString *g = g_string_new(NULL);
    gchar *out = NULL, *errs = NULL;
    GError *ge = NULL;
    gint wst = 0;
    int fd = g_mkstemp(list);
    unsigned nfail = 0;
    bool *done = g_new0(bool, n);

    for (size_t i = 0; i < n; i++) {
        const OptRef *r = &refs[jobs[i].idx];
        char *dir = absolute(r->c->datadir);
        g_string_append_printf(g, "[%zu, ", i);
        json_str(g, r->s->name);
        g_string_append(g, ", ");
        json_str(g, r->c->name);
        g_string_append(g, ", ");
        json_str(g, dir);
        for (gchar **a = jobs[i].argv; *a; a++) {
            g_string_append(g, ", ");
            json_str(g, *a);
        }
        g_string_append(g, "]\n");
        g_free(dir);
    }
    if (fd < 0 || write(fd, g->str, g->len) != (ssize_t)g->len) {
        fprintf(stderr, "linx-optest: cannot write %s: %s\n", list, strerror(errno));
    } else {
        const char *argv[] = { py && *py ? py : "python3", "-c", driver_py, list, NULL };
        if (!g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                          &errs, &wst, &ge)) {
            fprintf(stderr, "linx-optest: cannot run %s for the generators: %s (set "
                    "LINX_OPTEST_PYTHON)\n", argv[0], ge->message);
            g_error_free(ge);
        }
    }
    if (fd >= 0) {
        close(fd);
        unlink(list);
    }
    /* results: [index, ok, message] per line */
    {
        gchar **lines = g_strsplit(out ? out : "", "\n", -1);
        for (gchar **l = lines; *l; l++) {
            char jerr[128];
            JsonValue *v = **l == '[' ? json_parse(*l, strlen(*l), jerr, sizeof(jerr)) : NULL;
            size_t i;

            if (v && v->type == JSON_ARRAY && v->n == 3 && v->items[0]->type == JSON_NUMBER) {
                i = (size_t)v->items[0]->num;
                if (i < n && !done[i]) {
                    bool ok = v->items[1]->type == JSON_TRUE;
                    done[i] = true;
                    failed[jobs[i].idx] = !ok;
                    if (!ok) {
                        report_failure(&refs[jobs[i].idx], jobs[i].command,
                                       json_string(v->items[2]));
                    }
                }
            }
            json_free(v);
        }
        g_strfreev(lines);
    }
    for (size_t i = 0; i < n; i++) {
        if (!done[i]) {
            report_failure(&refs[jobs[i].idx], jobs[i].command,
                           errs && *errs ? errs : "the Python driver did not report this case");
            failed[jobs[i].idx] = true;
        }
        nfail += failed[jobs[i].idx];
    }
    g_free(done);
    g_free(out);
    g_free(errs);
    g_free(list);
    g_string_free(g, TRUE);
    return nfail;
}

unsigned opt_generate(const OptRef *refs, size_t n, bool force, bool verbose, bool *failed)
{
    GPtrArray *jobs = g_ptr_array_new();
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    unsigned nfail = 0;

    for (size_t i = 0; i < n; i++) {
        const OptRef *r = &refs[i];
        GError *ge = NULL;
        gchar **argv = NULL;
        Job *j;

        failed[i] = false;
        if (!r->c->generate || r->c->skip) {
            continue;
        }
        if (!g_shell_parse_argv(r->c->generate, NULL, &argv, &ge)) {
            report_failure(r, r->c->generate, ge->message);
            g_error_free(ge);
            failed[i] = true;
            nfail++;
            continue;
        }
        j = g_new0(Job, 1);
        j->idx = i;
        j->argv = argv;
        j->stamp = g_build_filename(r->c->datadir, STAMP_NAME, NULL);
        j->command = g_strdup_printf("%s\n", r->c->generate);
        if (!g_path_is_absolute(argv[0])) {
            char *local = g_build_filename(r->s->mdir, argv[0], NULL);
            if (g_file_test(local, G_FILE_TEST_EXISTS)) {
                g_free(argv[0]);
                argv[0] = absolute(local);
            }
            g_free(local);
        }
        /* two cases of one data directory: generated once */
        if (g_hash_table_contains(seen, j->stamp) ||
            (!force && up_to_date(j->stamp, j->command))) {
            g_strfreev(j->argv);
            g_free(j->stamp);
            g_free(j->command);
            g_free(j);
            continue;
        }
        g_hash_table_add(seen, g_strdup(j->stamp));
        if (g_mkdir_with_parents(r->c->datadir, 0755) != 0) {
            char *msg = g_strdup_printf("cannot create %s: %s", r->c->datadir, strerror(errno));
            report_failure(r, r->c->generate, msg);
            g_free(msg);
            failed[i] = true;
            nfail++;
        }
        g_unlink(j->stamp);
        g_ptr_array_add(jobs, j);
    }
    /* Python scripts, one interpreter per script */
    for (guint i = 0; i < jobs->len; i++) {
        Job *j = g_ptr_array_index(jobs, i);
        const char *script;
        GArray *same;

        if (!j->argv || !ends_with(j->argv[0], ".py") || failed[j->idx]) {
            continue;
        }
        same = g_array_new(FALSE, FALSE, sizeof(Job));
        script = j->argv[0]; /* owned by the first job moved into @same */
        for (guint k = i; k < jobs->len; k++) {
            Job *o = g_ptr_array_index(jobs, k);
            if (o->argv && !failed[o->idx] && strcmp(o->argv[0], script) == 0) {
                g_array_append_val(same, *o);
                o->argv = NULL; /* moved */
            }
        }
        if (verbose) {
            fprintf(stderr, "linx-optest: generating %u cases with %s\n", same->len,
                    g_array_index(same, Job, 0).argv[0]);
        }
        run_python(refs, (Job *)(void *)same->data, same->len, failed);
        for (guint k = 0; k < same->len; k++) {
            Job *o = &g_array_index(same, Job, k);
            if (!failed[o->idx]) {
                write_stamp(o->stamp, o->command);
            } else {
                nfail++;
            }
            g_strfreev(o->argv);
        }
        g_array_free(same, TRUE);
    }
    for (guint i = 0; i < jobs->len; i++) {
        Job *j = g_ptr_array_index(jobs, i);

        if (j->argv && !failed[j->idx]) {
            if (run_one(&refs[j->idx], j)) {
                write_stamp(j->stamp, j->command);
            } else {
                failed[j->idx] = true;
                nfail++;
            }
        }
        g_strfreev(j->argv);
        g_free(j->stamp);
        g_free(j->command);
        g_free(j);
    }
    g_ptr_array_free(jobs, TRUE);
    g_hash_table_destroy(seen);
    return nfail;
}
