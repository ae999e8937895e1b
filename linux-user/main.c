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
 *
 * The options are qemu-user's, spelled as qemu-user spells them (-cpu,
 * -E a=1,b=2, -L, -seed, -singlestep, ...), and every one has an
 * environment twin read before the command line (QEMU_X becomes LINX_X:
 * LINX_CPU, LINX_LOG, LINX_SET_ENV, ...; the table env_twins below).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <glib.h>
#include <unistd.h>

#include "gdbstub/gdbstub.h"
#include "linux-user.h"
#include "tcg/exec-stop.h"
#include "safe-syscall.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define LINX_USER_VERSION "linx-user (linxemu) " LINX_VERSION ", LinxISA v0.4"
#define EXIT_START_FAILED 1
#define EXIT_USAGE 2
#define EXIT_TIMEOUT 124 /* as timeout(1) */
#define MAX_ENV_EDITS 256
#define MAX_HOST_FDS 1024

extern char **environ;

typedef struct UserArgs {
    LinxExecOptions exec;
    const LinxProfile *profile; /* -cpu / LINX_CPU; NULL: auto */
    GdbStubConfig gdb;          /* -g PORT */
    LinuxOptions lu;
    const char *argv0;
    char *env_set[MAX_ENV_EDITS]; /* "VAR=VALUE" or "VAR" to unset (owned) */
    unsigned nenv;
} UserArgs;

enum {
    OPT_HELP,
    OPT_HELP_SHORT,
    OPT_VERSION,
    OPT_STRACE,
    OPT_SET_ENV,
    OPT_UNSET_ENV,
    OPT_ARGV0,
    OPT_STACK,
    OPT_PREFIX,
    OPT_SEED,
    OPT_SIGNAL_EXIT,
};

static const LinxOpt user_opts[] = {
    { "h", 0, NULL, "this text (also -help)", OPT_HELP_SHORT },
    { "help", 0, NULL, NULL, OPT_HELP },
    { "version", 0, NULL, "print the version", OPT_VERSION },
    { "strace", 0, NULL, "print every system call (to the -D log)", OPT_STRACE },
    { "E", 0, "VAR=VALUE[,...]", "set variables in the program's environment", OPT_SET_ENV },
    { "U", 0, "VAR[,...]", "remove variables from the program's environment", OPT_UNSET_ENV },
    { "0", 0, "ARGV0", "use ARGV0 as the program's argv[0]", OPT_ARGV0 },
    { "s", 0, "SIZE", "stack size (bytes, or with a K/M/G suffix; default 8M)", OPT_STACK },
    { "L", 0, "PATH",
      "sysroot: an absolute path the program opens is looked up\n"
      "under PATH first",
      OPT_PREFIX },
    { "seed", 0, "NUMBER", "seed AT_RANDOM and getrandom() (reproducible runs)", OPT_SEED },
    { "signal-exit", 0, NULL,
      "when the guest dies by signal N, die by host signal N (as a guest's\n"
      "child does, so its parent's wait sees it) instead of exiting 128+N",
      OPT_SIGNAL_EXIT },
    { NULL },
};

/* qemu-user's environment variables, as LINX_*: each sets the option. */
static const struct {
    const char *var, *option;
} env_twins[] = {
    { "LINX_CPU", "cpu" },
    { "LINX_ACCEL", "accel" },
    { "LINX_GDB", "g" },
    { "LINX_LOG", "d" },
    { "LINX_LOG_FILENAME", "D" },
    { "LINX_STRACE", "strace" },
    { "LINX_SINGLESTEP", "singlestep" },
    { "LINX_SET_ENV", "E" },
    { "LINX_UNSET_ENV", "U" },
    { "LINX_ARGV0", "0" },
    { "LINX_STACK_SIZE", "s" },
    { "LINX_LD_PREFIX", "L" },
    { "LINX_RAND_SEED", "seed" },
};

