/*
 * linx-as expressions.
 *
 * C operators and precedence, without the relational operators < > <= >=
 * (they would clash with `<LB0:...>` and `->t<4KB>`):
 *   || && | ^ & == != << >> + - * / % and unary - + ~ !, parentheses.
 * Operands: numbers (decimal, 0x hex, 0b binary, 0-prefixed octal),
 * character literals ('a', '\n'), symbols, `.` (the location counter) and
 * numeric local label references `1b` / `1f`.
 *
 * Values (AsValue) are absolute or section-relative.  Before sections have
 * addresses (pass 1) only "relative +- absolute" and "relative - relative
 * in the same section" can be computed; anything else is "not known yet".
 * In pass 2 every symbol is absolute, so everything computes, and a symbol
 * that is still undefined is an error.  Arithmetic wraps at 64 bits (no C
 * overflow), division by zero is an error.
 */
#include <stdio.h>
#include <string.h>

#include "as-internal.h"

typedef struct ExprCtx {
    LinxAs *as;
    const char *p;
    char *err;
    size_t errlen;
    bool failed;
    unsigned depth; /* nesting of parentheses and unary operators */
} ExprCtx;

/* Deeper nesting is an error, not a stack overflow. */
#define AS_MAX_EXPR_DEPTH 200

static bool expr_lor(ExprCtx *c, AsValue *v);

static void expr_fail(ExprCtx *c, const char *fmt, const char *arg, size_t n)
{
    if (!c->failed) {
        snprintf(c->err, c->errlen, fmt, (int)n, arg);
        c->failed = true;
    }
}

AsValue as_value_of_loc(const LinxAs *as, int sec, uint64_t off)
{
    AsValue v = { .v = (int64_t)off, .sec = sec, .known = true };

    if (as->addresses_known && sec >= 0) {
        v.v = (int64_t)(as->secs[sec].addr + off);
        v.sec = AS_SEC_ABS;
    }
    return v;
}

static AsValue abs_value(int64_t x)
{
    AsValue v = { .v = x, .sec = AS_SEC_ABS, .known = true, .addr = 0 };
    return v;
}

static AsValue unknown_value(void)
{
    AsValue v = { .v = 0, .sec = AS_SEC_ABS, .known = false };
    return v;
}

static void skip(ExprCtx *c)
{
    c->p = as_skip_ws(c->p);
}

static int digit_value(int ch)
{
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    if (ch >= 'a' && ch <= 'z') {
        return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'Z') {
        return ch - 'A' + 10;
    }
    return 99;
}

/* Numbers and numeric local label references. */
static bool expr_number(ExprCtx *c, AsValue *v)
{
    const char *s = c->p;
    const char *p = s;
    unsigned base = 10;
    uint64_t x = 0;
    bool overflow = false;
    size_t n;

    /* "12b" / "12f": numeric local label (lower case only). */
    n = 0;
    while (as_is_digit((unsigned char)p[n])) {
        n++;
    }
    if ((p[n] == 'b' || p[n] == 'f') && !as_is_ident_char((unsigned char)p[n + 1]) &&
        !(n == 1 && p[0] == '0' && p[n] == 'b' && (p[2] == '0' || p[2] == '1'))) {
        uint64_t num = 0;
        for (size_t i = 0; i < n; i++) {
            num = num * 10 + (uint64_t)(p[i] - '0');
        }
        c->p = p + n + 1;
        if (!as_numlabel_value(c->as, num, p[n] == 'f', v)) {
            if (c->as->pass == 2) {
                expr_fail(c, "undefined symbol: local label '%.*s' has no definition there", s,
                          n + 1);
                return false;
            }
            *v = unknown_value();
        }
        v->addr = 1;
        return true;
    }

    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    } else if (p[0] == '0' && as_is_digit((unsigned char)p[1])) {
        base = 8;
        p += 1;
    }
    if (base != 8 && base != 10 && digit_value((unsigned char)*p) >= (int)base) {
        expr_fail(c, "bad expression: bad number: '%.*s'", s, (size_t)(p - s) + 1);
        return false;
    }
    while (digit_value((unsigned char)*p) < (int)base) {
        unsigned d = (unsigned)digit_value((unsigned char)*p);
        if (x > (UINT64_MAX - d) / base) {
            overflow = true;
        }
        x = x * base + d;
        p++;
    }
    if (base == 8 && as_is_digit((unsigned char)*p)) {
        expr_fail(c, "bad expression: bad number: '%.*s' (octal because of the leading 0)", s,
                  (size_t)(p - s) + 1);
        return false;
    }
    if (overflow) {
        expr_fail(c, "immediate out of range: number '%.*s' does not fit in 64 bits", s, (size_t)(p - s));
        return false;
    }
    c->p = p;
    *v = abs_value((int64_t)x);
    return true;
}

