/*
 * Command-line options over getopt_long / getopt_long_only (options.h).
 */
#include "util/options.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LONG_BASE 256 /* getopt return values of long-only options */
#define HELP_COLUMN 24

typedef struct OptRef {
    unsigned group;
    const LinxOpt *opt;
} OptRef;

static unsigned count_opts(const LinxOptGroup *groups, unsigned n)
{
    unsigned total = 0;

    for (unsigned g = 0; g < n; g++) {
        for (const LinxOpt *o = groups[g].opts; o && o->name; o++) {
            total++;
        }
    }
    return total;
}

/* The flattened table: refs[k] for long option k (getopt value
 * LONG_BASE + k, or the short letter when it has one). */
static OptRef *flatten(const LinxOptGroup *groups, unsigned n, unsigned *count)
{
    unsigned total = count_opts(groups, n), k = 0;
    OptRef *refs = calloc(total + 1, sizeof(*refs));

    for (unsigned g = 0; refs && g < n; g++) {
        for (const LinxOpt *o = groups[g].opts; o && o->name; o++) {
            refs[k].group = g;
            refs[k].opt = o;
            k++;
        }
    }
    *count = total;
    return refs;
}

static unsigned edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned row[64], prev;

    if (la >= 63 || lb >= 63) {
        return 99;
    }
    for (size_t j = 0; j <= lb; j++) {
        row[j] = (unsigned)j;
    }
    for (size_t i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned cur = row[j];
            unsigned sub = prev + (a[i - 1] != b[j - 1]);
            unsigned del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}

void linx_opts_nearest(LinxOptStyle style, const LinxOptGroup *groups, unsigned ngroups,
                       const char *given, char *out, size_t outlen)
{
    const char *name = given;
    char bare[64];
    unsigned best = 99;

    while (*name == '-') {
        name++;
    }
    snprintf(bare, sizeof(bare), "%s", name);
    bare[strcspn(bare, "=")] = '\0';
    out[0] = '\0';
    for (unsigned g = 0; g < ngroups; g++) {
        for (const LinxOpt *o = groups[g].opts; o && o->name; o++) {
            unsigned d = edit_distance(bare, o->name);
            size_t len = strlen(o->name);
            unsigned limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
            if (strncmp(bare, o->name, strlen(bare)) == 0 && bare[0]) {
                d = 0; /* a prefix: ambiguous abbreviations land here */
            }
            if (d <= limit && d < best) {
                best = d;
                snprintf(out, outlen, "%s%s", style == LINX_OPTS_QEMU ? "-" : "--", o->name);
            }
        }
    }
}

static void describe_bad(LinxOptStyle style, const LinxOptGroup *groups, unsigned ngroups,
                         const char *token, int optopt_char, bool missing, char *err, size_t errlen)
{
    char near[80];
    char shown[80];

    if (optopt_char > 0 && optopt_char < LONG_BASE && token && token[0] == '-' && token[1] != '-' &&
        strlen(token) > 2 && !missing && style == LINX_OPTS_GNU) {
        snprintf(shown, sizeof(shown), "-%c", optopt_char);
    } else {
        snprintf(shown, sizeof(shown), "%s", token ? token : "?");
        shown[strcspn(shown, "=")] = '\0';
    }
    if (missing) {
        snprintf(err, errlen, "option '%s' needs an argument", shown);
        return;
    }
    linx_opts_nearest(style, groups, ngroups, shown, near, sizeof(near));
    if (near[0]) {
        snprintf(err, errlen, "unknown option '%s' (did you mean '%s'?)", shown, near);
    } else {
        snprintf(err, errlen, "unknown option '%s' (--help lists the options)", shown);
    }
}

