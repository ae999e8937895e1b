/*
 * Decoder, disassembler and assembler throughput (ninja -C build benchmark).
 *
 * Input: the .text of ../shared/guest/linux-user/02_algorithms.static
 * (1,930 instructions), or, when the shared folder is absent, 4,096 valid
 * encodings of random forms.  Each measurement repeats the sweep until it
 * has run for at least MIN_SECONDS and reports the best of REPEATS.
 *
 * Printed, each against a baseline measured in the same run:
 *  - decode: linx_decode() instructions/s versus a naive decoder that
 *    checks every form's mask/match (the ratio is the dispatch table's gain);
 *  - disassembly: linx_disas_insn() lines/s versus decoding alone;
 *  - assembly: linx_asm_insn() lines/s versus disassembly.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "target/linx/asm-insn.h"
#include "target/linx/disas.h"
#include "util/elf-file.h"

#define MIN_SECONDS 0.2
#define REPEATS 3
#define SYNTH_INSNS 4096
#define MAX_INSNS 65536

typedef struct Corpus {
    uint8_t *bytes;
    size_t len;
    uint64_t addr;
    unsigned count; /* instructions in one sweep */
    char (*text)[LINX_DISAS_MAX];
} Corpus;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The naive baseline: every form of the right length, most mask bits wins. */
static unsigned naive_decode(const uint8_t *buf, size_t avail, LinxInsn *out)
{
    unsigned len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
    uint64_t v = 0;
    int best = -1, best_bits = -1;

    if (avail < len) {
        return 0;
    }
    for (unsigned i = 0; i < len; i++) {
        v |= (uint64_t)buf[i] << (8 * i);
    }
    for (unsigned f = 0; f < LINX_F__COUNT; f++) {
        const LinxFormInfo *fi = linx_form(f);
        if (fi->length != len || (fi->flags & (LINX_FORMF_FUSED_PAIR | LINX_FORMF_ALIAS)) ||
            (v & fi->mask) != fi->match || !linx_form_constraints_ok(f, v)) {
            continue;
        }
        int bits = __builtin_popcountll(fi->mask);
        if (bits > best_bits) {
            best = (int)f;
            best_bits = bits;
        }
    }
    if (best >= 0) {
        linx_insn_fill(out, (unsigned)best, v);
    }
    return len;
}

static volatile uint64_t sink;

static unsigned sweep_decode(const Corpus *c)
{
    unsigned n = 0;
    uint64_t acc = 0;

    for (size_t off = 0; off < c->len;) {
        LinxInsn insn;
        linx_decode(c->bytes + off, c->len - off, &insn);
        acc += insn.form;
        off += insn.len ? insn.len : 2;
        n++;
    }
    sink += acc;
    return n;
}

static unsigned sweep_naive(const Corpus *c)
{
    unsigned n = 0;
    uint64_t acc = 0;

    for (size_t off = 0; off < c->len;) {
        LinxInsn insn = { 0 };
        unsigned len = naive_decode(c->bytes + off, c->len - off, &insn);
        acc += insn.form;
        off += len ? len : 2;
        n++;
    }
    sink += acc;
    return n;
}

static unsigned sweep_disas(const Corpus *c)
{
    unsigned n = 0;
    char text[LINX_DISAS_MAX];

    for (size_t off = 0; off < c->len;) {
        unsigned used;
        linx_disas_bytes(c->bytes + off, c->len - off, c->addr + off, NULL, text, sizeof(text),
                         &used);
        sink += (uint64_t)text[0];
        off += used ? used : 2;
        n++;
    }
    return n;
}

static unsigned sweep_asm(const Corpus *c)
{
    unsigned n = 0;
    size_t off = 0;

    for (unsigned i = 0; i < c->count; i++) {
        LinxAsmEnv env = { .pc = c->addr + off, .final = true };
        LinxAsmResult r;
        LinxAsmError e;
        if (!linx_asm_insn(c->text[i], &env, &r, &e)) {
            fprintf(stderr, "bench-decode: '%s' does not assemble: %s\n", c->text[i], e.msg);
            exit(1);
        }
        off += r.len;
        sink += r.bytes[0];
        n++;
    }
    return n;
}

