/*
 * Host faults (tcg/host-fault.c, docs/engine.md "Guest memory: host
 * faults"): the JIT's unchecked guest accesses, whose slow path a host
 * SIGSEGV selects, must behave exactly as the TLB-checked JIT and the
 * interpreter do.  Each case runs one guest access (LinxISA assembled by
 * linx-as) three ways - JIT with host faults, JIT with TLB checks
 * (LinxExecOptions.no_host_faults), interpreter - and checks all three
 * against the architectural result written down here from the rules in
 * tcg/softmmu.h (trap numbers, DATA_PAGE_FAULT causes 0x1 translation,
 * 0x2 permission, 0x100 for writes; DATA_ALIGN_FAULT; TRAPARG0 = the
 * address; the faulting instruction's pc), not from a run of the code:
 * loads and stores of every size on RAM, unmapped gaps in the window,
 * read-only, execute-only and write-only pages, misaligned addresses,
 * RAM outside the window, MMIO, a store into a page holding translated
 * code (self-modifying code), and the window's top.  The host-fault runs
 * must have taken at least one host fault where the page decides (so the
 * path under test really ran) and none where the inline test does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"
#include "linx-as.h"
#include "target/linx/cpu.h"
#include "target/linx/profile.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"

#define CODE_BASE UINT64_C(0x10000)
#define CODE_SIZE UINT64_C(0x10000)
#define DATA UINT64_C(0x40000)   /* RW, 64 KiB */
#define RO UINT64_C(0x50000)     /* read-only page */
#define XO UINT64_C(0x51000)     /* execute-only page */
#define WO UINT64_C(0x52000)     /* write-only page */
#define GAP UINT64_C(0x53000)    /* nothing mapped */
#define MMIO UINT64_C(0x60000)   /* a device page */
#define FAR (UINT64_C(1) << 41)  /* RW RAM beyond a 1 TiB window */
#define A0 2
#define A1 3

enum { EXPECT_OK, EXPECT_PAGE, EXPECT_ALIGN };
enum { HF_NONE, HF_SOME }; /* host faults the host-fault run must show */

typedef struct Case {
    const char *name;
    const char *insn;      /* the access: a0 = address, a1 = value / result */
    uint64_t addr, value;
    int expect;
    unsigned cause;        /* DATA_PAGE_FAULT cause */
    uint64_t result;       /* a1 after a load, or the memory after a store */
    unsigned size;         /* store: bytes to read back at addr */
    int hf;
} Case;

typedef struct Device {
    uint64_t last_write, last_off;
} Device;

static bool dev_read(void *opaque, uint64_t off, unsigned size, uint64_t *v)
{
    (void)opaque;
    *v = 0x1000 + off * 3 + size;
    return true;
}

static bool dev_write(void *opaque, uint64_t off, unsigned size, uint64_t v)
{
    Device *d = opaque;

    (void)size;
    d->last_write = v;
    d->last_off = off;
    return true;
}

static const GuestMMIOOps dev_ops = { dev_read, dev_write };

typedef struct Result {
    int excp;
    unsigned trapnum, cause;
    uint64_t traparg0, trap_pc, a1, mem;
    uint64_t host_faults, invalidations;
    bool still_code;
    uint64_t acc_pc;       /* the access's pc */
    Device dev;
} Result;


static void assemble(const char *insn, uint8_t **img, size_t *len, uint64_t *acc)
{
    char src[512];
    LinxAsOptions o;
    LinxAs *as;

    snprintf(src, sizeof(src),
             "    .text\n    .globl _start\n_start:\n    C.BSTART.STD FALL\nacc:\n    %s\n"
             "    C.BSTART.STD FALL\n    ebreak 0\n",
             insn);
    linx_as_default_options(&o);
    o.base = CODE_BASE;
    o.format = LINX_AS_FMT_BIN;
    as = linx_as_new(&o);
    linx_as_add_source(as, "case.s", src, strlen(src));
    if (!linx_as_assemble(as) || !linx_as_output(as, img, len) ||
        !linx_as_symbol_value(as, "acc", acc)) {
        fprintf(stderr, "%s", linx_as_diagnostics(as));
        fail_msg("cannot assemble '%s'", insn);
    }
    linx_as_free(as);
}

