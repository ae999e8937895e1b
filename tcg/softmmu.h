/*
 * Guest memory access from translated code: the per-CPU TLB and the slow
 * paths behind it (modelled on QEMU's softmmu).
 *
 * TLB entry tags (LinxTLBEntry.addr_read / addr_write / addr_code) hold the
 * guest page address with the low GUEST_PAGE_BITS clear when the page may
 * be accessed directly; any TLB_* flag bit set there forces the slow path.
 * The JIT's inline fast path for an access of 2^s bytes at @addr is:
 *
 *     e = &env->tlb[(addr >> GUEST_PAGE_BITS) & (LINX_TLB_SIZE - 1)];
 *     if ((addr & (GUEST_PAGE_MASK | ((1 << s) - 1))) == e->addr_read)
 *         value = *(type *)(addr + e->addend);      // hit, aligned
 *     else
 *         value = linx_ld_slow(env, addr, memop, pc); // miss, MMIO, fault
 *
 * (IR_MO_ALIGN is always set by the LinxISA front end for scalar accesses,
 * so the size mask folds the alignment check into the tag compare; the
 * slow path raises DATA_ALIGN_FAULT.)  Stores use addr_write; a page with
 * translated code has TLB_CODE in addr_write, so stores to it take the slow
 * path, which invalidates the translations first.
 */
#ifndef LINX_TCG_SOFTMMU_H
#define LINX_TCG_SOFTMMU_H

#include <stdint.h>

#include "target/linx/cpu.h"

enum {
    TLB_INVALID = 1 << 3, /* no translation cached */
    TLB_MMIO = 1 << 4,    /* device region: always slow path */
    TLB_CODE = 1 << 5,    /* page holds translated code (addr_write only) */
};

/* Slow paths: fill the TLB or perform MMIO; raise the architectural
 * exception (via cpu_loop_exit) on a fault, with @pc as the faulting
 * instruction.  @memop is an IRMemOp.  Loads return the value extended as
 * memop says. */
uint64_t linx_ld_slow(CPULinxState *env, uint64_t addr, uint64_t memop, uint64_t pc);
void linx_st_slow(CPULinxState *env, uint64_t addr, uint64_t value, uint64_t memop, uint64_t pc);

/* Full access path for C helpers and the interpreter (fast TLB hit, else
 * the slow path). */
uint64_t linx_ld(CPULinxState *env, uint64_t addr, unsigned memop, uint64_t pc);
void linx_st(CPULinxState *env, uint64_t addr, uint64_t value, unsigned memop, uint64_t pc);

/* Invalidate every TLB entry of @env (after map/unmap/protect changes). */
void linx_tlb_flush(CPULinxState *env);

#endif /* LINX_TCG_SOFTMMU_H */
