/*
 * linx-user: run a statically linked LinxISA Linux program on this host
 * (like qemu-<arch>).
 *
 *   linx-user [options] PROGRAM [ARGS...]
 *
 * The program gets the host's environment (changed by -E/-U), its own
 * address space, and the host's files and descriptors.  linx-user exits
 * with the program's exit status, 128 + N when signal N killed it, and 1
 * when it cannot start it (the message says why), 2 for a bad command
 * line.  docs/linux-user.md describes the options and what is supported.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub.h"
#include "linux-user.h"
#include "tcg/exec.h"

#define LINX_USER_VERSION "linx-user (linxemu) 0.1.0, LinxISA v0.4"
#define EXIT_START_FAILED 1
#define EXIT_USAGE 2
#define MAX_ENV_EDITS 256
#define MAX_HOST_FDS 1024

extern char **environ;

typedef struct UserArgs {
    LinxExecOptions exec;
    const LinxProfile *profile; /* -cpu / LINX_CPU; NULL: auto */
    GdbStubConfig gdb; /* -g PORT */
    LinuxOptions lu;
    const char *argv0;
    const char *env_set[MAX_ENV_EDITS]; /* "VAR=VALUE" or "VAR" to unset */
    unsigned nenv;
    int prog_index;
} UserArgs;

static void usage(FILE *f)
{
    fprintf(f, "usage: linx-user [options] PROGRAM [ARGS...]\n"
               "Run a statically linked LinxISA Linux program.\n\n"
               "Options:\n");
    linx_profile_print_option_help(f);
    linx_exec_print_options_help(f);
    gdb_stub_print_options_help(f, GDB_MODE_USER);
    fprintf(f, "  -strace               print every system call (to the -D log)\n"
               "  -E VAR=VALUE          set VAR in the program's environment\n"
               "  -U VAR                remove VAR from the program's environment\n"
               "  -0 ARGV0              use ARGV0 as the program's argv[0]\n"
               "  -s SIZE               stack size (bytes, or with a K/M suffix; default 8M)\n"
               "  -h, -help             this text\n"
               "  -version              print the version\n\n"
               "Exit status: the program's, 128+N if signal N killed it, 1 if it could\n"
               "not be started, 2 for a bad command line.\n");
}

