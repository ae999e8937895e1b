/*
 * linx-as directives.
 *
 * One table row per directive: its name and its handler.  A handler runs
 * in both passes (as->pass tells which): in pass 1 it fixes sizes and
 * symbol attributes, in pass 2 it writes bytes.  It must advance the
 * location counter by the same amount in both passes.
 *
 * Directives clang emits that have no effect here (.file, .ident, .addrsig,
 * .cfi_*, .loc, ...) are accepted and ignored; an unknown directive is an
 * error ("bad directive").  docs/assembler.md lists them all.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "as-internal.h"
#include "target/linx/decode.h"
#include "util/elf-file.h"

#define AS_MAX_ALIGN_LOG2 16          /* .p2align 16 = 64 KiB at most */
#define AS_MAX_SECTION_BYTES (1ull << 28) /* 256 MiB per section */
#define AS_MAX_INCLUDE_DEPTH 16

enum {
    STB_LOCAL_ = 0,
    STB_GLOBAL_ = 1,
    STB_WEAK_ = 2,
    STT_NOTYPE_ = 0,
    STT_OBJECT_ = 1,
    STT_FUNC_ = 2,
    STT_TLS_ = 6,
};

typedef void (*AsDirFn)(LinxAs *as, AsStmt *st, int arg);

typedef struct AsDirective {
    const char *name;
    AsDirFn fn;
    int arg;
} AsDirective;

/* ---- helpers --------------------------------------------------------------- */

static const char *dir_name(const AsStmt *st)
{
    return st->text;
}

static int dir_name_len(const AsStmt *st)
{
    const char *q = st->text;
    while (*q && !as_is_space((unsigned char)*q)) {
        q++;
    }
    return (int)(q - st->text);
}

/* Expect the end of the operands at @p. */
static bool expect_end(LinxAs *as, AsStmt *st, const char *p)
{
    p = as_skip_ws(p);
    if (*p) {
        as_error(as, st, as_col(as, st, p), "bad directive: unexpected '%s' after the operands of '%.*s'",
                 p, dir_name_len(st), dir_name(st));
        return false;
    }
    return true;
}

/* Expect a ',' at @p and step over it. */
static bool expect_comma(LinxAs *as, AsStmt *st, const char **pp, const char *what)
{
    const char *p = as_skip_ws(*pp);
    if (*p != ',') {
        as_error(as, st, as_col(as, st, p), "bad directive: expected ',' before %s in '%.*s', found '%s'",
                 what, dir_name_len(st), dir_name(st), *p ? p : "end of line");
        return false;
    }
    *pp = p + 1;
    return true;
}

/* A symbol name operand; returns its length (0 after reporting). */
static size_t symbol_operand(LinxAs *as, AsStmt *st, const char **pp)
{
    const char *p = as_skip_ws(*pp);
    size_t n = as_ident_len(p);

    if (n == 0) {
        as_error(as, st, as_col(as, st, p), "bad directive: '%.*s' expects a symbol name, found '%s'",
                 dir_name_len(st), dir_name(st), *p ? p : "end of line");
        return 0;
    }
    *pp = p;
    return n;
}

static bool no_data_in_nobits(LinxAs *as, AsStmt *st)
{
    const AsSection *s = &as->secs[as->cur_sec];
    if (s->type == ELF_SHT_NOBITS) {
        as_error(as, st, st->col, "bad directive: '%.*s' puts data in NOBITS section '%s' (only .zero/.space/.skip there)",
                 dir_name_len(st), dir_name(st), s->name);
        return false;
    }
    return true;
}

static bool room_for(LinxAs *as, AsStmt *st, uint64_t n)
{
    const AsSection *s = &as->secs[as->cur_sec];
    if (n > AS_MAX_SECTION_BYTES || s->lc + n > AS_MAX_SECTION_BYTES) {
        as_error(as, st, st->col, "immediate out of range: section '%s' would grow past %llu bytes",
                 s->name, (unsigned long long)AS_MAX_SECTION_BYTES);
        return false;
    }
    return true;
}

/* ---- sections ------------------------------------------------------------- */

