/*
 * linx-as symbol table and numeric local labels.
 *
 * Symbols live in one array (LinxAs.syms) indexed through an open-addressing
 * hash table of indices, so pointers into the array are only valid until
 * the next as_sym_intern().  A symbol is a label ((section, offset) until
 * the sections get addresses), or an .equ/.set value.  An .equ whose
 * expression names later symbols stays "pending" and is evaluated on first
 * use (cycles are reported).
 *
 * Numeric local labels ("1:", referenced as "1b" / "1f") are not symbols:
 * each number keeps the list of its defining statements, and a reference
 * picks the nearest one before or after the statement being assembled.
 */
#include <stdio.h>
#include <string.h>

#include "as-internal.h"

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */

    for (size_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    }
    return h;
}

static void rehash(LinxAs *as)
{
    uint32_t cap = as->hash_cap ? as->hash_cap * 2 : 256;

    free(as->hash);
    as->hash = as_xcalloc(cap, sizeof(uint32_t));
    as->hash_cap = cap;
    for (uint32_t i = 0; i < as->nsyms; i++) {
        const char *name = as->syms[i].name;
        uint32_t h = hash_name(name, strlen(name)) & (cap - 1);
        while (as->hash[h]) {
            h = (h + 1) & (cap - 1);
        }
        as->hash[h] = i + 1;
    }
}

AsSymbol *as_sym_find(const LinxAs *as, const char *name, size_t len)
{
    uint32_t h;

    if (!as->hash_cap) {
        return NULL;
    }
    h = hash_name(name, len) & (as->hash_cap - 1);
    while (as->hash[h]) {
        AsSymbol *s = &as->syms[as->hash[h] - 1];
        if (strncmp(s->name, name, len) == 0 && s->name[len] == '\0') {
            return s;
        }
        h = (h + 1) & (as->hash_cap - 1);
    }
    return NULL;
}

uint32_t as_sym_intern(LinxAs *as, const char *name, size_t len)
{
    AsSymbol *s = as_sym_find(as, name, len);
    uint32_t h;

    if (s) {
        return (uint32_t)(s - as->syms);
    }
    if ((as->nsyms + 1) * 2 > as->hash_cap) {
        rehash(as);
    }
    as_grow((void **)&as->syms, &as->syms_cap, as->nsyms + 1, sizeof(AsSymbol));
    s = &as->syms[as->nsyms];
    memset(s, 0, sizeof(*s));
    s->name = as_xstrndup(name, len);
    s->sec = AS_SEC_UNDEF;
    h = hash_name(name, len) & (as->hash_cap - 1);
    while (as->hash[h]) {
        h = (h + 1) & (as->hash_cap - 1);
    }
    as->hash[h] = as->nsyms + 1;
    return as->nsyms++;
}

/* Evaluate pending .equ @idx once, where it was written ('.' means its
 * location).  Pending symbols it names are not evaluated (as->equ_defer):
 * the first one is left in as->equ_missing. */
static bool equ_eval_once(LinxAs *as, uint32_t idx, AsValue *v, bool *symbolic, char *err,
                          size_t errlen)
{
    const AsSymbol *s = &as->syms[idx];
    const char *p = s->equ_expr;
    uint32_t saved_stmt = as->cur_stmt;
    int saved_sec = as->cur_sec;
    uint64_t saved_lc = saved_sec >= 0 ? as->secs[saved_sec].lc : 0;
    const AsStmt *st = &as->stmts[s->equ_stmt];
    bool ok;

    as->cur_stmt = s->equ_stmt;
    as->cur_sec = st->sec;
    as->secs[st->sec].lc = st->off;
    as->equ_missing = 0;
    *symbolic = false;
    ok = as_expr_sym(as, &p, v, symbolic, err, errlen);
    as->cur_stmt = saved_stmt;
    as->cur_sec = saved_sec;
    if (saved_sec >= 0) {
        as->secs[saved_sec].lc = saved_lc;
    }
    return ok;
}

/*
 * Resolve pending .equ @top without recursion: a stack of the symbols
 * being evaluated (state BUSY).  The top one is evaluated; when it names a
 * pending symbol that one is pushed and the top is evaluated again once it
 * is done.  A chain of N .equ costs about 2N evaluations and no C stack
 * (a 20,000-link chain used to overflow it); naming a BUSY symbol is a
 * cycle.  Symbols that stay unknown are marked with this round's number
 * so that the others do not push them again.
 */
