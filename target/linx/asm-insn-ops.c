/*
 * Operand parsers of the one-instruction assembler: one per syntax kind
 * (disas-syntax.h), each the inverse of the printer in disas.c.  They read
 * at c->p, store field values with asm_set_field() and advance c->p, or
 * fail with an error naming what was expected.  This file has the scalar
 * kinds, the shared helpers and the dispatcher; asm-insn-tile.c has the
 * block-descriptor and kernel-register kinds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm-insn-internal.h"
#include "profile.h"

enum {
    REG5_PUSH_T = 31,
    REG5_PUSH_U = 30,
    BR_TYPE_FALL = 1,
};

/* ---- Small helpers ---------------------------------------------------------- */

const char *asm_tok_start(AsmCtx *c)
{
    c->p = asm_skip_ws(c->p);
    return c->p;
}

/* A 5-bit register name at c->p. */
bool asm_parse_reg5(AsmCtx *c, int *reg)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);

    *reg = n ? linx_syn_parse_reg5(p, n) : -1;
    if (*reg < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a register, found '%.*s'", (int)(n ? n : 1),
                        p);
    }
    c->p = p + n;
    return true;
}

bool asm_set(AsmCtx *c, unsigned fid, int64_t v, const char *at)
{
    return asm_set_field(c, fid, v, at, "immediate", 0);
}

/* "<<N" if present: *@shift = N, true; false (nothing consumed) if absent. */
bool asm_parse_shift(AsmCtx *c, int64_t *shift, bool *present)
{
    const char *p = asm_skip_ws(c->p);
    int64_t v = 0;
    int digits = 0;

    *present = false;
    if (p[0] != '<' || p[1] != '<') {
        return true;
    }
    p = asm_skip_ws(p + 2);
    while (*p >= '0' && *p <= '9' && digits < 4) {
        v = v * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a shift amount after '<<'");
    }
    *shift = v;
    *present = true;
    c->p = p;
    return true;
}

/* ".sw" ".uw" ".neg" ".not" after an index register: the SrcRType
 * modifier (LinxSrcRMod; try_template turns it into the profile's code). */
int asm_parse_srcr_type(AsmCtx *c)
{
    static const char *const names[] = { ".sw", ".uw", ".neg", ".not" };
    static const int codes[] = { LINX_SRCR_SW, LINX_SRCR_UW, LINX_SRCR_NEG, LINX_SRCR_NEG };

    for (unsigned i = 0; i < 4; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(c->p, names[i], n) == 0 && !asm_is_ident_char(c->p[n])) {
            c->p += n;
            return codes[i];
        }
    }
    return 0;
}

/* ---- Kinds ------------------------------------------------------------------ */

static bool parse_d(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);
    int reg;

    if (linx_syn_token_eq(p, n, "t")) {
        reg = REG5_PUSH_T;
    } else if (linx_syn_token_eq(p, n, "u")) {
        reg = REG5_PUSH_U;
    } else if ((reg = n ? linx_syn_parse_reg5(p, n) : -1) < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a destination (t, u or a register)");
    }
    c->p = p + n;
    return asm_set(c, it->fld[0], reg, p);
}

static bool parse_rs(AsmCtx *c, const LinxSynItem *it)
{
    const char *p;
    int reg, type;
    int64_t sh = 0;
    bool have;
    unsigned fixed = it->arg & LINX_SYN_RS_SHIFT_MASK;

    if (!asm_parse_reg5(c, &reg) || !asm_set(c, it->fld[0], reg, c->p)) {
        return false;
    }
    p = c->p;
    type = asm_parse_srcr_type(c);
    if (type) {
        if (it->fld[1] == LINX_SYN_NOFIELD) {
            return asm_fail(c, p, ASM_ERR_SYNTAX,
                            "wrong operand kind: no operand type allowed here");
        }
        if (!asm_set(c, it->fld[1], type, p)) {
            return false;
        }
    }
    p = c->p;
    if (!asm_parse_shift(c, &sh, &have)) {
        return false;
    }
    if (it->fld[2] != LINX_SYN_NOFIELD) {
        return !have || asm_set_field(c, it->fld[2], sh, p, "shift", 0);
    }
    if (have && sh != (int64_t)fixed) {
        return asm_fail(c, p, ASM_ERR_SEMANTIC, "wrong operand kind: shift must be <<%u here",
                        fixed);
    }
    return true;
}

