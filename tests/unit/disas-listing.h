/*
 * Reader for the shared llvm-objdump listings (../shared/guest/disasm),
 * used by the disassembler and assembler tests.
 *
 * A listing has label lines "0000000000011ea0 <name>:" and instruction
 * lines "   11766: 02001181     \tBSTART.VPAR\tVCALL"; 32-bit groups are
 * little-endian words, 16-bit groups halfwords, so "0129127f 01f92109"
 * is the 8-byte instruction 7f 12 29 01 09 21 f9 01.
 *
 *   Listing l;
 *   if (listing_load(&l, path)) { ... l.lines[i] ... listing_free(&l); }
 */
#ifndef LINX_TESTS_UNIT_DISAS_LISTING_H
#define LINX_TESTS_UNIT_DISAS_LISTING_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/linx/profile.h"

#define LISTING_MAX_BYTES 16

typedef struct ListingLine {
    unsigned lineno;
    uint64_t addr;
    uint8_t bytes[LISTING_MAX_BYTES];
    unsigned nbytes;
    char *text; /* instruction text, white space as in the file */
} ListingLine;

typedef struct ListingLabel {
    uint64_t addr;
    char *name;
} ListingLabel;

typedef struct Listing {
    ListingLine *lines;
    unsigned nlines;
    ListingLabel *labels; /* in file order (ascending addresses) */
    unsigned nlabels;
} Listing;

static inline char *listing_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* Parse "hex-groups<spaces>\t" into bytes; false if it is not that. */
static inline bool listing_parse_bytes(const char *s, const char *end, ListingLine *l)
{
    l->nbytes = 0;
    while (s < end) {
        const char *t = s;
        while (t < end && isxdigit((unsigned char)*t)) {
            t++;
        }
        unsigned n = (unsigned)(t - s);
        if (n == 4 || n == 8) {
            unsigned long v = 0;
            for (unsigned i = 0; i < n; i++) {
                unsigned ch = (unsigned char)s[i];
                v = v * 16 + (isdigit(ch) ? ch - '0' : (unsigned)tolower(ch) - 'a' + 10);
            }
            if (l->nbytes + n / 2 > LISTING_MAX_BYTES) {
                return false;
            }
            for (unsigned i = 0; i < n / 2; i++) {
                l->bytes[l->nbytes++] = (uint8_t)(v >> (8 * i));
            }
        } else if (n != 0) {
            return false;
        }
        s = t;
        while (s < end && *s == ' ') {
            s++;
        }
        if (n == 0 && s < end) {
            return false;
        }
    }
    return l->nbytes > 0;
}

/* The ISA profile the listing's instruction bytes were made under: the
 * shared llvm-objdump listings come from a compiler that encoded "no
 * modifier" as SrcRType 0 (linx-v0.4).  "auto" (target/linx/profile.h)
 * tells that from disasm_example's bytes; linxisa-v0.4-normalized has too
 * few register ALU forms to tell (*@decided is false), and is linx-v0.4
 * all the same. */
static inline const LinxProfile *listing_profile(const Listing *ls, bool *decided)
{
    LinxProfileVote v;

    memset(&v, 0, sizeof(v));
    for (unsigned i = 0; i < ls->nlines; i++) {
        linx_profile_vote_code(&v, ls->lines[i].bytes, ls->lines[i].nbytes);
    }
    *decided = v.code[0] + v.code[1] + v.code[2] + v.code[3] >= LINX_PROFILE_VOTES_MIN;
    return *decided ? linx_profile_decide(&v, NULL, 0) : linx_profile(LINX_PROFILE_V04);
}

static inline void listing_free(Listing *ls)
{
    for (unsigned i = 0; i < ls->nlines; i++) {
        free(ls->lines[i].text);
    }
    for (unsigned i = 0; i < ls->nlabels; i++) {
        free(ls->labels[i].name);
    }
    free(ls->lines);
    free(ls->labels);
    memset(ls, 0, sizeof(*ls));
}

