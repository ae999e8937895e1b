/*
 * Fuzz target for the virt machine's loader (hw/linx/virt-loader.c, by
 * way of linx_virt_load and a file, as linx-system reads it), and a short
 * run of what got loaded: one input is a program file.
 *
 * Invariants:
 *  - a refusal has a message that names the file;
 *  - an accepted program's entry and image end lie in RAM, below the boot
 *    stack;
 *  - the loaded program then runs at most RUN_TBS translation blocks
 *    (JIT for odd-sized inputs, interpreter for even ones) on a machine
 *    whose UART goes to /dev/null: whatever the bytes are, the host
 *    survives (bare metal has no host system calls, so running random
 *    code is safe here).
 *
 * Generated inputs: ET_REL and ET_EXEC images built by linx-as from a few
 * small programs, mutated (edge values in header and section fields,
 * truncation, byte flips).
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-target.h"
#include "hw/linx/virt.h"
#include "linx-as.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"
#include "util/elf-file.h"

const char fuzz_target_name[] = "fuzz-elf-virt";

#define RAM_SIZE (UINT64_C(4) << 20)
#define RUN_TBS 256

typedef struct VirtFuzz {
    LinxExecContext *ec[2]; /* JIT, interpreter */
    CPULinxState *env;
    int fd; /* memfd the input is written to */
    char path[64];
} VirtFuzz;

static VirtFuzz vf;                       /* one per process: the harness's set-up */
static long n_loaded, n_refused, n_insns; /* generated-mode statistics */

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
    LinxExecOptions o;
    char err[256];

    (void)argc;
    (void)argv;
    for (int k = 0; k < 2; k++) {
        linx_exec_options_init(&o);
        o.accel = k ? LINX_ACCEL_INTERP : LINX_ACCEL_JIT;
        o.trace_commit_path = NULL;
        o.code_buffer_size = 8u << 20;
        vf.ec[k] = linx_exec_new(&o, err, sizeof(err));
        if (!vf.ec[k]) {
            fprintf(stderr, "%s: %s\n", fuzz_target_name, err);
            abort();
        }
    }
    vf.env = calloc(1, sizeof(*vf.env));
    vf.fd = memfd_create("fuzz-elf-virt", MFD_CLOEXEC);
    if (!vf.env || vf.fd < 0) {
        abort();
    }
    snprintf(vf.path, sizeof(vf.path), "/proc/self/fd/%d", vf.fd);
    return 0;
}

