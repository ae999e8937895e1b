/*
 * LinxISA instruction-form table: one entry per catalog form.
 *
 * The table is generated from the ISA catalog by scripts/gen-insn-tables.py
 * (insn-forms.h, insn-forms.c.inc).  Decoding, disassembly, assembly and
 * translation all key off a form index (LinxFormId).
 *
 * Bit numbering of a form's mask/match and its fields is over the *packed*
 * instruction: the stream bytes read little-endian, so a 48-bit HL form has
 * its 16-bit prefix at bits 15:0 and the 32-bit word at 47:16, and a 64-bit
 * form has its prefix word at 31:0 and the main word at 63:32.
 */
#ifndef LINX_INSN_TABLE_H
#define LINX_INSN_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "insn-forms.h"

typedef enum LinxUopKind {
    LINX_UOP_AGU,
    LINX_UOP_ALU,
    LINX_UOP_AMO,
    LINX_UOP_BBD,
    LINX_UOP_BRU,
    LINX_UOP_CMD,
    LINX_UOP_FSU,
    LINX_UOP_SYS,
    LINX_UOP_VEC,
} LinxUopKind;

/* Form flags. */
enum {
    /* Catalog pseudo-form made of two instructions (BSTART + C.SETRET). */
    LINX_FORMF_FUSED_PAIR = 1 << 0,
    /* Alternative spelling of another form with the identical encoding. */
    LINX_FORMF_ALIAS = 1 << 1,
    /* Not in the v0.4 catalog; added by docs/decisions.md (B.DATR). */
    LINX_FORMF_EXTENSION = 1 << 2,
};

typedef enum LinxConsOp {
    LINX_CONS_NE,
    LINX_CONS_GE,
    LINX_CONS_EQ,
    LINX_CONS_LT,
} LinxConsOp;

/* One contiguous run of instruction bits holding part of a field value. */
typedef struct LinxFieldPiece {
    uint8_t insn_lsb;  /* bit position in the packed instruction */
    uint8_t width;
    uint8_t value_lsb; /* where the run lands in the field value */
} LinxFieldPiece;

typedef struct LinxFormField {
    uint16_t id;        /* LinxFieldId */
    uint8_t is_signed;  /* sign-extend from bit (width - 1) */
    uint8_t width;      /* value width in bits (top piece's end) */
    uint16_t piece_start;
    uint8_t piece_count;
} LinxFormField;

typedef struct LinxConstraint {
    uint16_t field; /* LinxFieldId */
    uint8_t op;     /* LinxConsOp */
    int32_t value;
} LinxConstraint;

typedef struct LinxFormInfo {
    const char *mnemonic; /* catalog mnemonic, e.g. "HL.BSTART.STD" */
    const char *asm_text; /* catalog assembly template (documentation) */
    const char *group;    /* catalog group */
    uint8_t length;       /* bytes: 2, 4, 6 or 8 */
    uint8_t uop;          /* LinxUopKind */
    uint8_t flags;        /* LINX_FORMF_* */
    uint64_t mask;
    uint64_t match;
    uint16_t field_start;
    uint8_t field_count;
    uint16_t cons_start;
    uint8_t cons_count;
    uint16_t canonical; /* the form decoding yields for this encoding */
} LinxFormInfo;

typedef struct LinxDispatchSlot {
    uint16_t start;
    uint16_t count;
} LinxDispatchSlot;

typedef struct LinxDispatchClass {
    uint8_t nruns;
    const LinxDispatchSlot *slots;
    uint8_t length;
    struct {
        uint8_t lsb, width;
    } runs[6];
} LinxDispatchClass;

extern const LinxFormInfo linx_forms[LINX_F__COUNT];
extern const char *const linx_field_names[LINX_FLD__COUNT];

static inline const LinxFormInfo *linx_form(unsigned id)
{
    return &linx_forms[id];
}

const LinxFormField *linx_form_fields(unsigned form);
const LinxFieldPiece *linx_field_pieces(const LinxFormField *f);
const LinxConstraint *linx_form_constraints(unsigned form);

/* Index of @field in @form's field list, or -1 when the form has none. */
int linx_form_field_slot(unsigned form, LinxFieldId field);

/* Extract one field from a packed instruction (sign-extended if signed). */
int64_t linx_field_extract(const LinxFormField *f, uint64_t packed);

/* Insert a field value into a packed instruction; false if it does not fit
 * the field (range checked against width and signedness). */
bool linx_field_insert(const LinxFormField *f, int64_t value, uint64_t *packed);

/* Do a packed instruction's fields satisfy @form's constraints? */
bool linx_form_constraints_ok(unsigned form, uint64_t packed);

/* Look a form up by its catalog mnemonic (case-insensitive); returns the
 * first form with that mnemonic or -1. */
int linx_form_by_mnemonic(const char *mnemonic);

/* Dispatch tables (decode.c). */
const LinxDispatchClass *linx_dispatch_class(unsigned len_class);
const uint16_t *linx_dispatch_entries(void);

#endif /* LINX_INSN_TABLE_H */
