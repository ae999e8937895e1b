/*
 * Tile engine status -> architectural trap.  The tile engines (hw/linx:
 * TMA, LoadData, CUBE, TEPL) refuse an operation in their own terms, a
 * TmaFault (rule, offending value: hw/linx/tma.h); this is the one place
 * that says what the guest sees then (docs/tile.md, "Illegal parameters"):
 *
 *   reserved TMA / CUBE Function, TEPL opcode
 *       ILLEGAL_INST, E_INST(EC_ILLEGAL), TRAPARG0 = rule | value << 32
 *   missing or bad TMA descriptors
 *       BLOCK, E_BLOCK(EC_BLOCKFMT), TRAPARG0 = family | detail << 8
 *       (linxisa-digest 4.1: family 0 generic, 1 B.DIM, 2 B.TEXT, 3 B.ARG,
 *       4 B.IOR, 5 B.IOT; detail 0 missing, 1 bad value, 2 combination)
 *   illegal values (seed 000, v0.4 section 9)
 *       ILLEGAL_INST, E_INST(EC_PARAM), TRAPARG0 = rule | value << 32
 *   guest-memory faults (TMA gm-fault, loaddata-gm-fault)
 *       DATA_PAGE_FAULT, TRAPARG0 = the faulting address
 */
#ifndef LINX_TARGET_TILE_TRAP_H
#define LINX_TARGET_TILE_TRAP_H

#include <stdint.h>

#include "hw/linx/tma.h"

typedef struct LinxTileTrap {
    unsigned trapnum;  /* LINX_TRAP_* (cpu.h) */
    unsigned cause;    /* LINX_CAUSE(ec, 0) */
    uint64_t traparg0;
} LinxTileTrap;

/* The trap for @f (whose rule is not TMA_OK). */
void linx_tile_fault_trap(const TmaFault *f, LinxTileTrap *t);

#endif /* LINX_TARGET_TILE_TRAP_H */
