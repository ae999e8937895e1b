/*
 * linx-as directives.
 *
 * One table row per directive: its name and its handler.  A handler runs
 * in both passes (as->pass tells which): in pass 1 it fixes sizes and
 * symbol attributes, in pass 2 it writes bytes.  It must advance the
 * location counter by the same amount in both passes.
 *
 * This file has the table, the section, symbol and file directives; the
 * ones that emit bytes are in directives-data.c.
 *
 * Directives clang emits that have no effect here (.file, .ident, .addrsig,
 * .cfi_*, .loc, ...) are accepted and ignored; an unknown directive is an
 * error ("bad directive").  docs/assembler.md lists them all.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "directives.h"
#include "util/elf-file.h"

#define AS_MAX_INCLUDE_DEPTH 16

typedef void (*AsDirFn)(LinxAs *as, AsStmt *st, int arg);

typedef struct AsDirective {
    const char *name;
    AsDirFn fn;
    int arg;
} AsDirective;

/* ---- helpers --------------------------------------------------------------- */

const char *dir_name(const AsStmt *st)
{
    return st->text;
}

int dir_name_len(const AsStmt *st)
{
    const char *q = st->text;
    while (*q && !as_is_space((unsigned char)*q)) {
        q++;
    }
    return (int)(q - st->text);
}

/* Expect the end of the operands at @p. */
bool dir_expect_end(LinxAs *as, AsStmt *st, const char *p)
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
bool dir_expect_comma(LinxAs *as, AsStmt *st, const char **pp, const char *what)
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
size_t dir_symbol_operand(LinxAs *as, AsStmt *st, const char **pp)
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

bool dir_no_data_in_nobits(LinxAs *as, AsStmt *st)
{
    const AsSection *s = &as->secs[as->cur_sec];
    if (s->type == ELF_SHT_NOBITS) {
        as_error(as, st, st->col, "bad directive: '%.*s' puts data in NOBITS section '%s' (only .zero/.space/.skip there)",
                 dir_name_len(st), dir_name(st), s->name);
        return false;
    }
    return true;
}

bool dir_room_for(LinxAs *as, AsStmt *st, uint64_t n)
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

    if (as->pass == 1 && dir_expect_end(as, st, st->args)) {
        int sec = as_section_get_at(as, st, names[arg]);
        if (sec >= 0) {
            as_section_switch(as, sec);
        }
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
        sec = as_section_get_at(as, st, name);
        if (sec < 0) {
            free(name);
            return;
        }
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
    if (as->pass != 1 || !dir_expect_end(as, st, st->args)) {
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
    if (as->pass == 1 && dir_expect_end(as, st, st->args)) {
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
        size_t n = dir_symbol_operand(as, st, &p);
        AsSymbol *s;
        if (!n) {
            return;
        }
        uint32_t idx = as_sym_intern(as, p, n); /* may move as->syms */
        s = &as->syms[idx];
        if (bind == AS_STB_LOCAL) {
            s->explicit_local = true;
        }
        s->bind = (uint8_t)bind;
        p = as_skip_ws(p + n);
        if (*p != ',') {
            dir_expect_end(as, st, p);
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
        size_t n = dir_symbol_operand(as, st, &p);
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
    if (as->pass != 1 || !(n = dir_symbol_operand(as, st, &p))) {
        return;
    }
    idx = as_sym_intern(as, p, n);
    p += n;
    if (!dir_expect_comma(as, st, &p, "the symbol type")) {
        return;
    }
    t = as_skip_ws(p);
    if (*t == '@' || *t == '%' || *t == '"') {
        t++;
    }
    tn = as_ident_len(t);
    if (as_word_eq(t, tn, "function") || as_word_eq(t, tn, "STT_FUNC")) {
        type = AS_STT_FUNC;
    } else if (as_word_eq(t, tn, "object") || as_word_eq(t, tn, "STT_OBJECT")) {
        type = AS_STT_OBJECT;
    } else if (as_word_eq(t, tn, "notype") || as_word_eq(t, tn, "STT_NOTYPE")) {
        type = AS_STT_NOTYPE;
    } else if (as_word_eq(t, tn, "tls_object") || as_word_eq(t, tn, "STT_TLS")) {
        type = AS_STT_TLS;
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
    if (!(n = dir_symbol_operand(as, st, &p))) {
        return;
    }
    idx = as_sym_intern(as, p, n);
    p += n;
    if (!dir_expect_comma(as, st, &p, "the size")) {
        return;
    }
    if (as->pass == 1) {
        /* Checked in pass 2, when every label is known. */
        return;
    }
    if (!as_expr_abs(as, st, &p, &v, "the size") || !dir_expect_end(as, st, p)) {
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
    if (!dir_expect_end(as, st, p)) {
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
    size_t n = dir_symbol_operand(as, st, &p);
    const char *name = p;

    if (!n) {
        return;
    }
    p += n;
    if (!dir_expect_comma(as, st, &p, "the value")) {
        return;
    }
    define_equ(as, st, name, n, p, equiv != 0);
}

void as_assign_run(LinxAs *as, AsStmt *st)
{
    define_equ(as, st, st->text, as_ident_len(st->text), st->args, false);
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
        bool saved_comment = as->in_block_comment;
        FILE *f = fopen(path, "rb");
        char *text;
        size_t len;
        int e;
        if (!f) {
            as_error(as, st, st->col, "bad directive: cannot open include file '%s': %s", path,
                     strerror(errno));
            free(path);
            return;
        }
        e = linx_as_read_stream(f, &text, &len);
        fclose(f);
        if (e) {
            as_error(as, st, st->col, "bad directive: cannot read include file '%s': %s", path,
                     as_read_error(e));
            free(path);
            return;
        }
        linx_as_add_source(as, path, text, len);
        free(text);
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
    { ".globl", dir_bind, AS_STB_GLOBAL },
    { ".global", dir_bind, AS_STB_GLOBAL },
    { ".local", dir_bind, AS_STB_LOCAL },
    { ".weak", dir_bind, AS_STB_WEAK },
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
