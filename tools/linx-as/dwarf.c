/*
 * linx-as -g: DWARF 4 debug information for assembly sources (see
 * dwarf.h), so stock debuggers map pcs to source lines (`break file.s:12`,
 * `list`, `step`), name functions, print data labels as variables (`p
 * counter`, `x/s msg`) and unwind FENTRY frames (dwarf-frame.c).
 *
 *   .debug_line     one row per instruction statement (a template block
 *                   or a fused call: one row at its first instruction), a
 *                   sequence per code section, the source files in the
 *                   order they were read (.include'd ones too)
 *   .debug_info     a code unit (DW_LANG_Mips_Assembler, as gas -g) with
 *                   the line table and a DW_TAG_subprogram per function,
 *                   and a data unit (DW_LANG_C99: lldb 14 types nothing
 *                   in an assembler unit) with a DW_TAG_variable per data
 *                   object, typed after its directives (.quad:
 *                   long, .word: int, .half: short, .byte: unsigned char,
 *                   .ascii/.asciz: char arrays, several elements: an
 *                   array, mixed: unsigned char[size], .zero/.space of
 *                   1/2/4/8 bytes: that integer)
 *   .debug_abbrev, .debug_aranges, and .debug_ranges when code is in more
 *                   than one section
 *   .debug_frame    dwarf-frame.c
 * Everything is absolute: no relocations, as for the rest of the output.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "directives.h"
#include "dwarf.h"
#include "util/elf-file.h"

/* DWARF constants (DWARF 4, section 7). */
enum {
    DW_TAG_array_type = 0x01,
    DW_TAG_compile_unit = 0x11,
    DW_TAG_subrange_type = 0x21,
    DW_TAG_base_type = 0x24,
    DW_TAG_subprogram = 0x2e,
    DW_TAG_variable = 0x34,
    DW_AT_location = 0x02,
    DW_AT_name = 0x03,
    DW_AT_byte_size = 0x0b,
    DW_AT_stmt_list = 0x10,
    DW_AT_low_pc = 0x11,
    DW_AT_high_pc = 0x12,
    DW_AT_language = 0x13,
    DW_AT_comp_dir = 0x1b,
    DW_AT_producer = 0x25,
    DW_AT_upper_bound = 0x2f,
    DW_AT_decl_file = 0x3a,
    DW_AT_decl_line = 0x3b,
    DW_AT_encoding = 0x3e,
    DW_AT_external = 0x3f,
    DW_AT_type = 0x49,
    DW_AT_ranges = 0x55,
    DW_FORM_addr = 0x01,
    DW_FORM_data2 = 0x05,
    DW_FORM_data4 = 0x06,
    DW_FORM_data8 = 0x07,
    DW_FORM_string = 0x08,
    DW_FORM_data1 = 0x0b,
    DW_FORM_flag = 0x0c,
    DW_FORM_ref4 = 0x13,
    DW_FORM_sec_offset = 0x17,
    DW_FORM_exprloc = 0x18,
    DW_ATE_signed = 0x05,
    DW_ATE_signed_char = 0x06,
    DW_ATE_unsigned = 0x07,
    DW_ATE_unsigned_char = 0x08,
    DW_LANG_C99 = 0x0c,
    DW_LANG_Mips_Assembler = 0x8001,
    DW_OP_addr = 0x03,
    DW_LNS_copy = 1,
    DW_LNS_advance_pc = 2,
    DW_LNS_advance_line = 3,
    DW_LNS_set_file = 4,
    DW_LNE_end_sequence = 1,
    DW_LNE_set_address = 2,
};

#define DWARF_VERSION 4
#define ARANGES_VERSION 2
#define ADDR_SIZE 8
#define LINE_BASE (-5)
#define LINE_RANGE 14
#define OPCODE_BASE 13
#define PRODUCER "linx-as (linxemu)"

/* Abbreviation codes. */
enum {
    AB_CU_LOWHIGH = 1,
    AB_CU_RANGES,
    AB_SUBPROGRAM,
    AB_BASE_TYPE,
    AB_ARRAY,
    AB_SUBRANGE,
    AB_VARIABLE,
    AB_CU_DATA,
};

/* Base types, in the order they are written. */
enum { BT_CHAR, BT_UCHAR, BT_SHORT, BT_INT, BT_LONG, BT_ULONG, BT_COUNT };
static const struct {
    const char *name;
    uint8_t encoding, size;
} base_types[BT_COUNT] = {
    { "char", DW_ATE_signed_char, 1 }, { "unsigned char", DW_ATE_unsigned_char, 1 },
    { "short", DW_ATE_signed, 2 },     { "int", DW_ATE_signed, 4 },
    { "long", DW_ATE_signed, 8 },      { "unsigned long", DW_ATE_unsigned, 8 },
};

