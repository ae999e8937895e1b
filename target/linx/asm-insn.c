/*
 * One-instruction assembler (asm-insn.h): matches the text against the
 * syntax templates of every form (disas-syntax.h, the same table the
 * disassembler prints from), encodes the first match whose values fit and
 * whose catalog constraints hold.
 *
 * Order: with LINX_ASM_F_LEGACY_DTYPE the legacy templates of all forms
 * are tried first (so "BSTART.STD DIRECT, x" means the simm25 header, as
 * in the v0.3 listings), then the printed and alternative templates.
 * When nothing matches, the error of the attempt that got furthest is
 * reported, a value error (range, alignment) before a syntax error.
 *
 * Also accepted: ".insn 0x<hex>" (raw bits, the disassembler's spelling
 * of undecodable words) and a trailing "{Field=value, ...}" list that sets
 * fields the syntax does not show.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm-insn-internal.h"
#include "profile.h"
#include "decode.h"

/* ---- Errors, tokens, literals -------------------------------------------- */

bool asm_fail(AsmCtx *c, const char *at, AsmErrLevel level, const char *fmt, ...)
{
    unsigned col = (unsigned)(at - c->text);
    va_list ap;

    /* Keep the first error of the deepest kind at the furthest column. */
    if (level > c->level || (level == c->level && col > c->col)) {
        c->level = level;
        c->col = col;
        va_start(ap, fmt);
        vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
        va_end(ap);
    }
    return false;
}

const char *asm_skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    return p;
}

bool asm_is_ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '#';
}

size_t asm_token_len(const char *p, bool dots)
{
    size_t n = 0;

    while (asm_is_ident_char(p[n]) || (dots && p[n] == '.')) {
        n++;
    }
    return n;
}

bool asm_match_lit(AsmCtx *c, const char *lit)
{
    const char *p = c->p;

    for (const char *l = lit; *l; l++) {
        if (*l == ' ' || *l == '\t') {
            const char *q = asm_skip_ws(p);
            /* Two words need white space between them. */
            if (q == p && p > c->text && asm_is_ident_char(p[-1]) && asm_is_ident_char(*p) &&
                l > lit) {
                return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected white space");
            }
            p = q;
            while (l[1] == ' ' || l[1] == '\t') {
                l++;
            }
            continue;
        }
        if (!asm_is_ident_char(*l) || l == lit || !asm_is_ident_char(l[-1])) {
            p = asm_skip_ws(p);
        }
        if ((*p | 0x20) != (*l | 0x20) || *p == '\0') {
            char want[64];
            size_t n = 0;
            for (const char *q = lit; *q && n + 1 < sizeof(want); q++) {
                if (*q != '\t' && !(*q == ' ' && (n == 0 || want[n - 1] == ' '))) {
                    want[n++] = *q;
                }
            }
            while (n && want[n - 1] == ' ') {
                n--;
            }
            want[n] = '\0';
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected '%s'", want);
        }
        p++;
    }
    /* A literal ending in a word must not run into another word. */
    if (*lit && asm_is_ident_char(lit[strlen(lit) - 1]) && asm_is_ident_char(*p)) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: unexpected '%c'", *p);
    }
    c->p = p;
    return true;
}

bool asm_accept(AsmCtx *c, const char *word)
{
    const char *p = asm_skip_ws(c->p);
    size_t n = strlen(word);

    if (strncasecmp(p, word, n) != 0) {
        return false;
    }
    if (asm_is_ident_char(word[n - 1]) && asm_is_ident_char(p[n])) {
        return false;
    }
    c->p = p + n;
    return true;
}

/* ---- Field values ---------------------------------------------------------- */

static uint64_t covered_bits(const LinxFormField *f)
{
    const LinxFieldPiece *p = linx_field_pieces(f);
    uint64_t m = 0;

    for (int i = 0; i < f->piece_count; i++) {
        m |= ((UINT64_C(1) << p[i].width) - 1) << p[i].value_lsb;
    }
    return m;
}

