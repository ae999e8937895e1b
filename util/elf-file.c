/*
 * Read-only ELF64 little-endian parser (see elf-file.h).
 *
 * Invariant: every pointer handed out points inside ef->data, and every
 * range was checked with range_ok() first.
 */
#include "elf-file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define SHDR_SIZE 64
#define SYM_SIZE 24

/* Cap on what we are willing to read: bigger files are not LinxISA guests. */
#define ELF_MAX_FILE (UINT64_C(1) << 32)

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static bool range_ok(const ElfFile *ef, uint64_t off, uint64_t len)
{
    return off <= ef->size && len <= ef->size - off;
}

static bool fail(char *err, size_t errlen, const char *what, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: ", what);

    if (n < 0 || (size_t)n >= errlen) {
        return false;
    }
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - n, fmt, ap);
    va_end(ap);
    return false;
}

/* A NUL-terminated string at @off inside string-table section @strtab. */
static const char *strtab_get(const ElfFile *ef, const ElfSection *strtab, uint64_t off)
{
    if (!strtab || strtab->type != ELF_SHT_STRTAB || off >= strtab->size) {
        return NULL;
    }
    const char *s = (const char *)ef->data + strtab->offset + off;
    if (!memchr(s, 0, strtab->size - off)) {
        return NULL;
    }
    return s;
}

static int sym_cmp(const void *a, const void *b)
{
    const ElfSymbol *x = a, *y = b;

    if (x->value != y->value) {
        return x->value < y->value ? -1 : 1;
    }
    /* Prefer global and function symbols first among equals. */
    if (x->bind != y->bind) {
        return y->bind - x->bind;
    }
    return (x->type == 2) ? -1 : (y->type == 2) ? 1 : strcmp(x->name, y->name);
}

