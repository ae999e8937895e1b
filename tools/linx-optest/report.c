/*
 * linx-optest reports (docs/optest.md "Reports"): a line per case on the
 * terminal (or TAP 13 with --tap), a progress line on a terminal, the
 * closing summary, and the report files: JSON (the stable schema of
 * docs/optest-report.schema.json, version 1) and JUnit XML.  Every
 * report lists the cases sorted by suite/case name, so the same cases
 * give the same report whatever -j, --shard or merge did.
 */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optest.h"
#include "util/file-write.h"

enum {
    SLOWEST_SHOWN = 5,
    FAILED_SHOWN = 20, /* failed cases named in the summary */
};

/* ---------------------------------------------------------------------
 * Terminal
 * --------------------------------------------------------------------- */

static void progress_clear(OptReporter *rep)
{
    if (rep->progress_shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        rep->progress_shown = false;
    }
}

void opt_report_begin(OptReporter *rep, size_t total)
{
    rep->total = total;
    rep->done = 0;
    rep->passed = rep->failed = rep->skipped = 0;
    if (rep->tap) {
        fprintf(rep->out, "TAP version 13\n1..%zu\n", total);
        fflush(rep->out);
    }
}

void opt_report_progress(OptReporter *rep, const char *running)
{
    if (!rep->progress) {
        return;
    }
    fprintf(stderr, "\r\033[K[%u/%zu] %u passed, %u failed, %u skipped | %.60s", rep->done,
            rep->total, rep->passed, rep->failed, rep->skipped, running);
    fflush(stderr);
    rep->progress_shown = true;
}

/* @text with every line prefixed by @indent. */
static void print_indented(FILE *f, const char *indent, const char *text)
{
    const char *p = text;

    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(f, "%s%.*s\n", indent, (int)len, p);
        p += len + (nl ? 1 : 0);
    }
}

static void tap_yaml_str(FILE *f, const char *key, const char *text)
{
    fprintf(f, "  %s: |\n", key);
    print_indented(f, "    ", text);
}

void opt_report_case(OptReporter *rep, const OptResult *r)
{
    FILE *f = rep->out;

    rep->done++;
    if (r->status == OPT_PASS) {
        rep->passed++;
    } else if (r->status == OPT_FAIL) {
        rep->failed++;
    } else {
        rep->skipped++;
    }
    progress_clear(rep);
    if (rep->tap) {
        if (r->status == OPT_SKIP) {
            fprintf(f, "ok %u - %s/%s # SKIP %s\n", rep->done, r->suite, r->name,
                    r->message ? r->message : "");
        } else {
            fprintf(f, "%s %u - %s/%s\n", r->status == OPT_PASS ? "ok" : "not ok", rep->done,
                    r->suite, r->name);
        }
        if (r->status == OPT_FAIL || rep->verbose) {
            fprintf(f, "  ---\n  time: %.6f\n", r->time);
            if (r->status == OPT_FAIL) {
                fprintf(f, "  kind: %s\n", opt_fail_kind_name(r->kind));
                tap_yaml_str(f, "message", r->message ? r->message : "");
            }
            if (r->output) {
                tap_yaml_str(f, "output", r->output);
            }
            fprintf(f, "  ...\n");
        }
        fflush(f);
        return;
    }
    if (r->status == OPT_PASS) {
        if (!rep->quiet) {
            fprintf(f, "PASS %s/%s (%.3f s)\n", r->suite, r->name, r->time);
        }
    } else if (r->status == OPT_SKIP) {
        if (!rep->quiet) {
            fprintf(f, "SKIP %s/%s: %s\n", r->suite, r->name, r->message ? r->message : "");
        }
    } else {
        fprintf(f, "FAIL %s/%s: %s\n", r->suite, r->name, r->message ? r->message : "failed");
    }
    if (rep->verbose && r->verbose) {
        print_indented(f, "  ", r->verbose);
    }
    if (r->output && (r->status == OPT_FAIL || rep->verbose)) {
        size_t n = strlen(r->output);
        fprintf(f, "  --- guest output and reports ---\n%s%s", r->output,
                n && r->output[n - 1] == '\n' ? "" : "\n");
    }
    fflush(f);
}

