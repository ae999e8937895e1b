/*
 * Guest memory, the access side: checked copies (read, write, debugger),
 * MMIO, the TLB-fill lookup and 2-D windows.  The region map itself is
 * hw/core/guest-memory.c; the rules are in guest-memory.h.
 *
 * Every access is checked as a whole before a byte moves: on a fault
 * nothing is transferred and the first faulting address is reported.
 *
 * Locking: lookups and copies hold the reader lock (gm_rd_lock).  A write
 * that meets a page holding translated code takes the mutex instead
 * (guest_mem_lock), runs the code-write event (the exec layer drops the
 * page's translations under the same mutex) and copies before letting
 * go, so no translation of the old bytes can be made in between.
 */
#include "hw/core/guest-memory-internal.h"

#include <string.h>

#include "util/atomic.h"

/* Largest MMIO access (bytes). */
#define MMIO_MAX_ACCESS 8

/* ------------------------------------------------------------------ */
/* Checked access                                                      */
/* ------------------------------------------------------------------ */

/* Check that [addr, addr + len) is mapped and allows @access (@debug:
 * any RAM, no MMIO).  len may reach past 2^64: the walk faults at the
 * limit first. */
static GuestFault check_range(const GuestMemory *gm, uint64_t addr, uint64_t len, int access,
                              bool debug, uint64_t *fault_addr)
{
    uint64_t cur = addr;
    size_t i = gm_upper_region(gm, addr);

    while (len) {
        const GuestRegion *r;
        uint64_t n;

        if (i >= gm->nregions || gm->regions[i].start > cur) {
            *fault_addr = cur;
            return GM_FAULT_UNMAPPED;
        }
        r = &gm->regions[i];
        if (debug && r->kind == REGION_MMIO) {
            *fault_addr = cur;
            return GM_FAULT_MMIO;
        }
        if (!debug && (r->prot & access) != access) {
            *fault_addr = cur;
            return GM_FAULT_PROT;
        }
        n = r->end - cur;
        if (n >= len) {
            break;
        }
        len -= n;
        cur = r->end;
        i++;
    }
    return GM_OK;
}

static GuestFault mmio_piece(const GuestRegion *r, uint64_t addr, unsigned size, bool is_write,
                             uint64_t *value)
{
    uint64_t off = addr - r->mmio_base;

    if (is_write) {
        if (!r->ops->write || !r->ops->write(r->opaque, off, size, *value)) {
            return GM_FAULT_MMIO;
        }
    } else {
        if (!r->ops->read || !r->ops->read(r->opaque, off, size, value)) {
            return GM_FAULT_MMIO;
        }
    }
    return GM_OK;
}

/* Access a device range in naturally aligned pieces of up to 8 bytes. */
static GuestFault mmio_copy(const GuestRegion *r, uint64_t addr, uint8_t *buf, uint64_t len,
                            bool is_write, uint64_t *fault_addr)
{
    while (len) {
        unsigned size = MMIO_MAX_ACCESS;
        uint64_t v = 0;
        while (size > 1 && ((addr & (size - 1)) || size > len)) {
            size >>= 1;
        }
        if (is_write) {
            memcpy(&v, buf, size);
        }
        if (mmio_piece(r, addr, size, is_write, &v) != GM_OK) {
            *fault_addr = addr;
            return GM_FAULT_MMIO;
        }
        if (!is_write) {
            memcpy(buf, &v, size);
        }
        addr += size;
        buf += size;
        len -= size;
    }
    return GM_OK;
}

/* Guest RAM <-> host buffer.  Another guest thread may access the same
 * bytes meanwhile: that race is the guest's (ThreadSanitizer is told not
 * to look). */
static LINX_NO_TSAN void ram_copy(uint8_t *dst, const uint8_t *src, uint64_t n)
{
    memcpy(dst, src, n);
}

/* Copy between @buf and a range check_range() accepted. */
static GuestFault copy_range(GuestMemory *gm, uint64_t addr, uint8_t *buf, uint64_t len,
                             bool is_write, uint64_t *fault_addr)
{
    while (len) {
        const GuestRegion *r = gm_find_region(gm, addr);
        uint64_t n = r->end - addr;
        if (n > len) {
            n = len;
        }
        if (r->kind == REGION_RAM) {
            uint8_t *host = r->host + (addr - r->start);
            /* Host faults: a debugger or loader access, or a code fetch
             * from an execute-only page, may meet a host page protected
             * to mirror the guest's permissions: open it for the copy. */
            bool closed = !gm_host_allows(gm, r, is_write);
            if (closed) {
                gm_host_open(gm, host, n);
            }
            if (is_write) {
                ram_copy(host, buf, n);
            } else {
                ram_copy(buf, host, n);
            }
            if (closed) {
                gm_host_sync(gm, addr, n);
            }
        } else if (mmio_copy(r, addr, buf, n, is_write, fault_addr) != GM_OK) {
            return GM_FAULT_MMIO;
        }
        addr += n;
        buf += n;
        len -= n;
    }
    return GM_OK;
}

