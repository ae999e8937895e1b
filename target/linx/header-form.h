/*
 * Which block a header marker starts: the block type and its Function
 * (TMA, CUBE, FIXP), TileOpcode (TEPL) or Mode (MPAR/MSEQ/VPAR/VSEQ;
 * the compressed C.BSTART forms are VS16), with the aliases BSTART.TLOAD
 * (0), TSTORE (1), TMOV (2), TMATMUL (0), TMATMUL.ACC (2) and ACCCVT (8)
 * (docs/frontend.md "Tile and kernel headers").  One table for the
 * translator, the kernel-header decoder, the commit trace and the TMA
 * descriptor (hw/linx/tma-desc.c).
 */
#ifndef LINX_TARGET_HEADER_FORM_H
#define LINX_TARGET_HEADER_FORM_H

#include <stdbool.h>

#include "cpu.h"
#include "decode.h"

/* Mode of MPAR/MSEQ/VPAR/VSEQ headers: the vector size. */
enum { LINX_HDR_MODE_VS8 = 0, LINX_HDR_MODE_VS16 = 1 };

/* True with *@type and *@func for a header marker form, else false. */
bool linx_header_form(const LinxInsn *insn, LinxBlockType *type, unsigned *func);

#endif /* LINX_TARGET_HEADER_FORM_H */