static int cmp_result(const void *a, const void *b)
{
    const OptResult *x = a, *y = b;
    int c = strcmp(x->suite, y->suite);

    return c ? c : strcmp(x->name, y->name);
}

void opt_results_sort(OptResult *res, size_t n)
{
    if (n > 1) {
        qsort(res, n, sizeof(*res), cmp_result);
    }
}

static int cmp_time_desc(const void *a, const void *b)
{
    const OptResult *x = *(const OptResult *const *)a, *y = *(const OptResult *const *)b;

    return x->time < y->time ? 1 : x->time > y->time ? -1 : cmp_result(x, y);
}

void opt_report_summary(FILE *f, const OptResult *res, size_t n, const OptRunInfo *info,
                        bool quiet)
{
    unsigned p = 0, fl = 0, sk = 0;
    const OptResult **by_time = g_new(const OptResult *, n ? n : 1);
    size_t nt = 0;

    /* per suite (the results are sorted by suite) */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        unsigned sp = 0, sf = 0, ss = 0;
        double t = 0;
        for (; j < n && strcmp(res[j].suite, res[i].suite) == 0; j++) {
            sp += res[j].status == OPT_PASS;
            sf += res[j].status == OPT_FAIL;
            ss += res[j].status == OPT_SKIP;
            t += res[j].time;
        }
        if (!quiet) {
            fprintf(f, "%s: %u passed, %u failed, %u skipped (%zu cases, %.2f s)\n",
                    res[i].suite, sp, sf, ss, j - i, t);
        }
        p += sp;
        fl += sf;
        sk += ss;
        i = j;
    }
    if (fl) {
        unsigned shown = 0;
        fprintf(f, "failed:");
        for (size_t i = 0; i < n; i++) {
            if (res[i].status == OPT_FAIL && shown++ < FAILED_SHOWN) {
                fprintf(f, " %s/%s (%s)", res[i].suite, res[i].name,
                        opt_fail_kind_name(res[i].kind));
            }
        }
        if (shown > FAILED_SHOWN) {
            fprintf(f, " ... and %u more", shown - FAILED_SHOWN);
        }
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        if (res[i].status != OPT_SKIP) {
            by_time[nt++] = &res[i];
        }
    }
    if (nt > 1) {
        qsort(by_time, nt, sizeof(*by_time), cmp_time_desc);
    }
    if (nt && !quiet) {
        fprintf(f, "slowest:");
        for (size_t i = 0; i < nt && i < SLOWEST_SHOWN; i++) {
            fprintf(f, "%s %.3f s %s/%s", i ? "," : "", by_time[i]->time, by_time[i]->suite,
                    by_time[i]->name);
        }
        fprintf(f, "\n");
    }
    g_free(by_time);
    fprintf(f, "linx-optest: %u passed, %u failed, %u skipped; %zu cases in %.2f s (%s, -j %u",
            p, fl, sk, n, info->wall_time, info->accel ? info->accel : "?", info->jobs);
    if (info->shard_count > 0) {
        fprintf(f, ", shard %d/%d", info->shard_index, info->shard_count);
    }
    fprintf(f, ")%s\n", info->interrupted ? " INTERRUPTED: partial results" : "");
    fflush(f);
}

/* ---------------------------------------------------------------------
 * JSON
 * --------------------------------------------------------------------- */

/* A JSON string literal of @s (any bytes: invalid UTF-8 becomes U+FFFD). */
static void json_str(GString *g, const char *s)
{
    if (!s) {
        g_string_append(g, "null");
        return;
    }
    g_string_append_c(g, '"');
    for (const char *p = s; *p;) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            g_string_append_c(g, '\\');
            g_string_append_c(g, (char)c);
            p++;
        } else if (c == '\n') {
            g_string_append(g, "\\n");
            p++;
        } else if (c == '\t') {
            g_string_append(g, "\\t");
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            g_string_append_printf(g, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            g_string_append_c(g, (char)c);
            p++;
        } else {
            gunichar u = g_utf8_get_char_validated(p, -1);
            if (u == (gunichar)-1 || u == (gunichar)-2) {
                g_string_append(g, "\\ufffd");
                p++;
            } else {
                const char *q = g_utf8_next_char(p);
                g_string_append_len(g, p, q - p);
                p = q;
            }
        }
    }
    g_string_append_c(g, '"');
}