static void run_case(const Case *c, LinxAccel accel, bool no_hf, Result *res)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    LinxExecOptions opts;
    LinxExecContext *ec;
    LinxExecStats st;
    CPULinxState *env = calloc(1, sizeof(*env));
    uint8_t *img, pattern[64];
    size_t len;
    char err[256];
    uint64_t win = 0;

    memset(res, 0, sizeof(*res));
    assert_non_null(gm);
    assert_non_null(guest_mem_direct_base(gm, &win));
    assert_true(win > 0 && win <= FAR);
    assemble(c->insn, &img, &len, &res->acc_pc);
    assert_true(guest_mem_map(gm, CODE_BASE, CODE_SIZE, GM_PROT_ALL, false));
    assert_int_equal(guest_mem_write(gm, CODE_BASE, img, len, NULL), GM_OK);
    free(img);
    assert_true(guest_mem_map(gm, DATA, 0x10000, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map(gm, RO, 0x1000, GM_PROT_READ, false));
    assert_true(guest_mem_map(gm, XO, 0x1000, GM_PROT_EXEC, false));
    assert_true(guest_mem_map(gm, WO, 0x1000, GM_PROT_WRITE, false));
    assert_true(guest_mem_map(gm, FAR, 0x1000, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map(gm, win - 0x1000, 0x1000, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map_mmio(gm, MMIO, 0x1000, &dev_ops, &res->dev));
    for (unsigned i = 0; i < sizeof(pattern); i++) {
        pattern[i] = (uint8_t)(0x81 + 7 * i);
    }
    /* The same bytes at the start of every RAM page a case reads. */
    for (uint64_t p = DATA; p < DATA + 0x10000; p += 0x1000) {
        assert_int_equal(guest_mem_debug_rw(gm, p, pattern, sizeof(pattern), true), GM_OK);
    }
    assert_int_equal(guest_mem_debug_rw(gm, RO, pattern, sizeof(pattern), true), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, XO, pattern, sizeof(pattern), true), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, WO, pattern, sizeof(pattern), true), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, FAR, pattern, sizeof(pattern), true), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, win - 0x1000, pattern, sizeof(pattern), true),
                     GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, CODE_BASE + 0x800, pattern, sizeof(pattern), true),
                     GM_OK);

    linx_exec_options_init(&opts);
    opts.accel = accel;
    opts.no_host_faults = no_hf;
    opts.trace_commit_path = NULL;
    ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(ec);
    env->engine.mem = gm;
    env->profile = linx_profile(LINX_PROFILE_TOOLCHAIN);
    linx_cpu_reset(env, CODE_BASE, 0);
    env->gpr[A0] = c->addr == UINT64_MAX ? win - 0x1000 : c->addr;
    env->gpr[A1] = c->value;
    linx_exec_attach_cpu(ec, env);
    res->excp = cpu_exec(env);
    res->trapnum = (unsigned)(env->trapno & 0x3f);
    res->cause = (unsigned)((env->trapno >> 24) & 0xffffff);
    res->traparg0 = env->traparg0;
    res->trap_pc = env->trap_pc;
    res->a1 = env->gpr[A1];
    if (c->size) {
        uint64_t v = 0;
        assert_int_equal(guest_mem_debug_rw(gm, env->gpr[A0], &v, c->size, false), GM_OK);
        res->mem = v;
    }
    res->still_code = guest_mem_is_code(gm, CODE_BASE + 0x800);
    linx_exec_get_stats(ec, &st);
    res->host_faults = st.host_faults;
    res->invalidations = st.invalidations;
    linx_exec_free(ec);
    guest_mem_free(gm);
    free(env);
}

