/*
 * Fuzz target for the decoder, the disassembler and the one-instruction
 * assembler.
 *
 * One input is treated two ways:
 *  1. as instruction bytes: every decode (including of each truncated
 *     prefix) must stay in bounds; each decoded instruction must print,
 *     and the printed text must assemble back to the same bytes
 *     (-M legacy text must at least print);
 *  2. as instruction text: assembling it must not crash, and whatever it
 *     assembles to must disassemble to text that assembles to the same
 *     bytes again.
 * A broken invariant aborts with a message naming the input.
 *
 * Built two ways:
 *  - with clang -fsanitize=fuzzer (tests/fuzz/run.sh): libFuzzer calls
 *    LLVMFuzzerTestOneInput;
 *  - as a normal program (meson test "fuzz-decode", every compiler, with
 *    fuzz-main.c): fuzz_generated() feeds a few hundred thousand generated
 *    inputs (random words, valid encodings of random forms, truncated
 *    buffers, mutated disassembly); the committed corpus is replayed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-target.h"
#include "target/linx/asm-insn.h"
#include "target/linx/disas.h"

const char fuzz_target_name[] = "fuzz-decode";

#define FUZZ_MAX_TEXT 512

static void decode_fail(const char *what, const uint8_t *data, size_t size, const char *detail)
{
    fuzz_fail(data, size, "%s\n  %s", what, detail);
}

static void check_bytes(const uint8_t *data, size_t size)
{
    char text[LINX_DISAS_MAX], detail[2 * LINX_DISAS_MAX];
    size_t off = 0;

    while (off < size) {
        LinxInsn insn;
        unsigned used;
        LinxDisasEnv legacy = { LINX_DISAS_F_LEGACY, NULL, NULL };
        LinxDecodeStatus st = linx_decode(data + off, size - off, &insn);

        if (st == LINX_DECODE_TRUNCATED) {
            if (insn.len <= size - off) {
                decode_fail("truncated status with enough bytes", data, size, "");
            }
            linx_disas_bytes(data + off, size - off, off, NULL, text, sizeof(text), &used);
            break;
        }
        if (insn.len == 0 || insn.len > size - off || insn.len > 8) {
            decode_fail("bad instruction length", data, size, "");
        }
        linx_disas_insn(&insn, 0x10000 + off, &legacy, text, sizeof(text));
        linx_disas_insn(&insn, 0x10000 + off, NULL, text, sizeof(text));
        LinxAsmEnv env = { .pc = 0x10000 + off, .final = true };
        LinxAsmResult r;
        LinxAsmError e;
        if (!linx_asm_insn(text, &env, &r, &e)) {
            snprintf(detail, sizeof(detail), "'%s' does not assemble: col %u: %s", text, e.col,
                     e.msg);
            decode_fail("disassembly does not assemble", data + off, insn.len, detail);
        }
        if (r.len != insn.len || memcmp(r.bytes, data + off, r.len) != 0) {
            snprintf(detail, sizeof(detail), "'%s' assembles to other bytes", text);
            decode_fail("round trip changed the bytes", data + off, insn.len, detail);
        }
        off += insn.len;
    }
}

static void check_text(const uint8_t *data, size_t size)
{
    char text[FUZZ_MAX_TEXT], again[LINX_DISAS_MAX], detail[2 * LINX_DISAS_MAX];
    size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
    LinxAsmEnv env = { .pc = 0x10000, .final = true };
    LinxAsmResult r, r2;
    LinxAsmError e;
    LinxInsn insn;

    memcpy(text, data, n);
    text[n] = '\0';
    if (strlen(text) != n || strchr(text, '\n')) {
        return; /* one line of text only */
    }
    linx_asm_insn_length(text, 0, &e);
    linx_asm_insn_length(text, LINX_ASM_F_LEGACY_DTYPE, &e);
    env.flags = LINX_ASM_F_LEGACY_DTYPE;
    linx_asm_insn(text, &env, &r, &e);
    env.flags = 0;
    if (!linx_asm_insn(text, &env, &r, &e)) {
        if (e.col > n || !e.msg[0]) {
            decode_fail("error without message or column past the text", data, size, e.msg);
        }
        return;
    }
    if (r.form >= 0 && r.form < LINX_F__COUNT &&
        (linx_form(r.form)->flags & (LINX_FORMF_FUSED_PAIR | LINX_FORMF_ALIAS))) {
        uint64_t p = 0;
        for (unsigned i = 0; i < r.len; i++) {
            p |= (uint64_t)r.bytes[i] << (8 * i);
        }
        linx_insn_fill(&insn, (unsigned)r.form, p);
    } else {
        linx_decode(r.bytes, r.len, &insn);
    }
    linx_disas_insn(&insn, 0x10000, NULL, again, sizeof(again));
    if (!linx_asm_insn(again, &env, &r2, &e) || r2.len != r.len ||
        memcmp(r2.bytes, r.bytes, r.len) != 0) {
        snprintf(detail, sizeof(detail), "'%s' -> '%s' does not reassemble the same", text, again);
        decode_fail("text round trip", data, size, detail);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_bytes(data, size);
    check_text(data, size);
    return 0;
}

#ifndef LINX_FUZZ_LIBFUZZER

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* Bytes of a valid encoding of a random form with random fields. */
static size_t valid_encoding(uint8_t *buf)
{
    unsigned form = (unsigned)(rng() % LINX_F__COUNT);
    const LinxFormInfo *fi = linx_form(form);
    const LinxFormField *f = linx_form_fields(form);
    uint64_t p = fi->match;

    for (int i = 0; i < fi->field_count; i++) {
        uint64_t bits = rng();
        /* Any value the field holds: insert its low bits piece by piece. */
        const LinxFieldPiece *pc = linx_field_pieces(&f[i]);
        for (int k = 0; k < f[i].piece_count; k++) {
            uint64_t m = ((UINT64_C(1) << pc[k].width) - 1) << pc[k].insn_lsb;
            p = (p & ~m) | ((bits << pc[k].insn_lsb) & m);
        }
    }
    p = (p & ~fi->mask) | fi->match;
    for (unsigned i = 0; i < fi->length; i++) {
        buf[i] = (uint8_t)(p >> (8 * i));
    }
    return fi->length;
}

long fuzz_generated(long iterations)
{
    uint8_t buf[64];
    char text[LINX_DISAS_MAX];

    for (long it = 0; it < iterations; it++) {
        size_t n = 0;
        switch (it % 4) {
        case 0: /* random bytes, random length (truncation included) */
            n = (size_t)(rng() % 17);
            for (size_t i = 0; i < n; i++) {
                buf[i] = (uint8_t)rng();
            }
            break;
        case 1: /* several valid encodings back to back, maybe cut short */
            while (n < 40) {
                n += valid_encoding(buf + n);
            }
            if (rng() & 1) {
                n -= (size_t)(rng() % 3);
            }
            break;
        case 2: { /* disassembly text with one random byte changed */
            LinxInsn insn;
            n = valid_encoding(buf);
            linx_decode(buf, n, &insn);
            size_t len = linx_disas_insn(&insn, 0x10000, NULL, text, sizeof(text));
            if (len && len < sizeof(text)) {
                text[rng() % len] = (char)(32 + rng() % 95);
                LLVMFuzzerTestOneInput((const uint8_t *)text, strlen(text));
            }
            n = 0;
            break;
        }
        default: /* one valid encoding */
            n = valid_encoding(buf);
            break;
        }
        if (n) {
            LLVMFuzzerTestOneInput(buf, n);
        }
    }
    return iterations;
}

#endif /* LINX_FUZZ_LIBFUZZER */
