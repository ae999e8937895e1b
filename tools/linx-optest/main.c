/*
 * linx-optest: the operator test runner (docs/optest.md).
 *
 *   linx-optest [options] MANIFEST...
 *
 * Runs every case of every suite manifest and prints one line per case
 * (PASS/FAIL with the reason) and a summary.  Exit status: 0 when every
 * case passed, 1 when one failed, 2 for a bad command line or manifest.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"

enum {
    EXIT_ALL_PASSED = 0,
    EXIT_A_CASE_FAILED = 1,
    EXIT_USAGE = 2,
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: linx-optest [options] MANIFEST...\n"
            "Run operator test suites (docs/optest.md): each case loads input tensors into\n"
            "guest memory, runs the suite's program and compares its outputs with golden\n"
            "tensors.\n"
            "  -a, --accel jit|interp   execution engine (default jit)\n"
            "  -d, --data DIR           directory of relative data files (default: the\n"
            "                           manifest's directory)\n"
            "  -c, --case NAME          run only this case (repeatable)\n"
            "  -l, --list               list the cases and exit\n"
            "  -r, --reference          TEPL blocks use the reference kernels\n"
            "  -v, --verbose            comparison details and guest output\n"
            "  -q, --quiet              print failures and the summary only\n"
            "  -h, --help               this text\n"
            "Exit status: 0 all passed, 1 a case failed, 2 usage or manifest error.\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "accel", required_argument, NULL, 'a' }, { "data", required_argument, NULL, 'd' },
        { "case", required_argument, NULL, 'c' },  { "list", no_argument, NULL, 'l' },
        { "reference", no_argument, NULL, 'r' },   { "verbose", no_argument, NULL, 'v' },
        { "quiet", no_argument, NULL, 'q' },       { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    OptRunOptions o = { "jit", false, false, false };
    const char *data = NULL;
    char **only = calloc((size_t)argc + 1, sizeof(char *));
    unsigned nonly = 0, passed = 0, failed = 0;
    bool list = false;
    int ch;

    if (!only) {
        return EXIT_USAGE;
    }
    while ((ch = getopt_long(argc, argv, "a:d:c:lrvqh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'a':
            if (strcmp(optarg, "jit") != 0 && strcmp(optarg, "interp") != 0) {
                fprintf(stderr, "linx-optest: --accel takes jit or interp, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            o.accel = optarg;
            break;
        case 'd':
            data = optarg;
            break;
        case 'c':
            only[nonly++] = optarg;
            break;
        case 'l':
            list = true;
            break;
        case 'r':
            o.reference = true;
            break;
        case 'v':
            o.verbose = true;
            break;
        case 'q':
            o.quiet = true;
            break;
        case 'h':
            usage(stdout);
            return EXIT_ALL_PASSED;
        default:
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
        OptSuite s;
        char err[1024];
        unsigned p0 = passed, f0 = failed;

        if (!opt_suite_load(argv[i], data, &s, err, sizeof(err))) {
            fprintf(stderr, "linx-optest: %s\n", err);
            free(only);
            return EXIT_USAGE;
        }
        if (list) {
            for (unsigned c = 0; c < s.ncases; c++) {
                printf("%s/%s\n", s.name, s.cases[c].name);
            }
        } else {
            opt_run_suite(&s, &o, nonly ? only : NULL, &passed, &failed);
            if (!o.quiet) {
                printf("%s: %u passed, %u failed\n", s.name, passed - p0, failed - f0);
            }
        }
        opt_suite_free(&s);
    }
    free(only);
    if (!list) {
        printf("linx-optest: %u passed, %u failed\n", passed, failed);
    }
    return failed ? EXIT_A_CASE_FAILED : EXIT_ALL_PASSED;
}
