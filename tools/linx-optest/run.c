/*
 * linx-optest: one case, in a child process (docs/optest.md "Running").
 *
 * The runner forks a child per case (sched.c keeps up to -j of them), so
 * a guest that loops or crashes the emulator cannot take the runner with
 * it: the child arms a timer at the case's time limit, boots a fresh
 * machine (the virt board, or a Linux user-mode process), writes the
 * inputs into guest memory, runs the program to its end, checks the exit
 * status and compares every output with its golden.  It sends one binary
 * record (this file's encoding; the runner and the child are the same
 * program) through a pipe and exits.  What the guest printed (and a trap
 * report) goes to a capture file the runner created, whose tail is kept
 * with a failure.  A child killed by its timer is a timeout, by another
 * signal a crash; the runner tells which from the wait status.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "hw/linx/buffers.h"
#include "hw/linx/virt.h"
#include "linux-user/linux-user.h"
#include "optest.h"
#include "target/linx/tma-translate.h"
#include "target/linx/trap-report.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

enum {
    RECORD_MAGIC = 0x4f505452, /* "OPTR" */
};

const char *opt_status_name(OptStatus s)
{
    return s == OPT_PASS ? "pass" : s == OPT_FAIL ? "fail" : "skip";
}

const char *opt_fail_kind_name(OptFailKind k)
{
    static const char *const names[] = { "none",   "mismatch", "exit-status", "timeout",
                                         "signal", "setup",    "interrupted", "trap" };

    return (unsigned)k < G_N_ELEMENTS(names) ? names[k] : "none";
}

