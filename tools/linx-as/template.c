/*
 * Seed template blocks: recognising and parsing the header syntax of
 * seed 000 (TSTORE / TLOAD) and seed 004 (MPAR / MSEQ).  The forms are
 * described in template.h; the expansion rules in template-emit.c and
 * docs/assembler.md "Template blocks".
 *
 * Parsing happens in pass 1 and checks everything that does not depend on
 * symbol values: names (layouts, data types, VSize, tiles, registers),
 * counts (8 source tiles, 4 destinations, 12 imported registers, 3
 * dependencies) and the mandatory operands.  Expressions are only
 * syntax-checked here and evaluated in pass 2.
 */
#include <stdio.h>
#include <string.h>

#include "as-internal.h"
#include "template.h"

#define TMPL_MAX_TILE_DEPTH 8
#define TMPL_MIN_SIZE_LOG2 4  /* B.IOTI size = 2^(code + 4) */
#define TMPL_MAX_SIZE_CODE 31

typedef struct NameCode {
    const char *name;
    int code;
} NameCode;

/* Tile DataType codes of v0.4 (digest 4.1); seed 000's names first. */
static const NameCode dtype_names[] = {
    { "FP64", 0 },  { "FP32", 1 },   { "FP16", 2 },   { "E4M3", 3 },   { "FP8", 3 },
    { "BF16", 6 },  { "FPL8", 7 },   { "FP4", 11 },   { "FPL4", 12 },  { "S64", 16 },
    { "INT64", 16 }, { "S32", 17 },  { "INT32", 17 }, { "S16", 18 },   { "INT16", 18 },
    { "S8", 19 },   { "INT8", 19 },  { "S4", 20 },    { "INT4", 20 },  { "U64", 24 },
    { "UINT64", 24 }, { "U32", 25 }, { "UINT32", 25 }, { "U16", 26 },  { "UINT16", 26 },
    { "U8", 27 },   { "UINT8", 27 }, { "U4", 28 },    { "UINT4", 28 },
};

/*
 * Layouts, named by (GM side, TR side).  TSTORE's store-direction names
 * and TLOAD's load-direction names of the same pair are the same layout
 * (shared/docs/decisions.md item 4), but B.DATR encodes them with
 * direction-dependent codes: LinxISA's PTO-0.58 numbering, the one the
 * tile engine decodes (hw/linx/tma.h, tma_datr_code(); a unit test keeps
 * the two tables equal).
 */
enum { LAYOUT_NORM, LAYOUT_ND_NZ, LAYOUT_ND_ZN, LAYOUT_DN_NZ, LAYOUT_DN_ZN, LAYOUT__COUNT };

static const NameCode layout_names[] = {
    { "NORM", LAYOUT_NORM },   { "ND2NZ", LAYOUT_ND_NZ }, { "NZ2ND", LAYOUT_ND_NZ },
    { "ND2ZN", LAYOUT_ND_ZN }, { "ZN2ND", LAYOUT_ND_ZN }, { "DN2NZ", LAYOUT_DN_NZ },
    { "NZ2DN", LAYOUT_DN_NZ }, { "DN2ZN", LAYOUT_DN_ZN }, { "ZN2DN", LAYOUT_DN_ZN },
};

static const uint8_t datr_load_codes[LAYOUT__COUNT] = { 0, 4, 3, 9, 8 };
static const uint8_t datr_store_codes[LAYOUT__COUNT] = { 0, 27, 17, 28, 18 };

unsigned tmpl_datr_code(bool store, const char *name, size_t len)
{
    int l = -1;
    for (size_t i = 0; i < sizeof(layout_names) / sizeof(layout_names[0]); i++) {
        if (as_word_eq(name, len, layout_names[i].name)) {
            l = layout_names[i].code;
        }
    }
    if (l < 0) {
        return TMPL_BAD_LAYOUT;
    }
    return store ? datr_store_codes[l] : datr_load_codes[l];
}

/* TLOAD pad policies (B.DATR Pad, as B.ARG's Null/Zero/Max/Min). */
static const NameCode pad_names[] = {
    { "Null", 0 }, { "Zero", 1 }, { "Max", 2 }, { "Min", 3 },
};

