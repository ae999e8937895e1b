/*
 * linx-optest: the operator test runner (docs/optest.md).
 *
 *   linx-optest [options] MANIFEST|DIRECTORY...
 *   linx-optest merge [options] REPORT.json...
 *
 * Finds the suites (directories are searched recursively for *.optest),
 * selects cases (-c, -k, --shard), makes generated data, runs the cases
 * -j at a time and reports: a line per case, a summary, and JSON, JUnit
 * or TAP.  Exit status: 0 when every selected case passed (or was
 * skipped), 1 when one failed, 2 for a bad command line or manifest or a
 * name, filter or path that matched nothing; 128+N after signal N
 * (SIGINT, SIGTERM) stopped the run, once the partial reports are
 * written.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <glib.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "optest.h"
#include "util/options.h"

typedef struct Options {
    OptRunOptions run;
    OptDataOptions data;
    GPtrArray *cases;     /* -c NAME */
    GPtrArray *filters;   /* -k GLOB */
    GPtrArray *paths;     /* manifests and directories */
    unsigned jobs;
    int shard_index, shard_count;
    int shards;           /* --shards N: the index from the environment */
    bool list, tap, generate_only, regenerate, no_progress;
    const char *json, *junit;
    const char *stamp;    /* --generate-only: written when every generator succeeded */
} Options;

enum {
    OPT_ACCEL = 1, OPT_JOBS, OPT_FILTER, OPT_CASE, OPT_SHARD, OPT_SHARDS, OPT_DATA, OPT_DATA_ROOT,
    OPT_REGEN, OPT_GENONLY, OPT_STAMP, OPT_TIMEOUT, OPT_JSON, OPT_JUNIT, OPT_TAP, OPT_NOPROGRESS,
    OPT_LIST, OPT_REFERENCE, OPT_VERBOSE, OPT_QUIET, OPT_VERSION, OPT_HELP, OPT_ISOLATE,
};

static const LinxOpt optest_opts[] = {
    { "accel", 'a', "jit|interp", "execution engine (default jit)", OPT_ACCEL },
    { "jobs", 'j', "N", "cases run at once (default: the CPUs this process may use)", OPT_JOBS },
    { "filter", 'k', "GLOB",
      "only cases whose suite/case (or case name, for a GLOB\nwithout '/') matches (repeatable)",
      OPT_FILTER },
    { "case", 'c', "NAME", "only this case, NAME or suite/NAME (repeatable)", OPT_CASE },
    { "shard", 0, "K/N",
      "run shard K (0..N-1) of N: a stable split by name;\n"
      "default from SLURM_ARRAY_TASK_ID/_COUNT",
      OPT_SHARD },
    { "shards", 0, "N",
      "N shards, this one's index from SLURM_ARRAY_TASK_ID or\n"
      "JOB_COMPLETION_INDEX (Kubernetes Indexed Job)",
      OPT_SHARDS },
    { "data", 'd', "DIR", "relative data files of every suite are in DIR", OPT_DATA },
    { "data-root", 'D', "DIR", "suite S's data in DIR/S, generated data in DIR/S/CASE",
      OPT_DATA_ROOT },
    { "regenerate", 0, NULL, "run generators even when their data is up to date", OPT_REGEN },
    { "generate-only", 0, NULL, "run the generators and stop", OPT_GENONLY },
    { "stamp", 0, "FILE", "with --generate-only: write FILE when all succeeded", OPT_STAMP },
    { "timeout", 't', "SECONDS", "time limit of every case (default: the manifest's)",
      OPT_TIMEOUT },
    { "isolate", 0, NULL,
      "a process per case (default: a worker per -j slot runs\nmany cases on one reused machine)",
      OPT_ISOLATE },
    { "json", 0, "FILE", "write a JSON report (docs/optest-report.schema.json)", OPT_JSON },
    { "junit", 0, "FILE", "write a JUnit XML report", OPT_JUNIT },
    { "tap", 0, NULL, "TAP 13 on standard output instead of the case lines", OPT_TAP },
    { "no-progress", 0, NULL, "no progress line on a terminal", OPT_NOPROGRESS },
    { "list", 'l', NULL, "list the selected cases and exit", OPT_LIST },
    { "reference", 'r', NULL, "TEPL blocks use the reference kernels", OPT_REFERENCE },
    { "verbose", 'v', NULL, "comparison details and guest output of every case", OPT_VERBOSE },
    { "quiet", 'q', NULL, "print failures and the summary only", OPT_QUIET },
    { "version", 0, NULL, "print the version", OPT_VERSION },
    { "help", 'h', NULL, "this text", OPT_HELP },
    { NULL },
};

