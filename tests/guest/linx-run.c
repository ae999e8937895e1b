/*
 * linx-run: a minimal harness for the guest test programs.
 *
 * Loads a LinxISA ELF executable (ET_EXEC, PT_LOAD segments, mapped
 * read/write/execute so tests can modify their own code), maps a stack
 * and a scratch RAM area, and runs it with the exec loop until the guest
 * writes the EXIT register.  Devices (the LinxISA QEMU `virt` map):
 *
 *   0x10000000  UART data: a store writes one byte to stdout
 *   0x10000004  EXIT: a store ends the run with that exit code
 *   0x10000008  MARK: a store records the host time (benchmarks: the
 *               wall and process CPU time between the first and the last
 *               mark are printed on stderr at the end as
 *               "linx-run: kernel_s=S kernel_cpu_s=C insns=N")
 *
 *   linx-run [engine options] [--expect-trap NUM[:CAUSE]] [--forms FILE]
 *            [--max-seconds N] [--ram-mib N] [--arg N] prog.elf
 *
 * Engine options are the exec layer's (-accel jit|interp, -one-insn-per-tb,
 * -d ..., -trace-commit FILE).  --expect-trap makes a trap with that
 * TRAPNUM (and cause) the passing outcome; --forms writes the catalog form
 * index of every retired instruction (one per line, sorted, unique) for
 * scripts/form-coverage.py.  --ram-mib sizes the RAM at 0x80000000
 * (default 256 KiB), --arg N starts the program with a0 = N.  Exit status: the guest's exit code, 0 for an
 * expected trap, 1 for an unexpected trap or error (with a register dump).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "target/linx/profile.h"
#include "target/linx/decode.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"
#include "util/elf-file.h"

enum {
    RUN_MMIO_BASE = 0x10000000,
    RUN_MMIO_SIZE = 0x1000,
    RUN_UART_DATA = 0x0,
    RUN_EXIT = 0x4,
    RUN_MARK = 0x8,
};

#define RUN_SPACE_LIMIT (UINT64_C(1) << 48)
#define RUN_STACK_TOP UINT64_C(0x7ff00000)
#define RUN_STACK_SIZE UINT64_C(0x100000)
#define RUN_RAM_BASE UINT64_C(0x80000000)
#define RUN_RAM_SIZE UINT64_C(0x40000)

/* MARK register state: first and last mark (host seconds, wall and
 * process CPU time). */
static double mark_first = -1, mark_last = -1, mark_cpu_first, mark_cpu_last;

static double now_s(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool mmio_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    *value = 0;
    return true;
}

static bool mmio_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    CPULinxState *env = opaque;

    if (offset == RUN_UART_DATA) {
        putchar((int)(value & 0xff));
        return true;
    }
    if (offset == RUN_MARK) {
        mark_last = now_s(CLOCK_MONOTONIC);
        mark_cpu_last = now_s(CLOCK_PROCESS_CPUTIME_ID);
        if (mark_first < 0) {
            mark_first = mark_last;
            mark_cpu_first = mark_cpu_last;
        }
        return true;
    }
    if (offset == RUN_EXIT) {
        fflush(stdout);
        env->exit_code = (int)(value & 0xff);
        linx_cpu_exit_with(env, EXCP_EXIT);
    }
    return false;
}

static const GuestMMIOOps mmio_ops = { .read = mmio_read, .write = mmio_write };

