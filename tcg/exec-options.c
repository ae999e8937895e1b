/*
 * Engine command-line options: defaults (LINX_COMMIT_TRACE), parsing of
 * -accel, -one-insn-per-tb, -d, -D and -trace-commit for the front-end
 * programs (linx-user, the virt machine, test runners), and their help
 * text.  See exec.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tcg/engine-config.h"
#include "tcg/exec.h"

void linx_exec_options_init(LinxExecOptions *opts)
{
    const char *trace = getenv("LINX_COMMIT_TRACE");

    memset(opts, 0, sizeof(*opts));
    opts->accel = LINX_HAVE_JIT ? LINX_ACCEL_JIT : LINX_ACCEL_INTERP;
    if (trace && *trace) {
        opts->trace_commit_path = trace;
    }
}

void linx_exec_print_options_help(FILE *f)
{
    fprintf(f, "  -accel jit|interp     run translated code as host code or interpret the IR\n"
               "  -one-insn-per-tb      translate one guest instruction per block\n"
               "  -d ITEM[,ITEM...]     debug log (-d help lists the items)\n"
               "  -D FILE               write the debug log to FILE\n"
               "  -trace-commit FILE    commit trace, one JSON object per retired instruction\n"
               "                        (also LINX_COMMIT_TRACE=FILE)\n");
}

int linx_exec_parse_option(LinxExecOptions *opts, int argc, char **argv, int *i, char *err,
                           size_t errlen)
{
    const char *a = argv[*i];
    const char *val;
    bool help = false;

    if (a[0] != '-') {
        return 0;
    }
    a += a[1] == '-' ? 2 : 1;
    if (!strcmp(a, "one-insn-per-tb")) {
        opts->one_insn_per_tb = true;
        (*i)++;
        return 1;
    }
    if (strcmp(a, "accel") && strcmp(a, "d") && strcmp(a, "D") && strcmp(a, "trace-commit")) {
        return 0;
    }
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "option %s needs an argument", argv[*i]);
        return -1;
    }
    val = argv[*i + 1];
    if (!strcmp(a, "accel")) {
        if (!strcmp(val, "jit") || !strcmp(val, "tcg")) {
            opts->accel = LINX_ACCEL_JIT;
        } else if (!strcmp(val, "interp")) {
            opts->accel = LINX_ACCEL_INTERP;
        } else {
            snprintf(err, errlen, "-accel: unknown accelerator '%s' (jit or interp)", val);
            return -1;
        }
    } else if (!strcmp(a, "d")) {
        if (!linx_log_parse_mask(val, &opts->log_mask, &help, err, errlen)) {
            return -1;
        }
    } else if (!strcmp(a, "D")) {
        opts->log_path = val;
    } else {
        opts->trace_commit_path = val;
    }
    *i += 2;
    return help ? 2 : 1;
}

