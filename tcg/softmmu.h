/*
 * Guest memory access from translated code: the per-CPU TLB and the slow
 * paths behind it (modelled on QEMU's softmmu).
 *
 * TLB entry tags (LinxTLBEntry.addr_read / addr_write / addr_code) hold the
 * guest page address with the low GUEST_PAGE_BITS clear when the page may
 * be accessed directly; any TLB_* flag bit set there forces the slow path.
 * An empty entry is all ones (LINX_TLB_EMPTY), which no access matches.
 * The JIT's inline fast path for an access of 2^s bytes at @addr is:
 *
 *     e = &env->engine.tlb[(addr >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
 *     if ((addr & (GUEST_PAGE_MASK | ((1 << s) - 1))) == e->addr_read)
 *         value = *(type *)(addr + e->addend);      // hit, aligned
 *     else
 *         value = linx_ld_slow(env, addr, memop, pc); // miss, MMIO, fault
 *
 * With a direct window (hw/core/guest-memory.h) the JIT adds the window
 * base instead of e->addend (one constant for every page in the window:
 * no load that depends on the address); pages outside the window carry
 * TLB_NOT_DIRECT in their tags, so the JIT misses on them and the slow
 * path uses the addend.
 *
 * (IR_MO_ALIGN is always set by the LinxISA front end for scalar accesses,
 * so the size mask folds the alignment check into the tag compare; the
 * slow path raises DATA_ALIGN_FAULT.  Without IR_MO_ALIGN the fast path
 * must also keep the access within the page: the slow path handles
 * page-crossing accesses byte-exactly.)  Stores use addr_write; a page
 * with translated code has TLB_CODE in addr_write, so stores to it take
 * the slow path, which invalidates the translations first (the page then
 * loses its code mark and the next store is fast again).  A page holding a
 * debugger write watchpoint has TLB_WATCH in addr_write likewise.
 *
 * Coherence: the exec layer registers a GuestMemListener on each CPU's
 * address space and flushes the TLB entries of a range whenever its
 * mappings, permissions or code marks change, so a TLB never holds a
 * host pointer to memory that was unmapped.  A CPU's TLB must be flushed
 * once before first use (linx_exec_attach_cpu and cpu_exec do it).
 *
 * Several guest threads: C callers and the interpreter access aligned
 * guest words with acquire loads and release stores (plain moves on
 * x86-64, like the JIT's), which is the ISA's TSO for every access of a
 * thread and lets a guest's races be the guest's; atomics use host
 * read-modify-writes (target/linx/helper_mem.c).  A page that another
 * CPU marks as code while CPUs run in parallel keeps its fast write
 * entry in this CPU's TLB until the entry is refilled: stores racing with
 * a translation on another thread are the guest's business (FENCE.I and
 * the icache-flush system call drop every translation).
 *
 * Faults are architectural exceptions the target raises (LinxTargetOps
 * raise_mem_fault, tcg/target-ops.h; it leaves through cpu_loop_exit):
 *   misaligned (IR_MO_ALIGN)  GM_FAULT_ALIGN
 *   unmapped                  GM_FAULT_UNMAPPED
 *   no permission             GM_FAULT_PROT
 *   device rejected           GM_FAULT_MMIO
 * with whether the access stored, the first faulting byte's address and
 * the instruction's pc (LinxISA: DATA_ALIGN_FAULT / DATA_PAGE_FAULT with a
 * DFSC cause, target/linx/cpu.h).
 */
#ifndef LINX_TCG_SOFTMMU_H
#define LINX_TCG_SOFTMMU_H

#include <stdint.h>
#include <string.h>

#include "hw/core/guest-memory.h"
#include "ir.h"
#include "tcg/cpu-engine.h"
#include "util/atomic.h"

