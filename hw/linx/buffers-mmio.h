/*
 * The buffers (buffers.h) in a guest address space: the five buffer
 * windows and the register pages of LoadData 2D, DataCopy, Mmad and
 * Fixpipe, at the offsets buffers.h lists from @base.
 *
 *   LinxBuffers *b = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
 *   linx_buffers_map(b, machine->mem, LINX_BUFFERS_DEFAULT_BASE);
 *
 * A store to an engine's GO register runs the engine; when a rule refuses
 * the operation the store faults and b->status names the rule
 * (linx_buffers_fault_report).
 */
#ifndef LINX_HW_BUFFERS_MMIO_H
#define LINX_HW_BUFFERS_MMIO_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/guest-memory.h"
#include "hw/linx/buffers.h"

/* Map the five windows and the engine pages at @base
 * (LINX_BUFFERS_DEFAULT_BASE for virt) as MMIO regions of @gm; false if
 * any overlaps an existing mapping (nothing is left mapped then).  @b must
 * outlive the mappings. */
bool linx_buffers_map(LinxBuffers *b, GuestMemory *gm, uint64_t base);

#endif /* LINX_HW_BUFFERS_MMIO_H */
