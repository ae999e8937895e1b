/*
 * Guest memory: the one checked path between guest addresses and host
 * memory.
 *
 * A GuestMemory is a sparse 64-bit guest address space made of regions:
 * RAM (host-backed, zero-filled, with per-page read/write/execute
 * permissions) and MMIO (read/write callbacks).  Every guest access made
 * by translated code, helpers, device models, loaders and the debugger
 * goes through this module (or the per-CPU TLB it fills), which checks
 * bounds, alignment and permissions and reports a fault with the faulting
 * address instead of touching host memory it does not own.
 *
 * Invariants:
 *   - regions are page-aligned, never overlap, and lie below the limit
 *     given to guest_mem_new(); page_info is a binary search over them
 *     (O(log regions)), so TLB fills stay cheap with thousands of mmaps;
 *   - a host pointer into guest RAM is only handed out for a range that
 *     was checked as a whole (guest_mem_window, guest_mem_page_info), and
 *     only to code in hw/ and tcg/ that uses it at once; it is never
 *     stored in guest-visible state.  Every change of the mappings calls
 *     the listeners' on_change synchronously, so per-CPU TLBs drop their
 *     host pointers before the host memory goes away;
 *   - pages holding translated code are tracked (guest_mem_set_code) so
 *     a guest store to them invalidates the translations (self-modifying
 *     code): the listeners' on_code_write runs before the store lands, and
 *     the page's mark is dropped afterwards (the exec layer re-marks it
 *     when it translates from it again).  Unmapping or re-protecting a
 *     code page calls on_code_write too.
 *
 * Threads (docs/engine.md "Concurrency"): every change (map, unmap,
 * protect, move, code marks, listeners) takes the address space's
 * recursive mutex (guest_mem_lock) and calls the listeners with it held;
 * once guest_mem_set_threaded() was called, lookups and copies take a
 * reader lock, so threads may read and write guest memory while another
 * changes the map.  Changes that take access away (unmap, protect, move,
 * a mapping that replaces another) must not race with translated code
 * using the per-CPU TLBs: the exec layer's listener flushes every CPU's
 * TLB, which the caller makes safe with an exclusive section
 * (linx_exec_start_exclusive) when CPUs run in parallel.
 *
 * Usage:
 *   GuestMemory *gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
 *   guest_mem_map(gm, 0x10000, 0x4000, GM_PROT_READ | GM_PROT_EXEC, false);
 *   guest_mem_debug_rw(gm, 0x10000, code, size, true); // loaders ignore prot
 *   uint64_t fa;
 *   if (guest_mem_read(gm, addr, buf, n, GM_PROT_READ, &fa) != GM_OK) ... fault at fa
 */
#ifndef LINX_HW_GUEST_MEMORY_H
#define LINX_HW_GUEST_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUEST_PAGE_BITS 12
#define GUEST_PAGE_SIZE (UINT64_C(1) << GUEST_PAGE_BITS)
#define GUEST_PAGE_MASK (~(GUEST_PAGE_SIZE - 1))

/* The largest limit an address space may have: the top page of the 64-bit
 * space is never mappable, so region ends stay representable. */
#define GUEST_MEM_LIMIT_MAX (UINT64_C(0) - GUEST_PAGE_SIZE)
/* A 48-bit space, like a user-mode Linux process on a 4-level MMU. */
#define GUEST_MEM_LIMIT_DEFAULT (UINT64_C(1) << 48)
/* Largest direct window guest_mem_new() reserves: guest [0, 1 TiB). */
#define GUEST_MEM_WINDOW_MAX (UINT64_C(1) << 40)

enum {
    GM_PROT_NONE = 0,
    GM_PROT_READ = 1,
    GM_PROT_WRITE = 2,
    GM_PROT_EXEC = 4,
    GM_PROT_ALL = 7,
};

