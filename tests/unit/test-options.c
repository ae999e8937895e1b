/*
 * util/options.c: the option parser every tool uses.  GNU style (long,
 * short, bundled, --name=VALUE, optional values, abbreviations, operands
 * anywhere, "--"), QEMU style (-name VALUE, stop at the program), errors
 * that name the option and the nearest spelling, generated help, and
 * linx_opts_take.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/options.h"

enum { O_OUT = 1, O_VERBOSE, O_LIST, O_LISTING, O_JOBS, O_CPU, O_HIDDEN, O_STOP };

static const LinxOpt opts[] = {
    { "output", 'o', "FILE", "write FILE", O_OUT },
    { "verbose", 'v', NULL, "say more", O_VERBOSE },
    { "list", 'l', NULL, "list", O_LIST },
    { "listing", 'a', "[=FILE]", "a listing to stdout or FILE", O_LISTING },
    { "jobs", 'j', "N", "N at once", O_JOBS },
    { "cpu", 0, "NAME", "the CPU\nsecond line", O_CPU },
    { "old-name", 0, NULL, NULL, O_HIDDEN },
    { "stop", 0, NULL, "stop here", O_STOP },
    { NULL },
};

typedef struct Seen {
    char log[512];
} Seen;

static int record(void *opaque, int id, const char *value, char *err, size_t errlen)
{
    Seen *s = opaque;
    size_t n = strlen(s->log);

    if (id == O_JOBS && strcmp(value, "0") == 0) {
        snprintf(err, errlen, "-j takes a count > 0");
        return -1;
    }
    snprintf(s->log + n, sizeof(s->log) - n, "%d=%s;", id, value ? value : "-");
    return id == O_STOP ? 1 : 0;
}

/* Parse a NULL-terminated list of words; returns the status. */
static int parse(LinxOptStyle style, Seen *s, int *first, char *err, char ***argvp, ...)
{
    static char *argv[32];
    int argc = 0;
    va_list ap;
    LinxOptGroup g = { NULL, opts, record, s };

    argv[argc++] = (char *)"prog";
    va_start(ap, argvp);
    for (char *a; (a = va_arg(ap, char *)) != NULL;) {
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;
    memset(s, 0, sizeof(*s));
    err[0] = '\0';
    *argvp = argv;
    return linx_opts_parse("prog", style, &g, 1, argc, argv, first, err, 256);
}

static void test_gnu_forms(void **state)
{
    Seen s;
    char err[256];
    char **argv;
    int first;

    (void)state;
    assert_int_equal(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "in.s", "-o", "a", "--jobs=3",
                           "-vl", "--output", "b", "-oc", "--cpu=x", "in2.s", (char *)NULL),
                     0);
    assert_string_equal(s.log, "1=a;5=3;2=-;3=-;1=b;1=c;6=x;");
    /* the operands are moved to the end, in order */
    assert_int_equal(first, 9);
    assert_string_equal(argv[first], "in.s");
    assert_string_equal(argv[first + 1], "in2.s");

    /* "--" ends the options */
    assert_int_equal(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "-v", "--", "-o", (char *)NULL),
                     0);
    assert_string_equal(s.log, "2=-;");
    assert_string_equal(argv[first], "-o");

    /* a unique prefix is the option; --list and --listing share "--li" */
    assert_int_equal(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "--verb", "--outp=z",
                           (char *)NULL),
                     0);
    assert_string_equal(s.log, "2=-;1=z;");
}

static void test_optional_value(void **state)
{
    Seen s;
    char err[256];
    char **argv;
    int first;

    (void)state;
    assert_int_equal(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "-a", "x.s", (char *)NULL), 0);
    assert_string_equal(s.log, "4=-;"); /* no value: the next word is an operand */
    assert_string_equal(argv[first], "x.s");
    assert_int_equal(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "-aout.lst", "--listing=l2",
                           "--listing", (char *)NULL),
                     0);
    assert_string_equal(s.log, "4=out.lst;4=l2;4=-;");
}