/* ---- buffers ---- */

void dw_put(DwBuf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->len + n) {
            c *= 2;
        }
        b->p = as_xrealloc(b->p, c);
        b->cap = c;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

void dw_u8(DwBuf *b, uint8_t v)
{
    dw_put(b, &v, 1);
}

void dw_le(DwBuf *b, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++) {
        dw_u8(b, (uint8_t)(v >> (8 * i)));
    }
}

void dw_uleb(DwBuf *b, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        dw_u8(b, v ? c | 0x80 : c);
    } while (v);
}

void dw_sleb(DwBuf *b, int64_t v)
{
    for (;;) {
        uint8_t c = v & 0x7f;
        v >>= 7; /* arithmetic */
        if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
            dw_u8(b, c);
            return;
        }
        dw_u8(b, c | 0x80);
    }
}

void dw_str(DwBuf *b, const char *s)
{
    dw_put(b, s, strlen(s) + 1);
}

void dw_patch(DwBuf *b, size_t off, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++) {
        b->p[off + i] = (uint8_t)(v >> (8 * i));
    }
}

void as_debug_section(LinxAs *as, const char *name, DwBuf *b)
{
    int i = as_section_get(as, name);
    AsSection *s = &as->secs[i];

    s->type = ELF_SHT_PROGBITS;
    s->flags = 0;
    s->align = 1;
    s->size = b->len;
    s->explicit_use = true;
    free(s->data);
    s->data = b->p ? b->p : as_xmalloc(1);
    memset(b, 0, sizeof(*b));
}

/* ---- the code ---- */

static bool is_code(const AsSection *s)
{
    return (s->flags & ELF_SHF_EXECINSTR) && (s->flags & ELF_SHF_ALLOC) && s->size;
}

/* A line-table row: an instruction statement. */
typedef struct LineRow {
    int sec;
    uint64_t off;
    uint32_t file, line;
} LineRow;

static int row_cmp(const void *a, const void *b)
{
    const LineRow *x = a, *y = b;

    if (x->sec != y->sec) {
        return x->sec < y->sec ? -1 : 1;
    }
    return x->off < y->off ? -1 : x->off > y->off;
}

static bool is_insn_stmt(const AsStmt *st)
{
    const char *t = st->text ? as_skip_ws(st->text) : "";

    return st->size && (st->kind == AS_ST_INSN || st->kind == AS_ST_TEMPLATE ||
                        (st->kind == AS_ST_DIRECTIVE && strncasecmp(t, ".insn", 5) == 0));
}