int linx_opts_parse(const char *prog, LinxOptStyle style, const LinxOptGroup *groups,
                    unsigned ngroups, int argc, char **argv, int *first, char *err, size_t errlen)
{
    unsigned n;
    OptRef *refs = flatten(groups, ngroups, &n);
    struct option *longs = calloc(n + 1, sizeof(*longs));
    char *shorts = malloc(4 * n + 4);
    size_t sl = 0;
    int status = 0;

    (void)prog;
    if (!refs || !longs || !shorts) {
        snprintf(err, errlen, "out of memory");
        status = -1;
        goto out;
    }
    if (style == LINX_OPTS_QEMU) {
        shorts[sl++] = '+'; /* stop at the program */
    }
    shorts[sl++] = ':'; /* report a missing value as ':' */
    for (unsigned k = 0; k < n; k++) {
        const LinxOpt *o = refs[k].opt;
        longs[k].name = o->name;
        longs[k].has_arg = !o->arg ? no_argument
                           : o->arg[0] == '[' ? optional_argument : required_argument;
        longs[k].flag = NULL;
        longs[k].val = o->short_name ? o->short_name : (int)(LONG_BASE + k);
        if (o->short_name) {
            shorts[sl++] = (char)o->short_name;
            if (o->arg) {
                shorts[sl++] = ':';
                if (o->arg[0] == '[') {
                    shorts[sl++] = ':';
                }
            }
        }
    }
    shorts[sl] = '\0';
    optind = 0; /* full reset (glibc) */
    opterr = 0;
    for (;;) {
        int at = optind ? optind : 1;
        int c = style == LINX_OPTS_QEMU ? getopt_long_only(argc, argv, shorts, longs, NULL)
                                        : getopt_long(argc, argv, shorts, longs, NULL);
        const OptRef *ref = NULL;
        if (c == -1) {
            break;
        }
        if (c == '?' || c == ':') {
            const char *token = at < argc ? argv[at] : NULL;
            if (c == ':' && optind > 0 && optind - 1 < argc && argv[optind - 1][0] == '-') {
                token = argv[optind - 1];
            }
            describe_bad(style, groups, ngroups, token, optopt, c == ':', err, errlen);
            status = -1;
            break;
        }
        if (c >= LONG_BASE && (unsigned)(c - LONG_BASE) < n) {
            ref = &refs[c - LONG_BASE];
        } else {
            for (unsigned k = 0; k < n && !ref; k++) {
                if (refs[k].opt->short_name == c) {
                    ref = &refs[k];
                }
            }
        }
        if (!ref) {
            snprintf(err, errlen, "internal error: option code %d", c);
            status = -1;
            break;
        }
        const LinxOptGroup *g = &groups[ref->group];
        status = g->handler(g->opaque, ref->opt->id, ref->opt->arg ? optarg : NULL, err, errlen);
        if (status != 0) {
            break;
        }
    }
    *first = optind;
out:
    free(refs);
    free(longs);
    free(shorts);
    return status;
}

int linx_opts_take(const LinxOptGroup *group, int argc, char **argv, int *i, char *err,
                   size_t errlen)
{
    const char *a = argv[*i];
    const char *eq;
    size_t len;

    if (a[0] != '-' || !a[1]) {
        return 0;
    }
    a += a[1] == '-' ? 2 : 1;
    eq = strchr(a, '=');
    len = eq ? (size_t)(eq - a) : strlen(a);
    for (const LinxOpt *o = group->opts; o && o->name; o++) {
        bool hit = (strlen(o->name) == len && strncmp(o->name, a, len) == 0) ||
                   (o->short_name && len == 1 && a[0] == o->short_name);
        const char *value = NULL;
        int r;
        if (!hit) {
            continue;
        }
        if (o->arg && o->arg[0] == '[') {
            value = eq ? eq + 1 : NULL;
        } else if (o->arg) {
            if (eq) {
                value = eq + 1;
            } else if (*i + 1 < argc) {
                value = argv[*i + 1];
                (*i)++;
            } else {
                snprintf(err, errlen, "option '%s' needs an argument", argv[*i]);
                return -1;
            }
        } else if (eq) {
            snprintf(err, errlen, "option '%.*s' takes no value", (int)(eq - argv[*i]), argv[*i]);
            return -1;
        }
        (*i)++;
        r = group->handler(group->opaque, o->id, value, err, errlen);
        return r < 0 ? -1 : r > 0 ? 2 : 1;
    }
    return 0;
}

void linx_opts_print_help(FILE *f, LinxOptStyle style, const LinxOptGroup *groups, unsigned ngroups)
{
    for (unsigned g = 0; g < ngroups; g++) {
        if (groups[g].title) {
            fprintf(f, "\n%s:\n", groups[g].title);
        }
        for (const LinxOpt *o = groups[g].opts; o && o->name; o++) {
            char spell[96];
            int w;
            const char *h = o->help;

            if (!h) {
                continue; /* a hidden alias */
            }
            if (style == LINX_OPTS_QEMU) {
                w = snprintf(spell, sizeof(spell), "-%s", o->name);
                if (o->arg) {
                    snprintf(spell + w, sizeof(spell) - (size_t)w, " %s", o->arg);
                }
            } else {
                /* --name=VALUE, or --name[=VALUE] for an optional one */
                const char *eq = o->arg && o->arg[0] != '[' ? "=" : "";
                const char *val = o->arg ? o->arg : "";
                char shortp[8] = "    ";
                if (o->short_name) {
                    snprintf(shortp, sizeof(shortp), "-%c, ", o->short_name);
                }
                snprintf(spell, sizeof(spell), "%s--%s%s%s", shortp, o->name, eq, val);
            }
            w = fprintf(f, "  %s", spell);
            for (;;) {
                size_t line = strcspn(h, "\n");
                if (w >= HELP_COLUMN) {
                    fprintf(f, "\n%*s", HELP_COLUMN, "");
                } else {
                    fprintf(f, "%*s", HELP_COLUMN - w, "");
                }
                fprintf(f, "%.*s", (int)line, h);
                w = HELP_COLUMN + 99;
                if (!h[line]) {
                    break;
                }
                h += line + 1;
            }
            fprintf(f, "\n");
        }
    }
}