static void usage(FILE *f)
{
    LinxOptGroup g = { NULL, optest_opts, NULL, NULL };

    fprintf(f,
            "usage: linx-optest [options] MANIFEST|DIRECTORY...\n"
            "       linx-optest merge [--json FILE] [--junit FILE] [--tap] REPORT.json...\n"
            "Run operator test suites (docs/optest.md): each case loads input tensors into\n"
            "guest memory, runs its program and compares the outputs with golden tensors.\n"
            "Directories are searched recursively for *.optest manifests.\n\nOptions:\n");
    linx_opts_print_help(f, LINX_OPTS_GNU, &g, 1);
    fprintf(f, "\nExit status: 0 all passed, 1 a case failed, 2 usage, manifest error or nothing\n"
               "matched, 128+N interrupted by signal N (after writing the partial reports).\n");
}

static unsigned cpu_count(void)
{
    cpu_set_t set;
    long n;

    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
        return (unsigned)CPU_COUNT(&set);
    }
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static bool parse_uint(const char *s, long max, long *v)
{
    char *end;

    if (!s || !*s) {
        return false;
    }
    *v = strtol(s, &end, 10);
    return *end == 0 && *v >= 0 && *v <= max;
}

/* ---------------------------------------------------------------------
 * Discovery
 * --------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append the *.optest files under @dir (sorted, dot entries skipped). */
static void walk(const char *dir, GPtrArray *out, unsigned depth)
{
    DIR *d;
    struct dirent *e;
    GPtrArray *names;

    if (depth > 32 || !(d = opendir(dir))) {
        return;
    }
    names = g_ptr_array_new_with_free_func(g_free);
    while ((e = readdir(d))) {
        if (e->d_name[0] != '.') {
            g_ptr_array_add(names, g_strdup(e->d_name));
        }
    }
    closedir(d);
    if (names->len > 1) {
        qsort(names->pdata, names->len, sizeof(char *), cmp_str);
    }
    for (guint i = 0; i < names->len; i++) {
        char *p = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        struct stat st;

        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            walk(p, out, depth + 1);
            g_free(p);
        } else if (g_str_has_suffix(p, ".optest") && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            g_ptr_array_add(out, p);
        } else {
            g_free(p);
        }
    }
    g_ptr_array_free(names, TRUE);
}

/* The manifests named by @paths; false (with a message) when a path does
 * not exist or a directory holds none. */
static bool discover(GPtrArray *paths, GPtrArray *manifests)
{
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool ok = true;

    for (guint i = 0; i < paths->len && ok; i++) {
        const char *p = g_ptr_array_index(paths, i);
        GPtrArray *found = g_ptr_array_new_with_free_func(g_free);
        struct stat st;

        if (stat(p, &st) != 0) {
            fprintf(stderr, "linx-optest: %s: no such manifest or directory\n", p);
            ok = false;
        } else if (S_ISDIR(st.st_mode)) {
            walk(p, found, 0);
            if (found->len == 0) {
                fprintf(stderr, "linx-optest: %s: no *.optest manifests in this directory\n",
                        p);
                ok = false;
            }
        } else {
            g_ptr_array_add(found, g_strdup(p));
        }
        for (guint k = 0; k < found->len && ok; k++) {
            char *m = g_ptr_array_index(found, k);
            char *canon = realpath(m, NULL);
            char *key = g_strdup(canon ? canon : m);

            free(canon);
            if (g_hash_table_contains(seen, key)) {
                g_free(key);
                continue;
            }
            g_hash_table_add(seen, key);
            g_ptr_array_add(manifests, g_strdup(m));
        }
        g_ptr_array_free(found, TRUE);
    }
    g_hash_table_destroy(seen);
    return ok;
}

