/*
 * linx-optest: running the cases of a suite (docs/optest.md "Running").
 *
 * The program is assembled once per suite (a .s/.S file, with the linx-as
 * library; its symbols come from the assembler) or opened as an ELF (its
 * symbol table).  Each case runs in a child process with an alarm, so a
 * guest that loops or crashes the run cannot take the runner with it:
 * the child boots a fresh machine (the virt board, or a Linux user-mode
 * process), writes the inputs into guest memory, runs the program to its
 * end, checks the exit status and compares every output with its golden,
 * then prints one result line.  What the guest printed (and a trap
 * report) goes to a temporary file that is shown when the case fails or
 * with --verbose.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hw/linx/virt.h"
#include "linux-user/linux-user.h"
#include "optest.h"
#include "tcg/exec.h"
#include "tools/linx-as/linx-as.h"
#include "util/elf-file.h"

enum {
    SHOW_OUTPUT_BYTES = 4096, /* guest output shown with a failure */
};

/* The program of a suite, ready to load. */
typedef struct OptProgram {
    char *path;      /* the ELF to load (a temporary file for assembly) */
    bool temp;
    LinxAs *as;      /* assembled: symbols from here */
    ElfFile elf;     /* else: symbols from the ELF */
    bool have_elf;
} OptProgram;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool program_open(const OptSuite *s, OptProgram *p, char *err, size_t errlen)
{
    char *src = g_path_is_absolute(s->program) ? g_strdup(s->program)
                                               : g_build_filename(s->mdir, s->program, NULL);

    memset(p, 0, sizeof(*p));
    if (ends_with(src, ".s") || ends_with(src, ".S")) {
        LinxAsOptions o;
        char tmpl[] = "/tmp/linx-optest-XXXXXX";
        int fd = mkstemp(tmpl);
        if (fd < 0) {
            snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
            g_free(src);
            return false;
        }
        close(fd);
        linx_as_default_options(&o);
        p->as = linx_as_new(&o);
        if (!linx_as_add_file(p->as, src) || !linx_as_assemble(p->as) ||
            !linx_as_write_file(p->as, tmpl)) {
            snprintf(err, errlen, "%s: assembly failed:\n%s", src,
                     linx_as_diagnostics(p->as));
            unlink(tmpl);
            g_free(src);
            return false;
        }
        p->path = g_strdup(tmpl);
        p->temp = true;
        g_free(src);
        return true;
    }
    if (!elf_file_open(&p->elf, src, err, errlen)) {
        g_free(src);
        return false;
    }
    p->have_elf = true;
    p->path = src;
    return true;
}

static void program_close(OptProgram *p)
{
    if (p->temp) {
        unlink(p->path);
    }
    if (p->as) {
        linx_as_free(p->as);
    }
    if (p->have_elf) {
        elf_file_close(&p->elf);
    }
    g_free(p->path);
}

static bool resolve(const OptProgram *p, const OptPlace *pl, uint64_t *addr)
{
    if (!pl->symbol) {
        *addr = pl->addr;
        return true;
    }
    if (p->as) {
        if (!linx_as_symbol_value(p->as, pl->symbol, addr)) {
            return false;
        }
    } else {
        bool found = false;
        for (unsigned i = 0; i < p->elf.nsymbols && !found; i++) {
            if (p->elf.symbols[i].name && strcmp(p->elf.symbols[i].name, pl->symbol) == 0) {
                *addr = p->elf.symbols[i].value;
                found = true;
            }
        }
        if (!found) {
            return false;
        }
    }
    *addr += pl->addr;
    return true;
}

/* ---------------------------------------------------------------------
 * One case, in the child
 * --------------------------------------------------------------------- */

typedef struct CaseRun {
    const OptSuite *s;
    const OptCase *c;
    const OptProgram *prog;
    const OptRunOptions *o;
    GuestMemory *gm;
    FILE *report;      /* the runner's stdout */
    GString *why;      /* failure reasons */
} CaseRun;

static bool load_inputs(CaseRun *r)
{
    char err[512];

    for (unsigned i = 0; i < r->c->ninputs; i++) {
        const OptInput *in = &r->c->inputs[i];
        char *path = opt_suite_file(r->s, in->file);
        OptTensor t;
        uint64_t addr;
        bool ok = opt_tensor_read(path, in->dtype, &t, err, sizeof(err));

        g_free(path);
        if (!ok) {
            g_string_append_printf(r->why, "input %s: %s; ", in->name, err);
            return false;
        }
        if (!resolve(r->prog, &in->at, &addr)) {
            g_string_append_printf(r->why, "input %s: no symbol '%s' in the program; ", in->name,
                                   in->at.symbol);
            opt_tensor_free(&t);
            return false;
        }
        if (guest_mem_debug_rw(r->gm, addr, t.data, t.bytes, true) != GM_OK) {
            g_string_append_printf(r->why, "input %s: %zu bytes at 0x%" PRIx64
                                   " are not in guest memory; ", in->name, t.bytes, addr);
            opt_tensor_free(&t);
            return false;
        }
        opt_tensor_free(&t);
    }
    return true;
}