static bool load_elf(GuestMemory *gm, const char *path, uint64_t *entry, LinxProfileVote *vote)
{
    ElfFile ef;
    char err[256];
    const int rwx = GM_PROT_READ | GM_PROT_WRITE | GM_PROT_EXEC;

    if (!elf_file_open(&ef, path, err, sizeof(err))) {
        fprintf(stderr, "linx-run: %s\n", err);
        return false;
    }
    if (ef.machine != EM_LINXISA || ef.type != ELF_ET_EXEC) {
        fprintf(stderr, "linx-run: %s: not a LinxISA ET_EXEC file (machine %u type %u)\n", path,
                ef.machine, ef.type);
        elf_file_close(&ef);
        return false;
    }
    for (unsigned i = 0; i < ef.nsegments; i++) {
        const ElfSegment *s = &ef.segments[i];
        uint64_t lo = s->vaddr & GUEST_PAGE_MASK;
        uint64_t hi = (s->vaddr + s->memsz + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
        if (s->type != ELF_PT_LOAD || s->memsz == 0) {
            continue;
        }
        bool ok = s->filesz <= s->memsz && s->offset + s->filesz <= ef.size;
        /* Page by page: segments may share a page. */
        for (uint64_t p = lo; ok && p < hi; p += GUEST_PAGE_SIZE) {
            ok = guest_mem_prot(gm, p) >= 0 || guest_mem_map(gm, p, GUEST_PAGE_SIZE, rwx, false);
        }
        if (!ok || guest_mem_write(gm, s->vaddr, ef.data + s->offset, s->filesz, NULL) != GM_OK) {
            fprintf(stderr, "linx-run: %s: segment %u (0x%" PRIx64 ", %" PRIu64
                    " bytes) cannot be loaded\n", path, i, s->vaddr, s->memsz);
            elf_file_close(&ef);
            return false;
        }
    }
    *entry = ef.entry;
    linx_profile_vote_elf(vote, &ef);
    elf_file_close(&ef);
    return true;
}

/* Forms of the retired instructions, from the commit trace. */
static bool write_forms(const char *trace_path, const char *out_path)
{
    static bool seen[LINX_F__COUNT];
    char line[2048];
    FILE *in = fopen(trace_path, "r");
    FILE *out;

    if (!in) {
        fprintf(stderr, "linx-run: cannot read the trace %s\n", trace_path);
        return false;
    }
    while (fgets(line, sizeof(line), in)) {
        const char *pi = strstr(line, "\"insn\":");
        const char *pl = strstr(line, "\"len\":");
        LinxInsn insn;
        if (!pi || !pl) {
            continue;
        }
        if (linx_decode_packed(strtoull(pi + 7, NULL, 10), (unsigned)strtoul(pl + 6, NULL, 10),
                               &insn) == LINX_DECODE_OK) {
            seen[insn.form] = true;
        }
    }
    fclose(in);
    out = fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "linx-run: cannot write %s\n", out_path);
        return false;
    }
    for (unsigned f = 0; f < LINX_F__COUNT; f++) {
        if (seen[f]) {
            fprintf(out, "%u\n", f);
        }
    }
    fclose(out);
    return true;
}

static void usage(void)
{
    fprintf(stderr, "usage: linx-run [engine options] [--expect-trap NUM[:CAUSE]] "
                    "[--forms FILE] [--max-seconds N] [--ram-mib N] [--arg N] prog.elf\n");
    linx_exec_print_options_help(stderr);
}

