/*
 * What every fuzz target in tests/fuzz provides, and small helpers they
 * share.
 *
 * A target is one C file defining
 *   fuzz_target_name           its name, for messages
 *   LLVMFuzzerInitialize()     one-time setup (libFuzzer calls it too)
 *   LLVMFuzzerTestOneInput()   one input: any invariant broken aborts with
 *                              a message naming the input (fuzz_fail)
 *   fuzz_generated(COUNT)      COUNT generated inputs, for the build
 *                              without libFuzzer; returns how many ran,
 *                              or -1 when the target cannot run here
 * and is built twice: with tests/fuzz/fuzz-main.c (every compiler; meson
 * suite "fuzz": generated inputs and the committed corpus) and, with the
 * meson option libfuzzer=true and clang, with libFuzzer's main
 * (tests/fuzz/run.sh).
 */
#ifndef LINX_TESTS_FUZZ_TARGET_H
#define LINX_TESTS_FUZZ_TARGET_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern const char fuzz_target_name[];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
long fuzz_generated(long count);

/* A broken invariant: message, the first bytes of the input, abort(). */
static inline void fuzz_fail(const uint8_t *data, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

static inline void fuzz_fail(const uint8_t *data, size_t size, const char *fmt, ...)
{
    va_list ap;

    /* Descriptor 2 itself: stderr may point at /dev/null (FuzzQuiet). */
    dprintf(2, "%s: invariant broken: ", fuzz_target_name);
    va_start(ap, fmt);
    vdprintf(2, fmt, ap);
    va_end(ap);
    dprintf(2, "\n  input (%zu bytes):", size);
    for (size_t i = 0; i < size && i < 64; i++) {
        dprintf(2, " %02x", data[i]);
    }
    dprintf(2, "%s\n", size > 64 ? " ..." : "");
    abort();
}

/* xorshift64 with explicit state. */
typedef struct FuzzRng {
    uint64_t s;
} FuzzRng;

static inline uint64_t fuzz_rnd(FuzzRng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static inline unsigned fuzz_rndn(FuzzRng *r, unsigned n)
{
    return n ? (unsigned)(fuzz_rnd(r) % n) : 0;
}

/* Reads the input front to back; past the end every read gives 0. */
typedef struct FuzzReader {
    const uint8_t *p;
    size_t n;
} FuzzReader;

static inline uint8_t fuzz_u8(FuzzReader *r)
{
    if (!r->n) {
        return 0;
    }
    r->n--;
    return *r->p++;
}

static inline uint64_t fuzz_u64(FuzzReader *r, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < bytes; i++) {
        v |= (uint64_t)fuzz_u8(r) << (8 * i);
    }
    return v;
}

/* The tool code under test prints on stdout/stderr; while an input runs
 * they point at /dev/null (the stdio streams only: sanitizer reports go
 * to descriptor 2 and stay visible). */
typedef struct FuzzQuiet {
    FILE *out, *err;
} FuzzQuiet;

static inline FILE *fuzz_devnull(void)
{
    static FILE *null_stream; /* opened once per process (test harness) */

    if (!null_stream) {
        null_stream = fopen("/dev/null", "w");
        if (!null_stream) {
            abort();
        }
    }
    return null_stream;
}

static inline void fuzz_quiet_begin(FuzzQuiet *q)
{
    q->out = stdout;
    q->err = stderr;
    stdout = fuzz_devnull();
    stderr = fuzz_devnull();
}

static inline void fuzz_quiet_end(FuzzQuiet *q)
{
    fflush(stdout);
    stdout = q->out;
    stderr = q->err;
}

#endif /* LINX_TESTS_FUZZ_TARGET_H */
