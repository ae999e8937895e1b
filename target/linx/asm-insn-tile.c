/*
 * Operand parsers of the one-instruction assembler for the block
 * descriptors and kernel bodies: B.IOR lists, B.IOT(I) tiles and sizes,
 * RegId10 kernel registers, B.ATTR, B.HINT and the legacy tile headers.
 * Each is the inverse of the matching printer in disas.c; see
 * asm-insn-ops.c for the scalar kinds and the dispatcher.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "asm-insn-internal.h"

enum {
    REG5_PUSH_T = 31,
    REG5_PUSH_U = 30,
    REGID10_ST_BIT = 9,
    REGID10_WIDTH_SHIFT = 7,
    REGID10_CLASS_SHIFT = 5,
    REGID10_CLASS_VEC = 0,
    REGID10_CLASS_SCALAR = 1,
    REGID10_CLASS_REUSE = 3,
    REGID10_BASE_DEFAULT = 4 << REGID10_WIDTH_SHIFT, /* .sd */
    TILE_SIZE_CODE_BIAS = 4,
    TILE_SIZE_CODE_MAX = 31,
    DSTTILE_NONE = 7,
};

bool asm_parse_ior(AsmCtx *c, const LinxSynItem *it)
{
    int n = 0, reg;

    if (!asm_match_lit(c, "[")) {
        return false;
    }
    if (*asm_skip_ws(c->p) == ']') {
        c->p = asm_skip_ws(c->p) + 1;
        return true;
    }
    for (;;) {
        const char *p = asm_tok_start(c);
        if (n == 3) {
            return asm_fail(c, p, ASM_ERR_SEMANTIC,
                            "wrong operand kind: B.IOR takes at most 3 registers");
        }
        if (!asm_parse_reg5(c, &reg) || !asm_set(c, it->fld[n], reg, p)) {
            return false;
        }
        n++;
        p = asm_skip_ws(c->p);
        if (*p == ']') {
            c->p = p + 1;
            return true;
        }
        if (*p != ',') {
            return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected ',' or ']'");
        }
        c->p = p + 1;
    }
}

bool asm_parse_iord(AsmCtx *c, const LinxSynItem *it)
{
    int reg;

    if (!asm_match_lit(c, "[")) {
        return false;
    }
    if (*asm_skip_ws(c->p) == ']') {
        c->p = asm_skip_ws(c->p) + 1;
        return true;
    }
    if (!asm_parse_reg5(c, &reg) || !asm_set(c, it->fld[0], reg, c->p)) {
        return false;
    }
    return asm_match_lit(c, "]");
}

