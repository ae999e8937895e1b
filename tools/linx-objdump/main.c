/*
 * linx-objdump: llvm-objdump for LinxISA ELF files (docs/disassembly.md).
 *
 *   linx-objdump [options] FILE...
 *   linx-objdump [options] --hex "WORDS" | --hex-file FILE
 *
 * The options and output shapes are llvm-objdump's: -d/-D disassembly,
 * -h section headers, -r relocations, -t symbols, -s contents, -j SECTION,
 * --start-address/--stop-address, --no-show-raw-insn, --no-leading-addr,
 * --symbolize-operands, -M (legacy, and the ISA profile), --version; the
 * file header is "FILE:\tfile format elf64-linxisa".  Exit status 0, 1
 * when an input cannot be read, 2 for a bad command line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objdump.h"
#include "util/options.h"

#define LINX_OBJDUMP_VERSION "linx-objdump (linxemu) " LINX_VERSION "\n  LinxISA v0.4 (ISA profiles linx-toolchain, linx-v0.4)"

enum {
    EXIT_BAD_INPUT = 1,
    EXIT_USAGE = 2,
    MAX_FILES = 256,
};

enum {
    OPT_DISASSEMBLE,
    OPT_DISASSEMBLE_ALL,
    OPT_HEADERS,
    OPT_RELOCS,
    OPT_SYMS,
    OPT_CONTENTS,
    OPT_SECTION,
    OPT_START,
    OPT_STOP,
    OPT_NO_RAW,
    OPT_NO_ADDR,
    OPT_SYMBOLIZE,
    OPT_DISASM_OPTS,
    OPT_HEX,
    OPT_HEX_FILE,
    OPT_HELP,
    OPT_VERSION,
    OPT_ALL_HEADERS,
};

static const LinxOpt objdump_opts[] = {
    { "disassemble", 'd', NULL, "disassemble the executable sections", OPT_DISASSEMBLE },
    { "disassemble-all", 'D', NULL, "disassemble every allocated section", OPT_DISASSEMBLE_ALL },
    { "section-headers", 'h', NULL, "the section table (also --headers)", OPT_HEADERS },
    { "headers", 0, NULL, NULL, OPT_HEADERS },
    { "reloc", 'r', NULL, "the relocation records", OPT_RELOCS },
    { "syms", 't', NULL, "the symbol table", OPT_SYMS },
    { "full-contents", 's', NULL, "the contents of every section, in hex", OPT_CONTENTS },
    { "all-headers", 'x', NULL, "-h, -r and -t", OPT_ALL_HEADERS },
    { "section", 'j', "NAME", "only section NAME (repeatable)", OPT_SECTION },
    { "start-address", 0, "ADDR", "list from ADDR on (for --hex: the first word's address)",
      OPT_START },
    { "stop-address", 0, "ADDR", "list up to ADDR (exclusive)", OPT_STOP },
    { "no-show-raw-insn", 0, NULL, "no instruction bytes column", OPT_NO_RAW },
    { "no-leading-addr", 0, NULL, "no address column", OPT_NO_ADDR },
    { "symbolize-operands", 0, NULL, "name branch targets without a symbol <L0>, <L1>, ...",
      OPT_SYMBOLIZE },
    { "disassembler-options", 'M', "OPT[,OPT]",
      "legacy: the v0.3-era spellings of the shared listings;\n"
      "linx-toolchain | linx-v0.4: the ISA profile (default: the one\n"
      "the input's code uses)", OPT_DISASM_OPTS },
    { "hex", 0, "WORDS", "disassemble instruction words written the way listings show\n"
                         "them: 4 hex digits = a halfword, 8 = a 32-bit word, e.g.\n"
                         "\"0800 02001181\"", OPT_HEX },
    { "hex-file", 0, "FILE", "the same, words read from FILE ('#' starts a comment)",
      OPT_HEX_FILE },
    { "help", 0, NULL, "this text", OPT_HELP },
    { "version", 0, NULL, "print the version", OPT_VERSION },
    { NULL },
};

bool objdump_section_selected(const ObjdumpOptions *o, const char *name)
{
    if (o->nsections == 0) {
        return true;
    }
    for (unsigned i = 0; i < o->nsections; i++) {
        if (strcmp(o->sections[i], name) == 0) {
            return true;
        }
    }
    return false;
}

static bool parse_address(const char *s, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 0);
    return errno == 0 && end != s && *end == '\0';
}

/* -M a,b,...: legacy and a profile name. */
static int disassembler_options(ObjdumpOptions *o, const char *v, char *err, size_t errlen)
{
    char buf[256];
    char *save = NULL;

    snprintf(buf, sizeof(buf), "%s", v);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "legacy")) {
            o->flags |= LINX_DISAS_F_LEGACY;
        } else if (!(o->profile = linx_profile_by_name(t))) {
            snprintf(err, errlen,
                     "unknown disassembler option '%s' (known: legacy, linx-toolchain, linx-v0.4)",
                     t);
            return -1;
        }
    }
    return 0;
}

