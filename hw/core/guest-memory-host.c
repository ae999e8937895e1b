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
