/*
 * -d out_asm: list a freshly generated TB's host code with capstone.
 *
 * Output, one block per TB:
 *     OUT: [guest pc 0x10000, 92 bytes]
 *       -- guest 0x10000
 *       0x7f1234560010:  mov  rbx, qword ptr [rbp + 8]
 *       ...
 *       -- slow paths
 *       ...
 * The "-- guest" lines come from the IR's insn_start ops, so each guest
 * instruction's host code reads as one group (Blink's side-by-side style).
 */
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>

#include "x86-gen.h"

/*
 * Capstone is loaded here, when a listing is asked for, not linked: its
 * library carries some 77 000 relocations that every emulator start would
 * otherwise apply (issue 16).  dlopen of a loaded library is a lookup, and
 * it stays loaded (never closed).
 */
typedef struct Capstone {
    cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
    size_t (*disasm)(csh handle, const uint8_t *code, size_t size, uint64_t address,
                     size_t count, cs_insn **insn);
    void (*free)(cs_insn *insn, size_t count);
    cs_err (*close)(csh *handle);
} Capstone;

static bool capstone_load(Capstone *cs)
{
    char name[64];
    void *lib;

    snprintf(name, sizeof(name), "libcapstone.so.%d", CS_API_MAJOR);
    lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        lib = dlopen("libcapstone.so", RTLD_NOW | RTLD_LOCAL);
    }
    if (!lib) {
        return false;
    }
    *(void **)&cs->open = dlsym(lib, "cs_open");
    *(void **)&cs->disasm = dlsym(lib, "cs_disasm");
    *(void **)&cs->free = dlsym(lib, "cs_free");
    *(void **)&cs->close = dlsym(lib, "cs_close");
    return cs->open && cs->disasm && cs->free && cs->close;
}

void x86_disas_tb(FILE *f, const X86Gen *g, const uint8_t *code, size_t size)
{
    Capstone cs;
    csh handle;
    cs_insn *insn;
    uint64_t rx = g->e.rx_base;
    unsigned mark = 0;
    bool slow_shown = false;

    fprintf(f, "OUT: [guest pc 0x%" PRIx64 ", %zu bytes]\n", g->tb->pc, size);
    if (!capstone_load(&cs) || cs.open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) {
        fprintf(f, "  (capstone unavailable)\n");
        return;
    }
    size_t n = cs.disasm(handle, code, size, rx, 0, &insn);
    for (size_t i = 0; i < n; i++) {
        size_t off = (size_t)(insn[i].address - rx);
        while (mark < g->nmarks && g->marks[mark].pos <= off) {
            fprintf(f, "  -- guest 0x%" PRIx64 "\n", g->marks[mark].pc);
            mark++;
        }
        if (!slow_shown && (g->nslow || g->nstubs) && off >= g->body_end) {
            fprintf(f, "  -- slow paths and branch write-backs\n");
            slow_shown = true;
        }
        fprintf(f, "  0x%" PRIx64 ":  %-7s %s\n", insn[i].address, insn[i].mnemonic,
                insn[i].op_str);
    }
    if (n) {
        cs.free(insn, n);
    }
    cs.close(&handle);
    fputc('\n', f);
}

void x86_disas_code(FILE *f, const char *title, const uint8_t *code, size_t size, uint64_t rx)
{
    Capstone cs;
    csh handle;
    cs_insn *insn;
    size_t n;

    fprintf(f, "OUT: [%s, %zu bytes]\n", title, size);
    if (!capstone_load(&cs) || cs.open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) {
        fprintf(f, "  (capstone unavailable)\n");
        return;
    }
    n = cs.disasm(handle, code, size, rx, 0, &insn);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  0x%" PRIx64 ":  %-7s %s\n", insn[i].address, insn[i].mnemonic,
                insn[i].op_str);
    }
    if (n) {
        cs.free(insn, n);
    }
    cs.close(&handle);
    fputc('\n', f);
}