static inline bool listing_load(Listing *ls, const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[8192];
    unsigned lineno = 0, cap_lines = 0, cap_labels = 0;

    memset(ls, 0, sizeof(*ls));
    if (!f) {
        return false;
    }
    while (fgets(buf, sizeof(buf), f)) {
        size_t len = strcspn(buf, "\r\n");
        char *p = buf, *colon, *tab;

        buf[len] = '\0';
        lineno++;
        /* Label: 16 hex digits, " <name>:" */
        if (len > 20 && isxdigit((unsigned char)buf[0]) && strstr(buf, " <") == buf + 16 &&
            buf[len - 1] == ':' && buf[len - 2] == '>') {
            if (ls->nlabels == cap_labels) {
                cap_labels = cap_labels ? cap_labels * 2 : 64;
                ls->labels = realloc(ls->labels, cap_labels * sizeof(*ls->labels));
            }
            ls->labels[ls->nlabels].addr = strtoull(buf, NULL, 16);
            ls->labels[ls->nlabels].name = listing_strndup(buf + 18, len - 18 - 2);
            ls->nlabels++;
            continue;
        }
        while (*p == ' ') {
            p++;
        }
        colon = strchr(p, ':');
        if (!colon || colon == p || colon[1] != ' ') {
            continue;
        }
        bool hex = true;
        for (char *q = p; q < colon; q++) {
            hex &= isxdigit((unsigned char)*q) != 0;
        }
        tab = strchr(colon, '\t');
        if (!hex || !tab) {
            continue;
        }
        ListingLine l = { .lineno = lineno, .addr = strtoull(p, NULL, 16) };
        const char *b = colon + 1;
        while (*b == ' ') {
            b++;
        }
        const char *be = tab;
        while (be > b && be[-1] == ' ') {
            be--;
        }
        if (!listing_parse_bytes(b, be, &l)) {
            continue;
        }
        l.text = listing_strndup(tab + 1, strlen(tab + 1));
        if (ls->nlines == cap_lines) {
            cap_lines = cap_lines ? cap_lines * 2 : 256;
            ls->lines = realloc(ls->lines, cap_lines * sizeof(*ls->lines));
        }
        ls->lines[ls->nlines++] = l;
    }
    fclose(f);
    return true;
}

/* Add the symbols the listing names without showing their label line:
 * "0x12f58 <name>" annotations with no offset give name's address. */
static inline void listing_add_annotation_symbols(Listing *ls)
{
    unsigned n = ls->nlines;

    for (unsigned i = 0; i < n; i++) {
        const char *t = ls->lines[i].text;
        while ((t = strstr(t, "0x")) != NULL) {
            char *end;
            uint64_t a = strtoull(t, &end, 16);
            const char *gt;
            if (end[0] == ' ' && end[1] == '<' && (gt = strchr(end, '>')) != NULL &&
                !memchr(end, '+', (size_t)(gt - end))) {
                ls->labels = realloc(ls->labels, (ls->nlabels + 1) * sizeof(*ls->labels));
                ls->labels[ls->nlabels].addr = a;
                ls->labels[ls->nlabels].name = listing_strndup(end + 2, (size_t)(gt - end - 2));
                ls->nlabels++;
            }
            t = end;
        }
    }
}

/* The instruction text without llvm-objdump's trailing " <symbol>"
 * annotation (tile sizes like "->t<4KB>" have no blank before '<'). */
static inline void listing_strip_annotation(const char *text, char *out, size_t len)
{
    const char *a = strstr(text, " <");

    snprintf(out, len, "%.*s", a ? (int)(a - text) : (int)strlen(text), text);
}

/* Symbol lookup over the listing's labels: the last label at or before
 * @addr (llvm-objdump prints <label+0xoff>). */
static inline const char *listing_lookup(void *opaque, uint64_t addr, uint64_t *off)
{
    const Listing *ls = opaque;
    const ListingLabel *best = NULL;

    for (unsigned i = 0; i < ls->nlabels; i++) {
        if (ls->labels[i].addr <= addr && (!best || ls->labels[i].addr >= best->addr)) {
            best = &ls->labels[i];
        }
    }
    if (!best) {
        return NULL;
    }
    *off = addr - best->addr;
    return best->name;
}

/* Collapse runs of blanks to one space and trim, into @out. */
static inline void listing_normalise(const char *s, char *out, size_t len)
{
    size_t n = 0;
    bool blank = false;

    while (*s == ' ' || *s == '\t') {
        s++;
    }
    for (; *s && n + 1 < len; s++) {
        if (*s == ' ' || *s == '\t') {
            blank = true;
            continue;
        }
        if (blank && n + 2 < len) {
            out[n++] = ' ';
        }
        blank = false;
        out[n++] = *s;
    }
    out[n] = '\0';
}

#endif /* LINX_TESTS_UNIT_DISAS_LISTING_H */