typedef enum GuestFault {
    GM_OK = 0,
    GM_FAULT_UNMAPPED, /* no region at the address */
    GM_FAULT_PROT,     /* region present, access not permitted */
    GM_FAULT_ALIGN,    /* misaligned where alignment is required */
    GM_FAULT_MMIO,     /* device rejected the access (or no device access allowed) */
} GuestFault;

/* Name of a fault, for messages ("unmapped", "permission", ...). */
const char *guest_fault_name(GuestFault f);

typedef struct GuestMMIOOps {
    /* @size is 1, 2, 4 or 8 and @offset is relative to the start of the
     * device's region; return false to reject the access.  A NULL
     * callback rejects every access of that direction. */
    bool (*read)(void *opaque, uint64_t offset, unsigned size, uint64_t *value);
    bool (*write)(void *opaque, uint64_t offset, unsigned size, uint64_t value);
} GuestMMIOOps;

/* What on_change reports. */
enum {
    GM_CHANGE_MAP = 0, /* unmapped, permissions changed, moved or replaced */
    GM_CHANGE_NEW = 1, /* mapped where nothing was (no access was taken away) */
    GM_CHANGE_CODE = 2, /* a page gained or lost its code mark */
};

/* Observers of an address space (the exec layer registers one per exec
 * context).  Both callbacks may be NULL.  They are called with the
 * address space's mutex held (guest_mem_lock) and may read guest memory
 * and change code marks, but must not change the mappings themselves. */
typedef struct GuestMemListener {
    /* The mappings or permissions of [addr, addr + len) changed, or a page
     * gained or lost its code mark (@kind: GM_CHANGE_*): drop cached
     * translations of it. */
    void (*on_change)(void *opaque, uint64_t addr, uint64_t len, unsigned kind);
    /* The code page at @page_addr is about to be written, unmapped or
     * re-protected: invalidate the translations made from it. */
    void (*on_code_write)(void *opaque, uint64_t page_addr);
    void *opaque;
} GuestMemListener;

typedef struct GuestMemory GuestMemory;

/* An address space accepting guest addresses below @limit (rounded down
 * to a page, at most GUEST_MEM_LIMIT_MAX; 0 means GUEST_MEM_LIMIT_MAX),
 * with a direct window of up to GUEST_MEM_WINDOW_MAX bytes. */
GuestMemory *guest_mem_new(uint64_t limit);
/* The same with a direct window of at most @window_max bytes (0: none;
 * tests use small or no windows).
 *
 * The direct window: a host reservation standing for guest addresses
 * [0, size); RAM mapped inside that range lives at base + guest address,
 * so translated code forms host addresses with one constant offset (the
 * TLB still checks every access).  RAM elsewhere lives anywhere.  The
 * window is smaller than asked when the host refuses the reservation
 * (valgrind: 16 GiB), absent without 4 KiB host pages. */
GuestMemory *guest_mem_new_window(uint64_t limit, uint64_t window_max);
/* Host faults (docs/engine.md "Guest memory: host faults"): from now on
 * the host protection of every page of the direct window mirrors what a
 * TLB entry allows a fast access there: readable when RAM with
 * GM_PROT_READ, writable when RAM with GM_PROT_WRITE and no code mark,
 * else no access (gaps, MMIO, RAM outside the window).  Translated code
 * may then access window addresses without a TLB check and let a host
 * fault send the access to its slow path.  False without a window, or
 * after the host refused a protection change, or while dirty pages are
 * tracked (guest_mem_track_dirty turns it off: a store the host lets
 * through would write a page unrecorded), or once threaded
 * (guest_mem_set_threaded turns it off).  Once off it stays off: the
 * listeners' on_change sees guest_mem_host_faults() false.  Accesses
 * through this module (debugger, loaders, code fetch) still work on
 * protected pages. */
bool guest_mem_enable_host_faults(GuestMemory *gm);
bool guest_mem_host_faults(const GuestMemory *gm);
/* The window's host base (NULL when there is none) and its size. */
uint8_t *guest_mem_direct_base(const GuestMemory *gm, uint64_t *size);
void guest_mem_free(GuestMemory *gm);
uint64_t guest_mem_limit(const GuestMemory *gm);