static bool parse_i(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    int64_t v;
    bool known;
    unsigned scale_log2 = it->arg & LINX_SYN_I_SCALE_MASK;
    int64_t scale = (int64_t)1 << scale_log2;
    const LinxFormField *f = asm_field_of(c, it->fld[0]);

    if (!asm_expr(c, &v, &known)) {
        return false;
    }
    if (v % scale != 0) {
        return asm_fail(c, p, ASM_ERR_SEMANTIC,
                        "misaligned immediate: %" PRId64 " is not a multiple of %" PRId64, v,
                        scale);
    }
    /* A sign-extended field takes [-2^(w-1), 2^w): negative values wrap. */
    if ((it->arg & LINX_SYN_I_SEXT) && f && f->width < 63 && v < 0 &&
        v >= -((int64_t)1 << (f->width - 1))) {
        v += (int64_t)1 << f->width;
    }
    return asm_set_field(c, it->fld[0], v / scale, p, "immediate", scale_log2);
}

const LinxFormField *asm_field_of(AsmCtx *c, unsigned fid)
{
    int slot = linx_form_field_slot(c->form, (LinxFieldId)fid);

    return slot < 0 ? NULL : &linx_form_fields(c->form)[slot];
}

/* SETC immediate: "value" (the assembler picks the shamt) or "imm<<shamt". */
static bool parse_sh(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c), *q = p;
    const LinxFormField *f = asm_field_of(c, it->fld[0]);
    int64_t v, imm, sh;
    bool known, have;

    /* The explicit spelling is a plain number followed by "<<N". */
    if ((*q == '-' || (*q >= '0' && *q <= '9'))) {
        const char *r = q + (*q == '-');
        while ((*r >= '0' && *r <= '9') || *r == 'x' || (*r >= 'a' && *r <= 'f')) {
            r++;
        }
        r = asm_skip_ws(r);
        if (r[0] == '<' && r[1] == '<') {
            /* Read the number itself: an expression evaluator would take
             * "618<<30" as one value. */
            char *end;
            imm = (int64_t)strtoll(q, &end, 0);
            if (end == q) {
                return asm_fail(c, q, ASM_ERR_SYNTAX, "wrong operand kind: expected a number");
            }
            c->p = r;
            if (!asm_parse_shift(c, &sh, &have)) {
                return false;
            }
            return asm_set_field(c, it->fld[0], imm, p, "immediate", 0) &&
                   asm_set_field(c, it->fld[1], sh, p, "shift", 0);
        }
    }
    if (!asm_expr(c, &v, &known)) {
        return false;
    }
    {
        const LinxFormField *sf = asm_field_of(c, it->fld[1]);
        int k = linx_syn_setc_shamt(v, f, sf ? (1u << sf->width) - 1 : 0);
        if (k >= 0) {
            return asm_set_field(c, it->fld[1], k, p, "shift", 0) &&
                   asm_set_field(c, it->fld[0], v >> k, p, "immediate", 0);
        }
    }
    return asm_fail(c, p, ASM_ERR_SEMANTIC,
                    "immediate out of range: %" PRId64
                    " is not a %s-bit %s immediate shifted left by up to 31",
                    v, f->width == 12 ? "12" : "24", f->is_signed ? "signed" : "unsigned");
}

