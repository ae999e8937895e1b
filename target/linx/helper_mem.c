/*
 * Memory helpers: atomics (LR/SC, fetch-and-op, CAS), FENCE.D and the
 * MCOPY/MSET template blocks.
 *
 * Atomics are host atomics on the guest word (linx_atomic_host: the TLB's
 * host pointer after the alignment, permission and self-modifying-code
 * checks), so they are atomic against every other guest thread, and
 * sequentially consistent (x86-64 locked instructions), which meets the
 * aq/rl/far qualifiers of v0.4's TSO memory model (docs/decisions.md D10).
 * Faults are the precise DATA_* traps of plain stores; nothing is changed
 * on a fault.  A device word (MMIO, virt machine) is done as a load and a
 * store: devices have no other CPU.
 *
 * LR/SC: LR loads and records the reservation (address, size and the
 * value read); SC stores with a compare-and-swap against that value, so
 * it fails when any thread changed the word in between - the way QEMU
 * implements LR/SC.  A write of the same value by another thread between
 * them goes unnoticed (the ABA case); every LR/SC loop the libraries use
 * (musl's a_cas) is correct under that rule.
 *
 * MCOPY/MSET check both footprints before the first byte is written
 * (guest_mem_window), so a fault changes neither memory nor registers and
 * the block simply restarts; the copy has memmove semantics.  Footprints
 * in contiguous host RAM are copied or filled in one host memmove/memset;
 * others (several regions, MMIO) go through guest_mem_read/write in
 * chunks.
 */
#include <string.h>

#include "hw/core/guest-memory.h"
#include "tcg/exec.h"
#include "tcg/softmmu.h"

#include "helper-ops.h"
#include "helper-proto.h"