static const char *const gpr_names[] = {
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0",
    "s1",   "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3",
};

#define TMPL_NUM_GPRS (int)(sizeof(gpr_names) / sizeof(gpr_names[0]))
#define TMPL_FP_CODE 11 /* fp = s0 */

static int lookup(const NameCode *t, size_t n, const char *p, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (as_word_eq(p, len, t[i].name)) {
            return t[i].code;
        }
    }
    return -1;
}

const char *tmpl_dtype_name(int code)
{
    for (size_t i = 0; i < sizeof(dtype_names) / sizeof(dtype_names[0]); i++) {
        if (dtype_names[i].code == code) {
            return dtype_names[i].name;
        }
    }
    return "?";
}

const char *tmpl_layout_name(bool store, unsigned code)
{
    static const char *const load[LAYOUT__COUNT] = { "NORM", "ND2NZ", "ND2ZN", "DN2NZ", "DN2ZN" };
    static const char *const stor[LAYOUT__COUNT] = { "NORM", "NZ2ND", "ZN2ND", "NZ2DN", "ZN2DN" };
    const uint8_t *codes = store ? datr_store_codes : datr_load_codes;

    for (unsigned l = 0; l < LAYOUT__COUNT; l++) {
        if (codes[l] == code) {
            return store ? stor[l] : load[l];
        }
    }
    return "?";
}

int tmpl_dtype_code(const char *name, size_t len)
{
    return lookup(dtype_names, sizeof(dtype_names) / sizeof(dtype_names[0]), name, len);
}

int tmpl_gpr(const char *p, size_t len)
{
    for (int i = 0; i < TMPL_NUM_GPRS; i++) {
        if (as_word_eq(p, len, gpr_names[i])) {
            return i;
        }
    }
    if (as_word_eq(p, len, "fp")) {
        return TMPL_FP_CODE;
    }
    if (len >= 2 && len <= 3 && (p[0] == 'r' || p[0] == 'R') && as_is_digit((unsigned char)p[1]) &&
        (len == 2 || as_is_digit((unsigned char)p[2]))) {
        int n = p[1] - '0';
        if (len == 3) {
            n = n * 10 + (p[2] - '0');
        }
        return n < TMPL_NUM_GPRS ? n : -1;
    }
    return -1;
}

const char *tmpl_gpr_name(int code)
{
    return code >= 0 && code < TMPL_NUM_GPRS ? gpr_names[code] : "?";
}

bool as_template_mnemonic(const char *mn, size_t len)
{
    static const char *const bare[] = { "MPAR", "MSEQ", "C.MPAR", "C.MSEQ", "TSTORE", "TLOAD" };

    for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++) {
        if (as_word_eq(mn, len, bare[i])) {
            return true;
        }
    }
    return (len > 7 && as_word_eq(mn, 7, "TSTORE.")) || (len > 6 && as_word_eq(mn, 6, "TLOAD."));
}

/* ---- the parser ---------------------------------------------------------- */

typedef struct TmplParser {
    LinxAs *as;
    AsStmt *st;
    AsTemplate *t;
    const char *p;
} TmplParser;

