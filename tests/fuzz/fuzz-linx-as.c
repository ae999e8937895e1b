/*
 * Fuzz target for linx-as: one input is a whole source file.
 *
 * Invariants (a broken one aborts with a message naming the input):
 *  - assembling never crashes or hangs, in any output format;
 *  - a failed assembly has at least one "file:line:col: error:" message
 *    and produces no output;
 *  - a successful one produces an image, and the ELF forms read back
 *    through util/elf-file with EM 0xE9 and the right type;
 *  - the listing of a successful assembly prints.
 *
 * Built two ways, like fuzz-decode.c:
 *  - with clang -fsanitize=fuzzer and -DLINX_FUZZ_LIBFUZZER (libFuzzer
 *    calls LLVMFuzzerTestOneInput);
 *  - as a normal program (meson test "fuzz-linx-as", with fuzz-main.c):
 *    fuzz_generated() feeds mutations (byte flips, line swaps, token
 *    splices) of a built-in corpus of valid sources, and token soup; the
 *    committed corpus is replayed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-target.h"
#include "linx-as.h"
#include "util/elf-file.h"

const char fuzz_target_name[] = "fuzz-linx-as";

#define FUZZ_MAX_INPUT 8192

static void check(bool ok, const char *what, const uint8_t *data, size_t size)
{
    if (!ok) {
        fuzz_fail(data, size, "%s; input as text:\n%.*s", what, size > 2000 ? 2000 : (int)size,
                  (const char *)data);
    }
}

static void one_format(const uint8_t *data, size_t size, LinxAsFormat fmt)
{
    LinxAsOptions o;
    LinxAs *as;
    uint8_t *buf = NULL;
    size_t len = 0;

    linx_as_default_options(&o);
    o.format = fmt;
    o.max_errors = 10;
    as = linx_as_new(&o);
    linx_as_add_source(as, "fuzz.s", (const char *)data, size);
    if (!linx_as_assemble(as)) {
        check(linx_as_error_count(as) > 0, "failure without an error count", data, size);
        check(strstr(linx_as_diagnostics(as), "error:") != NULL, "failure without a message",
              data, size);
        check(!linx_as_output(as, &buf, &len), "output after a failure", data, size);
        linx_as_free(as);
        return;
    }
    check(linx_as_output(as, &buf, &len), "no output after success", data, size);
    if (fmt != LINX_AS_FMT_BIN) {
        ElfFile ef;
        char err[256];
        check(elf_file_parse(&ef, buf, len, "out", err, sizeof(err)), err, data, size);
        check(ef.machine == EM_LINXISA, "e_machine", data, size);
        check(ef.type == (fmt == LINX_AS_FMT_EXEC ? ELF_ET_EXEC : ELF_ET_REL), "e_type", data, size);
        elf_file_close(&ef);
    }
    free(buf);
    if (fmt == LINX_AS_FMT_EXEC) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            linx_as_listing(as, devnull);
            fclose(devnull);
        }
    }
    linx_as_free(as);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT) {
        return 0;
    }
    one_format(data, size, LINX_AS_FMT_EXEC);
    one_format(data, size, LINX_AS_FMT_REL);
    one_format(data, size, LINX_AS_FMT_BIN);
    return 0;
}

#ifndef LINX_FUZZ_LIBFUZZER

/* Valid sources the mutations start from. */
static const char *const corpus[] = {
    "    .text\n    .globl _start\n_start:\n    C.BSTART.STD\n    addtpc msg, ->a1\n"
    "    addi a1, msg, ->a1\n    lui 0x10000, ->a0\nputc:\n    C.BSTART COND, putc\n"
    "    lbui [a1, 0], ->a2\n    sbi a2, [a0, 0]\n    addi a1, 1, ->a1\n"
    "    lbui [a1, 0], ->t\n    setc.nei t#1, 0\n    C.BSTART.STD\n    swi zero, [a0, 4]\n"
    "    C.BSTOP\nmsg: .asciz \"hello\\n\"\n",
    "    TSTORE.NORM <LB0:100, LB1:a0, LB2:a1+10, FP32>, T#1, [a2]\n"
    "    TSTORE.NZ2ND <LB0:100, LB1:a0, LB2:a1+10, FP32>, U#1, [a2, a1]\n"
    "    TLOAD.ND2NZ <LB0:64, LB1:16, FP16, Zero>, [a0, a1], 3, ->U<2KB>, ->4\n",
    "hed:\n    MPAR .foo, <LB0:64, LB1:10, VS8>, [a0, a1], ->T<8KB>\n    ...\n.foo:\n"
    "    v.lwi [ri0, lc0<<2, 0], ->vt.w\n    v.mul vt#1,.sw, vt#2.sw, ->vt.w\n"
    "    v.sw vt#1.sw, [TO, lc0<<2]\n    C.BSTOP\n",
    "FENTRY\t[ra ~ ra], sp!, 8\nBSTART.TMA\tTLOAD, INT32\nC.B.DIMI\t0, \t->lb0\n"
    "B.ARG\tNORM.normal\nB.IOR\t[a0],[]\nB.IOTI\t[], last\t->t<4KB>\n"
    "FRET.STK\t[ra ~ ra], sp!, 8\n.Lfunc_end0:\n.size f, .Lfunc_end0-f\nf:\n",
    ".data\n1: .word 1b, 2f\n2: .quad . - 1b\n.equ N, 3 * (4 + 5)\n.byte N, 'a', -1\n"
    ".section .rodata,\"a\",@progbits\n.p2align 3\n.ascii \"x\\ty\"\n.bss\n.zero 16\n"
    ".text\n.org 8\n.insn 0x0800\nC.BSTART DIRECT, 1f\n1: C.BSTOP\n",
};

