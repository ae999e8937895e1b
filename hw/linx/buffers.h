/*
 * On-chip buffers of the tile machine: L1, L0A, L0B, L0C (the ACC side)
 * and UB, as device models (shared/docs/decisions.md 8).
 *
 * Each buffer has a capacity, an alignment rule for engine operands and a
 * guest-visible address window.  Two built-in profiles (docs/tile.md,
 * "Buffers", for the numbers and their sources):
 *
 *            L1      L0A    L0B    L0C     UB      alignment
 *   A2/A3    512 KB  64 KB  64 KB  128 KB  192 KB  L1 32, L0A/L0B 512,
 *   950      512 KB  64 KB  64 KB  256 KB  248 KB  L0C 64, UB 32 bytes
 *
 * Windows sit at fixed offsets from a base (LINX_BUFFERS_DEFAULT_BASE in
 * the virt machine), each large enough for every profile, so a guest
 * address names the same buffer whatever the profile:
 *
 *   base + 0x000000  L1   (1 MB window)     base + 0x180000  L0C (512 KB)
 *   base + 0x100000  L0A  (256 KB)          base + 0x200000  UB  (512 KB)
 *   base + 0x140000  L0B  (256 KB)          base + 0x280000  LoadData 2D registers (4 KB)
 *   base + 0x281000  DataCopy registers     base + 0x282000  Mmad registers
 *   base + 0x283000  Fixpipe registers (4 KB pages; buffers-*.h)
 *
 * The storage belongs to the buffer object (engines such as LoadData and
 * the cube use it directly through linx_buffer_range(), which checks
 * bounds and alignment); linx_buffers_map() (buffers-mmio.h) makes it
 * reachable by guest loads and stores as MMIO windows (bytes past a buffer's capacity are
 * rejected, which the guest sees as a fault).
 *
 * No global state: several machines may each own a LinxBuffers.
 */
#ifndef LINX_HW_BUFFERS_H
#define LINX_HW_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/engine-status.h"

#define LINX_BUFFERS_DEFAULT_BASE UINT64_C(0x18000000)
/* Windows + the engines' register pages: LoadData 2D (+0x280000),
 * DataCopy GM -> L1 (+0x281000), Mmad (+0x282000), Fixpipe (+0x283000). */
#define LINX_BUFFERS_WINDOW_SPAN UINT64_C(0x284000)
#define LINX_BUFFERS_LD_NREGS 9
#define LINX_BUFFERS_ENGINE_NREGS 32
#define LINX_ENGINE_PAGE_LEN UINT64_C(0x1000)

typedef enum LinxBufferId {
    LINX_BUF_L1 = 0,
    LINX_BUF_L0A,
    LINX_BUF_L0B,
    LINX_BUF_L0C,
    LINX_BUF_UB,
    LINX_BUF__COUNT
} LinxBufferId;

/* "L1", "L0A", "L0B", "L0C", "UB"; "?" for any other value. */
static inline const char *linx_buffer_name(int id)
{
    static const char *const names[LINX_BUF__COUNT] = {
        [LINX_BUF_L1] = "L1", [LINX_BUF_L0A] = "L0A", [LINX_BUF_L0B] = "L0B",
        [LINX_BUF_L0C] = "L0C", [LINX_BUF_UB] = "UB",
    };

    return id >= 0 && id < LINX_BUF__COUNT ? names[id] : "?";
}

typedef enum LinxBufferProfile {
    LINX_BUF_PROFILE_A2A3 = 0,
    LINX_BUF_PROFILE_950,
    LINX_BUF_PROFILE__COUNT
} LinxBufferProfile;

typedef enum LinxBufferError {
    LINX_BUF_OK = 0,
    LINX_BUF_ERR_RANGE, /* outside the buffer's capacity */
    LINX_BUF_ERR_ALIGN, /* offset breaks the buffer's alignment rule */
} LinxBufferError;