void opt_result_free(OptResult *r)
{
    g_free(r->suite);
    g_free(r->name);
    g_free(r->manifest);
    g_free(r->params);
    g_free(r->message);
    g_free(r->output);
    g_free(r->mm_output);
    g_free(r->verbose);
    memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------------
 * The record
 * --------------------------------------------------------------------- */

typedef struct RecordHead {
    uint32_t magic;
    uint32_t status, kind, have_mm, mm_dtype;
    double phase[4];
    uint64_t tbs;
    OptCompare mm;
} RecordHead;

static void put_str(GString *g, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;

    g_string_append_len(g, (const char *)&n, sizeof(n));
    if (s) {
        g_string_append_len(g, s, n);
    }
}

static bool get_str(const uint8_t **p, const uint8_t *end, char **out)
{
    uint32_t n;

    if ((size_t)(end - *p) < sizeof(n)) {
        return false;
    }
    memcpy(&n, *p, sizeof(n));
    *p += sizeof(n);
    if (n == UINT32_MAX) {
        *out = NULL;
        return true;
    }
    if ((size_t)(end - *p) < n) {
        return false;
    }
    *out = g_strndup((const char *)*p, n);
    *p += n;
    return true;
}

bool opt_result_decode(const uint8_t *buf, size_t len, OptResult *r)
{
    const uint8_t *p = buf + sizeof(RecordHead), *end = buf + len;
    RecordHead h;

    if (len < sizeof(h)) {
        return false;
    }
    memcpy(&h, buf, sizeof(h));
    if (h.magic != RECORD_MAGIC || h.status > OPT_SKIP || h.kind > OPT_FK__LAST) {
        return false;
    }
    r->status = (OptStatus)h.status;
    r->kind = (OptFailKind)h.kind;
    r->have_mismatch = h.have_mm != 0;
    r->mm_dtype = (OptDType)h.mm_dtype;
    memcpy(r->phase, h.phase, sizeof(r->phase));
    r->tbs_translated = h.tbs;
    r->mm = h.mm;
    if (!get_str(&p, end, &r->message) || !get_str(&p, end, &r->mm_output) ||
        !get_str(&p, end, &r->verbose)) {
        return false;
    }
    /* A worker adds the guest's output (opt_record_add_output). */
    return p == end || get_str(&p, end, &r->output);
}

void opt_record_add_output(GString *rec, int fd_capture, bool verbose)
{
    RecordHead h;
    struct stat st;
    char *tail = NULL;

    memcpy(&h, rec->str, sizeof(h));
    if ((h.status != OPT_PASS || verbose) && fstat(fd_capture, &st) == 0 && st.st_size > 0) {
        off_t from = st.st_size > OPT_OUTPUT_TAIL ? st.st_size - OPT_OUTPUT_TAIL : 0;
        ssize_t n;
        tail = g_malloc((size_t)(st.st_size - from) + 1);
        n = pread(fd_capture, tail, (size_t)(st.st_size - from), from);
        if (n <= 0) {
            g_free(tail);
            tail = NULL;
        } else {
            tail[n] = 0;
        }
    }
    put_str(rec, tail);
    g_free(tail);
}

/* ---------------------------------------------------------------------
 * The child
 * --------------------------------------------------------------------- */

typedef struct CaseRun {
    const OptSuite *s;
    const OptCase *c;
    const OptProgram *prog;
    const OptRunOptions *o;
    GuestMemory *gm;
    GString *why;      /* failure reasons */
    GString *verbose;  /* --verbose figures */
    OptFailKind kind;
    bool have_mm;
    char *mm_output;
    OptDType mm_dtype;
    OptCompare mm;
    LinxExecContext *ec;
    LinxBuffers *buffers; /* the tile buffer windows (virt), else NULL */
    /* How the run ended: in a trap the machine did not handle (virt:
     * an unhandled trap; user: a death by a fault's signal). */
    CPULinxState *env;
    bool trapped;
} CaseRun;

static void set_kind(CaseRun *r, OptFailKind k)
{
    if (r->kind == OPT_FK_NONE) {
        r->kind = k;
    }
}

/* Copy @len bytes between @buf and place @pl (@what: "input a", for
 * the reason in r->why when it fails): a tile buffer through the device
 * model (its storage, as an engine would; the windows are devices, which
 * debugger accesses leave alone), else guest memory. */
static bool place_rw(CaseRun *r, const OptPlace *pl, void *buf, size_t len, bool is_write,
                     const char *what)
{
    uint64_t addr;

    if (pl->buffer >= 0) {
        const char *name = linx_buffer_name(pl->buffer);
        const LinxBuffer *b;
        uint64_t skew;
        uint8_t *host;

        if (!r->buffers) {
            g_string_append_printf(r->why, "%s: the tile buffer windows (%s) exist on the "
                                   "virt machine only; ", what, name);
            return false;
        }
        b = &r->buffers->buf[pl->buffer];
        skew = pl->addr % b->align; /* engine operands are aligned; test data need not be */
        if (linx_buffer_range(r->buffers, (LinxBufferId)pl->buffer, pl->addr - skew, len + skew,
                              &host) != LINX_BUF_OK) {
            g_string_append_printf(r->why, "%s: %zu bytes at %s+0x%" PRIx64 " pass the end of "
                                   "%s (%u bytes in the %s profile); ", what, len, name,
                                   pl->addr, name, b->size,
                                   linx_buffer_profile_name(r->buffers->profile));
            return false;
        }
        if (is_write) {
            memcpy(host + skew, buf, len);
        } else {
            memcpy(buf, host + skew, len);
        }
        return true;
    }
    if (!opt_program_resolve(r->prog, pl, &addr)) {
        g_string_append_printf(r->why, "%s: no symbol '%s' in the program; ", what, pl->symbol);
        return false;
    }
    if (guest_mem_debug_rw(r->gm, addr, buf, len, is_write) != GM_OK) {
        g_string_append_printf(r->why, "%s: %zu bytes at 0x%" PRIx64 " are not in guest "
                               "memory; ", what, len, addr);
        return false;
    }
    return true;
}

static bool load_inputs(CaseRun *r)
{
    char err[512];

    for (unsigned i = 0; i < r->c->ninputs; i++) {
        const OptInput *in = &r->c->inputs[i];
        char *path = opt_case_file(r->s, r->c, in->file);
        OptTensor t;
        bool ok = opt_tensor_read(path, in->dtype, &t, err, sizeof(err));

        g_free(path);
        if (!ok) {
            g_string_append_printf(r->why, "input %s: %s; ", in->name, err);
            return false;
        }
        g_snprintf(err, sizeof(err), "input %s", in->name);
        if (!place_rw(r, &in->at, t.data, t.bytes, true, err)) {
            opt_tensor_free(&t);
            return false;
        }
        opt_tensor_free(&t);
    }
    return true;
}

static void shape_text(const OptTensor *g, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "[");

    for (unsigned d = 0; d < g->ndim && n < len; d++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu64, d ? ", " : "", g->shape[d]);
    }
    if (n < len) {
        snprintf(buf + n, len - n, "]");
    }
}

