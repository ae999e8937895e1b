/*
 * Dirty-page tracking and snapshots of guest memory (hw/core/guest-memory.h,
 * "Dirty-page tracking and snapshots"): every way of writing RAM records
 * its pages, a restore brings back exactly the snapshot (checked against a
 * shadow copy kept by the test, over pages written by every path, in
 * short and long runs, resident or not), code pages lose their
 * translations only when their contents change, a changed layout is
 * refused, and the TLB-fill rule allows a cached write entry only for a
 * recorded page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hw/core/guest-memory.h"

#define PAGE GUEST_PAGE_SIZE
#define BASE UINT64_C(0x100000)
#define NPAGES 256 /* 1 MiB of RAM */
#define RWX GM_PROT_ALL

typedef struct Fixture {
    GuestMemory *gm;
    uint8_t *shadow;           /* what RAM must hold after a restore */
    unsigned code_events;
    uint64_t code_pages[64];
    unsigned changes;
} Fixture;

static void on_code_write(void *opaque, uint64_t page)
{
    Fixture *f = opaque;

    if (f->code_events < 64) {
        f->code_pages[f->code_events] = page;
    }
    f->code_events++;
}

static void on_change(void *opaque, uint64_t addr, uint64_t len, unsigned kind)
{
    Fixture *f = opaque;

    (void)addr;
    (void)len;
    (void)kind;
    f->changes++;
}

static Fixture *setup(void)
{
    Fixture *f = calloc(1, sizeof(*f));
    GuestMemListener l = { on_change, on_code_write, NULL };

    f->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(f->gm, BASE, NPAGES * PAGE, RWX, false));
    l.opaque = f;
    assert_true(guest_mem_add_listener(f->gm, &l));
    assert_true(guest_mem_track_dirty(f->gm));
    f->shadow = calloc(NPAGES, PAGE);
    return f;
}

static void teardown(Fixture *f)
{
    guest_mem_free(f->gm);
    free(f->shadow);
    free(f);
}

/* RAM equals @want, read through the checked path. */
static void assert_ram(GuestMemory *gm, const uint8_t *want)
{
    uint8_t *got = malloc(NPAGES * PAGE);

    assert_int_equal(guest_mem_read(gm, BASE, got, NPAGES * PAGE, GM_PROT_READ, NULL), GM_OK);
    for (unsigned p = 0; p < NPAGES; p++) {
        if (memcmp(got + p * PAGE, want + p * PAGE, PAGE) != 0) {
            fail_msg("page %u differs", p);
        }
    }
    free(got);
}

static void fill(uint8_t *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        buf[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
    }
}

/* Host faults (the JIT's unchecked window accesses) and dirty tracking
 * exclude each other: a store the host lets through would write a page
 * unrecorded, and a restore would miss it (linx-optest's workers reused a
 * machine whose JIT wrote RAM that way: optest-isolation failed after the
 * two features met on main). */
static void test_no_host_faults_while_tracking(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    uint64_t size = 0;
    uint8_t *win;

    (void)state;
    assert_true(guest_mem_map(gm, BASE, NPAGES * PAGE, GM_PROT_READ, false));
    win = guest_mem_direct_base(gm, &size);
    if (!win) {
        guest_mem_free(gm);
        skip(); /* no direct window on this host: nothing to exclude */
    }
    assert_true(guest_mem_enable_host_faults(gm));
    assert_true(guest_mem_host_faults(gm));
    assert_true(guest_mem_track_dirty(gm));
    assert_false(guest_mem_host_faults(gm));
    assert_false(guest_mem_enable_host_faults(gm));
    /* the window is plain read-write host memory again (the TLB checks
     * the guest's read-only permission): this store does not fault */
    win[BASE] = 0x5a;
    assert_int_equal(win[BASE], 0x5a);
    guest_mem_free(gm);

    gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(gm, BASE, NPAGES * PAGE, RWX, false));
    assert_true(guest_mem_track_dirty(gm));
    assert_false(guest_mem_enable_host_faults(gm)); /* tracking first: refused */
    guest_mem_free(gm);
}

static void test_track_rules(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);

    assert_false(guest_mem_tracks_dirty(gm));
    assert_null(guest_mem_snapshot_take(gm)); /* no tracking, no snapshot */
    assert_false(guest_mem_reset_zero(gm, NULL));
    assert_true(guest_mem_dirty_write_ok(gm, BASE, false)); /* untracked: always */
    assert_true(guest_mem_track_dirty(gm));
    assert_false(guest_mem_track_dirty(gm)); /* already on */
    assert_true(guest_mem_tracks_dirty(gm));
    guest_mem_free(gm);
}

