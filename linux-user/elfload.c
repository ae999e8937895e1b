/*
 * Linux user mode: loading a static LinxISA ELF program into guest memory.
 *
 * What is accepted (docs/linux-user.md, "Loading"):
 *   - ELFCLASS64, little-endian, e_machine EM_LINXISA (233);
 *   - ET_EXEC loaded at its own addresses, ET_DYN (static PIE) at
 *     LINUX_PIE_BASE;
 *   - a PT_INTERP without PT_DYNAMIC is ignored: the toolchain's static
 *     binaries carry a stray one (shared/guest/MANIFEST.md);
 *   - PT_INTERP together with PT_DYNAMIC is a dynamically linked program:
 *     rejected with "dynamic linking not supported".
 *
 * Every check below names the rule it enforces in its message, and runs
 * before anything is mapped, so a rejected file leaves the address space
 * untouched.  util/elf-file.c has already checked the header, the
 * program-header table and that every PT_LOAD's file bytes are inside the
 * file with filesz <= memsz.
 *
 * Segments may share a page (the end of one and the start of the next):
 * that page gets the union of their permissions.  Byte ranges of two
 * segments may not overlap.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linux-user.h"
#include "util/elf-file.h"

#define EHDR_PHOFF 32
#define EHDR_PHENTSIZE 54

static bool load_fail(char *err, size_t errlen, const char *what, const char *fmt, ...)
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

static uint64_t rd64le(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static uint64_t page_down(uint64_t a)
{
    return a & GUEST_PAGE_MASK;
}

/* Round up to a page; false on overflow. */
static bool page_up(uint64_t a, uint64_t *out)
{
    if (a > UINT64_MAX - (GUEST_PAGE_SIZE - 1)) {
        return false;
    }
    *out = (a + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
    return true;
}

static int elf_to_gm_prot(uint32_t pflags)
{
    int prot = 0;

    if (pflags & ELF_PF_R) {
        prot |= GM_PROT_READ;
    }
    if (pflags & ELF_PF_W) {
        prot |= GM_PROT_WRITE;
    }
    if (pflags & ELF_PF_X) {
        prot |= GM_PROT_EXEC;
    }
    return prot;
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case 3:
        return " (i386)";
    case 40:
        return " (ARM)";
    case 62:
        return " (x86-64)";
    case 183:
        return " (AArch64)";
    case 243:
        return " (RISC-V)";
    default:
        return "";
    }
}

/* Checks on the file as a whole and on each PT_LOAD, before mapping. */
static bool check_image(const ElfFile *ef, const char *what, uint64_t *lo_out, uint64_t *hi_out,
                        char *err, size_t errlen)
{
    bool has_interp = false, has_dynamic = false;
    unsigned nload = 0;
    uint64_t lo = UINT64_MAX, hi = 0, total = 0;

    if (ef->machine != EM_LINXISA) {
        return load_fail(err, errlen, what,
                         "wrong machine %u%s: linx-user runs LinxISA programs (e_machine %d)",
                         ef->machine, machine_name(ef->machine), EM_LINXISA);
    }
    if (ef->type == ELF_ET_REL) {
        return load_fail(err, errlen, what,
                         "relocatable object (ET_REL) is not a program: link it, or run it on "
                         "the virt machine (linx-system -M virt -kernel FILE)");
    }
    if (ef->type != ELF_ET_EXEC && ef->type != ELF_ET_DYN) {
        return load_fail(err, errlen, what,
                         "ELF type %u is not an executable (need ET_EXEC or ET_DYN)", ef->type);
    }
    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        if (s->type == ELF_PT_INTERP) {
            has_interp = true;
        } else if (s->type == ELF_PT_DYNAMIC) {
            has_dynamic = true;
        }
    }
    if (has_interp && has_dynamic) {
        return load_fail(err, errlen, what,
                         "dynamic linking not supported: the program needs an interpreter "
                         "(PT_INTERP with PT_DYNAMIC); link it statically (-static or "
                         "-static-pie)");
    }

    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        uint64_t end;

        if (s->type != ELF_PT_LOAD) {
            continue;
        }
        nload++;
        if (s->memsz == 0) {
            continue;
        }
        if (s->align > 1 && (s->align & (s->align - 1)) != 0) {
            return load_fail(err, errlen, what,
                             "segment %u: alignment 0x%llx is not a power of two", i,
                             (unsigned long long)s->align);
        }
        if (s->memsz > LINUX_MAX_IMAGE) {
            return load_fail(err, errlen, what,
                             "segment %u: memory size 0x%llx is too large (limit 0x%llx)", i,
                             (unsigned long long)s->memsz, (unsigned long long)LINUX_MAX_IMAGE);
        }
        if (s->vaddr > UINT64_MAX - s->memsz) {
            return load_fail(err, errlen, what,
                             "segment %u: address 0x%llx + size 0x%llx wraps around", i,
                             (unsigned long long)s->vaddr, (unsigned long long)s->memsz);
        }
        end = s->vaddr + s->memsz;
        total += s->memsz;
        if (total > LINUX_MAX_IMAGE) {
            return load_fail(err, errlen, what, "segments total more than 0x%llx bytes",
                             (unsigned long long)LINUX_MAX_IMAGE);
        }
        /* Byte ranges of two segments may not overlap. */
        for (unsigned j = 0; j < i; j++) {
            const ElfSegment *t = &ef->segments[j];
            if (t->type != ELF_PT_LOAD || t->memsz == 0) {
                continue;
            }
            if (s->vaddr < t->vaddr + t->memsz && t->vaddr < end) {
                return load_fail(err, errlen, what,
                                 "segments %u [0x%llx, 0x%llx) and %u [0x%llx, 0x%llx) overlap",
                                 j, (unsigned long long)t->vaddr,
                                 (unsigned long long)(t->vaddr + t->memsz), i,
                                 (unsigned long long)s->vaddr, (unsigned long long)end);
            }
        }
        if (s->vaddr < lo) {
            lo = s->vaddr;
        }
        if (end > hi) {
            hi = end;
        }
    }
    if (nload == 0 || hi == 0) {
        return load_fail(err, errlen, what, "no loadable segment (PT_LOAD) with contents");
    }
    if (ef->type == ELF_ET_EXEC) {
        if (lo < LINUX_MIN_ADDR) {
            return load_fail(err, errlen, what,
                             "segment at 0x%llx is below the lowest user address 0x%llx",
                             (unsigned long long)lo, (unsigned long long)LINUX_MIN_ADDR);
        }
        if (hi > LINUX_MMAP_BASE) {
            return load_fail(err, errlen, what,
                             "image end 0x%llx is above the user address space for programs "
                             "(0x%llx)",
                             (unsigned long long)hi, (unsigned long long)LINUX_MMAP_BASE);
        }
    } else if (hi - page_down(lo) > LINUX_MMAP_BASE - LINUX_PIE_BASE) {
        return load_fail(err, errlen, what, "position-independent image spans 0x%llx bytes",
                         (unsigned long long)(hi - lo));
    }
    *lo_out = lo;
    *hi_out = hi;
    return true;
}