/* ---------------------------------------------------------------------
 * Selection
 * --------------------------------------------------------------------- */

static bool matches(const char *pattern, const OptRef *r, const char *full, bool exact)
{
    if (exact) {
        return strcmp(pattern, r->c->name) == 0 || strcmp(pattern, full) == 0;
    }
    if (fnmatch(pattern, full, 0) == 0) {
        return true;
    }
    return !strchr(pattern, '/') && fnmatch(pattern, r->c->name, 0) == 0;
}

/* FNV-1a 64 of "suite/case": the shard of a case depends on its name
 * only, so every shard of a run agrees whatever else it sees. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    }
    return h;
}

/* Shard from --shard / --shards / the environment; false on a bad value. */
static bool resolve_shard(Options *o)
{
    const char *id = getenv("SLURM_ARRAY_TASK_ID");
    const char *count = getenv("SLURM_ARRAY_TASK_COUNT");
    const char *jci = getenv("JOB_COMPLETION_INDEX");
    long k, n, min = 0, step = 1;

    if (o->shard_count > 0) {
        return true;
    }
    if (id && *id) {
        if (!parse_uint(id, 1 << 30, &k)) {
            fprintf(stderr, "linx-optest: SLURM_ARRAY_TASK_ID='%s' is not a number\n", id);
            return false;
        }
        if (getenv("SLURM_ARRAY_TASK_MIN") &&
            !parse_uint(getenv("SLURM_ARRAY_TASK_MIN"), 1 << 30, &min)) {
            min = 0;
        }
        if (getenv("SLURM_ARRAY_TASK_STEP") &&
            (!parse_uint(getenv("SLURM_ARRAY_TASK_STEP"), 1 << 30, &step) || step == 0)) {
            step = 1;
        }
        if (o->shards > 0) {
            n = o->shards;
        } else if (!count || !parse_uint(count, 1 << 30, &n) || n == 0) {
            fprintf(stderr, "linx-optest: SLURM_ARRAY_TASK_ID is set but "
                    "SLURM_ARRAY_TASK_COUNT is not a count: give --shards N or --shard K/N\n");
            return false;
        }
        k = (k - min) / step;
        if (k < 0 || k >= n) {
            fprintf(stderr, "linx-optest: array task %s is shard %ld of %ld: out of range\n", id,
                    k, n);
            return false;
        }
        o->shard_index = (int)k;
        o->shard_count = (int)n;
        fprintf(stderr, "linx-optest: shard %d/%d from SLURM_ARRAY_TASK_ID=%s\n",
                o->shard_index, o->shard_count, id);
        return true;
    }
    if (jci && *jci) {
        if (!parse_uint(jci, 1 << 30, &k)) {
            fprintf(stderr, "linx-optest: JOB_COMPLETION_INDEX='%s' is not a number\n", jci);
            return false;
        }
        if (o->shards <= 0) {
            fprintf(stderr, "linx-optest: JOB_COMPLETION_INDEX is set: give --shards N (the "
                    "Job's completions) or --shard K/N\n");
            return false;
        }
        if (k >= o->shards) {
            fprintf(stderr, "linx-optest: JOB_COMPLETION_INDEX=%ld is not below --shards %d\n",
                    k, o->shards);
            return false;
        }
        o->shard_index = (int)k;
        o->shard_count = o->shards;
        fprintf(stderr, "linx-optest: shard %d/%d from JOB_COMPLETION_INDEX\n", o->shard_index,
                o->shard_count);
        return true;
    }
    if (o->shards > 0) {
        fprintf(stderr, "linx-optest: --shards needs SLURM_ARRAY_TASK_ID or "
                "JOB_COMPLETION_INDEX in the environment (or use --shard K/N)\n");
        return false;
    }
    return true;
}

/* The selected cases of @suites in @sel; false when a -c or -k matched
 * nothing. */
