/*
 * linx-system: run a bare-metal LinxISA program on the `virt` machine
 * (like qemu-system-linx64 -machine virt).
 *
 *   linx-system -M virt -kernel FILE [-m SIZE] [engine options]
 *
 * Exit status: what the program wrote to the EXIT register (or 0/1 from
 * the test finisher), 1 when a trap stopped the machine or the program
 * could not be loaded, 2 for a bad command line.  The peer's harmless
 * options (-nographic, -monitor none, -serial stdio, -smp 1, -bios none)
 * are accepted so existing LinxISA scripts run unchanged.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "hw/linx/virt.h"
#include "tcg/exec-stop.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define LINX_SYSTEM_VERSION "linx-system (linxemu) " LINX_VERSION ", LinxISA v0.4, machine virt"
#define EXIT_START_FAILED 1
#define EXIT_USAGE 2
#define EXIT_TIMEOUT 124 /* as timeout(1) */
#define MIB_SHIFT 20

/* QEMU's -m: a bare number is MiB. */
static bool parse_ram_size(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = MIB_SHIFT;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s) {
        return false;
    }
    switch (*end) {
    case 0:
        break;
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    default:
        return false;
    }
    if ((*end == 'B' || *end == 'b') && end[1] == 0) {
        end++;
    }
    if (*end || v > (UINT64_MAX >> shift)) {
        return false;
    }
    *out = (uint64_t)v << shift;
    return true;
}

typedef struct SystemArgs {
    LinxExecOptions exec;
    const LinxProfile *profile; /* -cpu; NULL: auto */
    GdbStubConfig gdb;          /* -gdb, -s, -S */
    const char *kernel;
    const char *append;         /* -append: the command line, in RAM for the program */
    uint64_t ram_size;
} SystemArgs;

enum {
    OPT_HELP,
    OPT_VERSION,
    OPT_MACHINE,
    OPT_KERNEL,
    OPT_MEMORY,
    OPT_APPEND,
    OPT_NOGRAPHIC,
    OPT_MONITOR,
    OPT_SERIAL,
    OPT_SMP,
    OPT_BIOS,
    OPT_UNSUPPORTED,
};

static const LinxOpt system_opts[] = {
    { "h", 0, NULL, "this text (also -help)", OPT_HELP },
    { "help", 0, NULL, NULL, OPT_HELP },
    { "version", 0, NULL, "print the version", OPT_VERSION },
    { "M", 0, "virt", "the machine (virt is the only one; -M help lists it)", OPT_MACHINE },
    { "machine", 0, "virt", NULL, OPT_MACHINE },
    { "kernel", 0, "FILE", "the program to load (ET_REL: .text at 0x10000; ET_EXEC, ET_DYN)",
      OPT_KERNEL },
    { "m", 0, "SIZE", "RAM size: MiB, or with a K/M/G suffix (default 128M)", OPT_MEMORY },
    { "append", 0, "STRING", "a command line for the program: a NUL-terminated string\n"
                             "below the boot stack, its address in a2", OPT_APPEND },
    { "nographic", 0, NULL, "accepted (the UART is always standard input and output)",
      OPT_NOGRAPHIC },
    { "serial", 0, "stdio", "the UART on standard input/output (the only choice)", OPT_SERIAL },
    { "monitor", 0, "none", "accepted: none or stdio (no monitor)", OPT_MONITOR },
    { "smp", 0, "1", "one CPU", OPT_SMP },
    { "bios", 0, "none", "no firmware: the program starts at its entry", OPT_BIOS },
    { "initrd", 0, "FILE", NULL, OPT_UNSUPPORTED },
    { "dtb", 0, "FILE", NULL, OPT_UNSUPPORTED },
    { NULL },
};

