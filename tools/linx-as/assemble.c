/*
 * linx-as: the two passes and the public API (linx-as.h).
 *
 * Pass 1 (driven by the lexer, one statement at a time): labels get their
 * (section, offset); directives fix sizes and attributes; instructions get
 * their length from linx_asm_insn_length() (LinxISA lengths never depend
 * on operand values); template blocks are parsed and sized.
 * Between the passes the sections get addresses (as_layout).
 * Pass 2 walks the same statements again with every symbol known and
 * emits the bytes; instructions go through linx_asm_insn() with the
 * expression callback of expr.c.
 *
 * A statement that failed in pass 1 is skipped in pass 2, so one mistake
 * gives one message; pass 2 still runs to report undefined symbols and
 * out-of-range values elsewhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strings.h>

#include "as-internal.h"
#include "target/linx/decode.h"
#include "target/linx/header-form.h"
#include "target/linx/insn-table.h"
#include "util/elf-file.h"

void as_pass1_stmt(LinxAs *as, uint32_t idx);

void linx_as_default_options(LinxAsOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->base = LINX_AS_DEFAULT_BASE;
    o->format = LINX_AS_FMT_EXEC;
    o->max_errors = AS_DEFAULT_MAX_ERRORS;
}

LinxAs *linx_as_new(const LinxAsOptions *o)
{
    LinxAs *as = as_xcalloc(1, sizeof(LinxAs));

    if (o) {
        as->opt = *o;
    } else {
        linx_as_default_options(&as->opt);
    }
    as->cur_sec = as_section_get(as, ".text");
    as->prev_sec = as->cur_sec;
    as->secs[as->cur_sec].explicit_use = true;
    return as;
}

void linx_as_free(LinxAs *as)
{
    if (!as) {
        return;
    }
    for (uint32_t i = 0; i < as->nfiles; i++) {
        free(as->files[i].name);
        free(as->files[i].src);
        free(as->files[i].work);
        free(as->files[i].line_off);
    }
    free(as->files);
    for (uint32_t i = 0; i < as->nstmts; i++) {
        free(as->stmts[i].rewritten);
        free(as->stmts[i].ra_label);
        as_template_free(as->stmts[i].tmpl);
    }
    free(as->stmts);
    as_macros_free(as);
    as_sections_free(as);
    as_symbols_free(as);
    for (uint32_t i = 0; i < as->nseed_bodies; i++) {
        free(as->seed_bodies[i]);
    }
    free(as->seed_bodies);
    free(as->file_sym);
    free(as->diag);
    free(as->diag_recs);
    free(as);
}

void linx_as_add_source(LinxAs *as, const char *name, const char *text, size_t len)
{
    AsFile *f;

    if (len > LINX_AS_MAX_SOURCE_BYTES) {
        as_error_nopos(as, "bad input: '%s' is larger than %u MiB (the input size limit)", name,
                       (unsigned)(LINX_AS_MAX_SOURCE_BYTES >> 20));
        return;
    }
    if (len > LINX_AS_MAX_TOTAL_SOURCE_BYTES - as->source_bytes) {
        as_error_nopos(as, "bad input: with '%s' the sources add up to more than %u MiB (the input size limit)",
                       name, (unsigned)(LINX_AS_MAX_TOTAL_SOURCE_BYTES >> 20));
        return;
    }
    as->source_bytes += len;
    as_grow((void **)&as->files, &as->files_cap, as->nfiles + 1, sizeof(AsFile));
    f = &as->files[as->nfiles++];
    memset(f, 0, sizeof(*f));
    f->name = as_xstrndup(name, strlen(name));
    f->src = as_xstrndup(text, len);
    f->work = as_xstrndup(text, len);
    f->len = len;
}

int linx_as_read_stream(FILE *f, char **bufp, size_t *lenp)
{
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    *bufp = NULL;
    *lenp = 0;
    do {
        if (len + 4096 > cap) {
            char *nb;
            cap = cap ? cap * 2 : 65536;
            if (cap > LINX_AS_MAX_SOURCE_BYTES + 1) {
                cap = LINX_AS_MAX_SOURCE_BYTES + 1;
            }
            nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                return ENOMEM;
            }
            buf = nb;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len > LINX_AS_MAX_SOURCE_BYTES) {
            free(buf);
            return EFBIG;
        }
    } while (n > 0);
    if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(buf);
        return e;
    }
    buf[len] = '\0';
    *bufp = buf;
    *lenp = len;
    return 0;
}

/* Message text for a linx_as_read_stream() failure. */
const char *as_read_error(int e)
{
    return e == EFBIG ? "larger than 128 MiB (the input size limit)" : strerror(e);
}