/* Items per second of @fn over the corpus: best of REPEATS runs. */
static double rate(unsigned (*fn)(const Corpus *), const Corpus *c)
{
    double best = 0;

    for (int r = 0; r < REPEATS; r++) {
        double t0 = now(), t;
        uint64_t items = 0;
        do {
            items += fn(c);
            t = now() - t0;
        } while (t < MIN_SECONDS);
        if (items / t > best) {
            best = (double)items / t;
        }
    }
    return best;
}

static bool load_binary(Corpus *c, const char *path)
{
    ElfFile ef;
    char err[256];
    const ElfSection *s;

    if (!elf_file_open(&ef, path, err, sizeof(err))) {
        return false;
    }
    s = elf_file_section_by_name(&ef, ".text");
    if (!s || !elf_file_section_data(&ef, s)) {
        elf_file_close(&ef);
        return false;
    }
    c->bytes = malloc(s->size);
    memcpy(c->bytes, elf_file_section_data(&ef, s), s->size);
    c->len = s->size;
    c->addr = s->addr;
    elf_file_close(&ef);
    return true;
}

static void synthesise(Corpus *c)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;

    c->bytes = malloc(SYNTH_INSNS * 8);
    c->len = 0;
    c->addr = 0x10000;
    for (unsigned i = 0; i < SYNTH_INSNS; i++) {
        unsigned form;
        const LinxFormInfo *fi;
        uint64_t p;
        do {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            form = (unsigned)(x % LINX_F__COUNT);
            fi = linx_form(form);
            p = ((x * 0x2545f4914f6cdd1dull) & ~fi->mask) | fi->match;
        } while ((fi->flags & (LINX_FORMF_FUSED_PAIR | LINX_FORMF_ALIAS)) ||
                 !linx_form_constraints_ok(form, p));
        for (unsigned b = 0; b < fi->length; b++) {
            c->bytes[c->len++] = (uint8_t)(p >> (8 * b));
        }
    }
}

int main(void)
{
    const char *dir = getenv("LINX_SHARED_DIR");
    char path[1024];
    Corpus c = { 0 };

    snprintf(path, sizeof(path), "%s/guest/linux-user/02_algorithms.static",
             dir ? dir : LINX_SHARED_DIR);
    if (load_binary(&c, path)) {
        printf("bench-decode: .text of %s (%zu bytes)\n", path, c.len);
    } else {
        synthesise(&c);
        printf("bench-decode: shared binary not found; %u random encodings (%zu bytes)\n",
               SYNTH_INSNS, c.len);
    }
    /* Texts for the assembler, printed once. */
    c.text = malloc(sizeof(*c.text) * MAX_INSNS);
    for (size_t off = 0; off < c.len && c.count < MAX_INSNS; c.count++) {
        unsigned used;
        linx_disas_bytes(c.bytes + off, c.len - off, c.addr + off, NULL, c.text[c.count],
                         LINX_DISAS_MAX, &used);
        off += used ? used : 2;
    }
    printf("instructions per sweep: %u\n", c.count);

    double naive = rate(sweep_naive, &c);
    double dec = rate(sweep_decode, &c);
    double dis = rate(sweep_disas, &c);
    double as = rate(sweep_asm, &c);

    printf("decode:      %12.0f insns/s   naive all-forms scan %12.0f insns/s   ratio %.1fx\n",
           dec, naive, dec / naive);
    printf("disassemble: %12.0f lines/s   decode alone          ratio %.3fx\n", dis, dis / dec);
    printf("assemble:    %12.0f lines/s   disassembly           ratio %.3fx\n", as, as / dis);
    free(c.text);
    free(c.bytes);
    return 0;
}