static void usage(FILE *f, const LinxOptGroup *groups, unsigned n)
{
    fprintf(f, "usage: linx-user [options] PROGRAM [ARGS...]\n"
               "Run a statically linked LinxISA Linux program.\n\n"
               "Options:\n");
    linx_opts_print_help(f, LINX_OPTS_QEMU, groups, n);
    fprintf(f, "\nEnvironment (read before the command line, which overrides it;\n"
               "qemu-user's QEMU_X is LINX_X here; a flag's variable is on unless 0):\n");
    for (size_t i = 0; i < sizeof(env_twins) / sizeof(env_twins[0]); i++) {
        fprintf(f, "  %-22s-%s\n", env_twins[i].var, env_twins[i].option);
    }
    fprintf(f, "  %-22s-trace-commit\n\n", "LINX_COMMIT_TRACE");
    fprintf(f, ""
               "Exit status: the program's, 128+N if signal N killed it, 1 if it could\n"
               "not be started, 2 for a bad command line, 124 when -timeout stopped it.\n");
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

/* -E a=1,b=2 / -U a,b: one edit per comma-separated item (qemu's lists). */
static int env_edits(UserArgs *ua, const char *list, bool set, char *err, size_t errlen)
{
    char *copy = strdup(list), *save = NULL;

    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (ua->nenv >= MAX_ENV_EDITS) {
            snprintf(err, errlen, "too many -E/-U variables (at most %d)", MAX_ENV_EDITS);
            free(copy);
            return -1;
        }
        if (set && !strchr(t, '=')) {
            snprintf(err, errlen, "-E needs VAR=VALUE, got '%s'", t);
            free(copy);
            return -1;
        }
        if (!set && strchr(t, '=')) {
            snprintf(err, errlen, "-U needs a variable name, got '%s'", t);
            free(copy);
            return -1;
        }
        ua->env_set[ua->nenv++] = strdup(t);
    }
    free(copy);
    return 0;
}

static int user_opt(void *opaque, int id, const char *val, char *err, size_t errlen)
{
    UserArgs *ua = opaque;
    char *end;

    switch (id) {
    case OPT_HELP:
    case OPT_HELP_SHORT:
        return 2; /* main prints the help: it has the groups */
    case OPT_VERSION:
        printf("%s\n", LINX_USER_VERSION);
        return 1;
    case OPT_STRACE:
        ua->lu.strace = true;
        return 0;
    case OPT_SET_ENV:
    case OPT_UNSET_ENV:
        return env_edits(ua, val, id == OPT_SET_ENV, err, errlen);
    case OPT_ARGV0:
        ua->argv0 = val;
        return 0;
    case OPT_STACK:
        if (!parse_size(val, &ua->lu.stack_size) || ua->lu.stack_size < 65536 ||
            ua->lu.stack_size > (UINT64_C(1) << 36)) {
            snprintf(err, errlen, "bad stack size '%s' (64K to 64G)", val);
            return -1;
        }
        return 0;
    case OPT_PREFIX:
        ua->lu.ld_prefix = val;
        return 0;
    case OPT_SIGNAL_EXIT:
        ua->lu.signal_exit = true;
        return 0;
    default:
        errno = 0;
        ua->lu.seed = strtoull(val, &end, 0);
        if (errno || end == val || *end) {
            snprintf(err, errlen, "-seed needs a number, got '%s'", val);
            return -1;
        }
        ua->lu.seeded = true;
        return 0;
    }
}

/* Apply the environment twins: each is the option it names, parsed by
 * the same tables before the command line (which overrides it). */