/* Is @addr inside an executable PT_LOAD (before bias)? */
static bool in_exec_segment(const ElfFile *ef, uint64_t addr)
{
    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        if (s->type == ELF_PT_LOAD && (s->flags & ELF_PF_X) && addr >= s->vaddr &&
            addr - s->vaddr < s->memsz) {
            return true;
        }
    }
    return false;
}

/* Map [start, end) (page aligned) with @prot; pages another segment
 * already mapped (at most the first and the last) get the union of the
 * permissions. */
static bool map_pages(GuestMemory *gm, uint64_t start, uint64_t end, int prot)
{
    while (start < end) {
        int old = guest_mem_prot(gm, start);
        if (old >= 0) {
            if (!guest_mem_protect(gm, start, GUEST_PAGE_SIZE, old | prot)) {
                return false;
            }
            start += GUEST_PAGE_SIZE;
            continue;
        }
        /* Map up to the last page, which may be shared with the next
         * segment already mapped. */
        uint64_t run_end = end;
        if (run_end - start > GUEST_PAGE_SIZE && guest_mem_prot(gm, end - GUEST_PAGE_SIZE) >= 0) {
            run_end = end - GUEST_PAGE_SIZE;
        }
        if (!guest_mem_map(gm, start, run_end - start, prot, false)) {
            return false;
        }
        start = run_end;
    }
    return true;
}

bool linux_load_elf(GuestMemory *gm, const ElfFile *ef, const char *what, LinuxImage *img,
                    char *err, size_t errlen)
{
    uint64_t lo = 0, hi = 0, bias = 0;

    memset(img, 0, sizeof(*img));
    if (!check_image(ef, what, &lo, &hi, err, errlen)) {
        return false;
    }
    if (ef->type == ELF_ET_DYN) {
        bias = LINUX_PIE_BASE - page_down(lo);
        img->is_pie = true;
    }
    if (!in_exec_segment(ef, ef->entry)) {
        return load_fail(err, errlen, what,
                         "entry point 0x%llx is not inside an executable segment",
                         (unsigned long long)ef->entry);
    }
    if (hi + bias > guest_mem_limit(gm)) {
        return load_fail(err, errlen, what, "image end 0x%llx is beyond the address space",
                         (unsigned long long)(hi + bias));
    }

    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        uint64_t start, end;

        if (s->type != ELF_PT_LOAD || s->memsz == 0) {
            continue;
        }
        start = page_down(s->vaddr + bias);
        if (!page_up(s->vaddr + bias + s->memsz, &end) ||
            !map_pages(gm, start, end, elf_to_gm_prot(s->flags))) {
            return load_fail(err, errlen, what,
                             "segment %u [0x%llx, 0x%llx) cannot be mapped (address space "
                             "limit or clash)",
                             i, (unsigned long long)(s->vaddr + bias),
                             (unsigned long long)(s->vaddr + bias + s->memsz));
        }
        if (s->filesz &&
            guest_mem_debug_rw(gm, s->vaddr + bias, ef->data + s->offset, s->filesz, true) !=
                GM_OK) {
            return load_fail(err, errlen, what, "segment %u: copying its bytes failed", i);
        }
    }

    img->load_bias = bias;
    img->entry = ef->entry + bias;
    img->lo = lo + bias;
    img->hi = hi + bias;
    img->end_data = hi + bias;
    img->phnum = ef->nsegments;
    img->phent = rd64le(ef->data + EHDR_PHENTSIZE) & 0xffff;
    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        if (s->type == ELF_PT_INTERP) {
            img->interp_ignored = true;
        }
        if (s->type == ELF_PT_PHDR) {
            img->phdr = s->vaddr + bias;
        }
    }
    if (!img->phdr && ef->nsegments) {
        /* No PT_PHDR: the headers are visible if a PT_LOAD maps them. */
        uint64_t phoff = rd64le(ef->data + EHDR_PHOFF);
        uint64_t phsize = (uint64_t)ef->nsegments * img->phent;
        for (unsigned i = 0; i < ef->nsegments; i++) {
            const ElfSegment *s = &ef->segments[i];
            if (s->type == ELF_PT_LOAD && phoff >= s->offset && phoff - s->offset < s->filesz &&
                phsize <= s->filesz - (phoff - s->offset)) {
                img->phdr = s->vaddr + (phoff - s->offset) + bias;
                break;
            }
        }
    }
    return true;
}
