/*
 * linx-as symbol types and sizes for labels the source did not type with
 * .type/.size (after pass 2, so every offset is final):
 *   - a label in a code section is a function (STT_FUNC) when it is
 *     global or weak or the target of a call ("... CALL, label" or the
 *     fused "BSTART CALL, label, ra=..."); its size runs to the next
 *     function's label or the end of its section.  Other code labels
 *     (loop heads) stay STT_NOTYPE: they belong to the function before;
 *   - a label in a data section (.data, .rodata, .bss, ...) is an object
 *     (STT_OBJECT) whose size runs to the end of the last data directive
 *     before the next label of that section; a label with no data after it
 *     (an end marker) stays STT_NOTYPE.
 * gdb and lldb then know function extents and the size of a variable
 * (`x/s msg`, `p sizeof(counter)` with -g, `info symbol`).  The same pass
 * notes what each object holds (element size, strings, fills) for the
 * DWARF variables of -g (dwarf.c).  Assembler temporaries (.L*) and
 * numeric labels are not symbols and are left alone, but they end the
 * object before them.
 */
#include <ctype.h>
#include <string.h>

#include "directives.h"
#include "dwarf.h"
#include "util/elf-file.h"

static bool output_label(const LinxAs *as, const AsStmt *st)
{
    const AsSymbol *s;

    if (st->kind != AS_ST_LABEL || st->is_numlabel || st->sym >= as->nsyms) {
        return false;
    }
    s = &as->syms[st->sym];
    return s->defined && !s->is_equ && s->sec == st->sec && s->sec >= 0 &&
           !(s->name[0] == '.' && s->name[1] == 'L');
}

static bool code_section(const AsSection *sec)
{
    return (sec->flags & ELF_SHF_EXECINSTR) && (sec->flags & ELF_SHF_ALLOC);
}

/* Labels called by name: "CALL, name" anywhere in an instruction. */
static void mark_call_targets(LinxAs *as, bool *called)
{
    for (uint32_t i = 0; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        const char *p = st->text;

        if (st->kind != AS_ST_INSN || !p) {
            continue;
        }
        while ((p = strchr(p, ',')) != NULL) {
            const char *q = p;
            const char *name;
            size_t n;
            /* The word before the comma must be CALL (any case). */
            while (q > st->text && as_is_space((unsigned char)q[-1])) {
                q--;
            }
            p++;
            if (q - st->text < 4 || strncasecmp(q - 4, "call", 4) != 0 ||
                (q - st->text > 4 && as_is_ident_char((unsigned char)q[-5]))) {
                continue;
            }
            name = as_skip_ws(p);
            n = as_ident_len(name);
            if (n) {
                AsSymbol *s = as_sym_find(as, name, n);
                if (s) {
                    called[s - as->syms] = true;
                }
            }
        }
    }
}

/* The directive of a statement ("quad" for ".quad 1"), lower case. */
static void directive_word(const AsStmt *st, char *out, size_t len)
{
    const char *p = st->text ? as_skip_ws(st->text) : "";
    size_t n = 0;

    if (*p == '.') {
        p++;
    }
    while (n + 1 < len && as_is_ident_char((unsigned char)p[n])) {
        out[n] = (char)tolower((unsigned char)p[n]);
        n++;
    }
    out[n] = 0;
}

/* Element size of a data directive, 0 for a string, -1 for a fill, -2 for
 * something that is not data (alignment, .org, symbol directives). */
static int data_unit(const AsStmt *st)
{
    static const struct {
        const char *name;
        int unit;
    } dirs[] = {
        { "byte", 1 },  { "2byte", 2 },  { "half", 2 },  { "hword", 2 }, { "short", 2 },
        { "4byte", 4 }, { "word", 4 },   { "long", 4 },  { "int", 4 },   { "8byte", 8 },
        { "quad", 8 },  { "dword", 8 },  { "ascii", 0 }, { "asciz", 0 }, { "string", 0 },
        { "zero", -1 }, { "space", -1 }, { "skip", -1 }, { "fill", -1 },
    };
    char w[16];

    if (st->kind != AS_ST_DIRECTIVE || st->size == 0) {
        return -2;
    }
    directive_word(st, w, sizeof(w));
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        if (!strcmp(w, dirs[i].name)) {
            return dirs[i].unit;
        }
    }
    return -2;
}

/* The object starting at label statement @li: what the data statements
 * up to the next label of its section hold. */