static void check_case(const Case *c)
{
    static const struct {
        LinxAccel accel;
        bool no_hf;
        const char *name;
    } ways[] = {
        { LINX_ACCEL_JIT, false, "jit (host faults)" },
        { LINX_ACCEL_JIT, true, "jit (TLB checks)" },
        { LINX_ACCEL_INTERP, false, "interpreter" },
    };

    for (unsigned w = 0; w < 3; w++) {
        Result r;

        run_case(c, ways[w].accel, ways[w].no_hf, &r);
        if (c->expect == EXPECT_OK) {
            if (r.excp != EXCP_TRAP || r.trapnum != LINX_TRAP_SW_BREAKPOINT) {
                fail_msg("%s, %s: stopped with trap %u cause 0x%x at 0x%llx (addr 0x%llx)",
                         c->name, ways[w].name, r.trapnum, r.cause,
                         (unsigned long long)r.trap_pc, (unsigned long long)r.traparg0);
            }
            if (c->size) {
                if (r.mem != c->result) {
                    fail_msg("%s, %s: memory 0x%llx, expected 0x%llx", c->name, ways[w].name,
                             (unsigned long long)r.mem, (unsigned long long)c->result);
                }
            } else if (r.a1 != c->result) {
                fail_msg("%s, %s: a1 0x%llx, expected 0x%llx", c->name, ways[w].name,
                         (unsigned long long)r.a1, (unsigned long long)c->result);
            }
        } else {
            unsigned tn = c->expect == EXPECT_PAGE ? LINX_TRAP_DATA_PAGE_FAULT
                                                   : LINX_TRAP_DATA_ALIGN_FAULT;
            uint64_t addr = c->addr;

            if (r.excp != EXCP_TRAP || r.trapnum != tn ||
                (c->expect == EXPECT_PAGE && r.cause != c->cause) || r.traparg0 != addr ||
                r.trap_pc != r.acc_pc) {
                fail_msg("%s, %s: trap %u cause 0x%x arg 0x%llx pc 0x%llx; expected trap %u "
                         "cause 0x%x arg 0x%llx pc 0x%llx", c->name, ways[w].name, r.trapnum,
                         r.cause, (unsigned long long)r.traparg0,
                         (unsigned long long)r.trap_pc, tn, c->cause,
                         (unsigned long long)addr, (unsigned long long)r.acc_pc);
            }
            if (r.a1 != c->value) {
                fail_msg("%s, %s: a1 changed by a faulting access", c->name, ways[w].name);
            }
        }
        if (w == 0 && c->hf == HF_SOME && r.host_faults == 0) {
            fail_msg("%s: the host-fault run took no host fault", c->name);
        }
        if (w == 0 && c->hf == HF_NONE && r.host_faults != 0) {
            fail_msg("%s: %llu host faults where the inline test decides", c->name,
                     (unsigned long long)r.host_faults);
        }
        if (w > 0 && r.host_faults != 0) {
            fail_msg("%s, %s: host faults without host-fault code", c->name, ways[w].name);
        }
        if (c->addr == CODE_BASE + 0x800 && c->size) {
            /* A store into the code page: the translations of the page
             * went first (the ebreak's block then marks it again). */
            if (r.invalidations == 0 || !r.still_code) {
                fail_msg("%s, %s: no translation invalidated (%llu), or no code mark", c->name,
                         ways[w].name, (unsigned long long)r.invalidations);
            }
        }
    }
}

/* Little-endian reads of the pattern 0x81 + 7 i. */
#define PAT8_0 UINT64_C(0xb2aba49d968f8881)

static void test_ram_sizes(void **state)
{
    (void)state;
    const Case cases[] = {
        { "ldi", "ldi [a0, 0], ->a1", DATA, 0, EXPECT_OK, 0, PAT8_0, 0, HF_NONE },
        { "ldi +8", "ldi [a0, 8], ->a1", DATA, 0, EXPECT_OK, 0, UINT64_C(0xeae3dcd5cec7c0b9), 0,
          HF_NONE },
        { "lwi sign", "lwi [a0, 0], ->a1", DATA, 0, EXPECT_OK, 0, UINT64_C(0xffffffff968f8881),
          0, HF_NONE },
        { "lwui", "lwui [a0, 0], ->a1", DATA, 0, EXPECT_OK, 0, UINT64_C(0x968f8881), 0, HF_NONE },
        { "lhi sign", "lhi [a0, 0], ->a1", DATA, 0, EXPECT_OK, 0, UINT64_C(0xffffffffffff8881),
          0, HF_NONE },
        { "lbui", "lbui [a0, 1], ->a1", DATA, 0, EXPECT_OK, 0, 0x88, 0, HF_NONE },
        { "lbi sign", "lbi [a0, 1], ->a1", DATA, 0, EXPECT_OK, 0, UINT64_C(0xffffffffffffff88),
          0, HF_NONE },
        { "sdi", "sdi a1, [a0, 0]", DATA + 0x10, UINT64_C(0x0123456789abcdef), EXPECT_OK, 0,
          UINT64_C(0x0123456789abcdef), 8, HF_NONE },
        { "swi", "swi a1, [a0, 0]", DATA + 0x10, UINT64_C(0x0123456789abcdef), EXPECT_OK, 0,
          UINT64_C(0x89abcdef), 4, HF_NONE },
        { "sbi", "sbi a1, [a0, 0]", DATA + 0x10, 0x5a, EXPECT_OK, 0, 0x5a, 1, HF_NONE },
        { "window top", "ldi [a0, 0], ->a1", UINT64_MAX, 0, EXPECT_OK, 0, PAT8_0, 0, HF_NONE },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check_case(&cases[i]);
    }
}

