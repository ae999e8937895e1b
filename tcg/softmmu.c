/*
 * Softmmu slow paths: TLB fill, MMIO, page-crossing accesses, stores to
 * pages holding translated code, and the architectural faults.
 *
 * The fast paths are inline (softmmu.h for C callers and the interpreter,
 * generated code in the JIT); everything here runs on a TLB miss or when
 * an entry's tag carries a TLB_* flag.  A fault never touches host memory:
 * it raises the exception (cpu_loop_exit) with the faulting address.
 */
#include "tcg/softmmu.h"

#include <stdlib.h>

#include "tcg/cpu-exit.h"
#include "tcg/target-ops.h"

/* Which tag of a TLB entry an access uses. */
typedef enum TLBAccess {
    TLB_ACCESS_READ,
    TLB_ACCESS_WRITE,
} TLBAccess;

void linx_tlb_flush(CPUArchState *env)
{
    memset(cpu_engine(env)->tlb, 0xff, sizeof(cpu_engine(env)->tlb));
}

static void tlb_flush_page(CPUArchState *env, uint64_t page)
{
    LinxTLBEntry *e = linx_tlb_entry(env, page);

    if ((e->addr_read & GUEST_PAGE_MASK) == page || (e->addr_write & GUEST_PAGE_MASK) == page ||
        (e->addr_code & GUEST_PAGE_MASK) == page) {
        memset(e, 0xff, sizeof(*e));
    }
}

void linx_tlb_flush_range(CPUArchState *env, uint64_t addr, uint64_t len)
{
    uint64_t first = addr & GUEST_PAGE_MASK;
    uint64_t last;

    if (len == 0) {
        return;
    }
    last = (addr + (len - 1)) & GUEST_PAGE_MASK;
    if (last < first || ((last - first) >> GUEST_PAGE_BITS) >= LINX_TLB_SIZE) {
        linx_tlb_flush(env);
        return;
    }
    for (uint64_t p = first;; p += GUEST_PAGE_SIZE) {
        tlb_flush_page(env, p);
        if (p == last) {
            break;
        }
    }
}

static _Noreturn void raise_data_fault(CPUArchState *env, GuestFault f, uint64_t addr,
                                       bool is_write, uint64_t pc)
{
    const LinxExitState *x = (const LinxExitState *)cpu_engine(env)->exec;
    const LinxTargetOps *t;

    if (!x) {
        cpu_loop_exit(env); /* (outside cpu_exec: an internal error) */
    }
    t = x->target;
    /* The instructions of the TB before this one retired (softmmu.h). */
    if (t->insn_count_offset >= 0) {
        *linx_cpu_word(env, (size_t)t->insn_count_offset) += pc >> LINX_PC_RETIRED_SHIFT;
    }
    t->raise_mem_fault(env, f, addr, is_write, pc & LINX_PC_MASK);
    abort(); /* (it does not return) */
}

/* Fill the entry for @addr from the address space; NULL when nothing is
 * mapped there (the entry unchanged). */
static LinxTLBEntry *tlb_fill_page(CPUArchState *env, uint64_t addr, bool is_write)
{
    LinxTLBEntry *e = linx_tlb_entry(env, addr);
    uint64_t page = addr & GUEST_PAGE_MASK;
    uint8_t *host = NULL, *win;
    int prot = 0;
    bool is_code = false, mmio = false;
    uint64_t far;

    if (!cpu_engine(env)->mem) {
        return NULL;
    }
    if (!guest_mem_page_info(cpu_engine(env)->mem, addr, &host, &prot, &is_code, &mmio)) {
        if (!mmio) {
            return NULL;
        }
        e->addr_read = page | TLB_MMIO;
        e->addr_write = page | TLB_MMIO;
        e->addr_code = page | TLB_INVALID;
        e->addend = 0;
        return e;
    }
    win = guest_mem_direct_base(cpu_engine(env)->mem, NULL);
    far = win && host != win + page ? TLB_NOT_DIRECT : 0;
    e->addr_read = page | ((prot & GM_PROT_READ) ? far : TLB_INVALID);
    e->addr_write =
        page |
        ((prot & GM_PROT_WRITE)
             ? (is_code                                                                 ? TLB_CODE
                : !(prot & GM_PROT_READ) && guest_mem_host_faults(cpu_engine(env)->mem) ? TLB_BYTES
                                                                                        : far)
             : TLB_INVALID);
    if ((prot & GM_PROT_WRITE) && cpu_engine(env)->exec &&
        linx_exec_page_watched(cpu_engine(env)->exec, page)) {
        e->addr_write |= TLB_WATCH;
    }
    if ((prot & GM_PROT_WRITE) && !is_code &&
        !guest_mem_dirty_write_ok(cpu_engine(env)->mem, addr, is_write)) {
        /* Dirty tracking: no write entry for a page not recorded yet, so
         * the first store to it comes back here and records it. */
        e->addr_write = LINX_TLB_EMPTY;
    }
    e->addr_code = page | ((prot & GM_PROT_EXEC) ? 0 : TLB_INVALID);
    e->addend = (uintptr_t)host - (uintptr_t)page;
    return e;
}

