/*
 * linx-as directives that emit bytes or move the location counter: data
 * (.byte .. .quad, strings, fills), .insn, alignment, .org and the common
 * symbols (.comm, .lcomm).  The table that dispatches to them is in
 * directives.c; see directives.h for the shared helpers.
 */
#include <stdio.h>
#include <string.h>

#include "directives.h"
#include "target/linx/decode.h"
#include "util/elf-file.h"

/* ---- data -------------------------------------------------------------------- */

void dir_data(LinxAs *as, AsStmt *st, int size)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];

    if (!*p) {
        as_error(as, st, as_col(as, st, p), "bad directive: '%.*s' needs at least one value",
                 dir_name_len(st), dir_name(st));
        return;
    }
    if (!dir_no_data_in_nobits(as, st)) {
        return;
    }
    for (;;) {
        const char *start = as_skip_ws(p);
        AsValue v;

        p = start;
        if (!as_expr(as, &p, &v, err, sizeof(err))) {
            as_error(as, st, as_col(as, st, start), "%s", err);
            return;
        }
        p = as_skip_ws(p);
        if (*p && *p != ',') {
            as_error(as, st, as_col(as, st, p), "bad directive: unexpected '%s' after a value of '%.*s'",
                     p, dir_name_len(st), dir_name(st));
            return;
        }
        if (as->pass == 2 && size < 8) {
            int64_t lo = -((int64_t)1 << (size * 8 - 1));
            int64_t hi = ((int64_t)1 << (size * 8)) - 1;
            if (v.v < lo || v.v > hi) {
                as_error(as, st, as_col(as, st, start),
                         "immediate out of range: %lld ('%.*s') does not fit in %d byte%s [%lld, %lld]",
                         (long long)v.v, (int)(p - start), start, size, size > 1 ? "s" : "",
                         (long long)lo, (long long)hi);
                return;
            }
        }
        as_emit_le(as, (uint64_t)v.v, (unsigned)size);
        if (!*p) {
            return;
        }
        p++;
    }
}

void dir_ascii(LinxAs *as, AsStmt *st, int zero)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];

    if (!dir_no_data_in_nobits(as, st)) {
        return;
    }
    if (!*p) {
        as_error(as, st, as_col(as, st, p), "bad directive: '%.*s' needs a string",
                 dir_name_len(st), dir_name(st));
        return;
    }
    for (;;) {
        const char *start = as_skip_ws(p);
        char *s;
        size_t n;

        p = start;
        if (!as_parse_string(&p, &s, &n, err, sizeof(err))) {
            as_error(as, st, as_col(as, st, start), "bad directive: %s in '%.*s'", err,
                     dir_name_len(st), dir_name(st));
            return;
        }
        as_emit(as, s, n);
        if (zero) {
            as_emit_fill(as, 1, 0);
        }
        free(s);
        p = as_skip_ws(p);
        if (!*p) {
            return;
        }
        if (*p != ',') {
            as_error(as, st, as_col(as, st, p), "bad directive: unexpected '%s' after a string", p);
            return;
        }
        p++;
    }
}