static void dir_simple_section(LinxAs *as, AsStmt *st, int arg)
{
    static const char *const names[] = { ".text", ".data", ".rodata", ".bss" };

    if (as->pass == 1 && expect_end(as, st, st->args)) {
        as_section_switch(as, as_section_get(as, names[arg]));
    }
}

static bool section_flags(LinxAs *as, AsStmt *st, const char *s, size_t n, uint64_t *flags)
{
    *flags = 0;
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case 'a': *flags |= ELF_SHF_ALLOC; break;
        case 'w': *flags |= ELF_SHF_WRITE; break;
        case 'x': *flags |= ELF_SHF_EXECINSTR; break;
        case 'M': case 'S': case 'G': case 'T': case 'R': case 'o': case 'e': case 'd':
            break; /* merge/strings/group/TLS/retain: no effect here */
        default:
            as_error(as, st, st->col, "bad directive: unknown section flag '%c' in \"%.*s\"",
                     s[i], (int)n, s);
            return false;
        }
    }
    return true;
}

static void dir_section(LinxAs *as, AsStmt *st, int push)
{
    const char *p = as_skip_ws(st->args);
    char *name = NULL, *flagstr = NULL;
    size_t nlen = 0, flen = 0;
    char err[AS_ERRLEN];
    uint64_t flags = 0;
    bool have_flags = false;
    int type = -1;
    int sec;

    if (as->pass != 1) {
        return;
    }
    if (*p == '"') {
        if (!as_parse_string(&p, &name, &nlen, err, sizeof(err))) {
            as_error(as, st, as_col(as, st, p), "bad directive: %s", err);
            return;
        }
    } else {
        const char *s = p;
        while (*p && *p != ',' && !as_is_space((unsigned char)*p)) {
            p++;
        }
        if (p == s) {
            as_error(as, st, as_col(as, st, p), "bad directive: '.section' needs a section name");
            return;
        }
        name = as_xstrndup(s, (size_t)(p - s));
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p = as_skip_ws(p + 1);
        if (*p == '"') {
            if (!as_parse_string(&p, &flagstr, &flen, err, sizeof(err))) {
                as_error(as, st, as_col(as, st, p), "bad directive: %s", err);
                free(name);
                return;
            }
            if (!section_flags(as, st, flagstr, flen, &flags)) {
                free(name);
                free(flagstr);
                return;
            }
            have_flags = true;
            free(flagstr);
        }
        p = as_skip_ws(p);
        if (*p == ',') {
            const char *t = as_skip_ws(p + 1);
            size_t tn;
            if (*t == '@' || *t == '%') {
                t++;
            }
            tn = as_ident_len(t);
            if (as_word_eq(t, tn, "progbits") || as_word_eq(t, tn, "note") ||
                as_word_eq(t, tn, "init_array") || as_word_eq(t, tn, "fini_array")) {
                type = ELF_SHT_PROGBITS;
            } else if (as_word_eq(t, tn, "nobits")) {
                type = ELF_SHT_NOBITS;
            } else {
                as_error(as, st, as_col(as, st, t), "bad directive: unknown section type '%.*s' (use @progbits or @nobits)",
                         (int)(tn ? tn : strlen(t)), t);
                free(name);
                return;
            }
            /* Further operands (entsize, group) have no effect here. */
        }
    }
    {
        bool existed = as_section_find(as, name) >= 0;
        sec = as_section_get(as, name);
        if (!existed && have_flags) {
            as->secs[sec].flags = flags;
            if (!(flags & ELF_SHF_EXECINSTR)) {
                as->secs[sec].align = 1;
            }
        }
        if (!existed && type >= 0) {
            as->secs[sec].type = (uint32_t)type;
        }
    }
    free(name);
    if (push) {
        if (as->sec_sp >= AS_SECTION_STACK_DEPTH) {
            as_error(as, st, st->col, "bad directive: .pushsection nested more than %d deep",
                     AS_SECTION_STACK_DEPTH);
            return;
        }
        as->sec_stack[as->sec_sp++] = as->cur_sec;
    }
    as_section_switch(as, sec);
}

static void dir_popsection(LinxAs *as, AsStmt *st, int arg)
{
    (void)arg;
    if (as->pass != 1 || !expect_end(as, st, st->args)) {
        return;
    }
    if (as->sec_sp == 0) {
        as_error(as, st, st->col, "bad directive: .popsection without .pushsection");
        return;
    }
    as_section_switch(as, as->sec_stack[--as->sec_sp]);
}