static void build_line(LinxAs *as, DwBuf *b)
{
    LineRow *rows = as_xcalloc(as->nstmts ? as->nstmts : 1, sizeof(LineRow));
    uint32_t n = 0;
    size_t hdr_len_off, hdr_start;
    static const uint8_t std_lengths[OPCODE_BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

    for (uint32_t i = 0; i < as->nstmts; i++) {
        const AsStmt *st = &as->stmts[i];
        if (!st->failed && is_insn_stmt(st) && is_code(&as->secs[st->sec])) {
            rows[n++] = (LineRow){ st->sec, st->off, st->file, st->line };
        }
    }
    qsort(rows, n, sizeof(LineRow), row_cmp);

    dw_le(b, 0, 4); /* unit_length, patched */
    dw_le(b, DWARF_VERSION, 2);
    hdr_len_off = b->len;
    dw_le(b, 0, 4); /* header_length, patched */
    hdr_start = b->len;
    dw_u8(b, 1); /* minimum_instruction_length: data may sit between instructions */
    dw_u8(b, 1); /* maximum_operations_per_instruction */
    dw_u8(b, 1); /* default_is_stmt */
    dw_u8(b, (uint8_t)LINE_BASE);
    dw_u8(b, LINE_RANGE);
    dw_u8(b, OPCODE_BASE);
    dw_put(b, std_lengths, sizeof(std_lengths));
    dw_u8(b, 0); /* no include_directories: names are relative to comp_dir */
    for (uint32_t f = 0; f < as->nfiles; f++) {
        dw_str(b, as->files[f].name);
        dw_uleb(b, 0); /* directory: the compilation directory */
        dw_uleb(b, 0); /* mtime */
        dw_uleb(b, 0); /* length */
    }
    dw_u8(b, 0);
    dw_patch(b, hdr_len_off, b->len - hdr_start, 4);

    for (uint32_t i = 0; i < n;) {
        int sec = rows[i].sec;
        uint64_t base = as->secs[sec].addr, addr = base + rows[i].off;
        uint32_t file = 0, line = 1;

        dw_u8(b, 0); /* extended: set_address */
        dw_uleb(b, 1 + ADDR_SIZE);
        dw_u8(b, DW_LNE_set_address);
        dw_le(b, addr, ADDR_SIZE);
        for (; i < n && rows[i].sec == sec; i++) {
            uint64_t a = base + rows[i].off;
            if (rows[i].file != file) {
                dw_u8(b, DW_LNS_set_file);
                dw_uleb(b, rows[i].file + 1);
                file = rows[i].file;
            }
            if (rows[i].line != line) {
                dw_u8(b, DW_LNS_advance_line);
                dw_sleb(b, (int64_t)rows[i].line - (int64_t)line);
                line = rows[i].line;
            }
            if (a != addr) {
                dw_u8(b, DW_LNS_advance_pc);
                dw_uleb(b, a - addr);
                addr = a;
            }
            dw_u8(b, DW_LNS_copy);
        }
        /* The sequence ends at the end of the section. */
        if (base + as->secs[sec].size > addr) {
            dw_u8(b, DW_LNS_advance_pc);
            dw_uleb(b, base + as->secs[sec].size - addr);
        }
        dw_u8(b, 0);
        dw_uleb(b, 1);
        dw_u8(b, DW_LNE_end_sequence);
    }
    dw_patch(b, 0, b->len - 4, 4);
    free(rows);
}

/* ---- .debug_abbrev ---- */

static void abbrev(DwBuf *b, unsigned code, unsigned tag, bool children, const uint16_t *attrs)
{
    dw_uleb(b, code);
    dw_uleb(b, tag);
    dw_u8(b, children);
    for (; attrs[0]; attrs += 2) {
        dw_uleb(b, attrs[0]);
        dw_uleb(b, attrs[1]);
    }
    dw_u8(b, 0);
    dw_u8(b, 0);
}

static void build_abbrev(DwBuf *b)
{
    /* clang-format off: attribute, form pairs */
    static const uint16_t cu_lowhigh[] = {
        DW_AT_producer, DW_FORM_string, DW_AT_language, DW_FORM_data2,   DW_AT_name,
        DW_FORM_string, DW_AT_comp_dir, DW_FORM_string, DW_AT_stmt_list, DW_FORM_sec_offset,
        DW_AT_low_pc,   DW_FORM_addr,   DW_AT_high_pc,  DW_FORM_data8,   0,
    };
    static const uint16_t cu_ranges[] = {
        DW_AT_producer, DW_FORM_string, DW_AT_language, DW_FORM_data2,      DW_AT_name,
        DW_FORM_string, DW_AT_comp_dir, DW_FORM_string, DW_AT_stmt_list,    DW_FORM_sec_offset,
        DW_AT_low_pc,   DW_FORM_addr,   DW_AT_ranges,   DW_FORM_sec_offset, 0,
    };
    static const uint16_t subprogram[] = {
        DW_AT_name,
        DW_FORM_string,
        DW_AT_low_pc,
        DW_FORM_addr,
        DW_AT_high_pc,
        DW_FORM_data8,
        DW_AT_external,
        DW_FORM_flag,
        DW_AT_decl_file,
        DW_FORM_data4,
        DW_AT_decl_line,
        DW_FORM_data4,
        0,
    };
    static const uint16_t base_type[] = {
        DW_AT_name, DW_FORM_string, DW_AT_encoding, DW_FORM_data1, DW_AT_byte_size, DW_FORM_data1,
        0,
    };
    static const uint16_t cu_data[] = {
        DW_AT_producer, DW_FORM_string, DW_AT_language,
        DW_FORM_data2,  DW_AT_name,     DW_FORM_string,
        DW_AT_comp_dir, DW_FORM_string, 0,
    };
    static const uint16_t array[] = { DW_AT_type, DW_FORM_ref4, 0 };
    static const uint16_t subrange[] = { DW_AT_type, DW_FORM_ref4, DW_AT_upper_bound, DW_FORM_data8,
                                         0 };
    /* No decl_file/decl_line: the data unit has no line table. */
    static const uint16_t variable[] = {
        DW_AT_name,     DW_FORM_string,  DW_AT_type, DW_FORM_ref4, DW_AT_external, DW_FORM_flag,
        DW_AT_location, DW_FORM_exprloc, 0,
    };
    /* clang-format on */

    abbrev(b, AB_CU_LOWHIGH, DW_TAG_compile_unit, true, cu_lowhigh);
    abbrev(b, AB_CU_RANGES, DW_TAG_compile_unit, true, cu_ranges);
    abbrev(b, AB_SUBPROGRAM, DW_TAG_subprogram, false, subprogram);
    abbrev(b, AB_BASE_TYPE, DW_TAG_base_type, false, base_type);
    abbrev(b, AB_ARRAY, DW_TAG_array_type, true, array);
    abbrev(b, AB_SUBRANGE, DW_TAG_subrange_type, false, subrange);
    abbrev(b, AB_VARIABLE, DW_TAG_variable, false, variable);
    abbrev(b, AB_CU_DATA, DW_TAG_compile_unit, true, cu_data);
    dw_u8(b, 0);
}

/* ---- .debug_info ---- */

static uint64_t sym_addr(const LinxAs *as, const AsSymbol *s)
{
    return as->secs[s->sec].addr + (uint64_t)s->value;
}

/* The base type of one element of @o, and the element count (0: a
 * scalar). */
static unsigned object_type(const AsObject *o, uint64_t *count)
{
    unsigned bt = BT_UCHAR, unit = 1;

    if (o->string) {
        bt = BT_CHAR;
    } else if (o->fill && (o->size == 2 || o->size == 4 || o->size == 8)) {
        unit = (unsigned)o->size;
    } else if (!o->fill && o->unit > 1) {
        unit = o->unit;
    }
    if (unit == 2) {
        bt = BT_SHORT;
    } else if (unit == 4) {
        bt = BT_INT;
    } else if (unit == 8) {
        bt = BT_LONG;
    }
    if (o->size % unit) {
        bt = BT_UCHAR;
        unit = 1;
    }
    *count = o->string || o->size != unit ? o->size / unit : 0;
    return bt;
}

/* The code unit: the source's functions, the line table, the pc ranges. */
static void build_code_unit(LinxAs *as, const AsSymInfo *info, DwBuf *b, DwBuf *ranges,
                            const char *cwd)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    unsigned ncode = 0;
    size_t start = b->len;

    for (int i = 0; i < as->nsecs; i++) {
        const AsSection *s = &as->secs[i];
        if (is_code(s)) {
            ncode++;
            lo = s->addr < lo ? s->addr : lo;
            hi = s->addr + s->size > hi ? s->addr + s->size : hi;
            dw_le(ranges, s->addr, ADDR_SIZE);
            dw_le(ranges, s->addr + s->size, ADDR_SIZE);
        }
    }
    dw_le(ranges, 0, ADDR_SIZE);
    dw_le(ranges, 0, ADDR_SIZE);
    if (!ncode) {
        lo = hi = 0;
    }
    dw_le(b, 0, 4); /* unit_length, patched */
    dw_le(b, DWARF_VERSION, 2);
    dw_le(b, 0, 4); /* .debug_abbrev offset */
    dw_u8(b, ADDR_SIZE);
    dw_uleb(b, ncode > 1 ? AB_CU_RANGES : AB_CU_LOWHIGH);
    dw_str(b, PRODUCER);
    dw_le(b, DW_LANG_Mips_Assembler, 2);
    dw_str(b, as->nfiles ? as->files[0].name : "<none>");
    dw_str(b, cwd);
    dw_le(b, 0, 4); /* .debug_line offset */
    if (ncode > 1) {
        dw_le(b, 0, ADDR_SIZE); /* base of the range list */
        dw_le(b, 0, 4);         /* .debug_ranges offset */
    } else {
        dw_le(b, lo, ADDR_SIZE);
        dw_le(b, hi - lo, ADDR_SIZE);
    }
    for (uint32_t i = 0; i < info->nfuncs; i++) {
        const AsFunc *f = &info->funcs[i];
        const AsSymbol *s = &as->syms[f->sym];
        if (f->end <= f->start) {
            continue;
        }
        dw_uleb(b, AB_SUBPROGRAM);
        dw_str(b, s->name);
        dw_le(b, as->secs[f->sec].addr + f->start, ADDR_SIZE);
        dw_le(b, f->end - f->start, ADDR_SIZE);
        dw_u8(b, s->bind != AS_STB_LOCAL);
        dw_le(b, f->file + 1, 4);
        dw_le(b, f->line, 4);
    }
    dw_u8(b, 0); /* end of the unit's children */
    dw_patch(b, start, b->len - start - 4, 4);
}

