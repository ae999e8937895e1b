/*
 * Where guest RAM lives on the host: the direct window and RAM blocks.
 *
 * The direct window is one PROT_NONE host reservation of win_size bytes
 * at win, standing for guest addresses [0, win_size).  RAM mapped inside
 * that range is placed at win + guest address (MAP_FIXED into the
 * reservation), so every such page has the same host - guest offset:
 * translated code can then form the host address as guest + win without
 * loading a per-page addend from the TLB (the TLB check itself stays:
 * permissions, faults and code pages are unchanged, docs/engine.md "Guest
 * memory: the direct window").  RAM outside the window (or in an address
 * space without one) is an anonymous mapping anywhere, as before.
 *
 * Rules that keep the window consistent:
 *   - a window range holds host pages only while a RAM region is mapped
 *     there: removing a region maps PROT_NONE over its piece (dropping
 *     the pages: a later mapping of the range reads zeros) instead of
 *     unmapping its block, and blocks in the window are never munmapped on
 *     their own (the whole reservation goes with the address space);
 *   - a move into, out of or within the window moves the host pages
 *     (mremap with MREMAP_DONTUNMAP, so the source range never becomes a
 *     hole another thread's mmap could take; a copy when the kernel
 *     refuses), so a region in the window range is always direct.
 * The window is tried at GUEST_MEM_WINDOW_MAX, then smaller sizes
 * (valgrind allows 16 GiB, sanitizers less than a terabyte at times); it
 * needs 4 KiB host pages.  Without a window everything works as before,
 * just without the JIT's direct addressing.
 */
#include "hw/core/guest-memory-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4 /* Linux 5.7 */
#endif

#define ANON_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

/* Window sizes tried after the requested one, largest first (log2). */
static const unsigned window_fallback_bits[] = { 36, 34, 32 };

void gm_host_init(GuestMemory *gm, uint64_t max)
{
    const unsigned nfallback = sizeof(window_fallback_bits) / sizeof(window_fallback_bits[0]);
    uint64_t size = (max < gm->limit ? max : gm->limit) & GUEST_PAGE_MASK;
    unsigned next = 0;

    gm->win = NULL;
    gm->win_size = 0;
    if (size == 0 || gm->host_page_size != GUEST_PAGE_SIZE || SIZE_MAX < UINT64_MAX) {
        return;
    }
    for (;;) {
        void *p = mmap(NULL, (size_t)size, PROT_NONE, ANON_FLAGS, -1, 0);
        if (p != MAP_FAILED) {
            gm->win = p;
            gm->win_size = size;
            return;
        }
        while (next < nfallback && (UINT64_C(1) << window_fallback_bits[next]) >= size) {
            next++;
        }
        if (next == nfallback) {
            return;
        }
        size = UINT64_C(1) << window_fallback_bits[next++];
    }
}

void gm_host_fini(GuestMemory *gm)
{
    if (gm->win) {
        munmap(gm->win, (size_t)gm->win_size);
        gm->win = NULL;
    }
}

/* ------------------------------------------------------------------ */
/* Host faults: window protection mirrors the TLB's fast-path rules    */
/* ------------------------------------------------------------------ */

static int host_prot_of(const GuestRegion *r)
{
    if (r->kind != REGION_RAM || !r->block->in_window) {
        return PROT_NONE;
    }
    /* x86 cannot map write-only: a page the guest may write but not read
     * gets no host access (its stores take the slow path). */
    if (!(r->prot & GM_PROT_READ)) {
        return PROT_NONE;
    }
    return PROT_READ | ((r->prot & GM_PROT_WRITE) ? PROT_WRITE : 0);
}

static void host_faults_fail(GuestMemory *gm, uint64_t addr)
{
    fprintf(stderr, "linxemu: guest memory: the host refused to protect the page at guest "
            "0x%llx (the process's map count limit?); translated code goes back to TLB "
            "checks\n", (unsigned long long)addr);
    gm->host_faults = false;
}

