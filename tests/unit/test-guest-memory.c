/*
 * Guest memory tests: one test per rule of hw/core/guest-memory.h.
 *
 * Bounds and argument checks, permissions, region splitting and merging
 * (mmap/munmap/mprotect/mremap semantics), MMIO, 2-D windows, faults at
 * page boundaries, huge and wrapping lengths, unmapped holes, code-page
 * tracking with its hooks, listeners and the generation counter.
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

#define PAGE GUEST_PAGE_SIZE
#define BASE UINT64_C(0x100000)
#define RW (GM_PROT_READ | GM_PROT_WRITE)

static GuestMemory *new_space(void)
{
    return guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
}

/* ---- bounds and arguments ---- */

static void test_map_arguments(void **state)
{
    GuestMemory *gm = new_space();

    assert_false(guest_mem_map(gm, BASE + 1, PAGE, RW, false));   /* unaligned */
    assert_false(guest_mem_map(gm, BASE, 0, RW, false));          /* empty */
    assert_false(guest_mem_map(gm, BASE, PAGE, 8, false));        /* bad prot */
    assert_false(guest_mem_map(gm, GUEST_MEM_LIMIT_DEFAULT, PAGE, RW, false)); /* at limit */
    assert_false(guest_mem_map(gm, GUEST_MEM_LIMIT_DEFAULT - PAGE, 2 * PAGE, RW, false));
    assert_false(guest_mem_map(gm, BASE, UINT64_MAX, RW, false)); /* wraps */
    assert_false(guest_mem_map(gm, BASE, UINT64_MAX - BASE + 1, RW, false));
    assert_true(guest_mem_map(gm, GUEST_MEM_LIMIT_DEFAULT - PAGE, PAGE, RW, false));
    /* Length is rounded up to pages. */
    assert_true(guest_mem_map(gm, BASE, 10, RW, false));
    assert_int_equal(guest_mem_prot(gm, BASE + PAGE - 1), RW);
    assert_int_equal(guest_mem_prot(gm, BASE + PAGE), -1);
    assert_false(guest_mem_map(gm, BASE, PAGE, RW, false)); /* overlap */
    assert_false(guest_mem_unmap(gm, BASE + 1, PAGE));
    assert_false(guest_mem_unmap(gm, BASE, 0));
    assert_false(guest_mem_unmap(gm, BASE, UINT64_MAX));
    assert_true(guest_mem_unmap(gm, 0x7000000, PAGE)); /* nothing there: fine */
    guest_mem_free(gm);
}

static void test_limit(void **state)
{
    GuestMemory *gm = guest_mem_new(0);
    uint8_t b = 1;
    uint64_t fa = 0;

    assert_int_equal(guest_mem_limit(gm), GUEST_MEM_LIMIT_MAX);
    assert_true(guest_mem_map(gm, GUEST_MEM_LIMIT_MAX - PAGE, PAGE, RW, false));
    assert_int_equal(guest_mem_write(gm, GUEST_MEM_LIMIT_MAX - 1, &b, 1, &fa), GM_OK);
    /* The access runs past the limit: fault at the limit. */
    assert_int_equal(guest_mem_write(gm, GUEST_MEM_LIMIT_MAX - 1, &b, 2, &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, GUEST_MEM_LIMIT_MAX);
    assert_int_equal(guest_mem_read(gm, UINT64_MAX, &b, 1, GM_PROT_READ, &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, UINT64_MAX);
    guest_mem_free(gm);

    gm = guest_mem_new(0x12345);
    assert_int_equal(guest_mem_limit(gm), 0x12000);
    assert_false(guest_mem_map(gm, 0x12000, PAGE, RW, false));
    assert_true(guest_mem_map(gm, 0x11000, PAGE, RW, false));
    guest_mem_free(gm);
}

/* ---- reads, writes, permissions ---- */

static void test_read_write_roundtrip(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t buf[3 * 4096], out[3 * 4096];

    assert_true(guest_mem_map(gm, BASE, 3 * PAGE, RW, false));
    /* Fresh RAM is zero. */
    assert_int_equal(guest_mem_read(gm, BASE, out, sizeof(out), GM_PROT_READ, NULL), GM_OK);
    for (size_t i = 0; i < sizeof(out); i++) {
        assert_int_equal(out[i], 0);
    }
    for (size_t i = 0; i < sizeof(buf); i++) {
        buf[i] = (uint8_t)(i * 7 + 3);
    }
    assert_int_equal(guest_mem_write(gm, BASE, buf, sizeof(buf), NULL), GM_OK);
    memset(out, 0, sizeof(out));
    assert_int_equal(guest_mem_read(gm, BASE + 100, out, 5000, GM_PROT_READ, NULL), GM_OK);
    assert_memory_equal(out, buf + 100, 5000);
    /* Zero-length accesses succeed anywhere. */
    assert_int_equal(guest_mem_read(gm, 0, out, 0, GM_PROT_READ, NULL), GM_OK);
    guest_mem_free(gm);
}

static void test_permissions(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t b = 0x5a;
    uint64_t fa = 0;

    assert_true(guest_mem_map(gm, BASE, PAGE, GM_PROT_READ, false));
    assert_true(guest_mem_map(gm, BASE + PAGE, PAGE, GM_PROT_WRITE, false));
    assert_true(guest_mem_map(gm, BASE + 2 * PAGE, PAGE, GM_PROT_EXEC, false));
    assert_int_equal(guest_mem_write(gm, BASE + 5, &b, 1, &fa), GM_FAULT_PROT);
    assert_int_equal(fa, BASE + 5);
    assert_int_equal(guest_mem_read(gm, BASE + PAGE, &b, 1, GM_PROT_READ, &fa), GM_FAULT_PROT);
    assert_int_equal(guest_mem_write(gm, BASE + PAGE, &b, 1, NULL), GM_OK);
    assert_int_equal(guest_mem_read(gm, BASE + 2 * PAGE, &b, 1, GM_PROT_EXEC, NULL), GM_OK);
    assert_int_equal(guest_mem_read(gm, BASE + 2 * PAGE, &b, 1, GM_PROT_READ, &fa), GM_FAULT_PROT);
    assert_int_equal(guest_mem_read(gm, BASE, &b, 1, GM_PROT_EXEC, &fa), GM_FAULT_PROT);
    /* The debugger ignores permissions but not mappings. */
    b = 0x77;
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 9, &b, 1, true), GM_OK);
    b = 0;
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 9, &b, 1, false), GM_OK);
    assert_int_equal(b, 0x77);
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 3 * PAGE, &b, 1, false), GM_FAULT_UNMAPPED);
    guest_mem_free(gm);
}