/* .zero/.space/.skip size[, fill] */
void dir_space(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = st->args;
    int64_t n, fill = 0;

    (void)arg;
    if (!as_expr_abs(as, st, &p, &n, "the size")) {
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p++;
        if (!as_expr_abs(as, st, &p, &fill, "the fill byte")) {
            return;
        }
        if (fill < -128 || fill > 255) {
            as_error(as, st, st->col, "immediate out of range: fill byte %lld not in [-128, 255]",
                     (long long)fill);
            return;
        }
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (n < 0) {
        as_error(as, st, st->col, "immediate out of range: size %lld is negative", (long long)n);
        return;
    }
    if (fill && !dir_no_data_in_nobits(as, st)) {
        return;
    }
    if (!dir_room_for(as, st, (uint64_t)n)) {
        return;
    }
    as_emit_fill(as, (uint64_t)n, (uint8_t)fill);
}

/* .fill repeat[, size[, value]] */
void dir_fill(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = st->args;
    int64_t rep, size = 1, value = 0;

    (void)arg;
    if (!as_expr_abs(as, st, &p, &rep, "the repeat count")) {
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p++;
        if (!as_expr_abs(as, st, &p, &size, "the size")) {
            return;
        }
        p = as_skip_ws(p);
        if (*p == ',') {
            p++;
            if (!as_expr_abs(as, st, &p, &value, "the value")) {
                return;
            }
        }
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (rep < 0 || size < 0 || size > 8) {
        as_error(as, st, st->col, "immediate out of range: .fill needs repeat >= 0 and size in [0, 8]");
        return;
    }
    if (value && !dir_no_data_in_nobits(as, st)) {
        return;
    }
    if (!dir_room_for(as, st, (uint64_t)rep) || !dir_room_for(as, st, (uint64_t)rep * (uint64_t)size)) {
        return;
    }
    for (int64_t i = 0; i < rep; i++) {
        as_emit_le(as, (uint64_t)value, (unsigned)size);
    }
}

/* .insn VALUE: raw instruction bits, as the disassembler prints an
 * encoding no form matches.  The length comes from the first halfword
 * (digest 1.1), VALUE is the packed stream bytes read little-endian. */
void dir_insn(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = as_skip_ws(st->args);
    const char *start = p;
    char err[AS_ERRLEN];
    AsValue v;
    unsigned len;

    (void)arg;
    if (!as_expr(as, &p, &v, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, start), "%s", err);
        return;
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (!v.known || v.sec != AS_SEC_ABS) {
        as_error(as, st, as_col(as, st, start),
                 "expression not constant: '.insn %s' must be known here (it gives the length)", start);
        return;
    }
    len = linx_insn_length((uint16_t)v.v);
    if (len < 8 && ((uint64_t)v.v >> (8 * len)) != 0) {
        as_error(as, st, as_col(as, st, start),
                 "immediate out of range: '.insn %s' has bits above its %u-byte length (from the first halfword)",
                 start, len);
        return;
    }
    if (as->secs[as->cur_sec].lc & 1) {
        as_error(as, st, st->col, "misaligned target: instruction at odd offset 0x%llx",
                 (unsigned long long)as->secs[as->cur_sec].lc);
        return;
    }
    if (!dir_no_data_in_nobits(as, st)) {
        return;
    }
    as_emit_le(as, (uint64_t)v.v, len);
}

/* ---- alignment and location ---------------------------------------------------- */

/* arg: 0 = .p2align (power), 1 = .align / .balign (bytes) */
void dir_align(LinxAs *as, AsStmt *st, int bytes)
{
    const char *p = st->args;
    int64_t a, fill = 0, max = -1;
    uint64_t align, pad;
    AsSection *s;

    if (!as_expr_abs(as, st, &p, &a, "the alignment")) {
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p = as_skip_ws(p + 1);
        if (*p != ',' && !as_expr_abs(as, st, &p, &fill, "the fill byte")) {
            return;
        }
        p = as_skip_ws(p);
        if (*p == ',') {
            p++;
            if (!as_expr_abs(as, st, &p, &max, "the maximum padding")) {
                return;
            }
        }
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (bytes) {
        if (a <= 0 || (a & (a - 1)) || a > (1 << AS_MAX_ALIGN_LOG2)) {
            as_error(as, st, st->col, "bad directive: alignment %lld is not a power of two in [1, %d]",
                     (long long)a, 1 << AS_MAX_ALIGN_LOG2);
            return;
        }
        align = (uint64_t)a;
    } else {
        if (a < 0 || a > AS_MAX_ALIGN_LOG2) {
            as_error(as, st, st->col, "bad directive: .p2align %lld not in [0, %d]", (long long)a,
                     AS_MAX_ALIGN_LOG2);
            return;
        }
        align = 1ull << a;
    }
    if (fill < -128 || fill > 255) {
        as_error(as, st, st->col, "immediate out of range: fill byte %lld not in [-128, 255]",
                 (long long)fill);
        return;
    }
    s = &as->secs[as->cur_sec];
    pad = (align - (s->lc & (align - 1))) & (align - 1);
    if (max >= 0 && pad > (uint64_t)max) {
        return;
    }
    if (align > s->align) {
        s->align = align;
    }
    as_emit_fill(as, pad, (uint8_t)fill);
}

void dir_org(LinxAs *as, AsStmt *st, int arg)
{
    const char *start = as_skip_ws(st->args);
    const char *p = start;
    char err[AS_ERRLEN];
    AsValue v;
    int64_t fill = 0;
    uint64_t target;
    AsSection *s = &as->secs[as->cur_sec];

    (void)arg;
    if (!as_expr(as, &p, &v, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, start), "%s", err);
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p++;
        if (!as_expr_abs(as, st, &p, &fill, "the fill byte")) {
            return;
        }
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (as->pass == 2) {
        /* The target was fixed in pass 1 (values are addresses now). */
        as_emit_fill(as, st->size, (uint8_t)fill);
        return;
    }
    if (!v.known || (v.sec != AS_SEC_ABS && v.sec != as->cur_sec)) {
        as_error(as, st, as_col(as, st, start),
                 "expression not constant: '.org %s' must be an offset in this section known here",
                 start);
        return;
    }
    target = (uint64_t)v.v;
    if (target < s->lc) {
        as_error(as, st, as_col(as, st, start),
                 "bad directive: .org 0x%llx would move the location counter backwards (it is 0x%llx)",
                 (unsigned long long)target, (unsigned long long)s->lc);
        return;
    }
    if (!dir_room_for(as, st, target - s->lc)) {
        return;
    }
    as_emit_fill(as, target - s->lc, (uint8_t)fill);
}

/* ---- common symbols ------------------------------------------------------------ */

void dir_comm(LinxAs *as, AsStmt *st, int global)
{
    const char *p = st->args;
    size_t n = dir_symbol_operand(as, st, &p);
    const char *name = p;
    int64_t size, align = 8;
    int save = as->cur_sec, bss;
    uint32_t idx;
    AsSection *s;

    if (!n) {
        return;
    }
    p += n;
    if (!dir_expect_comma(as, st, &p, "the size") || !as_expr_abs(as, st, &p, &size, "the size")) {
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p++;
        if (!as_expr_abs(as, st, &p, &align, "the alignment")) {
            return;
        }
    }
    if (!dir_expect_end(as, st, p)) {
        return;
    }
    if (size < 0 || align <= 0 || (align & (align - 1)) || align > (1 << AS_MAX_ALIGN_LOG2)) {
        as_error(as, st, st->col, "immediate out of range: size must be >= 0 and alignment a power of two");
        return;
    }
    bss = as_section_get_at(as, st, ".bss");
    if (bss < 0) {
        return;
    }
    as->cur_sec = bss;
    s = &as->secs[bss];
    s->explicit_use = true;
    if ((uint64_t)align > s->align) {
        s->align = (uint64_t)align;
    }
    as_emit_fill(as, (align - (s->lc & (align - 1))) & (align - 1), 0);
    idx = as_sym_intern(as, name, n);
    if (as->pass == 1) {
        AsSymbol *sym = &as->syms[idx];
        if (sym->defined) {
            as_error(as, st, as_col(as, st, name), "duplicate symbol: '%.*s' (first defined at %s:%u)",
                     (int)n, name, as->files[sym->def_file].name, sym->def_line);
        } else {
            sym->defined = true;
            sym->is_address = true;
            sym->sec = bss;
            sym->value = (int64_t)s->lc;
            sym->size = (uint64_t)size;
            sym->has_size = true;
            sym->type = AS_STT_OBJECT;
            sym->def_file = st->file;
            sym->def_line = st->line;
            if (global) {
                sym->bind = AS_STB_GLOBAL;
            }
        }
    }
    if (dir_room_for(as, st, (uint64_t)size)) {
        as_emit_fill(as, (uint64_t)size, 0);
    }
    as->cur_sec = save;
}
