/*
 * linx-as symbol types and -g debug information, through the library, read
 * back with util/elf-file and small DWARF decoders written here from the
 * DWARF 4 text (line-number program, CFA instructions): an independent
 * reading of what tools/linx-as/dwarf*.c write.  (The functional test
 * linx-as-debug.py reads the same output with binutils' readelf; this one
 * also runs under ASan/UBSan.)
 *
 * Covered: STT_FUNC/STT_OBJECT and sizes for untyped labels (explicit
 * .type/.size kept), the line table row of every instruction line (at the
 * address of the label before it), a second code section (.debug_ranges),
 * CFI after FENTRY (CFA offset and the saved range) in both register
 * numberings, remember/restore around FEXIT up to the next label, the
 * entry function's undefined return address, no debug sections without -g
 * or for raw binaries, ET_REL output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linx-as.h"
#include "util/elf-file.h"

static const char src[] = "    .text\n"                        /* 1 */
                          "    .globl _start\n"                /* 2 */
                          "_start:\n"                          /* 3 */
                          "    C.BSTART.STD FALL\n"            /* 4 */
                          "l5:\n"                              /* 5 */
                          "    hl.lis 5, ->a0\n"               /* 6 */
                          "l7:\n"                              /* 7 */
                          "    BSTART CALL, helper, ra=back\n" /* 8 */
                          "back:\n"                            /* 9 */
                          "    C.BSTART DIRECT, back\n"        /* 10 */
                          "helper:\n"                          /* 11 */
                          "    FENTRY [ra ~ s2], sp!, 48\n"    /* 12 */
                          "h13:\n"                             /* 13 */
                          "    C.BSTART.STD FALL\n"            /* 14 */
                          "    FEXIT [ra ~ s2], sp!, 48\n"     /* 15 */
                          "tail:\n"                            /* 16 */
                          "    C.BSTART DIRECT, other\n"       /* 17 */
                          "inframe:\n"                         /* 18 */
                          "    FRET.STK [ra ~ s2], sp!, 48\n"  /* 19 */
                          "    .type typed, @function\n"       /* 20 */
                          "    .size typed, 4\n"               /* 21 */
                          "typed:\n"                           /* 22 */
                          "    C.BSTART.STD FALL\n"            /* 23 */
                          "    C.BSTOP\n"                      /* 24 */
                          "    .section .text.other\n"         /* 25 */
                          "    .globl other\n"                 /* 26 */
                          "other:\n"                           /* 27 */
                          "    C.BSTART DIRECT, other\n"       /* 28 */
                          "    .data\n"                        /* 29 */
                          "counter:\n"                         /* 30 */
                          "    .quad 0\n"                      /* 31 */
                          "    .p2align 4\n"                   /* 32 */
                          "pair:\n"                            /* 33 */
                          "    .word 1, 2\n"                   /* 34 */
                          "end_marker:\n"                      /* 35 */
                          "    .section .rodata\n"             /* 36 */
                          "msg:\n"                             /* 37 */
                          "    .asciz \"hi\"\n"                /* 38 */
                          "    .comm pool, 24, 8\n";           /* 39 */

typedef struct Out {
    LinxAs *as;
    uint8_t *buf;
    size_t len;
    ElfFile ef;
} Out;

static void build(Out *o, bool debug, unsigned regs, LinxAsFormat fmt)
{
    LinxAsOptions opt;
    char err[256];

    linx_as_default_options(&opt);
    opt.debug_info = debug;
    opt.dwarf_regs = regs;
    opt.format = fmt;
    o->as = linx_as_new(&opt);
    linx_as_add_source(o->as, "t.s", src, strlen(src));
    if (!linx_as_assemble(o->as)) {
        fail_msg("%s", linx_as_diagnostics(o->as));
    }
    assert_true(linx_as_output(o->as, &o->buf, &o->len));
    if (fmt != LINX_AS_FMT_BIN) {
        assert_true(elf_file_parse(&o->ef, o->buf, o->len, "out", err, sizeof(err)));
    }
}