static bool check_output(CaseRun *r, const OptOutput *out)
{
    char err[512], coord[160], vals[256], shape[160];
    char *path = opt_case_file(r->s, r->c, out->golden);
    OptTensor g;
    OptCompare cmp;
    uint8_t *got;
    bool ok = opt_tensor_read(path, out->dtype, &g, err, sizeof(err));

    g_free(path);
    if (!ok) {
        g_string_append_printf(r->why, "output %s: %s; ", out->name, err);
        set_kind(r, OPT_FK_SETUP);
        return false;
    }
    if (g.dtype == OPT_DT_NONE) {
        g_string_append_printf(r->why, "output %s: give a dtype for the raw golden; ", out->name);
        set_kind(r, OPT_FK_SETUP);
        opt_tensor_free(&g);
        return false;
    }
    got = g_malloc(g.bytes ? g.bytes : 1);
    ok = false;
    shape_text(&g, shape, sizeof(shape));
    g_snprintf(err, sizeof(err), "output %s", out->name);
    if (!place_rw(r, &out->at, got, g.bytes, false, err)) {
        set_kind(r, OPT_FK_SETUP);
    } else if (!opt_compare(g.dtype, got, &g, &out->tol, &cmp)) {
        opt_format_coord(&cmp, coord, sizeof(coord));
        opt_format_values(g.dtype, &cmp, vals, sizeof(vals));
        g_string_append_printf(r->why, "output %s (%s %s): %zu of %zu elements differ, first "
                               "at %s: %s (max abs err %.3g, max rel err %.3g; rtol %g atol %g "
                               "ulp %" PRIu64 "); ",
                               out->name, opt_dtype_name(g.dtype), shape, cmp.mismatches,
                               cmp.count, coord, vals, cmp.max_abs, cmp.max_rel, out->tol.rtol,
                               out->tol.atol, out->tol.ulp);
        set_kind(r, OPT_FK_MISMATCH);
        if (!r->have_mm) {
            r->have_mm = true;
            r->mm = cmp;
            r->mm_dtype = g.dtype;
            r->mm_output = g_strdup(out->name);
        }
    } else {
        g_string_append_printf(r->verbose, "output %s (%s %s, %zu elements): max abs err %.3g, "
                               "max rel err %.3g\n", out->name, opt_dtype_name(g.dtype), shape,
                               cmp.count, cmp.max_abs, cmp.max_rel);
        ok = true;
    }
    g_free(got);
    opt_tensor_free(&g);
    return ok;
}

static LinxExecContext *new_exec(const OptRunOptions *o, char *err, size_t errlen)
{
    LinxExecOptions eo;

    linx_exec_options_init(&eo);
    eo.accel = strcmp(o->accel, "interp") == 0 ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT;
    return linx_exec_new(&eo, err, errlen);
}

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------
 * Machines
 * --------------------------------------------------------------------- */

/*
 * The virt machine a process runs its cases on.  Without reuse (a
 * process per case) it is made for the case and never freed (the process
 * exits).  With reuse (a worker) it stays: RAM is tracked from its birth,
 * a snapshot is taken after a program is loaded and booted, and the next
 * case of the same program restores it (only the pages written since),
 * keeping the translations; another program first puts every written
 * page back to zero, which drops the old program's translations as its
 * code pages change.  The devices and the tile state are reset and the
 * CPU is cleared and booted for every case.
 */
struct OptMachines {
    const OptRunOptions *o;
    bool reuse;
    LinxExecContext *ec;
    LinxVirtMachine *m;
    uint64_t ram_size;
    CPULinxState *env;
    const OptProgram *prog; /* loaded in m */
    GuestMemSnapshot *snap;
    uint64_t tbs_before;    /* translations made before the current case */
    double build_time;      /* building the next case's program (a worker) */
};

void opt_machines_note_build(OptMachines *mc, double seconds)
{
    mc->build_time = seconds;
}

OptMachines *opt_machines_new(const OptRunOptions *o, bool reuse)
{
    OptMachines *mc = g_new0(OptMachines, 1);

    mc->o = o;
    mc->reuse = reuse;
    return mc;
}