bool asm_set_field(AsmCtx *c, unsigned fid, int64_t value, const char *at, const char *what,
                   unsigned scale_log2)
{
    int slot = linx_form_field_slot(c->form, (LinxFieldId)fid);
    const LinxFormField *f;
    int64_t lo, hi, align;

    if (slot < 0) {
        return asm_fail(c, at, ASM_ERR_SYNTAX,
                        "wrong operand kind: operand not available in this form");
    }
    f = &linx_form_fields(c->form)[slot];
    if (f->is_signed) {
        lo = -((int64_t)1 << (f->width - 1));
        hi = ((int64_t)1 << (f->width - 1)) - 1;
    } else {
        lo = 0;
        hi = f->width >= 63 ? INT64_MAX : ((int64_t)1 << f->width) - 1;
    }
    align = (int64_t)(covered_bits(f) & -covered_bits(f));
    if (value < lo || value > hi) {
        bool imm = strcmp(what, "immediate") == 0;
        return asm_fail(
            c, at, ASM_ERR_SEMANTIC,
            "immediate out of range: %" PRId64 " not in [%" PRId64 ", %" PRId64 "]%s%s%s",
            (int64_t)((uint64_t)value << scale_log2), (int64_t)((uint64_t)lo << scale_log2),
            (int64_t)((uint64_t)hi << scale_log2), imm ? "" : " (", imm ? "" : what,
            imm ? "" : ")");
    }
    if (align > 1 && value % align != 0) {
        return asm_fail(c, at, ASM_ERR_SEMANTIC,
                        "misaligned %s: %" PRId64 " is not a multiple of %" PRId64,
                        strstr(what, "target") ? "target" : "immediate",
                        (int64_t)((uint64_t)value << scale_log2), align << scale_log2);
    }
    c->val[slot] = value;
    c->set |= 1u << slot;
    return true;
}

/* ---- Expressions ------------------------------------------------------------ */

/* A plain integer: [-+]decimal, 0x hex, 0b binary. */
static bool parse_number(const char **pp, int64_t *value)
{
    const char *p = *pp;
    bool neg = false;
    uint64_t v = 0;
    int base = 10, digits = 0;

    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    }
    for (;; p++, digits++) {
        int d;
        if (*p >= '0' && *p <= '9') {
            d = *p - '0';
        } else if (base == 16 && ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')) {
            d = (*p | 0x20) - 'a' + 10;
        } else {
            break;
        }
        if (d >= base) {
            return false;
        }
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (!digits || asm_is_ident_char(*p)) {
        return false;
    }
    *value = neg ? (int64_t)(0 - v) : (int64_t)v;
    *pp = p;
    return true;
}

/* Skip an expression without evaluating it (length pass). */
static bool skip_expr(const char **pp)
{
    const char *p = *pp;
    int depth = 0;

    while (*p && !(depth == 0 && (*p == ',' || *p == ']' || *p == '}' || *p == '{'))) {
        if (*p == '(') {
            depth++;
        } else if (*p == ')') {
            if (--depth < 0) {
                break;
            }
        }
        p++;
    }
    while (p > *pp && (p[-1] == ' ' || p[-1] == '\t')) {
        p--;
    }
    if (p == *pp) {
        return false;
    }
    *pp = p;
    return true;
}

static bool is_register_name(const char *p, size_t n)
{
    return linx_syn_parse_reg5(p, n) >= 0 || linx_syn_token_eq(p, n, "t") ||
           linx_syn_token_eq(p, n, "u") || linx_syn_regid10_parse(p, n) >= 0;
}

bool asm_expr(AsmCtx *c, int64_t *value, bool *known)
{
    const char *p = asm_skip_ws(c->p);
    size_t n = asm_token_len(p, false);
    char err[200];

    *known = true;
    *value = 0;
    if (n && !(p[0] >= '0' && p[0] <= '9') && is_register_name(p, n) && p[n] != '(') {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected an expression, found register '%.*s'", (int)n,
                        p);
    }
    if (c->layout_only) {
        if (!skip_expr(&p)) {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected an expression");
        }
        *known = false;
        c->p = p;
        return true;
    }
    if (c->env && c->env->eval) {
        const char *q = p;
        err[0] = '\0';
        if (!c->env->eval(c->env->opaque, &q, value, known, err, sizeof(err))) {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "bad expression: %s",
                            err[0] ? err : "cannot parse");
        }
        if (q == p) {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected an expression");
        }
        if (!*known && c->env->final) {
            return asm_fail(c, p, ASM_ERR_SEMANTIC, "undefined symbol: '%.*s'", (int)(q - p), p);
        }
        if (!*known) {
            *value = 0;
        }
        c->p = q;
        return true;
    }
    if (!parse_number(&p, value)) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected a number");
    }
    c->p = p;
    return true;
}

/* ---- Overrides, raw words ------------------------------------------------------ */

