/*
 * Engine benchmark: the cost of running translated code, as ratios against
 * a native baseline measured in the same run (never absolute thresholds).
 *
 *   native      the toy loop written in C (3 operations per iteration)
 *   jit         the same loop as toy-ISA code under -accel jit (chained)
 *   interp      under the IR interpreter (chained)
 *   interp-nochain  every block back through the exec loop (lookup cost)
 *   jr-interp   an indirect jump per iteration (lookup helper + goto_ptr)
 *   page_info   guest_mem_page_info over 10000 regions vs over 10
 *
 * Usage: bench-exec [iterations]   (meson: ninja -C build benchmark)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "hw/core/guest-memory.h"
#include "tcg/engine-config.h"
#include "tests/unit/toy-isa.h"

#define CODE UINT64_C(0x10000)
#define I TOY_INSN

static double now(void)
{
    struct timespec ts;

    /* CPU time of this thread: other processes on a loaded machine do not
     * count against us (descheduling would skew wall-clock ratios). */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The baseline: r1 += r2; r2 -= 1; loop while r2 != 0. */
static __attribute__((noinline)) uint64_t native_loop(volatile uint64_t *n)
{
    uint64_t r1 = 0, r2 = *n;

    while (r2) {
        r1 += r2;
        r2 -= 1;
        __asm__ volatile("" : "+r"(r1), "+r"(r2));
    }
    return r1;
}

typedef struct Run {
    GuestMemory *gm;
    LinxExecContext *ec;
    CPULinxState *env;
} Run;

static bool run_init(Run *r, LinxAccel accel, unsigned log_mask)
{
    LinxExecOptions opts;
    char err[256];

    toy_exec_options(&opts);
    opts.accel = accel;
    opts.log_mask = log_mask;
    r->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    guest_mem_map(r->gm, CODE, GUEST_PAGE_SIZE, GM_PROT_ALL, false);
    r->ec = linx_exec_new(&opts, err, sizeof(err));
    if (!r->ec) {
        fprintf(stderr, "bench-exec: %s\n", err);
        return false;
    }
    r->env = g_new0(CPULinxState, 1);
    r->env->engine.mem = r->gm;
    linx_exec_attach_cpu(r->ec, r->env);
    return true;
}

static void run_free(Run *r)
{
    linx_exec_free(r->ec);
    guest_mem_free(r->gm);
    g_free(r->env);
}

static void load_loop(Run *r, bool indirect)
{
    const uint32_t direct[] = {
        I(TOY_MARK, 0, 0, 0),
        I(TOY_MOVI, 1, 0, 0),
        I(TOY_MARK, 0, 0, 0),  /* 0x08 loop */
        I(TOY_ADD, 1, 2, 0),
        I(TOY_ADDI, 2, 0, -1),
        I(TOY_BNZ, 2, 0, -3),
        I(TOY_MARK, 0, 0, 0),
        I(TOY_HALT, 0, 0, 0),
    };
    const uint32_t via_jr[] = {
        I(TOY_MARK, 0, 0, 0),
        I(TOY_MOVI, 1, 0, 0),
        I(TOY_MARK, 0, 0, 0),  /* 0x08 loop */
        I(TOY_ADD, 1, 2, 0),
        I(TOY_ADDI, 2, 0, -1),
        I(TOY_BNZ, 2, 0, 3),   /* -> 0x20 */
        I(TOY_MARK, 0, 0, 0),
        I(TOY_HALT, 0, 0, 0),
        I(TOY_MARK, 0, 0, 0),  /* 0x20 */
        I(TOY_JR, 5, 0, 0),    /* r5 = CODE + 8 */
    };

    if (indirect) {
        toy_load(r->gm, CODE, via_jr, sizeof(via_jr) / 4);
    } else {
        toy_load(r->gm, CODE, direct, sizeof(direct) / 4);
    }
}

/* Seconds for @iters loop iterations (one warm-up run first). */
static double time_guest(LinxAccel accel, unsigned log_mask, bool indirect, uint64_t iters,
                         uint64_t *result)
{
    Run r;
    double t0, t1;

    if (!run_init(&r, accel, log_mask)) {
        exit(1);
    }
    load_loop(&r, indirect);
    for (int pass = 0; pass < 2; pass++) {
        r.env->pc = CODE;
        r.env->gpr[2] = pass ? iters : 1000;
        r.env->gpr[5] = CODE + 8;
        t0 = now();
        if (cpu_exec(r.env) != EXCP_EXIT) {
            fprintf(stderr, "bench-exec: guest loop did not exit\n");
            exit(1);
        }
        t1 = now();
    }
    *result = r.env->gpr[1];
    run_free(&r);
    return t1 - t0;
}

static double time_page_info(unsigned nregions, uint64_t lookups)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    uint8_t *host;
    int prot;
    bool code, mmio;
    uint64_t hits = 0;
    double t0;

    for (unsigned i = 0; i < nregions; i++) {
        guest_mem_map(gm, CODE + (uint64_t)i * 2 * GUEST_PAGE_SIZE, GUEST_PAGE_SIZE,
                      GM_PROT_READ, false);
    }
    t0 = now();
    for (uint64_t k = 0; k < lookups; k++) {
        uint64_t i = (k * 7919) % nregions;
        hits += guest_mem_page_info(gm, CODE + i * 2 * GUEST_PAGE_SIZE + 8, &host, &prot, &code,
                                    &mmio);
    }
    t0 = now() - t0;
    guest_mem_free(gm);
    if (hits != lookups) {
        fprintf(stderr, "bench-exec: page_info missed\n");
        exit(1);
    }
    return t0;
}

int main(int argc, char **argv)
{
    uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000000;
    volatile uint64_t n = iters;
    uint64_t want, got;
    double t_native, t;

    t_native = now();
    want = native_loop(&n);
    t_native = now() - t_native;
    printf("bench-exec: %llu iterations, native %.2f ns/iter\n", (unsigned long long)iters,
           t_native * 1e9 / iters);

#if LINX_HAVE_JIT
    t = time_guest(LINX_ACCEL_JIT, 0, false, iters, &got);
    printf("  %-16s %8.2f ns/iter  %7.1fx native%s\n", "jit", t * 1e9 / iters, t / t_native,
           got == want ? "" : "  WRONG RESULT");
#endif
    t = time_guest(LINX_ACCEL_INTERP, 0, false, iters / 4, &got);
    printf("  %-16s %8.2f ns/iter  %7.1fx native\n", "interp", t * 4e9 / iters,
           t * 4 / t_native);
    t = time_guest(LINX_ACCEL_INTERP, LINX_LOG_NOCHAIN, false, iters / 4, &got);
    printf("  %-16s %8.2f ns/iter  %7.1fx native\n", "interp-nochain", t * 4e9 / iters,
           t * 4 / t_native);
    t = time_guest(LINX_ACCEL_INTERP, 0, true, iters / 4, &got);
    printf("  %-16s %8.2f ns/iter  %7.1fx native\n", "jr-interp", t * 4e9 / iters,
           t * 4 / t_native);
#if LINX_HAVE_JIT
    t = time_guest(LINX_ACCEL_JIT, 0, true, iters, &got);
    printf("  %-16s %8.2f ns/iter  %7.1fx native\n", "jr-jit", t * 1e9 / iters, t / t_native);
#endif
    {
        double big = time_page_info(10000, 4000000), small = time_page_info(10, 4000000);
        printf("  %-16s %8.2f ns/lookup (10000 regions), %.2fx the 10-region cost\n",
               "page_info", big * 1e9 / 4000000, big / small);
    }
    return 0;
}