/* One B.IOT source: "-" (absent) or a tile with optional ".reuse". */
static bool parse_iot_src(AsmCtx *c, unsigned k)
{
    const uint8_t *f = linx_syn_iots_fields + 3 * k; /* V, R, tile */
    const char *p = asm_tok_start(c);
    int tile;

    if (*p == '-') {
        c->p = p + 1;
        return asm_set(c, f[0], 1, p);
    }
    tile = linx_syn_tile_parse(p, asm_token_len(p, false));
    if (tile < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected a tile (t#1..n#8)");
    }
    c->p = p + asm_token_len(p, false);
    if (!asm_set(c, f[2], tile, p)) {
        return false;
    }
    if (strncasecmp(c->p, ".reuse", 6) == 0 && !asm_is_ident_char(c->p[6])) {
        c->p += 6;
        return asm_set(c, f[1], 1, p);
    }
    return true;
}

bool asm_parse_iots(AsmCtx *c)
{
    const uint8_t *f = linx_syn_iots_fields;
    unsigned k = 0;

    if (!asm_match_lit(c, "[")) {
        return false;
    }
    if (*asm_skip_ws(c->p) != ']') {
        for (;;) {
            const char *p;
            if (k == 2) {
                return asm_fail(c, asm_skip_ws(c->p), ASM_ERR_SEMANTIC,
                                "wrong operand kind: at most 2 source tiles");
            }
            if (!parse_iot_src(c, k)) {
                return false;
            }
            k++;
            p = asm_skip_ws(c->p);
            if (*p != ',') {
                break;
            }
            c->p = p + 1;
        }
    }
    for (unsigned i = k; i < 2; i++) {
        if (!asm_set(c, f[3 * i], 1, c->p)) {
            return false;
        }
    }
    return asm_match_lit(c, "]");
}

static bool parse_tile_size(AsmCtx *c, int64_t *code)
{
    const char *p = asm_tok_start(c);
    uint64_t v = 0, mult = 1;
    int digits = 0;

    while (*p >= '0' && *p <= '9' && digits < 12) {
        v = v * 10 + (uint64_t)(*p++ - '0');
        digits++;
    }
    if (strncasecmp(p, "KB", 2) == 0) {
        mult = UINT64_C(1) << 10;
        p += 2;
    } else if (strncasecmp(p, "MB", 2) == 0) {
        mult = UINT64_C(1) << 20;
        p += 2;
    } else if (strncasecmp(p, "GB", 2) == 0) {
        mult = UINT64_C(1) << 30;
        p += 2;
    } else if (*p == 'B' || *p == 'b') {
        p++;
    } else {
        digits = 0;
    }
    v *= mult;
    if (!digits || v < (UINT64_C(1) << TILE_SIZE_CODE_BIAS) || (v & (v - 1)) ||
        v > (UINT64_C(1) << (TILE_SIZE_CODE_MAX + TILE_SIZE_CODE_BIAS))) {
        return asm_fail(
            c, c->p, ASM_ERR_SEMANTIC,
            "immediate out of range: tile size must be a power of two from 16B to 32GB (e.g. 4KB)");
    }
    *code = __builtin_ctzll(v) - TILE_SIZE_CODE_BIAS;
    c->p = p;
    return true;
}

bool asm_parse_iotd(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_skip_ws(c->p);
    size_t n;
    int dst, reg;
    int64_t code = 0;

    if (p[0] != '-' || p[1] != '>') {
        return asm_set(c, it->fld[0], DSTTILE_NONE, p);
    }
    p = asm_skip_ws(p + 2);
    n = asm_token_len(p, false);
    dst = linx_syn_dsttile_parse(p, n);
    if (dst < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a tile destination (t, u, m, n, acc)");
    }
    c->p = p + n;
    if (!asm_set(c, it->fld[0], dst, p) || !asm_match_lit(c, "<")) {
        return false;
    }
    if (it->arg & LINX_SYN_IOTD_REG) {
        if (!asm_parse_reg5(c, &reg) || !asm_set(c, it->fld[1], reg, c->p)) {
            return false;
        }
    } else if (!parse_tile_size(c, &code) || !asm_set(c, it->fld[1], code, c->p)) {
        return false;
    }
    return asm_match_lit(c, ">");
}

/* RegId10 register: name[.reuse][.type]; @base gives ".sd" when no type is
 * written; *@srcr_type gets a trailing .sw/.uw/.neg/.not (index operands). */
bool asm_parse_regid10(AsmCtx *c, unsigned fid, bool base, int *srcr_type)
{
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);
    int code = n ? linx_syn_regid10_parse(p, n) : -1;
    bool typed = false;

    if (code < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a kernel register (vt#1, ri0, lc0, "
                        "ta, ...), found '%.*s'",
                        (int)(n ? n : 1), p);
    }
    c->p = p + n;
    if (strncasecmp(c->p, ".reuse", 6) == 0 && !asm_is_ident_char(c->p[6])) {
        if (((code >> REGID10_CLASS_SHIFT) & 3) != REGID10_CLASS_VEC) {
            return asm_fail(c, c->p, ASM_ERR_SEMANTIC,
                            "wrong operand kind: .reuse applies to vector queues only");
        }
        code |= REGID10_CLASS_REUSE << REGID10_CLASS_SHIFT;
        c->p += 6;
    }
    /* Type: .ud .uw .uh .ub .sd .sw .sh .sb .fd .fs .fh .fb */
    if (c->p[0] == '.' && c->p[1] && c->p[2] && !asm_is_ident_char(c->p[3])) {
        static const char wl[] = "dwhb", fl[] = "dshb";
        char k = (char)(c->p[1] | 0x20), w = (char)(c->p[2] | 0x20);
        const char *wp = strchr(k == 'f' ? fl : wl, w);
        if ((k == 'u' || k == 's' || k == 'f') && wp && w) {
            int width = (int)(wp - (k == 'f' ? fl : wl));
            code |= (k == 's') << REGID10_ST_BIT | width << REGID10_WIDTH_SHIFT;
            typed = true;
            c->p += 3;
        }
    }
    if (!typed && base) {
        code |= REGID10_BASE_DEFAULT;
    }
    if (srcr_type) {
        *srcr_type = asm_parse_srcr_type(c);
    }
    return asm_set(c, fid, code, p);
}