static bool expr_char(ExprCtx *c, AsValue *v)
{
    const char *s = c->p;
    const char *p = s + 1;
    int ch;

    if (*p == '\\') {
        p++;
        switch (*p) {
        case 'n': ch = '\n'; break;
        case 't': ch = '\t'; break;
        case 'r': ch = '\r'; break;
        case '0': ch = 0; break;
        case '\\': ch = '\\'; break;
        case '\'': ch = '\''; break;
        case '"': ch = '"'; break;
        default:
            expr_fail(c, "bad expression: bad character literal: '%.*s'", s, 3);
            return false;
        }
        p++;
    } else if (*p && *p != '\'') {
        ch = (unsigned char)*p++;
    } else {
        expr_fail(c, "bad expression: bad character literal: '%.*s'", s, 2);
        return false;
    }
    if (*p == '\'') {
        p++;
    }
    c->p = p;
    *v = abs_value(ch);
    return true;
}

static bool expr_symbol(ExprCtx *c, AsValue *v)
{
    const char *s = c->p;
    size_t n = as_ident_len(s);
    AsSymbol *sym;
    char err[AS_ERRLEN];

    c->p = s + n;
    if (n == 1 && s[0] == '.') {
        LinxAs *as = c->as;
        if (as->cur_sec < 0) {
            *v = unknown_value();
            return true;
        }
        *v = as_value_of_loc(as, as->cur_sec, as->secs[as->cur_sec].lc);
        v->addr = 1;
        return true;
    }
    sym = as_sym_find(c->as, s, n);
    if (!sym) {
        if (c->as->pass == 2) {
            expr_fail(c, "undefined symbol: '%.*s'", s, n);
            return false;
        }
        /* Remember the reference so that pass 2 can name the first use. */
        uint32_t idx = as_sym_intern(c->as, s, n); /* may move the array */
        sym = &c->as->syms[idx];
    }
    if (!sym->referenced) {
        sym->referenced = true;
        sym->ref_stmt = c->as->cur_stmt + 1;
    }
    if (!sym->defined) {
        if (c->as->pass == 2) {
            expr_fail(c, "undefined symbol: '%.*s'", s, n);
            return false;
        }
        *v = unknown_value();
        return true;
    }
    if (!as_sym_value(c->as, sym, v, err, sizeof(err))) {
        expr_fail(c, "%.*s", err, strlen(err));
        return false;
    }
    v->addr = sym->is_address ? 1 : 0;
    return true;
}

static bool expr_unary_inner(ExprCtx *c, AsValue *v);

static bool expr_unary(ExprCtx *c, AsValue *v)
{
    bool ok;

    if (++c->depth > AS_MAX_EXPR_DEPTH) {
        expr_fail(c, "bad expression: nested more than %.*s levels deep", "200", 3);
        return false;
    }
    ok = expr_unary_inner(c, v);
    c->depth--;
    return ok;
}

