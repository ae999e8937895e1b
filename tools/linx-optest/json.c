/*
 * A small JSON reader (json.h).
 */
#include <glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

enum {
    MAX_DEPTH = 64,
};

typedef struct Parser {
    const char *p, *start, *end;
    char *err;
    size_t errlen;
    bool failed;
} Parser;

static void perr(Parser *ps, const char *fmt, ...)
{
    va_list ap;
    char msg[256];

    if (ps->failed) {
        return;
    }
    ps->failed = true;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->errlen, "offset %zu: %s", (size_t)(ps->p - ps->start), msg);
}

static void ws(Parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
        ps->p++;
    }
}

static int hex4(const char *p)
{
    int v = 0;

    for (int i = 0; i < 4; i++) {
        int d = g_ascii_xdigit_value(p[i]);
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

static char *parse_string(Parser *ps)
{
    GString *g = g_string_new(NULL);

    ps->p++; /* the quote */
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            perr(ps, "control character in a string");
            break;
        }
        if (c != '\\') {
            g_string_append_c(g, (char)c);
            ps->p++;
            continue;
        }
        if (ps->end - ps->p < 2) {
            perr(ps, "unfinished escape");
            break;
        }
        ps->p++;
        switch (*ps->p) {
        case '"': g_string_append_c(g, '"'); break;
        case '\\': g_string_append_c(g, '\\'); break;
        case '/': g_string_append_c(g, '/'); break;
        case 'b': g_string_append_c(g, '\b'); break;
        case 'f': g_string_append_c(g, '\f'); break;
        case 'n': g_string_append_c(g, '\n'); break;
        case 'r': g_string_append_c(g, '\r'); break;
        case 't': g_string_append_c(g, '\t'); break;
        case 'u': {
            int u = ps->end - ps->p >= 5 ? hex4(ps->p + 1) : -1;
            if (u < 0) {
                perr(ps, "bad \\u escape");
                break;
            }
            ps->p += 4;
            if (u >= 0xd800 && u < 0xdc00 && ps->end - ps->p >= 7 && ps->p[1] == '\\' &&
                ps->p[2] == 'u') {
                int lo = hex4(ps->p + 3);
                if (lo >= 0xdc00 && lo < 0xe000) {
                    u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                    ps->p += 6;
                }
            }
            if ((u >= 0xd800 && u < 0xe000) || u == 0) {
                u = 0xfffd; /* lone surrogates, NUL */
            }
            g_string_append_unichar(g, (gunichar)u);
            break;
        }
        default:
            perr(ps, "bad escape '\\%c'", *ps->p);
            break;
        }
        if (ps->failed) {
            break;
        }
        ps->p++;
    }
    if (!ps->failed && ps->p >= ps->end) {
        perr(ps, "unterminated string");
    }
    if (ps->failed) {
        g_string_free(g, TRUE);
        return NULL;
    }
    ps->p++;
    return g_string_free(g, FALSE);
}

static JsonValue *parse_value(Parser *ps, int depth);

static JsonValue *new_value(JsonType t)
{
    JsonValue *v = g_new0(JsonValue, 1);

    v->type = t;
    return v;
}

static bool push(JsonValue *v, char *key, JsonValue *item)
{
    if (v->n % 16 == 0) {
        v->items = g_renew(JsonValue *, v->items, v->n + 16);
        if (v->type == JSON_OBJECT) {
            v->keys = g_renew(char *, v->keys, v->n + 16);
        }
    }
    v->items[v->n] = item;
    if (v->type == JSON_OBJECT) {
        v->keys[v->n] = key;
    }
    v->n++;
    return true;
}

static JsonValue *parse_container(Parser *ps, int depth, bool object)
{
    JsonValue *v = new_value(object ? JSON_OBJECT : JSON_ARRAY);
    char close = object ? '}' : ']';

    ps->p++;
    ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        JsonValue *item;

        ws(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') {
                perr(ps, "expected a member name");
                break;
            }
            key = parse_string(ps);
            if (!key) {
                break;
            }
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                g_free(key);
                perr(ps, "expected ':'");
                break;
            }
            ps->p++;
        }
        item = parse_value(ps, depth + 1);
        if (!item) {
            g_free(key);
            break;
        }
        push(v, key, item);
        ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return v;
        }
        perr(ps, "expected ',' or '%c'", close);
        break;
    }
    json_free(v);
    return NULL;
}

static JsonValue *parse_number(Parser *ps)
{
    const char *s = ps->p;
    char *text, *end;
    JsonValue *v;

    if (ps->p < ps->end && *ps->p == '-') {
        ps->p++;
    }
    if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p)) {
        perr(ps, "bad number");
        return NULL;
    }
    if (*ps->p == '0') {
        ps->p++;
    } else {
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p)) {
            ps->p++;
        }
    }
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p)) {
            perr(ps, "bad number");
            return NULL;
        }
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p)) {
            ps->p++;
        }
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) {
            ps->p++;
        }
        if (ps->p >= ps->end || !g_ascii_isdigit(*ps->p)) {
            perr(ps, "bad number");
            return NULL;
        }
        while (ps->p < ps->end && g_ascii_isdigit(*ps->p)) {
            ps->p++;
        }
    }
    text = g_strndup(s, (gsize)(ps->p - s));
    v = new_value(JSON_NUMBER);
    v->str = text;
    v->num = g_ascii_strtod(text, &end);
    return v;
}

static bool literal(Parser *ps, const char *w)
{
    size_t n = strlen(w);

    if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, w, n) == 0) {
        ps->p += n;
        return true;
    }
    return false;
}

static JsonValue *parse_value(Parser *ps, int depth)
{
    if (depth > MAX_DEPTH) {
        perr(ps, "nested more than %d levels", MAX_DEPTH);
        return NULL;
    }
    ws(ps);
    if (ps->p >= ps->end) {
        perr(ps, "unexpected end of input");
        return NULL;
    }
    switch (*ps->p) {
    case '{': return parse_container(ps, depth, true);
    case '[': return parse_container(ps, depth, false);
    case '"': {
        char *s = parse_string(ps);
        JsonValue *v;
        if (!s) {
            return NULL;
        }
        v = new_value(JSON_STRING);
        v->str = s;
        return v;
    }
    default:
        break;
    }
    if (literal(ps, "null")) {
        return new_value(JSON_NULL);
    }
    if (literal(ps, "true")) {
        return new_value(JSON_TRUE);
    }
    if (literal(ps, "false")) {
        return new_value(JSON_FALSE);
    }
    return parse_number(ps);
}

JsonValue *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    Parser ps = { text, text, text + len, err, errlen, false };
    JsonValue *v = parse_value(&ps, 0);

    if (v) {
        ws(&ps);
        if (ps.p != ps.end) {
            perr(&ps, "text after the value");
            json_free(v);
            v = NULL;
        }
    }
    return v;
}

void json_free(JsonValue *v)
{
    if (!v) {
        return;
    }
    for (size_t i = 0; i < v->n; i++) {
        json_free(v->items[i]);
        if (v->keys) {
            g_free(v->keys[i]);
        }
    }
    g_free(v->items);
    g_free(v->keys);
    g_free(v->str);
    g_free(v);
}

const JsonValue *json_get(const JsonValue *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT) {
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++) {
        if (strcmp(v->keys[i], key) == 0) {
            return v->items[i];
        }
    }
    return NULL;
}

const char *json_string(const JsonValue *v)
{
    return v && v->type == JSON_STRING ? v->str : NULL;
}

double json_number(const JsonValue *v, double def)
{
    return v && v->type == JSON_NUMBER ? v->num : def;
}