/* The same, faulting when nothing is mapped at @addr. */
static LinxTLBEntry *tlb_fill(CPUArchState *env, uint64_t addr, bool is_write, uint64_t pc)
{
    LinxTLBEntry *e = tlb_fill_page(env, addr, is_write);

    if (!e) {
        raise_data_fault(env, GM_FAULT_UNMAPPED, addr, is_write, pc);
    }
    return e;
}

void *linx_tlb_range_host(CPUArchState *env, uint64_t addr, uint64_t len, bool is_write)
{
    uint64_t first = addr & GUEST_PAGE_MASK, last;
    uintptr_t addend = 0;

    if (len == 0 || addr + (len - 1) < addr) {
        return NULL;
    }
    last = (addr + (len - 1)) & GUEST_PAGE_MASK;
    if (((last - first) >> GUEST_PAGE_BITS) >= LINX_TLB_RANGE_PAGES) {
        return NULL;
    }
    for (uint64_t p = first;; p += GUEST_PAGE_SIZE) {
        LinxTLBEntry *e = linx_tlb_entry(env, p);
        uint64_t tag = is_write ? e->addr_write : e->addr_read;

        if ((tag & ~(uint64_t)TLB_NOT_DIRECT) != p) {
            e = tlb_fill_page(env, p, is_write);
            tag = e ? (is_write ? e->addr_write : e->addr_read) : LINX_TLB_EMPTY;
            if ((tag & ~(uint64_t)TLB_NOT_DIRECT) != p) {
                return NULL; /* unmapped, no permission, MMIO, code, watched, untracked */
            }
        }
        if (p != first && e->addend != addend) {
            return NULL; /* not one host run */
        }
        addend = e->addend;
        if (p == last) {
            break;
        }
    }
    return (void *)(uintptr_t)(addr + addend);
}

static LinxTLBEntry *tlb_get(CPUArchState *env, uint64_t addr, TLBAccess acc, uint64_t pc)
{
    LinxTLBEntry *e = linx_tlb_entry(env, addr);
    uint64_t tag = acc == TLB_ACCESS_READ ? e->addr_read : e->addr_write;

    if ((tag & GUEST_PAGE_MASK) != (addr & GUEST_PAGE_MASK) || tag == LINX_TLB_EMPTY) {
        e = tlb_fill(env, addr, acc == TLB_ACCESS_WRITE, pc);
    }
    return e;
}

/* An access that may cross a page: through the checked copy routines. */
static uint64_t ld_bytes(CPUArchState *env, uint64_t addr, unsigned size, uint64_t pc)
{
    uint64_t raw = 0, fa = addr;
    GuestFault f = cpu_engine(env)->mem
                       ? guest_mem_read(cpu_engine(env)->mem, addr, &raw, size, GM_PROT_READ, &fa)
                       : GM_FAULT_UNMAPPED;

    if (f != GM_OK) {
        raise_data_fault(env, f, fa, false, pc);
    }
    return raw;
}

static void st_bytes(CPUArchState *env, uint64_t addr, uint64_t value, unsigned size, uint64_t pc)
{
    uint64_t fa = addr;
    GuestFault f = cpu_engine(env)->mem
                       ? guest_mem_write(cpu_engine(env)->mem, addr, &value, size, &fa)
                       : GM_FAULT_UNMAPPED;

    if (f != GM_OK) {
        raise_data_fault(env, f, fa, true, pc);
    }
}

