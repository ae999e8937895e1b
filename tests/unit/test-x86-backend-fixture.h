/*
 * Shared fixture of the x86-64 backend tests (test-x86-backend*.c).
 *
 * A JitFixture owns a real CodeBuffer (W^X double mapping), a BackendState
 * with its prologue, an IRContext with NB_TEST_GLOBALS globals mapped onto
 * env->gpr[], and a CPULinxState on the heap whose TLB maps a flat "guest
 * memory" (GUEST_BASE .. GUEST_BASE + GUEST_PAGES pages) so the inline
 * fast path hits; every other TLB entry is empty (the fast path misses and
 * calls bs.ld_slow/st_slow, which tests replace by doubles).
 *
 * ref_op() is the C reference of each pure IR op, written from the
 * descriptions in tcg/ir-ops.h independently of the optimiser's folder
 * (loops instead of builtins, 32-bit halves instead of __int128).
 *
 * Usage:
 *   JitFixture f;
 *   fixture_init(&f);
 *   ir_reset(f.ir); ... build IR ...
 *   fixture_gen(&f, NULL);            // asserts success
 *   uintptr_t r = fixture_run(&f);    // env->gpr[] in f.env
 *   fixture_fini(&f);
 */
#ifndef LINX_TEST_X86_BACKEND_FIXTURE_H
#define LINX_TEST_X86_BACKEND_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "tcg/backend.h"
#include "tcg/code-buffer.h"
#include "tcg/ir.h"
#include "tcg/softmmu.h"

#define NB_TEST_GLOBALS 16
#define FIXTURE_CODE_SIZE (4u * 1024 * 1024)
#define GUEST_BASE UINT64_C(0x40000)
#define GUEST_PAGES 8
#define GUEST_BYTES (GUEST_PAGES * GUEST_PAGE_SIZE)

typedef struct JitFixture {
    CodeBuffer cb;
    BackendState bs;
    IRContext *ir;
    CPULinxState *env;
    IRTemp g[NB_TEST_GLOBALS]; /* g[i] lives in env->gpr[i] */
    TranslationBlock tb;
    uint8_t *mem;              /* the flat guest memory */
} JitFixture;

static uint64_t fixture_rng_state = UINT64_C(0x9e3779b97f4a7c15);

static inline uint64_t rng64(void)
{
    uint64_t x = fixture_rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    fixture_rng_state = x;
    return x;
}

/* Random values biased towards the edge cases of 64-bit arithmetic. */
static inline uint64_t rng_interesting(void)
{
    static const uint64_t edges[] = {
        0, 1, 2, 3, 7, 8, 31, 32, 63, 64, 65, 127, 128, 255, 256, 0x7fff, 0x8000, 0xffff,
        0x7fffffff, 0x80000000, 0xffffffff, UINT64_C(0x100000000), INT64_MAX,
        (uint64_t)INT64_MIN, UINT64_MAX, UINT64_MAX - 1, (uint64_t)-2, (uint64_t)-63,
        (uint64_t)-64, UINT64_C(0x8000000000000001), UINT64_C(0x5555555555555555),
    };
    uint64_t r = rng64();

    switch (r & 7) {
    case 0:
    case 1:
        return edges[(r >> 8) % (sizeof(edges) / sizeof(edges[0]))];
    case 2:
        return (r >> 16) & 0xff;
    case 3:
        return (uint64_t)(int64_t)(int32_t)(r >> 11);
    default:
        return rng64();
    }
}