static bool perr(TmplParser *ps, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool perr(TmplParser *ps, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    as_verror(ps->as, ps->st->file, ps->st->line, as_col(ps->as, ps->st, at), fmt, ap);
    va_end(ap);
    return false;
}

static void ws(TmplParser *ps)
{
    ps->p = as_skip_ws(ps->p);
}

/* Length of the "word" at @p for messages. */
static int word_len(const char *p)
{
    int n = 0, angle = 0;
    while (p[n] && p[n] != ',' && (p[n] != '>' || angle) && p[n] != ']' &&
           !as_is_space((unsigned char)p[n]) && n < 32) {
        angle += p[n] == '<' ? 1 : p[n] == '>' ? -1 : 0;
        n++;
    }
    return n ? n : (int)strlen(p);
}

static const char *shown(const char *p)
{
    return *p ? p : "end of line";
}

/* Syntax-check an expression and remember where it is. */
static bool parse_expr(TmplParser *ps, TmplExpr *e, const char *what)
{
    char err[AS_ERRLEN];
    AsValue v;
    const char *start;

    ws(ps);
    start = ps->p;
    if (!*start || *start == ',' || *start == '>') {
        return perr(ps, start, "wrong operand kind: expected %s, found '%.*s'", what,
                    word_len(start), shown(start));
    }
    if (!as_expr(ps->as, &ps->p, &v, err, sizeof(err))) {
        return perr(ps, start, "%s", err);
    }
    e->expr = start;
    e->col = as_col(ps->as, ps->st, start);
    return true;
}

/* A GPR name at ps->p; returns its code or -1 (nothing consumed). */
static int peek_gpr(TmplParser *ps, size_t *len)
{
    size_t n = as_ident_len(ps->p);
    int r = n ? tmpl_gpr(ps->p, n) : -1;

    *len = n;
    return r;
}

/* LBx value: reg, imm or reg+imm. */
static bool parse_lb(TmplParser *ps, TmplLb *lb)
{
    size_t n;
    int r;

    ws(ps);
    lb->present = true;
    lb->reg = -1;
    lb->col = as_col(ps->as, ps->st, ps->p);
    r = peek_gpr(ps, &n);
    if (r >= 0) {
        lb->reg = r;
        ps->p += n;
        ws(ps);
        if (*ps->p != '+') {
            return true;
        }
        ps->p++;
    }
    {
        TmplExpr e;
        if (!parse_expr(ps, &e, "a loop bound (register, immediate or register+immediate)")) {
            return false;
        }
        lb->expr = e.expr;
    }
    return true;
}

/* The <...> list. */
static bool parse_angle(TmplParser *ps)
{
    AsTemplate *t = ps->t;
    bool kernel = t->kind == TMPL_MPAR || t->kind == TMPL_MSEQ;

    ws(ps);
    if (*ps->p != '<') {
        return perr(ps, ps->p, "wrong operand kind: expected '<LB0:..., ...>', found '%.*s'",
                    word_len(ps->p), shown(ps->p));
    }
    ps->p++;
    for (;;) {
        const char *item;
        size_t n;

        ws(ps);
        item = ps->p;
        n = as_ident_len(item);
        if (n == 3 && (item[0] == 'L' || item[0] == 'l') && (item[1] == 'B' || item[1] == 'b') &&
            item[2] >= '0' && item[2] <= '2' && as_skip_ws(item + 3)[0] == ':') {
            TmplLb *lb = &t->lb[item[2] - '0'];
            if (lb->present) {
                return perr(ps, item, "wrong operand kind: '%.3s' given twice", item);
            }
            ps->p = as_skip_ws(item + 3) + 1;
            if (!parse_lb(ps, lb)) {
                return false;
            }
        } else if (n && !kernel && tmpl_dtype_code(item, n) >= 0) {
            if (t->dtype >= 0) {
                return perr(ps, item, "wrong operand kind: second data type '%.*s'", (int)n, item);
            }
            t->dtype = tmpl_dtype_code(item, n);
            ps->p += n;
        } else if (n && t->kind == TMPL_TLOAD &&
                   lookup(pad_names, sizeof(pad_names) / sizeof(pad_names[0]), item, n) >= 0) {
            t->pad = lookup(pad_names, sizeof(pad_names) / sizeof(pad_names[0]), item, n);
            ps->p += n;
        } else if (n && kernel && (as_word_eq(item, n, "VS8") || as_word_eq(item, n, "VS16"))) {
            if (t->vsize >= 0) {
                return perr(ps, item, "wrong operand kind: second VSize '%.*s'", (int)n, item);
            }
            t->vsize = as_word_eq(item, n, "VS8") ? 0 : 1;
            ps->p += n;
        } else if (n && kernel && (as_word_eq(item, n, "VS32") || as_word_eq(item, n, "VS64"))) {
            return perr(ps, item, "wrong operand kind: VSize '%.*s' is reserved in v0.4 (VS8 or VS16)",
                        (int)n, item);
        } else if (n && kernel && as_word_eq(item, n, "DR")) {
            t->dr = true;
            ps->p += n;
        } else {
            return perr(ps, item,
                        kernel ? "wrong operand kind: '%.*s' in <...> (LB0:, LB1:, LB2:, VS8, VS16, DR)"
                               : "wrong operand kind: '%.*s' in <...> (LB0:, LB1:, LB2:, a data type%s)",
                        word_len(item), shown(item),
                        kernel ? "" : (t->kind == TMPL_TLOAD ? ", Null/Zero/Max/Min" : ""));
        }
        ws(ps);
        if (*ps->p == '>') {
            ps->p++;
            return true;
        }
        if (*ps->p != ',') {
            return perr(ps, ps->p, "wrong operand kind: expected ',' or '>' in <...>, found '%.*s'",
                        word_len(ps->p), shown(ps->p));
        }
        ps->p++;
    }
}

static bool is_tile_letter(char c)
{
    return c == 'T' || c == 't' || c == 'U' || c == 'u' || c == 'M' || c == 'm' || c == 'N' ||
           c == 'n';
}

/* "T#3", "u#1.reuse": does a tile token start at @p? */
static bool is_tile_token(const char *p)
{
    return is_tile_letter(p[0]) && p[1] == '#';
}

static int hand_of(char c)
{
    switch (c) {
    case 'T': case 't': return 0;
    case 'U': case 'u': return 1;
    case 'M': case 'm': return 2;
    default: return 3;
    }
}

static bool parse_src_tile(TmplParser *ps)
{
    AsTemplate *t = ps->t;
    const char *s = ps->p;
    int k = 0, digits = 0;
    const char *q = s + 2;

    while (as_is_digit((unsigned char)*q) && digits < 3) {
        k = k * 10 + (*q++ - '0');
        digits++;
    }
    if (!digits || k < 1 || k > TMPL_MAX_TILE_DEPTH || as_is_digit((unsigned char)*q)) {
        return perr(ps, s, "wrong operand kind: tile '%.*s' (T#, U#, M# or N# 1..8)", word_len(s), s);
    }
    if (t->nsrc == TMPL_MAX_SRC) {
        return perr(ps, s, "wrong operand kind: more than %d source tiles at '%.*s'", TMPL_MAX_SRC,
                    word_len(s), s);
    }
    t->src[t->nsrc].id = (uint8_t)(hand_of(s[0]) * TMPL_MAX_TILE_DEPTH + (k - 1));
    t->src[t->nsrc].reuse = false;
    if (*q == '.') {
        size_t n = as_ident_len(q);
        if (!as_word_eq(q, n, ".reuse")) {
            return perr(ps, q, "wrong operand kind: '%.*s' after a tile (only .reuse)", (int)n, q);
        }
        t->src[t->nsrc].reuse = true;
        q += n;
    }
    t->nsrc++;
    ps->p = q;
    return true;
}

static bool parse_reglist(TmplParser *ps, int *regs, int *count, int max, const char *what)
{
    ps->p++; /* '[' */
    ws(ps);
    if (*ps->p == ']') {
        ps->p++;
        return true;
    }
    for (;;) {
        size_t n;
        int r;
        ws(ps);
        r = peek_gpr(ps, &n);
        if (r < 0) {
            return perr(ps, ps->p, "wrong operand kind: '%.*s' in %s is not a general register",
                        word_len(ps->p), shown(ps->p), what);
        }
        if (*count == max) {
            return perr(ps, ps->p, "wrong operand kind: more than %d registers in %s", max, what);
        }
        regs[(*count)++] = r;
        ps->p += n;
        ws(ps);
        if (*ps->p == ']') {
            ps->p++;
            return true;
        }
        if (*ps->p != ',') {
            return perr(ps, ps->p, "wrong operand kind: expected ',' or ']' in %s, found '%.*s'",
                        what, word_len(ps->p), shown(ps->p));
        }
        ps->p++;
    }
}

/* "t<4KB>", "acc<8KB>", "u<a3>" after "->": true when it looks like one. */
static bool is_dst_tile(const char *p)
{
    size_t n = as_ident_len(p);
    return n && (n == 1 ? is_tile_letter(p[0]) : as_word_eq(p, n, "acc")) &&
           as_skip_ws(p + n)[0] == '<';
}

/* Size in bytes: "4KB", "512B", "8K", "0x1000", or a constant expression. */
static bool parse_size(TmplParser *ps, TmplDst *d)
{
    const char *s = as_skip_ws(ps->p);
    uint64_t bytes = 0;
    size_t n;
    int r, log2;

    ps->p = s;
    r = peek_gpr(ps, &n);
    if (r >= 0) {
        d->reg = r;
        ps->p += n;
        return true;
    }
    d->reg = -1;
    {
        const char *q = s;
        unsigned base = 10;
        uint64_t v = 0;
        if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
            base = 16;
            q += 2;
        }
        while (as_is_digit((unsigned char)*q) ||
               (base == 16 && ((*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F')))) {
            unsigned dv = as_is_digit((unsigned char)*q) ? (unsigned)(*q - '0')
                                                          : (unsigned)((*q | 0x20) - 'a' + 10);
            if (v > (UINT64_MAX >> 4)) {
                return perr(ps, s, "immediate out of range: tile size '%.*s' too large", word_len(s), s);
            }
            v = v * base + dv;
            q++;
        }
        if (q == s) {
            int64_t x;
            if (!as_expr_abs(ps->as, ps->st, &ps->p, &x, "the tile size")) {
                return false;
            }
            bytes = (uint64_t)x;
        } else {
            size_t un = as_ident_len(q);
            if (un == 0 || as_word_eq(q, un, "B")) {
                bytes = v;
            } else if (as_word_eq(q, un, "K") || as_word_eq(q, un, "KB") || as_word_eq(q, un, "KiB")) {
                bytes = v << 10;
            } else if (as_word_eq(q, un, "M") || as_word_eq(q, un, "MB") || as_word_eq(q, un, "MiB")) {
                bytes = v << 20;
            } else {
                return perr(ps, q, "wrong operand kind: size unit '%.*s' (B, KB or MB)", (int)un, q);
            }
            ps->p = q + un;
        }
    }
    for (log2 = 0; log2 < 64 && (1ull << log2) < bytes; log2++) {
    }
    if (bytes == 0 || (bytes & (bytes - 1)) || log2 < TMPL_MIN_SIZE_LOG2 ||
        log2 - TMPL_MIN_SIZE_LOG2 > TMPL_MAX_SIZE_CODE) {
        return perr(ps, s, "immediate out of range: tile size %llu is not a power of two in [16B, 32GB] (v0.4 tiles: 512B..4KB)",
                    (unsigned long long)bytes);
    }
    d->size_code = (uint8_t)(log2 - TMPL_MIN_SIZE_LOG2);
    return true;
}

static bool parse_dst(TmplParser *ps)
{
    AsTemplate *t = ps->t;
    const char *s = as_skip_ws(ps->p);
    size_t n = as_ident_len(s);
    TmplDst *d;

    if (t->ndst == TMPL_MAX_DST) {
        return perr(ps, s, "wrong operand kind: more than %d destination tiles at '%.*s'",
                    TMPL_MAX_DST, word_len(s), s);
    }
    d = &t->dst[t->ndst];
    d->kind = n == 3 ? 4 : (uint8_t)hand_of(s[0]);
    ps->p = as_skip_ws(s + n) + 1; /* past '<' */
    if (!parse_size(ps, d)) {
        return false;
    }
    ws(ps);
    if (*ps->p != '>') {
        return perr(ps, ps->p, "wrong operand kind: expected '>' after the tile size, found '%.*s'",
                    word_len(ps->p), shown(ps->p));
    }
    ps->p++;
    t->ndst++;
    return true;
}

static bool parse_dep(TmplParser *ps, bool dst)
{
    AsTemplate *t = ps->t;
    TmplExpr e;

    if (!dst && t->ndep == TMPL_MAX_DEPS) {
        return perr(ps, ps->p, "wrong operand kind: more than %d dependencies at '%.*s'",
                    TMPL_MAX_DEPS, word_len(ps->p), shown(ps->p));
    }
    if (dst && t->depdst.expr) {
        return perr(ps, ps->p, "wrong operand kind: second DepDst '%.*s'", word_len(ps->p), ps->p);
    }
    if (!parse_expr(ps, &e, "a dependency tag (0..31)")) {
        return false;
    }
    if (dst) {
        t->depdst = e;
    } else {
        t->dep[t->ndep++] = e;
    }
    return true;
}

/* Everything after the <...> list. */
static bool parse_operands(TmplParser *ps)
{
    AsTemplate *t = ps->t;
    bool kernel = t->kind == TMPL_MPAR || t->kind == TMPL_MSEQ;
    bool seen_regs = false, seen_arrow = false, seen_set = false;

    for (;;) {
        const char *item;
        ws(ps);
        if (!*ps->p) {
            return true;
        }
        if (*ps->p != ',') {
            return perr(ps, ps->p, "wrong operand kind: expected ',' before '%.*s'", word_len(ps->p),
                        ps->p);
        }
        ps->p++;
        ws(ps);
        item = ps->p;
        if (is_tile_token(item)) {
            if (t->kind == TMPL_TLOAD) {
                return perr(ps, item, "wrong operand kind: TLOAD takes no source tile ('%.*s')",
                            word_len(item), item);
            }
            if (seen_regs || seen_arrow || t->ndep) {
                return perr(ps, item, "wrong operand kind: source tile '%.*s' must come before the registers and dependencies",
                            word_len(item), item);
            }
            if (!parse_src_tile(ps)) {
                return false;
            }
        } else if (*item == '[') {
            if (!seen_arrow) {
                if (seen_regs) {
                    return perr(ps, item, "wrong operand kind: second register list '[...]'");
                }
                seen_regs = true;
                if (!parse_reglist(ps, t->get, &t->nget, kernel ? TMPL_MAX_GET : 2,
                                   kernel ? "[BGetList]" : "[RegSrc0, RegSrc1]")) {
                    return false;
                }
            } else {
                if (!kernel || seen_set) {
                    return perr(ps, item, "wrong operand kind: unexpected register list '[...]' after '->'");
                }
                seen_set = true;
                if (!parse_reglist(ps, t->set, &t->nset, TMPL_MAX_SET, "[BSetList]")) {
                    return false;
                }
            }
        } else if (item[0] == '-' && item[1] == '>') {
            ps->p += 2;
            ws(ps);
            if (is_dst_tile(ps->p)) {
                if (t->kind == TMPL_TSTORE) {
                    return perr(ps, ps->p, "wrong operand kind: TSTORE has no destination tile ('%.*s')",
                                word_len(ps->p), ps->p);
                }
                if (seen_arrow) {
                    return perr(ps, ps->p, "wrong operand kind: second '->' destination list");
                }
                seen_arrow = true;
                if (!parse_dst(ps)) {
                    return false;
                }
                for (;;) {
                    const char *q = as_skip_ws(ps->p);
                    if (*q != ',' || !is_dst_tile(as_skip_ws(q + 1))) {
                        break;
                    }
                    if (t->kind == TMPL_TLOAD) {
                        return perr(ps, as_skip_ws(q + 1), "wrong operand kind: TLOAD has one destination tile");
                    }
                    ps->p = as_skip_ws(q + 1);
                    if (!parse_dst(ps)) {
                        return false;
                    }
                }
            } else {
                if (kernel) {
                    return perr(ps, ps->p, "wrong operand kind: expected a destination tile like 'T<4KB>' after '->', found '%.*s'",
                                word_len(ps->p), shown(ps->p));
                }
                if (!parse_dep(ps, true)) {
                    return false;
                }
            }
        } else {
            if (t->depdst.expr) {
                return perr(ps, item, "wrong operand kind: '%.*s' after ->DepDst", word_len(item), item);
            }
            if (!parse_dep(ps, kernel && seen_arrow)) {
                return false;
            }
        }
    }
}

bool as_template_parse(LinxAs *as, AsStmt *st)
{
    AsTemplate *t = as_xcalloc(1, sizeof(AsTemplate));
    TmplParser ps = { .as = as, .st = st, .t = t, .p = st->args };
    const char *mn = st->text;
    size_t mlen = (size_t)(st->args - st->text);
    const char *dot;

    while (mlen && as_is_space((unsigned char)mn[mlen - 1])) {
        mlen--;
    }
    st->tmpl = t;
    t->dtype = -1;
    t->vsize = -1;
    if (as_word_eq(mn, mlen, "MPAR") || as_word_eq(mn, mlen, "C.MPAR")) {
        t->kind = TMPL_MPAR;
    } else if (as_word_eq(mn, mlen, "MSEQ") || as_word_eq(mn, mlen, "C.MSEQ")) {
        t->kind = TMPL_MSEQ;
    } else {
        t->kind = (mn[1] == 'S' || mn[1] == 's') ? TMPL_TSTORE : TMPL_TLOAD;
    }
    t->compressed_header = mn[0] == 'C' || mn[0] == 'c';
    dot = memchr(mn, '.', mlen);
    if (t->kind == TMPL_TSTORE || t->kind == TMPL_TLOAD) {
        t->layout = 0; /* NORM */
        if (dot) {
            size_t n = mlen - (size_t)(dot + 1 - mn);
            unsigned code = tmpl_datr_code(t->kind == TMPL_TSTORE, dot + 1, n);
            t->layout = (int)code;
            if (code == TMPL_BAD_LAYOUT) {
                return perr(&ps, dot + 1,
                            "wrong operand kind: unknown layout '%.*s' (NORM, NZ2ND, ZN2ND, NZ2DN, ZN2DN, ND2NZ, ND2ZN, DN2NZ, DN2ZN)",
                            (int)n, dot + 1);
            }
        }
    } else {
        if (!parse_expr(&ps, &t->body, "the body label")) {
            return false;
        }
        {
            /* A plain label: its instructions use the seed body spellings. */
            const char *b = t->body.expr;
            size_t n = as_ident_len(b);
            if (n && as_skip_ws(b + n) == ps.p) {
                as_seed_body_note(as, b, n);
            }
        }
        ws(&ps);
        if (*ps.p != ',') {
            return perr(&ps, ps.p, "wrong operand kind: expected ',' after the body label, found '%.*s'",
                        word_len(ps.p), shown(ps.p));
        }
        ps.p++;
    }
    if (!parse_angle(&ps) || !parse_operands(&ps)) {
        return false;
    }

    /* Mandatory parts. */
    if (t->kind == TMPL_TSTORE || t->kind == TMPL_TLOAD) {
        if (!t->lb[0].present) {
            return perr(&ps, st->args, "wrong operand kind: LB0 (ValidCol) is required");
        }
        if (t->dtype < 0) {
            return perr(&ps, st->args, "wrong operand kind: a data type (FP32, S8, ...) is required in <...>");
        }
        if (t->nget == 0) {
            return perr(&ps, st->args, "wrong operand kind: the base register [RegSrc0, RegSrc1] is required");
        }
        if (t->kind == TMPL_TSTORE && t->nsrc == 0) {
            return perr(&ps, st->args, "wrong operand kind: TSTORE needs at least one source tile");
        }
    }
    if (t->compressed_header && t->vsize >= 0 && t->vsize != 1) {
        return perr(&ps, mn, "wrong operand kind: %.*s implies VS16", (int)mlen, mn);
    }
    return tmpl_plan(as, st, t);
}

void as_template_free(struct AsTemplate *t)
{
    free(t);
}

const char *as_template_insn_text(const struct AsTemplate *t, unsigned i, unsigned *len_out)
{
    if (!t || i >= (unsigned)t->ninsn) {
        return NULL;
    }
    *len_out = t->insn[i].len;
    return t->insn[i].text;
}