static void drop_virt(OptMachines *mc)
{
    guest_mem_snapshot_free(mc->snap);
    mc->snap = NULL;
    if (mc->ec && mc->env) {
        linx_exec_detach_cpu(mc->ec, mc->env);
    }
    linx_exec_free(mc->ec);
    linx_virt_free(mc->m);
    mc->ec = NULL;
    mc->m = NULL;
    mc->prog = NULL;
}

void opt_machines_free(OptMachines *mc)
{
    if (mc) {
        drop_virt(mc);
        free(mc->env);
        g_free(mc);
    }
}

/* A machine with @ram_size bytes of RAM running @prog, booted on mc->env:
 * false with the reason in @err. */
static bool virt_ready(OptMachines *mc, uint64_t ram_size, const OptProgram *prog, char *err,
                       size_t errlen)
{
    bool fresh = false;

    if (!mc->env && !(mc->env = malloc(sizeof(*mc->env)))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    if (mc->m && (!mc->reuse || mc->ram_size != ram_size)) {
        drop_virt(mc);
    }
    if (!mc->m) {
        mc->ec = new_exec(mc->o, err, errlen);
        mc->m = mc->ec ? linx_virt_new(ram_size, err, errlen) : NULL;
        if (!mc->m) {
            return false;
        }
        mc->ram_size = ram_size;
        if (mc->reuse && !guest_mem_track_dirty(mc->m->mem)) {
            mc->reuse = false; /* the host cannot track: a fresh machine per case */
        }
        fresh = true;
    } else if (mc->prog == prog && mc->snap) {
        /* Same program: back to its snapshot (the layout never changes
         * on virt; if it did, start over). */
        if (!guest_mem_snapshot_restore(mc->m->mem, mc->snap, NULL)) {
            drop_virt(mc);
            return virt_ready(mc, ram_size, prog, err, errlen);
        }
        linx_virt_reset_devices(mc->m);
    } else {
        guest_mem_snapshot_free(mc->snap);
        mc->snap = NULL;
        mc->prog = NULL;
        if (!guest_mem_reset_zero(mc->m->mem, NULL)) {
            drop_virt(mc);
            return virt_ready(mc, ram_size, prog, err, errlen);
        }
        linx_virt_reset_devices(mc->m);
        fresh = true;
    }
    if (fresh &&
        !linx_virt_load_image(mc->m, opt_program_elf(prog), opt_program_source(prog), err, errlen)) {
        drop_virt(mc);
        return false;
    }
    /* A fresh CPU, as calloc gives one; the TLB and the jump cache are
     * set by linx_exec_attach_cpu (load_inputs is done before it, through
     * the checked path, which uses neither). */
    memset(mc->env, 0, offsetof(CPULinxState, engine.tlb));
    memset((char *)mc->env + offsetof(CPULinxState, engine.tb_jmp_cache) +
               sizeof(mc->env->engine.tb_jmp_cache),
           0,
           sizeof(*mc->env) - offsetof(CPULinxState, engine.tb_jmp_cache) -
               sizeof(mc->env->engine.tb_jmp_cache));
    linx_virt_boot(mc->m, mc->env);
    if (fresh) {
        mc->prog = prog;
        if (mc->reuse) {
            mc->snap = guest_mem_snapshot_take(mc->m->mem);
        }
    }
    return true;
}

/* Returns 0 when the program ran (*status set), -1 when it could not
 * start; @ph gets the phase times. */
static int run_virt(CaseRun *r, OptMachines *mc, FILE *capture, int *status, double *ph)
{
    char err[512];
    double t0 = now(), t1;
    LinxVirtMachine *m;
    CPULinxState *env;
    LinxExecStats st;

    if (!virt_ready(mc, r->s->ram_mib << 20, r->prog, err, sizeof(err))) {
        g_string_append_printf(r->why, "cannot start: %s; ", err);
        return -1;
    }
    m = mc->m;
    env = mc->env;
    r->ec = mc->ec;
    linx_exec_get_stats(mc->ec, &st);
    mc->tbs_before = st.tbs_translated;
    m->quiet = true;
    m->uart_out = capture;
    m->uart_in_fd = -1;
    for (unsigned i = 0; i < r->c->nargs && i < 6; i++) {
        env->gpr[LINX_REG_A0 + i] = g_ascii_strtoull(r->c->args[i], NULL, 0);
    }
    r->gm = m->mem;
    r->buffers = m->buffers;
    t1 = now();
    ph[0] = t1 - t0;
    if (!load_inputs(r)) {
        return -1;
    }
    linx_exec_attach_cpu(mc->ec, env);
    ph[1] = now() - t1;
    *status = linx_virt_run(m, env);
    r->env = env;
    r->trapped = m->stop == VIRT_STOP_TRAP;
    return 0;
}

/* Linux user mode: a process per case (run_case refuses it in a
 * worker: a guest's system calls act on the host process). */
static int run_user(CaseRun *r, FILE *capture, int *status, double *ph)
{
    char err[512];
    double t0 = now(), t1;
    LinxExecContext *ec = new_exec(r->o, err, sizeof(err));
    LinuxOptions lo;
    LinuxProcess *p;
    CPULinxState *env;
    char *argv[OPT_MAX_ARGS + 2];
    char *envp[] = { NULL };
    int argc = 0;

    r->ec = ec;
    memset(&lo, 0, sizeof(lo));
    lo.log = capture;
    p = ec ? linux_process_new(&lo) : NULL;
    argv[argc++] = (char *)opt_program_path(r->prog);
    for (unsigned i = 0; i < r->c->nargs; i++) {
        argv[argc++] = r->c->args[i];
    }
    argv[argc] = NULL;
    if (!p || !opt_program_path(r->prog) ||
        !linux_load_program(p, opt_program_path(r->prog), argc, argv, envp, err, sizeof(err))) {
        g_string_append_printf(r->why, "cannot start: %s; ",
                               !ec ? "no exec context"
                               : !opt_program_path(r->prog) ? "the program has no file" : err);
        return -1;
    }
    r->gm = p->mem;
    t1 = now();
    ph[0] = t1 - t0;
    if (!load_inputs(r)) {
        return -1;
    }
    env = calloc(1, sizeof(*env));
    if (!env) {
        g_string_append(r->why, "cannot start: out of memory; ");
        return -1;
    }
    linux_process_attach_cpu(p, env);
    linx_exec_attach_cpu(ec, env);
    ph[1] = now() - t1;
    *status = linux_cpu_loop(p, env);
    r->env = env;
    r->trapped = p->fault_death;
    return 0;
}

/* ---------------------------------------------------------------------
 * One case
 * --------------------------------------------------------------------- */

/* The rule behind the trap that ended the run: a TMA/TEPL/CUBE rule, or a
 * buffer engine's refused GO store (TRAPARG0 its address); NULL: none. */
static const char *trap_rule(const CaseRun *r)
{
    const char *rule = linx_tile_fault_rule(r->env);

    if (!rule && r->buffers && r->buffers->status.rule &&
        r->buffers->status_addr == r->env->traparg0) {
        rule = r->buffers->status.name;
    }
    return rule;
}

/* expect-trap / trapnum / traparg0 against how the run ended. */
static bool check_trap(CaseRun *r, int status)
{
    const OptCase *c = r->c;
    const char *rule;
    unsigned num;
    bool any = strcmp(c->expect_trap, "any") == 0, ok;

    if (!r->trapped) {
        g_string_append_printf(r->why, "expected a trap%s%s, but the program exited with "
                               "status %d; ", any ? "" : " of rule ", any ? "" : c->expect_trap,
                               status);
        set_kind(r, OPT_FK_TRAP);
        return false;
    }
    rule = trap_rule(r);
    num = linx_trapno_num(r->env->trapno);
    ok = (any || (rule && strcmp(rule, c->expect_trap) == 0)) &&
         (c->trapnum < 0 || (unsigned)c->trapnum == num) &&
         (!c->have_traparg0 || c->traparg0 == r->env->traparg0);
    g_string_append_printf(ok ? r->verbose : r->why,
                           "%s trap %u (%s), rule %s, traparg0 0x%" PRIx64 " at pc 0x%" PRIx64,
                           ok ? "the expected" : "got", num, linx_trap_name(num),
                           rule ? rule : "(none)", r->env->traparg0, r->env->trap_pc);
    if (ok) {
        g_string_append(r->verbose, "\n");
        return true;
    }
    g_string_append_printf(r->why, ", expected %s%s", any ? "any rule" : "rule ",
                           any ? "" : c->expect_trap);
    if (c->trapnum >= 0) {
        g_string_append_printf(r->why, ", trap %d", c->trapnum);
    }
    if (c->have_traparg0) {
        g_string_append_printf(r->why, ", traparg0 0x%" PRIx64, c->traparg0);
    }
    g_string_append(r->why, "; ");
    set_kind(r, OPT_FK_TRAP);
    return false;
}

GString *opt_case_execute(OptMachines *mc, const OptRef *ref, const OptProgram *prog,
                          FILE *capture)
{
    CaseRun cr, *r = &cr;
    RecordHead h;
    GString *rec;
    int status = 0, rc;
    double ph[4] = { 0, 0, 0, 0 }, ts, t2, t3;
    bool pass;

    memset(&cr, 0, sizeof(cr));
    r->s = ref->s;
    r->c = ref->c;
    r->prog = prog;
    r->o = mc->o;
    r->why = g_string_new(NULL);
    r->verbose = g_string_new(NULL);
    ts = now();
    rc = r->s->machine == OPT_MACHINE_USER ? run_user(r, capture, &status, ph)
                                           : run_virt(r, mc, capture, &status, ph);
    t2 = now();
    fflush(capture);
    fflush(stdout);
    pass = rc == 0;
    if (rc != 0) {
        set_kind(r, OPT_FK_SETUP);
    }
    if (pass && r->c->expect_trap) {
        pass = check_trap(r, status);
    } else if (pass && status != r->c->status) {
        g_string_append_printf(r->why, "exit status %d, expected %d; ", status, r->c->status);
        set_kind(r, OPT_FK_EXIT_STATUS);
        pass = false;
    }
    if (rc == 0) {
        for (unsigned i = 0; i < r->c->noutputs; i++) {
            pass &= check_output(r, &r->c->outputs[i]);
        }
    }
    t3 = now();
    memset(&h, 0, sizeof(h));
    h.magic = RECORD_MAGIC;
    h.status = pass ? OPT_PASS : OPT_FAIL;
    h.kind = pass ? OPT_FK_NONE : r->kind;
    h.have_mm = r->have_mm;
    h.mm_dtype = r->mm_dtype;
    h.phase[0] = ph[0];
    h.phase[1] = ph[1] + mc->build_time; /* program and input load */
    mc->build_time = 0;
    h.phase[3] = t3 - t2;
    h.mm = r->mm;
    if (r->ec) {
        LinxExecStats st;
        linx_exec_get_stats(r->ec, &st);
        h.tbs = st.tbs_translated - (r->ec == mc->ec ? mc->tbs_before : 0);
    }
    /* run: from the end of the loading to the end of guest execution */
    h.phase[2] = rc == 0 ? t2 - ts - ph[0] - ph[1] : 0;
    if (r->why->len >= 2) {
        g_string_truncate(r->why, r->why->len - 2); /* the last "; " */
    }
    rec = g_string_new(NULL);
    g_string_append_len(rec, (const char *)&h, sizeof(h));
    put_str(rec, pass ? NULL : r->why->str);
    put_str(rec, r->mm_output);
    put_str(rec, r->o->verbose && r->verbose->len ? r->verbose->str : NULL);
    g_string_free(r->why, TRUE);
    g_string_free(r->verbose, TRUE);
    g_free(r->mm_output);
    return rec;
}

void opt_test_crash_hook(const OptRef *ref)
{
    const char *want = getenv("LINX_OPTEST_TEST_CRASH");
    char name[512];

    if (!want) {
        return;
    }
    snprintf(name, sizeof(name), "%s/%s", ref->s->name, ref->c->name);
    if (strcmp(want, name) == 0) {
        fflush(NULL);
        signal(SIGSEGV, SIG_DFL); /* not a sanitizer's report: the signal itself */
        raise(SIGSEGV);
    }
}

GString *opt_case_setup_failure(const char *message)
{
    RecordHead h;
    GString *rec = g_string_new(NULL);

    memset(&h, 0, sizeof(h));
    h.magic = RECORD_MAGIC;
    h.status = OPT_FAIL;
    h.kind = OPT_FK_SETUP;
    g_string_append_len(rec, (const char *)&h, sizeof(h));
    put_str(rec, message);
    put_str(rec, NULL);
    put_str(rec, NULL);
    return rec;
}

void opt_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        p += n;
        len -= (size_t)n;
    }
}