uint64_t linx_ld_slow(CPUArchState *env, uint64_t addr, uint64_t memop, uint64_t pc)
{
    unsigned size = 1u << (memop & IR_MO_SIZE);
    LinxTLBEntry *e;
    uint64_t raw = 0;

    if (addr & (size - 1)) {
        if (memop & IR_MO_ALIGN) {
            raise_data_fault(env, GM_FAULT_ALIGN, addr, false, pc);
        }
        if ((addr & ~GUEST_PAGE_MASK) + size > GUEST_PAGE_SIZE) {
            return linx_memop_extend(ld_bytes(env, addr, size, pc), (unsigned)memop);
        }
    }
    e = tlb_get(env, addr, TLB_ACCESS_READ, pc);
    if (e->addr_read & TLB_MMIO) {
        GuestFault f = guest_mem_mmio_access(cpu_engine(env)->mem, addr, size, false, &raw);
        if (f == GM_FAULT_ALIGN) {
            /* Misaligned device access: bytewise through the devices. */
            raw = ld_bytes(env, addr, size, pc);
        } else if (f != GM_OK) {
            raise_data_fault(env, f, addr, false, pc);
        }
    } else if (e->addr_read & TLB_INVALID) {
        raise_data_fault(env, GM_FAULT_PROT, addr, false, pc);
    } else {
        raw = linx_host_load((const void *)(uintptr_t)(addr + e->addend), size);
    }
    return linx_memop_extend(raw, (unsigned)memop);
}

void linx_st_slow(CPUArchState *env, uint64_t addr, uint64_t value, uint64_t memop, uint64_t pc)
{
    unsigned size = 1u << (memop & IR_MO_SIZE);
    LinxTLBEntry *e;

    /* A debugger watchpoint stops before the store (TLB_WATCH pages and
     * page-crossing stores come here). */
    linx_exec_watch_check(env, addr, size, pc);
    if (addr & (size - 1)) {
        if (memop & IR_MO_ALIGN) {
            raise_data_fault(env, GM_FAULT_ALIGN, addr, true, pc);
        }
        if ((addr & ~GUEST_PAGE_MASK) + size > GUEST_PAGE_SIZE) {
            st_bytes(env, addr, value, size, pc);
            return;
        }
    }
    e = tlb_get(env, addr, TLB_ACCESS_WRITE, pc);
    if (e->addr_write & TLB_MMIO) {
        GuestFault f = guest_mem_mmio_access(cpu_engine(env)->mem, addr, size, true, &value);
        if (f == GM_FAULT_ALIGN) {
            st_bytes(env, addr, value, size, pc);
        } else if (f != GM_OK) {
            raise_data_fault(env, f, addr, true, pc);
        }
    } else if (e->addr_write & TLB_INVALID) {
        raise_data_fault(env, GM_FAULT_PROT, addr, true, pc);
    } else if (e->addr_write & (TLB_CODE | TLB_BYTES)) {
        /* Translated code lives here: guest_mem_write runs the exec
         * layer's invalidation before the bytes land (or a write-only
         * page under host faults: it opens the page for the copy).  Then
         * the entry is refilled: the page lost its mark (or another CPU's
         * marking left this entry stale), so the next store may be fast
         * again. */
        st_bytes(env, addr, value, size, pc);
        tlb_fill(env, addr, true, pc);
    } else {
        linx_host_store((void *)(uintptr_t)(addr + e->addend), value, size);
    }
}

void *linx_atomic_host(CPUArchState *env, uint64_t addr, unsigned size, uint64_t pc)
{
    LinxTLBEntry *e;

    linx_exec_watch_check(env, addr, size, pc);
    if (addr & (size - 1)) {
        raise_data_fault(env, GM_FAULT_ALIGN, addr, true, pc);
    }
    e = tlb_get(env, addr, TLB_ACCESS_WRITE, pc);
    if (e->addr_write & TLB_MMIO) {
        return NULL;
    }
    if (e->addr_write & TLB_INVALID) {
        raise_data_fault(env, GM_FAULT_PROT, addr, true, pc);
    }
    if ((e->addr_read & GUEST_PAGE_MASK) != (addr & GUEST_PAGE_MASK) ||
        (e->addr_read & TLB_INVALID)) {
        /* Writable but not readable (or not cached for reading). */
        e = tlb_fill(env, addr, false, pc);
        if (e->addr_read & TLB_INVALID) {
            raise_data_fault(env, GM_FAULT_PROT, addr, false, pc);
        }
    }
    if (e->addr_write & TLB_CODE) {
        /* Drop the page's translations first: a write window over the
         * word runs the code-write event without storing anything (a
         * read-modify-write of its bytes could undo another thread's
         * atomic).  Then refill, so later stores are fast again. */
        uint8_t *host = NULL;
        uint64_t fa = addr;
        GuestFault f = guest_mem_window(cpu_engine(env)->mem, addr, 1, size, size,
                                        GM_PROT_READ | GM_PROT_WRITE, &host, &fa);
        if (f != GM_OK) {
            raise_data_fault(env, f, fa, true, pc);
        }
        e = tlb_fill(env, addr, true, pc);
    }
    return (void *)(uintptr_t)(addr + e->addend);
}