static bool parse_pc(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    const LinxFormField *f = asm_field_of(c, it->fld[0]);
    unsigned shift = it->arg & LINX_SYN_PC_SHIFT_MASK;
    uint64_t base = c->env ? c->env->pc : 0;
    int64_t target, off;
    bool known;

    base += 2u * (it->arg >> LINX_SYN_PC_BASE_SHIFT);
    if (!asm_expr(c, &target, &known)) {
        return false;
    }
    if (!known || c->layout_only) {
        return true;
    }
    off = (int64_t)((uint64_t)target - base);
    if (off & (((int64_t)1 << shift) - 1)) {
        return asm_fail(c, p, ASM_ERR_SEMANTIC,
                        "misaligned target: 0x%" PRIx64
                        " is not a multiple of %d bytes from 0x%" PRIx64,
                        (uint64_t)target, 1 << shift, base);
    }
    off >>= shift;
    if ((it->arg & LINX_SYN_PC_SEXT) && f && !f->is_signed) {
        int64_t lim = (int64_t)1 << (f->width - 1);
        if (off < -lim || off >= lim) {
            return asm_fail(c, p, ASM_ERR_SEMANTIC,
                            "immediate out of range: target 0x%" PRIx64 " not in [0x%" PRIx64
                            ", 0x%" PRIx64 "]",
                            (uint64_t)target, base - ((uint64_t)lim << shift),
                            base + ((uint64_t)(lim - 1) << shift));
        }
        off &= (int64_t)((UINT64_C(1) << f->width) - 1);
    } else if (f) {
        int64_t lo = f->is_signed ? -((int64_t)1 << (f->width - 1)) : 0;
        int64_t hi =
            f->is_signed ? ((int64_t)1 << (f->width - 1)) - 1 : ((int64_t)1 << f->width) - 1;
        /* Fields whose value starts at bit 1 (HL.BSTART simm[29:1]). */
        if (off < lo || off > hi) {
            return asm_fail(c, p, ASM_ERR_SEMANTIC,
                            "immediate out of range: target 0x%" PRIx64 " not in [0x%" PRIx64
                            ", 0x%" PRIx64 "]",
                            (uint64_t)target, base + ((uint64_t)lo << shift),
                            base + ((uint64_t)hi << shift));
        }
    }
    return asm_set_field(c, it->fld[0], off, p, "target offset", shift);
}

static bool parse_fall(AsmCtx *c, const LinxSynItem *it)
{
    const char *save = c->p;

    if (!asm_accept(c, "FALL")) {
        c->p = save;
        return true;
    }
    if (*asm_skip_ws(c->p) != ',') {
        return true;
    }
    c->p = asm_skip_ws(c->p) + 1;
    return parse_pc(c, it);
}

static bool parse_brt(AsmCtx *c, const LinxSynItem *it)
{
    static const char *const names[8] = { "",     "FALL", "DIRECT", "COND",
                                          "CALL", "IND",  "ICALL",  "RET" };
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);

    if (n == 0) {
        return asm_set(c, it->fld[0], BR_TYPE_FALL, p);
    }
    for (int i = 1; i < 8; i++) {
        if (linx_syn_token_eq(p, n, names[i])) {
            c->p = p + n;
            return asm_set(c, it->fld[0], i, p);
        }
    }
    if (n == 1 && *p == '0') {
        c->p = p + 1;
        return asm_set(c, it->fld[0], 0, p);
    }
    return asm_fail(c, p, ASM_ERR_SYNTAX,
                    "wrong operand kind: expected a branch kind (FALL, DIRECT, COND, CALL, "
                    "IND, ICALL, RET)");
}

static bool parse_enum(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, true);
    int v = n ? linx_syn_enum_parse((LinxSynEnum)it->arg, p, n, c->legacy) : -1;

    if (v < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: unknown name '%.*s'",
                        (int)(n ? n : 1), p);
    }
    c->p = p + n;
    return asm_set_field(c, it->fld[0], v, p, "value", 0);
}