static const char *const tokens[] = {
    ".word", ".byte", ".section", ".text", ".data", ".bss", ".equ", ".org", ".p2align",
    ".zero", ".insn", ".globl", ".size", "TSTORE", "TLOAD.DN2ZN", "MSEQ", "<LB0:", "LB2:", ">",
    "FP16", "VS16", "DR", "T#8", "M#1.reuse", "[", "]", "->", "->M<a3>", "addi", "sp", "t#2",
    "C.BSTART", "COND", "BSTART.STD", "CALL", "v.swi", "ri11", "lc0<<2", "1b", "1f", "2:", "x:",
    ".", "+", "-", "<<", "(", ")", ",", "\"", "'", "#", ";", "/*", "*/", "0x", "-1", "4096",
    "\n", "=", "{SrcL=3}", "addtpc", "hl.addtpc", "setc.eqi", "1<<40", "@object", "...",
};

static uint64_t rng_state = 0x5851f42d4c957f2dull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* One generated input in @buf; returns its length. */
static size_t generate(char *buf, size_t cap, unsigned i)
{
    const char *base = corpus[rnd() % (sizeof(corpus) / sizeof(corpus[0]))];
    size_t n = strlen(base);

    if (n >= cap) {
        n = cap - 1;
    }
    memcpy(buf, base, n);
    switch (i % 4) {
    case 0: /* byte flips */
        for (unsigned k = 0, m = 1 + (unsigned)(rnd() % 8); k < m && n; k++) {
            buf[rnd() % n] = (char)rnd();
        }
        break;
    case 1: { /* cut at a random point, append a tail of another corpus entry */
        const char *other = corpus[rnd() % (sizeof(corpus) / sizeof(corpus[0]))];
        size_t cut = n ? (size_t)(rnd() % n) : 0;
        size_t from = (size_t)(rnd() % (strlen(other) + 1));
        size_t tail = strlen(other + from);
        if (cut + tail >= cap) {
            tail = cap - 1 - cut;
        }
        memcpy(buf + cut, other + from, tail);
        n = cut + tail;
        break;
    }
    case 2: /* token splices */
        for (unsigned k = 0, m = 1 + (unsigned)(rnd() % 6); k < m && n; k++) {
            const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];
            size_t at = (size_t)(rnd() % n), tl = strlen(t);
            if (n + tl + 1 >= cap) {
                break;
            }
            memmove(buf + at + tl, buf + at, n - at);
            memcpy(buf + at, t, tl);
            n += tl;
        }
        break;
    default: /* token soup */
        n = 0;
        for (unsigned k = 0, m = (unsigned)(rnd() % 80); k < m; k++) {
            const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(tokens[0]))];
            size_t tl = strlen(t);
            if (n + tl + 2 >= cap) {
                break;
            }
            memcpy(buf + n, t, tl);
            n += tl;
            buf[n++] = rnd() % 4 ? ' ' : '\n';
        }
        break;
    }
    buf[n] = '\0';
    return n;
}

long fuzz_generated(long count)
{
    static char buf[FUZZ_MAX_INPUT];

    for (long i = 0; i < count; i++) {
        size_t n = generate(buf, sizeof(buf), (unsigned)i);
        LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
    }
    for (unsigned i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
        LLVMFuzzerTestOneInput((const uint8_t *)corpus[i], strlen(corpus[i]));
    }
    return count;
}

#endif /* LINX_FUZZ_LIBFUZZER */
