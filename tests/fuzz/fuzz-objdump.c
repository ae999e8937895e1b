/*
 * Fuzz target for linx-objdump on arbitrary files: the tool's own code
 * (tools/linx-objdump/, its main() renamed) runs on each input written to
 * a file, four ways: `-d FILE`, `-x -D FILE` (every header, symbol,
 * relocation and section dump and the disassembly of every section),
 * `-d -M legacy FILE` and `--hex-file FILE`.
 *
 * Invariants:
 *  - the exit status is 0 or 1 (bad input), never anything else, and the
 *    tool returns (no crash, no hang, nothing a sanitizer objects to);
 *  - when util/elf-file accepts the bytes as a LinxISA ET_EXEC / ET_REL /
 *    ET_DYN file, `-d` succeeds (status 0).
 * The listings go to /dev/null.
 *
 * Generated inputs: ELF images from linx-as, mutated; random hex-word
 * text.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-target.h"
#include "linx-as.h"
#include "util/elf-file.h"

/* The tool itself, with its main() under another name (its other files
 * are linked in: tests/fuzz/meson.build). */
#define main linx_objdump_main
#include "tools/linx-objdump/main.c"
#undef main

const char fuzz_target_name[] = "fuzz-objdump";

static int input_fd = -1; /* memfd the input goes to (harness set-up) */
static char input_path[64];
static long n_listed, n_refused; /* generated-mode statistics */

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
    (void)argc;
    (void)argv;
    input_fd = memfd_create("fuzz-objdump", MFD_CLOEXEC);
    if (input_fd < 0) {
        abort();
    }
    snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
    return 0;
}

static int run_tool(const char *a1, const char *a2, const char *a3)
{
    char *argv[5];
    int argc = 0;
    FuzzQuiet q;
    int rc;

    argv[argc++] = (char *)"linx-objdump";
    argv[argc++] = (char *)a1;
    if (a2) {
        argv[argc++] = (char *)a2;
    }
    if (a3) {
        argv[argc++] = (char *)a3;
    }
    argv[argc] = NULL;
    fuzz_quiet_begin(&q);
    rc = linx_objdump_main(argc, argv);
    fuzz_quiet_end(&q);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ElfFile ef;
    char err[256];
    bool linx = false;
    int rc;

    if (ftruncate(input_fd, 0) != 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size) {
        abort();
    }
    if (elf_file_parse(&ef, data, size, "in", err, sizeof(err))) {
        linx = ef.machine == EM_LINXISA &&
               (ef.type == ELF_ET_EXEC || ef.type == ELF_ET_REL || ef.type == ELF_ET_DYN);
        elf_file_close(&ef);
    }
    rc = run_tool("-d", input_path, NULL);
    if (rc != 0 && rc != EXIT_BAD_INPUT) {
        fuzz_fail(data, size, "-d exit status %d", rc);
    }
    if (linx && rc != 0) {
        fuzz_fail(data, size, "a LinxISA ELF file util/elf-file accepts was refused by -d");
    }
    rc == 0 ? n_listed++ : n_refused++;
    rc = run_tool("-x", "-D", input_path);
    if (rc != 0 && rc != EXIT_BAD_INPUT) {
        fuzz_fail(data, size, "-x -D exit status %d", rc);
    }
    rc = run_tool("-d", "-Mlegacy", input_path);
    if (rc != 0 && rc != EXIT_BAD_INPUT) {
        fuzz_fail(data, size, "-d -M legacy exit status %d", rc);
    }
    rc = run_tool("--hex-file", input_path, NULL);
    if (rc != 0 && rc != EXIT_BAD_INPUT) {
        fuzz_fail(data, size, "--hex-file exit status %d", rc);
    }
    return 0;
}

/* ---- generated inputs ------------------------------------------------------- */

static const char program[] =
    "  .text\n  .globl _start\n_start:\n  C.BSTART.STD\n  addi zero, 5, ->a0\nloop:\n"
    "  C.BSTART COND, loop\n  subi a0, 1, ->a0\n  setc.nei a0, 0\n  C.BSTART DIRECT, out\n"
    "  C.BSTOP\nout:\n  C.BSTART.STD\n  ebreak 0\n  C.BSTOP\n  .data\nd: .quad _start\n";

long fuzz_generated(long count)
{
    enum { CAP = 1 << 16 };
    static uint8_t base[2][CAP], buf[CAP];
    static size_t base_len[2];
    FuzzRng r = { 0x6a09e667f3bcc908ull };

    for (int k = 0; k < 2; k++) {
        LinxAsOptions o;
        LinxAs *as;
        uint8_t *img = NULL;
        linx_as_default_options(&o);
        o.format = k ? LINX_AS_FMT_REL : LINX_AS_FMT_EXEC;
        as = linx_as_new(&o);
        linx_as_add_source(as, "p.s", program, strlen(program));
        if (!linx_as_assemble(as) || !linx_as_output(as, &img, &base_len[k]) || base_len[k] > CAP) {
            fprintf(stderr, "%s: the built-in program does not assemble:\n%s", fuzz_target_name,
                    linx_as_diagnostics(as));
            abort();
        }
        memcpy(base[k], img, base_len[k]);
        free(img);
        linx_as_free(as);
    }
    for (long i = 0; i < count; i++) {
        size_t n;
        if (i % 4 == 3) { /* hex words, some of them broken */
            n = 0;
            for (unsigned w = 0, m = fuzz_rndn(&r, 12); w < m; w++) {
                static const char hexd[] = "0123456789abcdefxg #\n";
                unsigned len = fuzz_rndn(&r, 3) ? (fuzz_rndn(&r, 2) ? 4 : 8) : fuzz_rndn(&r, 10);
                for (unsigned c = 0; c < len; c++) {
                    buf[n++] = (uint8_t)hexd[fuzz_rndn(&r, fuzz_rndn(&r, 8) ? 16 : 21)];
                }
                buf[n++] = ' ';
            }
        } else {
            int k = fuzz_rndn(&r, 2);
            n = base_len[k];
            memcpy(buf, base[k], n);
            for (unsigned m = i % 16 == 0 ? 0 : 1 + fuzz_rndn(&r, 4), j = 0; j < m; j++) {
                if (fuzz_rndn(&r, 6) == 0) {
                    n = 1 + fuzz_rndn(&r, (unsigned)n);
                } else {
                    size_t at = fuzz_rndn(&r, (unsigned)n);
                    buf[at] = fuzz_rndn(&r, 3) ? (uint8_t)fuzz_rnd(&r) : (uint8_t)(buf[at] ^ 0x80);
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%s: -d listed %ld files, refused %ld\n", fuzz_target_name, n_listed, n_refused);
    if (!n_listed || !n_refused) {
        fuzz_fail(buf, 0, "the generated inputs never reach one of the outcomes");
    }
    return count;
}