int main(int argc, char **argv)
{
    LinxExecOptions opts;
    const LinxProfile *profile = NULL; /* -cpu; NULL: auto from the ELF */
    const char *prog = NULL, *forms = NULL;
    char trace_tmp[64] = "";
    char err[256];
    long expect_trap = -1, expect_cause = -1;
    unsigned max_seconds = 60;
    uint64_t ram_size = RUN_RAM_SIZE, arg = 0;
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
    uint64_t entry;
    int rc = 1;

    linx_exec_options_init(&opts);
    for (int i = 1; i < argc;) {
        int r = linx_exec_parse_option(&opts, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-run: %s\n", err);
            return 2;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        r = linx_profile_parse_option(&profile, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "linx-run: %s\n", err);
            return 2;
        }
        if (r == 2) {
            return 0;
        }
        if (r == 1) {
            continue;
        }
        if (!strcmp(argv[i], "--expect-trap") && i + 1 < argc) {
            char *end;
            expect_trap = strtol(argv[i + 1], &end, 0);
            expect_cause = *end == ':' ? strtol(end + 1, NULL, 0) : -1;
            i += 2;
        } else if (!strcmp(argv[i], "--forms") && i + 1 < argc) {
            forms = argv[i + 1];
            i += 2;
        } else if (!strcmp(argv[i], "--max-seconds") && i + 1 < argc) {
            max_seconds = (unsigned)strtoul(argv[i + 1], NULL, 0);
            i += 2;
        } else if (!strcmp(argv[i], "--ram-mib") && i + 1 < argc) {
            ram_size = strtoull(argv[i + 1], NULL, 0) << 20;
            i += 2;
        } else if (!strcmp(argv[i], "--arg") && i + 1 < argc) {
            arg = strtoull(argv[i + 1], NULL, 0);
            i += 2;
        } else if (argv[i][0] != '-' && !prog) {
            prog = argv[i++];
        } else {
            usage();
            return 2;
        }
    }
    if (!prog) {
        usage();
        return 2;
    }
    if (forms) {
        snprintf(trace_tmp, sizeof(trace_tmp), "/tmp/linx-run-%d.jsonl", (int)getpid());
        opts.trace_commit_path = trace_tmp;
    }
    /* A guest stuck in a loop must not hang the test suite. */
    alarm(max_seconds);

    gm = guest_mem_new(RUN_SPACE_LIMIT);
    env = calloc(1, sizeof(*env));
    if (!gm || !env) {
        fprintf(stderr, "linx-run: out of memory\n");
        return 1;
    }
    LinxProfileVote vote;
    memset(&vote, 0, sizeof(vote));
    if (!load_elf(gm, prog, &entry, &vote) ||
        !guest_mem_map(gm, RUN_STACK_TOP - RUN_STACK_SIZE, RUN_STACK_SIZE,
                       GM_PROT_READ | GM_PROT_WRITE, false) ||
        !ram_size || ram_size > (UINT64_C(1) << 36) ||
        !guest_mem_map(gm, RUN_RAM_BASE, ram_size, GM_PROT_READ | GM_PROT_WRITE, false) ||
        !guest_mem_map_mmio(gm, RUN_MMIO_BASE, RUN_MMIO_SIZE, &mmio_ops, env)) {
        fprintf(stderr, "linx-run: %s: cannot set up the address space\n", prog);
        return 1;
    }
    ec = linx_exec_new(&opts, err, sizeof(err));
    if (!ec) {
        fprintf(stderr, "linx-run: %s\n", err);
        return 1;
    }
    env->engine.mem = gm;
    env->profile = profile ? profile : linx_profile_decide(&vote, NULL, 0);
    linx_cpu_reset(env, entry, 0);
    env->gpr[LINX_REG_SP] = RUN_STACK_TOP;
    env->gpr[LINX_REG_A0] = arg;
    linx_exec_attach_cpu(ec, env);

    for (;;) {
        int r = cpu_exec(env);
        if (r == EXCP_EXIT) {
            rc = env->exit_code;
            break;
        }
        if (r == EXCP_TRAP) {
            unsigned tn = (unsigned)(env->trapno & 0x3f);
            unsigned cause = (unsigned)((env->trapno >> 24) & 0xffffff);
            if ((long)tn == expect_trap && (expect_cause < 0 || (long)cause == expect_cause)) {
                rc = 0;
                break;
            }
            fprintf(stderr, "linx-run: %s: trap %u cause 0x%x traparg0 0x%" PRIx64
                    " at pc 0x%" PRIx64 "\n", prog, tn, cause, env->traparg0, env->trap_pc);
            linx_cpu_dump_state(env, stderr);
            rc = 1;
            break;
        }
        if (r != EXCP_INTERRUPT) {
            fprintf(stderr, "linx-run: %s: stopped (%d) at pc 0x%" PRIx64 "\n", prog, r, env->pc);
            rc = 1;
            break;
        }
    }
    if (expect_trap >= 0 && rc == 0 && (env->trapno & 0x3f) != (uint64_t)expect_trap) {
        fprintf(stderr, "linx-run: %s: expected trap %ld, but the program exited\n", prog,
                expect_trap);
        rc = 1;
    }
    if (mark_first >= 0) {
        fprintf(stderr, "linx-run: kernel_s=%.4f kernel_cpu_s=%.4f insns=%" PRIu64 "\n",
                mark_last - mark_first, mark_cpu_last - mark_cpu_first, env->insn_count);
    }
    linx_exec_free(ec);
    if (forms && !write_forms(trace_tmp, forms)) {
        rc = 1;
    }
    if (trace_tmp[0]) {
        unlink(trace_tmp);
    }
    guest_mem_free(gm);
    free(env);
    return rc;
}