bool elf_file_parse(ElfFile *ef, const void *data, size_t size, const char *what,
                    char *err, size_t errlen)
{
    memset(ef, 0, sizeof(*ef));
    if ((uint64_t)size > ELF_MAX_FILE) {
        return fail(err, errlen, what, "file too large (%zu bytes)", size);
    }
    ef->data = malloc(size ? size : 1);
    if (!ef->data) {
        return fail(err, errlen, what, "out of memory");
    }
    memcpy(ef->data, data, size);
    ef->size = size;

    const uint8_t *h = ef->data;
    if (size < EHDR_SIZE) {
        elf_file_close(ef);
        return fail(err, errlen, what, "truncated ELF header (%zu bytes, need %d)", size,
                    EHDR_SIZE);
    }
    if (memcmp(h, "\177ELF", 4) != 0) {
        elf_file_close(ef);
        return fail(err, errlen, what, "not an ELF file (bad magic)");
    }
    if (h[4] != 2) {
        elf_file_close(ef);
        /* (h is freed by elf_file_close: report from the caller's copy.) */
        return fail(err, errlen, what, "wrong ELF class %u (LinxISA needs ELFCLASS64)",
                    ((const uint8_t *)data)[4]);
    }
    if (h[5] != 1) {
        elf_file_close(ef);
        return fail(err, errlen, what, "wrong data encoding %u (LinxISA is little-endian)",
                    ((const uint8_t *)data)[5]);
    }
    if (h[6] != 1) {
        elf_file_close(ef);
        return fail(err, errlen, what, "unsupported ELF version %u", ((const uint8_t *)data)[6]);
    }
    ef->type = rd16(h + 16);
    ef->machine = rd16(h + 18);
    ef->entry = rd64(h + 24);
    uint64_t phoff = rd64(h + 32);
    uint64_t shoff = rd64(h + 40);
    ef->flags = rd32(h + 48);
    uint16_t phentsize = rd16(h + 54);
    uint16_t phnum = rd16(h + 56);
    uint16_t shentsize = rd16(h + 58);
    uint16_t shnum = rd16(h + 60);
    uint16_t shstrndx = rd16(h + 62);

    if (phnum) {
        if (phentsize != PHDR_SIZE) {
            elf_file_close(ef);
            return fail(err, errlen, what, "bad program header size %u (expected %d)", phentsize,
                        PHDR_SIZE);
        }
        if (!range_ok(ef, phoff, (uint64_t)phnum * PHDR_SIZE)) {
            elf_file_close(ef);
            return fail(err, errlen, what,
                        "program headers (%u at offset 0x%llx) extend past end of file", phnum,
                        (unsigned long long)phoff);
        }
        ef->segments = calloc(phnum, sizeof(ElfSegment));
        ef->nsegments = phnum;
        for (unsigned i = 0; i < phnum; i++) {
            const uint8_t *p = h + phoff + (uint64_t)i * PHDR_SIZE;
            ElfSegment *s = &ef->segments[i];
            s->type = rd32(p);
            s->flags = rd32(p + 4);
            s->offset = rd64(p + 8);
            s->vaddr = rd64(p + 16);
            s->filesz = rd64(p + 32);
            s->memsz = rd64(p + 40);
            s->align = rd64(p + 48);
            if (s->type == ELF_PT_LOAD || s->type == ELF_PT_INTERP) {
                /* (Copied: elf_file_close frees ef->segments.) */
                const ElfSegment bad = *s;
                if (!range_ok(ef, bad.offset, bad.filesz)) {
                    elf_file_close(ef);
                    return fail(err, errlen, what,
                                "segment %u (offset 0x%llx, size 0x%llx) extends past end of "
                                "file (0x%zx bytes)",
                                i, (unsigned long long)bad.offset, (unsigned long long)bad.filesz,
                                size);
                }
                if (bad.filesz > bad.memsz) {
                    elf_file_close(ef);
                    return fail(err, errlen, what,
                                "segment %u has file size 0x%llx larger than memory size 0x%llx",
                                i, (unsigned long long)bad.filesz, (unsigned long long)bad.memsz);
                }
            }
        }
    }

    if (shnum) {
        if (shentsize != SHDR_SIZE) {
            elf_file_close(ef);
            return fail(err, errlen, what, "bad section header size %u (expected %d)", shentsize,
                        SHDR_SIZE);
        }
        if (!range_ok(ef, shoff, (uint64_t)shnum * SHDR_SIZE)) {
            elf_file_close(ef);
            return fail(err, errlen, what,
                        "section headers (%u at offset 0x%llx) extend past end of file", shnum,
                        (unsigned long long)shoff);
        }
        if (shstrndx >= shnum) {
            elf_file_close(ef);
            return fail(err, errlen, what, "section name table index %u out of range (%u sections)",
                        shstrndx, shnum);
        }
        ef->sections = calloc(shnum, sizeof(ElfSection));
        ef->nsections = shnum;
        for (unsigned i = 0; i < shnum; i++) {
            const uint8_t *p = h + shoff + (uint64_t)i * SHDR_SIZE;
            ElfSection *s = &ef->sections[i];
            s->index = i;
            s->type = rd32(p + 4);
            s->flags = rd64(p + 8);
            s->addr = rd64(p + 16);
            s->offset = rd64(p + 24);
            s->size = rd64(p + 32);
            s->link = rd32(p + 40);
            s->info = rd32(p + 44);
            s->align = rd64(p + 48);
            s->entsize = rd64(p + 56);
            if (s->type != ELF_SHT_NOBITS && s->type != ELF_SHT_NULL &&
                !range_ok(ef, s->offset, s->size)) {
                const uint64_t off = s->offset, sz = s->size; /* freed by close */
                elf_file_close(ef);
                return fail(err, errlen, what,
                            "section %u (offset 0x%llx, size 0x%llx) extends past end of file", i,
                            (unsigned long long)off, (unsigned long long)sz);
            }
        }
        const ElfSection *shstr = &ef->sections[shstrndx];
        for (unsigned i = 0; i < shnum; i++) {
            const uint8_t *p = h + shoff + (uint64_t)i * SHDR_SIZE;
            const char *name = strtab_get(ef, shstr, rd32(p));
            ef->sections[i].name = name ? name : "";
        }
        /* Symbols: the first SYMTAB section. */
        for (unsigned i = 0; i < shnum; i++) {
            const ElfSection *st = &ef->sections[i];
            if (st->type != ELF_SHT_SYMTAB) {
                continue;
            }
            if (st->link >= shnum) {
                const unsigned link = st->link; /* freed by close */
                elf_file_close(ef);
                return fail(err, errlen, what, "symbol table links to bad section %u", link);
            }
            const ElfSection *str = &ef->sections[st->link];
            uint64_t n = st->size / SYM_SIZE;
            ef->symbols = calloc(n ? n : 1, sizeof(ElfSymbol));
            for (uint64_t k = 1; k < n; k++) {
                const uint8_t *p = h + st->offset + k * SYM_SIZE;
                const char *name = strtab_get(ef, str, rd32(p));
                if (!name) {
                    continue;
                }
                ElfSymbol *sym = &ef->symbols[ef->nsymbols++];
                sym->name = name;
                sym->type = p[4] & 0xf;
                sym->bind = p[4] >> 4;
                sym->other = p[5];
                sym->index = (unsigned)k;
                sym->shndx = rd16(p + 6);
                sym->value = rd64(p + 8);
                sym->size = rd64(p + 16);
            }
            qsort(ef->symbols, ef->nsymbols, sizeof(ElfSymbol), sym_cmp);
            break;
        }
    }
    return true;
}

