/*
 * linx-as listing (-a): every source line with the address and the bytes
 * assembled from it.
 *
 *   line  address   bytes                source
 *     12  00010004  04000f95             addi zero, 64, ->t
 *     13  00010008  0800                 C.BSTART.STD
 *
 * Instruction bytes are grouped the way llvm-objdump prints them (16-bit
 * halfwords and 32-bit words, little-endian values), data bytes one by
 * one, eight per row.  A template block prints one row per expanded
 * header instruction, with its text after "+".  Lines without bytes show
 * only the line number and the source.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "as-internal.h"

#define LIST_DATA_PER_ROW 8
#define LIST_MAX_DATA_ROWS 8 /* then "..." */
#define LIST_BYTES_WIDTH 23

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* Bytes of one instruction as llvm-objdump shows them. */
static void insn_bytes(char *buf, size_t len, const uint8_t *p, unsigned n)
{
    switch (n) {
    case 2:
        snprintf(buf, len, "%04" PRIx64, le(p, 2));
        break;
    case 4:
        snprintf(buf, len, "%08" PRIx64, le(p, 4));
        break;
    case 6:
        snprintf(buf, len, "%04" PRIx64 " %08" PRIx64, le(p, 2), le(p + 2, 4));
        break;
    default:
        snprintf(buf, len, "%08" PRIx64 " %08" PRIx64, le(p, 4), le(p + 4, 4));
        break;
    }
}

static const char *line_text(const AsFile *f, uint32_t line, int *len)
{
    const char *s = f->src + f->line_off[line - 1];
    const char *e = s;

    while (*e && *e != '\n' && *e != '\r') {
        e++;
    }
    *len = (int)(e - s);
    return s;
}

static void row(FILE *out, uint32_t line, bool has_addr, uint64_t addr, const char *bytes,
                const char *src, int srclen)
{
    if (line) {
        fprintf(out, "%6u  ", line);
    } else {
        fprintf(out, "        ");
    }
    if (has_addr) {
        fprintf(out, "%08" PRIx64 "  ", addr);
    } else {
        fprintf(out, "%8s  ", "");
    }
    fprintf(out, "%-*s %.*s\n", LIST_BYTES_WIDTH, bytes, srclen, src);
}

static void list_stmt(LinxAs *as, FILE *out, const AsStmt *st, bool first_on_line,
                      const char *src, int srclen)
{
    const AsSection *s = &as->secs[st->sec];
    uint64_t addr = s->addr + st->off;
    const uint8_t *data = s->data ? s->data + st->off : NULL;
    char bytes[64];
    uint32_t line = first_on_line ? st->line : 0;
    bool has_addr = as_sec_loaded(s) || st->size;

    if (!first_on_line) {
        src = "";
        srclen = 0;
    }
    if (st->size == 0 || st->failed) {
        if (first_on_line) {
            row(out, line, st->kind == AS_ST_LABEL && has_addr, addr, "", src, srclen);
        }
        return;
    }
    if (st->kind == AS_ST_INSN && data) {
        insn_bytes(bytes, sizeof(bytes), data, (unsigned)st->size);
        row(out, line, true, addr, bytes, src, srclen);
        return;
    }
    if (st->kind == AS_ST_TEMPLATE && data) {
        unsigned off = 0, len;
        const char *text;
        for (unsigned i = 0; (text = as_template_insn_text(st->tmpl, i, &len)) != NULL; i++) {
            char extra[96];
            insn_bytes(bytes, sizeof(bytes), data + off, len);
            if (i == 0) {
                row(out, line, true, addr + off, bytes, src, srclen);
            }
            snprintf(extra, sizeof(extra), "    + %s", text);
            row(out, 0, true, addr + off, i == 0 ? "" : bytes, extra, (int)strlen(extra));
            off += len;
        }
        return;
    }
    if (!data) {
        /* NOBITS space: no bytes to show. */
        snprintf(bytes, sizeof(bytes), "(%llu bytes)", (unsigned long long)st->size);
        row(out, line, true, addr, bytes, src, srclen);
        return;
    }
    /* Data. */
    for (uint64_t off = 0, r = 0; off < st->size; off += LIST_DATA_PER_ROW, r++) {
        size_t n = 0;
        if (r == LIST_MAX_DATA_ROWS) {
            row(out, 0, false, 0, "...", "", 0);
            break;
        }
        bytes[0] = '\0';
        for (uint64_t k = off; k < st->size && k < off + LIST_DATA_PER_ROW; k++) {
            n += (size_t)snprintf(bytes + n, sizeof(bytes) - n, k > off ? " %02x" : "%02x", data[k]);
        }
        row(out, r == 0 ? line : 0, true, addr + off, bytes, r == 0 ? src : "",
            r == 0 ? srclen : 0);
    }
}

void linx_as_listing(LinxAs *as, FILE *out)
{
    uint32_t *printed = as_xcalloc(as->nfiles + 1, sizeof(uint32_t));
    uint32_t prev_file = UINT32_MAX, prev_line = 0;

    fprintf(out, "%6s  %-8s  %-*s %s\n", "line", "address", LIST_BYTES_WIDTH, "bytes", "source");
    for (uint32_t i = 0; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        const AsFile *f = &as->files[st->file];
        bool first = st->file != prev_file || st->line != prev_line;
        int srclen;
        const char *src;

        /* A label followed by a statement on its line: list the statement. */
        if (st->kind == AS_ST_LABEL && i + 1 < as->nstmts && as->stmts[i + 1].file == st->file &&
            as->stmts[i + 1].line == st->line) {
            continue;
        }
        if (st->file != prev_file) {
            fprintf(out, "%s:\n", f->name);
        }
        /* Lines without statements (comments, blank) before this one. */
        for (uint32_t l = printed[st->file] + 1; first && l < st->line; l++) {
            src = line_text(f, l, &srclen);
            row(out, l, false, 0, "", src, srclen);
        }
        src = line_text(f, st->line, &srclen);
        list_stmt(as, out, st, first, src, srclen);
        if (st->line > printed[st->file]) {
            printed[st->file] = st->line;
        }
        prev_file = st->file;
        prev_line = st->line;
    }
    free(printed);
}
