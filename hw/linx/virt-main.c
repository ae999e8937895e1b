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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "hw/linx/virt.h"
#include "tcg/exec.h"

#define LINX_SYSTEM_VERSION "linx-system (linxemu) 0.1.0, LinxISA v0.4, machine virt"
#define EXIT_START_FAILED 1
#define EXIT_USAGE 2
#define MIB_SHIFT 20

static void usage(FILE *f)
{
    fprintf(f, "usage: linx-system -M virt -kernel FILE [-m SIZE] [options]\n"
               "Run a bare-metal LinxISA program (ET_REL, ET_EXEC or ET_DYN) on the virt "
               "machine.\n\nOptions:\n"
               "  -M, -machine virt     the machine (virt is the only one)\n"
               "  -kernel FILE          the program to load (ET_REL .text at 0x10000)\n"
               "  -m SIZE               RAM size: MiB, or with a K/M/G suffix (default 128M)\n");
    linx_profile_print_option_help(f);
    linx_exec_print_options_help(f);
    gdb_stub_print_options_help(f, GDB_MODE_SYSTEM);
    fprintf(f, "  -nographic, -monitor none, -serial stdio, -smp 1, -bios none\n"
               "                        accepted for compatibility (no effect)\n"
               "  -h, -help             this text\n"
               "  -version              print the version\n\n"
               "Devices: UART data 0x10000000, EXIT 0x10000004 (a store ends the run with\n"
               "that status), test finisher 0x10009000 (0x5555 pass, 0x3333 fail).\n"
               "Exit status: the program's, 1 on an unhandled trap or a load error, 2 for a\n"
               "bad command line.\n");
}

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
    GdbStubConfig gdb; /* -gdb, -s, -S */
    const char *kernel;
    uint64_t ram_size;
} SystemArgs;

/* Returns -1 to go on, else the exit status. */
static int parse_args(SystemArgs *sa, int argc, char **argv)
{
    char err[256];
    int i = 1;

    while (i < argc) {
        int r = linx_exec_parse_option(&sa->exec, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-system: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        r = linx_profile_parse_option(&sa->profile, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-system: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        r = gdb_stub_parse_option(&sa->gdb, GDB_MODE_SYSTEM, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-system: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 1) {
            continue;
        }
        const char *a = argv[i];
        if (a[0] != '-') {
            fprintf(stderr, "linx-system: unexpected argument '%s' (the program is given with "
                            "-kernel FILE)\n", a);
            return EXIT_USAGE;
        }
        a += a[1] == '-' ? 2 : 1;
        if (!strcmp(a, "h") || !strcmp(a, "help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "version")) {
            printf("%s\n", LINX_SYSTEM_VERSION);
            return 0;
        }
        if (!strcmp(a, "nographic")) {
            i++;
            continue;
        }
        static const char *const with_arg[] = { "M", "machine", "kernel", "m", "monitor",
                                                "serial", "smp", "bios", "append", "initrd",
                                                "dtb", NULL };
        bool known = false;
        for (int k = 0; with_arg[k]; k++) {
            known |= !strcmp(a, with_arg[k]);
        }
        if (!known) {
            fprintf(stderr, "linx-system: unknown option '%s' (try linx-system -help)\n",
                    argv[i]);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "linx-system: option %s needs an argument\n", argv[i]);
            return EXIT_USAGE;
        }
        const char *v = argv[i + 1];
        i += 2;
        if (!strcmp(a, "M") || !strcmp(a, "machine")) {
            if (strcmp(v, "virt") != 0 && strncmp(v, "virt,", 5) != 0) {
                fprintf(stderr, "linx-system: unknown machine '%s' (only 'virt')\n", v);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "kernel")) {
            sa->kernel = v;
        } else if (!strcmp(a, "m")) {
            if (!parse_ram_size(v, &sa->ram_size)) {
                fprintf(stderr, "linx-system: bad memory size '%s' (e.g. 128, 256M, 1G)\n", v);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "monitor") || !strcmp(a, "serial") || !strcmp(a, "bios")) {
            static const char *const ok[] = { "none", "stdio", "mon:stdio", NULL };
            bool fine = false;
            for (int k = 0; ok[k]; k++) {
                fine |= !strcmp(v, ok[k]);
            }
            if (!fine) {
                fprintf(stderr, "linx-system: -%s %s is not supported (none or stdio)\n", a, v);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "smp")) {
            if (strcmp(v, "1") != 0 && strcmp(v, "cpus=1") != 0) {
                fprintf(stderr, "linx-system: -smp %s: only one CPU is supported\n", v);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "linx-system: -%s is not supported (no firmware, initrd or device "
                            "tree)\n", a);
            return EXIT_USAGE;
        }
    }
    if (!sa->kernel) {
        fprintf(stderr, "linx-system: no program given (-kernel FILE)\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!gdb_stub_check_config(&sa->gdb, err, sizeof(err))) {
        fprintf(stderr, "linx-system: %s\n", err);
        return EXIT_USAGE;
    }
    return -1;
}

int main(int argc, char **argv)
{
    SystemArgs sa;
    char err[512];
    int status;

    memset(&sa, 0, sizeof(sa));
    sa.ram_size = VIRT_RAM_DEFAULT;
    linx_exec_options_init(&sa.exec);
    status = parse_args(&sa, argc, argv);
    if (status >= 0) {
        return status;
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
    linx_exec_attach_cpu(ec, env);
    status = linx_virt_run(m, env);
    gdb_stub_report_exit(m->gdb, status, 0);
    gdb_stub_free(m->gdb);
    m->gdb = NULL;
    linx_exec_detach_cpu(ec, env);
    linx_exec_free(ec);
    linx_virt_free(m);
    free(env);
    return status;
}