/* Each write path records exactly the pages it touches. */
static void test_every_path_records(void **state)
{
    Fixture *f = setup();
    GuestMemory *gm = f->gm;
    uint8_t buf[3 * PAGE], *host = NULL;

    memset(buf, 0x11, sizeof(buf));
    assert_int_equal(guest_mem_dirty_count(gm), 0);
    /* guest_mem_write across a page boundary: two pages */
    assert_int_equal(guest_mem_write(gm, BASE + PAGE - 4, buf, 8, NULL), GM_OK);
    assert_true(guest_mem_is_dirty(gm, BASE));
    assert_true(guest_mem_is_dirty(gm, BASE + PAGE));
    assert_false(guest_mem_is_dirty(gm, BASE + 2 * PAGE));
    /* the debugger's and loaders' writes */
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 10 * PAGE, buf, 1, true), GM_OK);
    assert_true(guest_mem_is_dirty(gm, BASE + 10 * PAGE));
    /* reads record nothing */
    assert_int_equal(guest_mem_read(gm, BASE + 20 * PAGE, buf, PAGE, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 21 * PAGE, buf, 8, false), GM_OK);
    assert_false(guest_mem_is_dirty(gm, BASE + 20 * PAGE));
    assert_false(guest_mem_is_dirty(gm, BASE + 21 * PAGE));
    /* a write window: the whole span, also between disjoint rows */
    assert_int_equal(guest_mem_window(gm, BASE + 30 * PAGE, 3, 16, 2 * PAGE, GM_PROT_WRITE, &host,
                                      NULL),
                     GM_OK);
    for (unsigned p = 30; p <= 34; p++) {
        assert_true(guest_mem_is_dirty(gm, BASE + p * PAGE));
    }
    assert_false(guest_mem_is_dirty(gm, BASE + 35 * PAGE));
    /* a read window records nothing */
    assert_int_equal(guest_mem_window(gm, BASE + 40 * PAGE, 1, PAGE, PAGE, GM_PROT_READ, &host,
                                      NULL),
                     GM_OK);
    assert_false(guest_mem_is_dirty(gm, BASE + 40 * PAGE));
    /* a faulting write records nothing */
    assert_int_not_equal(guest_mem_write(gm, BASE + NPAGES * PAGE - 4, buf, 8, NULL), GM_OK);
    assert_false(guest_mem_is_dirty(gm, BASE + (NPAGES - 1) * PAGE));
    /* the TLB rule: a read fill of a clean page gets no write entry; a
     * write fill records the page, after which a read fill may have one */
    assert_false(guest_mem_dirty_write_ok(gm, BASE + 50 * PAGE, false));
    assert_false(guest_mem_is_dirty(gm, BASE + 50 * PAGE));
    assert_true(guest_mem_dirty_write_ok(gm, BASE + 50 * PAGE + 5, true));
    assert_true(guest_mem_is_dirty(gm, BASE + 50 * PAGE));
    assert_true(guest_mem_dirty_write_ok(gm, BASE + 50 * PAGE, false));
    assert_int_equal(guest_mem_dirty_count(gm), 2 + 1 + 5 + 1);
    teardown(f);
}

/* Random writes by every path, restored many times: RAM always equals
 * the snapshot's image, and nothing outside the recorded pages moves. */
