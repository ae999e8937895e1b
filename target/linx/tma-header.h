/*
 * TMA headers and operands: the LinxISA side of the TMA device model
 * (hw/linx/tma.h).  The device takes a TmaDesc, field by field; these
 * feed it from decoded instructions and fill its run-time arguments from
 * the guest registers.
 */
#ifndef LINX_TARGET_TMA_HEADER_H
#define LINX_TARGET_TMA_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "hw/linx/tma.h"

/* Start from a decoded BSTART.TMA / TLOAD / TSTORE / TMOV; false (and @d
 * untouched) if @insn is none of those. */
bool tma_desc_begin(TmaDesc *d, const LinxInsn *insn);
/* Take one header instruction: B.ARG (all forms), B.DATR, B.DIM,
 * C.B.DIM, C.B.DIMI, B.IOR, B.IOT, B.IOTI, B.IOD, B.TEXT (recorded, it is
 * illegal here), B.ATTR and B.HINT (ignored by TMA).  Returns false for
 * anything else: the header ended before @insn. */
bool tma_desc_add(TmaDesc *d, const LinxInsn *insn);

/* Fill @a from @gpr[0..23] (@gpr[0] must be 0).  Operands named by
 * ClockHands codes (24..31) are not handled: the front end resolves those
 * itself.  Returns false if the plan names such a code. */
bool tma_args_from_gprs(const TmaPlan *p, const uint64_t *gpr, TmaRuntimeArgs *a);

#endif /* LINX_TARGET_TMA_HEADER_H */
