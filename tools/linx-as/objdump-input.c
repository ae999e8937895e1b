/*
 * Reading an llvm-objdump listing back as assembler input (linx-as
 * --objdump, the listing round-trip tests and the benchmark).
 *
 * A listing line "   a2914: 02b23059     \tsdi\ta2, [s0, 8]" becomes the
 * statement "sdi\ta2, [s0, 8]" placed at 0xa2914: the source starts with
 * the first address as its base, and a gap between instructions becomes
 * ".org".  The bytes column gives the expected image (halfword and word
 * groups are little-endian values, llvm-objdump's convention).  Symbol
 * annotations that follow an address operand (" <.LBB301_13>", "
 * <_Z3foov+0x20>") are dropped: the address itself is the operand.  Every
 * other line (section and symbol headers, "; file:line" notes, comments,
 * blank lines) is skipped.
 */
#include <string.h>

#include "as-internal.h"

#define OBJDUMP_MAX_GROUPS 4

typedef struct OutText {
    char *p;
    size_t len, cap;
} OutText;

static void out_put(OutText *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t c = o->cap ? o->cap : 4096;
        while (c < o->len + n + 1) {
            c *= 2;
        }
        o->p = as_xrealloc(o->p, c);
        o->cap = c;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = '\0';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Parse "  addr: g1 g2\ttext"; false when the line is not an instruction. */
static bool parse_line(const char *s, const char *e, uint64_t *addr, uint8_t *bytes,
                       unsigned *nbytes, const char **text, const char **text_end)
{
    const char *p = s;
    uint64_t a = 0;
    int digits = 0;

    while (p < e && (*p == ' ' || *p == '\t')) {
        p++;
    }
    while (p < e && hexval((unsigned char)*p) >= 0 && digits < 16) {
        a = a << 4 | (uint64_t)hexval((unsigned char)*p++);
        digits++;
    }
    if (!digits || p >= e || *p != ':') {
        return false;
    }
    p++;
    *nbytes = 0;
    for (int g = 0; g < OBJDUMP_MAX_GROUPS; g++) {
        const char *q;
        int n = 0;
        uint64_t v = 0;
        while (p < e && *p == ' ') {
            p++;
        }
        q = p;
        while (q < e && hexval((unsigned char)*q) >= 0 && n < 9) {
            v = v << 4 | (uint64_t)hexval((unsigned char)*q++);
            n++;
        }
        if ((n != 4 && n != 8) || (q < e && *q != ' ' && *q != '\t')) {
            break;
        }
        for (int b = 0; b < n / 2; b++) {
            bytes[(*nbytes)++] = (uint8_t)(v >> (8 * b));
        }
        p = q;
        if (p < e && *p == '\t') {
            break;
        }
    }
    if (*nbytes == 0) {
        return false;
    }
    while (p < e && (*p == ' ' || *p == '\t')) {
        p++;
    }
    if (p >= e) {
        return false;
    }
    /* Drop a trailing " <symbol+off>" annotation. */
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
        e--;
    }
    if (e > p && e[-1] == '>') {
        const char *lt = e - 1;
        while (lt > p && *lt != '<') {
            lt--;
        }
        if (*lt == '<' && lt > p && (lt[-1] == ' ' || lt[-1] == '\t')) {
            e = lt;
            while (e > p && (e[-1] == ' ' || e[-1] == '\t')) {
                e--;
            }
        }
    }
    *addr = a;
    *text = p;
    *text_end = e;
    return true;
}

/* One output line: an instruction's text, a ".org", or empty. */
typedef struct SrcLine {
    const char *text;
    size_t len;
    uint64_t org; /* != UINT64_MAX: this line is ".org org" */
} SrcLine;

bool linx_as_objdump_source(const char *listing, size_t len, char **src, size_t *srclen,
                            uint64_t *base, uint8_t **expect, size_t *expect_len)
{
    OutText out = { 0 };
    SrcLine *lines = NULL;
    size_t nlines = 0, cap = 0, blank = SIZE_MAX;
    uint8_t *img = NULL;
    size_t img_cap = 0;
    uint64_t first = 0, next = 0;
    bool any = false;
    const char *p = listing, *end = listing + len;

    /* Line i of the source is line i of the listing, so that messages
     * point into the listing; a gap's ".org" takes the blank line before
     * the instruction (a symbol header), or a new line when there is none. */
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        const char *text, *text_end;
        uint8_t bytes[OBJDUMP_MAX_GROUPS * 4];
        unsigned n;
        uint64_t addr;
        SrcLine l = { .text = "", .len = 0, .org = UINT64_MAX };

        if (!e) {
            e = end;
        }
        if (parse_line(p, e, &addr, bytes, &n, &text, &text_end) && (!any || addr >= next)) {
            if (!any) {
                first = next = addr;
                any = true;
            }
            if (addr != next) {
                if (blank == SIZE_MAX) {
                    if (nlines == cap) {
                        cap = cap ? cap * 2 : 1024;
                        lines = as_xrealloc(lines, cap * sizeof(SrcLine));
                    }
                    blank = nlines++;
                    lines[blank] = l;
                }
                lines[blank].org = addr - first;
            }
            l.text = text;
            l.len = (size_t)(text_end - text);
            blank = SIZE_MAX;
            if (addr - first + n > img_cap) {
                size_t c = img_cap ? img_cap : 4096;
                while (c < addr - first + n) {
                    c *= 2;
                }
                img = as_xrealloc(img, c);
                memset(img + img_cap, 0, c - img_cap);
                img_cap = c;
            }
            memcpy(img + (addr - first), bytes, n);
            next = addr + n;
        } else if (blank == SIZE_MAX) {
            blank = nlines;
        }
        if (nlines == cap) {
            cap = cap ? cap * 2 : 1024;
            lines = as_xrealloc(lines, cap * sizeof(SrcLine));
        }
        lines[nlines++] = l;
        p = e + 1;
    }
    out_put(&out, "", 0);
    for (size_t i = 0; i < nlines; i++) {
        if (lines[i].org != UINT64_MAX) {
            char org[48];
            snprintf(org, sizeof(org), "\t.org 0x%llx", (unsigned long long)lines[i].org);
            out_put(&out, org, strlen(org));
        } else {
            out_put(&out, lines[i].text, lines[i].len);
        }
        out_put(&out, "\n", 1);
    }
    free(lines);
    *src = out.p;
    *srclen = out.len;
    *base = first;
    *expect = img;
    *expect_len = any ? (size_t)(next - first) : 0;
    return any;
}