static void json_num(GString *g, double v)
{
    if (isnan(v)) {
        g_string_append(g, "\"nan\"");
    } else if (isinf(v)) {
        g_string_append(g, v > 0 ? "\"inf\"" : "\"-inf\"");
    } else if (v == floor(v) && fabs(v) < 9e15) {
        g_string_append_printf(g, "%.0f", v);
    } else {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append(g, g_ascii_formatd(buf, sizeof(buf), "%.17g", v));
    }
}

static void json_time(GString *g, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append(g, g_ascii_formatd(buf, sizeof(buf), "%.6f", v < 0 ? 0 : v));
}

/* An element value exactly: integers from their bits, floats as doubles. */
static void json_elem(GString *g, OptDType t, double v, uint64_t bits)
{
    unsigned size = opt_dtype_size(t);

    if (opt_dtype_is_float(t)) {
        json_num(g, v);
    } else if (opt_dtype_is_signed(t)) {
        unsigned sh = 64 - 8 * size;
        g_string_append_printf(g, "%" PRId64, (int64_t)(bits << sh) >> sh);
    } else {
        g_string_append_printf(g, "%" PRIu64, bits);
    }
}

static void json_case(GString *g, const OptResult *r)
{
    g_string_append(g, "    {\"name\": ");
    {
        char *full = g_strdup_printf("%s/%s", r->suite, r->name);
        json_str(g, full);
        g_free(full);
    }
    g_string_append(g, ", \"suite\": ");
    json_str(g, r->suite);
    g_string_append(g, ", \"case\": ");
    json_str(g, r->name);
    g_string_append(g, ",\n     \"manifest\": ");
    json_str(g, r->manifest);
    g_string_append(g, ", \"params\": ");
    if (r->params && *r->params) {
        gchar **kv = g_strsplit(r->params, " ", -1);
        bool first = true;
        g_string_append_c(g, '{');
        for (gchar **p = kv; *p; p++) {
            char *eq = strchr(*p, '=');
            if (!eq) {
                continue;
            }
            *eq = 0;
            g_string_append(g, first ? "" : ", ");
            json_str(g, *p);
            g_string_append(g, ": ");
            json_str(g, eq + 1);
            first = false;
        }
        g_string_append_c(g, '}');
        g_strfreev(kv);
    } else {
        g_string_append(g, "null");
    }
    g_string_append(g, ",\n     \"status\": ");
    json_str(g, opt_status_name(r->status));
    g_string_append(g, ", \"kind\": ");
    json_str(g, r->status == OPT_FAIL ? opt_fail_kind_name(r->kind) : NULL);
    g_string_append(g, ", \"time\": ");
    json_time(g, r->time);
    g_string_append(g, ",\n     \"phases\": {\"start\": ");
    json_time(g, r->phase[0]);
    g_string_append(g, ", \"load\": ");
    json_time(g, r->phase[1]);
    g_string_append(g, ", \"run\": ");
    json_time(g, r->phase[2]);
    g_string_append(g, ", \"check\": ");
    json_time(g, r->phase[3]);
    g_string_append_printf(g, "}, \"tbs_translated\": %" PRIu64 ",\n     \"message\": ",
                           r->tbs_translated);
    json_str(g, r->message);
    g_string_append(g, ",\n     \"mismatch\": ");
    if (r->have_mismatch) {
        const OptCompare *m = &r->mm;
        unsigned w = 2 * opt_dtype_size(r->mm_dtype);

        g_string_append(g, "{\"output\": ");
        json_str(g, r->mm_output);
        g_string_append(g, ", \"dtype\": ");
        json_str(g, opt_dtype_name(r->mm_dtype));
        g_string_append_printf(g, ", \"elements\": %zu, \"mismatches\": %zu, \"index\": [",
                               m->count, m->mismatches);
        for (unsigned d = 0; d < m->ndim; d++) {
            g_string_append_printf(g, "%s%" PRIu64, d ? ", " : "", m->coord[d]);
        }
        g_string_append_printf(g, "], \"flat_index\": %zu,\n       \"got\": ", m->first_bad);
        json_elem(g, r->mm_dtype, m->got, m->got_bits);
        g_string_append(g, ", \"want\": ");
        json_elem(g, r->mm_dtype, m->want, m->want_bits);
        g_string_append_printf(g, ", \"got_bits\": \"0x%0*" PRIx64 "\", \"want_bits\": \"0x%0*"
                               PRIx64 "\", \"ulp\": ", (int)w, m->got_bits, (int)w,
                               m->want_bits);
        if (m->ulp_valid) {
            g_string_append_printf(g, "%" PRIu64, m->ulp);
        } else {
            g_string_append(g, "null");
        }
        g_string_append(g, ", \"max_abs_err\": ");
        json_num(g, m->max_abs);
        g_string_append(g, ", \"max_rel_err\": ");
        json_num(g, m->max_rel);
        g_string_append(g, "}");
    } else {
        g_string_append(g, "null");
    }
    g_string_append(g, ",\n     \"output\": ");
    json_str(g, r->output);
    g_string_append(g, "}");
}

