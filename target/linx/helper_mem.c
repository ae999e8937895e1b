/*
 * Memory helpers: atomics (LR/SC, fetch-and-op, CAS) and the MCOPY/MSET
 * template blocks.
 *
 * Atomics go through linx_ld/linx_st (tcg/softmmu.h) with IR_MO_ALIGN, so
 * faults are the precise DATA_* traps of plain loads and stores; the load
 * comes first, so a store fault leaves nothing changed.  Only one CPU runs
 * at a time, so the read-modify-write in one helper call is atomic.
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

uint64_t helper_lr(CPULinxState *env, uint64_t addr, uint64_t lg, uint64_t pc)
{
    uint64_t v = linx_ld(env, addr, (unsigned)lg | IR_MO_SIGN | IR_MO_ALIGN, pc);

    env->resv_addr = addr;
    env->resv_size = lg;
    env->resv_valid = 1;
    return v;
}

/* SC: store when the reservation of the last LR matches; 0 = stored,
 * 1 = failed.  Either way the reservation is gone. */
uint64_t helper_sc(CPULinxState *env, uint64_t addr, uint64_t val, uint64_t lg, uint64_t pc)
{
    bool ok = env->resv_valid && env->resv_addr == addr && env->resv_size == lg;

    if (addr & ((UINT64_C(1) << lg) - 1)) {
        /* Misaligned SC faults like a store, reservation or not. */
        linx_st(env, addr, val, (unsigned)lg | IR_MO_ALIGN, pc);
    }
    env->resv_valid = 0;
    if (!ok) {
        return 1;
    }
    linx_st(env, addr, val, (unsigned)lg | IR_MO_ALIGN, pc);
    return 0;
}

/* @desc = op | lg << 8; returns the old value sign-extended. */
uint64_t helper_amo(CPULinxState *env, uint64_t addr, uint64_t val, uint64_t desc, uint64_t pc)
{
    unsigned op = desc & 0xff;
    unsigned lg = (desc >> 8) & 3;
    uint64_t old = linx_ld(env, addr, lg | IR_MO_ALIGN, pc);
    int64_t so = (int64_t)sext_size(old, lg);
    int64_t sv = (int64_t)sext_size(val, lg);
    uint64_t uo = old & size_mask(lg);
    uint64_t uv = val & size_mask(lg);
    uint64_t nv;

    switch (op) {
    case LINX_AMO_ADD:
        nv = old + val;
        break;
    case LINX_AMO_AND:
        nv = old & val;
        break;
    case LINX_AMO_OR:
        nv = old | val;
        break;
    case LINX_AMO_XOR:
        nv = old ^ val;
        break;
    case LINX_AMO_SMAX:
        nv = so >= sv ? old : val;
        break;
    case LINX_AMO_SMIN:
        nv = so <= sv ? old : val;
        break;
    case LINX_AMO_UMAX:
        nv = uo >= uv ? old : val;
        break;
    case LINX_AMO_UMIN:
        nv = uo <= uv ? old : val;
        break;
    default:
        nv = val;
        break;
    }
    linx_st(env, addr, nv, lg | IR_MO_ALIGN, pc);
    /* A store by an atomic clears an overlapping reservation. */
    if (env->resv_valid && env->resv_addr == addr) {
        env->resv_valid = 0;
    }
    return (uint64_t)so;
}

uint64_t helper_cas(CPULinxState *env, uint64_t addr, uint64_t expected, uint64_t nv,
                    uint64_t lg, uint64_t pc)
{
    uint64_t old = linx_ld(env, addr, (unsigned)lg | IR_MO_ALIGN, pc);

    if ((old & size_mask((unsigned)lg)) == (expected & size_mask((unsigned)lg))) {
        linx_st(env, addr, nv, (unsigned)lg | IR_MO_ALIGN, pc);
    }
    return sext_size(old, (unsigned)lg);
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
    f = guest_mem_window(env->mem, addr, 1, size, size, access, &host, &fault);
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
        GuestFault f = guest_mem_read(env->mem, src + off, buf, n, GM_PROT_READ, &fault);
        if (f == GM_OK) {
            f = guest_mem_write(env->mem, dst + off, buf, n, &fault);
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
        GuestFault f = guest_mem_write(env->mem, dst + done, buf, n, &fault);
        if (f != GM_OK) {
            bulk_fault(env, f, fault, pc);
        }
        done += n;
    }
}