static uint64_t sext_size(uint64_t v, unsigned lg)
{
    unsigned bits = 8u << lg;

    if (bits >= 64) {
        return v;
    }
    return (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

static uint64_t size_mask(unsigned lg)
{
    return lg >= 3 ? UINT64_MAX : (UINT64_C(1) << (8u << lg)) - 1;
}

/* Host compare-and-swap of a 2^lg-byte word: the value found. */
static uint64_t host_cas(void *h, unsigned lg, uint64_t expected, uint64_t nv)
{
    switch (lg) {
    case 0: {
        uint8_t e = (uint8_t)expected;
        __atomic_compare_exchange_n((uint8_t *)h, &e, (uint8_t)nv, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return e;
    }
    case 1: {
        uint16_t e = (uint16_t)expected;
        __atomic_compare_exchange_n((uint16_t *)h, &e, (uint16_t)nv, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return e;
    }
    case 2: {
        uint32_t e = (uint32_t)expected;
        __atomic_compare_exchange_n((uint32_t *)h, &e, (uint32_t)nv, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return e;
    }
    default: {
        uint64_t e = expected;
        __atomic_compare_exchange_n((uint64_t *)h, &e, nv, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return e;
    }
    }
}

#define HOST_RMW(fn, h, lg, v)                                                                \
    ((lg) == 0   ? (uint64_t)fn((uint8_t *)(h), (uint8_t)(v), __ATOMIC_SEQ_CST)               \
     : (lg) == 1 ? (uint64_t)fn((uint16_t *)(h), (uint16_t)(v), __ATOMIC_SEQ_CST)             \
     : (lg) == 2 ? (uint64_t)fn((uint32_t *)(h), (uint32_t)(v), __ATOMIC_SEQ_CST)             \
                 : (uint64_t)fn((uint64_t *)(h), (uint64_t)(v), __ATOMIC_SEQ_CST))

/* The new value of a fetch-and-op. */
static uint64_t amo_apply(unsigned op, unsigned lg, uint64_t old, uint64_t val)
{
    int64_t so = (int64_t)sext_size(old, lg);
    int64_t sv = (int64_t)sext_size(val, lg);
    uint64_t uo = old & size_mask(lg);
    uint64_t uv = val & size_mask(lg);

    switch (op) {
    case LINX_AMO_ADD:
        return old + val;
    case LINX_AMO_AND:
        return old & val;
    case LINX_AMO_OR:
        return old | val;
    case LINX_AMO_XOR:
        return old ^ val;
    case LINX_AMO_SMAX:
        return so >= sv ? old : val;
    case LINX_AMO_SMIN:
        return so <= sv ? old : val;
    case LINX_AMO_UMAX:
        return uo >= uv ? old : val;
    case LINX_AMO_UMIN:
        return uo <= uv ? old : val;
    default:
        return val;
    }
}

uint64_t helper_lr(CPULinxState *env, uint64_t addr, uint64_t lg, uint64_t pc)
{
    uint64_t v = linx_ld(env, addr, (unsigned)lg | IR_MO_SIGN | IR_MO_ALIGN, pc);

    env->resv_addr = addr;
    env->resv_size = lg;
    env->resv_val = v & size_mask((unsigned)lg);
    env->resv_valid = 1;
    return v;
}

/* SC: store when the reservation of the last LR matches and the word
 * still holds the value LR read; 0 = stored, 1 = failed.  Either way the
 * reservation is gone. */
uint64_t helper_sc(CPULinxState *env, uint64_t addr, uint64_t val, uint64_t lg, uint64_t pc)
{
    bool ok = env->resv_valid && env->resv_addr == addr && env->resv_size == lg;
    uint64_t expected = env->resv_val;
    void *h;

    if (addr & ((UINT64_C(1) << lg) - 1)) {
        /* Misaligned SC faults like a store, reservation or not. */
        linx_st(env, addr, val, (unsigned)lg | IR_MO_ALIGN, pc);
    }
    env->resv_valid = 0;
    if (!ok) {
        return 1;
    }
    h = linx_atomic_host(env, addr, 1u << lg, pc);
    if (!h) {
        linx_st(env, addr, val, (unsigned)lg | IR_MO_ALIGN, pc);
        return 0;
    }
    return host_cas(h, (unsigned)lg, expected, val) == expected ? 0 : 1;
}

/* @desc = op | lg << 8; returns the old value sign-extended. */
uint64_t helper_amo(CPULinxState *env, uint64_t addr, uint64_t val, uint64_t desc, uint64_t pc)
{
    unsigned op = desc & 0xff;
    unsigned lg = (desc >> 8) & 3;
    void *h = linx_atomic_host(env, addr, 1u << lg, pc);
    uint64_t old;

    if (!h) {
        old = linx_ld(env, addr, lg | IR_MO_ALIGN, pc);
        linx_st(env, addr, amo_apply(op, lg, old, val), lg | IR_MO_ALIGN, pc);
    } else {
        switch (op) {
        case LINX_AMO_ADD:
            old = HOST_RMW(__atomic_fetch_add, h, lg, val);
            break;
        case LINX_AMO_AND:
            old = HOST_RMW(__atomic_fetch_and, h, lg, val);
            break;
        case LINX_AMO_OR:
            old = HOST_RMW(__atomic_fetch_or, h, lg, val);
            break;
        case LINX_AMO_XOR:
            old = HOST_RMW(__atomic_fetch_xor, h, lg, val);
            break;
        case LINX_AMO_SWAP:
            old = HOST_RMW(__atomic_exchange_n, h, lg, val);
            break;
        default: {
            /* min/max: a compare-and-swap loop. */
            uint64_t seen = linx_host_load(h, 1u << lg);
            do {
                old = seen;
                seen = host_cas(h, lg, old, amo_apply(op, lg, old, val));
            } while (seen != old);
            break;
        }
        }
    }
    /* A store by an atomic clears an overlapping reservation. */
    if (env->resv_valid && env->resv_addr == addr) {
        env->resv_valid = 0;
    }
    return sext_size(old, lg);
}

uint64_t helper_cas(CPULinxState *env, uint64_t addr, uint64_t expected, uint64_t nv,
                    uint64_t lg, uint64_t pc)
{
    uint64_t mask = size_mask((unsigned)lg);
    void *h = linx_atomic_host(env, addr, 1u << lg, pc);
    uint64_t old;

    if (!h) {
        old = linx_ld(env, addr, (unsigned)lg | IR_MO_ALIGN, pc);
        if ((old & mask) == (expected & mask)) {
            linx_st(env, addr, nv, (unsigned)lg | IR_MO_ALIGN, pc);
        }
    } else {
        old = host_cas(h, (unsigned)lg, expected & mask, nv & mask);
    }
    return sext_size(old, (unsigned)lg);
}

/* FENCE.D: every earlier access before every later one, store->load
 * included (the only order TSO does not give by itself). */
void helper_fence_d(CPULinxState *env)
{
    (void)env;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* ---- MCOPY / MSET ---- */

enum {
    LINX_BULK_CHUNK = 4096,
};

/* Raise the data fault for a failed footprint check. */
static _Noreturn void bulk_fault(CPULinxState *env, GuestFault f, uint64_t addr, uint64_t pc)
{
    /* The instructions of the TB before this one retired (softmmu.h). */
    env->insn_count += pc >> LINX_PC_RETIRED_SHIFT;
    pc &= LINX_PC_MASK;
    linx_raise_exception(env, f == GM_FAULT_ALIGN ? LINX_TRAP_DATA_ALIGN_FAULT
                                                   : LINX_TRAP_DATA_PAGE_FAULT,
                         0, addr, pc);
}

/* Check [addr, addr + size) for @access; returns its host address when
 * the range is contiguous host RAM (code pages under a write footprint
 * have already dropped their translations), else NULL. */
static uint8_t *bulk_check(CPULinxState *env, uint64_t addr, uint64_t size, int access,
                           uint64_t pc)
{
    uint8_t *host = NULL;
    uint64_t fault = addr;
    GuestFault f;

    if (size == 0) {
        return NULL;
    }
    if (addr + size < addr) {
        bulk_fault(env, GM_FAULT_UNMAPPED, addr, pc);
    }
    if (access == GM_PROT_WRITE) {
        /* A debugger watchpoint stops before the first byte (tcg/exec.h). */
        linx_exec_watch_check(env, addr, size, pc);
    }
    /* Plain RAM the TLB already vouches for (the common small copy). */
    host = linx_tlb_range_host(env, addr, size, access == GM_PROT_WRITE);
    if (host) {
        return host;
    }
    f = guest_mem_window(env->engine.mem, addr, 1, size, size, access, &host, &fault);
    if (f != GM_OK) {
        bulk_fault(env, f, fault, pc);
    }
    return host;
}

void helper_mcopy(CPULinxState *env, uint64_t dst, uint64_t src, uint64_t size, uint64_t pc)
{
    uint8_t buf[LINX_BULK_CHUNK];
    bool backward = dst > src && dst - src < size;
    uint64_t fault;
    uint8_t *hs = bulk_check(env, src, size, GM_PROT_READ, pc);
    uint8_t *hd = bulk_check(env, dst, size, GM_PROT_WRITE, pc);

    if (hs && hd) {
        memmove(hd, hs, size);
        return;
    }
    for (uint64_t done = 0; done < size;) {
        uint64_t n = size - done < LINX_BULK_CHUNK ? size - done : LINX_BULK_CHUNK;
        uint64_t off = backward ? size - done - n : done;
        GuestFault f = guest_mem_read(env->engine.mem, src + off, buf, n, GM_PROT_READ, &fault);
        if (f == GM_OK) {
            f = guest_mem_write(env->engine.mem, dst + off, buf, n, &fault);
        }
        if (f != GM_OK) {
            bulk_fault(env, f, fault, pc);
        }
        done += n;
    }
}

/* MSET [dst, value, size]: fill with the low byte of @value. */
void helper_mset(CPULinxState *env, uint64_t dst, uint64_t value, uint64_t size, uint64_t pc)
{
    uint8_t buf[LINX_BULK_CHUNK];
    uint64_t fault;
    uint8_t *hd = bulk_check(env, dst, size, GM_PROT_WRITE, pc);

    if (hd) {
        memset(hd, (int)(value & 0xff), size);
        return;
    }
    memset(buf, (int)(value & 0xff), sizeof(buf));
    for (uint64_t done = 0; done < size;) {
        uint64_t n = size - done < LINX_BULK_CHUNK ? size - done : LINX_BULK_CHUNK;
        GuestFault f = guest_mem_write(env->engine.mem, dst + done, buf, n, &fault);
        if (f != GM_OK) {
            bulk_fault(env, f, fault, pc);
        }
        done += n;
    }
}
