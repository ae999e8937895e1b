/*
 * linx-as output: ELF64 little-endian (EM 0xE9) executables and
 * relocatable files, and raw binaries.
 *
 * ET_EXEC: static, one PT_LOAD per permission group (R+X, R, R+W; see
 * sections.c for the page-aligned layout), file offsets congruent to the
 * addresses modulo 4 KiB, entry from -e / _start / .text, with a symbol
 * table.
 * ET_REL: what the virt machine loads: no program headers and no
 * relocations (every expression was resolved); sh_addr holds the address
 * each section was assembled for (.text at the base, 0x10000 by default)
 * and symbol values are offsets in their section, as usual for ET_REL.
 * Raw binary: the bytes from the lowest to the highest loaded PROGBITS
 * address, gaps zero-filled.
 *
 * The symbol table has the section symbols, the .file name, local labels
 * except assembler temporaries (.L*), .equ constants (SHN_ABS), then the
 * global and weak symbols.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as-internal.h"
#include "util/elf-file.h"
#include "util/file-write.h"

#define ELF_HDR_SIZE 64u
#define ELF_PHDR_SIZE 56u
#define ELF_SHDR_SIZE 64u
#define ELF_SYM_SIZE 24u
#define ELF_PAGE 0x1000u
#define ELF_SHN_ABS 0xfff1u
#define ELF_STT_SECTION 3u
#define ELF_STT_FILE 4u
#define ELF_STB_LOCAL 0u
#define ELF_MAX_SEGMENTS 4

/* A growable byte buffer. */
typedef struct OutBuf {
    uint8_t *p;
    size_t len, cap;
} OutBuf;

static void ob_reserve(OutBuf *b, size_t n)
{
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->len + n) {
            c *= 2;
        }
        b->p = as_xrealloc(b->p, c);
        b->cap = c;
    }
}