static bool select_cases(const Options *o, OptSuite *suites, unsigned nsuites, GArray *sel)
{
    unsigned nc = o->cases->len, nf = o->filters->len;
    unsigned *hits = g_new0(unsigned, nc + nf + 1);
    bool ok = true;

    for (unsigned s = 0; s < nsuites; s++) {
        for (unsigned i = 0; i < suites[s].ncases; i++) {
            OptRef r = { &suites[s], &suites[s].cases[i] };
            char *full = g_strdup_printf("%s/%s", r.s->name, r.c->name);
            bool want = nc + nf == 0;

            for (unsigned k = 0; k < nc; k++) {
                if (matches(g_ptr_array_index(o->cases, k), &r, full, true)) {
                    hits[k]++;
                    want = true;
                }
            }
            for (unsigned k = 0; k < nf; k++) {
                if (matches(g_ptr_array_index(o->filters, k), &r, full, false)) {
                    hits[nc + k]++;
                    want = true;
                }
            }
            if (want && (o->shard_count <= 0 ||
                         name_hash(full) % (uint64_t)o->shard_count ==
                             (uint64_t)o->shard_index)) {
                g_array_append_val(sel, r);
            }
            g_free(full);
        }
    }
    for (unsigned k = 0; k < nc + nf; k++) {
        if (!hits[k]) {
            fprintf(stderr, "linx-optest: %s '%s' matches no case\n", k < nc ? "--case" : "--filter",
                    (const char *)g_ptr_array_index(k < nc ? o->cases : o->filters,
                                                    k < nc ? k : k - nc));
            ok = false;
        }
    }
    g_free(hits);
    return ok;
}

/* ---------------------------------------------------------------------
 * main
 * --------------------------------------------------------------------- */

static int optest_opt(void *opaque, int id, const char *v, char *err, size_t errlen)
{
    Options *o = opaque;
    long n;

    switch (id) {
    case OPT_ACCEL:
        if (strcmp(v, "jit") != 0 && strcmp(v, "interp") != 0) {
            snprintf(err, errlen, "--accel takes jit or interp, not '%s'", v);
            return -1;
        }
        o->run.accel = v;
        return 0;
    case OPT_DATA: o->data.data = v; return 0;
    case OPT_DATA_ROOT: o->data.data_root = v; return 0;
    case OPT_CASE: g_ptr_array_add(o->cases, (char *)v); return 0;
    case OPT_FILTER: g_ptr_array_add(o->filters, (char *)v); return 0;
    case OPT_JOBS:
        if (!parse_uint(v, 4096, &n) || n == 0) {
            snprintf(err, errlen, "-j takes a number of jobs (1..4096), not '%s'", v);
            return -1;
        }
        o->jobs = (unsigned)n;
        return 0;
    case OPT_TIMEOUT: {
        char *end;
        o->run.timeout = strtod(v, &end);
        if (*end || !(o->run.timeout > 0) || o->run.timeout > 1e6) {
            snprintf(err, errlen, "--timeout takes seconds > 0, not '%s'", v);
            return -1;
        }
        return 0;
    }
    case OPT_LIST: o->list = true; return 0;
    case OPT_REFERENCE: o->run.reference = true; return 0;
    case OPT_VERBOSE: o->run.verbose = true; return 0;
    case OPT_QUIET: o->run.quiet = true; return 0;
    case OPT_SHARD: {
        const char *slash = strchr(v, '/');
        long k, cnt;
        char *ks = slash ? g_strndup(v, (gsize)(slash - v)) : NULL;
        bool good = slash && parse_uint(ks, 1 << 30, &k) && parse_uint(slash + 1, 1 << 30, &cnt) &&
                    cnt > 0 && k < cnt;
        g_free(ks);
        if (!good) {
            snprintf(err, errlen, "--shard takes K/N with 0 <= K < N, not '%s'", v);
            return -1;
        }
        o->shard_index = (int)k;
        o->shard_count = (int)cnt;
        return 0;
    }
    case OPT_SHARDS:
        if (!parse_uint(v, 1 << 30, &n) || n == 0) {
            snprintf(err, errlen, "--shards takes a count > 0, not '%s'", v);
            return -1;
        }
        o->shards = (int)n;
        return 0;
    case OPT_JSON: o->json = v; return 0;
    case OPT_JUNIT: o->junit = v; return 0;
    case OPT_TAP: o->tap = true; return 0;
    case OPT_REGEN: o->regenerate = true; return 0;
    case OPT_GENONLY: o->generate_only = true; return 0;
    case OPT_NOPROGRESS: o->no_progress = true; return 0;
    case OPT_STAMP: o->stamp = v; return 0;
    case OPT_ISOLATE: o->run.isolate = true; return 0;
    case OPT_VERSION:
        printf("linx-optest (linxemu) %s, LinxISA v0.4\n", LINX_VERSION);
        return 1;
    default:
        usage(stdout);
        return 1;
    }
}