enum {
    TLB_INVALID = 1 << 3, /* no translation cached, or access not permitted */
    TLB_MMIO = 1 << 4,    /* device region: always slow path */
    TLB_CODE = 1 << 5,    /* page holds translated code (addr_write only) */
    /* RAM outside the address space's direct window (addr_read and
     * addr_write, only when the space has a window): the JIT's fast path
     * adds the window base instead of the entry's addend, so it must
     * miss; C callers and the slow path use the addend and ignore it. */
    TLB_NOT_DIRECT = 1 << 6,
    /* The page holds a debugger write watchpoint (addr_write only): stores
     * take the slow path, which stops before one that meets it
     * (linx_exec_watch_check in tcg/exec.h). */
    TLB_WATCH = 1 << 7,
    /* Writes go through the checked copy (addr_write only): a write-only
     * page under host faults has no host access at all (x86 cannot map
     * write-only), so its bytes are written with the page opened. */
    TLB_BYTES = 1 << 8,
};

#define LINX_TLB_EMPTY UINT64_MAX

/* The pc argument of the memory paths (linx_ld/linx_st, the slow paths,
 * the qemu_ld/qemu_st ops) is the faulting instruction's pc, and may carry
 * in bits 48..63 the number of instructions of the current TB that retired
 * before it and are not in env->insn_count yet (the TB adds its count at
 * its end): a fault adds them, so insn_count is precise at a mid-TB fault
 * as it is with one instruction per TB.  Guest pcs are below 2^48. */
#define LINX_PC_RETIRED_SHIFT 48
#define LINX_PC_MASK ((UINT64_C(1) << LINX_PC_RETIRED_SHIFT) - 1)

static inline uint64_t linx_pc_with_retired(uint64_t pc, unsigned retired)
{
    if ((pc >> LINX_PC_RETIRED_SHIFT) || retired >= (1u << (64 - LINX_PC_RETIRED_SHIFT))) {
        return pc; /* (cannot carry it) */
    }
    return pc | (uint64_t)retired << LINX_PC_RETIRED_SHIFT;
}

/* Slow paths: fill the TLB or perform MMIO; raise the architectural
 * exception (via cpu_loop_exit) on a fault, with @pc as the faulting
 * instruction (see LINX_PC_RETIRED_SHIFT).  @memop is an IRMemOp.  Loads
 * return the value extended as memop says. */
uint64_t linx_ld_slow(CPUArchState *env, uint64_t addr, uint64_t memop, uint64_t pc);
void linx_st_slow(CPUArchState *env, uint64_t addr, uint64_t value, uint64_t memop, uint64_t pc);

/* Bulk accesses of C helpers (MCOPY, MSET): the host address of [addr,
 * addr + len) when every page of it is plain RAM the TLB maps for the
 * access (filling entries as an access would) and the pages are one run
 * of host memory; NULL when any page needs the checked path - unmapped,
 * no permission, MMIO, translated code, a write watchpoint, a page dirty
 * tracking has not recorded, or more than LINX_TLB_RANGE_PAGES pages -
 * which the caller then takes (it raises the faults).  Never faults. */
enum { LINX_TLB_RANGE_PAGES = 16 };
void *linx_tlb_range_host(CPUArchState *env, uint64_t addr, uint64_t len, bool is_write);

/* Invalidate every TLB entry of @env. */
void linx_tlb_flush(CPUArchState *env);
/* Invalidate the entries of the pages meeting [addr, addr + len). */
void linx_tlb_flush_range(CPUArchState *env, uint64_t addr, uint64_t len);

/* Sign- or zero-extend a raw little-endian value of memop's size. */
static inline uint64_t linx_memop_extend(uint64_t raw, unsigned memop)
{
    switch (memop & (IR_MO_SIZE | IR_MO_SIGN)) {
    case IR_MO_8:
        return (uint8_t)raw;
    case IR_MO_16:
        return (uint16_t)raw;
    case IR_MO_32:
        return (uint32_t)raw;
    case IR_MO_8 | IR_MO_SIGN:
        return (uint64_t)(int64_t)(int8_t)raw;
    case IR_MO_16 | IR_MO_SIGN:
        return (uint64_t)(int64_t)(int16_t)raw;
    case IR_MO_32 | IR_MO_SIGN:
        return (uint64_t)(int64_t)(int32_t)raw;
    default:
        return raw;
    }
}