char *opt_report_json(const OptResult *res, size_t n, const OptRunInfo *info)
{
    GString *g = g_string_new(NULL);
    unsigned p = 0, f = 0, s = 0;

    for (size_t i = 0; i < n; i++) {
        p += res[i].status == OPT_PASS;
        f += res[i].status == OPT_FAIL;
        s += res[i].status == OPT_SKIP;
    }
    g_string_append(g, "{\n  \"format\": \"linx-optest-report\",\n  \"version\": 1,\n"
                       "  \"tool\": \"linx-optest\",\n  \"started\": ");
    json_str(g, info->started);
    g_string_append(g, ",\n  \"accel\": ");
    json_str(g, info->accel);
    g_string_append_printf(g, ",\n  \"jobs\": %u,\n  \"shard\": ", info->jobs);
    if (info->shard_count > 0) {
        g_string_append_printf(g, "{\"index\": %d, \"count\": %d}", info->shard_index,
                               info->shard_count);
    } else {
        g_string_append(g, "null");
    }
    g_string_append_printf(g, ",\n  \"interrupted\": %s,\n  \"wall_time\": ",
                           info->interrupted ? "true" : "false");
    json_time(g, info->wall_time);
    g_string_append_printf(g, ",\n  \"summary\": {\"total\": %zu, \"passed\": %u, \"failed\": "
                           "%u, \"skipped\": %u},\n  \"cases\": [\n", n, p, f, s);
    for (size_t i = 0; i < n; i++) {
        json_case(g, &res[i]);
        g_string_append(g, i + 1 < n ? ",\n" : "\n");
    }
    g_string_append(g, "  ]\n}\n");
    return g_string_free(g, FALSE);
}

/* ---------------------------------------------------------------------
 * JUnit XML
 * --------------------------------------------------------------------- */

/* @s escaped for XML text and attributes; characters XML 1.0 cannot
 * hold (controls, invalid UTF-8) become U+FFFD. */
static void xml_str(GString *g, const char *s)
{
    for (const char *p = s ? s : ""; *p;) {
        unsigned char c = (unsigned char)*p;
        switch (c) {
        case '&': g_string_append(g, "&amp;"); p++; continue;
        case '<': g_string_append(g, "&lt;"); p++; continue;
        case '>': g_string_append(g, "&gt;"); p++; continue;
        case '"': g_string_append(g, "&quot;"); p++; continue;
        case '\'': g_string_append(g, "&apos;"); p++; continue;
        default: break;
        }
        if (c == '\n' || c == '\t' || c == '\r') {
            g_string_append_printf(g, "&#%u;", c);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            g_string_append(g, "\xef\xbf\xbd");
            p++;
        } else if (c < 0x80) {
            g_string_append_c(g, (char)c);
            p++;
        } else {
            gunichar u = g_utf8_get_char_validated(p, -1);
            if (u == (gunichar)-1 || u == (gunichar)-2 || u == 0xfffe || u == 0xffff) {
                g_string_append(g, "\xef\xbf\xbd");
                p++;
            } else {
                const char *q = g_utf8_next_char(p);
                g_string_append_len(g, p, q - p);
                p = q;
            }
        }
    }
}