static AsObject object_at(const LinxAs *as, uint32_t li)
{
    const AsStmt *lab = &as->stmts[li];
    AsObject o = { .sym = lab->sym,
                   .unit = 0xff,
                   .string = true,
                   .fill = true,
                   .file = lab->file,
                   .line = lab->line };
    uint64_t end = lab->off;
    bool any = false;

    for (uint32_t i = li + 1; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        int unit;
        if (st->sec != lab->sec) {
            continue;
        }
        if (st->kind == AS_ST_LABEL) {
            break;
        }
        unit = data_unit(st);
        if (unit == -2) {
            if (st->kind == AS_ST_INSN || st->kind == AS_ST_TEMPLATE) {
                o.unit = 0; /* code in a data section: bytes */
                o.string = o.fill = false;
                any = true;
                end = st->off + st->size;
            }
            continue;
        }
        any = true;
        end = st->off + st->size;
        if (unit != 0) {
            o.string = false;
        }
        if (unit != -1) {
            o.fill = false;
        }
        if (unit > 0) {
            o.unit = o.unit == 0xff || o.unit == unit ? (uint8_t)unit : 0;
        } else if (unit == 0) {
            o.unit = o.unit == 0xff || o.unit == 1 ? 1 : 0;
        }
    }
    if (!any) {
        o.string = o.fill = false;
    }
    if (o.unit == 0xff) {
        o.unit = 0; /* fills only */
    }
    o.size = end - lab->off;
    return o;
}

static int func_cmp(const void *a, const void *b)
{
    const AsFunc *x = a, *y = b;

    if (x->sec != y->sec) {
        return x->sec < y->sec ? -1 : 1;
    }
    return x->start < y->start ? -1 : x->start > y->start;
}

void as_symbols_classify(LinxAs *as, AsSymInfo *info)
{
    bool *called = as_xcalloc(as->nsyms ? as->nsyms : 1, sizeof(bool));
    uint32_t nf = 0, no = 0;

    memset(info, 0, sizeof(*info));
    mark_call_targets(as, called);
    info->funcs = as_xcalloc(as->nstmts ? as->nstmts : 1, sizeof(AsFunc));
    info->objs = as_xcalloc(as->nstmts + as->nsyms + 1, sizeof(AsObject));
    for (uint32_t i = 0; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        AsSymbol *s;
        if (!output_label(as, st)) {
            continue;
        }
        s = &as->syms[st->sym];
        if (code_section(&as->secs[st->sec])) {
            if (s->type == AS_STT_FUNC ||
                (s->type == AS_STT_NOTYPE && (s->bind != AS_STB_LOCAL || called[st->sym]))) {
                s->type = AS_STT_FUNC;
                info->funcs[nf++] = (AsFunc){ .sym = st->sym,
                                              .sec = st->sec,
                                              .start = (uint64_t)s->value,
                                              .file = st->file,
                                              .line = st->line };
            }
        } else if ((as->secs[st->sec].flags & ELF_SHF_ALLOC) &&
                   (s->type == AS_STT_NOTYPE || s->type == AS_STT_OBJECT)) {
            AsObject o = object_at(as, i);
            if (s->has_size) {
                o.size = s->size;
            }
            if (o.size == 0) {
                continue; /* an end marker */
            }
            s->type = AS_STT_OBJECT;
            s->size = o.size;
            s->has_size = true;
            info->objs[no++] = o;
        }
    }
    /* .comm/.lcomm: sized objects without a label statement. */
    for (uint32_t k = 0; k < as->nsyms; k++) {
        const AsSymbol *s = &as->syms[k];
        bool seen = false;
        if (!s->defined || s->type != AS_STT_OBJECT || !s->has_size || s->size == 0 || s->sec < 0 ||
            as->secs[s->sec].type != ELF_SHT_NOBITS) {
            continue;
        }
        for (uint32_t j = 0; j < no && !seen; j++) {
            seen = info->objs[j].sym == k;
        }
        if (!seen) {
            info->objs[no++] = (AsObject){
                .sym = k, .size = s->size, .fill = true, .file = s->def_file, .line = s->def_line
            };
        }
    }
    /* Function sizes: to the next function of the section, or its end. */
    qsort(info->funcs, nf, sizeof(AsFunc), func_cmp);
    for (uint32_t i = 0; i < nf; i++) {
        AsFunc *f = &info->funcs[i];
        AsSymbol *s = &as->syms[f->sym];
        f->end = as->secs[f->sec].size;
        for (uint32_t j = i + 1; j < nf && info->funcs[j].sec == f->sec; j++) {
            if (info->funcs[j].start > f->start) {
                f->end = info->funcs[j].start;
                break;
            }
        }
        if (s->has_size) {
            f->end = f->start + s->size;
        } else {
            s->size = f->end - f->start;
            s->has_size = true;
        }
    }
    info->nfuncs = nf;
    info->nobjs = no;
    free(called);
}

void as_sym_info_free(AsSymInfo *info)
{
    free(info->funcs);
    free(info->objs);
    memset(info, 0, sizeof(*info));
}
