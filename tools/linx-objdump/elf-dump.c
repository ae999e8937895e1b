/*
 * linx-objdump -h, -t, -r and -s: the section table, the symbol table, the
 * relocation records and the section contents, in llvm-objdump's shapes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "objdump.h"

enum {
    STT_OBJECT = 1,
    STT_FUNC = 2,
    STT_SECTION = 3,
    STT_FILE = 4,
    STT_GNU_IFUNC = 10,
    STB_LOCAL = 0,
    STB_GLOBAL = 1,
    STB_WEAK = 2,
    SHN_UNDEF = 0,
    SHN_ABS = 0xfff1,
    SHN_COMMON = 0xfff2,
    RELA_ENTRY = 24,
    NAME_MIN_WIDTH = 13,
    BYTES_PER_LINE = 16,
};

static bool is_debug(const ElfSection *s)
{
    return strncmp(s->name, ".debug", 6) == 0 || strncmp(s->name, ".zdebug", 7) == 0;
}

void objdump_section_headers(const ElfFile *ef, const ObjdumpOptions *o)
{
    int width = NAME_MIN_WIDTH;

    for (unsigned i = 0; i < ef->nsections; i++) {
        int n = (int)strlen(ef->sections[i].name);
        width = n > width ? n : width;
    }
    printf("\nSections:\nIdx %-*s Size     VMA              Type\n", width, "Name");
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        char type[32] = "";
        if (!objdump_section_selected(o, s->name)) {
            continue;
        }
        if ((s->flags & ELF_SHF_ALLOC) && (s->flags & ELF_SHF_EXECINSTR)) {
            strcat(type, "TEXT");
        } else if ((s->flags & ELF_SHF_ALLOC) && s->type == ELF_SHT_PROGBITS) {
            strcat(type, "DATA");
        } else if ((s->flags & ELF_SHF_ALLOC) && s->type == ELF_SHT_NOBITS) {
            strcat(type, "BSS");
        }
        if (is_debug(s)) {
            strcat(type, type[0] ? " DEBUG" : "DEBUG");
        }
        printf("%3u %-*s %08" PRIx64 " %016" PRIx64 " %s\n", i, width, s->name, s->size, s->addr,
               type);
    }
}

/* The section a symbol is in, as llvm-objdump names it. */
static const char *symbol_section(const ElfFile *ef, const ElfSymbol *s)
{
    if (s->shndx == SHN_UNDEF) {
        return "*UND*";
    }
    if (s->shndx == SHN_ABS) {
        return "*ABS*";
    }
    if (s->shndx == SHN_COMMON) {
        return "*COM*";
    }
    return s->shndx < ef->nsections ? ef->sections[s->shndx].name : "*UNKNOWN*";
}

/* The symbols in .symtab order (ElfFile keeps them sorted by value). */
static const ElfSymbol *symbol_by_index(const ElfFile *ef, unsigned index)
{
    for (unsigned i = 0; i < ef->nsymbols; i++) {
        if (ef->symbols[i].index == index) {
            return &ef->symbols[i];
        }
    }
    return NULL;
}

void objdump_symbols(const ElfFile *ef)
{
    unsigned max = 0;

    printf("\nSYMBOL TABLE:\n");
    for (unsigned i = 0; i < ef->nsymbols; i++) {
        max = ef->symbols[i].index > max ? ef->symbols[i].index : max;
    }
    for (unsigned k = 1; k <= max; k++) {
        const ElfSymbol *s = symbol_by_index(ef, k);
        char scope, weak, kind, debug;
        if (!s) {
            continue;
        }
        scope = s->bind == STB_LOCAL ? 'l' : s->bind == STB_GLOBAL ? 'g' : ' ';
        weak = s->bind == STB_WEAK ? 'w' : ' ';
        debug = (s->type == STT_FILE || s->type == STT_SECTION) ? 'd' : ' ';
        kind = s->type == STT_FUNC ? 'F' : s->type == STT_OBJECT ? 'O'
               : s->type == STT_FILE ? 'f' : ' ';
        printf("%016" PRIx64 " %c%c  %c%c%c %s\t%016" PRIx64 " %s\n", s->value, scope, weak,
               s->type == STT_GNU_IFUNC ? 'i' : ' ', debug, kind, symbol_section(ef, s),
               s->size, s->type == STT_SECTION ? symbol_section(ef, s) : s->name);
    }
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

void objdump_relocations(const ElfFile *ef, const ObjdumpOptions *o)
{
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *r = &ef->sections[i];
        const uint8_t *data;
        const char *target;
        if (r->type != ELF_SHT_RELA) {
            continue;
        }
        target = r->info < ef->nsections ? ef->sections[r->info].name : "?";
        if (!objdump_section_selected(o, target)) {
            continue;
        }
        data = elf_file_section_data(ef, r);
        printf("\nRELOCATION RECORDS FOR [%s]:\nOFFSET           TYPE                     VALUE\n",
               target);
        for (uint64_t off = 0; data && off + RELA_ENTRY <= r->size; off += RELA_ENTRY) {
            uint64_t where = rd64(data + off), info = rd64(data + off + 8);
            int64_t addend = (int64_t)rd64(data + off + 16);
            unsigned type = (unsigned)(info & 0xffffffff), symi = (unsigned)(info >> 32);
            const ElfSymbol *s = symi ? symbol_by_index(ef, symi) : NULL;
            const char *name = elf_linx_reloc_name(type);
            char tname[32], value[320];
            if (!name) {
                snprintf(tname, sizeof(tname), "unknown(%u)", type);
                name = tname;
            }
            if (s) {
                const char *sn = s->type == STT_SECTION ? symbol_section(ef, s) : s->name;
                if (addend) {
                    snprintf(value, sizeof(value), "%.256s%c0x%" PRIx64, sn, addend < 0 ? '-' : '+',
                             addend < 0 ? (uint64_t)-addend : (uint64_t)addend);
                } else {
                    snprintf(value, sizeof(value), "%.256s", sn);
                }
            } else {
                snprintf(value, sizeof(value), "*ABS*%c0x%" PRIx64, addend < 0 ? '-' : '+',
                         addend < 0 ? (uint64_t)-addend : (uint64_t)addend);
            }
            printf("%016" PRIx64 " %-24s %s\n", where, name, value);
        }
    }
}

void objdump_contents(const ElfFile *ef, const ObjdumpOptions *o)
{
    for (unsigned i = 1; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        const uint8_t *d;
        uint64_t end;
        int width = 4;
        if (!objdump_section_selected(o, s->name) || s->type == ELF_SHT_NOBITS || !s->size) {
            continue;
        }
        d = elf_file_section_data(ef, s);
        if (!d) {
            continue;
        }
        printf("Contents of section %s:\n", s->name);
        end = s->addr + s->size;
        while (width < 16 && (end >> (4 * width)) != 0) {
            width++;
        }
        for (uint64_t off = 0; off < s->size; off += BYTES_PER_LINE) {
            printf(" %0*" PRIx64 " ", width, s->addr + off);
            for (unsigned b = 0; b < BYTES_PER_LINE; b++) {
                if (off + b < s->size) {
                    printf("%02x", d[off + b]);
                } else {
                    printf("  ");
                }
                if (b % 4 == 3) {
                    printf(" ");
                }
            }
            printf(" ");
            for (unsigned b = 0; b < BYTES_PER_LINE && off + b < s->size; b++) {
                uint8_t c = d[off + b];
                putchar(c >= 0x20 && c < 0x7f ? c : '.');
            }
            printf("\n");
        }
    }
}
