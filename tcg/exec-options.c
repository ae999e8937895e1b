/*
 * Engine command-line options: defaults (LINX_COMMIT_TRACE), the option
 * table -accel, -one-insn-per-tb (QEMU's old -singlestep), -d, -D,
 * -trace-commit and -timeout for the front-end programs (linx-user, the virt machine,
 * test runners), and their help text.  See exec.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcg/engine-config.h"
#include "tcg/exec.h"

enum {
    OPT_ACCEL,
    OPT_ONE_INSN,
    OPT_SINGLESTEP,
    OPT_LOG,
    OPT_LOG_FILE,
    OPT_TRACE_COMMIT,
    OPT_TIMEOUT,
};

#define LINX_MAX_TIMEOUT_S (366 * 24 * 3600)

static const LinxOpt exec_opts[] = {
    { "accel", 0, "jit|interp", "run translated code as host code or interpret the IR", OPT_ACCEL },
    { "one-insn-per-tb", 0, NULL, "translate one guest instruction per block", OPT_ONE_INSN },
    { "singlestep", 0, NULL, "the same (QEMU's older spelling)", OPT_SINGLESTEP },
    { "d", 0, "ITEM[,ITEM...]", "debug log (-d help lists the items)", OPT_LOG },
    { "D", 0, "FILE", "write the debug log to FILE", OPT_LOG_FILE },
    { "trace-commit", 0, "FILE",
      "commit trace, one JSON object per retired instruction\n(also LINX_COMMIT_TRACE=FILE)",
      OPT_TRACE_COMMIT },
    { "timeout", 0, "SECONDS",
      "stop the program after SECONDS of wall-clock time\n(exit status 124; SIGINT/SIGTERM "
      "also stop it cleanly)", OPT_TIMEOUT },
    { NULL },
};

void linx_exec_options_defaults(LinxExecOptions *opts)
{
    const char *trace = getenv("LINX_COMMIT_TRACE");
    const char *hf = getenv("LINX_HOST_FAULTS");
    const char *lt = getenv("LINX_LOOP_IN_TB");

    memset(opts, 0, sizeof(*opts));
    opts->accel = LINX_HAVE_JIT ? LINX_ACCEL_JIT : LINX_ACCEL_INTERP;
    if (trace && *trace) {
        opts->trace_commit_path = trace;
    }
    /* LINX_HOST_FAULTS=0: TLB checks in every JIT access (A/B runs, and a
     * way out should a host not deliver SIGSEGV as expected). */
    opts->no_host_faults = hf && !strcmp(hf, "0");
    /* LINX_LOOP_IN_TB=0: self-loops leave their TB after each TB's
     * copies (A/B runs). */
    opts->no_loop_in_tb = lt && !strcmp(lt, "0");
}

static int exec_opt(void *opaque, int id, const char *val, char *err, size_t errlen)
{
    LinxExecOptions *opts = opaque;
    bool help = false;

    switch (id) {
    case OPT_ACCEL:
        if (!strcmp(val, "jit") || !strcmp(val, "tcg")) {
            opts->accel = LINX_ACCEL_JIT;
        } else if (!strcmp(val, "interp")) {
            opts->accel = LINX_ACCEL_INTERP;
        } else {
            snprintf(err, errlen, "-accel: unknown accelerator '%s' (jit or interp)", val);
            return -1;
        }
        return 0;
    case OPT_ONE_INSN:
    case OPT_SINGLESTEP:
        opts->one_insn_per_tb = true;
        return 0;
    case OPT_LOG:
        if (!linx_log_parse_mask(val, &opts->log_mask, &help, err, errlen)) {
            return -1;
        }
        return help ? 1 : 0;
    case OPT_LOG_FILE:
        opts->log_path = val;
        return 0;
    case OPT_TIMEOUT: {
        char *end;
        double sec;
        errno = 0;
        sec = strtod(val, &end);
        if (errno || end == val || *end || !(sec > 0) || sec > LINX_MAX_TIMEOUT_S) {
            snprintf(err, errlen,
                     "-timeout: '%s' is not a number of seconds (more than 0, at most %d)", val,
                     LINX_MAX_TIMEOUT_S);
            return -1;
        }
        opts->timeout_ms = (unsigned long)(sec * 1000.0 + 0.5);
        if (!opts->timeout_ms) {
            opts->timeout_ms = 1;
        }
        return 0;
    }
    default:
        opts->trace_commit_path = val;
        return 0;
    }
}

LinxOptGroup linx_exec_option_group(LinxExecOptions *opts)
{
    LinxOptGroup g = { "Engine options", exec_opts, exec_opt, opts };
    return g;
}

int linx_exec_parse_option(LinxExecOptions *opts, int argc, char **argv, int *i, char *err,
                           size_t errlen)
{
    LinxOptGroup g = linx_exec_option_group(opts);

    return linx_opts_take(&g, argc, argv, i, err, errlen);
}

void linx_exec_print_options_help(FILE *f)
{
    LinxOptGroup g = linx_exec_option_group(NULL);

    g.title = NULL;
    linx_opts_print_help(f, LINX_OPTS_QEMU, &g, 1);
}