static int system_opt(void *opaque, int id, const char *v, char *err, size_t errlen)
{
    SystemArgs *sa = opaque;

    switch (id) {
    case OPT_HELP:
        return 2; /* main prints it: it has the groups */
    case OPT_VERSION:
        printf("%s\n", LINX_SYSTEM_VERSION);
        return 1;
    case OPT_MACHINE:
        if (!strcmp(v, "help") || !strcmp(v, "?")) {
            printf("Supported machines are:\n"
                   "virt                 the LinxISA QEMU port's virt board (default): RAM from 0,\n"
                   "                     UART 0x10000000, EXIT 0x10000004, finisher 0x10009000\n");
            return 1;
        }
        if (strcmp(v, "virt") != 0 && strncmp(v, "virt,", 5) != 0) {
            snprintf(err, errlen, "unknown machine '%s' (only 'virt'; -M help lists it)", v);
            return -1;
        }
        return 0;
    case OPT_KERNEL:
        sa->kernel = v;
        return 0;
    case OPT_MEMORY:
        if (!parse_ram_size(v, &sa->ram_size)) {
            snprintf(err, errlen, "bad memory size '%s' (e.g. 128, 256M, 1G)", v);
            return -1;
        }
        return 0;
    case OPT_APPEND:
        sa->append = v;
        return 0;
    case OPT_NOGRAPHIC:
        return 0;
    case OPT_SERIAL:
    case OPT_MONITOR:
    case OPT_BIOS: {
        static const char *const ok[] = { "none", "stdio", "mon:stdio", NULL };
        for (int k = 0; ok[k]; k++) {
            if (!strcmp(v, ok[k])) {
                return 0;
            }
        }
        snprintf(err, errlen, "%s is not supported (none or stdio)", v);
        return -1;
    }
    case OPT_SMP:
        if (strcmp(v, "1") != 0 && strcmp(v, "cpus=1") != 0) {
            snprintf(err, errlen, "-smp %s: only one CPU is supported", v);
            return -1;
        }
        return 0;
    default:
        snprintf(err, errlen, "-initrd and -dtb are not supported (no firmware, initrd or "
                              "device tree)");
        return -1;
    }
}

static void usage(FILE *f, const LinxOptGroup *groups, unsigned n)
{
    fprintf(f, "usage: linx-system -M virt -kernel FILE [-m SIZE] [options]\n"
               "Run a bare-metal LinxISA program (ET_REL, ET_EXEC or ET_DYN) on the virt "
               "machine.\n\nOptions:\n");
    linx_opts_print_help(f, LINX_OPTS_QEMU, groups, n);
    fprintf(f, "\nDevices: UART data 0x10000000, EXIT 0x10000004 (a store ends the run with\n"
               "that status), test finisher 0x10009000 (0x5555 pass, 0x3333 fail).\n"
               "Exit status: the program's, 1 on an unhandled trap or a load error, 2 for a\n"
               "bad command line, 124 when -timeout stopped it.\n");
}

