/*
 * linx-optest merge: combine the JSON reports of shards (a Slurm array
 * job, a Kubernetes Indexed Job, several machines) into one report
 * (docs/optest.md "Sharding").
 *
 *   linx-optest merge [--json FILE] [--junit FILE] [--tap] [-q] REPORT.json...
 *
 * Checks that make a lost shard visible: every report has the schema and
 * version this program writes and the same engine; a case appears once;
 * when the reports are shards, all of 0..N-1 are there exactly once; the
 * merged report holds at least one case.  Prints the failures and the
 * summary; exit status 0 when every case passed, 1 when one failed or a
 * shard was interrupted, 2 for bad or incomplete reports.
 */
#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "optest.h"
#include "util/options.h"

static bool errf(char *err, size_t errlen, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static bool errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static char *dup_or_null(const JsonValue *v)
{
    const char *s = json_string(v);

    return s ? g_strdup(s) : NULL;
}

static double num_or_special(const JsonValue *v)
{
    const char *s = json_string(v);

    if (s) {
        return strcmp(s, "nan") == 0 ? NAN : strcmp(s, "-inf") == 0 ? -INFINITY : INFINITY;
    }
    return json_number(v, 0);
}

static bool read_mismatch(const JsonValue *m, OptResult *r, char *err, size_t errlen)
{
    const JsonValue *idx = json_get(m, "index");
    const char *dt = json_string(json_get(m, "dtype"));
    const char *gb = json_string(json_get(m, "got_bits"));
    const char *wb = json_string(json_get(m, "want_bits"));
    const JsonValue *ulp = json_get(m, "ulp");

    if (!dt || opt_dtype_parse(dt) == OPT_DT_NONE || !idx || idx->type != JSON_ARRAY ||
        idx->n > OPT_MAX_SHAPE || !gb || !wb) {
        return errf(err, errlen, "case %s/%s: malformed mismatch", r->suite, r->name);
    }
    r->have_mismatch = true;
    r->mm_output = dup_or_null(json_get(m, "output"));
    r->mm_dtype = opt_dtype_parse(dt);
    r->mm.count = (size_t)json_number(json_get(m, "elements"), 0);
    r->mm.mismatches = (size_t)json_number(json_get(m, "mismatches"), 0);
    r->mm.first_bad = (size_t)json_number(json_get(m, "flat_index"), 0);
    r->mm.ndim = (unsigned)idx->n;
    for (size_t i = 0; i < idx->n; i++) {
        r->mm.coord[i] = (uint64_t)json_number(idx->items[i], 0);
    }
    r->mm.got = num_or_special(json_get(m, "got"));
    r->mm.want = num_or_special(json_get(m, "want"));
    r->mm.got_bits = g_ascii_strtoull(gb, NULL, 0);
    r->mm.want_bits = g_ascii_strtoull(wb, NULL, 0);
    r->mm.ulp_valid = ulp && ulp->type == JSON_NUMBER;
    r->mm.ulp = r->mm.ulp_valid ? g_ascii_strtoull(ulp->str, NULL, 10) : 0;
    r->mm.max_abs = num_or_special(json_get(m, "max_abs_err"));
    r->mm.max_rel = num_or_special(json_get(m, "max_rel_err"));
    return true;
}

static bool read_case(const JsonValue *c, OptResult *r, char *err, size_t errlen)
{
    const char *name = json_string(json_get(c, "name"));
    const char *status = json_string(json_get(c, "status"));
    const char *kind = json_string(json_get(c, "kind"));
    const JsonValue *params = json_get(c, "params");
    const JsonValue *ph = json_get(c, "phases");
    const JsonValue *mm = json_get(c, "mismatch");
    char *full;
    bool ok;

    memset(r, 0, sizeof(*r));
    r->suite = dup_or_null(json_get(c, "suite"));
    r->name = dup_or_null(json_get(c, "case"));
    if (!name || !r->suite || !r->name || !status) {
        return errf(err, errlen, "a case without name, suite, case or status");
    }
    full = g_strdup_printf("%s/%s", r->suite, r->name);
    ok = strcmp(full, name) == 0;
    g_free(full);
    if (!ok) {
        return errf(err, errlen, "case '%s': name is not suite/case", name);
    }
    if (strcmp(status, "pass") == 0) {
        r->status = OPT_PASS;
    } else if (strcmp(status, "fail") == 0) {
        r->status = OPT_FAIL;
    } else if (strcmp(status, "skip") == 0) {
        r->status = OPT_SKIP;
    } else {
        return errf(err, errlen, "case %s: unknown status '%s'", name, status);
    }
    r->kind = OPT_FK_NONE;
    if (kind) {
        bool found = false;
        for (int k = OPT_FK_MISMATCH; k <= OPT_FK__LAST && !found; k++) {
            if (strcmp(kind, opt_fail_kind_name((OptFailKind)k)) == 0) {
                r->kind = (OptFailKind)k;
                found = true;
            }
        }
        if (!found) {
            return errf(err, errlen, "case %s: unknown kind '%s'", name, kind);
        }
    }
    if (r->status == OPT_FAIL && r->kind == OPT_FK_NONE) {
        return errf(err, errlen, "case %s: failed without a kind", name);
    }
    r->manifest = dup_or_null(json_get(c, "manifest"));
    if (params && params->type == JSON_OBJECT) {
        GString *g = g_string_new(NULL);
        for (size_t i = 0; i < params->n; i++) {
            g_string_append_printf(g, "%s%s=%s", i ? " " : "", params->keys[i],
                                   json_string(params->items[i]) ? params->items[i]->str : "");
        }
        r->params = g_string_free(g, FALSE);
    }
    r->time = json_number(json_get(c, "time"), 0);
    r->phase[0] = json_number(json_get(ph, "start"), 0);
    r->phase[1] = json_number(json_get(ph, "load"), 0);
    r->phase[2] = json_number(json_get(ph, "run"), 0);
    r->phase[3] = json_number(json_get(ph, "check"), 0);
    r->tbs_translated = (uint64_t)json_number(json_get(c, "tbs_translated"), 0);
    r->message = dup_or_null(json_get(c, "message"));
    r->output = dup_or_null(json_get(c, "output"));
    if (mm && mm->type == JSON_OBJECT) {
        return read_mismatch(mm, r, err, errlen);
    }
    return true;
}

bool opt_report_read(const char *path, OptResult **res, size_t *n, OptRunInfo *info,
                     char *err, size_t errlen)
{
    gchar *text = NULL;
    gsize len = 0;
    GError *ge = NULL;
    JsonValue *root;
    const JsonValue *cases, *shard;
    const char *format;
    char sub[512];
    bool ok = true;

    *res = NULL;
    *n = 0;
    memset(info, 0, sizeof(*info));
    info->shard_index = -1;
    if (!g_file_get_contents(path, &text, &len, &ge)) {
        errf(err, errlen, "%s: %s", path, ge->message);
        g_error_free(ge);
        return false;
    }
    root = json_parse(text, len, sub, sizeof(sub));
    g_free(text);
    if (!root) {
        return errf(err, errlen, "%s: not JSON: %s", path, sub);
    }
    format = json_string(json_get(root, "format"));
    cases = json_get(root, "cases");
    if (!format || strcmp(format, "linx-optest-report") != 0) {
        ok = errf(err, errlen, "%s: not a linx-optest report (no \"format\": "
                  "\"linx-optest-report\")", path);
    } else if (json_number(json_get(root, "version"), 0) != 1) {
        ok = errf(err, errlen, "%s: report version %g, this linx-optest reads version 1", path,
                  json_number(json_get(root, "version"), 0));
    } else if (!cases || cases->type != JSON_ARRAY) {
        ok = errf(err, errlen, "%s: no \"cases\" array", path);
    }
    if (ok) {
        /* strings of @info live as long as the results: kept in a result-less
         * place, the caller's copies (see opt_merge_main) */
        info->accel = g_strdup(json_string(json_get(root, "accel")));
        info->started = g_strdup(json_string(json_get(root, "started")));
        info->jobs = (unsigned)json_number(json_get(root, "jobs"), 0);
        info->wall_time = json_number(json_get(root, "wall_time"), 0);
        info->interrupted = json_get(root, "interrupted") &&
                            json_get(root, "interrupted")->type == JSON_TRUE;
        shard = json_get(root, "shard");
        if (shard && shard->type == JSON_OBJECT) {
            info->shard_index = (int)json_number(json_get(shard, "index"), -1);
            info->shard_count = (int)json_number(json_get(shard, "count"), 0);
            if (info->shard_count < 1 || info->shard_index < 0 ||
                info->shard_index >= info->shard_count) {
                ok = errf(err, errlen, "%s: bad shard %d/%d", path, info->shard_index,
                          info->shard_count);
            }
        }
        *res = g_new0(OptResult, cases->n ? cases->n : 1);
        for (size_t i = 0; i < cases->n && ok; i++) {
            ok = read_case(cases->items[i], &(*res)[i], sub, sizeof(sub));
            *n = i + 1;
            if (!ok) {
                errf(err, errlen, "%s: %s", path, sub);
            }
        }
    }
    json_free(root);
    if (!ok) {
        for (size_t i = 0; i < *n; i++) {
            opt_result_free(&(*res)[i]);
        }
        g_free(*res);
        *res = NULL;
        *n = 0;
        g_free((char *)info->accel);
        g_free((char *)info->started);
        info->accel = info->started = NULL;
    }
    return ok;
}

enum { MERGE_JSON = 1, MERGE_JUNIT, MERGE_TAP, MERGE_QUIET, MERGE_HELP };

static const LinxOpt merge_opts[] = {
    { "json", 0, "FILE", "write the merged JSON report", MERGE_JSON },
    { "junit", 0, "FILE", "write the merged JUnit XML report", MERGE_JUNIT },
    { "tap", 0, NULL, "TAP 13 on standard output", MERGE_TAP },
    { "quiet", 'q', NULL, "print failures and the summary only", MERGE_QUIET },
    { "help", 'h', NULL, "this text", MERGE_HELP },
    { NULL },
};

typedef struct MergeOptions {
    const char *json_out, *junit_out;
    bool tap, quiet;
} MergeOptions;

static void usage(FILE *f)
{
    LinxOptGroup g = { NULL, merge_opts, NULL, NULL };

    fprintf(f, "usage: linx-optest merge [options] REPORT.json...\n"
               "Combine linx-optest JSON reports (shards) into one; checks that no case\n"
               "appears twice and that every shard 0..N-1 is there.\n\nOptions:\n");
    linx_opts_print_help(f, LINX_OPTS_GNU, &g, 1);
    fprintf(f, "\nExit status: 0 all passed, 1 a case failed, 2 bad or incomplete reports.\n");
}

static int merge_opt(void *opaque, int id, const char *v, char *err, size_t errlen)
{
    MergeOptions *m = opaque;

    switch (id) {
    case MERGE_JSON: m->json_out = v; return 0;
    case MERGE_JUNIT: m->junit_out = v; return 0;
    case MERGE_TAP: m->tap = true; return 0;
    case MERGE_QUIET: m->quiet = true; return 0;
    default: usage(stdout); return 1;
    }
}

int opt_merge_main(int argc, char **argv)
{
    MergeOptions mo = { NULL, NULL, false, false };
    LinxOptGroup g = { NULL, merge_opts, merge_opt, &mo };
    GArray *all = g_array_new(FALSE, TRUE, sizeof(OptResult));
    OptRunInfo merged;
    char *accel = NULL, *started = NULL;
    int shard_count = 0, nshards = 0, rc = OPT_EXIT_PASSED, first, r;
    bool *seen = NULL;
    char err[1024];

    memset(&merged, 0, sizeof(merged));
    merged.shard_index = -1;
    r = linx_opts_parse("linx-optest merge", LINX_OPTS_GNU, &g, 1, argc, argv, &first, err,
                        sizeof(err));
    if (r != 0) {
        if (r < 0) {
            fprintf(stderr, "linx-optest merge: %s\n", err);
        }
        g_array_free(all, TRUE);
        return r > 0 ? OPT_EXIT_PASSED : OPT_EXIT_USAGE;
    }
    if (first >= argc) {
        usage(stderr);
        g_array_free(all, TRUE);
        return OPT_EXIT_USAGE;
    }
    for (int i = first; i < argc && rc != OPT_EXIT_USAGE; i++) {
        OptResult *res;
        OptRunInfo info;
        size_t n;

        if (!opt_report_read(argv[i], &res, &n, &info, err, sizeof(err))) {
            fprintf(stderr, "linx-optest merge: %s\n", err);
            rc = OPT_EXIT_USAGE;
            break;
        }
        if (!accel) {
            accel = g_strdup(info.accel ? info.accel : "");
        } else if (strcmp(accel, info.accel ? info.accel : "") != 0) {
            fprintf(stderr, "linx-optest merge: %s: engine %s, the others %s\n", argv[i],
                    info.accel, accel);
            rc = OPT_EXIT_USAGE;
        }
        if (info.started && (!started || strcmp(info.started, started) < 0)) {
            g_free(started);
            started = g_strdup(info.started);
        }
        if (info.shard_count > 0) {
            if (shard_count == 0 && nshards == 0 && i == optind) {
                shard_count = info.shard_count;
                seen = g_new0(bool, (gsize)shard_count);
            }
            if (!seen) {
                fprintf(stderr, "linx-optest merge: %s is shard %d/%d, %s is not a shard\n",
                        argv[i], info.shard_index, info.shard_count, argv[optind]);
                rc = OPT_EXIT_USAGE;
            } else if (info.shard_count != shard_count) {
                fprintf(stderr, "linx-optest merge: %s: shard %d/%d, the other reports are "
                        "shards of %d\n", argv[i], info.shard_index, info.shard_count,
                        shard_count);
                rc = OPT_EXIT_USAGE;
            } else if (seen[info.shard_index]) {
                fprintf(stderr, "linx-optest merge: %s: shard %d/%d given twice\n", argv[i],
                        info.shard_index, shard_count);
                rc = OPT_EXIT_USAGE;
            } else {
                seen[info.shard_index] = true;
                nshards++;
            }
        } else if (shard_count > 0) {
            fprintf(stderr, "linx-optest merge: %s: not a shard, the others are\n", argv[i]);
            rc = OPT_EXIT_USAGE;
        }
        merged.interrupted |= info.interrupted;
        merged.jobs = info.jobs > merged.jobs ? info.jobs : merged.jobs;
        merged.wall_time = info.wall_time > merged.wall_time ? info.wall_time : merged.wall_time;
        g_array_append_vals(all, res, (guint)n);
        g_free(res);
        g_free((char *)info.accel);
        g_free((char *)info.started);
    }
    for (int k = 0; rc != OPT_EXIT_USAGE && k < shard_count; k++) {
        if (!seen[k]) {
            fprintf(stderr, "linx-optest merge: shard %d/%d is missing (%d of %d reports "
                    "given)\n", k, shard_count, nshards, shard_count);
            rc = OPT_EXIT_USAGE;
        }
    }
    if (rc != OPT_EXIT_USAGE) {
        OptResult *res = (OptResult *)(void *)all->data;
        size_t n = all->len;

        opt_results_sort(res, n);
        for (size_t i = 1; i < n && rc != OPT_EXIT_USAGE; i++) {
            if (strcmp(res[i].suite, res[i - 1].suite) == 0 &&
                strcmp(res[i].name, res[i - 1].name) == 0) {
                fprintf(stderr, "linx-optest merge: case %s/%s is in two reports\n",
                        res[i].suite, res[i].name);
                rc = OPT_EXIT_USAGE;
            }
        }
        if (rc != OPT_EXIT_USAGE && n == 0) {
            fprintf(stderr, "linx-optest merge: the reports hold no cases\n");
            rc = OPT_EXIT_USAGE;
        }
        if (rc != OPT_EXIT_USAGE) {
            OptReporter rep;

            merged.accel = accel;
            merged.started = started;
            merged.shard_count = 0;
            memset(&rep, 0, sizeof(rep));
            rep.out = stdout;
            rep.quiet = true;
            rep.tap = mo.tap;
            opt_report_begin(&rep, n);
            for (size_t i = 0; i < n; i++) {
                if (mo.tap || (!mo.quiet && res[i].status == OPT_FAIL)) {
                    opt_report_case(&rep, &res[i]);
                }
            }
            opt_report_summary(stdout, res, n, &merged, mo.quiet || mo.tap);
            for (int w = 0; w < 2 && rc != OPT_EXIT_USAGE; w++) {
                const char *path = w ? mo.junit_out : mo.json_out;
                char *text;
                if (!path) {
                    continue;
                }
                text = w ? opt_report_junit(res, n, &merged) : opt_report_json(res, n, &merged);
                if (!opt_report_write(path, text, err, sizeof(err))) {
                    fprintf(stderr, "linx-optest merge: %s\n", err);
                    rc = OPT_EXIT_USAGE;
                }
                g_free(text);
            }
            if (rc != OPT_EXIT_USAGE && (rep.failed || merged.interrupted)) {
                rc = OPT_EXIT_FAILED;
            }
            for (size_t i = 0; i < n && rc != OPT_EXIT_USAGE; i++) {
                if (res[i].status == OPT_FAIL) {
                    rc = OPT_EXIT_FAILED;
                }
            }
        }
    }
    for (guint i = 0; i < all->len; i++) {
        opt_result_free(&g_array_index(all, OptResult, i));
    }
    g_array_free(all, TRUE);
    g_free(seen);
    g_free(accel);
    g_free(started);
    return rc;
}