static void test_faults(void **state)
{
    (void)state;
    const Case cases[] = {
        { "load unmapped", "ldi [a0, 0], ->a1", GAP, 7, EXPECT_PAGE, 0x1, 0, 0, HF_SOME },
        { "store unmapped", "sdi a1, [a0, 0]", GAP + 8, 7, EXPECT_PAGE, 0x101, 0, 0, HF_SOME },
        { "store read-only", "swi a1, [a0, 0]", RO + 4, 7, EXPECT_PAGE, 0x102, 0, 0, HF_SOME },
        { "load execute-only", "lwi [a0, 0], ->a1", XO, 7, EXPECT_PAGE, 0x2, 0, 0, HF_SOME },
        { "load write-only", "lbui [a0, 0], ->a1", WO, 7, EXPECT_PAGE, 0x2, 0, 0, HF_SOME },
        { "misaligned load", "ldi [a0, 0], ->a1", DATA + 4, 7, EXPECT_ALIGN, 0, 0, 0, HF_NONE },
        { "misaligned store", "shi a1, [a0, 0]", DATA + 1, 7, EXPECT_ALIGN, 0, 0, 0, HF_NONE },
        { "beyond the limit", "ldi [a0, 0], ->a1", UINT64_C(1) << 50, 7, EXPECT_PAGE, 0x1, 0,
          0, HF_NONE },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check_case(&cases[i]);
    }
}

static void test_slow_pages(void **state)
{
    (void)state;
    const Case cases[] = {
        /* Stores the host refuses, done by the slow path. */
        { "store write-only", "sdi a1, [a0, 0]", WO + 8, UINT64_C(0x1122334455667788), EXPECT_OK,
          0, UINT64_C(0x1122334455667788), 8, HF_SOME },
        { "mmio load", "lwui [a0, 8], ->a1", MMIO, 0, EXPECT_OK, 0, 0x1000 + 8 * 3 + 4, 0,
          HF_SOME },
        { "code page store", "sdi a1, [a0, 0]", CODE_BASE + 0x800, UINT64_C(0x7766554433221100),
          EXPECT_OK, 0, UINT64_C(0x7766554433221100), 8, HF_SOME },
        /* Outside the window: the inline test sends it to the slow path. */
        { "far load", "ldi [a0, 0], ->a1", FAR, 0, EXPECT_OK, 0, PAT8_0, 0, HF_NONE },
        { "far store", "sdi a1, [a0, 0]", FAR + 8, 42, EXPECT_OK, 0, 42, 8, HF_NONE },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check_case(&cases[i]);
    }
}

/* An MMIO store reaches the device with its value and offset. */
static void test_mmio_store(void **state)
{
    (void)state;
    const Case c = { "mmio store", "swi a1, [a0, 12]", MMIO, 0xabcdef, EXPECT_OK, 0, 0xabcdef, 0,
                     HF_SOME };
    Result r;

    run_case(&c, LINX_ACCEL_JIT, false, &r);
    assert_int_equal(r.trapnum, LINX_TRAP_SW_BREAKPOINT);
    assert_int_equal(r.dev.last_write, 0xabcdef);
    assert_int_equal(r.dev.last_off, 12);
    assert_true(r.host_faults > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ram_sizes),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_slow_pages),
        cmocka_unit_test(test_mmio_store),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