static void test_fault_at_page_boundary(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t buf[16], pattern[16];
    uint64_t fa = 0;

    memset(pattern, 0xab, sizeof(pattern));
    assert_true(guest_mem_map(gm, BASE, PAGE, RW, false));
    assert_true(guest_mem_map(gm, BASE + PAGE, PAGE, GM_PROT_READ, false));
    /* A write straddling into a read-only page faults at the page start
     * and writes nothing, not even the bytes in the writable page. */
    assert_int_equal(guest_mem_write(gm, BASE + PAGE - 8, pattern, 16, &fa), GM_FAULT_PROT);
    assert_int_equal(fa, BASE + PAGE);
    assert_int_equal(guest_mem_read(gm, BASE + PAGE - 8, buf, 16, GM_PROT_READ, NULL), GM_OK);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(buf[i], 0);
    }
    /* A read running into a hole faults at the hole. */
    assert_int_equal(guest_mem_read(gm, BASE + 2 * PAGE - 4, buf, 8, GM_PROT_READ, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 2 * PAGE);
    guest_mem_free(gm);
}

static void test_huge_and_wrapping_lengths(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t b[8];
    uint64_t fa = 0;

    assert_true(guest_mem_map(gm, BASE, PAGE, RW, false));
    /* A length that would wrap the address space: fault, no crash. */
    assert_int_equal(guest_mem_read(gm, BASE, b, SIZE_MAX, GM_PROT_READ, &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + PAGE);
    assert_int_equal(guest_mem_write(gm, UINT64_MAX - 3, b, 8, &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, UINT64_MAX - 3);
    assert_false(guest_mem_protect(gm, BASE, UINT64_MAX, GM_PROT_READ));
    assert_int_equal(guest_mem_find_free(gm, 0, UINT64_MAX), UINT64_MAX);
    /* A huge reservation costs no host memory up front. */
    assert_true(guest_mem_map(gm, UINT64_C(1) << 40, UINT64_C(1) << 40, GM_PROT_NONE, false));
    assert_int_equal(guest_mem_prot(gm, (UINT64_C(3) << 39)), GM_PROT_NONE);
    guest_mem_free(gm);
}

/* ---- splitting, merging, moving ---- */

static void test_unmap_splits(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t v = 0;
    uint64_t fa;

    assert_true(guest_mem_map(gm, BASE, 4 * PAGE, RW, false));
    for (int i = 0; i < 4; i++) {
        uint8_t b = (uint8_t)(0x10 + i);
        assert_int_equal(guest_mem_write(gm, BASE + i * PAGE, &b, 1, NULL), GM_OK);
    }
    assert_true(guest_mem_unmap(gm, BASE + PAGE, PAGE));
    assert_int_equal(guest_mem_region_count(gm), 2);
    assert_int_equal(guest_mem_read(gm, BASE + PAGE, &v, 1, GM_PROT_READ, &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + PAGE);
    /* The remaining pieces keep their contents. */
    assert_int_equal(guest_mem_read(gm, BASE, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x10);
    assert_int_equal(guest_mem_read(gm, BASE + 3 * PAGE, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x13);
    /* Re-mapping the hole gives zeroed memory, not the old bytes. */
    assert_true(guest_mem_map(gm, BASE + PAGE, PAGE, RW, false));
    assert_int_equal(guest_mem_read(gm, BASE + PAGE, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0);
    /* Unmapping across several regions and holes. */
    assert_true(guest_mem_unmap(gm, BASE - PAGE, 8 * PAGE));
    assert_int_equal(guest_mem_region_count(gm), 0);
    guest_mem_free(gm);
}

static void test_map_replace(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t v = 9;

    assert_true(guest_mem_map(gm, BASE, 4 * PAGE, RW, false));
    assert_int_equal(guest_mem_write(gm, BASE + 2 * PAGE, &v, 1, NULL), GM_OK);
    assert_true(guest_mem_map(gm, BASE + PAGE, 2 * PAGE, GM_PROT_READ, true));
    assert_int_equal(guest_mem_region_count(gm), 3);
    assert_int_equal(guest_mem_prot(gm, BASE), RW);
    assert_int_equal(guest_mem_prot(gm, BASE + PAGE), GM_PROT_READ);
    assert_int_equal(guest_mem_prot(gm, BASE + 3 * PAGE), RW);
    assert_int_equal(guest_mem_read(gm, BASE + 2 * PAGE, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0);
    guest_mem_free(gm);
}

static void test_protect_split_and_merge(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t v = 0x42;

    assert_true(guest_mem_map(gm, BASE, 8 * PAGE, RW, false));
    assert_int_equal(guest_mem_write(gm, BASE + 3 * PAGE + 5, &v, 1, NULL), GM_OK);
    assert_true(guest_mem_protect(gm, BASE + 2 * PAGE, 3 * PAGE, GM_PROT_READ));
    assert_int_equal(guest_mem_region_count(gm), 3);
    assert_int_equal(guest_mem_prot(gm, BASE + 2 * PAGE - 1), RW);
    assert_int_equal(guest_mem_prot(gm, BASE + 2 * PAGE), GM_PROT_READ);
    assert_int_equal(guest_mem_prot(gm, BASE + 5 * PAGE - 1), GM_PROT_READ);
    assert_int_equal(guest_mem_prot(gm, BASE + 5 * PAGE), RW);
    v = 0;
    assert_int_equal(guest_mem_read(gm, BASE + 3 * PAGE + 5, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x42);
    /* Restoring the permissions merges the pieces back into one. */
    assert_true(guest_mem_protect(gm, BASE + 2 * PAGE, 3 * PAGE, RW));
    assert_int_equal(guest_mem_region_count(gm), 1);
    /* Per-page permissions: every other page read-only. */
    for (int i = 0; i < 8; i += 2) {
        assert_true(guest_mem_protect(gm, BASE + i * PAGE, PAGE, GM_PROT_READ));
    }
    assert_int_equal(guest_mem_region_count(gm), 8);
    /* Protecting a range with a hole fails and changes nothing. */
    assert_true(guest_mem_unmap(gm, BASE + 7 * PAGE, PAGE));
    assert_false(guest_mem_protect(gm, BASE, 9 * PAGE, GM_PROT_NONE));
    assert_int_equal(guest_mem_prot(gm, BASE + PAGE), RW);
    guest_mem_free(gm);
}

static void test_move(void **state)
{
    GuestMemory *gm = new_space();
    const uint64_t dst = BASE + 0x100000;
    uint8_t v = 0x31;

    assert_true(guest_mem_map(gm, BASE, 3 * PAGE, RW, false));
    assert_true(guest_mem_protect(gm, BASE + 2 * PAGE, PAGE, GM_PROT_READ));
    assert_int_equal(guest_mem_write(gm, BASE + PAGE + 7, &v, 1, NULL), GM_OK);
    /* Overlapping or occupied destinations are refused. */
    assert_false(guest_mem_move(gm, BASE, 3 * PAGE, BASE + PAGE));
    assert_true(guest_mem_map(gm, dst + PAGE, PAGE, RW, false));
    assert_false(guest_mem_move(gm, BASE, 3 * PAGE, dst));
    assert_true(guest_mem_unmap(gm, dst + PAGE, PAGE));
    /* Partially mapped sources are refused. */
    assert_false(guest_mem_move(gm, BASE, 4 * PAGE, dst));

    assert_true(guest_mem_move(gm, BASE, 3 * PAGE, dst));
    assert_int_equal(guest_mem_prot(gm, BASE), -1);
    assert_int_equal(guest_mem_prot(gm, dst), RW);
    assert_int_equal(guest_mem_prot(gm, dst + 2 * PAGE), GM_PROT_READ);
    v = 0;
    assert_int_equal(guest_mem_read(gm, dst + PAGE + 7, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x31);
    /* Move part of it back. */
    assert_true(guest_mem_move(gm, dst + PAGE, PAGE, BASE));
    v = 0;
    assert_int_equal(guest_mem_read(gm, BASE + 7, &v, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(v, 0x31);
    assert_int_equal(guest_mem_prot(gm, dst + PAGE), -1);
    guest_mem_free(gm);
}

static void test_find_free(void **state)
{
    GuestMemory *gm = new_space();

    assert_int_equal(guest_mem_find_free(gm, BASE, PAGE), BASE);
    assert_int_equal(guest_mem_find_free(gm, BASE + 1, PAGE), BASE + PAGE);
    assert_true(guest_mem_map(gm, BASE, 2 * PAGE, RW, false));
    assert_true(guest_mem_map(gm, BASE + 3 * PAGE, PAGE, RW, false));
    assert_int_equal(guest_mem_find_free(gm, BASE, PAGE), BASE + 2 * PAGE);
    assert_int_equal(guest_mem_find_free(gm, BASE, 2 * PAGE), BASE + 4 * PAGE);
    assert_int_equal(guest_mem_find_free(gm, BASE + PAGE, 1), BASE + 2 * PAGE);
    assert_int_equal(guest_mem_find_free(gm, GUEST_MEM_LIMIT_DEFAULT - PAGE, PAGE),
                     GUEST_MEM_LIMIT_DEFAULT - PAGE);
    assert_int_equal(guest_mem_find_free(gm, GUEST_MEM_LIMIT_DEFAULT - PAGE, 2 * PAGE),
                     UINT64_MAX);
    assert_int_equal(guest_mem_find_free(gm, UINT64_MAX, PAGE), UINT64_MAX);
    assert_int_equal(guest_mem_find_free(gm, 0, 0), UINT64_MAX);
    guest_mem_free(gm);
}

/* Thousands of regions: lookups stay correct (binary search). */
static void test_many_regions(void **state)
{
    GuestMemory *gm = new_space();
    const int n = 5000;
    uint8_t *host;
    int prot;
    bool code, mmio;

    for (int i = 0; i < n; i++) {
        assert_true(guest_mem_map(gm, BASE + (uint64_t)i * 2 * PAGE, PAGE,
                                  i % 2 ? GM_PROT_READ : RW, false));
    }
    assert_int_equal(guest_mem_region_count(gm), n);
    for (int i = 0; i < n; i += 97) {
        uint64_t a = BASE + (uint64_t)i * 2 * PAGE;
        assert_true(guest_mem_page_info(gm, a + 123, &host, &prot, &code, &mmio));
        assert_int_equal(prot, i % 2 ? GM_PROT_READ : RW);
        assert_false(guest_mem_page_info(gm, a + PAGE, &host, &prot, &code, &mmio));
        assert_false(mmio);
    }
    guest_mem_free(gm);
}

/* ---- MMIO ---- */

typedef struct FakeDev {
    uint64_t regs[4];
    unsigned reads, writes;
    uint64_t last_offset;
    unsigned last_size;
} FakeDev;

static bool dev_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    FakeDev *d = opaque;

    d->reads++;
    d->last_offset = offset;
    d->last_size = size;
    if (offset >= sizeof(d->regs)) {
        return false;
    }
    *value = 0;
    memcpy(value, (uint8_t *)d->regs + offset, size);
    return true;
}

static bool dev_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    FakeDev *d = opaque;

    d->writes++;
    d->last_offset = offset;
    d->last_size = size;
    if (offset >= sizeof(d->regs)) {
        return false;
    }
    memcpy((uint8_t *)d->regs + offset, &value, size);
    return true;
}

static const GuestMMIOOps dev_ops = { dev_read, dev_write };
static const GuestMMIOOps ro_ops = { dev_read, NULL };

static void test_mmio(void **state)
{
    GuestMemory *gm = new_space();
    FakeDev d = { { 0 } };
    uint64_t v = 0, fa = 0;
    uint8_t *host;
    int prot;
    bool code, mmio;
    uint8_t buf[12];

    assert_true(guest_mem_map_mmio(gm, BASE, PAGE, &dev_ops, &d));
    assert_false(guest_mem_map_mmio(gm, BASE, PAGE, &dev_ops, &d)); /* overlap */
    assert_false(guest_mem_map(gm, BASE, PAGE, RW, false));
    assert_false(guest_mem_page_info(gm, BASE + 8, &host, &prot, &code, &mmio));
    assert_true(mmio);

    v = 0x1122334455667788ull;
    assert_int_equal(guest_mem_mmio_access(gm, BASE + 8, 8, true, &v), GM_OK);
    assert_int_equal(d.regs[1], 0x1122334455667788ull);
    v = 0;
    assert_int_equal(guest_mem_mmio_access(gm, BASE + 12, 4, false, &v), GM_OK);
    assert_int_equal(v, 0x11223344);
    assert_int_equal(d.last_offset, 12);
    assert_int_equal(guest_mem_mmio_access(gm, BASE + 2, 4, false, &v), GM_FAULT_ALIGN);
    assert_int_equal(guest_mem_mmio_access(gm, BASE, 3, false, &v), GM_FAULT_ALIGN);
    assert_int_equal(guest_mem_mmio_access(gm, BASE + 64, 8, false, &v), GM_FAULT_MMIO);
    assert_int_equal(guest_mem_mmio_access(gm, BASE + PAGE, 8, false, &v), GM_FAULT_UNMAPPED);

    /* guest_mem_read splits into aligned pieces. */
    d.reads = 0;
    assert_int_equal(guest_mem_read(gm, BASE + 6, buf, 12, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(d.reads, 3); /* 2 + 8 + 2 */
    assert_int_equal(buf[2], 0x88);
    /* Devices are not executable, and the debugger does not touch them. */
    assert_int_equal(guest_mem_read(gm, BASE, buf, 4, GM_PROT_EXEC, &fa), GM_FAULT_PROT);
    assert_int_equal(guest_mem_debug_rw(gm, BASE, buf, 4, false), GM_FAULT_MMIO);
    /* A device rejecting the access reports where. */
    assert_int_equal(guest_mem_read(gm, BASE + 24, buf, 12, GM_PROT_READ, &fa), GM_FAULT_MMIO);
    assert_int_equal(fa, BASE + 32);
    /* MMIO cannot be re-protected. */
    assert_false(guest_mem_protect(gm, BASE, PAGE, GM_PROT_READ));

    /* Write-less device. */
    assert_true(guest_mem_map_mmio(gm, BASE + 2 * PAGE, PAGE, &ro_ops, &d));
    v = 1;
    assert_int_equal(guest_mem_mmio_access(gm, BASE + 2 * PAGE, 8, true, &v), GM_FAULT_MMIO);

    /* Offsets stay relative to the device after a partial unmap. */
    assert_true(guest_mem_map_mmio(gm, BASE + 4 * PAGE, 2 * PAGE, &dev_ops, &d));
    assert_true(guest_mem_unmap(gm, BASE + 4 * PAGE, PAGE));
    v = 0;
    guest_mem_mmio_access(gm, BASE + 5 * PAGE, 8, false, &v);
    assert_int_equal(d.last_offset, PAGE);
    guest_mem_free(gm);
}

/* ---- windows ---- */

static void test_window(void **state)
{
    GuestMemory *gm = new_space();
    uint8_t *host = (uint8_t *)1, *ref;
    uint64_t fa = 0;
    int prot;
    bool code, mmio;

    assert_true(guest_mem_map(gm, BASE, 16 * PAGE, RW, false));
    assert_true(guest_mem_page_info(gm, BASE, &ref, &prot, &code, &mmio));

    /* Contiguous rows in one region: host pointer. */
    assert_int_equal(guest_mem_window(gm, BASE + 64, 32, 256, 256, GM_PROT_READ, &host, &fa), GM_OK);
    assert_ptr_equal(host, ref + 64);
    /* Strided rows. */
    assert_int_equal(guest_mem_window(gm, BASE, 16, 64, PAGE, RW, &host, &fa), GM_OK);
    assert_ptr_equal(host, ref);
    /* Empty footprints. */
    assert_int_equal(guest_mem_window(gm, 0, 0, 64, 64, GM_PROT_READ, &host, &fa), GM_OK);
    assert_null(host);
    assert_int_equal(guest_mem_window(gm, 0, 5, 0, 64, GM_PROT_READ, &host, &fa), GM_OK);
    assert_null(host);
    /* Last row runs past the end. */
    assert_int_equal(guest_mem_window(gm, BASE, 17, 64, PAGE, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);
    assert_int_equal(guest_mem_window(gm, BASE + 16 * PAGE - 8, 1, 16, 0, GM_PROT_READ, &host,
                                      &fa), GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);

    /* A read-only page in the middle: reads fine (split regions of one
     * block stay host-contiguous), writes fault at the first bad row. */
    assert_true(guest_mem_protect(gm, BASE + 4 * PAGE, PAGE, GM_PROT_READ));
    assert_int_equal(guest_mem_window(gm, BASE, 16, 64, PAGE, GM_PROT_READ, &host, &fa), GM_OK);
    assert_ptr_equal(host, ref);
    assert_int_equal(guest_mem_window(gm, BASE + 8, 16, 64, PAGE, GM_PROT_WRITE, &host, &fa),
                     GM_FAULT_PROT);
    assert_int_equal(fa, BASE + 4 * PAGE + 8);
    /* Rows that skip the read-only page: valid. */
    assert_int_equal(guest_mem_window(gm, BASE, 2, 64, 8 * PAGE, GM_PROT_WRITE, &host, &fa), GM_OK);
    assert_ptr_equal(host, ref);

    /* Rows in the gaps of two separate mappings: valid but not contiguous. */
    assert_true(guest_mem_map(gm, BASE + 32 * PAGE, PAGE, RW, false));
    assert_int_equal(guest_mem_window(gm, BASE, 2, 64, 32 * PAGE, GM_PROT_READ, &host, &fa), GM_OK);
    assert_null(host);
    /* Gap unmapped and touched by a row: fault. */
    assert_int_equal(guest_mem_window(gm, BASE, 3, 64, 16 * PAGE, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);

    /* Huge and overflowing footprints fault quickly, never hang. */
    assert_int_equal(guest_mem_window(gm, BASE, UINT64_MAX, 64, PAGE, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);
    assert_int_equal(guest_mem_window(gm, BASE, UINT64_MAX, 64, 64, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);
    assert_int_equal(guest_mem_window(gm, BASE, 3, 64, UINT64_MAX / 2, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(guest_mem_window(gm, BASE, 1, UINT64_MAX, 0, GM_PROT_READ, &host, &fa),
                     GM_FAULT_UNMAPPED);
    assert_int_equal(fa, BASE + 16 * PAGE);
    /* Stride 0: every row the same bytes. */
    assert_int_equal(guest_mem_window(gm, BASE, UINT64_MAX, 64, 0, GM_PROT_READ, &host, &fa), GM_OK);
    assert_ptr_equal(host, ref);
    guest_mem_free(gm);
}

/* ---- code pages and listeners ---- */

typedef struct Observer {
    uint64_t code_pages[16];
    unsigned ncode;
    unsigned changes;
    uint64_t last_change, last_len;
    unsigned last_kind;
    GuestMemory *gm;
    bool saw_old_byte;
} Observer;

static void obs_change(void *opaque, uint64_t addr, uint64_t len, unsigned kind)
{
    Observer *o = opaque;

    o->changes++;
    o->last_change = addr;
    o->last_len = len;
    o->last_kind = kind;
}

static void obs_code_write(void *opaque, uint64_t page)
{
    Observer *o = opaque;
    uint8_t b = 0xff;

    if (o->ncode < 16) {
        o->code_pages[o->ncode++] = page;
    }
    /* The hook runs before the store lands. */
    if (guest_mem_debug_rw(o->gm, page + 1, &b, 1, false) == GM_OK && b == 0) {
        o->saw_old_byte = true;
    }
}

static void test_code_pages(void **state)
{
    GuestMemory *gm = new_space();
    Observer o = { .gm = gm };
    GuestMemListener l = { obs_change, obs_code_write, &o };
    uint8_t b = 1, *host;
    int prot;
    bool code, mmio;
    uint64_t gen;

    assert_true(guest_mem_map(gm, BASE, 4 * PAGE, GM_PROT_ALL, false));
    assert_true(guest_mem_add_listener(gm, &l));
    gen = guest_mem_generation(gm);
    guest_mem_set_code(gm, BASE + PAGE + 100);
    assert_true(guest_mem_is_code(gm, BASE + PAGE));
    assert_false(guest_mem_is_code(gm, BASE));
    assert_true(guest_mem_generation(gm) > gen);
    assert_int_equal(o.last_change, BASE + PAGE);
    assert_int_equal(o.last_kind, GM_CHANGE_CODE);
    assert_true(guest_mem_page_info(gm, BASE + PAGE + 5, &host, &prot, &code, &mmio));
    assert_true(code);
    /* Unmapped pages are never marked. */
    guest_mem_set_code(gm, BASE + 8 * PAGE);
    assert_false(guest_mem_is_code(gm, BASE + 8 * PAGE));

    /* A write elsewhere: no hook. */
    assert_int_equal(guest_mem_write(gm, BASE, &b, 1, NULL), GM_OK);
    assert_int_equal(o.ncode, 0);
    /* A write to the code page: hook first, then the store, mark gone. */
    assert_int_equal(guest_mem_write(gm, BASE + PAGE + 1, &b, 1, NULL), GM_OK);
    assert_int_equal(o.ncode, 1);
    assert_int_equal(o.code_pages[0], BASE + PAGE);
    assert_true(o.saw_old_byte);
    assert_false(guest_mem_is_code(gm, BASE + PAGE));

    /* Debugger writes, unmaps and protection changes fire it too. */
    guest_mem_set_code(gm, BASE + 2 * PAGE);
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 2 * PAGE, &b, 1, true), GM_OK);
    assert_int_equal(o.ncode, 2);
    guest_mem_set_code(gm, BASE + 2 * PAGE);
    assert_true(guest_mem_protect(gm, BASE + 2 * PAGE, PAGE, GM_PROT_READ));
    assert_int_equal(o.ncode, 3);
    guest_mem_set_code(gm, BASE + 3 * PAGE);
    assert_true(guest_mem_unmap(gm, BASE, 64 * PAGE)); /* many pages, few code marks */
    assert_int_equal(o.ncode, 4);
    assert_int_equal(o.code_pages[3], BASE + 3 * PAGE);
    assert_false(guest_mem_is_code(gm, BASE + 3 * PAGE));
    /* Listener changes are reported with the range and what happened. */
    assert_int_equal(o.last_change, BASE);
    assert_int_equal(o.last_len, 64 * PAGE);
    assert_int_equal(o.last_kind, GM_CHANGE_MAP);
    /* A mapping where nothing was takes no access away; one that replaces
     * another does. */
    assert_true(guest_mem_map(gm, BASE, 2 * PAGE, RW, false));
    assert_int_equal(o.last_kind, GM_CHANGE_NEW);
    assert_true(guest_mem_map(gm, BASE + PAGE, 2 * PAGE, RW, true));
    assert_int_equal(o.last_kind, GM_CHANGE_MAP);
    assert_int_equal(o.last_change, BASE + PAGE);
    assert_true(guest_mem_unmap(gm, BASE, 3 * PAGE));

    guest_mem_remove_listener(gm, &o);
    o.changes = 0;
    assert_true(guest_mem_map(gm, BASE, PAGE, RW, false));
    assert_int_equal(o.changes, 0);
    guest_mem_free(gm);
}

/* A window opened for writing (TSTORE's footprint) counts as a write to
 * every code page under it: the translations go before the kernel stores. */
static void test_window_write_hits_code(void **state)
{
    GuestMemory *gm = new_space();
    Observer o = { .gm = gm };
    GuestMemListener l = { obs_change, obs_code_write, &o };
    uint8_t *host;

    assert_true(guest_mem_map(gm, BASE, 4 * PAGE, GM_PROT_ALL, false));
    assert_true(guest_mem_add_listener(gm, &l));
    guest_mem_set_code(gm, BASE + 2 * PAGE);
    /* Reading through a window leaves the mark alone. */
    assert_int_equal(guest_mem_window(gm, BASE + PAGE, 16, 64, PAGE / 8, GM_PROT_READ, &host, NULL),
                     GM_OK);
    assert_non_null(host);
    assert_int_equal(o.ncode, 0);
    /* A write window ending before the code page does not touch it. */
    assert_int_equal(guest_mem_window(gm, BASE, 2, 64, PAGE, GM_PROT_WRITE, &host, NULL), GM_OK);
    assert_int_equal(o.ncode, 0);
    /* Rows 16 x 64 B, 512 B apart, from BASE + PAGE: the last rows lie on the code page. */
    assert_int_equal(guest_mem_window(gm, BASE + PAGE, 16, 64, PAGE / 8, GM_PROT_WRITE, &host, NULL),
                     GM_OK);
    assert_non_null(host);
    assert_int_equal(o.ncode, 1);
    assert_int_equal(o.code_pages[0], BASE + 2 * PAGE);
    assert_false(guest_mem_is_code(gm, BASE + 2 * PAGE));
    guest_mem_remove_listener(gm, &o);
    guest_mem_free(gm);
}

/* guest_mem_code_free_range: the largest code-free range around a kept
 * one, by both lookups (page walk and hash walk). */
static void test_code_free_range(void **state)
{
    GuestMemory *gm = new_space();
    uint64_t lo, hi;

    assert_true(guest_mem_map(gm, BASE, 64 * PAGE, GM_PROT_ALL, false));
    lo = BASE;
    hi = BASE + 64 * PAGE;
    assert_true(guest_mem_code_free_range(gm, BASE + 5 * PAGE, BASE + 6 * PAGE, &lo, &hi));
    assert_true(lo == BASE && hi == BASE + 64 * PAGE); /* no code at all */
    guest_mem_set_code(gm, BASE + 2 * PAGE);
    guest_mem_set_code(gm, BASE + 9 * PAGE);
    guest_mem_set_code(gm, BASE + 40 * PAGE);
    /* 64 pages > 3 code pages: the hash walk. */
    assert_true(guest_mem_code_free_range(gm, BASE + 5 * PAGE + 8, BASE + 6 * PAGE, &lo, &hi));
    assert_true(lo == BASE + 3 * PAGE && hi == BASE + 9 * PAGE);
    /* 2 pages < 3 code pages: the page walk. */
    lo = BASE + 4 * PAGE;
    hi = BASE + 6 * PAGE;
    assert_true(guest_mem_code_free_range(gm, BASE + 5 * PAGE, BASE + 5 * PAGE + 1, &lo, &hi));
    assert_true(lo == BASE + 4 * PAGE && hi == BASE + 6 * PAGE);
    lo = BASE + 8 * PAGE;
    hi = BASE + 11 * PAGE;
    assert_true(guest_mem_code_free_range(gm, BASE + 10 * PAGE, BASE + 11 * PAGE, &lo, &hi));
    assert_true(lo == BASE + 10 * PAGE && hi == BASE + 11 * PAGE);
    /* The kept range meets code: refused, bounds untouched. */
    lo = BASE;
    hi = BASE + 64 * PAGE;
    assert_false(guest_mem_code_free_range(gm, BASE + 8 * PAGE, BASE + 9 * PAGE + 1, &lo, &hi));
    assert_true(lo == BASE && hi == BASE + 64 * PAGE);
    assert_false(guest_mem_code_free_range(gm, BASE + 40 * PAGE + 100, BASE + 40 * PAGE + 101,
                                           &lo, &hi));
    /* A kept range outside the bounds is refused. */
    assert_false(guest_mem_code_free_range(gm, BASE - PAGE, BASE + PAGE, &lo, &hi));
    guest_mem_free(gm);
}

static void test_legacy_code_hook(void **state)
{
    GuestMemory *gm = new_space();
    Observer o = { .gm = gm };
    uint8_t b = 3;

    assert_true(guest_mem_map(gm, BASE, PAGE, RW, false));
    guest_mem_set_code_write_hook(gm, obs_code_write, &o);
    guest_mem_set_code(gm, BASE);
    assert_int_equal(guest_mem_write(gm, BASE + 8, &b, 1, NULL), GM_OK);
    assert_int_equal(o.ncode, 1);
    guest_mem_set_code_write_hook(gm, NULL, &o);
    guest_mem_set_code(gm, BASE);
    assert_int_equal(guest_mem_write(gm, BASE + 8, &b, 1, NULL), GM_OK);
    assert_int_equal(o.ncode, 1);
    guest_mem_free(gm);
}

static void test_listener_limit(void **state)
{
    GuestMemory *gm = new_space();
    Observer o[GUEST_MEM_MAX_LISTENERS + 1];

    for (int i = 0; i <= GUEST_MEM_MAX_LISTENERS; i++) {
        GuestMemListener l = { obs_change, NULL, &o[i] };
        assert_int_equal(guest_mem_add_listener(gm, &l), i < GUEST_MEM_MAX_LISTENERS);
    }
    guest_mem_free(gm);
}

static void test_fault_names(void **state)
{
    assert_string_equal(guest_fault_name(GM_FAULT_UNMAPPED), "unmapped address");
    assert_string_equal(guest_fault_name(GM_FAULT_PROT), "permission denied");
    assert_string_equal(guest_fault_name(GM_OK), "ok");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_arguments),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_read_write_roundtrip),
        cmocka_unit_test(test_permissions),
        cmocka_unit_test(test_fault_at_page_boundary),
        cmocka_unit_test(test_huge_and_wrapping_lengths),
        cmocka_unit_test(test_unmap_splits),
        cmocka_unit_test(test_map_replace),
        cmocka_unit_test(test_protect_split_and_merge),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_find_free),
        cmocka_unit_test(test_many_regions),
        cmocka_unit_test(test_mmio),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_code_pages),
        cmocka_unit_test(test_window_write_hits_code),
        cmocka_unit_test(test_code_free_range),
        cmocka_unit_test(test_legacy_code_hook),
        cmocka_unit_test(test_listener_limit),
        cmocka_unit_test(test_fault_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
