/*
 * linx-as sections: attributes, location counters, emitted bytes, layout.
 *
 * A section is created on first use.  Its default type and flags come from
 * its name (.text* executable, .data* writable, .rodata* read-only, .bss*
 * NOBITS) unless a .section directive gives them.  Pass 1 only advances
 * location counters; pass 2 writes the bytes into a buffer sized from
 * pass 1.
 *
 * Layout (docs/assembler.md "Output"): loaded sections are placed from the
 * base address (the first one exactly there, so the base must suit its
 * alignment) in the order executable, read-only, writable PROGBITS,
 * writable NOBITS, each group in creation order and each section at its
 * alignment.  For ET_EXEC every group after the first starts on a new
 * 4 KiB page so that segments with different permissions never share a
 * page; ET_REL and raw binaries are packed.
 */
#include <string.h>

#include "as-internal.h"
#include "util/elf-file.h"

#define AS_PAGE_SIZE 0x1000u
#define AS_TEXT_ALIGN 2u /* instructions are halfword aligned */

static bool name_is(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && (name[n] == '\0' || name[n] == '.');
}

static void default_attrs(AsSection *s)
{
    s->type = ELF_SHT_PROGBITS;
    s->flags = 0;
    s->align = 1;
    if (name_is(s->name, ".text") || name_is(s->name, ".init") || name_is(s->name, ".fini")) {
        s->flags = ELF_SHF_ALLOC | ELF_SHF_EXECINSTR;
        s->align = AS_TEXT_ALIGN;
    } else if (name_is(s->name, ".data") || name_is(s->name, ".sdata") ||
               name_is(s->name, ".init_array") || name_is(s->name, ".fini_array") ||
               name_is(s->name, ".data.rel.ro") || name_is(s->name, ".got")) {
        s->flags = ELF_SHF_ALLOC | ELF_SHF_WRITE;
    } else if (name_is(s->name, ".rodata") || name_is(s->name, ".srodata")) {
        s->flags = ELF_SHF_ALLOC;
    } else if (name_is(s->name, ".bss") || name_is(s->name, ".sbss")) {
        s->type = ELF_SHT_NOBITS;
        s->flags = ELF_SHF_ALLOC | ELF_SHF_WRITE;
    }
}

int as_section_find(const LinxAs *as, const char *name)
{
    for (int i = 0; i < as->nsecs; i++) {
        if (strcmp(as->secs[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

int as_section_get(LinxAs *as, const char *name)
{
    int i = as_section_find(as, name);
    uint32_t cap = (uint32_t)as->secs_cap;

    if (i >= 0) {
        return i;
    }
    if (as->nsecs >= AS_MAX_SECTIONS) {
        return -1;
    }
    as_grow((void **)&as->secs, &cap, (uint32_t)as->nsecs + 1, sizeof(AsSection));
    as->secs_cap = (int)cap;
    i = as->nsecs++;
    memset(&as->secs[i], 0, sizeof(AsSection));
    as->secs[i].name = as_xstrndup(name, strlen(name));
    default_attrs(&as->secs[i]);
    return i;
}

int as_section_get_at(LinxAs *as, AsStmt *st, const char *name)
{
    int sec = as_section_get(as, name);

    if (sec < 0) {
        as_error(as, st, st->col, "bad directive: too many sections: '%s' would be number %d, at most %d",
                 name, as->nsecs + 1, AS_MAX_SECTIONS);
    }
    return sec;
}

void as_section_switch(LinxAs *as, int sec)
{
    if (sec != as->cur_sec) {
        as->prev_sec = as->cur_sec;
        as->cur_sec = sec;
    }
    as->secs[sec].explicit_use = true;
}

void as_emit(LinxAs *as, const void *bytes, uint64_t n)
{
    AsSection *s = &as->secs[as->cur_sec];

    if (as->pass == 2 && s->data && s->lc + n <= s->size) {
        memcpy(s->data + s->lc, bytes, (size_t)n);
    }
    s->lc += n;
    s->explicit_use = true;
}

void as_emit_fill(LinxAs *as, uint64_t n, uint8_t value)
{
    AsSection *s = &as->secs[as->cur_sec];

    if (as->pass == 2 && s->data && s->lc + n <= s->size) {
        memset(s->data + s->lc, value, (size_t)n);
    }
    s->lc += n;
    s->explicit_use = true;
}

void as_emit_le(LinxAs *as, uint64_t value, unsigned size)
{
    uint8_t b[8];

    for (unsigned i = 0; i < size && i < sizeof(b); i++) {
        b[i] = (uint8_t)(value >> (8 * i));
    }
    as_emit(as, b, size);
}

static int group_of(const AsSection *s)
{
    if (!as_sec_loaded(s)) {
        return -1;
    }
    if (s->flags & ELF_SHF_EXECINSTR) {
        return 0;
    }
    if (!(s->flags & ELF_SHF_WRITE)) {
        return 1;
    }
    return s->type == ELF_SHT_NOBITS ? 3 : 2;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}

void as_layout(LinxAs *as)
{
    uint64_t addr = as->opt.base;
    bool paged = as->opt.format == LINX_AS_FMT_EXEC;
    int last_group = -1;

    for (int g = 0; g < 4; g++) {
        for (int i = 0; i < as->nsecs; i++) {
            AsSection *s = &as->secs[i];
            if (group_of(s) != g || (s->size == 0 && !s->explicit_use)) {
                continue;
            }
            if (s->size == 0) {
                /* Empty: an address for its symbols, no page of its own. */
                s->addr = align_up(addr, s->align);
                continue;
            }
            /* NOBITS follows the writable data on the same pages. */
            if (paged && last_group >= 0 && g != last_group && !(g == 3 && last_group == 2)) {
                addr = align_up(addr, AS_PAGE_SIZE);
            }
            if (last_group < 0 && (addr & (s->align - 1))) {
                /* The first section starts exactly at the base. */
                as_error_nopos(as, "misaligned target: base address 0x%llx is not a multiple of "
                               "the alignment %llu of '%s'",
                               (unsigned long long)addr, (unsigned long long)s->align, s->name);
            }
            last_group = g;
            addr = align_up(addr, s->align);
            s->addr = addr;
            addr += s->size;
        }
    }
    as->addresses_known = true;
}

void as_sections_alloc_data(LinxAs *as)
{
    for (int i = 0; i < as->nsecs; i++) {
        AsSection *s = &as->secs[i];
        if (s->type != ELF_SHT_NOBITS) {
            s->data = as_xcalloc((size_t)s->size + 1, 1);
        }
    }
}

void as_sections_free(LinxAs *as)
{
    for (int i = 0; i < as->nsecs; i++) {
        free(as->secs[i].name);
        free(as->secs[i].data);
    }
    free(as->secs);
}
