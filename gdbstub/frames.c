/*
 * The guest program's symbols and the Linx frame walk behind
 * `monitor bt` (docs/gdbstub.md "Frames").
 *
 * Symbols: the front end names the program it loaded
 * (gdb_stub_load_symbols); the stub keeps its code and data symbols,
 * sorted by address, for `monitor bt`, `monitor dis` annotations and
 * addresses given by name in monitor commands.  ET_REL symbols (what the
 * virt machine loads) are offsets in their section: the section's sh_addr
 * is added.
 *
 * Frames: a LinxISA function that calls another has a FENTRY frame
 * template (docs/frontend.md, the linxisa digest 3.4):
 *     FENTRY [Begin ~ End], sp!, S
 * stores the register range Begin..End (by code, wrapping from R23 to
 * R2) at [sp-8], [sp-16], ... and then sets sp -= S; FRET.STK/FEXIT undo
 * it in one instruction.  So within a function whose first instruction is
 * FENTRY, once that FENTRY has run (pc past it):
 *     CFA (the caller's sp) = sp + S
 *     register i of the range was saved at CFA - 8 * (i + 1)
 *     the return address is ra as saved (ra is Begin in compiled code)
 * and before it (pc at the FENTRY), or in a function without one, CFA = sp
 * and the return address is in ra.  The walk needs no CFI: it decodes the
 * FENTRY at each function's start, which is what compiled code without
 * .debug_frame (the shared static programs) allows.  linx-as -g describes
 * the same rules as DWARF CFI for gdb's own unwinder (tools/linx-as).
 * Limits: functions that move sp after FENTRY (large frames, alloca) or
 * code after a FEXIT (tail calls) are not modelled.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub-internal.h"
#include "hw/core/guest-memory.h"
#include "target/linx/decode.h"
#include "util/elf-file.h"

#define STT_OBJECT 1
#define STT_FUNC 2
#define STT_SECTION 3
#define STT_FILE 4
#define SHN_ABS 0xfff1
#define FRAME_SLOT 8
#define MAX_INSN_BYTES 8
#define HALFWORD 2

static int sym_cmp(const void *a, const void *b)
{
    const GdbSym *x = a, *y = b;

    if (x->addr != y->addr) {
        return x->addr < y->addr ? -1 : 1;
    }
    /* At one address: functions first, then by name (stable output). */
    if (x->is_func != y->is_func) {
        return x->is_func ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

void gdb_symbols_free(GdbStub *s)
{
    for (unsigned i = 0; i < s->nsyms; i++) {
        g_free(s->syms[i].name);
    }
    g_free(s->syms);
    s->syms = NULL;
    s->nsyms = 0;
}

bool gdb_stub_load_symbols(GdbStub *s, const char *path, uint64_t bias, char *err, size_t errlen)
{
    ElfFile ef;
    GArray *a;
    bool any_func = false;

    if (!s || !path) {
        return true;
    }
    if (!elf_file_open(&ef, path, err, errlen)) {
        return false;
    }
    for (unsigned i = 0; i < ef.nsymbols; i++) {
        any_func |= ef.symbols[i].type == STT_FUNC;
    }
    a = g_array_new(FALSE, FALSE, sizeof(GdbSym));
    for (unsigned i = 0; i < ef.nsymbols; i++) {
        const ElfSymbol *e = &ef.symbols[i];
        const ElfSection *sec;
        GdbSym g;

        if (!e->name[0] || e->type == STT_SECTION || e->type == STT_FILE || e->shndx == 0 ||
            e->shndx >= ef.nsections || (e->name[0] == '.' && e->name[1] == 'L')) {
            continue; /* absolute constants, undefined and temporaries too */
        }
        sec = &ef.sections[e->shndx];
        if (!(sec->flags & ELF_SHF_ALLOC)) {
            continue;
        }
        g.is_func = (sec->flags & ELF_SHF_EXECINSTR) &&
                    (e->type == STT_FUNC || (!any_func && e->type != STT_OBJECT));
        g.addr = e->value + bias + (ef.type == ELF_ET_REL ? sec->addr : 0);
        g.size = e->size;
        g.sec_end = sec->addr + sec->size + bias;
        g.name = g_strdup(e->name);
        g_array_append_val(a, g);
    }
    gdb_symbols_free(s);
    s->prog_entry = ef.type == ELF_ET_REL ? 0 : ef.entry + bias;
    elf_file_close(&ef);
    s->nsyms = a->len;
    s->syms = (GdbSym *)g_array_free(a, FALSE);
    qsort(s->syms, s->nsyms, sizeof(GdbSym), sym_cmp);
    return true;
}

/* The symbol at or before @addr that covers it (a sized symbol only up to
 * its size), functions only when @func. */
const GdbSym *gdb_symbol_at(const GdbStub *s, uint64_t addr, bool func)
{
    unsigned lo = 0, hi = s->nsyms;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (s->syms[mid].addr <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (unsigned i = lo; i-- > 0;) {
        const GdbSym *g = &s->syms[i];
        if (func && !g->is_func) {
            continue;
        }
        if (addr >= g->sec_end || (g->size && addr - g->addr >= g->size)) {
            return NULL;
        }
        return g;
    }
    return NULL;
}

const GdbSym *gdb_symbol_named(const GdbStub *s, const char *name)
{
    for (unsigned i = 0; i < s->nsyms; i++) {
        if (!strcmp(s->syms[i].name, name)) {
            return &s->syms[i];
        }
    }
    return NULL;
}

bool gdb_insn_boundary(const GdbStub *s, CPULinxState *env, uint64_t addr)
{
    const GdbSym *f = gdb_symbol_at(s, addr, true);
    uint64_t pc;

    if (!f) {
        return true; /* nothing known to measure from */
    }
    /* Lengths come from each first halfword (decode.h), so a linear walk
     * from the function's start finds every boundary before @addr. */
    for (pc = f->addr; pc < addr;) {
        uint8_t hw[HALFWORD];
        if (!env->engine.mem ||
            guest_mem_debug_rw(env->engine.mem, pc, hw, HALFWORD, false) != GM_OK) {
            return true;
        }
        pc += linx_insn_length((uint16_t)(hw[0] | hw[1] << 8));
    }
    return pc == addr;
}

/* ---- Frame walk ---- */

static bool read_u64(CPULinxState *env, uint64_t addr, uint64_t *v)
{
    uint8_t b[FRAME_SLOT];

    if (!env->engine.mem ||
        guest_mem_debug_rw(env->engine.mem, addr, b, sizeof(b), false) != GM_OK) {
        return false;
    }
    *v = 0;
    for (int i = FRAME_SLOT - 1; i >= 0; i--) {
        *v = *v << 8 | b[i];
    }
    return true;
}

bool gdb_decode_at(CPULinxState *env, uint64_t pc, LinxInsn *insn)
{
    uint8_t buf[MAX_INSN_BYTES];
    size_t n = 0;

    while (n < sizeof(buf) && env->engine.mem &&
           guest_mem_debug_rw(env->engine.mem, pc + n, buf + n, HALFWORD, false) == GM_OK) {
        n += HALFWORD;
    }
    return n && linx_decode(buf, n, insn) == LINX_DECODE_OK;
}

/* The frame template range Begin..End (by code, wrapping from R23 to R2,
 * as the translator's template_regs); the count, 0 when illegal. */
static unsigned template_range(unsigned begin, unsigned end, uint8_t regs[LINX_NUM_GPRS])
{
    unsigned n = 0, r = begin;

    if (begin < LINX_REG_A0 || begin >= LINX_NUM_GPRS || end < LINX_REG_A0 ||
        end >= LINX_NUM_GPRS) {
        return 0;
    }
    for (;;) {
        regs[n++] = (uint8_t)r;
        if (r == end || n == LINX_NUM_GPRS - LINX_REG_A0) {
            return n;
        }
        r = r == LINX_NUM_GPRS - 1 ? LINX_REG_A0 : r + 1;
    }
}

bool gdb_frame_template(CPULinxState *env, uint64_t func, GdbFrameInfo *fi)
{
    LinxInsn insn;

    memset(fi, 0, sizeof(*fi));
    if (!gdb_decode_at(env, func, &insn) || insn.form != LINX_F_FENTRY) {
        return false;
    }
    fi->fentry_pc = func;
    fi->fentry_len = insn.len;
    fi->size = (uint64_t)linx_insn_field(&insn, LINX_FLD_uimm, NULL);
    fi->nregs = template_range((unsigned)linx_insn_field(&insn, LINX_FLD_SrcBegin, NULL),
                               (unsigned)linx_insn_field(&insn, LINX_FLD_SrcEnd, NULL), fi->regs);
    return fi->nregs > 0;
}

/* Print one frame line. */
static void frame_line(FILE *out, unsigned n, uint64_t pc, const GdbSym *f, uint64_t sp,
                       uint64_t cfa, const GdbFrameInfo *fi, bool in_frame)
{
    fprintf(out, "#%-2u 0x%016" PRIx64 " in ", n, pc);
    if (f) {
        fprintf(out, "%s+0x%" PRIx64, f->name, pc - f->addr);
    } else {
        fprintf(out, "??");
    }
    fprintf(out, "  sp 0x%" PRIx64 " cfa 0x%" PRIx64, sp, cfa);
    if (fi && fi->nregs) {
        fprintf(out, "  [FENTRY %" PRIu64 " bytes, %u saved%s]", fi->size, fi->nregs,
                in_frame ? "" : ", not yet run");
    } else if (f) {
        fprintf(out, "  [no frame]");
    }
    fputc('\n', out);
}

void gdb_frames_print(GdbStub *s, CPULinxState *env, FILE *out)
{
    uint64_t regs[LINX_NUM_GPRS];
    uint64_t pc = env->pc;

    memcpy(regs, env->gpr, sizeof(regs));
    if (!s->nsyms) {
        fprintf(out, "no program symbols: the frame walk needs to know where functions "
                     "start (the front end loads them from the program's ELF)\n");
        return;
    }
    for (unsigned n = 0; n < GDB_MAX_FRAMES; n++) {
        const GdbSym *f = gdb_symbol_at(s, pc, true);
        GdbFrameInfo fi;
        bool has = f && gdb_frame_template(env, f->addr, &fi);
        bool in_frame = has && pc >= fi.fentry_pc + fi.fentry_len;
        uint64_t sp = regs[LINX_REG_SP];
        uint64_t cfa = in_frame ? sp + fi.size : sp;
        uint64_t ret;

        frame_line(out, n, pc, f, sp, cfa, has ? &fi : NULL, in_frame);
        if (!f) {
            fprintf(out, "(stopped: no function symbol covers this pc)\n");
            return;
        }
        if ((s->prog_entry && pc == s->prog_entry) || !strcmp(f->name, "_start")) {
            return; /* the program's entry: outermost */
        }
        if (n > 0 && !in_frame) {
            fprintf(out, "(stopped: %s calls without a FENTRY frame)\n", f->name);
            return;
        }
        if (in_frame) {
            for (unsigned i = 0; i < fi.nregs; i++) {
                uint64_t v;
                if (!read_u64(env, cfa - FRAME_SLOT * (i + 1), &v)) {
                    fprintf(out, "(stopped: frame at 0x%" PRIx64 " not readable)\n", cfa);
                    return;
                }
                regs[fi.regs[i]] = v;
            }
        }
        ret = regs[LINX_REG_RA];
        if (ret == 0 || (n > 0 && cfa <= sp && in_frame)) {
            return;
        }
        regs[LINX_REG_SP] = cfa;
        pc = ret;
    }
    fprintf(out, "(stopped after %u frames)\n", GDB_MAX_FRAMES);
}