void elf_file_rel_symbol_addresses(ElfFile *ef)
{
    if (ef->type != ELF_ET_REL || ef->nsymbols == 0) {
        return; /* (qsort must not see a NULL array) */
    }
    for (unsigned i = 0; i < ef->nsymbols; i++) {
        ElfSymbol *sym = &ef->symbols[i];
        if (sym->shndx == 0 || sym->shndx >= 0xff00) { /* UNDEF, ABS, COMMON, ... */
            continue;
        }
        for (unsigned k = 0; k < ef->nsections; k++) {
            if (ef->sections[k].index == sym->shndx) {
                sym->value += ef->sections[k].addr;
                break;
            }
        }
    }
    qsort(ef->symbols, ef->nsymbols, sizeof(ElfSymbol), sym_cmp);
}

const char *elf_linx_reloc_name(unsigned type)
{
    static const char *const names[] = {
        "R_LINX_NONE", "R_LINX_B12_PCREL", "R_LINX_J22_PCREL", "R_LINX_CBSTART12_PCREL",
        "R_LINX_B17_PCREL", "R_LINX_HL_BSTART30_PCREL", "R_LINX_CSETRET5_PCREL",
        "R_LINX_SETRET20_PCREL", "R_LINX_HL_SETRET32_PCREL", "R_LINX_RELATIVE", "R_LINX_64",
        "R_LINX_32", "R_LINX_JUMP_SLOT", "R_LINX_GLOB_DAT", "R_LINX_COPY",
        "R_LINX_PCREL_HI20", "R_LINX_B17_PLT", "R_LINX_LO12", "R_LINX_PCR17_LOAD",
        "R_LINX_PCR17_STORE", "R_LINX_HL_PCR29_LOAD", "R_LINX_HL_PCR29_STORE",
        "R_LINX_B25_PCREL", "R_LINX_GOT_HI20", "R_LINX_GOT_LO12", "R_LINX_32_PCREL",
        "R_LINX_L_BSTART42_PCREL", NULL, "R_LINX_TLS_DTPMOD64", "R_LINX_TLS_DTPREL64",
        "R_LINX_TLS_TPREL64", "R_LINX_TLSDESC", "R_LINX_IRELATIVE",
    };
    return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

bool elf_file_open(ElfFile *ef, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");

    memset(ef, 0, sizeof(*ef));
    if (!f) {
        return fail(err, errlen, path, "%s", strerror(errno));
    }
    /* fopen() accepts a directory; reading it would not. */
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return fail(err, errlen, path, "not a regular file");
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return fail(err, errlen, path, "cannot seek: %s", strerror(errno));
    }
    long len = ftell(f);
    if (len < 0) {
        fclose(f);
        return fail(err, errlen, path, "not a regular file");
    }
    if ((uint64_t)len > ELF_MAX_FILE) {
        fclose(f);
        return fail(err, errlen, path, "file too large (%ld bytes)", len);
    }
    rewind(f);
    uint8_t *buf = malloc(len ? (size_t)len : 1);
    if (!buf) {
        fclose(f);
        return fail(err, errlen, path, "out of memory");
    }
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        fclose(f);
        return fail(err, errlen, path, "read error");
    }
    fclose(f);
    bool ok = elf_file_parse(ef, buf, (size_t)len, path, err, errlen);
    free(buf);
    return ok;
}

void elf_file_close(ElfFile *ef)
{
    free(ef->data);
    free(ef->sections);
    free(ef->segments);
    free(ef->symbols);
    memset(ef, 0, sizeof(*ef));
}

const ElfSection *elf_file_section_by_name(const ElfFile *ef, const char *name)
{
    for (unsigned i = 0; i < ef->nsections; i++) {
        if (strcmp(ef->sections[i].name, name) == 0) {
            return &ef->sections[i];
        }
    }
    return NULL;
}

const uint8_t *elf_file_section_data(const ElfFile *ef, const ElfSection *s)
{
    /* NULL and NOBITS sections have no bytes in the file (the parser does
     * not check their offset and size: a NULL one may claim any). */
    if (s->type == ELF_SHT_NOBITS || s->type == ELF_SHT_NULL || s->size == 0 ||
        s->offset > ef->size || s->size > ef->size - s->offset) {
        return NULL;
    }
    return ef->data + s->offset;
}

const ElfSymbol *elf_file_symbol_at(const ElfFile *ef, uint64_t addr, int shndx)
{
    const ElfSymbol *best = NULL;
    /* Binary search for the last symbol with value <= addr. */
    unsigned lo = 0, hi = ef->nsymbols;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (ef->symbols[mid].value <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (unsigned i = lo; i-- > 0;) {
        const ElfSymbol *s = &ef->symbols[i];
        if (s->type == 4 /* STT_FILE */ || s->type == 3 /* STT_SECTION */ || !s->name[0]) {
            continue;
        }
        if (shndx >= 0 && s->shndx != shndx) {
            continue;
        }
        if (!best) {
            best = s;
        }
        if (s->value != best->value) {
            break;
        }
    }
    return best;
}