static int apply_env_twins(const LinxOptGroup *groups, unsigned n, char *err, size_t errlen)
{
    for (size_t t = 0; t < sizeof(env_twins) / sizeof(env_twins[0]); t++) {
        const char *v = getenv(env_twins[t].var);
        char opt[32];
        char *argv[3];
        int argc = 1, i = 0, r = 0;

        if (!v || !*v) {
            continue;
        }
        snprintf(opt, sizeof(opt), "-%s", env_twins[t].option);
        argv[0] = opt;
        argv[1] = (char *)v;
        argv[2] = NULL;
        for (unsigned g = 0; g < n && r == 0; g++) {
            for (const LinxOpt *o = groups[g].opts; o->name; o++) {
                if (strcmp(o->name, env_twins[t].option) == 0) {
                    if (!o->arg && !strcmp(v, "0")) {
                        r = 1; /* a flag set to 0: off */
                    } else {
                        argc = o->arg ? 2 : 1;
                        r = linx_opts_take(&groups[g], argc, argv, &i, err, errlen);
                    }
                    break;
                }
            }
        }
        if (r < 0) {
            char msg[320];
            snprintf(msg, sizeof(msg), "%.300s", err);
            snprintf(err, errlen, "%s=%.64s: %s", env_twins[t].var, v, msg);
            return -1;
        }
    }
    return 0;
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

/* execve of a LinxISA program runs this emulator again with these options
 * (the engine's accelerator and one-insn mode, -cpu, -L, -s, -strace,
 * -seed); linux-user/syscall-clone.c adds the program and its arguments. */
static char **reexec_argv(const UserArgs *ua)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    GPtrArray *v;

    if (n <= 0) {
        return NULL;
    }
    self[n] = 0;
    v = g_ptr_array_new();
    g_ptr_array_add(v, g_strdup(self));
    g_ptr_array_add(v, g_strdup("-accel"));
    g_ptr_array_add(v, g_strdup(ua->exec.accel == LINX_ACCEL_JIT ? "jit" : "interp"));
    if (ua->exec.one_insn_per_tb) {
        g_ptr_array_add(v, g_strdup("-one-insn-per-tb"));
    }
    if (ua->profile) {
        g_ptr_array_add(v, g_strdup("-cpu"));
        g_ptr_array_add(v, g_strdup(ua->profile->name));
    }
    if (ua->lu.ld_prefix) {
        g_ptr_array_add(v, g_strdup("-L"));
        g_ptr_array_add(v, g_strdup(ua->lu.ld_prefix));
    }
    if (ua->lu.stack_size) {
        g_ptr_array_add(v, g_strdup("-s"));
        g_ptr_array_add(v, g_strdup_printf("%llu", (unsigned long long)ua->lu.stack_size));
    }
    if (ua->lu.strace) {
        g_ptr_array_add(v, g_strdup("-strace"));
    }
    if (ua->lu.seeded) {
        g_ptr_array_add(v, g_strdup("-seed"));
        g_ptr_array_add(v, g_strdup_printf("%llu", (unsigned long long)ua->lu.seed));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, false);
}

static void free_args(UserArgs *ua)
{
    for (unsigned e = 0; e < ua->nenv; e++) {
        free(ua->env_set[e]);
    }
}