static bool parse_ll(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, true);

    if (linx_syn_token_eq(p, n, it->text) || linx_syn_token_eq(p, n, it->text2)) {
        c->p = p + n;
        return true;
    }
    return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected %s", it->text);
}

static bool parse_rr(AsmCtx *c, const LinxSynItem *it)
{
    int b, e;

    if (!asm_match_lit(c, "[") || !asm_parse_reg5(c, &b) || !asm_set(c, it->fld[0], b, c->p) ||
        !asm_match_lit(c, "~") || !asm_parse_reg5(c, &e) || !asm_set(c, it->fld[1], e, c->p)) {
        return false;
    }
    return asm_match_lit(c, "]");
}

/* Suffix letters ".aqrl", ".ie", ...: each @letters[i] sets field @fld[i]. */
static bool parse_suffix_letters(AsmCtx *c, const char *const *letters, const uint8_t *fld,
                                 unsigned count)
{
    const char *p = c->p, *q;
    uint32_t seen = 0;

    if (*p != '.') {
        return true;
    }
    q = p + 1;
    while (asm_is_ident_char(*q)) {
        bool found = false;
        for (unsigned i = 0; i < count; i++) {
            size_t n = strlen(letters[i]);
            if (fld[i] != LINX_SYN_NOFIELD && !(seen & (1u << i)) &&
                strncasecmp(q, letters[i], n) == 0) {
                seen |= 1u << i;
                q += n;
                found = true;
                break;
            }
        }
        if (!found) {
            return true; /* not this suffix (e.g. ".local"): leave it */
        }
    }
    for (unsigned i = 0; i < count; i++) {
        if ((seen >> i) & 1 && !asm_set(c, fld[i], 1, p)) {
            return false;
        }
    }
    c->p = q;
    return true;
}

static bool parse_ord(AsmCtx *c, const LinxSynItem *it)
{
    static const char *const letters[4] = { "aq", "rl", "f", "rd" };
    static const unsigned order[4] = { 0, 1, 3, 2 }; /* aq rl rd f */
    const char *l[4];
    uint8_t f[4];

    /* "rd" must be tried before "f"/"r": order the table as printed. */
    for (unsigned k = 0; k < 4; k++) {
        l[k] = letters[order[k]];
        f[k] = it->fld[order[k]];
    }
    return parse_suffix_letters(c, l, f, 4);
}

static bool parse_flags(AsmCtx *c, const LinxSynItem *it)
{
    char names[LINX_SYN_MAX_ITEM_FIELDS][2];
    const char *l[LINX_SYN_MAX_ITEM_FIELDS];

    for (unsigned i = 0; i < LINX_SYN_MAX_ITEM_FIELDS; i++) {
        names[i][0] = it->fld[i] != LINX_SYN_NOFIELD ? linx_field_names[it->fld[i]][0] : '\0';
        names[i][1] = '\0';
        l[i] = names[i];
    }
    return parse_suffix_letters(c, l, it->fld, LINX_SYN_MAX_ITEM_FIELDS);
}

static bool parse_cvt(AsmCtx *c, const LinxSynItem *it)
{
    /* Per variant: source fp?, source signed?, source wide?, dest fp? */
    static const bool sfp[] = { 1, 1, 0, 0, 1, 1, 0, 0 };
    static const bool ssg[] = { 0, 0, 1, 0, 0, 0, 0, 0 };
    static const bool swide[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
    static const bool dfp[] = { 1, 0, 1, 1, 1, 0, 0, 1 };
    const char *p = c->p;
    size_t n = asm_token_len(p, false);
    unsigned v = it->arg;

    for (size_t i = 1; i + 1 < n; i++) {
        int s, d;
        if (p[i] != '2') {
            continue;
        }
        s = linx_syn_cvt_type_parse(p, i, sfp[v], ssg[v], swide[v]);
        d = linx_syn_cvt_type_parse(p + i + 1, n - i - 1, dfp[v], false, true);
        if (s >= 0 && d >= 0) {
            c->p = p + n;
            return asm_set(c, it->fld[0], s, p) && asm_set(c, it->fld[1], d, p);
        }
    }
    return asm_fail(c, p, ASM_ERR_SYNTAX,
                    "wrong operand kind: expected a conversion such as fd2fs");
}

static bool parse_ssr(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);
    int id = n ? linx_syn_ssr_parse(p, n) : -1;
    int64_t v;
    bool known;

    if (id >= 0) {
        c->p = p + n;
        return asm_set_field(c, it->fld[0], id, p, "system register id", 0);
    }
    if (!asm_expr(c, &v, &known)) {
        return false;
    }
    return asm_set_field(c, it->fld[0], v, p, "system register id", 0);
}