static bool check_outputs(CaseRun *r)
{
    bool all = true;
    char err[512];

    for (unsigned i = 0; i < r->c->noutputs; i++) {
        const OptOutput *out = &r->c->outputs[i];
        char *path = opt_suite_file(r->s, out->golden);
        OptTensor g;
        OptCompare cmp;
        OptDType dt;
        uint64_t addr;
        uint8_t *got;
        bool ok = opt_tensor_read(path, out->dtype, &g, err, sizeof(err));

        g_free(path);
        if (!ok) {
            g_string_append_printf(r->why, "output %s: %s; ", out->name, err);
            all = false;
            continue;
        }
        dt = g.dtype;
        if (dt == OPT_DT_NONE) {
            g_string_append_printf(r->why, "output %s: give a dtype for the raw golden; ",
                                   out->name);
            opt_tensor_free(&g);
            all = false;
            continue;
        }
        if (!resolve(r->prog, &out->at, &addr)) {
            g_string_append_printf(r->why, "output %s: no symbol '%s' in the program; ",
                                   out->name, out->at.symbol);
            opt_tensor_free(&g);
            all = false;
            continue;
        }
        got = g_malloc(g.bytes ? g.bytes : 1);
        if (guest_mem_debug_rw(r->gm, addr, got, g.bytes, false) != GM_OK) {
            g_string_append_printf(r->why, "output %s: %zu bytes at 0x%" PRIx64
                                   " are not in guest memory; ", out->name, g.bytes, addr);
            all = false;
        } else if (!opt_compare(dt, got, &g, &out->tol, &cmp)) {
            g_string_append_printf(r->why, "output %s (%s): %zu of %zu elements differ, first "
                                   "[%zu]: got %.9g, want %.9g (max abs err %.3g, max rel err "
                                   "%.3g, rtol %g atol %g ulp %" PRIu64 "); ",
                                   out->name, opt_dtype_name(dt), cmp.mismatches, cmp.count,
                                   cmp.first_bad, cmp.got, cmp.want, cmp.max_abs, cmp.max_rel,
                                   out->tol.rtol, out->tol.atol, out->tol.ulp);
            all = false;
        } else if (r->o->verbose) {
            fprintf(r->report, "  output %s (%s, %zu elements): max abs err %.3g, max rel err "
                               "%.3g\n", out->name, opt_dtype_name(dt), cmp.count, cmp.max_abs,
                    cmp.max_rel);
        }
        g_free(got);
        opt_tensor_free(&g);
    }
    return all;
}

static LinxExecContext *new_exec(const OptRunOptions *o, char *err, size_t errlen)
{
    LinxExecOptions eo;

    linx_exec_options_init(&eo);
    eo.accel = strcmp(o->accel, "interp") == 0 ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT;
    return linx_exec_new(&eo, err, errlen);
}

static int run_virt(CaseRun *r, FILE *capture, int *status)
{
    char err[512];
    LinxExecContext *ec = new_exec(r->o, err, sizeof(err));
    LinxVirtMachine *m = ec ? linx_virt_new(r->s->ram_mib << 20, err, sizeof(err)) : NULL;
    CPULinxState *env;

    if (!m || !linx_virt_load(m, r->prog->path, err, sizeof(err))) {
        g_string_append_printf(r->why, "cannot start: %s; ", err);
        return -1;
    }
    env = calloc(1, sizeof(*env));
    m->quiet = true;
    m->uart_out = capture;
    m->uart_in_fd = -1;
    linx_virt_boot(m, env);
    for (unsigned i = 0; i < r->c->nargs && i < 6; i++) {
        env->gpr[LINX_REG_A0 + i] = g_ascii_strtoull(r->c->args[i], NULL, 0);
    }
    r->gm = m->mem;
    if (!load_inputs(r)) {
        return -1;
    }
    linx_exec_attach_cpu(ec, env);
    *status = linx_virt_run(m, env);
    return 0;
}