/* The data unit: the data objects as variables, declared as C would (lldb
 * 14 resolves no types in an assembler unit; gdb reads either).  Its
 * language is C99; it has no code. */
static void build_data_unit(LinxAs *as, const AsSymInfo *info, DwBuf *b, const char *cwd)
{
    uint32_t type_off[BT_COUNT];
    size_t start = b->len;

    dw_le(b, 0, 4); /* unit_length, patched */
    dw_le(b, DWARF_VERSION, 2);
    dw_le(b, 0, 4); /* .debug_abbrev offset */
    dw_u8(b, ADDR_SIZE);
    dw_uleb(b, AB_CU_DATA);
    dw_str(b, PRODUCER);
    dw_le(b, DW_LANG_C99, 2);
    dw_str(b, as->nfiles ? as->files[0].name : "<none>");
    dw_str(b, cwd);
    for (unsigned t = 0; t < BT_COUNT; t++) {
        type_off[t] = (uint32_t)(b->len - start);
        dw_uleb(b, AB_BASE_TYPE);
        dw_str(b, base_types[t].name);
        dw_u8(b, base_types[t].encoding);
        dw_u8(b, base_types[t].size);
    }
    for (uint32_t i = 0; i < info->nobjs; i++) {
        const AsObject *o = &info->objs[i];
        const AsSymbol *s = &as->syms[o->sym];
        uint64_t count;
        unsigned bt = object_type(o, &count);
        uint32_t type = type_off[bt];
        if (count) {
            type = (uint32_t)(b->len - start);
            dw_uleb(b, AB_ARRAY);
            dw_le(b, type_off[bt], 4);
            dw_uleb(b, AB_SUBRANGE);
            dw_le(b, type_off[BT_ULONG], 4);
            dw_le(b, count - 1, 8);
            dw_u8(b, 0); /* end of the array's children */
        }
        dw_uleb(b, AB_VARIABLE);
        dw_str(b, s->name);
        dw_le(b, type, 4);
        dw_u8(b, s->bind != AS_STB_LOCAL);
        dw_uleb(b, 1 + ADDR_SIZE);
        dw_u8(b, DW_OP_addr);
        dw_le(b, sym_addr(as, s), ADDR_SIZE);
    }
    dw_u8(b, 0); /* end of the unit's children */
    dw_patch(b, start, b->len - start - 4, 4);
}