char *opt_report_junit(const OptResult *res, size_t n, const OptRunInfo *info)
{
    GString *g = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    unsigned p = 0, f = 0, s = 0;
    char tb[G_ASCII_DTOSTR_BUF_SIZE];

    for (size_t i = 0; i < n; i++) {
        p += res[i].status == OPT_PASS;
        f += res[i].status == OPT_FAIL;
        s += res[i].status == OPT_SKIP;
    }
    (void)p;
    g_string_append_printf(g, "<testsuites name=\"linx-optest\" tests=\"%zu\" failures=\"%u\" "
                           "errors=\"0\" skipped=\"%u\" time=\"%s\">\n", n, f, s,
                           g_ascii_formatd(tb, sizeof(tb), "%.6f", info->wall_time));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        unsigned sf = 0, ss = 0;
        double t = 0;

        for (; j < n && strcmp(res[j].suite, res[i].suite) == 0; j++) {
            sf += res[j].status == OPT_FAIL;
            ss += res[j].status == OPT_SKIP;
            t += res[j].time;
        }
        g_string_append(g, "  <testsuite name=\"");
        xml_str(g, res[i].suite);
        g_string_append_printf(g, "\" tests=\"%zu\" failures=\"%u\" errors=\"0\" skipped=\"%u\" "
                               "time=\"%s\"", j - i, sf, ss,
                               g_ascii_formatd(tb, sizeof(tb), "%.6f", t));
        if (info->started) {
            char ts[32];
            /* JUnit's timestamp has no zone designator */
            snprintf(ts, sizeof(ts), "%.19s", info->started);
            g_string_append_printf(g, " timestamp=\"%s\"", ts);
        }
        g_string_append(g, ">\n    <properties>\n      <property name=\"accel\" value=\"");
        xml_str(g, info->accel);
        g_string_append(g, "\"/>\n      <property name=\"manifest\" value=\"");
        xml_str(g, res[i].manifest);
        g_string_append(g, "\"/>\n    </properties>\n");
        for (size_t k = i; k < j; k++) {
            const OptResult *r = &res[k];

            g_string_append(g, "    <testcase name=\"");
            xml_str(g, r->name);
            g_string_append(g, "\" classname=\"");
            xml_str(g, r->suite);
            g_string_append_printf(g, "\" time=\"%s\"",
                                   g_ascii_formatd(tb, sizeof(tb), "%.6f", r->time));
            if (r->status == OPT_PASS && !r->output) {
                g_string_append(g, "/>\n");
                continue;
            }
            g_string_append(g, ">\n");
            if (r->status == OPT_SKIP) {
                g_string_append(g, "      <skipped message=\"");
                xml_str(g, r->message);
                g_string_append(g, "\"/>\n");
            } else if (r->status == OPT_FAIL) {
                g_string_append(g, "      <failure message=\"");
                xml_str(g, r->message);
                g_string_append(g, "\" type=\"");
                xml_str(g, opt_fail_kind_name(r->kind));
                g_string_append(g, "\">");
                xml_str(g, r->message);
                g_string_append(g, "</failure>\n");
            }
            if (r->output) {
                g_string_append(g, "      <system-out>");
                xml_str(g, r->output);
                g_string_append(g, "</system-out>\n");
            }
            g_string_append(g, "    </testcase>\n");
        }
        g_string_append(g, "  </testsuite>\n");
        i = j;
    }
    g_string_append(g, "</testsuites>\n");
    return g_string_free(g, FALSE);
}

bool opt_report_write(const char *path, const char *text, char *err, size_t errlen)
{
    return linx_file_write(path, text, strlen(text), 0644, err, errlen);
}