/* Trailing " {Field=value, ...}": fields the syntax does not show. */
static bool parse_overrides(AsmCtx *c)
{
    const LinxFormInfo *fi = linx_form(c->form);
    const LinxFormField *f = linx_form_fields(c->form);
    const char *p = asm_skip_ws(c->p);

    if (*p != '{') {
        return true;
    }
    p++;
    for (;;) {
        const char *name;
        size_t n;
        int slot = -1;
        int64_t v;

        p = asm_skip_ws(p);
        name = p;
        n = asm_token_len(p, false);
        for (int i = 0; i < fi->field_count; i++) {
            if (linx_syn_token_eq(name, n, linx_field_names[f[i].id])) {
                slot = i;
            }
        }
        if (slot < 0) {
            return asm_fail(c, name, ASM_ERR_SYNTAX, "wrong operand kind: no field '%.*s' in %s",
                            (int)n, name, fi->mnemonic);
        }
        p = asm_skip_ws(p + n);
        if (*p != '=') {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected '='");
        }
        p = asm_skip_ws(p + 1);
        if (!parse_number(&p, &v)) {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected a number");
        }
        c->p = p;
        if (!asm_set_field(c, f[slot].id, v, name, linx_field_names[f[slot].id], 0)) {
            return false;
        }
        p = asm_skip_ws(p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p != '}') {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected ',' or '}'");
        }
        c->p = p + 1;
        return true;
    }
}

static void put_bytes(LinxAsmResult *out, uint64_t packed, unsigned len, int form)
{
    memset(out->bytes, 0, sizeof(out->bytes));
    for (unsigned i = 0; i < len; i++) {
        out->bytes[i] = (uint8_t)(packed >> (8 * i));
    }
    out->len = len;
    out->form = form;
}

/* ".insn 0x<4, 8, 12 or 16 hex digits>": the disassembler's spelling of
 * an undecodable word.  Returns 0 when @text is not one, 1 on success,
 * -1 on a malformed one. */
