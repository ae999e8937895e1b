/*
 * Backend benchmark: speed of the x86-64 JIT's code against the IR
 * interpreter and against native C doing the same work, all measured in
 * the same run (ratios, never absolute thresholds).
 *
 *   alu     a loop of 12 ALU ops (add, xor, shifts by constants and by a
 *           register, mul, and, or, setcond, sub) on globals and locals
 *   mem     a loop of guest loads and stores through the softmmu TLB fast
 *           path plus address arithmetic
 *   gen     translation cost: ir_optimize + backend_gen_tb of a 100-op
 *           TB, against one interpretation of the same TB (how many runs
 *           pay for compiling it)
 *
 * Usage: bench-backend [iterations]   (meson: ninja -C build benchmark)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "tcg/backend.h"
#include "tcg/code-buffer.h"
#include "tcg/interp.h"
#include "tcg/ir.h"
#include "tcg/optimize.h"
#include "tcg/softmmu.h"

#define NB_GLOBALS 8
#define DEFAULT_ITERS 20000000ull
#define MEM_BASE UINT64_C(0x100000)
#define MEM_PAGES 4
#define MEM_BYTES (MEM_PAGES * GUEST_PAGE_SIZE)
#define MEM_MASK (MEM_BYTES - 8)
#define GEN_REPS 2000
#define GEN_OPS 100

typedef struct Bench {
    CodeBuffer cb;
    BackendState bs;
    IRContext *ir;
    LinxInterp *it;
    CPULinxState *env;
    IRTemp g[NB_GLOBALS];
    uint8_t *mem;
} Bench;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- Native baselines (same work, compiled C) ---- */

static __attribute__((noinline)) uint64_t native_alu(uint64_t n, uint64_t a, uint64_t b)
{
    uint64_t c = 5;

    for (uint64_t i = n; i; i--) {
        uint64_t t = a + b;
        t ^= c;
        t = (t << 3) | (t >> (b & 63));
        a = t * 0x9e3779b97f4a7c15ull;
        b = (b & 0xffff) + (a < t);
        c = c - (t >> 7);
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c));
    }
    return a ^ b ^ c;
}

static __attribute__((noinline)) uint64_t native_mem(uint64_t n, uint8_t *mem, uint64_t a)
{
    uint64_t p = 0;

    for (uint64_t i = n; i; i--) {
        uint64_t *q = (uint64_t *)(mem + (p & MEM_MASK));
        uint64_t v = *q + a;
        *q = v;
        a ^= v >> 3;
        p += 8;
        __asm__ volatile("" : "+r"(a), "+r"(p));
    }
    return a;
}

/* ---- The same loops as IR ---- */

static void build_alu_loop(Bench *b)
{
    IRContext *ir = b->ir;
    IRTemp *g = b->g;

    ir_reset(ir);
    IRLabel top = ir_label(ir);
    ir_gen_set_label(ir, top);
    IRTemp t = ir_temp(ir), u = ir_temp(ir), s = ir_temp(ir);
    ir_gen_add(ir, t, g[1], g[2]);
    ir_gen_xor(ir, t, t, g[3]);
    ir_gen_shli(ir, u, t, 3);
    ir_gen_andi(ir, s, g[2], 63);
    ir_gen_op3(ir, IR_shr, s, t, s);
    ir_gen_or(ir, t, u, s);
    ir_gen_op3(ir, IR_mul, g[1], t, ir_const(ir, (int64_t)0x9e3779b97f4a7c15ull));
    ir_gen_setcond(ir, IR_COND_LTU, u, g[1], t);
    ir_gen_andi(ir, s, g[2], 0xffff);
    ir_gen_add(ir, g[2], s, u);
    ir_gen_shri(ir, t, t, 7);
    ir_gen_sub(ir, g[3], g[3], t);
    ir_gen_addi(ir, g[0], g[0], -1);
    ir_gen_brcond(ir, IR_COND_NE, g[0], ir_const(ir, 0), top);
    ir_gen_exit_tb(ir, 0);
}

