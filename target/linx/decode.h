/*
 * LinxISA instruction decoder.
 *
 * Table-driven: the first halfword gives the length (2, 4, 6 or 8 bytes),
 * a few key bits of the packed instruction select a short candidate list
 * (generated, most specific form first), and the first candidate whose
 * mask/match and constraints hold is the form.  Overlaps the catalog leaves
 * are resolved by "most mask bits wins" plus the catalog constraints; the
 * BSTART.TEPL / BSTART.{MPAR,MSEQ,VPAR,VSEQ} VS16 collision resolves to the
 * MPAR/MSEQ/VPAR/VSEQ form (docs/decisions.md, D3).
 */
#ifndef LINX_DECODE_H
#define LINX_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "insn-table.h"

typedef struct LinxInsn {
    uint64_t raw;                 /* packed stream bytes, little-endian */
    uint16_t form;                /* LinxFormId */
    uint8_t len;                  /* bytes */
    int64_t f[LINX_MAX_FIELDS];   /* field values in the form's field order */
} LinxInsn;

typedef enum LinxDecodeStatus {
    LINX_DECODE_OK = 0,
    LINX_DECODE_TRUNCATED, /* fewer bytes available than the length needs */
    LINX_DECODE_ILLEGAL,   /* no form matches; len still holds the length */
} LinxDecodeStatus;

/* Instruction length in bytes from the first halfword. */
static inline unsigned linx_insn_length(uint16_t hw)
{
    if (hw & 1) {
        return (hw & 0xf) == 0xf ? 8 : 4;
    }
    return (hw & 0xf) == 0xe ? 6 : 2;
}

/* Decode one instruction from @buf (at most @avail bytes readable).
 * On LINX_DECODE_ILLEGAL and LINX_DECODE_OK, @out->len is the length;
 * on LINX_DECODE_TRUNCATED it is the length that would be needed. */
LinxDecodeStatus linx_decode(const uint8_t *buf, size_t avail, LinxInsn *out);

/* Decode an already packed instruction of length @len bytes. */
LinxDecodeStatus linx_decode_packed(uint64_t packed, unsigned len, LinxInsn *out);

/* Fill @out's field values for a known form (used by the decoder and by
 * tools that synthesise instructions). */
void linx_insn_fill(LinxInsn *out, unsigned form, uint64_t packed);

/* Value of @field in a decoded instruction; @present (may be NULL) tells
 * whether the form has that field at all (the value is 0 when not). */
int64_t linx_insn_field(const LinxInsn *insn, LinxFieldId field, bool *present);

/* The two catalog pseudo-forms "BSTART CALL" (C.BSTART DIRECT + C.SETRET)
 * and "HL.BSTART CALL" (BSTART simm25 + C.SETRET): if @buf starts with such
 * a pair, decode it as the fused form and return true. */
bool linx_decode_fused_call(const uint8_t *buf, size_t avail, LinxInsn *out);

#endif /* LINX_DECODE_H */