static void test_qemu_style(void **state)
{
    Seen s;
    char err[256];
    char **argv;
    int first;

    (void)state;
    assert_int_equal(parse(LINX_OPTS_QEMU, &s, &first, err, &argv, "-cpu", "c1", "-jobs", "2",
                           "--verbose", "-o", "f", "prog.elf", "-o", "guest-arg", (char *)NULL),
                     0);
    assert_string_equal(s.log, "6=c1;5=2;2=-;1=f;");
    /* the options end at the program: its own arguments are not ours */
    assert_int_equal(first, 8);
    assert_string_equal(argv[first], "prog.elf");
    assert_string_equal(argv[first + 1], "-o");
}

static void test_errors(void **state)
{
    Seen s;
    char err[256];
    char **argv;
    int first;

    (void)state;
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "--ouptut=f", (char *)NULL) < 0);
    assert_string_equal(err, "unknown option '--ouptut' (did you mean '--output'?)");
    assert_true(parse(LINX_OPTS_QEMU, &s, &first, err, &argv, "-cpux", "a", (char *)NULL) < 0);
    assert_string_equal(err, "unknown option '-cpux' (did you mean '-cpu'?)");
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "--zzzzzzzz", (char *)NULL) < 0);
    assert_string_equal(err, "unknown option '--zzzzzzzz' (--help lists the options)");
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "-o", (char *)NULL) < 0);
    assert_string_equal(err, "option '-o' needs an argument");
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "--jobs", (char *)NULL) < 0);
    assert_string_equal(err, "option '--jobs' needs an argument");
    /* the handler's refusal stops the parse with its message */
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "-j", "0", "-v", (char *)NULL) < 0);
    assert_string_equal(err, "-j takes a count > 0");
    assert_string_equal(s.log, "");
    /* a handler that is done (help, version) stops it with > 0 */
    assert_true(parse(LINX_OPTS_GNU, &s, &first, err, &argv, "--stop", "-v", (char *)NULL) > 0);
    assert_string_equal(s.log, "8=-;");
}

static void test_help(void **state)
{
    LinxOptGroup g = { "Things", opts, record, NULL };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    (void)state;
    linx_opts_print_help(f, LINX_OPTS_GNU, &g, 1);
    fclose(f);
    assert_non_null(strstr(buf, "\nThings:\n"));
    assert_non_null(strstr(buf, "  -o, --output=FILE     write FILE\n"));
    assert_non_null(strstr(buf, "  -a, --listing[=FILE]  a listing to stdout or FILE\n"));
    assert_non_null(strstr(buf, "      --cpu=NAME        the CPU\n                        second line\n"));
    assert_null(strstr(buf, "old-name")); /* a hidden alias */
    free(buf);

    buf = NULL;
    f = open_memstream(&buf, &len);
    linx_opts_print_help(f, LINX_OPTS_QEMU, &g, 1);
    fclose(f);
    assert_non_null(strstr(buf, "  -output FILE          write FILE\n"));
    assert_non_null(strstr(buf, "  -verbose              say more\n"));
    free(buf);
}

static void test_take(void **state)
{
    Seen s;
    LinxOptGroup g = { NULL, opts, record, &s };
    char *argv[] = { (char *)"-cpu", (char *)"n", (char *)"--output=q", (char *)"-a",
                     (char *)"next", (char *)"other", (char *)"-verbose=1", NULL };
    char err[256];
    int i = 0;

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(linx_opts_take(&g, 7, argv, &i, err, sizeof(err)), 1);
    assert_int_equal(i, 2);
    assert_int_equal(linx_opts_take(&g, 7, argv, &i, err, sizeof(err)), 1);
    assert_int_equal(i, 3);
    /* an optional value is only taken from "=" */
    assert_int_equal(linx_opts_take(&g, 7, argv, &i, err, sizeof(err)), 1);
    assert_int_equal(i, 4);
    assert_string_equal(s.log, "6=n;1=q;4=-;");
    i = 5;
    assert_int_equal(linx_opts_take(&g, 7, argv, &i, err, sizeof(err)), 0);
    assert_int_equal(i, 5);
    i = 6;
    assert_int_equal(linx_opts_take(&g, 7, argv, &i, err, sizeof(err)), -1);
    assert_string_equal(err, "option '-verbose' takes no value");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gnu_forms), cmocka_unit_test(test_optional_value),
        cmocka_unit_test(test_qemu_style), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_help),      cmocka_unit_test(test_take),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