static bool protect(GuestMemory *gm, uint64_t addr, uint64_t len, int prot)
{
    if (mprotect(gm->win + addr, (size_t)len, prot) != 0) {
        host_faults_fail(gm, addr);
        return false;
    }
    return true;
}

void gm_host_sync(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    uint64_t end, ncode;

    if (!gm->host_faults || len == 0 || addr >= gm->win_size) {
        return;
    }
    end = len > gm->win_size - addr ? gm->win_size : addr + len;
    addr &= GUEST_PAGE_MASK;
    end = (end + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    ncode = g_hash_table_size(gm->code_pages);
    /* Regions in window RAM get their permissions; gaps, MMIO and RAM
     * placed outside the window stay PROT_NONE (the reservation's), so an
     * access there faults to the slow path. */
    for (size_t i = gm_upper_region(gm, addr); i < gm->nregions; i++) {
        const GuestRegion *r = &gm->regions[i];
        uint64_t lo = r->start > addr ? r->start : addr;
        uint64_t hi = r->end < end ? r->end : end;
        int prot;

        if (r->start >= end) {
            break;
        }
        if (r->kind != REGION_RAM || !r->block->in_window) {
            continue;
        }
        prot = host_prot_of(r);
        if (!protect(gm, lo, hi - lo, prot)) {
            return;
        }
        if (!(prot & PROT_WRITE) || ncode == 0) {
            continue;
        }
        /* Pages with translated code: no host writes (a store faults to
         * the slow path, which invalidates the translations first). */
        for (uint64_t p = lo; p < hi; p += GUEST_PAGE_SIZE) {
            if (g_hash_table_contains(gm->code_pages, gm_page_key(p)) &&
                !protect(gm, p, GUEST_PAGE_SIZE, prot & ~PROT_WRITE)) {
                return;
            }
        }
    }
}

bool gm_host_allows(const GuestMemory *gm, const GuestRegion *r, bool write)
{
    if (!gm->host_faults || r->kind != REGION_RAM || !r->block->in_window) {
        return true;
    }
    /* Writes reach here only after the code-write events (the range holds
     * no code mark any more). */
    return (r->prot & GM_PROT_READ) && (!write || (r->prot & GM_PROT_WRITE));
}

void gm_host_open(GuestMemory *gm, uint8_t *host, uint64_t len)
{
    uintptr_t lo = (uintptr_t)host & ~(uintptr_t)(GUEST_PAGE_SIZE - 1);
    uintptr_t hi = ((uintptr_t)host + len + GUEST_PAGE_SIZE - 1) & ~(uintptr_t)(GUEST_PAGE_SIZE - 1);

    if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0) {
        fprintf(stderr, "linxemu: guest memory: cannot open a protected page for a debugger "
                "or loader access\n");
        abort();
    }
}

void gm_host_disable(GuestMemory *gm)
{
    if (!gm->host_faults) {
        return;
    }
    gm->host_faults = false;
    /* Back to what RAM has without host faults: read-write host pages
     * (the TLB checks the guest's permissions). */
    for (size_t i = 0; i < gm->nregions; i++) {
        const GuestRegion *r = &gm->regions[i];
        if (r->kind == REGION_RAM && r->block->in_window &&
            mprotect(gm->win + r->start, (size_t)(r->end - r->start), PROT_READ | PROT_WRITE) !=
                0) {
            fprintf(stderr, "linxemu: guest memory: cannot reopen guest RAM at 0x%llx after "
                    "host faults\n", (unsigned long long)r->start);
            abort();
        }
    }
}

bool guest_mem_enable_host_faults(GuestMemory *gm)
{
    /* Dirty tracking records a page at its first write through the TLB
     * slow path; a host-fault store would write a page unrecorded.  Nor
     * once threaded (guest_mem_set_threaded). */
    if (!gm->win || gm->dirty || gm->threaded) {
        return false;
    }
    if (!gm->host_faults) {
        gm->host_faults = true;
        gm_host_sync(gm, 0, gm->win_size);
    }
    return gm->host_faults;
}