/* Map zero-filled RAM (page-aligned address and length, len > 0).  Fails
 * (false) on bad arguments, and on overlap unless @replace, which first
 * unmaps what is there (mmap MAP_FIXED). */
bool guest_mem_map(GuestMemory *gm, uint64_t addr, uint64_t len, int prot, bool replace);
/* Map a device; @ops and @opaque must outlive the mapping.  Offsets
 * passed to the callbacks are relative to @addr even after partial
 * unmaps.  Fails on overlap or bad arguments. */
bool guest_mem_map_mmio(GuestMemory *gm, uint64_t addr, uint64_t len, const GuestMMIOOps *ops,
                        void *opaque);
/* Unmap [addr, addr + len) (munmap: holes inside are fine).  False only
 * for bad arguments (unaligned address, zero or overflowing length). */
bool guest_mem_unmap(GuestMemory *gm, uint64_t addr, uint64_t len);
/* Change the permissions of RAM pages (mprotect: splits regions as
 * needed).  Fails without changing anything when part of the range is
 * unmapped or MMIO, or on bad arguments. */
bool guest_mem_protect(GuestMemory *gm, uint64_t addr, uint64_t len, int prot);
/* Move the RAM mapped at [old_addr, old_addr + len) to @new_addr with its
 * contents and permissions, without copying (host pages move with mremap
 * when the direct window is involved, else regions are re-pointed).
 * The old range must be fully mapped RAM and the new range free (ranges
 * may not overlap).  Grow/shrink in place is map/unmap of the tail. */
bool guest_mem_move(GuestMemory *gm, uint64_t old_addr, uint64_t len, uint64_t new_addr);

/* Permissions of the page holding @addr, or -1 when unmapped (MMIO
 * regions report GM_PROT_READ | GM_PROT_WRITE). */
int guest_mem_prot(GuestMemory *gm, uint64_t addr);

/* Lowest page-aligned address >= @hint where @len bytes (rounded up to
 * pages) are unmapped and below the limit, or UINT64_MAX.  Used by mmap
 * without MAP_FIXED; the caller retries from a low hint to wrap around. */
uint64_t guest_mem_find_free(GuestMemory *gm, uint64_t hint, uint64_t len);

/* Checked copies.  @access is GM_PROT_READ, GM_PROT_WRITE or GM_PROT_EXEC.
 * The whole range is checked before anything is copied: on a fault no
 * byte is transferred (no device is accessed) and @fault_addr (may be
 * NULL) receives the first faulting guest address.  MMIO is accessed in
 * naturally aligned pieces of up to 8 bytes. */
GuestFault guest_mem_read(GuestMemory *gm, uint64_t addr, void *buf, size_t len, int access,
                          uint64_t *fault_addr);
GuestFault guest_mem_write(GuestMemory *gm, uint64_t addr, const void *buf, size_t len,
                           uint64_t *fault_addr);
/* Debugger and loader access: ignores permissions, still bounded by the
 * RAM mappings (MMIO gives GM_FAULT_MMIO: no device side effects).
 * Writes to code pages invalidate translations like guest stores. */
GuestFault guest_mem_debug_rw(GuestMemory *gm, uint64_t addr, void *buf, size_t len,
                              bool is_write);

/* Validate a 2-D footprint (rows x row_bytes, row i at base + i * stride)
 * for @access and return a host pointer to @base when the whole span
 * [base, base + (rows - 1) * stride + row_bytes) is contiguous host RAM.
 * Returns GM_OK and sets *host, or the fault and *fault_addr (first
 * faulting address of the first faulting row).  When the footprint is
 * valid but not host-contiguous (several regions, MMIO, gaps between
 * rows that are unmapped), returns GM_OK with *host = NULL: the caller
 * falls back to row-by-row guest_mem_read/write.  An empty footprint
 * (rows or row_bytes 0) is GM_OK with *host = NULL.  Cost is O(regions
 * touched), never O(rows). */
