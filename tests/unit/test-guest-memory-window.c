/*
 * Guest memory's direct window (hw/core/guest-memory-host.c): RAM mapped
 * in guest [0, window size) lives at base + guest address, unmapped
 * window ranges read as zeros when mapped again, moves carry the bytes
 * into, out of and within the window, ranges across the window's end are
 * split so the inside part is direct, and the reservation shrinks when
 * the host refuses a large one.  (The model test runs the whole API with
 * and without a window.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"

#define PAGE GUEST_PAGE_SIZE
#define WIN_SMALL (UINT64_C(64) << 20) /* a 64 MiB window for the edge tests */

static uint8_t *host_of(GuestMemory *gm, uint64_t addr)
{
    uint8_t *host = NULL;
    int prot;
    bool code, mmio;

    assert_true(guest_mem_page_info(gm, addr, &host, &prot, &code, &mmio));
    return host + (addr & ~GUEST_PAGE_MASK);
}

static void put64(GuestMemory *gm, uint64_t addr, uint64_t v)
{
    assert_int_equal(guest_mem_debug_rw(gm, addr, &v, sizeof(v), true), GM_OK);
}

static uint64_t get64(GuestMemory *gm, uint64_t addr)
{
    uint64_t v = 0;

    assert_int_equal(guest_mem_debug_rw(gm, addr, &v, sizeof(v), false), GM_OK);
    return v;
}