void opt_record_send(int fd, const GString *rec)
{
    uint32_t len = (uint32_t)rec->len;
    GString *frame = g_string_sized_new(rec->len + sizeof(len));

    g_string_append_len(frame, (const char *)&len, sizeof(len));
    g_string_append_len(frame, rec->str, rec->len);
    opt_write_all(fd, frame->str, frame->len);
    g_string_free(frame, TRUE);
}

bool opt_record_take(GString *buf, uint8_t **rec, size_t *len)
{
    uint32_t n;

    if (buf->len < sizeof(n)) {
        return false;
    }
    memcpy(&n, buf->str, sizeof(n));
    if (buf->len - sizeof(n) < n) {
        return false;
    }
    *rec = g_memdup2(buf->str + sizeof(n), n);
    *len = n;
    g_string_erase(buf, 0, (gssize)(sizeof(n) + n));
    return true;
}

/* ---------------------------------------------------------------------
 * A process per case (--isolate, user mode)
 * --------------------------------------------------------------------- */

void opt_arm_timer(double timeout)
{
    struct itimerval it;

    memset(&it, 0, sizeof(it));
    if (timeout <= 0) {
        setitimer(ITIMER_REAL, &it, NULL); /* off */
        return;
    }
    it.it_value.tv_sec = (time_t)timeout;
    it.it_value.tv_usec = (suseconds_t)((timeout - (double)(time_t)timeout) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) {
        it.it_value.tv_usec = 1000;
    }
    setitimer(ITIMER_REAL, &it, NULL);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

void opt_close_fds_except(const int *keep, unsigned n)
{
    int k[8];
    unsigned m = 0;
    unsigned from = 3;

    for (unsigned i = 0; i < n && m < 8; i++) {
        if (keep[i] >= 3) {
            k[m++] = keep[i];
        }
    }
    qsort(k, m, sizeof(k[0]), cmp_int);
    for (unsigned i = 0; i < m; i++) {
        if ((unsigned)k[i] > from) {
            close_range(from, (unsigned)k[i] - 1, 0);
        }
        from = (unsigned)k[i] + 1;
    }
    close_range(from, ~0u, 0);
}

void opt_child_setup(const OptRunOptions *o, int fd_capture)
{
    sigset_t none;

    /* Default dispositions (the runner catches SIGINT/SIGTERM); the time
     * limit is SIGALRM, whose default action ends the process. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (o->reference) {
        setenv("LINX_TEPL_REFERENCE", "1", 1);
    }
    /* The guest's output (virt UART, user-mode fds 1/2) and reports go
     * to the capture file. */
    fflush(stdout);
    fflush(stderr);
    dup2(fd_capture, STDOUT_FILENO);
    dup2(fd_capture, STDERR_FILENO);
}

static _Noreturn void case_child(const OptRef *ref, const OptProgram *prog,
                                 const OptRunOptions *o, int fd_result, int fd_capture,
                                 double timeout)
{
    int keep[2] = { fd_result, fd_capture };
    OptMachines *mc;
    FILE *capture;
    GString *rec;

    /* Only our own pipe and file (not the runner's others: a worker waits
     * for the end of its command pipe). */
    opt_close_fds_except(keep, 2);
    opt_child_setup(o, fd_capture);
    opt_arm_timer(timeout);
    capture = fdopen(fd_capture, "w");
    if (!capture) {
        _exit(3);
    }
    mc = opt_machines_new(o, false);
    rec = opt_case_execute(mc, ref, prog, capture);
    opt_test_crash_hook(ref);
    opt_record_send(fd_result, rec);
    _exit(0);
}

int opt_case_spawn(const OptRef *ref, const OptProgram *prog, const OptRunOptions *o,
                   int fd_result, int fd_capture)
{
    double timeout = o->timeout > 0 ? o->timeout
                     : ref->c->timeout > 0 ? ref->c->timeout : ref->s->timeout;
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        case_child(ref, prog, o, fd_result, fd_capture, timeout);
    }
    return pid;
}