bool guest_mem_host_faults(const GuestMemory *gm)
{
    return gm->host_faults;
}

RamBlock *gm_block_new(GuestMemory *gm, uint64_t addr, uint64_t len)
{
    bool in_window = gm_in_window(gm, addr, len);
    void *host;
    RamBlock *b;

#if SIZE_MAX < UINT64_MAX
    if (len > SIZE_MAX) {
        return NULL;
    }
#endif
    if (in_window) {
        host = mmap(gm->win + addr, (size_t)len, PROT_READ | PROT_WRITE, ANON_FLAGS | MAP_FIXED,
                    -1, 0);
    } else {
        host = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, ANON_FLAGS, -1, 0);
    }
    if (host == MAP_FAILED) {
        return NULL;
    }
    b = g_new0(RamBlock, 1);
    b->host = host;
    b->size = len;
    b->refs = 1;
    b->in_window = in_window;
    return b;
}

void gm_block_unref(GuestMemory *gm, RamBlock *b)
{
    if (--b->refs == 0) {
        if (!b->in_window) {
            munmap(b->host, (size_t)b->size);
        }
        g_free(b);
    }
}

/* Drop the host pages of [host, host + len) in the window, keeping the
 * reservation (PROT_NONE over it; zeroing them at least if the kernel
 * refuses a new mapping, e.g. at the map count limit). */
static void window_release(uint8_t *host, uint64_t len)
{
    if (mmap(host, (size_t)len, PROT_NONE, ANON_FLAGS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        madvise(host, (size_t)len, MADV_DONTNEED);
    }
}

void gm_release_piece(GuestMemory *gm, const GuestRegion *r)
{
    uint64_t hps = gm->host_page_size;
    uintptr_t lo = (uintptr_t)r->host;
    uintptr_t hi = lo + (r->end - r->start);

    if (r->block->in_window) {
        window_release(r->host, r->end - r->start);
        return;
    }
    if (r->block->refs == 1) {
        return; /* the block goes with this region: munmap does it */
    }
    /* Give the pages back; the block stays mapped for its other regions. */
    lo = (lo + hps - 1) & ~(uintptr_t)(hps - 1);
    hi &= ~(uintptr_t)(hps - 1);
    if (hi > lo) {
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
    }
}

void gm_region_move(GuestMemory *gm, GuestRegion *r, uint64_t new_start)
{
    uint64_t len = r->end - r->start;
    bool to_window = gm_in_window(gm, new_start, len);
    uint8_t *want = to_window ? gm->win + new_start : NULL;
    int flags = MREMAP_MAYMOVE | MREMAP_DONTUNMAP | (to_window ? MREMAP_FIXED : 0);
    RamBlock *nb;
    void *host;

    host = mremap(r->host, (size_t)len, (size_t)len, flags, want);
    if (host == MAP_FAILED) {
        /* Not one host mapping, or an old kernel: copy. */
        host = mmap(want, (size_t)len, PROT_READ | PROT_WRITE,
                    ANON_FLAGS | (to_window ? MAP_FIXED : 0), -1, 0);
        if (host == MAP_FAILED) {
            fprintf(stderr, "linxemu: guest memory: cannot move %llu bytes of guest RAM: the "
                    "host refuses a mapping\n", (unsigned long long)len);
            abort();
        }
        memcpy(host, r->host, (size_t)len);
    }
    /* The source keeps no bytes: it is either the window (reserved again)
     * or a piece of its old block (empty or zeroed). */
    if (r->block->in_window) {
        window_release(r->host, len);
    } else {
        madvise(r->host, (size_t)len, MADV_DONTNEED);
    }
    nb = g_new0(RamBlock, 1);
    nb->host = host;
    nb->size = len;
    nb->refs = 1;
    nb->in_window = to_window;
    gm_block_unref(gm, r->block);
    r->block = nb;
    r->host = host;
}