static void ob_put(OutBuf *b, const void *p, size_t n)
{
    ob_reserve(b, n);
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void ob_zero_to(OutBuf *b, size_t off)
{
    if (off > b->len) {
        ob_reserve(b, off - b->len);
        memset(b->p + b->len, 0, off - b->len);
        b->len = off;
    }
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static size_t strtab_add(OutBuf *b, const char *s)
{
    size_t off = b->len;
    ob_put(b, s, strlen(s) + 1);
    return off;
}

static bool sec_output(const AsSection *s)
{
    return s->size > 0 || s->explicit_use;
}

static bool sym_output(const AsSymbol *s)
{
    if (!s->defined || s->equ_state != AS_EQU_NONE) {
        return false;
    }
    /* Assembler temporaries stay out of the table (as gas does). */
    return !(s->name[0] == '.' && s->name[1] == 'L');
}

typedef struct Segment {
    uint32_t flags;
    uint64_t vaddr, filesz, memsz, offset;
    int first, last; /* positions in the address-sorted section list */
} Segment;

static uint32_t seg_flags(const AsSection *s)
{
    uint32_t f = ELF_PF_R;
    if (s->flags & ELF_SHF_EXECINSTR) {
        f |= ELF_PF_X;
    }
    if (s->flags & ELF_SHF_WRITE) {
        f |= ELF_PF_W;
    }
    return f;
}

/* Non-empty loaded sections sorted by address (indices into as->secs). */
static int loaded_by_addr(const LinxAs *as, int *order)
{
    int n = 0;

    for (int i = 0; i < as->nsecs; i++) {
        if (as_sec_loaded(&as->secs[i]) && as->secs[i].size > 0) {
            order[n++] = i;
        }
    }
    for (int i = 1; i < n; i++) {
        int v = order[i], j = i;
        while (j > 0 && as->secs[order[j - 1]].addr > as->secs[v].addr) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    return n;
}

static int build_segments(const LinxAs *as, const int *order, int n, Segment *segs)
{
    int nseg = 0;

    for (int k = 0; k < n; k++) {
        const AsSection *s = &as->secs[order[k]];
        uint32_t f = seg_flags(s);
        Segment *g = nseg ? &segs[nseg - 1] : NULL;
        if (!g || g->flags != f) {
            if (nseg == ELF_MAX_SEGMENTS) {
                g->flags |= f; /* more permission changes than segments: merge */
            } else {
                g = &segs[nseg++];
                memset(g, 0, sizeof(*g));
                g->flags = f;
                g->vaddr = s->addr;
                g->first = k;
            }
        }
        g->last = k;
        g->memsz = s->addr + s->size - g->vaddr;
        if (s->type != ELF_SHT_NOBITS) {
            g->filesz = g->memsz;
        }
    }
    return nseg;
}

static bool build_binary(LinxAs *as, uint8_t **buf, size_t *len)
{
    int order[256];
    uint64_t lo = UINT64_MAX, hi = 0;
    int n = as->nsecs <= 256 ? loaded_by_addr(as, order) : 0;
    uint8_t *out;

    if (as->nsecs > 256) {
        as_error_nopos(as, "too many sections for a raw binary (%d)", as->nsecs);
        return false;
    }
    for (int k = 0; k < n; k++) {
        const AsSection *s = &as->secs[order[k]];
        if (s->type == ELF_SHT_NOBITS || s->size == 0) {
            continue;
        }
        lo = s->addr < lo ? s->addr : lo;
        hi = s->addr + s->size > hi ? s->addr + s->size : hi;
    }
    if (lo > hi) {
        lo = hi = 0;
    }
    out = as_xcalloc((size_t)(hi - lo) + 1, 1);
    for (int k = 0; k < n; k++) {
        const AsSection *s = &as->secs[order[k]];
        if (s->type != ELF_SHT_NOBITS && s->size) {
            memcpy(out + (s->addr - lo), s->data, (size_t)s->size);
        }
    }
    *buf = out;
    *len = (size_t)(hi - lo);
    return true;
}

static void write_ehdr(uint8_t *h, const LinxAs *as, bool exec, uint16_t phnum, uint64_t shoff,
                       uint16_t shnum, uint16_t shstrndx)
{
    static const uint8_t ident[16] = { 0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* LE */,
                                       1 /* EV_CURRENT */ };
    memcpy(h, ident, sizeof(ident));
    put_le(h + 16, exec ? ELF_ET_EXEC : ELF_ET_REL, 2);
    put_le(h + 18, EM_LINXISA, 2);
    put_le(h + 20, 1, 4);
    put_le(h + 24, exec ? as->entry : 0, 8);
    put_le(h + 32, phnum ? ELF_HDR_SIZE : 0, 8);
    put_le(h + 40, shoff, 8);
    put_le(h + 48, 0, 4);
    put_le(h + 52, ELF_HDR_SIZE, 2);
    put_le(h + 54, phnum ? ELF_PHDR_SIZE : 0, 2);
    put_le(h + 56, phnum, 2);
    put_le(h + 58, ELF_SHDR_SIZE, 2);
    put_le(h + 60, shnum, 2);
    put_le(h + 62, shstrndx, 2);
}

static void put_shdr(OutBuf *b, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                     uint64_t off, uint64_t size, uint32_t link, uint32_t info, uint64_t align,
                     uint64_t entsize)
{
    uint8_t h[ELF_SHDR_SIZE];

    put_le(h, name, 4);
    put_le(h + 4, type, 4);
    put_le(h + 8, flags, 8);
    put_le(h + 16, addr, 8);
    put_le(h + 24, off, 8);
    put_le(h + 32, size, 8);
    put_le(h + 40, link, 4);
    put_le(h + 44, info, 4);
    put_le(h + 48, align, 8);
    put_le(h + 56, entsize, 8);
    ob_put(b, h, sizeof(h));
}

static void put_sym(OutBuf *b, uint32_t name, uint8_t info, uint16_t shndx, uint64_t value,
                    uint64_t size)
{
    uint8_t e[ELF_SYM_SIZE] = { 0 };

    put_le(e, name, 4);
    e[4] = info;
    put_le(e + 6, shndx, 2);
    put_le(e + 8, value, 8);
    put_le(e + 16, size, 8);
    ob_put(b, e, sizeof(e));
}

/* Symbol table and string table; returns the index of the first global. */
static uint32_t build_symtab(LinxAs *as, bool exec, OutBuf *sym, OutBuf *str)
{
    uint32_t first_global = 1;

    strtab_add(str, "");
    put_sym(sym, 0, 0, 0, 0, 0);
    if (as->file_sym) {
        put_sym(sym, (uint32_t)strtab_add(str, as->file_sym), ELF_STT_FILE, ELF_SHN_ABS, 0, 0);
    }
    for (int i = 0; i < as->nsecs; i++) {
        const AsSection *s = &as->secs[i];
        if (sec_output(s)) {
            put_sym(sym, 0, ELF_STT_SECTION, (uint16_t)s->elf_index, exec ? s->addr : 0, 0);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            first_global = (uint32_t)(sym->len / ELF_SYM_SIZE);
        }
        for (uint32_t i = 0; i < as->nsyms; i++) {
            AsSymbol *s = &as->syms[i];
            bool global = s->bind != ELF_STB_LOCAL;
            uint16_t shndx;
            uint64_t value;

            if (global != (pass == 1) || !sym_output(s)) {
                continue;
            }
            if (s->sec >= 0) {
                shndx = (uint16_t)as->secs[s->sec].elf_index;
                value = (uint64_t)s->value;
                if (exec) {
                    value += as->secs[s->sec].addr;
                }
            } else {
                shndx = ELF_SHN_ABS;
                value = (uint64_t)s->value;
            }
            put_sym(sym, (uint32_t)strtab_add(str, s->name), (uint8_t)(s->bind << 4 | s->type),
                    shndx, value, s->has_size ? s->size : 0);
        }
    }
    return first_global;
}

static bool build_elf(LinxAs *as, bool exec, uint8_t **buf, size_t *len)
{
    OutBuf out = { 0 }, shdrs = { 0 }, shstr = { 0 }, sym = { 0 }, str = { 0 };
    int order[256];
    Segment segs[ELF_MAX_SEGMENTS];
    int nload = 0, nseg = 0;
    uint32_t nshdr = 1, first_global;
    uint64_t *sec_off;
    uint32_t symtab_idx, strtab_idx, shstrtab_idx;

    if (as->nsecs > 256) {
        as_error_nopos(as, "too many sections (%d, at most 256)", as->nsecs);
        return false;
    }
    for (int i = 0; i < as->nsecs; i++) {
        AsSection *s = &as->secs[i];
        s->elf_index = sec_output(s) ? nshdr++ : 0;
    }
    symtab_idx = nshdr++;
    strtab_idx = nshdr++;
    shstrtab_idx = nshdr++;
    sec_off = as_xcalloc((size_t)as->nsecs + 1, sizeof(uint64_t));

    if (exec) {
        nload = loaded_by_addr(as, order);
        nseg = build_segments(as, order, nload, segs);
    }
    ob_zero_to(&out, ELF_HDR_SIZE + (size_t)nseg * ELF_PHDR_SIZE);

    /* Loaded contents. */
    if (exec) {
        for (int g = 0; g < nseg; g++) {
            Segment *sg = &segs[g];
            uint64_t off = out.len;
            off = (off & ~(uint64_t)(ELF_PAGE - 1)) + (sg->vaddr & (ELF_PAGE - 1));
            if (off < out.len) {
                off += ELF_PAGE;
            }
            sg->offset = off;
            ob_zero_to(&out, (size_t)off);
            for (int k = sg->first; k <= sg->last; k++) {
                const AsSection *s = &as->secs[order[k]];
                sec_off[order[k]] = off + (s->addr - sg->vaddr);
                if (s->type != ELF_SHT_NOBITS && s->size) {
                    ob_zero_to(&out, (size_t)sec_off[order[k]]);
                    ob_put(&out, s->data, (size_t)s->size);
                }
            }
        }
    }
    /* Everything not in a segment: packed at its alignment. */
    for (int i = 0; i < as->nsecs; i++) {
        const AsSection *s = &as->secs[i];
        uint64_t a = s->align ? s->align : 1;
        if (!sec_output(s) || (exec && as_sec_loaded(s))) {
            continue;
        }
        sec_off[i] = (out.len + a - 1) & ~(a - 1);
        if (s->type != ELF_SHT_NOBITS) {
            ob_zero_to(&out, (size_t)sec_off[i]);
            ob_put(&out, s->data, (size_t)s->size);
        }
    }

    first_global = build_symtab(as, exec, &sym, &str);

    /* Section headers. */
    strtab_add(&shstr, "");
    put_shdr(&shdrs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int i = 0; i < as->nsecs; i++) {
        const AsSection *s = &as->secs[i];
        if (!s->elf_index) {
            continue;
        }
        put_shdr(&shdrs, (uint32_t)strtab_add(&shstr, s->name), s->type, s->flags,
                 as_sec_loaded(s) ? s->addr : 0, sec_off[i], s->size, 0, 0, s->align, 0);
    }
    {
        uint64_t off;
        uint32_t n_symtab = (uint32_t)strtab_add(&shstr, ".symtab");
        uint32_t n_strtab = (uint32_t)strtab_add(&shstr, ".strtab");
        uint32_t n_shstrtab = (uint32_t)strtab_add(&shstr, ".shstrtab");

        off = (out.len + 7) & ~(uint64_t)7;
        ob_zero_to(&out, (size_t)off);
        ob_put(&out, sym.p, sym.len);
        put_shdr(&shdrs, n_symtab, ELF_SHT_SYMTAB, 0, 0, off, sym.len, strtab_idx, first_global,
                 8, ELF_SYM_SIZE);
        off = out.len;
        ob_put(&out, str.p, str.len);
        put_shdr(&shdrs, n_strtab, ELF_SHT_STRTAB, 0, 0, off, str.len, 0, 0, 1, 0);
        off = out.len;
        ob_put(&out, shstr.p, shstr.len);
        put_shdr(&shdrs, n_shstrtab, ELF_SHT_STRTAB, 0, 0, off, shstr.len, 0, 0, 1, 0);
    }
    {
        uint64_t shoff = (out.len + 7) & ~(uint64_t)7;
        ob_zero_to(&out, (size_t)shoff);
        ob_put(&out, shdrs.p, shdrs.len);
        write_ehdr(out.p, as, exec, (uint16_t)nseg, shoff, (uint16_t)nshdr,
                   (uint16_t)shstrtab_idx);
    }
    for (int g = 0; g < nseg; g++) {
        uint8_t *ph = out.p + ELF_HDR_SIZE + (size_t)g * ELF_PHDR_SIZE;
        put_le(ph, ELF_PT_LOAD, 4);
        put_le(ph + 4, segs[g].flags, 4);
        put_le(ph + 8, segs[g].offset, 8);
        put_le(ph + 16, segs[g].vaddr, 8);
        put_le(ph + 24, segs[g].vaddr, 8);
        put_le(ph + 32, segs[g].filesz, 8);
        put_le(ph + 40, segs[g].memsz, 8);
        put_le(ph + 48, ELF_PAGE, 8);
    }
    (void)symtab_idx;
    free(sec_off);
    free(shdrs.p);
    free(shstr.p);
    free(sym.p);
    free(str.p);
    *buf = out.p;
    *len = out.len;
    return true;
}

bool linx_as_output(LinxAs *as, uint8_t **buf, size_t *len)
{
    if (!as->assembled) {
        return false;
    }
    switch (as->opt.format) {
    case LINX_AS_FMT_BIN:
        return build_binary(as, buf, len);
    case LINX_AS_FMT_REL:
        return build_elf(as, false, buf, len);
    default:
        return build_elf(as, true, buf, len);
    }
}

bool linx_as_write_file(LinxAs *as, const char *path)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    char err[512];
    bool ok;

    if (!linx_as_output(as, &buf, &len)) {
        return false;
    }
    ok = linx_file_write(path, buf, len, as->opt.format == LINX_AS_FMT_EXEC ? 0755 : 0644, err,
                         sizeof(err));
    if (!ok) {
        as_error_nopos(as, "%s", err);
    }
    free(buf);
    return ok;
}