GuestFault guest_mem_window(GuestMemory *gm, uint64_t base, uint64_t rows, uint64_t row_bytes,
                            uint64_t stride, int access, uint8_t **host, uint64_t *fault_addr);

/* Translated-code tracking for self-modifying code.  The exec layer marks
 * pages it translates from; a write to a marked page calls the listeners'
 * on_code_write before the store lands, then clears the mark. */
void guest_mem_set_code(GuestMemory *gm, uint64_t page_addr);
bool guest_mem_is_code(GuestMemory *gm, uint64_t page_addr);
void guest_mem_clear_code(GuestMemory *gm, uint64_t page_addr);

/* Shrink [*lo, *hi) to the largest range around [keep_lo, keep_hi) (which
 * must lie inside it) that holds no code page: page-aligned cuts next to
 * the nearest code page on each side.  False, leaving *lo and *hi alone,
 * when a code page meets [keep_lo, keep_hi) itself.  For caches of
 * validated write windows (tma_exec): a cached range without code pages
 * stays valid until the generation changes, and marking a page as code
 * changes it.  Cost: O(min(code pages, pages in the range)). */
bool guest_mem_code_free_range(GuestMemory *gm, uint64_t keep_lo, uint64_t keep_hi,
                               uint64_t *lo, uint64_t *hi);

/* Listeners (at most GUEST_MEM_MAX_LISTENERS; false when full). */
#define GUEST_MEM_MAX_LISTENERS 8
bool guest_mem_add_listener(GuestMemory *gm, const GuestMemListener *l);
void guest_mem_remove_listener(GuestMemory *gm, void *opaque);
/* Compatibility with the first contract: a listener with only
 * on_code_write. */
void guest_mem_set_code_write_hook(GuestMemory *gm,
                                   void (*hook)(void *opaque, uint64_t page_addr),
                                   void *opaque);

/* Lookup used by the softmmu TLB fill: host address of the page holding
 * @addr (RAM only), its permissions and whether it holds code.  Returns
 * false for unmapped or MMIO pages (then *mmio says which). */
bool guest_mem_page_info(GuestMemory *gm, uint64_t addr, uint8_t **host_page, int *prot,
                         bool *is_code, bool *mmio);

/* MMIO access (slow path): @size 1, 2, 4 or 8, naturally aligned
 * (GM_FAULT_ALIGN otherwise); GM_FAULT_UNMAPPED when @addr is not in a
 * device region, GM_FAULT_MMIO when the device rejects it. */
GuestFault guest_mem_mmio_access(GuestMemory *gm, uint64_t addr, unsigned size, bool is_write,
                                 uint64_t *value);

/* Every change of the mappings, permissions or code marks bumps this
 * counter (CPUs may compare it with the value at their last TLB fill). */
uint64_t guest_mem_generation(GuestMemory *gm);
/* Byte offset of the generation counter (a u64) in GuestMemory, for
 * generated code that compares it without a call (tcg/tile-move.h). */
int32_t guest_mem_generation_offset(void);

/* The address space's recursive mutex: held by every change of the map
 * and of the code marks (and around their listener calls).  The exec
 * layer holds it while translating, so TB-cache changes and map changes
 * are serialised together. */
void guest_mem_lock(GuestMemory *gm);
void guest_mem_unlock(GuestMemory *gm);
/* From now on lookups and copies take a reader lock (several threads use
 * the address space).  Call before the second thread starts; there is no
 * way back. */
void guest_mem_set_threaded(GuestMemory *gm);
bool guest_mem_threaded(const GuestMemory *gm);

/* Around a host fork(): take the mutex and the writer lock (no reader
 * holds it in the child), and release both in parent and child. */
void guest_mem_fork_prepare(GuestMemory *gm);
void guest_mem_fork_after(GuestMemory *gm);
/* In the child instead of guest_mem_fork_after: fresh locks (the parent's
 * record owners that do not exist here), the mutex held once - the exec
 * lock linx_exec_fork_prepare took. */