int main(int argc, char **argv)
{
    SystemArgs sa;
    char err[512];
    int status;

    memset(&sa, 0, sizeof(sa));
    sa.ram_size = VIRT_RAM_DEFAULT;
    linx_exec_options_init(&sa.exec);
    LinxOptGroup groups[] = {
        { NULL, system_opts, system_opt, &sa },
        linx_profile_option_group(&sa.profile),
        linx_exec_option_group(&sa.exec),
        gdb_stub_option_group(&sa.gdb, GDB_MODE_SYSTEM),
    };
    const unsigned ngroups = sizeof(groups) / sizeof(groups[0]);
    int first;
    groups[2].title = NULL;
    groups[3].title = NULL;
    status = linx_opts_parse("linx-system", LINX_OPTS_QEMU, groups, ngroups, argc, argv, &first,
                             err, sizeof(err));
    if (status < 0) {
        fprintf(stderr, "linx-system: %s\n", err);
        return EXIT_USAGE;
    }
    if (status == 2) {
        usage(stdout, groups, ngroups);
    }
    if (status > 0) {
        return 0;
    }
    if (first < argc) {
        fprintf(stderr, "linx-system: unexpected argument '%s' (the program is given with "
                        "-kernel FILE)\n", argv[first]);
        return EXIT_USAGE;
    }
    if (!sa.kernel) {
        fprintf(stderr, "linx-system: no program given (-kernel FILE)\n");
        usage(stderr, groups, ngroups);
        return EXIT_USAGE;
    }
    if (!gdb_stub_check_config(&sa.gdb, err, sizeof(err))) {
        fprintf(stderr, "linx-system: %s\n", err);
        return EXIT_USAGE;
    }

    /* -timeout, and SIGINT/SIGTERM when there is a log or a trace to
     * flush: the stop watcher (before any other thread starts). */
    LinxStopWatch *stop = NULL;
    if (sa.exec.timeout_ms || sa.exec.log_path || sa.exec.trace_commit_path) {
        stop = linx_stop_watch_new(sa.exec.timeout_ms, err, sizeof(err));
        if (!stop) {
            fprintf(stderr, "linx-system: %s\n", err);
            return EXIT_START_FAILED;
        }
    }

    LinxVirtMachine *m = linx_virt_new(sa.ram_size, err, sizeof(err));
    if (!m) {
        fprintf(stderr, "linx-system: %s\n", err);
        return EXIT_USAGE;
    }
    if (!linx_virt_load(m, sa.kernel, err, sizeof(err))) {
        fprintf(stderr, "linx-system: %s\n", err);
        linx_virt_free(m);
        return EXIT_START_FAILED;
    }
    LinxExecContext *ec = linx_exec_new(&sa.exec, err, sizeof(err));
    if (!ec) {
        fprintf(stderr, "linx-system: %s\n", err);
        linx_virt_free(m);
        return EXIT_START_FAILED;
    }
    CPULinxState *env = calloc(1, sizeof(*env));
    if (!env) {
        fprintf(stderr, "linx-system: out of memory\n");
        return EXIT_START_FAILED;
    }
    if (sa.gdb.listen && !(m->gdb = gdb_stub_new(&sa.gdb, err, sizeof(err)))) {
        fprintf(stderr, "linx-system: %s\n", err);
        return EXIT_START_FAILED;
    }
    /* The program's symbols for monitor bt/dis (not fatal). */
    if (m->gdb && !gdb_stub_load_symbols(m->gdb, sa.kernel, 0, err, sizeof(err))) {
        fprintf(stderr, "linx-system: gdb stub without symbols: %s\n", err);
    }
    char why[160];
    if (sa.profile) {
        env->profile = sa.profile;
        snprintf(why, sizeof(why), "-cpu %s", sa.profile->name);
    } else {
        env->profile = linx_profile_decide(&m->profile_vote, why, sizeof(why));
    }
    if (sa.exec.log_mask & (LINX_LOG_CPU | LINX_LOG_IN_ASM)) {
        linx_log_printf(linx_exec_log(ec), "profile: %s (%s)\n", env->profile->name, why);
    }
    linx_virt_boot(m, env);
    if (sa.append && !linx_virt_set_cmdline(m, env, sa.append)) {
        fprintf(stderr, "linx-system: -append: the command line does not fit below the stack\n");
        return EXIT_START_FAILED;
    }
    linx_exec_attach_cpu(ec, env);
    if (stop) {
        linx_exec_set_exit_check(ec, true); /* chained code sees the request */
        linx_stop_watch_arm(stop, &env->engine.exit_request);
        m->external_stop = linx_stop_watch_flag(stop);
    }
    status = linx_virt_run(m, env);
    int stop_sig = 0;
    if (m->stop == VIRT_STOP_EXTERNAL && linx_stop_watch_reason(stop) == LINX_STOP_TIMEOUT) {
        unsigned long ms = linx_stop_watch_timeout_ms(stop);
        fprintf(stderr,
                "linx-system: timeout: the program ran longer than %lu.%03lu s (-timeout); "
                "stopped at pc 0x%llx after %llu instructions\n",
                ms / 1000, ms % 1000, (unsigned long long)env->pc,
                (unsigned long long)env->insn_count);
        status = EXIT_TIMEOUT;
    } else if (m->stop == VIRT_STOP_EXTERNAL) {
        stop_sig = linx_stop_watch_signal(stop);
        fprintf(stderr, "linx-system: stopped by %s at pc 0x%llx; logs and trace flushed\n",
                stop_sig == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)env->pc);
        status = 128 + stop_sig;
    }
    gdb_stub_report_exit(m->gdb, status, 0);
    gdb_stub_free(m->gdb);
    m->gdb = NULL;
    linx_exec_detach_cpu(ec, env);
    linx_exec_free(ec);
    linx_virt_free(m);
    free(env);
    linx_stop_watch_finish(stop); /* dies of SIGINT/SIGTERM if one stopped it */
    return status;
}