static void done(Out *o, bool elf)
{
    if (elf) {
        elf_file_close(&o->ef);
    }
    free(o->buf);
    linx_as_free(o->as);
}

static uint64_t sym(Out *o, const char *name)
{
    uint64_t v = 0;

    assert_true(linx_as_symbol_value(o->as, name, &v));
    return v;
}

static const ElfSymbol *elf_sym(const Out *o, const char *name)
{
    for (unsigned i = 0; i < o->ef.nsymbols; i++) {
        if (!strcmp(o->ef.symbols[i].name, name)) {
            return &o->ef.symbols[i];
        }
    }
    fail_msg("no symbol %s", name);
    return NULL;
}

static const uint8_t *section(const Out *o, const char *name, uint64_t *size)
{
    const ElfSection *s = elf_file_section_by_name(&o->ef, name);

    if (!s) {
        return NULL;
    }
    *size = s->size;
    return elf_file_section_data(&o->ef, s);
}

/* ---- little DWARF readers ---- */

static uint64_t rd(const uint8_t **p, unsigned n)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)(*p)[i] << (8 * i);
    }
    *p += n;
    return v;
}

static uint64_t uleb(const uint8_t **p)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t c;

    do {
        c = *(*p)++;
        v |= (uint64_t)(c & 0x7f) << shift;
        shift += 7;
    } while (c & 0x80);
    return v;
}

static int64_t sleb(const uint8_t **p)
{
    int64_t v = 0;
    unsigned shift = 0;
    uint8_t c;

    do {
        c = *(*p)++;
        v |= (int64_t)(c & 0x7f) << shift;
        shift += 7;
    } while (c & 0x80);
    if (shift < 64 && (c & 0x40)) {
        v |= -((int64_t)1 << shift);
    }
    return v;
}

/* Run the line-number program: does it have a row (@addr, @line)? */
static bool line_row(const uint8_t *d, uint64_t size, uint64_t addr, unsigned line)
{
    const uint8_t *p = d, *end;
    const uint8_t *prog;
    uint64_t hdr_len, a = 0;
    int64_t l = 1;
    uint8_t opcode_base, line_range;
    int8_t line_base;

    end = p + 4 + rd(&p, 4);
    assert_true(end <= d + size);
    assert_int_equal(rd(&p, 2), 4); /* version */
    hdr_len = rd(&p, 4);
    prog = p + hdr_len;
    p += 3; /* min_inst_length, max_ops, default_is_stmt */
    line_base = (int8_t)*p++;
    line_range = *p++;
    opcode_base = *p++;
    for (p = prog; p < end;) {
        uint8_t op = *p++;
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            a += adj / line_range;
            l += line_base + (int)(adj % line_range);
            if (a == addr && l == line) {
                return true;
            }
        } else if (op == 0) {
            uint64_t n = uleb(&p);
            uint8_t sub = *p;
            if (sub == 2) {
                const uint8_t *q = p + 1;
                a = rd(&q, 8);
            } else if (sub == 1) {
                l = 1; /* end_sequence */
            }
            p += n;
        } else if (op == 1) { /* copy */
            if (a == addr && l == line) {
                return true;
            }
        } else if (op == 2) {
            a += uleb(&p);
        } else if (op == 3) {
            l += sleb(&p);
        } else if (op == 4) {
            uleb(&p);
        } else {
            fail_msg("line opcode %u not written by linx-as", op);
        }
    }
    return false;
}

/* The CFA instructions of the FDE starting at @pc, as text ("loc 0x..;
 * cfa +48; r1@1; ..."), with the CIE's return column in *ra. */