/* Does [addr, addr + len) meet a page with translated code?  Under a
 * lock; the range is mapped (so it does not wrap). */
static bool meets_code(const GuestMemory *gm, uint64_t addr, uint64_t len)
{
    unsigned ncode = g_hash_table_size(gm->code_pages);
    uint64_t lo = addr & GUEST_PAGE_MASK, hi = addr + len;

    if (ncode == 0 || len == 0) {
        return false;
    }
    if (((hi - lo) >> GUEST_PAGE_BITS) > ncode) {
        return true; /* cheaper to let gm_code_range_event scan the set */
    }
    for (uint64_t p = lo; p < hi; p += GUEST_PAGE_SIZE) {
        if (g_hash_table_contains(gm->code_pages, gm_page_key(p))) {
            return true;
        }
    }
    return false;
}

static GuestFault access_range(GuestMemory *gm, uint64_t addr, void *buf, size_t len,
                               int access, bool is_write, bool debug, uint64_t *fault_addr)
{
    uint64_t fa = 0;
    GuestFault f;

    if (len == 0) {
        return GM_OK;
    }
    gm_rd_lock(gm);
    f = check_range(gm, addr, len, access, debug, &fa);
    if (f == GM_OK && is_write && meets_code(gm, addr, len)) {
        /* Translated code under the footprint: the slow path below. */
        gm_rd_unlock(gm);
        guest_mem_lock(gm);
        f = check_range(gm, addr, len, access, debug, &fa);
        if (f == GM_OK) {
            gm_code_range_event(gm, addr, len);
            gm_dirty_mark(gm, addr, len);
            f = copy_range(gm, addr, buf, len, is_write, &fa);
        }
        guest_mem_unlock(gm);
    } else {
        if (f == GM_OK && is_write) {
            gm_dirty_mark(gm, addr, len);
        }
        if (f == GM_OK) {
            f = copy_range(gm, addr, buf, len, is_write, &fa);
        }
        gm_rd_unlock(gm);
    }
    if (f != GM_OK && fault_addr) {
        *fault_addr = fa;
    }
    return f;
}

GuestFault guest_mem_read(GuestMemory *gm, uint64_t addr, void *buf, size_t len, int access,
                          uint64_t *fault_addr)
{
    return access_range(gm, addr, buf, len, access, false, false, fault_addr);
}

GuestFault guest_mem_write(GuestMemory *gm, uint64_t addr, const void *buf, size_t len,
                           uint64_t *fault_addr)
{
    return access_range(gm, addr, (void *)buf, len, GM_PROT_WRITE, true, false, fault_addr);
}

GuestFault guest_mem_debug_rw(GuestMemory *gm, uint64_t addr, void *buf, size_t len,
                              bool is_write)
{
    return access_range(gm, addr, buf, len, 0, is_write, true, NULL);
}

static GuestFault mmio_access_locked(GuestMemory *gm, uint64_t addr, unsigned size,
                                     bool is_write, uint64_t *value)
{
    const GuestRegion *r = gm_find_region(gm, addr);

    if (!r || r->kind != REGION_MMIO) {
        return GM_FAULT_UNMAPPED;
    }
    if ((size != 1 && size != 2 && size != 4 && size != 8) || (addr & (size - 1))) {
        return GM_FAULT_ALIGN;
    }
    if (r->end - addr < size) {
        return GM_FAULT_UNMAPPED;
    }
    return mmio_piece(r, addr, size, is_write, value);
}

GuestFault guest_mem_mmio_access(GuestMemory *gm, uint64_t addr, unsigned size, bool is_write,
                                 uint64_t *value)
{
    GuestFault f;

    gm_rd_lock(gm);
    f = mmio_access_locked(gm, addr, size, is_write, value);
    gm_rd_unlock(gm);
    return f;
}

bool guest_mem_page_info(GuestMemory *gm, uint64_t addr, uint8_t **host_page, int *prot,
                         bool *is_code, bool *mmio)
{
    const GuestRegion *r;
    uint64_t page = addr & GUEST_PAGE_MASK;
    bool ram = false;

    *mmio = false;
    gm_rd_lock(gm);
    r = gm_find_region(gm, addr);
    if (r && r->kind == REGION_MMIO) {
        *mmio = true;
        *prot = r->prot;
    } else if (r) {
        *host_page = r->host + (page - r->start);
        *prot = r->prot;
        *is_code = g_hash_table_size(gm->code_pages) != 0 &&
                   g_hash_table_contains(gm->code_pages, gm_page_key(page));
        ram = true;
    }
    gm_rd_unlock(gm);
    return ram;
}