static bool parse_options(int argc, char **argv, Options *o, int *rc)
{
    LinxOptGroup g = { NULL, optest_opts, optest_opt, o };
    char err[512];
    int first;
    int r = linx_opts_parse("linx-optest", LINX_OPTS_GNU, &g, 1, argc, argv, &first, err,
                            sizeof(err));

    if (r < 0) {
        fprintf(stderr, "linx-optest: %s\n", err);
        return false;
    }
    if (r > 0) {
        *rc = OPT_EXIT_PASSED;
        return false;
    }
    if (first >= argc) {
        usage(stderr);
        return false;
    }
    if (o->data.data && o->data.data_root) {
        fprintf(stderr, "linx-optest: give --data or --data-root, not both\n");
        return false;
    }
    for (int i = first; i < argc; i++) {
        g_ptr_array_add(o->paths, argv[i]);
    }
    return true;
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run the selected cases and report; returns the exit status. */
static int run_selected(Options *o, const OptRef *refs, size_t n)
{
    OptResult *res = g_new0(OptResult, n ? n : 1);
    bool *gen_failed = g_new0(bool, n ? n : 1);
    OptProgramCache *pc = opt_program_cache_new();
    OptSchedOptions so;
    OptReporter rep;
    OptRunInfo info;
    GDateTime *dt = g_date_time_new_now_utc();
    char *started = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ");
    double t0 = now();
    int sig, rc = OPT_EXIT_PASSED;
    char err[1024];

    g_date_time_unref(dt);
    opt_generate(refs, n, o->regenerate, o->run.verbose, gen_failed);
    memset(&rep, 0, sizeof(rep));
    rep.out = stdout;
    rep.quiet = o->run.quiet;
    rep.verbose = o->run.verbose;
    rep.tap = o->tap;
    rep.progress = !o->no_progress && isatty(STDERR_FILENO) && getenv("TERM") &&
                   strcmp(getenv("TERM"), "dumb") != 0;
    so.jobs = o->jobs;
    so.progress = rep.progress;
    opt_report_begin(&rep, n);
    sig = opt_run_all(refs, n, gen_failed, pc, &o->run, &so, &rep, res);
    opt_report_progress(&rep, "");
    if (rep.progress_shown) {
        fprintf(stderr, "\r\033[K");
    }
    memset(&info, 0, sizeof(info));
    info.accel = o->run.accel;
    info.jobs = o->jobs;
    info.shard_index = o->shard_count > 0 ? o->shard_index : -1;
    info.shard_count = o->shard_count;
    info.interrupted = sig != 0;
    info.wall_time = now() - t0;
    info.started = started;
    opt_results_sort(res, n);
    opt_report_summary(o->tap ? stderr : stdout, res, n, &info, o->run.quiet);
    for (int w = 0; w < 2; w++) {
        const char *path = w ? o->junit : o->json;
        char *text;
        if (!path) {
            continue;
        }
        text = w ? opt_report_junit(res, n, &info) : opt_report_json(res, n, &info);
        if (!opt_report_write(path, text, err, sizeof(err))) {
            fprintf(stderr, "linx-optest: %s\n", err);
            rc = OPT_EXIT_USAGE;
        }
        g_free(text);
    }
    if (rc == OPT_EXIT_PASSED && rep.failed) {
        rc = OPT_EXIT_FAILED;
    }
    if (sig) {
        size_t finished = 0;
        for (size_t i = 0; i < n; i++) {
            finished += res[i].kind != OPT_FK_INTERRUPTED;
        }
        fprintf(stderr, "linx-optest: interrupted by %s; %zu of %zu cases finished%s\n",
                strsignal(sig), finished, n, o->json || o->junit ? ", reports written" : "");
        rc = 128 + sig;
    }
    for (size_t i = 0; i < n; i++) {
        opt_result_free(&res[i]);
    }
    g_free(res);
    g_free(gen_failed);
    g_free(started);
    opt_program_cache_free(pc);
    return rc;
}

int main(int argc, char **argv)
{
    Options o;
    GPtrArray *manifests = g_ptr_array_new_with_free_func(g_free);
    OptSuite *suites = NULL;
    unsigned nsuites = 0;
    GArray *sel = g_array_new(FALSE, FALSE, sizeof(OptRef));
    int rc = OPT_EXIT_USAGE;

    if (argc > 1 && strcmp(argv[1], "merge") == 0) {
        g_ptr_array_free(manifests, TRUE);
        g_array_free(sel, TRUE);
        return opt_merge_main(argc - 1, argv + 1);
    }
    memset(&o, 0, sizeof(o));
    o.run.accel = "jit";
    o.jobs = cpu_count();
    o.shard_index = -1;
    o.cases = g_ptr_array_new();
    o.filters = g_ptr_array_new();
    o.paths = g_ptr_array_new();
    if (!parse_options(argc, argv, &o, &rc) || !resolve_shard(&o) ||
        !discover(o.paths, manifests)) {
        goto out;
    }
    suites = g_new0(OptSuite, manifests->len ? manifests->len : 1);
    for (guint i = 0; i < manifests->len; i++) {
        char err[2048];

        if (!opt_suite_load(g_ptr_array_index(manifests, i), &o.data, &suites[nsuites], err,
                            sizeof(err))) {
            fprintf(stderr, "linx-optest: %s\n", err);
            goto out;
        }
        for (unsigned k = 0; k < nsuites; k++) {
            if (strcmp(suites[k].name, suites[nsuites].name) == 0) {
                fprintf(stderr, "linx-optest: %s and %s both name suite '%s'\n", suites[k].path,
                        suites[nsuites].path, suites[k].name);
                nsuites++;
                goto out;
            }
        }
        nsuites++;
    }
    if (!select_cases(&o, suites, nsuites, sel)) {
        goto out;
    }
    if (o.list) {
        for (guint i = 0; i < sel->len; i++) {
            OptRef *r = &g_array_index(sel, OptRef, i);
            printf("%s/%s%s%s\n", r->s->name, r->c->name, r->c->params ? "\t" : "",
                   r->c->params ? r->c->params : "");
        }
        rc = OPT_EXIT_PASSED;
    } else if (o.generate_only) {
        bool *failed = g_new0(bool, sel->len ? sel->len : 1);
        unsigned nf = opt_generate((OptRef *)(void *)sel->data, sel->len, o.regenerate,
                                   o.run.verbose, failed);
        if (!o.run.quiet || nf) {
            printf("linx-optest: generators of %u cases ran, %u failed\n", sel->len, nf);
        }
        g_free(failed);
        rc = nf ? OPT_EXIT_FAILED : OPT_EXIT_PASSED;
        if (!nf && o.stamp) {
            char err[512];
            if (!opt_report_write(o.stamp, "ok\n", err, sizeof(err))) {
                fprintf(stderr, "linx-optest: %s\n", err);
                rc = OPT_EXIT_USAGE;
            }
        }
    } else {
        if (sel->len == 0) {
            fprintf(stderr, "linx-optest: shard %d/%d holds none of the selected cases\n",
                    o.shard_index, o.shard_count);
        }
        rc = run_selected(&o, (OptRef *)(void *)sel->data, sel->len);
    }
out:
    for (unsigned i = 0; i < nsuites; i++) {
        opt_suite_free(&suites[i]);
    }
    g_free(suites);
    g_array_free(sel, TRUE);
    g_ptr_array_free(manifests, TRUE);
    g_ptr_array_free(o.cases, TRUE);
    g_ptr_array_free(o.filters, TRUE);
    g_ptr_array_free(o.paths, TRUE);
    return rc;
}