static void fde_text(const uint8_t *d, uint64_t size, uint64_t pc, char *out, size_t len,
                     unsigned *ra)
{
    const uint8_t *p = d;

    out[0] = 0;
    while (p < d + size) {
        const uint8_t *start = p;
        uint64_t n = rd(&p, 4);
        const uint8_t *end = p + n;
        uint64_t id = rd(&p, 4);
        if (id == 0xffffffffu) {
            assert_int_equal(*p++, 4); /* version */
            assert_int_equal(*p++, 0); /* augmentation "" */
            assert_int_equal(*p++, 8); /* address size */
            p++;
            uleb(&p);
            sleb(&p);
            *ra = (unsigned)uleb(&p);
        } else if (rd(&p, 8) == pc) {
            uint64_t loc = pc;
            rd(&p, 8);
            while (p < end) {
                uint8_t op = *p++;
                char item[64];
                switch (op >> 6 ? op & 0xc0 : op) {
                case 0x80:
                    snprintf(item, sizeof(item), "r%u@%u;", op & 0x3f, (unsigned)uleb(&p));
                    break;
                case 0xc0:
                    snprintf(item, sizeof(item), "restore r%u;", op & 0x3f);
                    break;
                case 0x04:
                    loc += rd(&p, 4);
                    snprintf(item, sizeof(item), "loc 0x%llx;", (unsigned long long)loc);
                    break;
                case 0x07:
                    snprintf(item, sizeof(item), "undef r%u;", (unsigned)uleb(&p));
                    break;
                case 0x0a:
                    snprintf(item, sizeof(item), "remember;");
                    break;
                case 0x0b:
                    snprintf(item, sizeof(item), "restore;");
                    break;
                case 0x0e:
                    snprintf(item, sizeof(item), "cfa +%u;", (unsigned)uleb(&p));
                    break;
                case 0x00:
                    item[0] = 0;
                    break;
                default:
                    fail_msg("CFA opcode 0x%x not written by linx-as", op);
                    return;
                }
                strncat(out, item, len - strlen(out) - 1);
            }
            return;
        }
        p = start + 4 + n;
    }
    fail_msg("no FDE at 0x%llx", (unsigned long long)pc);
}

/* ---- tests ---- */

static void test_symbol_types(void **state)
{
    Out o;

    (void)state;
    build(&o, false, 0, LINX_AS_FMT_EXEC);
    /* Functions: global, called, or typed; sized to the next function. */
    assert_int_equal(elf_sym(&o, "_start")->type, 2);
    assert_int_equal(elf_sym(&o, "_start")->size, sym(&o, "helper") - sym(&o, "_start"));
    assert_int_equal(elf_sym(&o, "helper")->type, 2);
    assert_int_equal(elf_sym(&o, "helper")->size, sym(&o, "typed") - sym(&o, "helper"));
    assert_int_equal(elf_sym(&o, "typed")->size, 4); /* its .size */
    assert_int_equal(elf_sym(&o, "other")->type, 2);
    /* Other code labels stay untyped. */
    assert_int_equal(elf_sym(&o, "back")->type, 0);
    assert_int_equal(elf_sym(&o, "tail")->type, 0);
    /* Objects: up to the end of their data (not the alignment after). */
    assert_int_equal(elf_sym(&o, "counter")->type, 1);
    assert_int_equal(elf_sym(&o, "counter")->size, 8);
    assert_int_equal(elf_sym(&o, "pair")->size, 8);
    assert_int_equal(elf_sym(&o, "msg")->size, 3);
    assert_int_equal(elf_sym(&o, "pool")->size, 24);
    assert_int_equal(elf_sym(&o, "end_marker")->type, 0);
    /* No debug sections without -g. */
    assert_null(elf_file_section_by_name(&o.ef, ".debug_info"));
    assert_null(elf_file_section_by_name(&o.ef, ".debug_frame"));
    done(&o, true);
}