static void dir_previous(LinxAs *as, AsStmt *st, int arg)
{
    (void)arg;
    if (as->pass == 1 && expect_end(as, st, st->args)) {
        as_section_switch(as, as->prev_sec);
    }
}

/* ---- symbol attributes ------------------------------------------------------ */

static void dir_bind(LinxAs *as, AsStmt *st, int bind)
{
    const char *p = st->args;

    if (as->pass != 1) {
        return;
    }
    for (;;) {
        size_t n = symbol_operand(as, st, &p);
        AsSymbol *s;
        if (!n) {
            return;
        }
        uint32_t idx = as_sym_intern(as, p, n); /* may move as->syms */
        s = &as->syms[idx];
        if (bind == STB_LOCAL_) {
            s->explicit_local = true;
        }
        s->bind = (uint8_t)bind;
        p = as_skip_ws(p + n);
        if (*p != ',') {
            expect_end(as, st, p);
            return;
        }
        p++;
    }
}

static void dir_visibility(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = st->args;
    (void)arg;
    /* Visibility does not matter in a fully linked image: check and ignore. */
    if (as->pass == 1) {
        size_t n = symbol_operand(as, st, &p);
        if (n) {
            as_sym_intern(as, p, n);
        }
    }
}

static void dir_type(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = st->args;
    size_t n, tn;
    const char *t;
    uint8_t type;
    uint32_t idx;

    (void)arg;
    if (as->pass != 1 || !(n = symbol_operand(as, st, &p))) {
        return;
    }
    idx = as_sym_intern(as, p, n);
    p += n;
    if (!expect_comma(as, st, &p, "the symbol type")) {
        return;
    }
    t = as_skip_ws(p);
    if (*t == '@' || *t == '%' || *t == '"') {
        t++;
    }
    tn = as_ident_len(t);
    if (as_word_eq(t, tn, "function") || as_word_eq(t, tn, "STT_FUNC")) {
        type = STT_FUNC_;
    } else if (as_word_eq(t, tn, "object") || as_word_eq(t, tn, "STT_OBJECT")) {
        type = STT_OBJECT_;
    } else if (as_word_eq(t, tn, "notype") || as_word_eq(t, tn, "STT_NOTYPE")) {
        type = STT_NOTYPE_;
    } else if (as_word_eq(t, tn, "tls_object") || as_word_eq(t, tn, "STT_TLS")) {
        type = STT_TLS_;
    } else {
        as_error(as, st, as_col(as, st, t), "bad directive: unknown symbol type '%.*s' (@function, @object, @notype)",
                 (int)(tn ? tn : strlen(t)), t);
        return;
    }
    as->syms[idx].type = type;
}

static void dir_size(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = st->args;
    size_t n;
    uint32_t idx;
    int64_t v;

    (void)arg;
    if (!(n = symbol_operand(as, st, &p))) {
        return;
    }
    idx = as_sym_intern(as, p, n);
    p += n;
    if (!expect_comma(as, st, &p, "the size")) {
        return;
    }
    if (as->pass == 1) {
        /* Checked in pass 2, when every label is known. */
        return;
    }
    if (!as_expr_abs(as, st, &p, &v, "the size") || !expect_end(as, st, p)) {
        return;
    }
    as->syms[idx].size = (uint64_t)v;
    as->syms[idx].has_size = true;
}