static void build_info(LinxAs *as, const AsSymInfo *info, DwBuf *b, DwBuf *ranges)
{
    char cwd[4096];

    if (!getcwd(cwd, sizeof(cwd))) {
        strcpy(cwd, ".");
    }
    build_code_unit(as, info, b, ranges, cwd);
    if (info->nobjs) {
        build_data_unit(as, info, b, cwd);
    }
}

static void build_aranges(LinxAs *as, DwBuf *b)
{
    dw_le(b, 0, 4); /* unit_length, patched */
    dw_le(b, ARANGES_VERSION, 2);
    dw_le(b, 0, 4); /* .debug_info offset */
    dw_u8(b, ADDR_SIZE);
    dw_u8(b, 0);    /* segment selector size */
    dw_le(b, 0, 4); /* pad the header to twice the address size */
    for (int i = 0; i < as->nsecs; i++) {
        if (is_code(&as->secs[i])) {
            dw_le(b, as->secs[i].addr, ADDR_SIZE);
            dw_le(b, as->secs[i].size, ADDR_SIZE);
        }
    }
    dw_le(b, 0, ADDR_SIZE);
    dw_le(b, 0, ADDR_SIZE);
    dw_patch(b, 0, b->len - 4, 4);
}

void as_debug_finish(LinxAs *as)
{
    AsSymInfo info;
    DwBuf info_b = { 0 }, abbrev_b = { 0 }, line_b = { 0 }, aranges_b = { 0 }, ranges_b = { 0 };
    DwBuf frame_b = { 0 };
    unsigned ncode = 0;

    as_symbols_classify(as, &info);
    if (as->opt.debug_info && as->opt.format != LINX_AS_FMT_BIN) {
        for (int i = 0; i < as->nsecs; i++) {
            ncode += is_code(&as->secs[i]);
        }
        build_abbrev(&abbrev_b);
        build_info(as, &info, &info_b, &ranges_b);
        build_line(as, &line_b);
        build_aranges(as, &aranges_b);
        as_dwarf_frame(as, &info, &frame_b);
        as_debug_section(as, ".debug_info", &info_b);
        as_debug_section(as, ".debug_abbrev", &abbrev_b);
        as_debug_section(as, ".debug_line", &line_b);
        as_debug_section(as, ".debug_aranges", &aranges_b);
        as_debug_section(as, ".debug_frame", &frame_b);
        if (ncode > 1) {
            as_debug_section(as, ".debug_ranges", &ranges_b);
        }
        free(ranges_b.p);
    }
    as_sym_info_free(&info);
}