/* ------------------------------------------------------------------ */
/* 2-D windows                                                         */
/* ------------------------------------------------------------------ */

/* Host pointer for [addr, addr + len) if it lies in one block-contiguous
 * run of RAM regions, else NULL.  @len > 0 and the range is mapped. */
static uint8_t *contiguous_host(const GuestMemory *gm, uint64_t addr, uint64_t len)
{
    size_t i = gm_upper_region(gm, addr);
    const GuestRegion *r = &gm->regions[i];
    uint64_t last = addr + (len - 1);

    if (r->kind != REGION_RAM) {
        return NULL;
    }
    while (r->end - 1 < last) {
        const GuestRegion *nx;
        if (i + 1 >= gm->nregions) {
            return NULL;
        }
        nx = &gm->regions[i + 1];
        if (nx->start != r->end || nx->kind != REGION_RAM || nx->block != r->block ||
            nx->host != r->host + (r->end - r->start)) {
            return NULL;
        }
        r = nx;
        i++;
    }
    r = &gm->regions[gm_upper_region(gm, addr)];
    return r->host + (addr - r->start);
}

static GuestFault window_locked(GuestMemory *gm, uint64_t base, uint64_t rows,
                                uint64_t row_bytes, uint64_t stride, int access, uint8_t **host,
                                uint64_t *fault_addr, bool *code_event);

GuestFault guest_mem_window(GuestMemory *gm, uint64_t base, uint64_t rows, uint64_t row_bytes,
                            uint64_t stride, int access, uint8_t **host, uint64_t *fault_addr)
{
    bool code_event = false;
    GuestFault f;

    gm_rd_lock(gm);
    f = window_locked(gm, base, rows, row_bytes, stride, access, host, fault_addr, &code_event);
    gm_rd_unlock(gm);
    if (code_event) {
        /* A write footprint over translated code: again under the mutex,
         * with the code-write event. */
        guest_mem_lock(gm);
        f = window_locked(gm, base, rows, row_bytes, stride, access, host, fault_addr, NULL);
        guest_mem_unlock(gm);
    }
    return f;
}

/* @code_event NULL: run the code-write event (gm->lock held); else only
 * say whether one is needed (and return without a host pointer then). */
static GuestFault window_locked(GuestMemory *gm, uint64_t base, uint64_t rows,
                                uint64_t row_bytes, uint64_t stride, int access, uint8_t **host,
                                uint64_t *fault_addr, bool *code_event)
{
    uint64_t span, fa = 0;
    bool span_fits;
    GuestFault f;

    *host = NULL;
    if (rows == 0 || row_bytes == 0) {
        return GM_OK;
    }
    span_fits = !__builtin_mul_overflow(rows - 1, stride, &span) &&
                !__builtin_add_overflow(span, row_bytes, &span) &&
                span - 1 <= UINT64_MAX - base;

    if (stride <= row_bytes) {
        /* Rows touch or overlap: the footprint is one range. */
        f = check_range(gm, base, span_fits ? span : UINT64_MAX - base, access, false, &fa);
    } else {
        /* Disjoint rows: check row by row, skipping the rows that lie in
         * the same region as a checked one, so the cost is O(regions). */
        uint64_t row = 0;
        f = GM_OK;
        while (row < rows) {
            uint64_t off, addr;
            const GuestRegion *r;
            if (__builtin_mul_overflow(row, stride, &off) ||
                __builtin_add_overflow(base, off, &addr)) {
                fa = UINT64_MAX;
                f = GM_FAULT_UNMAPPED;
                break;
            }
            f = check_range(gm, addr, row_bytes, access, false, &fa);
            if (f != GM_OK) {
                break;
            }
            r = gm_find_region(gm, addr);
            if (r->end - addr >= row_bytes) {
                /* Rows row+1.. starting in r and ending by r->end are fine. */
                uint64_t room = r->end - addr - row_bytes;
                uint64_t more = room / stride;
                row += more + 1;
            } else {
                row++;
            }
        }
    }
    if (f != GM_OK) {
        if (fault_addr) {
            *fault_addr = fa;
        }
        return f;
    }
    if (span_fits && (access & GM_PROT_WRITE)) {
        /* The caller is about to store through the window: translations
         * of code pages under the footprint go first, as for any write. */
        if (code_event) {
            if (meets_code(gm, base, span)) {
                *code_event = true;
                return GM_OK;
            }
        } else {
            gm_code_range_event(gm, base, span);
        }
        gm_dirty_mark(gm, base, span);
    }
    if (span_fits) {
        *host = contiguous_host(gm, base, span);
    }
    return GM_OK;
}