static void test_restore_matches_snapshot(void **state)
{
    Fixture *f = setup();
    GuestMemory *gm = f->gm;
    GuestMemSnapshot *s;
    GuestMemResetStats st;
    uint8_t *buf = malloc(64 * PAGE);
    uint32_t rng = 12345;

    /* "load": pages 0-3 and 100 */
    fill(f->shadow, 4 * PAGE, 1);
    fill(f->shadow + 100 * PAGE, PAGE, 2);
    assert_int_equal(guest_mem_debug_rw(gm, BASE, f->shadow, 4 * PAGE, true), GM_OK);
    assert_int_equal(guest_mem_debug_rw(gm, BASE + 100 * PAGE, f->shadow + 100 * PAGE, PAGE,
                                        true),
                     GM_OK);
    /* a page written with zeros holds nothing: the snapshot skips it */
    memset(buf, 0, PAGE);
    assert_int_equal(guest_mem_write(gm, BASE + 7 * PAGE, buf, PAGE, NULL), GM_OK);
    s = guest_mem_snapshot_take(gm);
    assert_non_null(s);
    assert_int_equal(guest_mem_snapshot_pages(s), 5);
    assert_int_equal(guest_mem_dirty_count(gm), 0);
    for (unsigned round = 0; round < 40; round++) {
        for (unsigned k = 0; k < 6; k++) {
            uint64_t page, n;
            uint8_t *host = NULL;
            rng = rng * 1103515245u + 12345u;
            page = (rng >> 8) % NPAGES;
            n = 1 + (rng >> 20) % (round % 3 == 0 ? 48 : 3); /* long runs too */
            if (page + n > NPAGES) {
                n = NPAGES - page;
            }
            fill(buf, n * PAGE, rng);
            switch (k % 3) {
            case 0:
                assert_int_equal(guest_mem_write(gm, BASE + page * PAGE, buf, n * PAGE, NULL),
                                 GM_OK);
                break;
            case 1:
                assert_int_equal(guest_mem_debug_rw(gm, BASE + page * PAGE, buf, n * PAGE, true),
                                 GM_OK);
                break;
            default:
                /* through a window's host pointer, as a tile engine does */
                assert_int_equal(guest_mem_window(gm, BASE + page * PAGE, 1, n * PAGE, n * PAGE,
                                                  GM_PROT_WRITE, &host, NULL),
                                 GM_OK);
                assert_non_null(host);
                memcpy(host, buf, n * PAGE);
                break;
            }
        }
        if (round % 5 == 4) {
            /* a window recorded but never written (the tile engine's
             * cached blocks): pages not resident stay so */
            uint8_t *host = NULL;
            assert_int_equal(guest_mem_window(gm, BASE + 128 * PAGE, 1, 96 * PAGE, 96 * PAGE,
                                              GM_PROT_WRITE, &host, NULL),
                             GM_OK);
        }
        assert_true(guest_mem_snapshot_restore(gm, s, &st));
        assert_int_equal(guest_mem_dirty_count(gm), 0);
        assert_true(st.written + st.dropped <= st.pages);
        assert_ram(gm, f->shadow);
    }
    guest_mem_snapshot_free(s);
    free(buf);
    teardown(f);
}

/* Zeroing long runs gives their pages back to the host. */
static void test_long_runs_dropped(void **state)
{
    Fixture *f = setup();
    GuestMemory *gm = f->gm;
    uint8_t *buf = malloc(128 * PAGE);
    GuestMemResetStats st;
    GuestMemSnapshot *s = guest_mem_snapshot_take(gm); /* empty: all zero */
    uint8_t *host = NULL;

    assert_int_equal(guest_mem_snapshot_pages(s), 0);
    /* 128 pages written, of which 64 then given back by the host (as
     * if swapped out or never touched): they are dropped, not copied */
    memset(buf, 0x5a, 128 * PAGE);
    assert_int_equal(guest_mem_write(gm, BASE, buf, 128 * PAGE, NULL), GM_OK);
    assert_int_equal(guest_mem_window(gm, BASE, 1, PAGE, PAGE, GM_PROT_READ, &host, NULL), GM_OK);
    assert_int_equal(madvise(host + 64 * PAGE, 64 * PAGE, MADV_DONTNEED), 0);
    assert_true(guest_mem_snapshot_restore(gm, s, &st));
    assert_int_equal(st.pages, 128);
    assert_int_equal(st.written, 64);
    assert_int_equal(st.dropped, 64);
    assert_ram(gm, f->shadow);
    guest_mem_snapshot_free(s);
    free(buf);
    teardown(f);
}

/* A code page keeps its translations through a restore that leaves it as
 * it was, and loses them when the restore changes it. */
static void test_code_pages(void **state)
{
    Fixture *f = setup();
    GuestMemory *gm = f->gm;
    GuestMemSnapshot *s;
    uint8_t code[PAGE], other[PAGE], data[16];

    fill(code, PAGE, 3);
    memcpy(f->shadow, code, PAGE);
    assert_int_equal(guest_mem_debug_rw(gm, BASE, code, PAGE, true), GM_OK);
    s = guest_mem_snapshot_take(gm);
    guest_mem_set_code(gm, BASE);              /* translated from */
    /* the program writes data elsewhere: the code page is not touched */
    memset(data, 1, sizeof(data));
    assert_int_equal(guest_mem_write(gm, BASE + 5 * PAGE, data, sizeof(data), NULL), GM_OK);
    f->code_events = 0;
    assert_true(guest_mem_snapshot_restore(gm, s, NULL));
    assert_int_equal(f->code_events, 0);
    assert_true(guest_mem_is_code(gm, BASE));
    /* the page is recorded but unchanged (a loader rewrote the same
     * bytes): still no event */
    assert_int_equal(guest_mem_debug_rw(gm, BASE, code, PAGE, false), GM_OK);
    {
        uint8_t *host = NULL;
        assert_int_equal(guest_mem_window(gm, BASE, 1, PAGE, PAGE, GM_PROT_WRITE, &host, NULL),
                         GM_OK);
        /* the window's write announced the code page (as any write) */
        assert_int_equal(f->code_events, 1);
        guest_mem_set_code(gm, BASE); /* translated again */
        f->code_events = 0;
        /* self-modifying code through the host pointer, unannounced
         * after the check: the restore must drop the translations */
        fill(other, PAGE, 4);
        memcpy(host, other, PAGE);
    }
    assert_true(guest_mem_snapshot_restore(gm, s, NULL));
    assert_int_equal(f->code_events, 1);
    assert_int_equal(f->code_pages[0], BASE);
    assert_false(guest_mem_is_code(gm, BASE));
    assert_ram(gm, f->shadow);
    /* back to zero: a code page that holds code loses its translations */
    guest_mem_set_code(gm, BASE);
    f->code_events = 0;
    assert_true(guest_mem_reset_zero(gm, NULL));
    assert_int_equal(f->code_events, 1);
    memset(f->shadow, 0, PAGE);
    assert_ram(gm, f->shadow);
    /* the snapshot is forgotten */
    assert_false(guest_mem_snapshot_restore(gm, s, NULL));
    guest_mem_snapshot_free(s);
    teardown(f);
}