static void build_mem_loop(Bench *b)
{
    IRContext *ir = b->ir;
    IRTemp *g = b->g;

    ir_reset(ir);
    IRLabel top = ir_label(ir);
    ir_gen_set_label(ir, top);
    IRTemp a = ir_temp(ir), v = ir_temp(ir), s = ir_temp(ir);
    ir_gen_andi(ir, a, g[4], (int64_t)MEM_MASK);
    ir_gen_addi(ir, a, a, (int64_t)MEM_BASE);
    ir_gen_qemu_ld(ir, v, a, IR_MO_64 | IR_MO_ALIGN, 0x10);
    ir_gen_add(ir, v, v, g[1]);
    ir_gen_qemu_st(ir, v, a, IR_MO_64 | IR_MO_ALIGN, 0x14);
    ir_gen_shri(ir, s, v, 3);
    ir_gen_xor(ir, g[1], g[1], s);
    ir_gen_addi(ir, g[4], g[4], 8);
    ir_gen_addi(ir, g[0], g[0], -1);
    ir_gen_brcond(ir, IR_COND_NE, g[0], ir_const(ir, 0), top);
    ir_gen_exit_tb(ir, 0);
}

/* Random straight-line TB of @n ALU ops for the translation-cost test. */
static void build_straight(Bench *b, unsigned n)
{
    IRContext *ir = b->ir;
    IRTemp t[8];
    static const IROpcode ops[] = { IR_add, IR_sub, IR_xor, IR_and, IR_or, IR_shl, IR_mul };

    ir_reset(ir);
    for (unsigned i = 0; i < 8; i++) {
        t[i] = ir_temp(ir);
        ir_gen_addi(ir, t[i], b->g[i], (int64_t)i);
    }
    for (unsigned i = 0; i < n; i++) {
        IRTemp src = (i % 3) ? t[(i * 5) % 8] : ir_const(ir, (int64_t)i);
        ir_gen_op3(ir, ops[i % 7], t[i % 8], t[(i + 3) % 8], src);
        if (i % 9 == 0) {
            ir_gen_mov(ir, b->g[i % NB_GLOBALS], t[i % 8]);
        }
    }
    ir_gen_exit_tb(ir, 0);
}

static TranslationBlock *keep_tb(Bench *b)
{
    TranslationBlock *tb = g_new0(TranslationBlock, 1);

    tb->pc = 0x1000;
    tb->ir = g_memdup2(b->ir->insns, b->ir->ninsns * sizeof(IRInsn));
    tb->nir = b->ir->ninsns;
    tb->temps = g_memdup2(b->ir->temps, b->ir->ntemps * sizeof(IRTempInfo));
    tb->ntemps = b->ir->ntemps;
    return tb;
}

static void drop_tb(TranslationBlock *tb)
{
    interp_tb_release(tb);
    g_free(tb->ir);
    g_free(tb->temps);
    g_free(tb);
}

static bool gen(Bench *b, TranslationBlock *tb)
{
    if (!backend_gen_tb(&b->bs, &b->cb, b->ir, tb, NULL)) {
        code_buffer_reset(&b->cb);
        return backend_gen_tb(&b->bs, &b->cb, b->ir, tb, NULL);
    }
    return true;
}

/* Seconds for @iters iterations of the loop in b->ir, JIT and interpreter;
 * both must end in the same state. */
static bool time_loop(Bench *b, uint64_t iters, uint64_t interp_iters, double *t_jit,
                      double *t_interp)
{
    ir_optimize(b->ir);
    TranslationBlock *tb = keep_tb(b);
    uint64_t gj[NB_GLOBALS], gi[NB_GLOBALS];
    bool ok = gen(b, tb);

    for (unsigned pass = 0; pass < 2 && ok; pass++) {
        memset(b->env->gpr, 0, sizeof(b->env->gpr));
        memset(b->mem, 0, MEM_BYTES);
        b->env->gpr[0] = pass ? interp_iters : iters;
        b->env->gpr[1] = 12345;
        b->env->gpr[2] = 678;
        b->env->gpr[3] = 5;
        double t0 = now();
        if (pass == 0) {
            b->bs.entry(b->env, tb->host_code);
            *t_jit = now() - t0;
            memcpy(gj, b->env->gpr, sizeof(gj));
        } else {
            interp_run_tb(b->it, b->env, tb);
            *t_interp = now() - t0;
            memcpy(gi, b->env->gpr, sizeof(gi));
        }
    }
    drop_tb(tb);
    if (ok && interp_iters == iters && memcmp(gj, gi, sizeof(gj)) != 0) {
        fprintf(stderr, "bench-backend: JIT and interpreter disagree\n");
        return false;
    }
    return ok;
}