typedef struct LinxBuffer {
    const char *name;   /* "L1", "L0A", ... */
    uint32_t size;      /* capacity in bytes (profile) */
    uint32_t align;     /* engine operand alignment in bytes */
    uint64_t window;    /* offset of the guest window from the base */
    uint64_t window_len;
    uint8_t *data;
    uint64_t guest_reads, guest_writes; /* MMIO accesses (statistics) */
    /* Bytes outside [used_lo, used_hi) are zero: every writer (guest
     * stores, linx_buffer_range) widens the range, so a reset clears
     * only what was used. */
    uint32_t used_lo, used_hi;
} LinxBuffer;

struct LinxBuffers;
/* An engine's GO: run the operation the registers describe; false with
 * b->status filled when a rule refuses it (nothing changed then). */
typedef bool (*LinxEngineGo)(struct LinxBuffers *b, const uint64_t *regs);

/* One engine register page: 64-bit registers, GO at @go (a write runs
 * the engine; a read returns the last status, 0 = ok). */
typedef struct LinxEnginePage {
    struct LinxBuffers *b;
    uint64_t *regs;
    unsigned nregs, go;
    uint64_t offset;     /* from the buffers' base */
    LinxEngineGo run;
} LinxEnginePage;

enum { LINX_ENGINE_DATACOPY = 0, LINX_ENGINE_MMAD, LINX_ENGINE_FIXPIPE, LINX_ENGINE__COUNT };

typedef struct LinxBuffers {
    LinxBuffer buf[LINX_BUF__COUNT];
    LinxBufferProfile profile;
    uint64_t base;      /* guest base of the windows once mapped, else 0 */
    GuestMemory *gm;    /* the address space they are mapped in */
    /* LoadData 2D register page (buffers-loaddata.h): raw registers. */
    uint64_t ld_reg[LINX_BUFFERS_LD_NREGS];
    /* DataCopy, Mmad, Fixpipe register pages (buffers-datacopy.h,
     * buffers-mmad.h, buffers-fixpipe.h). */
    uint64_t dc_reg[LINX_BUFFERS_ENGINE_NREGS];
    uint64_t mm_reg[LINX_BUFFERS_ENGINE_NREGS];
    uint64_t fp_reg[LINX_BUFFERS_ENGINE_NREGS];
    /* The last refused engine operation (any engine) and the guest
     * address of the GO register whose store was rejected (0: none). */
    LinxEngineStatus status;
    uint64_t status_addr;
    LinxEnginePage pages[LINX_ENGINE__COUNT];
} LinxBuffers;

LinxBuffers *linx_buffers_new(LinxBufferProfile profile);
void linx_buffers_free(LinxBuffers *b);
/* Zero every buffer (the bytes that were used) and the LoadData
 * registers. */
void linx_buffers_reset(LinxBuffers *b);

/* Record that [offset, offset + len) of @x may now be non-zero (for
 * linx_buffers_reset); every writer of x->data calls it. */
void linx_buffer_mark_used(LinxBuffer *x, uint64_t offset, uint64_t len);

/* Checked engine access to [offset, offset + len) of buffer @id: the
 * offset must meet the buffer's alignment and the range its capacity.
 * On LINX_BUF_OK *host points at the bytes (which count as used: the
 * engine may write them). */
LinxBufferError linx_buffer_range(LinxBuffers *b, LinxBufferId id, uint64_t offset,
                                  uint64_t len, uint8_t **host);

/* The buffer and offset of guest address @addr (after linx_buffers_map),
 * false when @addr is in no buffer (or past a buffer's capacity). */
bool linx_buffers_lookup(const LinxBuffers *b, uint64_t addr, LinxBufferId *id,
                         uint64_t *offset);

/* If @fault_addr (a trap's TRAPARG0) is the GO register of an engine page
 * whose last operation was refused, print "buffer engine: <rule>: <line>"
 * to @f and return true; else print nothing. */
bool linx_buffers_fault_report(FILE *f, const LinxBuffers *b, uint64_t fault_addr);

const char *linx_buffer_profile_name(LinxBufferProfile profile);
const char *linx_buffer_error_name(LinxBufferError err);

#endif /* LINX_HW_BUFFERS_H */