/* Only the snapshot taken or restored last may be restored; a changed
 * layout refuses restores and resets. */
static void test_refusals(void **state)
{
    Fixture *f = setup();
    GuestMemory *gm = f->gm;
    GuestMemSnapshot *a, *b;
    uint8_t x = 7;
    unsigned changes;

    assert_int_equal(guest_mem_write(gm, BASE, &x, 1, NULL), GM_OK);
    a = guest_mem_snapshot_take(gm);
    x = 8;
    assert_int_equal(guest_mem_write(gm, BASE + PAGE, &x, 1, NULL), GM_OK);
    b = guest_mem_snapshot_take(gm);
    assert_int_equal(guest_mem_snapshot_pages(b), 2);
    assert_false(guest_mem_snapshot_restore(gm, a, NULL));
    assert_true(guest_mem_snapshot_restore(gm, b, NULL));
    /* a restore drops cached host pointers of what it wrote (listeners) */
    x = 9;
    assert_int_equal(guest_mem_write(gm, BASE, &x, 1, NULL), GM_OK);
    changes = f->changes;
    assert_true(guest_mem_snapshot_restore(gm, b, NULL));
    assert_true(f->changes > changes);
    /* permissions changed: the old layout is gone */
    assert_true(guest_mem_protect(gm, BASE + 10 * PAGE, PAGE, GM_PROT_READ));
    assert_false(guest_mem_snapshot_restore(gm, b, NULL));
    assert_false(guest_mem_reset_zero(gm, NULL));
    assert_null(guest_mem_snapshot_take(gm));
    guest_mem_snapshot_free(a);
    guest_mem_snapshot_free(b);
    teardown(f);
}

/* Device pages under a recorded range are left alone. */
static bool mmio_read(void *opaque, uint64_t off, unsigned size, uint64_t *v)
{
    *v = 0;
    return true;
}

static bool mmio_write(void *opaque, uint64_t off, unsigned size, uint64_t v)
{
    (*(unsigned *)opaque)++;
    return true;
}

static void test_mmio_untouched(void **state)
{
    GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    static const GuestMMIOOps ops = { mmio_read, mmio_write };
    unsigned writes = 0;
    GuestMemSnapshot *s;
    uint8_t buf[3 * PAGE];

    assert_true(guest_mem_map(gm, BASE, PAGE, RWX, false));
    assert_true(guest_mem_map_mmio(gm, BASE + PAGE, PAGE, &ops, &writes));
    assert_true(guest_mem_map(gm, BASE + 2 * PAGE, PAGE, RWX, false));
    assert_true(guest_mem_track_dirty(gm));
    s = guest_mem_snapshot_take(gm);
    memset(buf, 3, sizeof(buf));
    assert_int_equal(guest_mem_write(gm, BASE, buf, sizeof(buf), NULL), GM_OK);
    assert_int_equal(writes, PAGE / 8);
    assert_true(guest_mem_snapshot_restore(gm, s, NULL));
    assert_int_equal(writes, PAGE / 8); /* the device saw no restore */
    assert_int_equal(guest_mem_read(gm, BASE + 2 * PAGE, buf, 1, GM_PROT_READ, NULL), GM_OK);
    assert_int_equal(buf[0], 0);
    guest_mem_snapshot_free(s);
    guest_mem_free(gm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_track_rules),
        cmocka_unit_test(test_no_host_faults_while_tracking),
        cmocka_unit_test(test_every_path_records),
        cmocka_unit_test(test_restore_matches_snapshot),
        cmocka_unit_test(test_long_runs_dropped),
        cmocka_unit_test(test_code_pages),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_mmio_untouched),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