static int objdump_opt(void *opaque, int id, const char *v, char *err, size_t errlen)
{
    ObjdumpOptions *o = opaque;

    switch (id) {
    case OPT_DISASSEMBLE:
        o->disassemble = true;
        return 0;
    case OPT_DISASSEMBLE_ALL:
        o->disassemble = o->disassemble_all = true;
        return 0;
    case OPT_HEADERS:
        o->headers = true;
        return 0;
    case OPT_RELOCS:
        o->relocs = true;
        return 0;
    case OPT_SYMS:
        o->syms = true;
        return 0;
    case OPT_CONTENTS:
        o->contents = true;
        return 0;
    case OPT_ALL_HEADERS:
        o->headers = o->relocs = o->syms = true;
        return 0;
    case OPT_SECTION:
        if (o->nsections == OBJDUMP_MAX_SECTIONS) {
            snprintf(err, errlen, "more than %d -j sections", OBJDUMP_MAX_SECTIONS);
            return -1;
        }
        o->sections[o->nsections++] = v;
        return 0;
    case OPT_START:
    case OPT_STOP:
        if (!parse_address(v, id == OPT_START ? &o->start : &o->stop)) {
            snprintf(err, errlen, "bad --%s-address '%s'", id == OPT_START ? "start" : "stop", v);
            return -1;
        }
        *(id == OPT_START ? &o->have_start : &o->have_stop) = true;
        return 0;
    case OPT_NO_RAW:
        o->raw_insn = false;
        return 0;
    case OPT_NO_ADDR:
        o->leading_addr = false;
        return 0;
    case OPT_SYMBOLIZE:
        o->symbolize = true;
        return 0;
    case OPT_DISASM_OPTS:
        return disassembler_options(o, v, err, errlen);
    case OPT_HEX:
        o->hex = v;
        return 0;
    case OPT_HEX_FILE:
        o->hex_file = v;
        return 0;
    case OPT_HELP:
        return 2;
    default:
        printf("%s\n", LINX_OBJDUMP_VERSION);
        return 1;
    }
}

static void usage(FILE *f, const LinxOptGroup *g)
{
    fprintf(f, "usage: linx-objdump [options] FILE...\n"
               "       linx-objdump [options] --hex \"WORDS\" | --hex-file FILE\n\n"
               "llvm-objdump for LinxISA ELF files (EM 0xE9).\n\nOptions:\n");
    linx_opts_print_help(f, LINX_OPTS_GNU, g, 1);
}

static int dump_file(const char *path, const ObjdumpOptions *o)
{
    ElfFile ef;
    char err[512];

    if (!elf_file_open(&ef, path, err, sizeof(err))) {
        fprintf(stderr, "linx-objdump: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (ef.machine != EM_LINXISA) {
        fprintf(stderr, "linx-objdump: %s: not a LinxISA file (e_machine %u, expected %u)\n",
                path, ef.machine, EM_LINXISA);
        elf_file_close(&ef);
        return EXIT_BAD_INPUT;
    }
    if (ef.type != ELF_ET_EXEC && ef.type != ELF_ET_REL && ef.type != ELF_ET_DYN) {
        fprintf(stderr, "linx-objdump: %s: unsupported ELF type %u\n", path, ef.type);
        elf_file_close(&ef);
        return EXIT_BAD_INPUT;
    }
    elf_file_rel_symbol_addresses(&ef); /* relocatable symbols at their addresses */
    printf("\n%s:\tfile format elf64-linxisa\n", path);
    for (unsigned j = 0; j < o->nsections; j++) {
        if (!elf_file_section_by_name(&ef, o->sections[j])) {
            fprintf(stderr, "linx-objdump: warning: %s: section '%s' mentioned in a -j option, "
                            "but not found in any input file\n", path, o->sections[j]);
        }
    }
    if (o->headers) {
        objdump_section_headers(&ef, o);
    }
    if (o->syms) {
        objdump_symbols(&ef);
    }
    if (o->relocs) {
        objdump_relocations(&ef, o);
    }
    if (o->contents) {
        objdump_contents(&ef, o);
    }
    if (o->disassemble) {
        objdump_disassemble_elf(path, &ef, o);
    }
    elf_file_close(&ef);
    return 0;
}

int main(int argc, char **argv)
{
    ObjdumpOptions o;
    char err[512];
    int first, rc = 0;

    memset(&o, 0, sizeof(o));
    o.raw_insn = o.leading_addr = true;
    LinxOptGroup g = { NULL, objdump_opts, objdump_opt, &o };
    int r = linx_opts_parse("linx-objdump", LINX_OPTS_GNU, &g, 1, argc, argv, &first, err,
                            sizeof(err));
    if (r < 0) {
        fprintf(stderr, "linx-objdump: %s\n", err);
        return EXIT_USAGE;
    }
    if (r == 2) {
        usage(stdout, &g);
    }
    if (r > 0) {
        return 0;
    }
    if (o.hex || o.hex_file) {
        if (first < argc || (o.hex && o.hex_file)) {
            fprintf(stderr, "linx-objdump: --hex/--hex-file take no ELF files\n");
            return EXIT_USAGE;
        }
        return objdump_disassemble_hex(&o) ? EXIT_BAD_INPUT : 0;
    }
    if (first >= argc) {
        usage(stderr, &g);
        return EXIT_USAGE;
    }
    if (!o.disassemble && !o.headers && !o.relocs && !o.syms && !o.contents) {
        fprintf(stderr, "linx-objdump: nothing to do: give -d, -D, -h, -r, -t, -s or -x\n");
        return EXIT_USAGE;
    }
    if (argc - first > MAX_FILES) {
        fprintf(stderr, "linx-objdump: too many files (at most %d)\n", MAX_FILES);
        return EXIT_USAGE;
    }
    for (int i = first; i < argc; i++) {
        if (dump_file(argv[i], &o)) {
            rc = EXIT_BAD_INPUT;
        }
    }
    return rc;
}
