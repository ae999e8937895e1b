/*
 * virt machine: loading the program (-kernel FILE) into RAM.
 *
 * ET_REL (what the LinxISA test flow boots: objects partially linked with
 * `ld.lld -r`): .text goes at VIRT_LOAD_BASE, then the other allocated
 * PROGBITS sections in file order, each at its alignment; the
 * zero-initialised (NOBITS) sections go at VIRT_BSS_BASE when they fit
 * below the load base, else after the image.  linxemu does not link:
 * an object with relocations against its allocated sections is refused
 * with a message (link it first).  The entry is the `_start` symbol, or
 * the start of .text.
 *
 * ET_EXEC / ET_DYN: each PT_LOAD at its address (no bias), bss zeroed;
 * the entry is e_entry and must be in an executable segment.
 *
 * Nothing is trusted: every section or segment must lie in RAM and
 * outside the device pages, and the checks run before anything is
 * copied.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/linx/virt.h"
#include "util/elf-file.h"

#define ELF_SHT_REL 9
#define ELF_SHN_UNDEF 0
#define ELF_SHN_LORESERVE 0xff00
#define MAX_SECTION_ALIGN UINT64_C(0x10000)

static bool loader_fail(char *err, size_t errlen, const char *what, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: ", what);

    if (n >= 0 && (size_t)n < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - n, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool linx_virt_is_ram(uint64_t ram_size, uint64_t addr, uint64_t len)
{
    if (addr > ram_size || len > ram_size - addr) {
        return false;
    }
    for (size_t i = 0; i < VIRT_NUM_DEVICE_REGIONS; i++) {
        const LinxVirtRegion *r = &linx_virt_device_regions[i];
        if (addr < r->base + r->size && r->base < addr + len) {
            return false;
        }
    }
    return true;
}

static uint64_t align_up(uint64_t v, uint64_t align)
{
    if (align <= 1) {
        return v;
    }
    return (v + align - 1) & ~(align - 1);
}

/* Layout of an ET_REL: base[i] = address of section i; *end = image end. */
static bool place_sections(uint64_t ram_size, const ElfFile *ef, const ElfSection *text,
                           uint64_t *base, uint64_t *end, const char *what, char *err,
                           size_t errlen)
{
    uint64_t cur = VIRT_LOAD_BASE, bss_size = 0, bss_cur;

    /* .text first, then the other PROGBITS. */
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < ef->nsections; i++) {
            const ElfSection *s = &ef->sections[i];
            if (!(s->flags & ELF_SHF_ALLOC) || s->type == ELF_SHT_NOBITS ||
                (pass == 0) != (s == text)) {
                continue;
            }
            if (s->align > MAX_SECTION_ALIGN || (s->align & (s->align - 1))) {
                return loader_fail(err, errlen, what, "section %s has bad alignment 0x%llx",
                                   s->name, (unsigned long long)s->align);
            }
            cur = align_up(cur, s->align);
            if (!linx_virt_is_ram(ram_size, cur, s->size)) {
                return loader_fail(err, errlen, what,
                                   "section %s (0x%llx bytes at 0x%llx) does not fit in RAM "
                                   "(0x%llx bytes)",
                                   s->name, (unsigned long long)s->size,
                                   (unsigned long long)cur, (unsigned long long)ram_size);
            }
            base[i] = cur;
            cur += s->size;
        }
    }
    /* NOBITS below the load base when they fit, else after the image. */
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        if ((s->flags & ELF_SHF_ALLOC) && s->type == ELF_SHT_NOBITS) {
            if (s->align > MAX_SECTION_ALIGN || (s->align & (s->align - 1))) {
                return loader_fail(err, errlen, what, "section %s has bad alignment 0x%llx",
                                   s->name, (unsigned long long)s->align);
            }
            if (s->size > ram_size) {
                return loader_fail(err, errlen, what,
                                   "section %s (0x%llx bytes) is larger than RAM (0x%llx bytes)",
                                   s->name, (unsigned long long)s->size,
                                   (unsigned long long)ram_size);
            }
            bss_size = align_up(bss_size, s->align) + s->size;
        }
    }
    bss_cur = bss_size <= VIRT_LOAD_BASE - VIRT_BSS_BASE ? VIRT_BSS_BASE : cur;
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        if (!(s->flags & ELF_SHF_ALLOC) || s->type != ELF_SHT_NOBITS) {
            continue;
        }
        bss_cur = align_up(bss_cur, s->align);
        if (!linx_virt_is_ram(ram_size, bss_cur, s->size)) {
            return loader_fail(err, errlen, what, "section %s (0x%llx bytes) does not fit in RAM",
                               s->name, (unsigned long long)s->size);
        }
        base[i] = bss_cur;
        bss_cur += s->size;
        if (bss_cur > cur) {
            cur = bss_cur;
        }
    }
    *end = cur;
    return true;
}

/* RAM starts zeroed, so NOBITS sections need no copy. */
static bool copy_sections(GuestMemory *gm, const ElfFile *ef, const uint64_t *base,
                          const char *what, char *err, size_t errlen)
{
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        const uint8_t *data = elf_file_section_data(ef, s);
        if (!(s->flags & ELF_SHF_ALLOC) || s->type == ELF_SHT_NOBITS || !data) {
            continue;
        }
        if (guest_mem_debug_rw(gm, base[i], (void *)data, s->size, true) != GM_OK) {
            return loader_fail(err, errlen, what, "copying section %s failed", s->name);
        }
    }
    return true;
}