/* .equ / .set / .equiv and "name = expr". */
static void define_equ(LinxAs *as, AsStmt *st, const char *name, size_t n, const char *expr,
                       bool equiv)
{
    uint32_t idx = as_sym_intern(as, name, n);
    AsSymbol *s = &as->syms[idx];
    const char *p = as_skip_ws(expr);
    char err[AS_ERRLEN];
    AsValue v;
    bool symbolic = false;

    if (as->pass == 1) {
        if (s->defined && !s->is_equ) {
            as_error(as, st, as_col(as, st, name), "duplicate symbol: '%.*s' is already a label (%s:%u)",
                     (int)n, name, as->files[s->def_file].name, s->def_line);
            return;
        }
        if (s->defined && equiv) {
            as_error(as, st, as_col(as, st, name), "duplicate symbol: '.equiv %.*s' but it is already defined (%s:%u)",
                     (int)n, name, as->files[s->def_file].name, s->def_line);
            return;
        }
        if (!*p) {
            as_error(as, st, as_col(as, st, p), "bad directive: missing value for '%.*s'", (int)n, name);
            return;
        }
    }
    st->sym = idx;
    if (!as_expr_sym(as, &p, &v, &symbolic, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, expr), "%s", err);
        return;
    }
    if (!expect_end(as, st, p)) {
        return;
    }
    s = &as->syms[idx];
    if (!s->defined) {
        s->def_file = st->file;
        s->def_line = st->line;
    }
    s->defined = true;
    s->is_equ = true;
    s->is_address = symbolic;
    if (v.known) {
        s->sec = v.sec;
        s->value = v.v;
        s->equ_state = AS_EQU_NONE;
    } else {
        /* Names a later symbol: evaluate when it is used. */
        const char *e = as_skip_ws(expr);
        free((char *)s->equ_expr);
        s->equ_expr = as_xstrndup(e, strlen(e));
        s->equ_stmt = as->cur_stmt;
        s->equ_state = AS_EQU_PENDING;
    }
}

static void dir_equ(LinxAs *as, AsStmt *st, int equiv)
{
    const char *p = st->args;
    size_t n = symbol_operand(as, st, &p);
    const char *name = p;

    if (!n) {
        return;
    }
    p += n;
    if (!expect_comma(as, st, &p, "the value")) {
        return;
    }
    define_equ(as, st, name, n, p, equiv != 0);
}

void as_assign_run(LinxAs *as, AsStmt *st)
{
    define_equ(as, st, st->text, as_ident_len(st->text), st->args, false);
}

/* ---- data -------------------------------------------------------------------- */

static void dir_data(LinxAs *as, AsStmt *st, int size)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];

    if (!*p) {
        as_error(as, st, as_col(as, st, p), "bad directive: '%.*s' needs at least one value",
                 dir_name_len(st), dir_name(st));
        return;
    }
    if (!no_data_in_nobits(as, st)) {
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

static void dir_ascii(LinxAs *as, AsStmt *st, int zero)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];

    if (!no_data_in_nobits(as, st)) {
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
static void dir_space(LinxAs *as, AsStmt *st, int arg)
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
    if (!expect_end(as, st, p)) {
        return;
    }
    if (n < 0) {
        as_error(as, st, st->col, "immediate out of range: size %lld is negative", (long long)n);
        return;
    }
    if (fill && !no_data_in_nobits(as, st)) {
        return;
    }
    if (!room_for(as, st, (uint64_t)n)) {
        return;
    }
    as_emit_fill(as, (uint64_t)n, (uint8_t)fill);
}

/* .fill repeat[, size[, value]] */
static void dir_fill(LinxAs *as, AsStmt *st, int arg)
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
    if (!expect_end(as, st, p)) {
        return;
    }
    if (rep < 0 || size < 0 || size > 8) {
        as_error(as, st, st->col, "immediate out of range: .fill needs repeat >= 0 and size in [0, 8]");
        return;
    }
    if (value && !no_data_in_nobits(as, st)) {
        return;
    }
    if (!room_for(as, st, (uint64_t)rep) || !room_for(as, st, (uint64_t)rep * (uint64_t)size)) {
        return;
    }
    for (int64_t i = 0; i < rep; i++) {
        as_emit_le(as, (uint64_t)value, (unsigned)size);
    }
}

/* .insn VALUE: raw instruction bits, as the disassembler prints an
 * encoding no form matches.  The length comes from the first halfword
 * (digest 1.1), VALUE is the packed stream bytes read little-endian. */
static void dir_insn(LinxAs *as, AsStmt *st, int arg)
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
    if (!expect_end(as, st, p)) {
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
    if (!no_data_in_nobits(as, st)) {
        return;
    }
    as_emit_le(as, (uint64_t)v.v, len);
}

/* ---- alignment and location ---------------------------------------------------- */