static inline LinxTLBEntry *linx_tlb_entry(CPUArchState *env, uint64_t addr)
{
    return &cpu_engine(env)->tlb[(addr >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
}

/* Tag an access of @memop at @addr must match: the page plus the bits
 * that must be zero (alignment, or staying inside the page). */
static inline uint64_t linx_tlb_cmp(uint64_t addr, unsigned memop)
{
    uint64_t size = UINT64_C(1) << (memop & IR_MO_SIZE);

    if (memop & IR_MO_ALIGN) {
        return addr & (GUEST_PAGE_MASK | (size - 1));
    }
    /* Unaligned allowed: hit only when the access stays in the page. */
    if ((addr & ~GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) {
        return LINX_TLB_EMPTY - 1; /* never a tag */
    }
    return addr & GUEST_PAGE_MASK;
}

/* Misaligned guest bytes (a guest race on them is the guest's). */
static inline LINX_NO_TSAN void linx_host_copy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}

/* Load/store @size (1, 2, 4, 8) bytes of guest RAM at @host: one access
 * with acquire/release order when aligned (TSO, see above), else bytes. */
static inline uint64_t linx_host_load(const void *host, unsigned size)
{
    uint64_t raw = 0;

    if (((uintptr_t)host & (size - 1)) == 0) {
        switch (size) {
        case 1:
            return atomic_load_acq((const uint8_t *)host);
        case 2:
            return atomic_load_acq((const uint16_t *)host);
        case 4:
            return atomic_load_acq((const uint32_t *)host);
        default:
            return atomic_load_acq((const uint64_t *)host);
        }
    }
    /* Little-endian host assumed (x86-64). */
    linx_host_copy(&raw, host, size);
    return raw;
}

static inline void linx_host_store(void *host, uint64_t value, unsigned size)
{
    if (((uintptr_t)host & (size - 1)) == 0) {
        switch (size) {
        case 1:
            atomic_store_rel((uint8_t *)host, (uint8_t)value);
            return;
        case 2:
            atomic_store_rel((uint16_t *)host, (uint16_t)value);
            return;
        case 4:
            atomic_store_rel((uint32_t *)host, (uint32_t)value);
            return;
        default:
            atomic_store_rel((uint64_t *)host, value);
            return;
        }
    }
    linx_host_copy(host, &value, size);
}

/* Full access path for C helpers and the interpreter (fast TLB hit, else
 * the slow path).  Only valid inside cpu_exec() (faults longjmp). */
static inline uint64_t linx_ld(CPUArchState *env, uint64_t addr, unsigned memop, uint64_t pc)
{
    const LinxTLBEntry *e = linx_tlb_entry(env, addr);

    if (linx_tlb_cmp(addr, memop) == (e->addr_read & ~(uint64_t)TLB_NOT_DIRECT)) {
        const void *host = (const void *)(uintptr_t)(addr + e->addend);
        return linx_memop_extend(linx_host_load(host, 1u << (memop & IR_MO_SIZE)), memop);
    }
    return linx_ld_slow(env, addr, memop, pc);
}

static inline void linx_st(CPUArchState *env, uint64_t addr, uint64_t value, unsigned memop,
                           uint64_t pc)
{
    const LinxTLBEntry *e = linx_tlb_entry(env, addr);

    if (linx_tlb_cmp(addr, memop) == (e->addr_write & ~(uint64_t)TLB_NOT_DIRECT)) {
        void *host = (void *)(uintptr_t)(addr + e->addend);
        linx_host_store(host, value, 1u << (memop & IR_MO_SIZE));
        return;
    }
    linx_st_slow(env, addr, value, memop, pc);
}

/* A host pointer to the aligned @size-byte guest word at @addr, checked
 * for reading and writing (the atomics' target): faults like a store
 * (DATA_ALIGN_FAULT when misaligned, DATA_PAGE_FAULT with WnR), runs the
 * code-write event when the page holds translated code, and returns NULL
 * for a device page (the caller then uses linx_ld/linx_st). */
void *linx_atomic_host(CPUArchState *env, uint64_t addr, unsigned size, uint64_t pc);

#endif /* LINX_TCG_SOFTMMU_H */