static void run_briefly(const uint8_t *data, size_t size, LinxVirtMachine *m)
{
    LinxExecContext *ec = vf.ec[size & 1];
    LinxAccel accel = size & 1 ? LINX_ACCEL_JIT : LINX_ACCEL_INTERP;
    CPULinxState *env = vf.env;

    memset(env, 0, sizeof(*env));
    m->uart_out = fuzz_devnull();
    m->uart_in_fd = -1;
    m->quiet = true;
    linx_virt_boot(m, env);
    linx_exec_attach_cpu(ec, env);
    linx_tb_flush(env); /* the last input's code was at the same addresses */
    for (unsigned i = 0; i < RUN_TBS && m->stop == VIRT_RUNNING; i++) {
        int r = linx_exec_step(env, accel);
        if (r == EXCP_TRAP || r == EXCP_EXIT || r == EXCP_HALTED) {
            break;
        }
    }
    n_insns += (long)env->insn_count;
    linx_exec_detach_cpu(ec, env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LinxVirtMachine *m;
    char err[512] = "";

    if (ftruncate(vf.fd, 0) != 0 || pwrite(vf.fd, data, size, 0) != (ssize_t)size) {
        abort();
    }
    m = linx_virt_new(RAM_SIZE, err, sizeof(err));
    if (!m) {
        fuzz_fail(data, size, "linx_virt_new: %s", err);
    }
    if (!linx_virt_load(m, vf.path, err, sizeof(err))) {
        if (!strstr(err, vf.path)) {
            fuzz_fail(data, size, "refusal does not name the file: '%s'", err);
        }
        n_refused++;
    } else {
        n_loaded++;
        if (!linx_virt_is_ram(RAM_SIZE, m->entry, 2)) {
            fuzz_fail(data, size, "entry 0x%llx is not in RAM", (unsigned long long)m->entry);
        }
        if (m->image_end > m->initial_sp) {
            fuzz_fail(data, size, "image end 0x%llx above the boot stack",
                      (unsigned long long)m->image_end);
        }
        run_briefly(data, size, m);
    }
    linx_virt_free(m);
    return 0;
}

/* ---- generated inputs ------------------------------------------------------- */

static const char *const programs[] = {
    "  .text\n  .globl _start\n_start:\n  C.BSTART.STD\n  lui 0x10000, ->a0\n"
    "  addi zero, 104, ->a1\n  sbi a1, [a0, 0]\n  swi zero, [a0, 4]\n  C.BSTOP\n",
    "  .text\n_start:\n  C.BSTART.STD\n  addi zero, 3, ->a0\nl:\n  C.BSTART COND, l\n"
    "  subi a0, 1, ->a0\n  setc.nei a0, 0\n  C.BSTART.STD\n  ebreak 0\n  C.BSTOP\n"
    "  .data\nv: .quad 1, 2, 3\n  .bss\nb: .zero 64\n",
    "  .text\n_start:\n  C.BSTART.STD\n  addtpc d, ->a1\n  addi a1, d, ->a1\n"
    "  ldi [a1, 0], ->a2\n  acrc 1\n  C.BSTOP\n  .section .rodata\nd: .quad 0x1122334455667788\n",
};

static size_t assemble(unsigned which, LinxAsFormat fmt, uint8_t *out, size_t cap)
{
    LinxAsOptions o;
    LinxAs *as;
    uint8_t *img = NULL;
    size_t len = 0;

    linx_as_default_options(&o);
    o.format = fmt;
    as = linx_as_new(&o);
    linx_as_add_source(as, "p.s", programs[which], strlen(programs[which]));
    if (!linx_as_assemble(as) || !linx_as_output(as, &img, &len) || len > cap) {
        fprintf(stderr, "%s: a built-in program does not assemble:\n%s", fuzz_target_name,
                linx_as_diagnostics(as));
        abort();
    }
    memcpy(out, img, len);
    free(img);
    linx_as_free(as);
    return len;
}

long fuzz_generated(long count)
{
    enum { N = sizeof(programs) / sizeof(programs[0]), CAP = 1 << 16 };
    static uint8_t base[2 * N][CAP], buf[CAP];
    static size_t base_len[2 * N];
    static const uint64_t edges[] = { 0,          1,
                                      0xffff,     0x10000,
                                      0x10000000, 0x7fffffff,
                                      0xffffffff, UINT64_C(0xfffffffffffff000),
                                      UINT64_MAX };
    FuzzRng r = { 0x2545f4914f6cdd1dull };

    for (unsigned i = 0; i < 2 * N; i++) {
        base_len[i] = assemble(i % N, i < N ? LINX_AS_FMT_REL : LINX_AS_FMT_EXEC, base[i], CAP);
    }
    for (long i = 0; i < count; i++) {
        unsigned b = fuzz_rndn(&r, 2 * N);
        size_t n = base_len[b];
        memcpy(buf, base[b], n);
        for (unsigned k = 0, m = i % 20 == 0 ? 0 : 1 + fuzz_rndn(&r, 3); k < m && n > 64; k++) {
            switch (fuzz_rndn(&r, 4)) {
            case 0: { /* an edge value in a header, program- or section-header field */
                uint64_t v = edges[fuzz_rndn(&r, sizeof(edges) / sizeof(edges[0]))];
                unsigned width = 1u << fuzz_rndn(&r, 4);
                size_t at = fuzz_rndn(&r, 2) ? fuzz_rndn(&r, 64) : fuzz_rndn(&r, (unsigned)n);
                at &= ~(size_t)(width - 1);
                for (unsigned q = 0; q < width && at + q < n; q++) {
                    buf[at + q] = (uint8_t)(v >> (8 * q));
                }
                break;
            }
            case 1:
                n = 1 + fuzz_rndn(&r, (unsigned)n);
                break;
            default:
                buf[fuzz_rndn(&r, (unsigned)n)] ^= (uint8_t)(1u << fuzz_rndn(&r, 8));
                break;
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%s: %ld programs loaded (%ld instructions run), %ld refused\n", fuzz_target_name,
           n_loaded, n_insns, n_refused);
    if (!n_loaded || !n_refused || !n_insns) {
        fuzz_fail(buf, 0, "the generated inputs never reach one of the outcomes");
    }
    return count;
}
