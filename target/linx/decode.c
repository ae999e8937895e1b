/*
 * LinxISA instruction decoder (see decode.h for the algorithm).
 */
#include "decode.h"

#include <string.h>

static inline uint64_t load_le(const uint8_t *buf, unsigned len)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < len; i++) {
        v |= (uint64_t)buf[i] << (8 * i);
    }
    return v;
}

static inline unsigned len_class(unsigned len)
{
    return len / 2 - 1; /* 2,4,6,8 -> 0,1,2,3 */
}

void linx_insn_fill(LinxInsn *out, unsigned form, uint64_t packed)
{
    const LinxFormInfo *fi = linx_form(form);
    const LinxFormField *f = linx_form_fields(form);

    out->raw = packed;
    out->form = (uint16_t)form;
    out->len = fi->length;
    for (int i = 0; i < fi->field_count; i++) {
        out->f[i] = linx_field_extract(&f[i], packed);
    }
}

LinxDecodeStatus linx_decode_packed(uint64_t packed, unsigned len, LinxInsn *out)
{
    const LinxDispatchClass *dc = linx_dispatch_class(len_class(len));
    const uint16_t *entries = linx_dispatch_entries();
    unsigned key = 0, shift = 0;

    for (unsigned r = 0; r < dc->nruns; r++) {
        key |= (unsigned)((packed >> dc->runs[r].lsb) & ((1u << dc->runs[r].width) - 1)) << shift;
        shift += dc->runs[r].width;
    }
    const LinxDispatchSlot *slot = &dc->slots[key];
    for (unsigned i = 0; i < slot->count; i++) {
        unsigned form = entries[slot->start + i];
        const LinxFormInfo *fi = linx_form(form);
        if ((packed & fi->mask) == fi->match &&
            (fi->cons_count == 0 || linx_form_constraints_ok(form, packed))) {
            linx_insn_fill(out, form, packed);
            return LINX_DECODE_OK;
        }
    }
    memset(out, 0, sizeof(*out));
    out->raw = packed;
    out->len = (uint8_t)len;
    out->form = LINX_F__COUNT;
    return LINX_DECODE_ILLEGAL;
}

LinxDecodeStatus linx_decode(const uint8_t *buf, size_t avail, LinxInsn *out)
{
    if (avail < 2) {
        memset(out, 0, sizeof(*out));
        out->len = 2;
        out->form = LINX_F__COUNT;
        return LINX_DECODE_TRUNCATED;
    }
    unsigned len = linx_insn_length((uint16_t)(buf[0] | buf[1] << 8));
    if (avail < len) {
        memset(out, 0, sizeof(*out));
        out->len = (uint8_t)len;
        out->form = LINX_F__COUNT;
        return LINX_DECODE_TRUNCATED;
    }
    return linx_decode_packed(load_le(buf, len), len, out);
}

int64_t linx_insn_field(const LinxInsn *insn, LinxFieldId field, bool *present)
{
    int slot = insn->form < LINX_F__COUNT ? linx_form_field_slot(insn->form, field) : -1;

    if (present) {
        *present = slot >= 0;
    }
    return slot >= 0 ? insn->f[slot] : 0;
}

bool linx_decode_fused_call(const uint8_t *buf, size_t avail, LinxInsn *out)
{
    static const uint16_t fused[] = { LINX_F_BSTART_CALL, LINX_F_HL_BSTART_CALL };

    for (unsigned i = 0; i < sizeof(fused) / sizeof(fused[0]); i++) {
        const LinxFormInfo *fi = linx_form(fused[i]);
        if (avail < fi->length) {
            continue;
        }
        uint64_t packed = load_le(buf, fi->length);
        if ((packed & fi->mask) == fi->match) {
            linx_insn_fill(out, fused[i], packed);
            return true;
        }
    }
    return false;
}