bool asm_parse_vd(AsmCtx *c, const LinxSynItem *it)
{
    static const char *const push[4] = { "vt", "vu", "vm", "vn" };
    const char *p = asm_tok_start(c);
    size_t n = asm_token_len(p, false);
    int code = -1;

    for (int i = 0; i < 4; i++) {
        if (linx_syn_token_eq(p, n, push[i])) {
            code = i;
        }
    }
    if (linx_syn_token_eq(p, n, "t")) {
        code = REGID10_CLASS_SCALAR << REGID10_CLASS_SHIFT | REG5_PUSH_T;
    } else if (linx_syn_token_eq(p, n, "u")) {
        code = REGID10_CLASS_SCALAR << REGID10_CLASS_SHIFT | REG5_PUSH_U;
    } else if (code < 0) {
        code = n ? linx_syn_regid10_parse(p, n) : -1;
    }
    if (code < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected a kernel destination (vt, vu, t, ...)");
    }
    c->p = p + n;
    if (strncasecmp(c->p, ".reuse", 6) == 0 && !asm_is_ident_char(c->p[6])) {
        code |= REGID10_CLASS_REUSE << REGID10_CLASS_SHIFT;
        c->p += 6;
    }
    if (c->p[0] == '.') {
        const char *q = c->p + 1;
        int st = 0;
        const char *w;
        if ((*q | 0x20) == 's' && q[1] && strchr("dwhb", q[1] | 0x20)) {
            st = 1;
            q++;
        }
        w = *q ? strchr("dwhb", *q | 0x20) : NULL;
        if (!w || asm_is_ident_char(q[1])) {
            return asm_fail(c, c->p, ASM_ERR_SYNTAX,
                            "wrong operand kind: expected a width (.d .w .h .b)");
        }
        code |= st << REGID10_ST_BIT | (int)(w - "dwhb") << REGID10_WIDTH_SHIFT;
        c->p = q + 1;
    }
    return asm_set(c, it->fld[0], code, p);
}

bool asm_parse_vlane(AsmCtx *c, const LinxSynItem *it)
{
    const char *p = asm_skip_ws(c->p), *q;
    int64_t sh = 0;
    bool have;

    if (*p != ',') {
        return true;
    }
    q = asm_skip_ws(p + 1);
    if (strncasecmp(q, "lc0", 3) != 0 || asm_is_ident_char(q[3])) {
        return true;
    }
    c->p = q + 3;
    if (!asm_parse_shift(c, &sh, &have)) {
        return false;
    }
    /* The lane term is followed by the offset; "lc0.sd" is an index. */
    if (*asm_skip_ws(c->p) != ',') {
        c->p = p;
        return true;
    }
    if (have && sh != it->arg) {
        return asm_fail(c, q, ASM_ERR_SEMANTIC,
                        "wrong operand kind: lane term must be lc0<<%u here", it->arg);
    }
    return asm_set(c, it->fld[0], 1, q);
}

