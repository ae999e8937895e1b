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
 *   - a host pointer into guest RAM is only handed out for a range that
 *     was checked as a whole (guest_mem_window), and only to code in hw/
 *     and tcg/ that uses it at once; it is never stored in guest-visible
 *     state;
 *   - pages holding translated code are tracked (guest_mem_set_code) so
 *     a guest store to them invalidates the translations (self-modifying
 *     code), through the callback the exec layer registers.
 */
#ifndef LINX_HW_GUEST_MEMORY_H
#define LINX_HW_GUEST_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUEST_PAGE_BITS 12
#define GUEST_PAGE_SIZE (UINT64_C(1) << GUEST_PAGE_BITS)
#define GUEST_PAGE_MASK (~(GUEST_PAGE_SIZE - 1))

enum {
    GM_PROT_READ = 1,
    GM_PROT_WRITE = 2,
    GM_PROT_EXEC = 4,
};

typedef enum GuestFault {
    GM_OK = 0,
    GM_FAULT_UNMAPPED, /* no region at the address */
    GM_FAULT_PROT,     /* region present, access not permitted */
    GM_FAULT_ALIGN,    /* misaligned where alignment is required */
    GM_FAULT_MMIO,     /* device rejected the access */
} GuestFault;

typedef struct GuestMMIOOps {
    /* @size is 1, 2, 4 or 8; return false to reject the access. */
    bool (*read)(void *opaque, uint64_t offset, unsigned size, uint64_t *value);
    bool (*write)(void *opaque, uint64_t offset, unsigned size, uint64_t value);
} GuestMMIOOps;

typedef struct GuestMemory GuestMemory;

/* An address space accepting guest addresses below @limit. */
GuestMemory *guest_mem_new(uint64_t limit);
void guest_mem_free(GuestMemory *gm);

/* Map zero-filled RAM (page-aligned).  Fails (false) on overlap unless
 * @replace, which first unmaps what is there (mmap MAP_FIXED). */
bool guest_mem_map(GuestMemory *gm, uint64_t addr, uint64_t len, int prot, bool replace);
bool guest_mem_map_mmio(GuestMemory *gm, uint64_t addr, uint64_t len, const GuestMMIOOps *ops,
                        void *opaque);
bool guest_mem_unmap(GuestMemory *gm, uint64_t addr, uint64_t len);
bool guest_mem_protect(GuestMemory *gm, uint64_t addr, uint64_t len, int prot);

/* Permissions of the page holding @addr, or -1 when unmapped. */
int guest_mem_prot(GuestMemory *gm, uint64_t addr);

/* Lowest page-aligned address >= @hint where @len bytes are unmapped, or
 * UINT64_MAX.  Used by mmap without MAP_FIXED. */
uint64_t guest_mem_find_free(GuestMemory *gm, uint64_t hint, uint64_t len);

/* Checked copies.  @access is GM_PROT_READ, GM_PROT_WRITE or GM_PROT_EXEC.
 * On a fault nothing beyond the faulting page is touched and @fault_addr
 * (may be NULL) receives the first faulting guest address. */
GuestFault guest_mem_read(GuestMemory *gm, uint64_t addr, void *buf, size_t len, int access,
                          uint64_t *fault_addr);
GuestFault guest_mem_write(GuestMemory *gm, uint64_t addr, const void *buf, size_t len,
                           uint64_t *fault_addr);
/* Debugger access: ignores permissions, still bounded by the mappings. */
GuestFault guest_mem_debug_rw(GuestMemory *gm, uint64_t addr, void *buf, size_t len,
                              bool is_write);

/* Validate a 2-D footprint (rows x row_bytes, rows @stride bytes apart)
 * for @access and return a host pointer to @base when the whole footprint
 * lies in one RAM region.  Returns GM_OK and sets *host, or the fault.
 * When the footprint is valid but spans regions, returns GM_OK with
 * *host = NULL: the caller falls back to row-by-row guest_mem_read/write. */
GuestFault guest_mem_window(GuestMemory *gm, uint64_t base, uint64_t rows, uint64_t row_bytes,
                            uint64_t stride, int access, uint8_t **host, uint64_t *fault_addr);

/* Translated-code tracking for self-modifying code.  The exec layer marks
 * pages it translates from; a write to a marked page calls @on_code_write
 * (registered once) before the store lands. */
void guest_mem_set_code(GuestMemory *gm, uint64_t page_addr);
bool guest_mem_is_code(GuestMemory *gm, uint64_t page_addr);
void guest_mem_set_code_write_hook(GuestMemory *gm,
                                   void (*hook)(void *opaque, uint64_t page_addr),
                                   void *opaque);

/* Lookup used by the softmmu TLB fill: host address of the page holding
 * @addr (RAM only), its permissions and whether it holds code.  Returns
 * false for unmapped or MMIO pages (then *mmio says which). */
bool guest_mem_page_info(GuestMemory *gm, uint64_t addr, uint8_t **host_page, int *prot,
                         bool *is_code, bool *mmio);

/* MMIO access (slow path). */
GuestFault guest_mem_mmio_access(GuestMemory *gm, uint64_t addr, unsigned size, bool is_write,
                                 uint64_t *value);

/* Changes that invalidate TLB entries bump this counter; CPUs compare it
 * with the value at their last fill and flush when it moved. */
uint64_t guest_mem_generation(GuestMemory *gm);

#endif /* LINX_HW_GUEST_MEMORY_H */
