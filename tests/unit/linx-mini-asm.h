/*
 * A tiny in-memory LinxISA "assembler" for unit tests of the front end:
 * instructions are built from a form id and field values through the
 * catalog tables (linx_field_insert), so a test does not depend on the
 * text assembler.  Labels are resolved when the program is finished.
 *
 *   MiniAsm a;
 *   masm_init(&a, 0x10000);
 *   masm(&a, LINX_F_C_BSTART_STD, LINX_FLD_BrType, LINX_BR_FALL, MASM_END);
 *   masm(&a, LINX_F_ADDI, LINX_FLD_RegDst, 2, LINX_FLD_SrcL, 0, LINX_FLD_uimm12, 5, MASM_END);
 *   masm_br(&a, LINX_F_C_BSTART_COND, LINX_FLD_simm12, 2, 7, MASM_END); // label 7, halfwords
 *   masm_label(&a, 7);
 *   masm_finish(&a);             // a.buf[0 .. a.len) at a.base
 *
 * Header-only, static functions: include it from one test file.
 */
#ifndef LINX_TESTS_MINI_ASM_H
#define LINX_TESTS_MINI_ASM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/linx/insn-table.h"

#define MASM_END (-1)
#define MASM_MAX_BYTES 65536
#define MASM_MAX_LABELS 256
#define MASM_MAX_FIXUPS 1024

typedef struct MiniAsmFixup {
    size_t off;      /* byte offset of the instruction */
    unsigned form;
    int field;       /* LinxFieldId receiving the label offset */
    int scale;       /* 2: halfwords, 1: bytes */
    unsigned label;
    uint64_t packed; /* instruction with the other fields */
} MiniAsmFixup;

typedef struct MiniAsm {
    uint64_t base;
    size_t len;
    uint8_t buf[MASM_MAX_BYTES];
    int64_t label[MASM_MAX_LABELS]; /* byte offset, -1 = undefined */
    unsigned nfix;
    MiniAsmFixup fix[MASM_MAX_FIXUPS];
    bool error;
} MiniAsm;

static inline void masm_init(MiniAsm *a, uint64_t base)
{
    memset(a, 0, sizeof(*a));
    a->base = base;
    for (unsigned i = 0; i < MASM_MAX_LABELS; i++) {
        a->label[i] = -1;
    }
}

static inline uint64_t masm_pc(const MiniAsm *a)
{
    return a->base + a->len;
}

static inline bool masm_set_field(unsigned form, int id, int64_t value, uint64_t *packed)
{
    const LinxFormField *f = linx_form_fields(form);

    for (unsigned i = 0; i < linx_form(form)->field_count; i++) {
        if (f[i].id == id) {
            return linx_field_insert(&f[i], value, packed);
        }
    }
    return false;
}

static inline void masm_put(MiniAsm *a, size_t off, unsigned form, uint64_t packed)
{
    unsigned n = linx_form(form)->length;

    for (unsigned i = 0; i < n; i++) {
        a->buf[off + i] = (uint8_t)(packed >> (8 * i));
    }
}

static inline uint64_t masm_vbuild(MiniAsm *a, unsigned form, va_list ap)
{
    uint64_t packed = linx_form(form)->match;
    int id;

    while ((id = va_arg(ap, int)) != MASM_END) {
        int64_t v = va_arg(ap, int64_t);
        if (!masm_set_field(form, id, v, &packed)) {
            fprintf(stderr, "masm: %s: field %s cannot hold %lld\n", linx_form(form)->mnemonic,
                    linx_field_names[id], (long long)v);
            a->error = true;
        }
    }
    return packed;
}

/* Append one instruction: masm(a, form, FIELD, (int64_t)value, ..., MASM_END).
 * Values are passed as int64_t (use the MV() cast). */
static inline uint64_t masm(MiniAsm *a, unsigned form, ...)
{
    uint64_t pc = masm_pc(a);
    va_list ap;
    uint64_t packed;

    va_start(ap, form);
    packed = masm_vbuild(a, form, ap);
    va_end(ap);
    if (a->len + linx_form(form)->length > MASM_MAX_BYTES) {
        a->error = true;
        return pc;
    }
    masm_put(a, a->len, form, packed);
    a->len += linx_form(form)->length;
    return pc;
}

/* Like masm() with @field = (label - pc) / @scale filled in later. */
static inline uint64_t masm_br(MiniAsm *a, unsigned form, int field, int scale, unsigned label, ...)
{
    uint64_t pc = masm_pc(a);
    va_list ap;
    MiniAsmFixup *fx;

    if (a->nfix >= MASM_MAX_FIXUPS || label >= MASM_MAX_LABELS) {
        a->error = true;
        return pc;
    }
    fx = &a->fix[a->nfix++];
    va_start(ap, label);
    fx->packed = masm_vbuild(a, form, ap);
    va_end(ap);
    fx->off = a->len;
    fx->form = form;
    fx->field = field;
    fx->scale = scale;
    fx->label = label;
    a->len += linx_form(form)->length;
    return pc;
}

static inline void masm_label(MiniAsm *a, unsigned label)
{
    a->label[label] = (int64_t)a->len;
}

/* Raw bytes (data, illegal encodings). */
static inline void masm_bytes(MiniAsm *a, const void *p, size_t n)
{
    memcpy(a->buf + a->len, p, n);
    a->len += n;
}

static inline bool masm_finish(MiniAsm *a)
{
    for (unsigned i = 0; i < a->nfix; i++) {
        MiniAsmFixup *fx = &a->fix[i];
        int64_t target = a->label[fx->label];
        uint64_t packed = fx->packed;
        if (target < 0 || !masm_set_field(fx->form, fx->field,
                                          (target - (int64_t)fx->off) / fx->scale, &packed)) {
            fprintf(stderr, "masm: label %u unresolved or out of range\n", fx->label);
            a->error = true;
            continue;
        }
        masm_put(a, fx->off, fx->form, packed);
    }
    return !a->error;
}

#define MV(x) ((int64_t)(x))

#endif /* LINX_TESTS_MINI_ASM_H */