static void test_direct_pages(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    uint64_t size;
    uint8_t *base = guest_mem_direct_base(gm, &size);
    const uint64_t a = 0x80000000, big = UINT64_C(64) << 30;

    assert_non_null(base);
    assert_true(size >= (UINT64_C(1) << 32) && size <= GUEST_MEM_WINDOW_MAX);
    assert_true(guest_mem_map(gm, a, 4 * PAGE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_ptr_equal(host_of(gm, a + 5), base + a + 5);
    assert_ptr_equal(host_of(gm, a + 3 * PAGE), base + a + 3 * PAGE);
    put64(gm, a + 8, 0x1122334455667788);
    assert_int_equal(*(uint64_t *)(base + a + 8), 0x1122334455667788);
    /* Unmapped and mapped again: zeros (also when only part was unmapped
     * and the block lives on). */
    assert_true(guest_mem_unmap(gm, a, PAGE));
    put64(gm, a + PAGE, 5);
    assert_true(guest_mem_map(gm, a, PAGE, GM_PROT_READ, false));
    assert_int_equal(get64(gm, a + 8), 0);
    assert_int_equal(get64(gm, a + PAGE), 5);
    /* Replacing maps fresh zero pages over live ones. */
    assert_true(guest_mem_map(gm, a, 2 * PAGE, GM_PROT_READ, true));
    assert_int_equal(get64(gm, a + PAGE), 0);
    assert_ptr_equal(host_of(gm, a + PAGE), base + a + PAGE);
    /* A huge reservation inside the window costs nothing. */
    if (size >= 2 * big) {
        assert_true(guest_mem_map(gm, big, big, GM_PROT_NONE, false));
        assert_true(guest_mem_protect(gm, big + big / 2, PAGE, GM_PROT_READ | GM_PROT_WRITE));
        put64(gm, big + big / 2, 42);
        assert_ptr_equal(host_of(gm, big + big / 2), base + big + big / 2);
        assert_true(guest_mem_unmap(gm, big, big));
    }
    guest_mem_free(gm);
}

static void test_moves(void **state)
{
    GuestMemory *gm = guest_mem_new_window(GUEST_MEM_LIMIT_DEFAULT, WIN_SMALL);
    uint64_t size;
    uint8_t *base = guest_mem_direct_base(gm, &size);
    const uint64_t in1 = 0x100000, in2 = 0x200000, out = WIN_SMALL + 0x100000;

    assert_non_null(base);
    assert_int_equal(size, WIN_SMALL);
    assert_true(guest_mem_map(gm, in1, 3 * PAGE, GM_PROT_READ | GM_PROT_WRITE, false));
    for (unsigned p = 0; p < 3; p++) {
        put64(gm, in1 + p * PAGE, 100 + p);
    }
    /* Within the window: the bytes follow, the page stays direct, the
     * old range is free and maps as zeros. */
    assert_true(guest_mem_move(gm, in1, 3 * PAGE, in2));
    assert_int_equal(get64(gm, in2 + PAGE), 101);
    assert_ptr_equal(host_of(gm, in2 + 2 * PAGE), base + in2 + 2 * PAGE);
    assert_true(guest_mem_map(gm, in1, 3 * PAGE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_int_equal(get64(gm, in1 + PAGE), 0);
    put64(gm, in1 + PAGE, 7);
    assert_int_equal(get64(gm, in2 + PAGE), 101);
    /* Out of the window and back in. */
    assert_true(guest_mem_move(gm, in2, 3 * PAGE, out));
    assert_int_equal(get64(gm, out + 2 * PAGE), 102);
    assert_true(host_of(gm, out) < base || host_of(gm, out) >= base + size);
    assert_true(guest_mem_unmap(gm, in1, 3 * PAGE));
    assert_true(guest_mem_move(gm, out + PAGE, PAGE, in1 + PAGE));
    assert_int_equal(get64(gm, in1 + PAGE), 101);
    assert_ptr_equal(host_of(gm, in1 + PAGE), base + in1 + PAGE);
    assert_int_equal(get64(gm, out), 100);
    assert_int_equal(get64(gm, out + 2 * PAGE), 102);
    guest_mem_free(gm);
}

/* A mapping or a move across the window's end: the inside part is direct. */
static void test_window_edge(void **state)
{
    GuestMemory *gm = guest_mem_new_window(GUEST_MEM_LIMIT_DEFAULT, WIN_SMALL);
    uint8_t *base = guest_mem_direct_base(gm, NULL);
    const uint64_t edge = WIN_SMALL, low = 0x100000;

    assert_true(guest_mem_map(gm, edge - 2 * PAGE, 4 * PAGE, GM_PROT_READ | GM_PROT_WRITE, false));
    assert_ptr_equal(host_of(gm, edge - PAGE), base + edge - PAGE);
    put64(gm, edge - 8, 1);
    put64(gm, edge, 2);
    assert_int_equal(get64(gm, edge - 8), 1);
    assert_int_equal(get64(gm, edge), 2);
    /* Move the four pages down into the window and up across the edge. */
    assert_true(guest_mem_move(gm, edge - 2 * PAGE, 4 * PAGE, low));
    assert_int_equal(get64(gm, low + 2 * PAGE - 8), 1);
    assert_int_equal(get64(gm, low + 2 * PAGE), 2);
    assert_ptr_equal(host_of(gm, low + 3 * PAGE), base + low + 3 * PAGE);
    assert_true(guest_mem_move(gm, low, 4 * PAGE, edge - PAGE));
    assert_int_equal(get64(gm, edge + PAGE - 8), 1);
    assert_int_equal(get64(gm, edge + PAGE), 2);
    assert_ptr_equal(host_of(gm, edge - PAGE), base + edge - PAGE);
    guest_mem_free(gm);
}

static void test_sizes(void **state)
{
    uint64_t size;
    GuestMemory *gm;

    /* The limit bounds the window. */
    gm = guest_mem_new(UINT64_C(1) << 30);
    assert_non_null(guest_mem_direct_base(gm, &size));
    assert_int_equal(size, UINT64_C(1) << 30);
    guest_mem_free(gm);
    /* No window asked: none. */
    gm = guest_mem_new_window(GUEST_MEM_LIMIT_DEFAULT, 0);
    assert_null(guest_mem_direct_base(gm, &size));
    assert_int_equal(size, 0);
    assert_true(guest_mem_map(gm, 0x10000, PAGE, GM_PROT_READ, false));
    guest_mem_free(gm);
    /* More than the host has: a smaller window or none, never a failure. */
    gm = guest_mem_new_window(GUEST_MEM_LIMIT_MAX, UINT64_C(1) << 62);
    if (guest_mem_direct_base(gm, &size)) {
        assert_true(size < (UINT64_C(1) << 62));
    }
    assert_true(guest_mem_map(gm, 0x10000, PAGE, GM_PROT_READ, false));
    guest_mem_free(gm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_pages),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_window_edge),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
