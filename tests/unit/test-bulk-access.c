/*
 * The bulk-access fast path of C helpers (linx_tlb_range_host,
 * tcg/softmmu.h; MCOPY and MSET use it before guest_mem_window): it may
 * hand out a host pointer only for plain RAM the access is allowed on,
 * as one run of host memory, and must decline - never fault - for
 * everything the checked path has to see: unmapped bytes, missing
 * permission, MMIO, pages with translated code, pages dirty tracking has
 * not recorded (it records them, as a store's TLB fill does), ranges over
 * LINX_TLB_RANGE_PAGES pages.  Expected answers come from those rules;
 * a pointer it returns must reach the same bytes as guest_mem_debug_rw.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"
#include "tcg/softmmu.h"

#define DATA UINT64_C(0x40000) /* RW, 64 KiB */
#define RO UINT64_C(0x50000)   /* read-only page */
#define GAP UINT64_C(0x51000)  /* nothing mapped */
#define MMIO UINT64_C(0x60000) /* a device page */
#define PG GUEST_PAGE_SIZE

static bool dev_read(void *opaque, uint64_t off, unsigned size, uint64_t *v)
{
    (void)opaque;
    (void)off;
    (void)size;
    *v = 0;
    return true;
}

static bool dev_write(void *opaque, uint64_t off, unsigned size, uint64_t v)
{
    (void)opaque;
    (void)off;
    (void)size;
    (void)v;
    return true;
}

static const GuestMMIOOps dev_ops = { dev_read, dev_write };

typedef struct Fixture {
    GuestMemory *gm;
    CPULinxState *env;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    f->env = calloc(1, sizeof(*f->env));
    assert_true(guest_mem_map(f->gm, DATA, 0x10000, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_true(guest_mem_map(f->gm, RO, PG, GM_PROT_READ, false));
    assert_true(guest_mem_map_mmio(f->gm, MMIO, PG, &dev_ops, NULL));
    f->env->engine.mem = f->gm;
    linx_tlb_flush(f->env);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    guest_mem_free(f->gm);
    free(f->env);
    free(f);
    return 0;
}

/* A pointer it gives reaches the guest's bytes, both ways. */
static void check_same_bytes(GuestMemory *gm, uint8_t *host, uint64_t addr, size_t len)
{
    uint8_t *want = malloc(len), *got = malloc(len);

    for (size_t i = 0; i < len; i++) {
        want[i] = (uint8_t)(addr + 3 * i);
    }
    memcpy(host, want, len);
    assert_int_equal(guest_mem_debug_rw(gm, addr, got, len, false), GM_OK);
    assert_memory_equal(got, want, len);
    want[len / 2] ^= 0x5a;
    assert_int_equal(guest_mem_debug_rw(gm, addr, want, len, true), GM_OK);
    assert_memory_equal(host, want, len);
    free(want);
    free(got);
}

static void test_ram(void **state)
{
    Fixture *f = *state;
    uint8_t *h;

    /* inside one page, across two, and 16 pages exactly */
    h = linx_tlb_range_host(f->env, DATA + 0x10, 200, true);
    assert_non_null(h);
    check_same_bytes(f->gm, h, DATA + 0x10, 200);
    h = linx_tlb_range_host(f->env, DATA + PG - 5, 300, false);
    assert_non_null(h);
    check_same_bytes(f->gm, h, DATA + PG - 5, 300);
    h = linx_tlb_range_host(f->env, DATA, 16 * PG, true);
    assert_non_null(h);
    check_same_bytes(f->gm, h, DATA, 16 * PG);
    /* one byte more is more than LINX_TLB_RANGE_PAGES pages */
    assert_null(linx_tlb_range_host(f->env, DATA, 16 * PG + 1, true));
    assert_null(linx_tlb_range_host(f->env, DATA, 0, false));
    assert_null(linx_tlb_range_host(f->env, UINT64_MAX - 4, 16, false));
}

static void test_declines(void **state)
{
    Fixture *f = *state;
    uint8_t *h;

    /* read-only: reads yes, writes no */
    h = linx_tlb_range_host(f->env, RO + 8, 64, false);
    assert_non_null(h);
    assert_null(linx_tlb_range_host(f->env, RO + 8, 64, true));
    /* RAM running into the gap after RO, or starting in it */
    assert_null(linx_tlb_range_host(f->env, RO + PG - 8, 16, false));
    assert_null(linx_tlb_range_host(f->env, GAP, 8, false));
    /* a device page */
    assert_null(linx_tlb_range_host(f->env, MMIO, 8, false));
    assert_null(linx_tlb_range_host(f->env, MMIO, 8, true));
    /* the last RAM page before a device page */
    assert_true(guest_mem_map(f->gm, MMIO - PG, PG, GM_PROT_READ | GM_PROT_WRITE, false));
    linx_tlb_flush(f->env);
    assert_non_null(linx_tlb_range_host(f->env, MMIO - 64, 64, true));
    assert_null(linx_tlb_range_host(f->env, MMIO - 64, 65, true));
}

static void test_code_page(void **state)
{
    Fixture *f = *state;

    /* A write entry cached before the page got code must not survive:
     * the exec layer's listener flushes it; here the flush is by hand. */
    assert_non_null(linx_tlb_range_host(f->env, DATA + 2 * PG, 64, true));
    guest_mem_set_code(f->gm, DATA + 2 * PG);
    linx_tlb_flush(f->env);
    assert_null(linx_tlb_range_host(f->env, DATA + 2 * PG, 64, true));
    assert_null(linx_tlb_range_host(f->env, DATA + PG, PG + 1, true));
    assert_non_null(linx_tlb_range_host(f->env, DATA + 2 * PG, 64, false));
    assert_non_null(linx_tlb_range_host(f->env, DATA + PG, PG, true)); /* the page before */
}

static void test_dirty_tracking(void **state)
{
    Fixture *f = *state;
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    CPULinxState *env = calloc(1, sizeof(*env));

    (void)state;
    (void)f;
    assert_true(guest_mem_track_dirty(gm));
    assert_true(guest_mem_map(gm, DATA, 0x10000, GM_PROT_READ | GM_PROT_WRITE, false));
    env->engine.mem = gm;
    linx_tlb_flush(env);
    /* a read records nothing; a write range records every page it covers */
    assert_non_null(linx_tlb_range_host(env, DATA + PG - 8, 16, false));
    assert_false(guest_mem_is_dirty(gm, DATA));
    assert_false(guest_mem_is_dirty(gm, DATA + PG));
    assert_non_null(linx_tlb_range_host(env, DATA + PG - 8, 16, true));
    assert_true(guest_mem_is_dirty(gm, DATA));
    assert_true(guest_mem_is_dirty(gm, DATA + PG));
    assert_false(guest_mem_is_dirty(gm, DATA + 2 * PG));
    guest_mem_free(gm);
    free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ram, setup, teardown),
        cmocka_unit_test_setup_teardown(test_declines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_code_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dirty_tracking, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