static bool parse_size(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || end == s) {
        return false;
    }
    if (*end == 'k' || *end == 'K') {
        v <<= 10;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v <<= 20;
        end++;
    } else if (*end == 'g' || *end == 'G') {
        v <<= 30;
        end++;
    }
    if (*end) {
        return false;
    }
    *out = v;
    return true;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(UserArgs *ua, int argc, char **argv)
{
    char err[256];
    int i = 1;

    while (i < argc && argv[i][0] == '-') {
        const char *a = argv[i];
        int r = linx_exec_parse_option(&ua->exec, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-user: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        r = linx_profile_parse_option(&ua->profile, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-user: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        r = gdb_stub_parse_option(&ua->gdb, GDB_MODE_USER, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-user: %s\n", err);
            return EXIT_USAGE;
        }
        if (r == 1) {
            continue;
        }
        if (a[1] == '-') {
            a++;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "-help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "-version")) {
            printf("%s\n", LINX_USER_VERSION);
            return 0;
        }
        if (!strcmp(a, "-strace")) {
            ua->lu.strace = true;
            i++;
            continue;
        }
        if (!strcmp(a, "-E") || !strcmp(a, "-U") || !strcmp(a, "-0") || !strcmp(a, "-s")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "linx-user: option %s needs an argument\n", argv[i]);
                return EXIT_USAGE;
            }
            const char *val = argv[i + 1];
            if (!strcmp(a, "-0")) {
                ua->argv0 = val;
            } else if (!strcmp(a, "-s")) {
                if (!parse_size(val, &ua->lu.stack_size) || ua->lu.stack_size < 65536 ||
                    ua->lu.stack_size > (UINT64_C(1) << 36)) {
                    fprintf(stderr, "linx-user: bad stack size '%s' (64K to 64G)\n", val);
                    return EXIT_USAGE;
                }
            } else {
                if (ua->nenv >= MAX_ENV_EDITS) {
                    fprintf(stderr, "linx-user: too many -E/-U options\n");
                    return EXIT_USAGE;
                }
                if (!strcmp(a, "-E") && !strchr(val, '=')) {
                    fprintf(stderr, "linx-user: -E needs VAR=VALUE, got '%s'\n", val);
                    return EXIT_USAGE;
                }
                if (!strcmp(a, "-U") && strchr(val, '=')) {
                    fprintf(stderr, "linx-user: -U needs a variable name, got '%s'\n", val);
                    return EXIT_USAGE;
                }
                ua->env_set[ua->nenv++] = val;
            }
            i += 2;
            continue;
        }
        fprintf(stderr, "linx-user: unknown option '%s' (try linx-user -help)\n", argv[i]);
        return EXIT_USAGE;
    }
    if (i >= argc) {
        fprintf(stderr, "linx-user: no program given\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    ua->prog_index = i;
    return -1;
}

/* The program's environment: the host's, edited by -E and -U. */
static char **build_env(const UserArgs *ua)
{
    size_t n = 0;

    while (environ && environ[n]) {
        n++;
    }
    char **env = calloc(n + ua->nenv + 1, sizeof(char *));
    size_t k = 0;
    if (!env) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        env[k++] = environ[i];
    }
    for (unsigned e = 0; e < ua->nenv; e++) {
        const char *s = ua->env_set[e];
        const char *eq = strchr(s, '=');
        size_t name_len = eq ? (size_t)(eq - s) : strlen(s);
        size_t out = 0;
        for (size_t i = 0; i < k; i++) {
            if (strncmp(env[i], s, name_len) == 0 && env[i][name_len] == '=') {
                continue;
            }
            env[out++] = env[i];
        }
        k = out;
        if (eq) {
            env[k++] = (char *)s;
        }
    }
    env[k] = NULL;
    return env;
}

/* Open host descriptors (to tell the emulator's own from the guest's). */
static unsigned list_fds(int *fds, unsigned max)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *de;
    unsigned n = 0;

    if (!d) {
        return 0;
    }
    int self = dirfd(d);
    while ((de = readdir(d)) && n < max) {
        char *end;
        long fd = strtol(de->d_name, &end, 10);
        if (*end == 0 && end != de->d_name && fd != self) {
            fds[n++] = (int)fd;
        }
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    UserArgs ua;
    char err[512];
    int before[MAX_HOST_FDS], after[MAX_HOST_FDS];
    int status;

    memset(&ua, 0, sizeof(ua));
    linx_exec_options_init(&ua.exec);
    const char *cpu_env = getenv("LINX_CPU");
    if (cpu_env && *cpu_env && !linx_profile_parse_name(cpu_env, &ua.profile, err, sizeof(err))) {
        fprintf(stderr, "linx-user: LINX_CPU: %s\n", err);
        return EXIT_USAGE;
    }
    status = parse_args(&ua, argc, argv);
    if (status >= 0) {
        return status;
    }
    ua.lu.log_unimp = (ua.exec.log_mask & LINX_LOG_UNIMP) != 0;
    /* A write to a closed pipe gives EPIPE and a guest SIGPIPE, not the
     * death of the emulator (syscall-file.c). */
    signal(SIGPIPE, SIG_IGN);

    unsigned nbefore = list_fds(before, MAX_HOST_FDS);
    LinxExecContext *ec = linx_exec_new(&ua.exec, err, sizeof(err));
    if (!ec) {
        fprintf(stderr, "linx-user: %s\n", err);
        return EXIT_START_FAILED;
    }
    ua.lu.log = linx_log_file(linx_exec_log(ec));
    /* Before the descriptor list below: the stub's descriptors are ours. */
    GdbStub *gdb = NULL;
    if (ua.gdb.listen && !(gdb = gdb_stub_new(&ua.gdb, err, sizeof(err)))) {
        fprintf(stderr, "linx-user: %s\n", err);
        return EXIT_START_FAILED;
    }

    LinuxProcess *p = linux_process_new(&ua.lu);
    char **envp = build_env(&ua);
    CPULinxState *env = calloc(1, sizeof(*env));
    if (!p || !envp || !env) {
        fprintf(stderr, "linx-user: out of memory\n");
        return EXIT_START_FAILED;
    }
    /* Descriptors linx_exec_new opened (-D log, commit trace) are ours. */
    unsigned nafter = list_fds(after, MAX_HOST_FDS);
    for (unsigned i = 0; i < nafter; i++) {
        bool old = false;
        for (unsigned j = 0; j < nbefore && !old; j++) {
            old = after[i] == before[j];
        }
        if (!old) {
            linux_process_reserve_fd(p, after[i]);
        }
    }

    char **gargv = argv + ua.prog_index;
    int gargc = argc - ua.prog_index;
    const char *saved_argv0 = gargv[0];
    if (ua.argv0) {
        gargv[0] = (char *)ua.argv0;
    }
    if (!linux_load_program(p, saved_argv0, gargc, gargv, envp, err, sizeof(err))) {
        fprintf(stderr, "linx-user: %s\n", err);
        status = EXIT_START_FAILED;
    } else {
        char why[160];
        if (ua.profile) {
            env->profile = ua.profile;
            snprintf(why, sizeof(why), "-cpu %s", ua.profile->name);
        } else {
            env->profile = linx_profile_decide(&p->profile_vote, why, sizeof(why));
        }
        if (ua.exec.log_mask & (LINX_LOG_CPU | LINX_LOG_IN_ASM)) {
            fprintf(ua.lu.log, "profile: %s (%s)\n", env->profile->name, why);
        }
        linux_process_attach_cpu(p, env);
        linx_exec_attach_cpu(ec, env);
        p->gdb = gdb;
        status = linux_cpu_loop(p, env);
        gdb_stub_report_exit(gdb, status, p->term_signal);
        linx_exec_detach_cpu(ec, env);
    }
    fflush(ua.lu.log);
    gdb_stub_free(gdb);
    linx_exec_free(ec);
    linux_process_free(p);
    free(envp);
    free(env);
    return status;
}