void guest_mem_fork_child(GuestMemory *gm);

/* Number of regions (for tests and statistics). */
size_t guest_mem_region_count(const GuestMemory *gm);

/*
 * Dirty-page tracking and snapshots (guest-memory-dirty.c), for running
 * many programs one after another in one address space (linx-optest's
 * workers): instead of a new address space per run, RAM goes back to a
 * snapshot by rewriting only the pages written since.
 *
 * While tracking is on, every way of writing RAM records the pages it
 * writes: the checked copies (guest_mem_write, guest_mem_debug_rw),
 * guest_mem_window for GM_PROT_WRITE (the whole span), and the softmmu
 * TLB, which caches a write entry only for a page already recorded
 * (guest_mem_dirty_write_ok).  A host pointer handed out for writing
 * stays recorded until the next restore, which bumps the generation
 * and tells the listeners (their TLBs and window caches drop it).
 *
 *   guest_mem_track_dirty(gm);          // before the first write to RAM
 *   ... load a program ...
 *   GuestMemSnapshot *s = guest_mem_snapshot_take(gm);
 *   for each run: ... run, check ...; guest_mem_snapshot_restore(gm, s, NULL);
 *   guest_mem_reset_zero(gm, NULL);     // every page written back to zero
 *
 * A restore writes back only pages whose contents differ (a code page
 * that differs drops its translations first, as any write to it would;
 * one that does not keeps them), zeroes long runs of pages with
 * madvise(MADV_DONTNEED) (RAM is private anonymous memory), and refuses
 * (false, nothing done) when the regions or permissions changed since
 * tracking began: the caller then builds a new address space.
 */
typedef struct GuestMemSnapshot GuestMemSnapshot;

typedef struct GuestMemResetStats {
    uint64_t pages;       /* recorded pages looked at */
    uint64_t written;     /* pages written back (copied or zeroed) */
    uint64_t dropped;     /* pages given back with MADV_DONTNEED */
    uint64_t code_pages;  /* code pages whose translations were dropped */
} GuestMemResetStats;

/* Start tracking; every RAM page not written from now on is taken to be
 * zero (so call it before anything writes RAM).  False when it is
 * already on, or the host's pages are not GUEST_PAGE_SIZE. */
bool guest_mem_track_dirty(GuestMemory *gm);
bool guest_mem_tracks_dirty(const GuestMemory *gm);
/* Is the page holding @addr recorded as written since the last restore
 * (or snapshot)? */
bool guest_mem_is_dirty(const GuestMemory *gm, uint64_t addr);
/* Pages recorded since the last restore or snapshot. */
uint64_t guest_mem_dirty_count(const GuestMemory *gm);
/* For the TLB fill of the page holding @addr: may a write entry be
 * cached for it?  True without tracking; with it, @is_write records the
 * page (and allows), else only a recorded page allows. */
bool guest_mem_dirty_write_ok(GuestMemory *gm, uint64_t addr, bool is_write);

/* The current contents of every page written since tracking began (or
 * since the last guest_mem_reset_zero); NULL without tracking. */
GuestMemSnapshot *guest_mem_snapshot_take(GuestMemory *gm);
/* Back to @s, the snapshot taken or restored last (false otherwise, or
 * when the layout changed; nothing is done then).  @st may be NULL. */
bool guest_mem_snapshot_restore(GuestMemory *gm, GuestMemSnapshot *s, GuestMemResetStats *st);
/* Every page written since tracking began back to zero; forgets the
 * snapshot (a restore to it fails from now on). */
bool guest_mem_reset_zero(GuestMemory *gm, GuestMemResetStats *st);
/* Pages a snapshot holds (the non-zero ones). */
uint64_t guest_mem_snapshot_pages(const GuestMemSnapshot *s);
void guest_mem_snapshot_free(GuestMemSnapshot *s);

#endif /* LINX_HW_GUEST_MEMORY_H */