static int run_user(CaseRun *r, FILE *capture, int *status)
{
    char err[512];
    LinxExecContext *ec = new_exec(r->o, err, sizeof(err));
    LinuxOptions lo;
    LinuxProcess *p;
    CPULinxState *env;
    char *argv[OPT_MAX_ARGS + 2];
    char *envp[] = { NULL };
    int argc = 0;

    memset(&lo, 0, sizeof(lo));
    lo.log = capture;
    p = ec ? linux_process_new(&lo) : NULL;
    argv[argc++] = r->prog->path;
    for (unsigned i = 0; i < r->c->nargs; i++) {
        argv[argc++] = r->c->args[i];
    }
    argv[argc] = NULL;
    if (!p || !linux_load_program(p, r->prog->path, argc, argv, envp, err, sizeof(err))) {
        g_string_append_printf(r->why, "cannot start: %s; ", ec ? err : "no exec context");
        return -1;
    }
    r->gm = p->mem;
    if (!load_inputs(r)) {
        return -1;
    }
    env = calloc(1, sizeof(*env));
    linux_process_attach_cpu(p, env);
    linx_exec_attach_cpu(ec, env);
    *status = linux_cpu_loop(p, env);
    return 0;
}

/* The child: run, compare, print one line; the exit status says PASS. */
static _Noreturn void run_case_child(CaseRun *r, double timeout)
{
    FILE *capture = tmpfile();
    struct timespec t0, t1;
    int status = 0, rc;
    bool pass;

    alarm((unsigned)(timeout + 0.999));
    if (r->o->reference) {
        setenv("LINX_TEPL_REFERENCE", "1", 1);
    }
    /* The guest's output (virt UART, user-mode fds 1/2) and reports go
     * to the capture file; results go to the runner's stdout. */
    r->report = fdopen(dup(STDOUT_FILENO), "w");
    if (!capture || !r->report) {
        _exit(2);
    }
    fflush(stdout);
    dup2(fileno(capture), STDOUT_FILENO);
    dup2(fileno(capture), STDERR_FILENO);
    r->why = g_string_new(NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = r->s->machine == OPT_MACHINE_USER ? run_user(r, capture, &status)
                                           : run_virt(r, capture, &status);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fflush(capture);
    pass = rc == 0;
    if (pass && status != r->c->status) {
        g_string_append_printf(r->why, "exit status %d, expected %d; ", status, r->c->status);
        pass = false;
    }
    if (rc == 0 && !check_outputs(r)) {
        pass = false;
    }
    if (pass) {
        if (!r->o->quiet) {
            fprintf(r->report, "PASS %s/%s (%.3f s)\n", r->s->name, r->c->name,
                    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
        }
    } else {
        fprintf(r->report, "FAIL %s/%s: %s\n", r->s->name, r->c->name, r->why->str);
    }
    if (!pass || r->o->verbose) {
        char buf[SHOW_OUTPUT_BYTES + 1];
        long end = ftell(capture);
        size_t n;
        fseek(capture, end > SHOW_OUTPUT_BYTES ? end - SHOW_OUTPUT_BYTES : 0, SEEK_SET);
        n = fread(buf, 1, SHOW_OUTPUT_BYTES, capture);
        buf[n] = 0;
        if (n) {
            fprintf(r->report, "  --- guest output and reports ---\n%s%s", buf,
                    buf[n - 1] == '\n' ? "" : "\n");
        }
    }
    fflush(r->report);
    _exit(pass ? 0 : 1);
}

void opt_run_suite(const OptSuite *s, const OptRunOptions *o, char *const *only,
                   unsigned *passed, unsigned *failed)
{
    OptProgram prog;
    char err[4096];

    if (!program_open(s, &prog, err, sizeof(err))) {
        printf("FAIL %s: %s\n", s->name, err);
        *failed += s->ncases;
        return;
    }
    for (unsigned i = 0; i < s->ncases; i++) {
        const OptCase *c = &s->cases[i];
        CaseRun r = { s, c, &prog, o, NULL, NULL, NULL };
        bool selected = !only;
        int wst;
        pid_t pid;

        for (char *const *p = only; p && *p && !selected; p++) {
            selected = strcmp(*p, c->name) == 0;
        }
        if (!selected) {
            continue;
        }
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            run_case_child(&r, s->timeout);
        }
        if (pid < 0 || waitpid(pid, &wst, 0) != pid) {
            printf("FAIL %s/%s: cannot run the case: %s\n", s->name, c->name, strerror(errno));
            (*failed)++;
            continue;
        }
        if (WIFEXITED(wst) && WEXITSTATUS(wst) == 0) {
            (*passed)++;
        } else {
            if (WIFSIGNALED(wst)) {
                printf("FAIL %s/%s: %s\n", s->name, c->name,
                       WTERMSIG(wst) == SIGALRM ? "timed out (timeout in [suite])"
                                                : strsignal(WTERMSIG(wst)));
            }
            (*failed)++;
        }
    }
    program_close(&prog);
}
