/*
 * LinxISA instruction-form table accessors.
 *
 * The data itself is generated (insn-forms.c.inc); this file adds the few
 * operations every user needs: field extraction and insertion over the
 * packed instruction, constraint checks and lookups.
 */
#include "insn-table.h"

#include <stddef.h>
#include <strings.h>

#include "insn-forms.c.inc"

const LinxFormField *linx_form_fields(unsigned form)
{
    return &linx_form_fields_tab[linx_forms[form].field_start];
}

const LinxFieldPiece *linx_field_pieces(const LinxFormField *f)
{
    return &linx_field_pieces_tab[f->piece_start];
}

const LinxConstraint *linx_form_constraints(unsigned form)
{
    return &linx_constraints[linx_forms[form].cons_start];
}

int linx_form_field_slot(unsigned form, LinxFieldId field)
{
    const LinxFormInfo *fi = &linx_forms[form];
    const LinxFormField *f = linx_form_fields(form);

    for (int i = 0; i < fi->field_count; i++) {
        if (f[i].id == field) {
            return i;
        }
    }
    return -1;
}

int64_t linx_field_extract(const LinxFormField *f, uint64_t packed)
{
    const LinxFieldPiece *p = linx_field_pieces(f);
    uint64_t v = 0;

    for (int i = 0; i < f->piece_count; i++) {
        uint64_t bits = (packed >> p[i].insn_lsb) & ((UINT64_C(1) << p[i].width) - 1);
        v |= bits << p[i].value_lsb;
    }
    if (f->is_signed && f->width < 64) {
        uint64_t sign = UINT64_C(1) << (f->width - 1);
        v = (v ^ sign) - sign;
    }
    return (int64_t)v;
}

bool linx_field_insert(const LinxFormField *f, int64_t value, uint64_t *packed)
{
    const LinxFieldPiece *p = linx_field_pieces(f);
    uint64_t v = (uint64_t)value;
    uint64_t covered = 0;

    if (f->width < 64) {
        if (f->is_signed) {
            int64_t lo = -((int64_t)1 << (f->width - 1));
            int64_t hi = ((int64_t)1 << (f->width - 1)) - 1;
            if (value < lo || value > hi) {
                return false;
            }
            v &= (UINT64_C(1) << f->width) - 1;
        } else if (value < 0 || (uint64_t)value >> f->width) {
            return false;
        }
    }
    for (int i = 0; i < f->piece_count; i++) {
        uint64_t m = ((UINT64_C(1) << p[i].width) - 1);
        covered |= m << p[i].value_lsb;
        *packed &= ~(m << p[i].insn_lsb);
        *packed |= ((v >> p[i].value_lsb) & m) << p[i].insn_lsb;
    }
    /* Value bits below the lowest piece (e.g. HL.BSTART's simm[29:1]) must
     * be zero: the encoding cannot hold them. */
    return (v & ~covered & ((f->width < 64) ? ((UINT64_C(1) << f->width) - 1) : ~UINT64_C(0))) == 0;
}

bool linx_form_constraints_ok(unsigned form, uint64_t packed)
{
    const LinxFormInfo *fi = &linx_forms[form];
    const LinxConstraint *c = linx_form_constraints(form);

    for (int i = 0; i < fi->cons_count; i++) {
        int slot = linx_form_field_slot(form, c[i].field);
        int64_t v = linx_field_extract(&linx_form_fields(form)[slot], packed);
        bool ok;

        switch (c[i].op) {
        case LINX_CONS_NE:
            ok = v != c[i].value;
            break;
        case LINX_CONS_GE:
            ok = v >= c[i].value;
            break;
        case LINX_CONS_EQ:
            ok = v == c[i].value;
            break;
        default:
            ok = v < c[i].value;
            break;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

int linx_form_by_mnemonic(const char *mnemonic)
{
    for (int i = 0; i < LINX_F__COUNT; i++) {
        if (strcasecmp(linx_forms[i].mnemonic, mnemonic) == 0) {
            return i;
        }
    }
    return -1;
}

const LinxDispatchClass *linx_dispatch_class(unsigned len_class)
{
    return &linx_dispatch[len_class];
}

const uint16_t *linx_dispatch_entries(void)
{
    return linx_dispatch_entries_tab;
}