bool linx_as_add_file(LinxAs *as, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t len;
    int e;

    if (!f) {
        as_error_nopos(as, "cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    e = linx_as_read_stream(f, &buf, &len);
    fclose(f);
    if (e) {
        as_error_nopos(as, "bad input: cannot read '%s': %s", path, as_read_error(e));
        return false;
    }
    linx_as_add_source(as, path, buf, len);
    free(buf);
    return true;
}

/* ---- pass 1 ----------------------------------------------------------------- */

static void define_label(LinxAs *as, AsStmt *st, uint32_t idx)
{
    const char *name = st->text;
    size_t n = strlen(name);
    uint32_t si;
    AsSymbol *s;

    if (as_is_digit((unsigned char)name[0])) {
        uint64_t num = 0;
        for (size_t i = 0; i < n; i++) {
            if (num > (UINT64_MAX - 9) / 10) {
                as_error(as, st, st->col, "bad label: local label number '%s' too large", name);
                return;
            }
            num = num * 10 + (uint64_t)(name[i] - '0');
        }
        st->is_numlabel = true;
        st->numlabel = num;
        as_numlabel_define(as, num, idx);
        return;
    }
    si = as_sym_intern(as, name, n);
    s = &as->syms[si];
    st->sym = si;
    if (s->defined) {
        as_error(as, st, st->col, "duplicate symbol: '%s' is already defined (%s:%u)", name,
                 as->files[s->def_file].name, s->def_line);
        return;
    }
    s->defined = true;
    s->is_address = true;
    s->sec = st->sec;
    s->value = (int64_t)st->off;
    s->def_file = st->file;
    s->def_line = st->line;
}

/* Report an encoder error; @text is what the encoder saw. */
static void insn_error(LinxAs *as, const AsStmt *st, const char *text, const LinxAsmError *e)
{
    unsigned col = st->col;

    if (text == st->text) {
        col += e->col;
    }
    if (strchr(e->msg, '\'')) {
        as_error(as, st, col, "%s", e->msg);
    } else {
        /* Quote the offending text when the encoder did not. */
        const char *p = text + (e->col < strlen(text) ? e->col : 0);
        size_t n = 0;
        while (p[n] && p[n] != ',' && !as_is_space((unsigned char)p[n]) && n < 40) {
            n++;
        }
        as_error(as, st, col, "%s (at '%.*s')", e->msg, (int)(n ? n : strlen(p)), p);
    }
}

/* Instructions live in PROGBITS sections at even offsets. */
static bool insn_place_ok(LinxAs *as, const AsStmt *st)
{
    const AsSection *s = &as->secs[as->cur_sec];

    if (s->type == ELF_SHT_NOBITS) {
        as_error(as, st, st->col, "bad directive: instruction in NOBITS section '%s'", s->name);
        return false;
    }
    if (s->lc & 1) {
        as_error(as, st, st->col,
                 "misaligned target: instruction at odd offset 0x%llx of '%s' (instructions are "
                 "halfword aligned; add .p2align 1)",
                 (unsigned long long)s->lc, s->name);
        return false;
    }
    return true;
}

/* The fused call spelling of clang's output and llvm-objdump,
 * "BSTART CALL, callee, ra=.Lret" (also HL.BSTART.STD CALL, ...): the call
 * header followed by a SETRET of .Lret (linx-isa docs/reference/
 * linxisa-call-ret-contract.md; LLVM's LinxISADisassembler prints the
 * pair this way).  On a match, st->rewritten gets the header alone and
 * st->ra_label the label. */
static void split_fused_call(AsStmt *st)
{
    const char *text = st->text;
    const char *comma = strrchr(text, ',');
    const char *p, *label, *end;

    while (*text == ' ' || *text == '\t') {
        text++;
    }
    if (!comma || (strncasecmp(text, "BSTART", 6) != 0 && strncasecmp(text, "HL.BSTART", 9) != 0 &&
                   strncasecmp(text, "C.BSTART", 8) != 0)) {
        return;
    }
    p = comma + 1;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (strncasecmp(p, "ra", 2) != 0) {
        return;
    }
    p += 2;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (*p != '=') {
        return;
    }
    label = ++p;
    while (*label == ' ' || *label == '\t') {
        label++;
    }
    end = label + strlen(label);
    while (end > label && (end[-1] == ' ' || end[-1] == '\t')) {
        end--;
    }
    if (end == label) {
        return;
    }
    st->ra_label = strndup(label, (size_t)(end - label));
    st->rewritten = strndup(st->text, (size_t)(comma - st->text));
}

/* SETRET of a fused call: 32 bits (+-1 MiB; LLVM's assembler would pick
 * c.setret when the label is within 62 bytes). */
enum { FUSED_SETRET_LEN = 4 };

static void pass1_insn(LinxAs *as, AsStmt *st)
{
    const char *text = st->text;
    LinxAsmError e;
    unsigned len;

    st->rewritten = as->in_seed_body ? as_seed_body_rewrite(st->text) : NULL;
    if (!st->rewritten) {
        split_fused_call(st);
    }
    if (st->rewritten) {
        text = st->rewritten;
    }
    memset(&e, 0, sizeof(e));
    len = linx_asm_insn_length(text, as->opt.insn_flags, &e);
    if (len == 0) {
        insn_error(as, st, text, &e);
        return;
    }
    if (st->ra_label) {
        len += FUSED_SETRET_LEN;
    }
    if (insn_place_ok(as, st)) {
        as_emit_fill(as, len, 0);
    }
}

void as_pass1_stmt(LinxAs *as, uint32_t idx)
{
    AsStmt *st = &as->stmts[idx];
    unsigned errs = as->errors;
    int sec = as->cur_sec;

    as->cur_stmt = idx;
    st->sec = sec;
    st->off = as->secs[sec].lc;
    switch (st->kind) {
    case AS_ST_LABEL:
        define_label(as, st, idx);
        break;
    case AS_ST_ASSIGN:
        as_assign_run(as, st);
        break;
    case AS_ST_DIRECTIVE:
        as_directive_run(as, st);
        break;
    case AS_ST_TEMPLATE:
        if (insn_place_ok(as, st) && as_template_parse(as, &as->stmts[idx])) {
            as_emit_fill(as, as->stmts[idx].size, 0);
        }
        break;
    default:
        pass1_insn(as, st);
        break;
    }
    st = &as->stmts[idx]; /* .include may have moved the array */
    st->size = as->secs[sec].lc - st->off;
    as_seed_body_track(as, st);
    if (as->errors != errs) {
        st->failed = true;
    }
}

/* ---- pass 2 ------------------------------------------------------------------ */

/* Encode @text at @pc of @st's section into @r; false after a message. */
static bool encode_one(LinxAs *as, AsStmt *st, const char *text, uint64_t pc, LinxAsmResult *r)
{
    bool failed = false;
    char *pcrel = as_pcrel_rewrite(as, st, text, pc, &failed);
    LinxAsmEnv env = {
        .pc = pc,
        .eval = as_expr_eval_cb,
        .opaque = as,
        .final = true,
        .flags = as->opt.insn_flags,
        .profile = as->opt.profile,
    };
    LinxAsmError e;

    memset(r, 0, sizeof(*r));
    memset(&e, 0, sizeof(e));
    if (failed) {
        return false;
    }
    if (pcrel) {
        text = pcrel;
    }
    if (!linx_asm_insn(text, &env, r, &e)) {
        insn_error(as, st, text, &e);
        free(pcrel);
        return false;
    }
    free(pcrel);
    return true;
}

/* A tile or kernel header holds only B.* descriptors (v0.4 block ISA,
 * digest 3.3): an ordinary instruction there is almost always a mistake
 * (the program later dies of an unrelated trap), so say so. */
static void check_header(LinxAs *as, const AsStmt *st, const LinxAsmResult *r)
{
    LinxInsn insn;
    LinxBlockType type;
    unsigned func;
    const char *m;

    if (linx_decode(r->bytes, r->len, &insn) != LINX_DECODE_OK || insn.form >= LINX_F__COUNT) {
        return;
    }
    m = linx_forms[insn.form].mnemonic;
    if (linx_header_form(&insn, &type, &func)) {
        as->in_header = true;
        as->header_warned = false;
        as->header_line = st->line;
        return;
    }
    if (strncasecmp(m, "B.", 2) == 0 || strncasecmp(m, "C.B.", 4) == 0) {
        return; /* a descriptor */
    }
    if (as->in_header && !as->header_warned && linx_forms[insn.form].uop != LINX_UOP_BBD &&
        strcmp(linx_forms[insn.form].group, "Block Split") != 0 &&
        strncasecmp(m, "BSTART", 6) != 0 && strncasecmp(m, "C.BSTART", 8) != 0 &&
        strncasecmp(m, "HL.BSTART", 9) != 0) {
        as_warning(as, st, st->col,
                   "'%s' inside the tile header of line %u: a header holds only B.* "
                   "descriptors (start a block, e.g. C.BSTART.STD, before it)", m,
                   as->header_line);
        as->header_warned = true;
    }
    as->in_header = false;
}

static void pass2_insn(LinxAs *as, AsStmt *st)
{
    const char *text = st->rewritten ? st->rewritten : st->text;
    uint64_t pc = as->secs[st->sec].addr + st->off;
    uint64_t size = st->size - (st->ra_label ? FUSED_SETRET_LEN : 0);
    LinxAsmResult r, sr;

    if (!encode_one(as, st, text, pc, &r)) {
        return;
    }
    if (r.len != size || r.len > sizeof(r.bytes)) {
        as_error(as, st, st->col, "internal error: instruction length %u differs from pass 1 (%llu)",
                 r.len, (unsigned long long)size);
        return;
    }
    if (st->ra_label) {
        char setret[512];
        snprintf(setret, sizeof(setret), "setret %s, ->ra", st->ra_label);
        if (!encode_one(as, st, setret, pc + r.len, &sr)) {
            return;
        }
        if (sr.len != FUSED_SETRET_LEN) {
            as_error(as, st, st->col, "internal error: fused call SETRET of %u bytes", sr.len);
            return;
        }
    }
    check_header(as, st, &r);
    as_emit(as, r.bytes, r.len);
    if (st->ra_label) {
        as_emit(as, sr.bytes, sr.len);
    }
}

static void pass2(LinxAs *as)
{
    as->pass = 2;
    for (uint32_t i = 0; i < as->nstmts && !as_too_many_errors(as); i++) {
        AsStmt *st = &as->stmts[i];

        as->cur_stmt = i;
        as->cur_sec = st->sec;
        as->secs[st->sec].lc = st->off;
        if (st->failed) {
            continue;
        }
        switch (st->kind) {
        case AS_ST_LABEL:
            break;
        case AS_ST_ASSIGN:
            as_assign_run(as, st);
            break;
        case AS_ST_DIRECTIVE:
            as_directive_run(as, st);
            break;
        case AS_ST_TEMPLATE:
            as_template_emit(as, st);
            break;
        default:
            pass2_insn(as, st);
            break;
        }
    }
}

static void resolve_entry(LinxAs *as)
{
    const char *e = as->opt.entry;
    int text = as_section_find(as, ".text");
    AsSymbol *s;

    as->entry = text >= 0 ? as->secs[text].addr : as->opt.base;
    if (!e) {
        s = as_sym_find(as, "_start", strlen("_start"));
        if (s && s->defined && s->sec >= 0) {
            as->entry = as->secs[s->sec].addr + (uint64_t)s->value;
        }
        return;
    }
    if (as_is_digit((unsigned char)e[0])) {
        char *end;
        errno = 0;
        as->entry = strtoull(e, &end, 0);
        if (*end || errno) {
            as_error_nopos(as, "bad option: entry address '%s' is not a number", e);
        }
        return;
    }
    s = as_sym_find(as, e, strlen(e));
    if (!s || !s->defined) {
        as_error_nopos(as, "undefined symbol: entry point '%s' is not defined", e);
        return;
    }
    {
        AsValue v;
        char err[AS_ERRLEN];
        if (!as_sym_value(as, s, &v, err, sizeof(err)) || !v.known) {
            as_error_nopos(as, "undefined symbol: entry point '%s' has no value", e);
            return;
        }
        as->entry = (uint64_t)v.v;
    }
}

bool linx_as_assemble(LinxAs *as)
{
    uint32_t nmain = as->nfiles;

    if (as->pass != 0) {
        return as->assembled;
    }
    as->pass = 1;
    for (uint32_t fi = 0; fi < nmain && !as->ended; fi++) {
        as->in_seed_body = false;
        as_lex_file(as, fi);
    }
    if (!as_too_many_errors(as)) {
        for (int i = 0; i < as->nsecs; i++) {
            as->secs[i].size = as->secs[i].lc;
            as->secs[i].lc = 0;
        }
        as_layout(as);
        as_sections_alloc_data(as);
        pass2(as);
    }
    if (as->errors == 0) {
        resolve_entry(as);
    }
    if (as->errors == 0) {
        as_debug_finish(as);
    }
    as_diag_sort(as);
    as->assembled = as->errors == 0;
    return as->assembled;
}

/* ---- queries ----------------------------------------------------------------- */

bool linx_as_symbol_value(const LinxAs *as, const char *name, uint64_t *value)
{
    AsSymbol *s = as_sym_find(as, name, strlen(name));
    AsValue v;
    char err[AS_ERRLEN];

    if (!as->assembled || !s || !s->defined) {
        return false;
    }
    if (!as_sym_value((LinxAs *)as, s, &v, err, sizeof(err)) || !v.known) {
        return false;
    }
    *value = (uint64_t)v.v;
    return true;
}

bool linx_as_section(const LinxAs *as, const char *name, uint64_t *addr, uint64_t *size,
                     const uint8_t **data)
{
    int i = as_section_find(as, name);

    if (!as->assembled || i < 0) {
        return false;
    }
    *addr = as->secs[i].addr;
    *size = as->secs[i].size;
    *data = as->secs[i].data;
    return true;
}

uint64_t linx_as_entry(const LinxAs *as)
{
    return as->entry;
}

unsigned linx_as_line_count(const LinxAs *as)
{
    return as->total_lines;
}