static inline void fixture_map_memory(JitFixture *f)
{
    memset(f->env->engine.tlb, 0xff, sizeof(f->env->engine.tlb));
    for (unsigned p = 0; p < GUEST_PAGES; p++) {
        uint64_t page = GUEST_BASE + p * GUEST_PAGE_SIZE;
        LinxTLBEntry *e = &f->env->engine.tlb[(page >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
        e->addr_read = page;
        e->addr_write = page;
        e->addr_code = page;
        e->addend = (uintptr_t)f->mem - GUEST_BASE;
    }
}

static inline void fixture_init(JitFixture *f)
{
    memset(f, 0, sizeof(*f));
    assert_true(code_buffer_init(&f->cb, FIXTURE_CODE_SIZE));
    assert_true(backend_init(&f->bs, &f->cb));
    f->ir = ir_context_new();
    for (unsigned i = 0; i < NB_TEST_GLOBALS; i++) {
        char name[16];
        snprintf(name, sizeof(name), "g%u", i);
        f->g[i] = ir_global(f->ir, (int)offsetof(CPULinxState, gpr[i]), name);
    }
    f->env = calloc(1, sizeof(*f->env));
    f->mem = calloc(1, GUEST_BYTES);
    assert_non_null(f->env);
    assert_non_null(f->mem);
    fixture_map_memory(f);
    ir_reset(f->ir);
}

/* Direct mode (tcg/softmmu.h): the JIT adds BackendState.guest_base, set
 * so that it reaches the same flat memory as the TLB's addend. */
static inline void fixture_set_direct(JitFixture *f, bool on)
{
    f->bs.guest_direct = on;
    f->bs.guest_base = on ? (uintptr_t)f->mem - GUEST_BASE : 0;
}

static inline void fixture_fini(JitFixture *f)
{
    ir_context_free(f->ir);
    code_buffer_destroy(&f->cb);
    free(f->env);
    free(f->mem);
}

/* Generate f->ir as f->tb (resetting the buffer when it is full). */
static inline void fixture_gen(JitFixture *f, FILE *log)
{
    memset(&f->tb, 0, sizeof(f->tb));
    f->tb.pc = GUEST_BASE;
    if (!backend_gen_tb(&f->bs, &f->cb, f->ir, &f->tb, log)) {
        code_buffer_reset(&f->cb);
        memset(&f->tb, 0, sizeof(f->tb));
        f->tb.pc = GUEST_BASE;
        assert_true(backend_gen_tb(&f->bs, &f->cb, f->ir, &f->tb, log));
    }
    assert_non_null(f->tb.host_code);
}

static inline uintptr_t fixture_run_tb(JitFixture *f, const TranslationBlock *tb)
{
    return f->bs.entry(f->env, tb->host_code);
}

static inline uintptr_t fixture_run(JitFixture *f)
{
    return fixture_run_tb(f, &f->tb);
}

/* ------------------------------------------------------------------ */
/* Reference semantics                                                 */
/* ------------------------------------------------------------------ */

static inline bool ref_cond(IRCond c, uint64_t a, uint64_t b)
{
    int64_t sa = (int64_t)a, sb = (int64_t)b;

    switch (c) {
    case IR_COND_NEVER:
        return false;
    case IR_COND_ALWAYS:
        return true;
    case IR_COND_EQ:
        return a == b;
    case IR_COND_NE:
        return !(a == b);
    case IR_COND_LT:
        return sa < sb;
    case IR_COND_GE:
        return !(sa < sb);
    case IR_COND_LE:
        return !(sb < sa);
    case IR_COND_GT:
        return sb < sa;
    case IR_COND_LTU:
        return a < b;
    case IR_COND_GEU:
        return !(a < b);
    case IR_COND_LEU:
        return !(b < a);
    case IR_COND_GTU:
        return b < a;
    case IR_COND_TSTEQ:
        return (a & b) == 0;
    case IR_COND_TSTNE:
        return (a & b) != 0;
    }
    return false;
}

/* High 64 bits of the unsigned 128-bit product, from 32-bit halves. */
static inline uint64_t ref_muluh(uint64_t a, uint64_t b)
{
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static inline uint64_t ref_mulsh(uint64_t a, uint64_t b)
{
    /* signed high = unsigned high - (a < 0 ? b : 0) - (b < 0 ? a : 0) */
    uint64_t h = ref_muluh(a, b);
    if ((int64_t)a < 0) {
        h -= b;
    }
    if ((int64_t)b < 0) {
        h -= a;
    }
    return h;
}

static inline uint64_t ref_op(IROpcode op, IRCond c, const uint64_t *in)
{
    uint64_t a = in[0], b = in[1], r = 0;
    unsigned sh = (unsigned)(b % 64);

    switch (op) {
    case IR_mov:
        return a;
    case IR_setcond:
        return ref_cond(c, a, b) ? 1 : 0;
    case IR_movcond:
        return ref_cond(c, a, b) ? in[2] : in[3];
    case IR_add:
        return a + b;
    case IR_sub:
        return a - b;
    case IR_mul:
        return a * b;
    case IR_mulsh:
        return ref_mulsh(a, b);
    case IR_muluh:
        return ref_muluh(a, b);
    case IR_neg:
        return 0 - a;
    case IR_and:
        return a & b;
    case IR_or:
        return a | b;
    case IR_xor:
        return a ^ b;
    case IR_andc:
        return a & ~b;
    case IR_not:
        return ~a;
    case IR_shl:
        return a << sh;
    case IR_shr:
        return a >> sh;
    case IR_sar:
        r = a >> sh;
        if (sh && ((int64_t)a < 0)) {
            r |= ~(UINT64_MAX >> sh);
        }
        return r;
    case IR_rotr:
        return sh ? (a >> sh) | (a << (64 - sh)) : a;
    case IR_clz:
        for (r = 0; r < 64 && !(a & (UINT64_C(1) << (63 - r))); r++) {
        }
        return r;
    case IR_ctz:
        for (r = 0; r < 64 && !(a & (UINT64_C(1) << r)); r++) {
        }
        return r;
    case IR_ctpop:
        for (unsigned i = 0; i < 64; i++) {
            r += (a >> i) & 1;
        }
        return r;
    case IR_bswap64:
        for (unsigned i = 0; i < 8; i++) {
            r = (r << 8) | ((a >> (8 * i)) & 0xff);
        }
        return r;
    case IR_ext8s:
        return (a & 0x80) ? (a | ~UINT64_C(0xff)) : (a & 0xff);
    case IR_ext8u:
        return a & 0xff;
    case IR_ext16s:
        return (a & 0x8000) ? (a | ~UINT64_C(0xffff)) : (a & 0xffff);
    case IR_ext16u:
        return a & 0xffff;
    case IR_ext32s:
        return (a & 0x80000000u) ? (a | ~UINT64_C(0xffffffff)) : (a & 0xffffffffu);
    case IR_ext32u:
        return a & 0xffffffffu;
    default:
        fail_msg("no reference for op %u", op);
        return 0;
    }
}

/* The pure ops with one output that ref_op() knows, with their input counts. */
static const struct {
    IROpcode op;
    unsigned nin;
} pure_ops[] = {
    { IR_mov, 1 },    { IR_setcond, 2 }, { IR_movcond, 4 }, { IR_add, 2 },    { IR_sub, 2 },
    { IR_mul, 2 },    { IR_mulsh, 2 },   { IR_muluh, 2 },   { IR_neg, 1 },    { IR_and, 2 },
    { IR_or, 2 },     { IR_xor, 2 },     { IR_andc, 2 },    { IR_not, 1 },    { IR_shl, 2 },
    { IR_shr, 2 },    { IR_sar, 2 },     { IR_rotr, 2 },    { IR_clz, 1 },    { IR_ctz, 1 },
    { IR_ctpop, 1 },  { IR_bswap64, 1 }, { IR_ext8s, 1 },   { IR_ext8u, 1 },  { IR_ext16s, 1 },
    { IR_ext16u, 1 }, { IR_ext32s, 1 },  { IR_ext32u, 1 },
};
#define NB_PURE_OPS (sizeof(pure_ops) / sizeof(pure_ops[0]))

/* Emit "d = op(in...)" (with condition @c where the op takes one). */
static inline void emit_pure(IRContext *ir, IROpcode op, IRCond c, IRTemp d, const IRTemp *in,
                             unsigned nin)
{
    uint64_t args[IR_MAX_ARGS];
    unsigned n = 0;

    args[n++] = d;
    for (unsigned i = 0; i < nin; i++) {
        args[n++] = in[i];
    }
    if (op == IR_setcond || op == IR_movcond) {
        args[n++] = c;
    }
    ir_emit(ir, op, args);
}

#endif /* LINX_TEST_X86_BACKEND_FIXTURE_H */