static bool expr_unary_inner(ExprCtx *c, AsValue *v)
{
    char op;

    skip(c);
    op = *c->p;
    if (op == '-' || op == '+' || op == '~' || op == '!') {
        if (op == '-' && c->p[1] == '>') {
            expr_fail(c, "bad expression: expected an expression, found '%.*s'", c->p, 2);
            return false;
        }
        c->p++;
        if (!expr_unary(c, v)) {
            return false;
        }
        if (op == '+') {
            return true;
        }
        if (v->known && v->sec != AS_SEC_ABS) {
            *v = unknown_value();
            return true;
        }
        if (op == '-') {
            v->v = (int64_t)(0 - (uint64_t)v->v);
            v->addr = (int8_t)-v->addr;
        } else if (op == '~') {
            v->v = ~v->v;
            v->addr = 0;
        } else {
            v->v = !v->v;
            v->addr = 0;
        }
        return true;
    }
    if (op == '(') {
        c->p++;
        if (!expr_lor(c, v)) {
            return false;
        }
        skip(c);
        if (*c->p != ')') {
            expr_fail(c, "bad expression: expected ')', found '%.*s'", c->p, *c->p ? 1 : 0);
            return false;
        }
        c->p++;
        return true;
    }
    if (as_is_digit((unsigned char)op)) {
        return expr_number(c, v);
    }
    if (op == '\'') {
        return expr_char(c, v);
    }
    if (as_is_ident_start((unsigned char)op)) {
        return expr_symbol(c, v);
    }
    {
        size_t n = 0;
        while (c->p[n] && !as_is_space((unsigned char)c->p[n]) && c->p[n] != ',' && n < 16) {
            n++;
        }
        expr_fail(c, "bad expression: expected an expression, found '%.*s'", c->p, n);
    }
    return false;
}

typedef enum BinOp {
    OP_NONE, OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR, OP_EQ, OP_NE,
    OP_AND, OP_XOR, OP_OR, OP_LAND, OP_LOR,
} BinOp;

/* Binding strength of each operator (higher binds tighter). */
static const int op_prec[] = {
    [OP_NONE] = 0, [OP_LOR] = 1, [OP_LAND] = 2, [OP_OR] = 3, [OP_XOR] = 4, [OP_AND] = 5,
    [OP_EQ] = 6, [OP_NE] = 6, [OP_SHL] = 7, [OP_SHR] = 7, [OP_ADD] = 8, [OP_SUB] = 8,
    [OP_MUL] = 9, [OP_DIV] = 9, [OP_MOD] = 9,
};

static BinOp peek_op(const char *p, size_t *len)
{
    *len = 2;
    switch (p[0]) {
    case '*': *len = 1; return OP_MUL;
    case '/': *len = 1; return OP_DIV;
    case '%': *len = 1; return OP_MOD;
    case '+': *len = 1; return OP_ADD;
    case '-': *len = 1; return p[1] == '>' ? OP_NONE : OP_SUB;
    case '<': return p[1] == '<' ? OP_SHL : OP_NONE;
    case '>': return p[1] == '>' ? OP_SHR : OP_NONE;
    case '=': return p[1] == '=' ? OP_EQ : OP_NONE;
    case '!': return p[1] == '=' ? OP_NE : OP_NONE;
    case '&': if (p[1] == '&') { return OP_LAND; } *len = 1; return OP_AND;
    case '|': if (p[1] == '|') { return OP_LOR; } *len = 1; return OP_OR;
    case '^': *len = 1; return OP_XOR;
    default: return OP_NONE;
    }
}