bool asm_parse_vidx(AsmCtx *c, const LinxSynItem *it)
{
    unsigned fixed = (it->arg >> LINX_SYN_VIDX_SHIFT_SHIFT) & 3;
    const char *p;
    int type = 0;
    int64_t sh = 0;
    bool have;

    if (!asm_parse_regid10(c, it->fld[0], false, &type)) {
        return false;
    }
    p = c->p;
    if (type) {
        if (it->fld[1] == LINX_SYN_NOFIELD) {
            return asm_fail(c, p, ASM_ERR_SYNTAX,
                            "wrong operand kind: no .neg/.sw/.uw allowed here");
        }
        if (!asm_set(c, it->fld[1], type, p)) {
            return false;
        }
    }
    if (!asm_parse_shift(c, &sh, &have)) {
        return false;
    }
    if (it->arg & LINX_SYN_VIDX_PLUS) {
        if (!have) {
            sh = fixed;
        }
        if (sh < (int64_t)fixed) {
            return asm_fail(c, p, ASM_ERR_SEMANTIC,
                            "wrong operand kind: index shift must be at least <<%u", fixed);
        }
        return asm_set_field(c, it->fld[2], sh - fixed, p, "shift", 0);
    }
    if (!have) {
        return true;
    }
    if (it->fld[2] == LINX_SYN_NOFIELD) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: no shift allowed here");
    }
    return asm_set_field(c, it->fld[2], sh, p, "shift", 0);
}

bool asm_parse_attr(AsmCtx *c)
{
    const uint8_t *f = linx_syn_attr_fields;
    const char *p = asm_skip_ws(c->p);

    if (!*p || *p == '{') {
        return true;
    }
    for (;;) {
        size_t n;
        int v;
        p = asm_skip_ws(p);
        n = asm_token_len(p, true);
        c->p = p + n;
        if (linx_syn_token_eq(p, n, "trap")) {
            v = asm_set(c, f[0], 1, p);
        } else if (linx_syn_token_eq(p, n, "atomic")) {
            v = asm_set(c, f[1], 1, p);
        } else if (linx_syn_token_eq(p, n, "aq")) {
            v = asm_set(c, f[2], 1, p);
        } else if (linx_syn_token_eq(p, n, "rl")) {
            v = asm_set(c, f[3], 1, p);
        } else if (linx_syn_token_eq(p, n, "aqrl")) {
            v = asm_set(c, f[2], 1, p) && asm_set(c, f[3], 1, p);
        } else if (linx_syn_token_eq(p, n, "far")) {
            v = asm_set(c, f[4], 1, p);
        } else if (linx_syn_token_eq(p, n, "dr")) {
            v = asm_set(c, f[9], 1, p);
        } else {
            const char *dot = memchr(p, '.', n);
            int layout = -1, d = -1, pad = -1;
            if (dot && (linx_syn_token_eq(dot, (size_t)(p + n - dot), ".canon") ||
                        linx_syn_token_eq(dot, (size_t)(p + n - dot), ".normal"))) {
                layout = linx_syn_enum_parse(LINX_SYN_E_BARGFMT, p, (size_t)(dot - p), c->legacy);
            }
            if (layout >= 0) {
                v = asm_set(c, f[5], layout, p) && asm_set(c, f[6], (dot[1] | 0x20) == 'c', p);
            } else if ((d = linx_syn_enum_parse(LINX_SYN_E_DTYPE, p, n, c->legacy)) >= 0) {
                v = asm_set(c, f[7], d, p);
            } else if ((pad = linx_syn_enum_parse(LINX_SYN_E_PAD, p, n, c->legacy)) >= 0) {
                v = asm_set(c, f[8], pad, p);
            } else {
                return asm_fail(c, p, ASM_ERR_SYNTAX,
                                "wrong operand kind: unknown B.ATTR attribute '%.*s'",
                                (int)(n ? n : 1), p);
            }
        }
        if (!v) {
            return false;
        }
        p = asm_skip_ws(c->p);
        if (*p != ',') {
            c->p = p;
            return true;
        }
        p++;
    }
}