static bool bench_init(Bench *b)
{
    memset(b, 0, sizeof(*b));
    if (!code_buffer_init(&b->cb, 16u << 20) || !backend_init(&b->bs, &b->cb)) {
        fprintf(stderr, "bench-backend: cannot set up the code buffer\n");
        return false;
    }
    b->ir = ir_context_new();
    for (unsigned i = 0; i < NB_GLOBALS; i++) {
        char name[8];
        snprintf(name, sizeof(name), "g%u", i);
        b->g[i] = ir_global(b->ir, (int)offsetof(CPULinxState, gpr[i]), name);
    }
    b->it = interp_new(b->ir);
    b->env = g_new0(CPULinxState, 1);
    b->mem = g_malloc0(MEM_BYTES);
    memset(b->env->engine.tlb, 0xff, sizeof(b->env->engine.tlb));
    for (unsigned p = 0; p < MEM_PAGES; p++) {
        uint64_t page = MEM_BASE + p * GUEST_PAGE_SIZE;
        LinxTLBEntry *e = &b->env->engine.tlb[(page >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
        e->addr_read = e->addr_write = page;
        e->addend = (uintptr_t)b->mem - MEM_BASE;
    }
    return true;
}

static void bench_fini(Bench *b)
{
    interp_free(b->it);
    ir_context_free(b->ir);
    code_buffer_destroy(&b->cb);
    g_free(b->env);
    g_free(b->mem);
}

int main(int argc, char **argv)
{
    uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 0) : DEFAULT_ITERS;
    uint64_t interp_iters = iters / 8 ? iters / 8 : 1;
    Bench b;
    double t0, t_native, t_jit, t_interp;
    volatile uint64_t sink;

    if (!bench_init(&b)) {
        return 1;
    }
    printf("bench-backend: %llu loop iterations (interpreter: %llu, scaled)\n",
           (unsigned long long)iters, (unsigned long long)interp_iters);

    t0 = now();
    sink = native_alu(iters, 12345, 678);
    t_native = now() - t0;
    build_alu_loop(&b);
    if (!time_loop(&b, iters, interp_iters, &t_jit, &t_interp)) {
        return 1;
    }
    t_interp *= (double)iters / interp_iters;
    printf("  alu  native %6.2f ns/iter | jit %6.2f ns/iter = %5.2fx native | interp %7.2f "
           "ns/iter = %5.1fx jit\n", t_native * 1e9 / iters, t_jit * 1e9 / iters,
           t_jit / t_native, t_interp * 1e9 / iters, t_interp / t_jit);

    t0 = now();
    sink = native_mem(iters, b.mem, 12345);
    t_native = now() - t0;
    build_mem_loop(&b);
    if (!time_loop(&b, iters, interp_iters, &t_jit, &t_interp)) {
        return 1;
    }
    t_interp *= (double)iters / interp_iters;
    printf("  mem  native %6.2f ns/iter | jit %6.2f ns/iter = %5.2fx native | interp %7.2f "
           "ns/iter = %5.1fx jit\n", t_native * 1e9 / iters, t_jit * 1e9 / iters,
           t_jit / t_native, t_interp * 1e9 / iters, t_interp / t_jit);
    (void)sink;

    /* Translation cost against one interpretation of the same TB. */
    double t_gen = 0, t_opt = 0, t_run = 0;
    for (unsigned r = 0; r < GEN_REPS; r++) {
        build_straight(&b, GEN_OPS);
        TranslationBlock *tb = keep_tb(&b);
        t0 = now();
        interp_run_tb(b.it, b.env, tb);
        t_run += now() - t0;
        drop_tb(tb);
        TranslationBlock out = { 0 };
        t0 = now();
        ir_optimize(b.ir);
        double t1 = now();
        bool ok = gen(&b, &out);
        t_opt += t1 - t0;
        t_gen += now() - t1;
        if (!ok) {
            return 1;
        }
    }
    printf("  gen  optimise %.2f + generate %.2f us per %u-op TB = %.0fx one interpretation "
           "of it\n", t_opt * 1e6 / GEN_REPS, t_gen * 1e6 / GEN_REPS, GEN_OPS,
           (t_opt + t_gen) / t_run);
    bench_fini(&b);
    return 0;
}