static bool equ_resolve(LinxAs *as, uint32_t top, char *err, size_t errlen)
{
    uint32_t *stack = NULL, n = 0, cap = 0;
    uint32_t gen = ++as->equ_gen;
    bool ok = true;

    as->equ_defer = true;
    as_grow((void **)&stack, &cap, 1, sizeof(uint32_t));
    stack[n++] = top;
    as->syms[top].equ_state = AS_EQU_BUSY;
    while (n > 0) {
        uint32_t t = stack[n - 1];
        AsValue v;
        bool symbolic;
        AsSymbol *s;

        if (!equ_eval_once(as, t, &v, &symbolic, err, errlen)) {
            ok = false;
            break;
        }
        if (as->equ_missing) {
            uint32_t u = as->equ_missing - 1;
            as_grow((void **)&stack, &cap, n + 1, sizeof(uint32_t));
            stack[n++] = u;
            as->syms[u].equ_state = AS_EQU_BUSY;
            continue;
        }
        s = &as->syms[t];
        s->is_address = symbolic;
        if (v.known) {
            s->equ_state = AS_EQU_NONE;
            s->sec = v.sec;
            s->value = v.v;
        } else {
            s->equ_state = AS_EQU_PENDING;
            s->equ_gen = gen;
        }
        n--;
    }
    /* On an error the symbols still on the stack stay pending. */
    for (uint32_t i = 0; i < n; i++) {
        as->syms[stack[i]].equ_state = AS_EQU_PENDING;
    }
    free(stack);
    as->equ_defer = false;
    return ok;
}

bool as_sym_value(LinxAs *as, AsSymbol *s, AsValue *out, char *err, size_t errlen)
{
    uint32_t idx = (uint32_t)(s - as->syms);

    if (s->equ_state == AS_EQU_BUSY) {
        snprintf(err, errlen, "bad expression: circular definition: '%s' depends on itself", s->name);
        return false;
    }
    if (s->equ_state == AS_EQU_PENDING && as->equ_defer) {
        /* Inside equ_resolve: report the dependency instead of recursing. */
        if (s->equ_gen != as->equ_gen && !as->equ_missing) {
            as->equ_missing = idx + 1;
        }
        out->known = false;
        out->v = 0;
        out->sec = AS_SEC_ABS;
        return true;
    }
    if (s->equ_state == AS_EQU_PENDING) {
        if (!equ_resolve(as, idx, err, errlen)) {
            return false;
        }
        s = &as->syms[idx];
        if (s->equ_state == AS_EQU_PENDING) {
            out->known = false;
            out->v = 0;
            out->sec = AS_SEC_ABS;
            return true;
        }
    }
    if (!s->defined) {
        out->known = false;
        out->v = 0;
        out->sec = AS_SEC_ABS;
        return true;
    }
    if (s->sec == AS_SEC_ABS) {
        out->v = s->value;
        out->sec = AS_SEC_ABS;
        out->known = true;
        return true;
    }
    *out = as_value_of_loc(as, s->sec, (uint64_t)s->value);
    return true;
}

static AsNumLabel *numlabel_find(LinxAs *as, uint64_t num, bool create)
{
    for (uint32_t i = 0; i < as->nnumlabels; i++) {
        if (as->numlabels[i].num == num) {
            return &as->numlabels[i];
        }
    }
    if (!create) {
        return NULL;
    }
    as_grow((void **)&as->numlabels, &as->numlabels_cap, as->nnumlabels + 1,
            sizeof(AsNumLabel));
    as->numlabels[as->nnumlabels].num = num;
    return &as->numlabels[as->nnumlabels++];
}

void as_numlabel_define(LinxAs *as, uint64_t num, uint32_t stmt)
{
    AsNumLabel *l = numlabel_find(as, num, true);

    as_grow((void **)&l->stmts, &l->cap, l->n + 1, sizeof(uint32_t));
    l->stmts[l->n++] = stmt;
}

bool as_numlabel_value(LinxAs *as, uint64_t num, bool forward, AsValue *out)
{
    AsNumLabel *l = numlabel_find(as, num, false);
    uint32_t cur = as->cur_stmt;
    int64_t found = -1;

    if (!l) {
        return false;
    }
    /* Definitions are in statement order: binary search for the first one
     * after the current statement. */
    {
        uint32_t lo = 0, hi = l->n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (l->stmts[mid] <= cur) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (forward) {
            found = lo < l->n ? (int64_t)l->stmts[lo] : -1;
        } else {
            /* A label on the current statement counts as "before". */
            found = lo > 0 ? (int64_t)l->stmts[lo - 1] : -1;
        }
    }
    if (found < 0) {
        return false;
    }
    {
        const AsStmt *st = &as->stmts[found];
        *out = as_value_of_loc(as, st->sec, st->off);
    }
    return true;
}

void as_symbols_free(LinxAs *as)
{
    for (uint32_t i = 0; i < as->nsyms; i++) {
        free(as->syms[i].name);
        free((char *)as->syms[i].equ_expr);
    }
    free(as->syms);
    free(as->hash);
    for (uint32_t i = 0; i < as->nnumlabels; i++) {
        free(as->numlabels[i].stmts);
    }
    free(as->numlabels);
}
