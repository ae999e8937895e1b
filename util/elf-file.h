/*
 * Read-only view of an ELF64 little-endian file, with every offset and size
 * checked against the file before use.
 *
 * Used by linx-objdump, the linux-user and virt loaders and the tests.
 * Nothing here trusts the file: a truncated header, a section or segment
 * past the end of the file, a string table without a terminator or a
 * symbol pointing at a bad name all give a clear error, never a crash.
 *
 *   ElfFile ef;
 *   char err[256];
 *   if (!elf_file_open(&ef, path, err, sizeof(err))) { fprintf(stderr, "%s\n", err); ... }
 *   const ElfSection *text = elf_file_section_by_name(&ef, ".text");
 *   ...
 *   elf_file_close(&ef);
 */
#ifndef LINX_UTIL_ELF_FILE_H
#define LINX_UTIL_ELF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EM_LINXISA 233

enum {
    ELF_ET_REL = 1,
    ELF_ET_EXEC = 2,
    ELF_ET_DYN = 3,
};

enum {
    ELF_PT_NULL = 0,
    ELF_PT_LOAD = 1,
    ELF_PT_DYNAMIC = 2,
    ELF_PT_INTERP = 3,
    ELF_PT_PHDR = 6,
    ELF_PT_TLS = 7,
};

enum {
    ELF_PF_X = 1,
    ELF_PF_W = 2,
    ELF_PF_R = 4,
};

enum {
    ELF_SHT_NULL = 0,
    ELF_SHT_PROGBITS = 1,
    ELF_SHT_SYMTAB = 2,
    ELF_SHT_STRTAB = 3,
    ELF_SHT_RELA = 4,
    ELF_SHT_NOBITS = 8,
};

enum {
    ELF_SHF_WRITE = 1,
    ELF_SHF_ALLOC = 2,
    ELF_SHF_EXECINSTR = 4,
};

typedef struct ElfSection {
    const char *name;
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
    uint32_t link;
    uint32_t info;
    uint64_t entsize;
    uint64_t align;
    unsigned index;
} ElfSection;

typedef struct ElfSegment {
    uint32_t type;
    uint32_t flags;
    uint64_t offset;
    uint64_t vaddr;
    uint64_t filesz;
    uint64_t memsz;
    uint64_t align;
} ElfSegment;

typedef struct ElfSymbol {
    const char *name;
    uint64_t value;
    uint64_t size;
    uint8_t type; /* STT_* */
    uint8_t bind; /* STB_* */
    uint8_t other; /* st_other (visibility) */
    unsigned index; /* its index in .symtab (relocations name it so) */
    uint16_t shndx;
} ElfSymbol;

typedef struct ElfFile {
    uint8_t *data;
    size_t size;
    uint16_t type;
    uint16_t machine;
    uint64_t entry;
    uint32_t flags;
    ElfSection *sections;
    unsigned nsections;
    ElfSegment *segments;
    unsigned nsegments;
    ElfSymbol *symbols; /* from .symtab, sorted by value */
    unsigned nsymbols;
} ElfFile;

/* Read and validate @path.  On failure, writes "<path>: <what is wrong>" to
 * @err and returns false (nothing to close). */
bool elf_file_open(ElfFile *ef, const char *path, char *err, size_t errlen);

/* Same, over a buffer the caller owns (copied). */
bool elf_file_parse(ElfFile *ef, const void *data, size_t size, const char *what,
                    char *err, size_t errlen);

void elf_file_close(ElfFile *ef);

const ElfSection *elf_file_section_by_name(const ElfFile *ef, const char *name);

/* Bytes of a section (NULL for NULL, NOBITS or empty sections, and for a
 * range outside the file). */
const uint8_t *elf_file_section_data(const ElfFile *ef, const ElfSection *s);

/* The LinxISA relocation type @type as its R_LINX_* name, or NULL
 * (LinxISA/llvm-project llvm/include/llvm/BinaryFormat/ELFRelocs/
 * LinxISA.def). */
const char *elf_linx_reloc_name(unsigned type);

/* In a relocatable file (ET_REL) a symbol's value is an offset in its
 * section; make it an address (section sh_addr + offset), as
 * llvm-objdump shows relocatable symbols (ELFObjectFile::getSymbolAddress).
 * Absolute, common and undefined symbols keep their values.  Nothing
 * changes for other files. */
void elf_file_rel_symbol_addresses(ElfFile *ef);

/* The symbol covering @addr in section @shndx (or any section when
 * @shndx < 0), preferring a symbol at exactly @addr; NULL if none. */
const ElfSymbol *elf_file_symbol_at(const ElfFile *ef, uint64_t addr, int shndx);

#endif /* LINX_UTIL_ELF_FILE_H */