/* Combine two values; relocatable operands only where they make sense. */
static bool apply(ExprCtx *c, BinOp op, AsValue *a, const AsValue *b)
{
    uint64_t x = (uint64_t)a->v, y = (uint64_t)b->v;
    /* Address terms: label - label is a number, label + number an address. */
    int8_t addr = op == OP_ADD ? (int8_t)(a->addr + b->addr)
                  : op == OP_SUB ? (int8_t)(a->addr - b->addr)
                                 : 0;

    a->addr = addr;
    if (!a->known || !b->known) {
        *a = unknown_value();
        return true;
    }
    if (a->sec != AS_SEC_ABS || b->sec != AS_SEC_ABS) {
        if (op == OP_ADD && (a->sec == AS_SEC_ABS || b->sec == AS_SEC_ABS)) {
            a->sec = a->sec == AS_SEC_ABS ? b->sec : a->sec;
            a->v = (int64_t)(x + y);
        } else if (op == OP_SUB && b->sec == AS_SEC_ABS) {
            a->v = (int64_t)(x - y);
        } else if (op == OP_SUB && a->sec == b->sec) {
            a->v = (int64_t)(x - y);
            a->sec = AS_SEC_ABS;
        } else {
            /* Needs section addresses: computable in pass 2 only. */
            *a = unknown_value();
        }
        return true;
    }
    switch (op) {
    case OP_MUL: a->v = (int64_t)(x * y); break;
    case OP_DIV:
    case OP_MOD:
        if (b->v == 0) {
            expr_fail(c, "bad expression: division by zero%.*s", "", 0);
            return false;
        }
        if (a->v == INT64_MIN && b->v == -1) {
            a->v = op == OP_DIV ? INT64_MIN : 0;
        } else {
            a->v = op == OP_DIV ? a->v / b->v : a->v % b->v;
        }
        break;
    case OP_ADD: a->v = (int64_t)(x + y); break;
    case OP_SUB: a->v = (int64_t)(x - y); break;
    case OP_SHL:
    case OP_SHR:
        if (b->v < 0 || b->v > 63) {
            expr_fail(c, "immediate out of range: shift count must be 0..63%.*s", "", 0);
            return false;
        }
        a->v = op == OP_SHL ? (int64_t)(x << y) : a->v >> y;
        break;
    case OP_EQ: a->v = x == y; break;
    case OP_NE: a->v = x != y; break;
    case OP_AND: a->v = (int64_t)(x & y); break;
    case OP_XOR: a->v = (int64_t)(x ^ y); break;
    case OP_OR: a->v = (int64_t)(x | y); break;
    case OP_LAND: a->v = x && y; break;
    case OP_LOR: a->v = x || y; break;
    default: break;
    }
    return true;
}

/* Precedence climbing over the binary operators. */
static bool expr_binary(ExprCtx *c, AsValue *lhs, int min_prec)
{
    for (;;) {
        size_t len;
        BinOp op;
        AsValue rhs;

        skip(c);
        op = peek_op(c->p, &len);
        if (op == OP_NONE || op_prec[op] < min_prec) {
            return true;
        }
        c->p += len;
        if (!expr_unary(c, &rhs)) {
            return false;
        }
        for (;;) {
            size_t len2;
            BinOp next;
            skip(c);
            next = peek_op(c->p, &len2);
            if (next == OP_NONE || op_prec[next] <= op_prec[op]) {
                break;
            }
            if (!expr_binary(c, &rhs, op_prec[op] + 1)) {
                return false;
            }
        }
        if (!apply(c, op, lhs, &rhs)) {
            return false;
        }
    }
}

static bool expr_lor(ExprCtx *c, AsValue *v)
{
    return expr_unary(c, v) && expr_binary(c, v, 1);
}

bool as_expr_sym(LinxAs *as, const char **pp, AsValue *out, bool *symbolic, char *err,
                 size_t errlen)
{
    ExprCtx c = { .as = as, .p = *pp, .err = err, .errlen = errlen };

    err[0] = '\0';
    if (!expr_lor(&c, out)) {
        return false;
    }
    *pp = c.p;
    if (symbolic) {
        *symbolic = out->addr == 1;
    }
    return true;
}

bool as_expr(LinxAs *as, const char **pp, AsValue *out, char *err, size_t errlen)
{
    return as_expr_sym(as, pp, out, NULL, err, errlen);
}

bool as_expr_abs(LinxAs *as, AsStmt *st, const char **pp, int64_t *v, const char *what)
{
    char err[AS_ERRLEN];
    const char *start = as_skip_ws(*pp);
    AsValue val;

    *pp = start;
    if (!as_expr(as, pp, &val, err, sizeof(err))) {
        as_error(as, st, as_col(as, st, start), "%s", err);
        return false;
    }
    if (!val.known || val.sec != AS_SEC_ABS) {
        as_error(as, st, as_col(as, st, start),
                 "expression not constant: %s '%.*s' must be known here (no later or "
                 "section-relative symbols)",
                 what, (int)(*pp - start), start);
        return false;
    }
    *v = val.v;
    return true;
}

bool as_expr_eval_cb(void *opaque, const char **pp, int64_t *value, bool *known, char *err,
                     size_t errlen)
{
    LinxAs *as = opaque;
    AsValue v;

    if (!as_expr(as, pp, &v, err, errlen)) {
        return false;
    }
    *known = v.known && v.sec == AS_SEC_ABS;
    *value = *known ? v.v : 0;
    return true;
}