/* `_start` if the object defines it in code, else the start of .text. */
static bool find_entry(const ElfFile *ef, const ElfSection *text, const uint64_t *base,
                       uint64_t *entry, const char *what, char *err, size_t errlen)
{
    *entry = base[text->index];
    for (unsigned i = 0; i < ef->nsymbols; i++) {
        const ElfSymbol *sym = &ef->symbols[i];
        if (strcmp(sym->name, "_start") != 0 || sym->shndx == ELF_SHN_UNDEF ||
            sym->shndx >= ELF_SHN_LORESERVE) {
            continue;
        }
        if (sym->shndx >= ef->nsections ||
            !(ef->sections[sym->shndx].flags & ELF_SHF_EXECINSTR) ||
            !(ef->sections[sym->shndx].flags & ELF_SHF_ALLOC) ||
            sym->value >= ef->sections[sym->shndx].size) {
            return loader_fail(err, errlen, what,
                               "_start (0x%llx in section %u) is not inside executable code",
                               (unsigned long long)sym->value, sym->shndx);
        }
        *entry = base[sym->shndx] + sym->value;
        return true;
    }
    return true;
}

static bool load_rel(GuestMemory *gm, uint64_t ram_size, const ElfFile *ef, const char *what,
                     uint64_t *entry, uint64_t *image_end, char *err, size_t errlen)
{
    const ElfSection *text = elf_file_section_by_name(ef, ".text");
    uint64_t *base;
    bool ok;

    if (!text || !(text->flags & ELF_SHF_ALLOC) || !(text->flags & ELF_SHF_EXECINSTR)) {
        return loader_fail(err, errlen, what,
                           "relocatable object has no allocated, executable .text section");
    }
    /* Relocations would need a linker. */
    for (unsigned i = 0; i < ef->nsections; i++) {
        const ElfSection *s = &ef->sections[i];
        if ((s->type == ELF_SHT_RELA || s->type == ELF_SHT_REL) && s->size && s->info &&
            s->info < ef->nsections && (ef->sections[s->info].flags & ELF_SHF_ALLOC)) {
            return loader_fail(err, errlen, what,
                               "relocatable object has relocations (%s) against %s: the virt "
                               "loader does not link; link it first (ld.lld)",
                               s->name, ef->sections[s->info].name);
        }
    }
    base = calloc(ef->nsections, sizeof(uint64_t));
    if (!base) {
        return loader_fail(err, errlen, what, "out of memory");
    }
    ok = place_sections(ram_size, ef, text, base, image_end, what, err, errlen) &&
         copy_sections(gm, ef, base, what, err, errlen) &&
         find_entry(ef, text, base, entry, what, err, errlen);
    free(base);
    return ok;
}

static bool load_exec(GuestMemory *gm, uint64_t ram_size, const ElfFile *ef, const char *what,
                      uint64_t *entry, uint64_t *image_end, char *err, size_t errlen)
{
    bool entry_ok = false;
    uint64_t end = 0;
    unsigned nload = 0;

    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        if (s->type != ELF_PT_LOAD || s->memsz == 0) {
            continue;
        }
        nload++;
        if (!linx_virt_is_ram(ram_size, s->vaddr, s->memsz)) {
            return loader_fail(err, errlen, what,
                               "segment %u [0x%llx, +0x%llx) is not inside RAM (0x%llx bytes "
                               "from 0, minus the device pages)",
                               i, (unsigned long long)s->vaddr, (unsigned long long)s->memsz,
                               (unsigned long long)ram_size);
        }
        if ((s->flags & ELF_PF_X) && ef->entry >= s->vaddr && ef->entry - s->vaddr < s->memsz) {
            entry_ok = true;
        }
        if (s->vaddr + s->memsz > end) {
            end = s->vaddr + s->memsz;
        }
    }
    if (nload == 0) {
        return loader_fail(err, errlen, what, "no loadable segment (PT_LOAD) with contents");
    }
    if (!entry_ok) {
        return loader_fail(err, errlen, what,
                           "entry point 0x%llx is not inside an executable segment",
                           (unsigned long long)ef->entry);
    }
    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        if (s->type != ELF_PT_LOAD || s->filesz == 0) {
            continue;
        }
        if (guest_mem_debug_rw(gm, s->vaddr, ef->data + s->offset, s->filesz, true) != GM_OK) {
            return loader_fail(err, errlen, what, "copying segment %u failed", i);
        }
    }
    *entry = ef->entry;
    *image_end = end;
    return true;
}

bool linx_virt_load_elf(GuestMemory *gm, uint64_t ram_size, const ElfFile *ef, const char *what,
                        uint64_t *entry, uint64_t *image_end, char *err, size_t errlen)
{
    if (ef->machine != EM_LINXISA) {
        return loader_fail(err, errlen, what,
                           "wrong machine %u: the virt machine runs LinxISA programs (e_machine "
                           "%d)",
                           ef->machine, EM_LINXISA);
    }
    switch (ef->type) {
    case ELF_ET_REL:
        return load_rel(gm, ram_size, ef, what, entry, image_end, err, errlen);
    case ELF_ET_EXEC:
    case ELF_ET_DYN:
        return load_exec(gm, ram_size, ef, what, entry, image_end, err, errlen);
    default:
        return loader_fail(err, errlen, what,
                           "ELF type %u cannot be loaded (need ET_REL, ET_EXEC or ET_DYN)",
                           ef->type);
    }
}