static int parse_raw(const char *text, LinxAsmResult *out, LinxAsmError *err)
{
    const char *p = asm_skip_ws(text), *start;
    uint64_t v = 0;
    unsigned digits = 0;

    if (strncasecmp(p, ".insn", 5) != 0 || (p[5] != ' ' && p[5] != '\t')) {
        return 0;
    }
    p = asm_skip_ws(p + 5);
    start = p;
    if (p[0] != '0' || (p[1] | 0x20) != 'x') {
        goto bad;
    }
    for (p += 2; (*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f'); p++) {
        v = v << 4 | (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
        digits++;
    }
    if (*asm_skip_ws(p) || (digits != 4 && digits != 8 && digits != 12 && digits != 16) ||
        linx_insn_length((uint16_t)v) != digits / 2) {
        goto bad;
    }
    LinxInsn insn;
    linx_decode_packed(v, digits / 2, &insn);
    put_bytes(out, v, digits / 2, insn.form);
    return 1;
bad:
    err->col = (unsigned)(start - text);
    snprintf(err->msg, sizeof(err->msg),
             "bad raw instruction: expected 0x and 4, 8, 12 or 16 hex digits whose first "
             "halfword gives that length");
    return -1;
}

/* ---- Matching ------------------------------------------------------------------ */

static const char *const cons_ops[] = { "!=", ">=", "==", "<" };

static bool encode(AsmCtx *c, LinxAsmResult *out)
{
    const LinxFormInfo *fi = linx_form(c->form);
    const LinxFormField *f = linx_form_fields(c->form);
    uint64_t packed = fi->match;

    for (int i = 0; i < fi->field_count; i++) {
        if (!linx_field_insert(&f[i], c->val[i], &packed)) {
            return asm_fail(c, c->p, ASM_ERR_SEMANTIC, "immediate out of range: %s field %s",
                            fi->mnemonic, linx_field_names[f[i].id]);
        }
    }
    if (!c->layout_only && !linx_form_constraints_ok(c->form, packed)) {
        const LinxConstraint *k = linx_form_constraints(c->form);
        return asm_fail(c, c->text, ASM_ERR_SEMANTIC, "wrong operand kind: %s needs %s %s %d",
                        fi->mnemonic, linx_field_names[k->field], cons_ops[k->op], (int)k->value);
    }
    put_bytes(out, packed, fi->length, (int)c->form);
    return true;
}

/* The operand parsers store a SrcRType suffix as its modifier (.sw 1,
 * .uw 2, .neg/.not 3, none 0: LinxSrcRMod); the ISA profile says which
 * code each one has.  Only where the template shows the field: a field
 * the syntax does not show comes raw from a {SrcRType=N} override. */
static void srcr_mods_to_codes(AsmCtx *c, const LinxSynItem *items, unsigned count)
{
    const LinxProfile *prof =
        c->env && c->env->profile ? c->env->profile : linx_profile_default();
    int slot = linx_form_field_slot(c->form, LINX_FLD_SrcRType);

    if (slot < 0) {
        return;
    }
    for (unsigned i = 0; i < count; i++) {
        if ((items[i].kind == LINX_SYN_RS || items[i].kind == LINX_SYN_VIDX) &&
            items[i].fld[1] == LINX_FLD_SrcRType) {
            c->val[slot] = linx_srcr_code(prof, (LinxSrcRMod)(c->val[slot] & 3));
            return;
        }
    }
}

static bool try_template(AsmCtx *c, const LinxSynTemplate *t, LinxAsmResult *out)
{
    const LinxSynItem *items = linx_syn_items(t);

    c->form = t->form;
    c->p = asm_skip_ws(c->text);
    c->set = 0;
    memset(c->val, 0, sizeof(c->val));
    for (unsigned i = 0; i < t->count; i++) {
        bool ok = items[i].kind == LINX_SYN_LIT ? asm_match_lit(c, items[i].text)
                                                : asm_parse_item(c, &items[i]);
        if (!ok) {
            return false;
        }
    }
    srcr_mods_to_codes(c, items, t->count);
    if (!parse_overrides(c)) {
        return false;
    }
    c->p = asm_skip_ws(c->p);
    if (*c->p) {
        return asm_fail(c, c->p, ASM_ERR_SYNTAX, "wrong operand kind: unexpected '%s'", c->p);
    }
    return encode(c, out);
}

/* Templates whose key fits one first word (the most is well under 64). */
#define ASM_MAX_CANDIDATES 64

/* Run the template matcher; true with @out filled on success. */
static bool assemble(AsmCtx *c, LinxAsmResult *out, LinxAsmError *err)
{
    const char *start = asm_skip_ws(c->text);
    size_t word = strcspn(start, " \t");
    uint16_t cand[ASM_MAX_CANDIDATES];
    unsigned ncand;
    int pass;

    if (!*start) {
        err->col = 0;
        snprintf(err->msg, sizeof(err->msg), "empty instruction");
        return false;
    }
    ncand = linx_syn_candidates(start, word, cand, ASM_MAX_CANDIDATES);
    if (ncand > ASM_MAX_CANDIDATES) {
        ncand = ASM_MAX_CANDIDATES; /* cannot happen with the generated keys */
    }
    for (pass = c->legacy ? 0 : 1; pass < 2; pass++) {
        for (unsigned i = 0; i < ncand; i++) {
            const LinxSynTemplate *t = linx_syn_template(cand[i]);
            bool legacy_t = t->kind == LINX_SYN_T_LEGACY;
            if (legacy_t != (pass == 0)) {
                continue;
            }
            if (try_template(c, t, out)) {
                return true;
            }
        }
    }
    if (c->level == ASM_ERR_NONE ||
        (c->level == ASM_ERR_SYNTAX && c->col < (unsigned)(start - c->text) + word)) {
        err->col = (unsigned)(start - c->text);
        snprintf(err->msg, sizeof(err->msg), "unknown mnemonic: '%.*s'", (int)word, start);
        return false;
    }
    err->col = c->col;
    snprintf(err->msg, sizeof(err->msg), "%s", c->msg);
    return false;
}

unsigned linx_asm_insn_length(const char *text, unsigned flags, LinxAsmError *err)
{
    AsmCtx c = { .text = text,
                 .legacy = (flags & LINX_ASM_F_LEGACY_DTYPE) != 0,
                 .layout_only = true };
    LinxAsmResult r;
    LinxAsmError e;
    int raw = parse_raw(text, &r, err ? err : &e);

    if (raw) {
        return raw > 0 ? r.len : 0;
    }
    if (!assemble(&c, &r, err ? err : &e)) {
        return 0;
    }
    return r.len;
}

bool linx_asm_insn(const char *text, const LinxAsmEnv *env, LinxAsmResult *out, LinxAsmError *err)
{
    AsmCtx c = { .text = text,
                 .env = env,
                 .legacy = env && (env->flags & LINX_ASM_F_LEGACY_DTYPE) };
    int raw = parse_raw(text, out, err);

    if (raw) {
        return raw > 0;
    }
    return assemble(&c, out, err);
}