/* arg: 0 = .p2align (power), 1 = .align / .balign (bytes) */
static void dir_align(LinxAs *as, AsStmt *st, int bytes)
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
    if (!expect_end(as, st, p)) {
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

static void dir_org(LinxAs *as, AsStmt *st, int arg)
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
    if (!expect_end(as, st, p)) {
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
    if (!room_for(as, st, target - s->lc)) {
        return;
    }
    as_emit_fill(as, target - s->lc, (uint8_t)fill);
}

/* ---- common symbols ------------------------------------------------------------ */

static void dir_comm(LinxAs *as, AsStmt *st, int global)
{
    const char *p = st->args;
    size_t n = symbol_operand(as, st, &p);
    const char *name = p;
    int64_t size, align = 8;
    int save = as->cur_sec, bss;
    uint32_t idx;
    AsSection *s;

    if (!n) {
        return;
    }
    p += n;
    if (!expect_comma(as, st, &p, "the size") || !as_expr_abs(as, st, &p, &size, "the size")) {
        return;
    }
    p = as_skip_ws(p);
    if (*p == ',') {
        p++;
        if (!as_expr_abs(as, st, &p, &align, "the alignment")) {
            return;
        }
    }
    if (!expect_end(as, st, p)) {
        return;
    }
    if (size < 0 || align <= 0 || (align & (align - 1)) || align > (1 << AS_MAX_ALIGN_LOG2)) {
        as_error(as, st, st->col, "immediate out of range: size must be >= 0 and alignment a power of two");
        return;
    }
    bss = as_section_get(as, ".bss");
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
            sym->type = STT_OBJECT_;
            sym->def_file = st->file;
            sym->def_line = st->line;
            if (global) {
                sym->bind = STB_GLOBAL_;
            }
        }
    }
    if (room_for(as, st, (uint64_t)size)) {
        as_emit_fill(as, (uint64_t)size, 0);
    }
    as->cur_sec = save;
}

/* ---- files --------------------------------------------------------------------- */

static void dir_file(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];
    char *name;
    size_t n;

    (void)arg;
    /* ".file 1 "name"" (DWARF) has a number first: nothing to do. */
    if (as->pass != 1 || *p != '"') {
        return;
    }
    if (!as_parse_string(&p, &name, &n, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, p), "bad directive: %s", err);
        return;
    }
    if (!as->file_sym) {
        as->file_sym = name;
    } else {
        free(name);
    }
}

static void dir_include(LinxAs *as, AsStmt *st, int arg)
{
    const char *p = as_skip_ws(st->args);
    char err[AS_ERRLEN];
    char *name, *path;
    size_t n;
    const char *cur = as->files[st->file].name;
    const char *slash = strrchr(cur, '/');
    uint32_t nfiles_before = as->nfiles;

    (void)arg;
    if (as->pass != 1) {
        return;
    }
    if (!as_parse_string(&p, &name, &n, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, p), "bad directive: .include needs a \"file name\": %s", err);
        return;
    }
    if (as->include_depth >= AS_MAX_INCLUDE_DEPTH) {
        as_error(as, st, st->col, "bad directive: .include nested more than %d deep", AS_MAX_INCLUDE_DEPTH);
        free(name);
        return;
    }
    if (name[0] != '/' && slash) {
        size_t dl = (size_t)(slash - cur) + 1;
        path = as_xmalloc(dl + n + 1);
        memcpy(path, cur, dl);
        memcpy(path + dl, name, n + 1);
    } else {
        path = as_xstrndup(name, n);
    }
    free(name);
    {
        /* linx_as_add_file reports failures without a position: give one. */
        unsigned errs = as->errors;
        bool saved_comment = as->in_block_comment;
        uint32_t line = st->line, col = st->col, file = st->file;
        FILE *f = fopen(path, "rb");
        if (!f) {
            as_error(as, st, col, "bad directive: cannot open include file '%s'", path);
            free(path);
            return;
        }
        fclose(f);
        if (!linx_as_add_file(as, path) && as->errors == errs) {
            AsStmt fake = { .file = file, .line = line };
            as_error(as, &fake, col, "bad directive: cannot read include file '%s'", path);
        }
        if (as->nfiles > nfiles_before) {
            /* Files added while assembling are lexed right away. */
            as->include_depth++;
            as_lex_file(as, as->nfiles - 1);
            as->include_depth--;
        }
        as->in_block_comment = saved_comment;
    }
    free(path);
}