static bool parse_flag(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_skip_ws(c->p), *save = c->p;

    if (*p != ',') {
        return true;
    }
    c->p = p + 1;
    if (asm_accept(c, it->text)) {
        return asm_set(c, it->fld[0], 1, p);
    }
    c->p = save;
    return true;
}

bool asm_parse_item(AsmCtx *c, const LinxSynItem *it)
{
    int reg;
    const char *p;

    switch ((LinxSynKind)it->kind) {
    case LINX_SYN_LIT:
        return asm_match_lit(c, it->text);
    case LINX_SYN_R:
        p = asm_tok_start(c);
        return asm_parse_reg5(c, &reg) && asm_set(c, it->fld[0], reg, p);
    case LINX_SYN_D:
        return parse_d(c, it);
    case LINX_SYN_RS:
        return parse_rs(c, it);
    case LINX_SYN_I:
        return parse_i(c, it);
    case LINX_SYN_SH:
        return parse_sh(c, it);
    case LINX_SYN_PC:
        return parse_pc(c, it);
    case LINX_SYN_FALL:
        return parse_fall(c, it);
    case LINX_SYN_BRT:
        return parse_brt(c, it);
    case LINX_SYN_E:
        return parse_enum(c, it);
    case LINX_SYN_LL:
        return parse_ll(c, it);
    case LINX_SYN_RR:
        return parse_rr(c, it);
    case LINX_SYN_IOR:
        return asm_parse_ior(c, it);
    case LINX_SYN_IORD:
        return asm_parse_iord(c, it);
    case LINX_SYN_IOTS:
        return asm_parse_iots(c);
    case LINX_SYN_IOTD:
        return asm_parse_iotd(c, it);
    case LINX_SYN_V:
        return asm_parse_regid10(c, it->fld[0], it->arg & LINX_SYN_V_BASE, NULL);
    case LINX_SYN_VD:
        return asm_parse_vd(c, it);
    case LINX_SYN_VLANE:
        return asm_parse_vlane(c, it);
    case LINX_SYN_VIDX:
        return asm_parse_vidx(c, it);
    case LINX_SYN_ORD:
        return parse_ord(c, it);
    case LINX_SYN_FLAGS:
        return parse_flags(c, it);
    case LINX_SYN_CVT:
        return parse_cvt(c, it);
    case LINX_SYN_LOC:
        if (strncasecmp(c->p, ".local", 6) == 0 && !asm_is_ident_char(c->p[6])) {
            p = c->p;
            c->p += 6;
            return asm_set(c, it->fld[0], 1, p);
        }
        return true;
    case LINX_SYN_SSR:
        return parse_ssr(c, it);
    case LINX_SYN_ATTR:
        return asm_parse_attr(c);
    case LINX_SYN_HINT:
        return asm_parse_hint(c);
    case LINX_SYN_FLAG:
        return parse_flag(c, it);
    case LINX_SYN_LVPAR:
        return asm_parse_lvpar(c, it);
    }
    return asm_fail(c, c->p, ASM_ERR_SYNTAX,
                    "wrong operand kind: internal: unknown operand kind %u", it->kind);
}