bool asm_parse_hint(AsmCtx *c)
{
    static const char *const temp[4] = { "TEMP.hot", "TEMP.warm", "TEMP.cool", "TEMP.none" };
    const uint8_t *f = linx_syn_hint_fields;
    const char *p = asm_tok_start(c);
    size_t n;
    int64_t v;
    bool known;

    if (asm_accept(c, "BR.likely")) {
        if (!asm_set(c, f[0], 1, p)) {
            return false;
        }
    } else if (!asm_accept(c, "BR.unlikely")) {
        return asm_fail(c, p, ASM_ERR_SYNTAX,
                        "wrong operand kind: expected BR.likely or BR.unlikely");
    }
    if (!asm_match_lit(c, ",")) {
        return false;
    }
    p = asm_tok_start(c);
    n = asm_token_len(p, true);
    for (int i = 0; i < 4; i++) {
        if (linx_syn_token_eq(p, n, temp[i])) {
            c->p = p + n;
            if (!asm_set(c, f[1], i, p) || !asm_match_lit(c, ",")) {
                return false;
            }
            p = asm_tok_start(c);
            return asm_expr(c, &v, &known) && asm_set_field(c, f[2], v, p, "prefetch size", 0);
        }
    }
    return asm_fail(c, p, ASM_ERR_SYNTAX,
                    "wrong operand kind: expected TEMP.hot, TEMP.warm, TEMP.cool or TEMP.none");
}

/* The legacy tile header: "BSTART.TMA TLOAD, FP16", "BSTART.VPAR VCALL",
 * "BSTART.VPAR 163, FP16", ... (disas.c print_legacy_tile_header). */
bool asm_parse_lvpar(AsmCtx *c, const LinxSynItem *it)
{
    const char *start = c->p;
    int64_t op = -1;
    const char *p;
    size_t n;
    int dt;

    for (unsigned i = 0; i < LINX_LEGACY_TILE_OPS && op < 0; i++) {
        c->p = start;
        if (asm_match_lit(c, linx_legacy_tile_ops[i].text)) {
            op = linx_legacy_tile_ops[i].op;
        }
    }
    if (op < 0) {
        bool known;
        c->p = start;
        if (!asm_match_lit(c, "BSTART.VPAR\t")) {
            return false;
        }
        p = asm_tok_start(c);
        if (!(*p >= '0' && *p <= '9') || !asm_expr(c, &op, &known)) {
            return asm_fail(c, p, ASM_ERR_SYNTAX,
                            "wrong operand kind: expected a tile opcode number or VCALL");
        }
    }
    p = c->p;
    if (!asm_set_field(c, it->fld[0], op, p, "tile opcode", 0)) {
        return false;
    }
    if (*asm_skip_ws(c->p) != ',') {
        if (op == 0) {
            return true;
        }
        return asm_fail(c, c->p, ASM_ERR_SYNTAX, "wrong operand kind: expected ', <data type>'");
    }
    c->p = asm_skip_ws(asm_skip_ws(c->p) + 1);
    p = c->p;
    n = asm_token_len(p, false);
    dt = n ? linx_syn_enum_parse(LINX_SYN_E_DTYPE, p, n, c->legacy) : -1;
    if (dt < 0) {
        return asm_fail(c, p, ASM_ERR_SYNTAX, "wrong operand kind: expected a data type");
    }
    c->p = p + n;
    return asm_set(c, it->fld[1], dt, p);
}