static void dir_end(LinxAs *as, AsStmt *st, int arg)
{
    (void)arg;
    (void)st;
    if (as->pass == 1) {
        as->ended = true;
    }
}

static void dir_ignore(LinxAs *as, AsStmt *st, int arg)
{
    (void)as;
    (void)st;
    (void)arg;
}

/* ---- the table ------------------------------------------------------------------ */

static const AsDirective directives[] = {
    { ".text", dir_simple_section, 0 },
    { ".data", dir_simple_section, 1 },
    { ".rodata", dir_simple_section, 2 },
    { ".bss", dir_simple_section, 3 },
    { ".section", dir_section, 0 },
    { ".pushsection", dir_section, 1 },
    { ".popsection", dir_popsection, 0 },
    { ".previous", dir_previous, 0 },
    { ".globl", dir_bind, STB_GLOBAL_ },
    { ".global", dir_bind, STB_GLOBAL_ },
    { ".local", dir_bind, STB_LOCAL_ },
    { ".weak", dir_bind, STB_WEAK_ },
    { ".hidden", dir_visibility, 0 },
    { ".protected", dir_visibility, 0 },
    { ".internal", dir_visibility, 0 },
    { ".type", dir_type, 0 },
    { ".size", dir_size, 0 },
    { ".equ", dir_equ, 0 },
    { ".set", dir_equ, 0 },
    { ".equiv", dir_equ, 1 },
    { ".byte", dir_data, 1 },
    { ".2byte", dir_data, 2 },
    { ".half", dir_data, 2 },
    { ".hword", dir_data, 2 },
    { ".short", dir_data, 2 },
    { ".4byte", dir_data, 4 },
    { ".word", dir_data, 4 },
    { ".long", dir_data, 4 },
    { ".int", dir_data, 4 },
    { ".8byte", dir_data, 8 },
    { ".quad", dir_data, 8 },
    { ".dword", dir_data, 8 },
    { ".ascii", dir_ascii, 0 },
    { ".asciz", dir_ascii, 1 },
    { ".string", dir_ascii, 1 },
    { ".zero", dir_space, 0 },
    { ".space", dir_space, 0 },
    { ".skip", dir_space, 0 },
    { ".fill", dir_fill, 0 },
    { ".insn", dir_insn, 0 },
    { ".p2align", dir_align, 0 },
    { ".align", dir_align, 1 },
    { ".balign", dir_align, 1 },
    { ".org", dir_org, 0 },
    { ".comm", dir_comm, 1 },
    { ".lcomm", dir_comm, 0 },
    { ".file", dir_file, 0 },
    { ".include", dir_include, 0 },
    { ".end", dir_end, 0 },
    /* Accepted, no effect on a fully resolved image. */
    { ".ident", dir_ignore, 0 },
    { ".addrsig", dir_ignore, 0 },
    { ".addrsig_sym", dir_ignore, 0 },
    { ".loc", dir_ignore, 0 },
    { ".option", dir_ignore, 0 },
    { ".attribute", dir_ignore, 0 },
    { ".variant_pcs", dir_ignore, 0 },
    { ".linker_option", dir_ignore, 0 },
    { ".cfi_", dir_ignore, 0 }, /* every .cfi_* directive (prefix) */
};

#define AS_NUM_DIRECTIVES (int)(sizeof(directives) / sizeof(directives[0]))
#define AS_CFI_PREFIX_LEN 5

int as_directive_find(const char *name, size_t len)
{
    for (int i = 0; i < AS_NUM_DIRECTIVES; i++) {
        if (as_word_eq(name, len, directives[i].name)) {
            return i;
        }
    }
    if (len > AS_CFI_PREFIX_LEN && strncmp(name, ".cfi_", AS_CFI_PREFIX_LEN) == 0) {
        return AS_NUM_DIRECTIVES - 1;
    }
    return -1;
}

void as_directive_run(LinxAs *as, AsStmt *st)
{
    if (st->dir >= AS_NUM_DIRECTIVES) {
        if (as->pass == 1) {
            as_error(as, st, st->col, "bad directive: unknown directive '%.*s'", dir_name_len(st),
                     dir_name(st));
        }
        return;
    }
    directives[st->dir].fn(as, st, directives[st->dir].arg);
}
