/*
 * Fuzz target for the Linux user-mode ELF loader: one input is a program
 * file.  util/elf-file parses it, linux_load_elf() maps it into a fresh
 * process's address space and linux_setup_stack() builds the initial
 * stack.  Nothing runs (guest code could make host system calls: that is
 * fuzz-syscall's job, inside a sandbox).
 *
 * Invariants:
 *  - a refusal has a message that names the file, and leaves the address
 *    space as it was (no region mapped);
 *  - an accepted program has its entry point in an executable page, every
 *    PT_LOAD's first and last file byte readable at its address with the
 *    file's value, and the first byte past filesz (bss) zero;
 *  - the stack is built or refused with a message.
 *
 * Generated inputs (fuzz_generated): a valid two-segment program built
 * here, then mutated: header fields set to edge values, truncation,
 * overlapping and huge segments, random byte flips.
 */
#include <string.h>

#include "fuzz-target.h"
#include "linux-user/linux-user.h"
#include "util/elf-file.h"

const char fuzz_target_name[] = "fuzz-elf-user";

static long n_loaded, n_refused; /* generated-mode statistics */

int LLVMFuzzerInitialize(int *argc, char **argv[])
{
    (void)argc;
    (void)argv;
    return 0;
}

static void check_loaded(const uint8_t *data, size_t size, LinuxProcess *p, const ElfFile *ef)
{
    const LinuxImage *img = &p->image;
    uint64_t bias = img->load_bias;

    if (!(guest_mem_prot(p->mem, img->entry) & GM_PROT_EXEC)) {
        fuzz_fail(data, size, "entry 0x%llx is not in an executable page",
                  (unsigned long long)img->entry);
    }
    if (img->lo >= img->hi) {
        fuzz_fail(data, size, "empty image [0x%llx, 0x%llx)", (unsigned long long)img->lo,
                  (unsigned long long)img->hi);
    }
    for (unsigned i = 0; i < ef->nsegments; i++) {
        const ElfSegment *s = &ef->segments[i];
        uint8_t b;
        if (s->type != ELF_PT_LOAD || s->memsz == 0) {
            continue;
        }
        if (s->filesz) {
            uint64_t at[2] = { 0, s->filesz - 1 };
            for (int k = 0; k < 2; k++) {
                if (guest_mem_debug_rw(p->mem, s->vaddr + bias + at[k], &b, 1, false) != GM_OK ||
                    b != data[s->offset + at[k]]) {
                    fuzz_fail(data, size, "segment %u byte 0x%llx not loaded from the file", i,
                              (unsigned long long)at[k]);
                }
            }
        }
        if (s->memsz > s->filesz) {
            if (guest_mem_debug_rw(p->mem, s->vaddr + bias + s->filesz, &b, 1, false) != GM_OK ||
                b != 0) {
                fuzz_fail(data, size, "segment %u: bss byte not zero", i);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LinuxOptions o = { .log = fuzz_devnull() };
    LinuxProcess *p;
    ElfFile ef;
    char err[512] = "";

    if (!elf_file_parse(&ef, data, size, "prog", err, sizeof(err))) {
        if (!err[0]) {
            fuzz_fail(data, size, "elf_file_parse refused without a message");
        }
        return 0;
    }
    p = linux_process_new(&o);
    if (!p) {
        fuzz_fail(data, size, "linux_process_new failed");
    }
    size_t regions = guest_mem_region_count(p->mem);
    err[0] = 0;
    if (!linux_load_elf(p->mem, &ef, "prog", &p->image, err, sizeof(err))) {
        if (strncmp(err, "prog", 4) != 0) {
            fuzz_fail(data, size, "refusal does not name the file: '%s'", err);
        }
        if (guest_mem_region_count(p->mem) != regions) {
            fuzz_fail(data, size, "refused ('%s') but the address space changed", err);
        }
        n_refused++;
    } else {
        n_loaded++;
        static char arg0[] = "prog", env0[] = "A=1";
        char *argv[] = { arg0, NULL }, *envp[] = { env0, NULL };
        static const uint8_t rnd16[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
        check_loaded(data, size, p, &ef);
        p->brk_start = p->brk_cur = (p->image.end_data + GUEST_PAGE_SIZE - 1) & GUEST_PAGE_MASK;
        err[0] = 0;
        if (!linux_setup_stack(p, 1, argv, envp, "prog", rnd16, err, sizeof(err)) && !err[0]) {
            fuzz_fail(data, size, "stack refused without a message");
        }
    }
    linux_process_free(p);
    elf_file_close(&ef);
    return 0;
}

/* ---- generated inputs ------------------------------------------------------- */

#define GEN_MAX 0x3000

static void put(uint8_t *b, size_t off, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        b[off + i] = (uint8_t)(v >> (8 * i));
    }
}

/* ET_EXEC: RX text at 0x10000 (file offset 0, headers included), RW data
 * at 0x12000 with bss. */
static size_t good_elf(uint8_t *b)
{
    memset(b, 0, GEN_MAX);
    memcpy(b, "\177ELF\2\1\1", 7);
    put(b, 16, ELF_ET_EXEC, 2);
    put(b, 18, EM_LINXISA, 2);
    put(b, 20, 1, 4);
    put(b, 24, 0x10100, 8); /* entry */
    put(b, 32, 64, 8);      /* phoff */
    put(b, 52, 64, 2);
    put(b, 54, 56, 2);
    put(b, 56, 2, 2);
    put(b, 58, 64, 2);
    /* text */
    put(b, 64, ELF_PT_LOAD, 4);
    put(b, 68, ELF_PF_R | ELF_PF_X, 4);
    put(b, 72, 0, 8);
    put(b, 80, 0x10000, 8);
    put(b, 88, 0x10000, 8);
    put(b, 96, 0x200, 8);
    put(b, 104, 0x200, 8);
    put(b, 112, 0x1000, 8);
    b[0x100] = 0x00; /* C.BSTART.STD */
    b[0x101] = 0x08;
    /* data + bss */
    put(b, 120, ELF_PT_LOAD, 4);
    put(b, 124, ELF_PF_R | ELF_PF_W, 4);
    put(b, 128, 0x1000, 8);
    put(b, 136, 0x12000, 8);
    put(b, 144, 0x12000, 8);
    put(b, 152, 0x100, 8);
    put(b, 160, 0x3000, 8);
    put(b, 168, 0x1000, 8);
    for (int i = 0; i < 0x100; i++) {
        b[0x1000 + i] = (uint8_t)(i * 7 + 1);
    }
    return 0x1100;
}

long fuzz_generated(long count)
{
    static const uint64_t edges[] = { 0,
                                      1,
                                      0xfff,
                                      0x1000,
                                      0x7fffffff,
                                      0xffffffff,
                                      UINT64_C(0x7fffffffffff),
                                      UINT64_C(0x800000000000),
                                      UINT64_C(0xfffffffffffff000),
                                      UINT64_MAX };
    /* Header and program-header fields: offset, size. */
    static const uint8_t fields[][2] = {
        { 4, 1 },   { 5, 1 },   { 16, 2 },  { 18, 2 },  { 24, 8 },  { 32, 8 },  { 52, 2 },
        { 54, 2 },  { 56, 2 },  { 64, 4 },  { 68, 4 },  { 72, 8 },  { 80, 8 },  { 96, 8 },
        { 104, 8 }, { 112, 8 }, { 120, 4 }, { 128, 8 }, { 136, 8 }, { 152, 8 }, { 160, 8 },
    };
    static uint8_t buf[GEN_MAX];
    FuzzRng r = { 0x9e3779b97f4a7c15ull };

    for (long i = 0; i < count; i++) {
        size_t n = good_elf(buf);
        unsigned muts = i % 50 == 0 ? 0 : 1 + fuzz_rndn(&r, 3);
        for (unsigned k = 0; k < muts; k++) {
            switch (fuzz_rndn(&r, 5)) {
            case 0: { /* an edge value in a field */
                const uint8_t *f = fields[fuzz_rndn(&r, sizeof(fields) / sizeof(fields[0]))];
                uint64_t v = edges[fuzz_rndn(&r, sizeof(edges) / sizeof(edges[0]))];
                if (fuzz_rndn(&r, 2)) {
                    v += fuzz_rndn(&r, 3) - 1;
                }
                put(buf, f[0], v, f[1]);
                break;
            }
            case 1: /* truncation */
                n = fuzz_rndn(&r, (unsigned)n + 1);
                break;
            case 2: /* the data segment over the text, or huge */
                put(buf, 136, fuzz_rndn(&r, 2) ? 0x10000 + fuzz_rndn(&r, 0x300) : fuzz_rnd(&r), 8);
                put(buf, 160, fuzz_rndn(&r, 2) ? 0x3000 : fuzz_rnd(&r) >> fuzz_rndn(&r, 64), 8);
                break;
            case 3: /* another program-header type */
                put(buf, 64 + 56 * fuzz_rndn(&r, 2), fuzz_rndn(&r, 8), 4);
                break;
            default: /* random bytes */
                for (unsigned b = 0, m = 1 + fuzz_rndn(&r, 8); b < m && n; b++) {
                    buf[fuzz_rndn(&r, (unsigned)n)] = (uint8_t)fuzz_rnd(&r);
                }
                break;
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%s: %ld programs loaded, %ld refused by the loader\n", fuzz_target_name, n_loaded,
           n_refused);
    if (!n_loaded || !n_refused) {
        fuzz_fail(buf, 0, "the generated inputs never reach one of the loader's outcomes");
    }
    return count;
}