int main(int argc, char **argv)
{
    UserArgs ua;
    char err[512];
    int before[MAX_HOST_FDS], after[MAX_HOST_FDS];
    int status, first;

    memset(&ua, 0, sizeof(ua));
    linx_exec_options_init(&ua.exec);
    LinxOptGroup groups[] = {
        { NULL, user_opts, user_opt, &ua },
        linx_profile_option_group(&ua.profile),
        linx_exec_option_group(&ua.exec),
        gdb_stub_option_group(&ua.gdb, GDB_MODE_USER),
    };
    const unsigned ngroups = sizeof(groups) / sizeof(groups[0]);
    groups[1].title = NULL;
    groups[2].title = NULL;
    groups[3].title = NULL;

    status = apply_env_twins(groups, ngroups, err, sizeof(err));
    if (status == 0) {
        status = linx_opts_parse("linx-user", LINX_OPTS_QEMU, groups, ngroups, argc, argv, &first,
                                 err, sizeof(err));
    }
    if (status < 0) {
        fprintf(stderr, "linx-user: %s\n", err);
        free_args(&ua);
        return EXIT_USAGE;
    }
    if (status == 2) {
        usage(stdout, groups, ngroups);
    }
    if (status > 0) {
        free_args(&ua);
        return 0;
    }
    if (first >= argc) {
        fprintf(stderr, "linx-user: no program given\n");
        usage(stderr, groups, ngroups);
        free_args(&ua);
        return EXIT_USAGE;
    }
    ua.lu.log_unimp = (ua.exec.log_mask & LINX_LOG_UNIMP) != 0;
    /* A write to a closed pipe gives EPIPE and a guest SIGPIPE, not the
     * death of the emulator (syscall-file.c). */
    signal(SIGPIPE, SIG_IGN);
    /* Blocking calls of guest threads can be interrupted (safe-syscall.h). */
    linx_safe_syscall_init();
    char **reexec = reexec_argv(&ua);
    ua.lu.reexec_argv = reexec;

    /* -timeout, and SIGINT/SIGTERM when there is a log or a trace to
     * flush: the stop watcher (before any other thread starts). */
    LinxStopWatch *stop = NULL;
    if (ua.exec.timeout_ms || ua.exec.log_path || ua.exec.trace_commit_path) {
        stop = linx_stop_watch_new(ua.exec.timeout_ms, err, sizeof(err));
        if (!stop) {
            fprintf(stderr, "linx-user: %s\n", err);
            return EXIT_START_FAILED;
        }
    }

    unsigned nbefore = list_fds(before, MAX_HOST_FDS);
    LinxExecContext *ec = linx_exec_new(&ua.exec, err, sizeof(err));
    if (!ec) {
        fprintf(stderr, "linx-user: %s\n", err);
        free_args(&ua);
        g_strfreev(reexec);
        return EXIT_START_FAILED;
    }
    ua.lu.log = linx_log_file(linx_exec_log(ec));
    /* Before the descriptor list below: the stub's descriptors are ours. */
    GdbStub *gdb = NULL;
    if (ua.gdb.listen && !(gdb = gdb_stub_new(&ua.gdb, err, sizeof(err)))) {
        fprintf(stderr, "linx-user: %s\n", err);
        free_args(&ua);
        g_strfreev(reexec);
        return EXIT_START_FAILED;
    }

    LinuxProcess *p = linux_process_new(&ua.lu);
    char **envp = build_env(&ua);
    CPULinxState *env = calloc(1, sizeof(*env));
    if (!p || !envp || !env) {
        fprintf(stderr, "linx-user: out of memory\n");
        free_args(&ua);
        g_strfreev(reexec);
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
            /* Ours, and not for a program the guest executes. */
            linux_process_reserve_fd(p, after[i]);
            fcntl(after[i], F_SETFD, fcntl(after[i], F_GETFD) | FD_CLOEXEC);
        }
    }

    char **gargv = argv + first;
    int gargc = argc - first;
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
        /* The program's symbols for monitor bt/dis (not fatal). */
        if (gdb && !gdb_stub_load_symbols(gdb, p->exe_path ? p->exe_path : saved_argv0,
                                          p->image.load_bias, err, sizeof(err))) {
            fprintf(stderr, "linx-user: gdb stub without symbols: %s\n", err);
        }
        if (gdb) {
            size_t auxv_len = 0;
            uint8_t *auxv = linux_initial_auxv(p, &auxv_len);
            gdb_stub_set_auxv(gdb, auxv, auxv_len);
            free(auxv);
        }
        p->gdb = gdb;
        if (stop) {
            linx_exec_set_exit_check(ec, true); /* chained code sees the request */
            linx_stop_watch_arm(stop, &env->engine.exit_request);
            p->external_stop = linx_stop_watch_flag(stop);
        }
        status = linux_cpu_loop(p, env);
        if (!p->exited && linx_stop_watch_reason(stop) == LINX_STOP_TIMEOUT) {
            unsigned long ms = linx_stop_watch_timeout_ms(stop);
            fprintf(stderr,
                    "linx-user: timeout: the program ran longer than %lu.%03lu s (-timeout); "
                    "stopped at pc 0x%llx after %llu instructions\n",
                    ms / 1000, ms % 1000, (unsigned long long)env->pc,
                    (unsigned long long)env->insn_count);
            status = EXIT_TIMEOUT;
        } else if (!p->exited && linx_stop_watch_reason(stop) == LINX_STOP_SIGNAL) {
            int sig = linx_stop_watch_signal(stop);
            fprintf(stderr, "linx-user: stopped by %s at pc 0x%llx; logs and trace flushed\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)env->pc);
            status = 128 + sig;
        }
        gdb_stub_report_exit(gdb, status, p->term_signal);
        linx_exec_detach_cpu(ec, env);
    }
    fflush(ua.lu.log);
    gdb_stub_free(gdb);
    linx_exec_free(ec);
    /* -signal-exit (a guest's child): the guest's death by signal is ours. */
    linux_process_die_by_signal(p);
    linux_process_free(p);
    free(envp);
    free(env);
    g_strfreev(reexec);
    free_args(&ua);
    linx_stop_watch_finish(stop); /* dies of SIGINT/SIGTERM if one stopped it */
    return status;
}