static void test_line_table(void **state)
{
    static const struct {
        const char *label; /* the label right before the instruction */
        unsigned line;
    } rows[] = {
        { "_start", 4 }, { "l5", 6 },    { "l7", 8 },       { "back", 10 },  { "helper", 12 },
        { "h13", 14 },   { "tail", 17 }, { "inframe", 19 }, { "typed", 23 }, { "other", 28 },
    };
    uint64_t size = 0;
    const uint8_t *d;
    Out o;

    (void)state;
    build(&o, true, 0, LINX_AS_FMT_EXEC);
    d = section(&o, ".debug_line", &size);
    assert_non_null(d);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (!line_row(d, size, sym(&o, rows[i].label), rows[i].line)) {
            fail_msg("no row for line %u at %s", rows[i].line, rows[i].label);
        }
    }
    assert_false(line_row(d, size, sym(&o, "l5"), 5)); /* a label line has none */
    /* Two code sections: a range list; the names are in .debug_info. */
    assert_non_null(section(&o, ".debug_ranges", &size));
    d = section(&o, ".debug_info", &size);
    assert_non_null(d);
    assert_non_null(memmem(d, size, "counter", 8));
    assert_non_null(memmem(d, size, "helper", 7));
    assert_non_null(section(&o, ".debug_aranges", &size));
    done(&o, true);
}

static void test_frames(void **state)
{
    /* helper: FENTRY [ra ~ s2], 48 saves ra, s0, s1, s2 at CFA-8..-32. */
    static const struct {
        unsigned regs;
        unsigned ra, s0, s1, s2;
    } numbering[] = { { 0, 1, 8, 9, 18 }, { 1, 10, 11, 12, 13 } };
    char text[1024], want[512];
    unsigned ra;
    uint64_t size = 0;
    const uint8_t *d;

    (void)state;
    for (size_t k = 0; k < 2; k++) {
        Out o;
        build(&o, true, numbering[k].regs, LINX_AS_FMT_EXEC);
        d = section(&o, ".debug_frame", &size);
        assert_non_null(d);
        fde_text(d, size, sym(&o, "helper"), text, sizeof(text), &ra);
        assert_int_equal(ra, numbering[k].ra);
        snprintf(want, sizeof(want),
                 "loc 0x%llx;cfa +48;r%u@1;r%u@2;r%u@3;r%u@4;"
                 "loc 0x%llx;remember;cfa +0;restore r%u;restore r%u;restore r%u;restore r%u;"
                 "loc 0x%llx;restore;",
                 (unsigned long long)sym(&o, "h13"), numbering[k].ra, numbering[k].s0,
                 numbering[k].s1, numbering[k].s2, (unsigned long long)sym(&o, "tail"),
                 numbering[k].ra, numbering[k].s0, numbering[k].s1, numbering[k].s2,
                 (unsigned long long)sym(&o, "inframe"));
        assert_string_equal(text, want);
        fde_text(d, size, sym(&o, "_start"), text, sizeof(text), &ra);
        snprintf(want, sizeof(want), "undef r%u;", numbering[k].ra);
        assert_string_equal(text, want);
        fde_text(d, size, sym(&o, "other"), text, sizeof(text), &ra);
        assert_string_equal(text, ""); /* frameless: the CIE's rule */
        done(&o, true);
    }
}

static void test_formats(void **state)
{
    uint64_t size = 0;
    Out o;

    (void)state;
    build(&o, true, 0, LINX_AS_FMT_REL);
    assert_non_null(section(&o, ".debug_line", &size));
    assert_non_null(section(&o, ".debug_frame", &size));
    done(&o, true);
    /* Raw bytes carry no debug information: the same image either way. */
    Out plain;
    build(&o, true, 0, LINX_AS_FMT_BIN);
    build(&plain, false, 0, LINX_AS_FMT_BIN);
    assert_int_equal(o.len, plain.len);
    assert_memory_equal(o.buf, plain.buf, o.len);
    done(&o, false);
    done(&plain, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symbol_types),
        cmocka_unit_test(test_line_table),
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
