/*
 * linx-objdump: disassemble LinxISA ELF files, or instruction words given
 * on the command line, in llvm-objdump's listing format:
 *
 *   FILE:	file format elf64-linxisa
 *
 *   Disassembly of section .text:
 *
 *   0000000000011240 <_start>:
 *      11240: 0800         	C.BSTART.STD
 *
 * Usage: see usage() below or `linx-objdump -h`.  ET_EXEC and ET_REL files
 * are read through util/elf-file.h (every offset checked); each section
 * with SHF_EXECINSTR is swept linearly from its start, with the file's
 * symbols as labels and as <symbol+off> annotations of branch targets.
 * Bad files and arguments give a message naming the problem and a
 * non-zero exit status; undecodable words print as ".insn 0x..." and the
 * sweep continues with the length their first halfword gives.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/linx/disas.h"
#include "util/elf-file.h"

enum {
    EXIT_BAD_INPUT = 1,
    EXIT_USAGE = 2,
    BYTES_COLUMN = 13, /* llvm-objdump pads the raw bytes to this width */
    BYTES_GAP = 4,
    HEX_MAX_BYTES = 1 << 20,
    ELF_STT_SECTION = 3,
    ELF_STT_FILE = 4,
};

typedef struct Options {
    bool disassemble;
    unsigned flags; /* LINX_DISAS_F_* */
    const LinxProfile *profile; /* -M linx-toolchain / linx-v0.4; NULL: auto per input */
    const char *hex;
    const char *hex_file;
    uint64_t start_address;
} Options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: linx-objdump [options] FILE...\n"
            "       linx-objdump [options] --hex \"WORDS\"\n"
            "       linx-objdump [options] --hex-file FILE\n"
            "\n"
            "  -d, --disassemble        disassemble the executable sections of each ELF FILE\n"
            "  -M legacy                print the v0.3-era spellings of the shared listings\n"
            "                           (docs/disassembly.md lists them)\n"
            "  -M linx-toolchain|linx-v0.4\n"
            "                           ISA profile of the SrcRType suffixes (default: the one\n"
            "                           the input's code uses; options combine: -M a,b)\n"
            "  --hex \"WORDS\"            disassemble instruction words written the way the\n"
            "                           listings show them: 4 hex digits = a halfword, 8 = a\n"
            "                           32-bit word, little-endian, e.g. \"0800 02001181\"\n"
            "  --hex-file FILE          the same, words read from FILE ('#' starts a comment)\n"
            "  --start-address ADDR     address of the first --hex word (default 0)\n"
            "  -h, --help               this text\n");
}

/* ---- Symbols ------------------------------------------------------------ */

static bool label_symbol(const ElfSymbol *s)
{
    return s->name[0] && s->type != ELF_STT_SECTION && s->type != ELF_STT_FILE;
}

typedef struct SymCtx {
    const ElfFile *ef;
    int shndx; /* ET_REL: symbols of this section only */
} SymCtx;

static const char *lookup_symbol(void *opaque, uint64_t addr, uint64_t *off)
{
    const SymCtx *sc = opaque;
    const ElfSymbol *s = elf_file_symbol_at(sc->ef, addr, sc->shndx);

    if (!s) {
        return NULL;
    }
    *off = addr - s->value;
    return s->name;
}

/* ---- Listing lines ---------------------------------------------------------- */

static void print_insn_line(uint64_t addr, const uint8_t *bytes, unsigned len, const char *text)
{
    char hex[64];
    size_t n = linx_disas_hex(bytes, len, hex, sizeof(hex));
    int pad = n + BYTES_GAP > BYTES_COLUMN ? (int)(n + BYTES_GAP) : BYTES_COLUMN;

    printf("%8" PRIx64 ": %-*s\t%s\n", addr, pad, hex, text);
}

/* Disassemble @len bytes at @addr; @labels (may be NULL) prints symbol
 * labels before the instructions at their addresses. */
static void sweep(const uint8_t *bytes, size_t len, uint64_t addr, const LinxDisasEnv *env,
                  const ElfFile *ef, int shndx)
{
    char text[LINX_DISAS_MAX];
    size_t off = 0;
    unsigned next_sym = 0;

    while (off < len) {
        unsigned used;
        uint64_t pc = addr + off;

        /* Labels: every symbol of this section at an address up to pc. */
        while (ef && next_sym < ef->nsymbols) {
            const ElfSymbol *s = &ef->symbols[next_sym];
            if (s->value > pc) {
                break;
            }
            if (label_symbol(s) && s->shndx == shndx && s->value == pc) {
                printf("\n%016" PRIx64 " <%s>:\n", s->value, s->name);
            }
            next_sym++;
        }
        linx_disas_bytes(bytes + off, len - off, pc, env, text, sizeof(text), &used);
        if (used == 0) {
            used = 1;
        }
        print_insn_line(pc, bytes + off, used, text);
        off += used;
    }
}

/* The profile for an input: -M's, or the one its code uses.  With
 * @header, a "# ISA profile" line under the file header records which and
 * why (instruction lines start with an address, so listing readers skip
 * it); --hex output stays instruction lines only. */
static const LinxProfile *input_profile(const Options *o, const LinxProfileVote *v, bool header)
{
    char why[160];
    const LinxProfile *p = o->profile;

    if (p) {
        snprintf(why, sizeof(why), "-M %s", p->name);
    } else {
        p = linx_profile_decide(v, why, sizeof(why));
    }
    if (header) {
        printf("# ISA profile: %s (%s)\n", p->name, why);
    }
    return p;
}

static int dump_elf(const char *path, const Options *o)
{
    ElfFile ef;
    char err[512];
    bool any = false;

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
    printf("\n%s:\tfile format elf64-linxisa\n", path);
    LinxProfileVote vote;
    memset(&vote, 0, sizeof(vote));
    linx_profile_vote_elf(&vote, &ef);
    const LinxProfile *prof = input_profile(o, &vote, true);
    for (unsigned i = 0; o->disassemble && i < ef.nsections; i++) {
        const ElfSection *s = &ef.sections[i];
        const uint8_t *data;
        SymCtx sc = { &ef, (int)s->index };
        LinxDisasEnv env = { o->flags, lookup_symbol, &sc, prof };

        if (!(s->flags & ELF_SHF_EXECINSTR) || s->type == ELF_SHT_NOBITS || s->size == 0) {
            continue;
        }
        data = elf_file_section_data(&ef, s);
        if (!data) {
            continue;
        }
        printf("\nDisassembly of section %s:\n", s->name);
        /* In an executable any symbol may name a target; in a relocatable
         * file addresses restart in every section. */
        if (ef.type != ELF_ET_REL) {
            sc.shndx = -1;
        }
        if (!elf_file_symbol_at(&ef, s->addr, (int)s->index) ||
            elf_file_symbol_at(&ef, s->addr, (int)s->index)->value != s->addr) {
            printf("\n%016" PRIx64 " <%s>:\n", s->addr, s->name);
        }
        sweep(data, s->size, s->addr, &env, &ef, (int)s->index);
        any = true;
    }
    if (o->disassemble && !any) {
        fprintf(stderr, "linx-objdump: %s: no executable section\n", path);
    }
    elf_file_close(&ef);
    return 0;
}

/* ---- Hex words ------------------------------------------------------------------ */

/* Append the words of @text ("0800 02001181", '#' comments) to @buf. */
static bool parse_hex_words(const char *what, const char *text, uint8_t *buf, size_t *len)
{
    const char *p = text;
    unsigned line = 1;

    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') {
            line += *p == '\n';
            p++;
        }
        if (*p == '#') {
            while (*p && *p != '\n') {
                p++;
            }
            continue;
        }
        if (!*p) {
            return true;
        }
        const char *start = p;
        uint64_t v = 0;
        unsigned digits = 0;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
        }
        while ((*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')) {
            v = v << 4 | (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
            digits++;
            p++;
        }
        bool sep = !*p || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',' ||
                   *p == '#';
        if ((digits != 4 && digits != 8) || !sep) {
            size_t n = strcspn(start, " \t\r\n,#");
            fprintf(stderr, "linx-objdump: %s:%u: bad word '%.*s' (expected 4 or 8 hex digits, "
                    "a halfword or a 32-bit word)\n", what, line, (int)n, start);
            return false;
        }
        if (*len + digits / 2 > HEX_MAX_BYTES) {
            fprintf(stderr, "linx-objdump: %s: more than %d bytes\n", what, HEX_MAX_BYTES);
            return false;
        }
        for (unsigned i = 0; i < digits / 2; i++) {
            buf[(*len)++] = (uint8_t)(v >> (8 * i));
        }
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f) {
        fprintf(stderr, "linx-objdump: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > 64 * HEX_MAX_BYTES ||
        fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "linx-objdump: %s: cannot read (or larger than %d bytes)\n", path,
                64 * HEX_MAX_BYTES);
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "linx-objdump: %s: read error\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int dump_hex(const Options *o)
{
    uint8_t *buf = malloc(HEX_MAX_BYTES);
    size_t len = 0;
    char *text = NULL;
    bool ok;
    LinxDisasEnv env = { o->flags, NULL, NULL, NULL };

    if (!buf) {
        fprintf(stderr, "linx-objdump: out of memory\n");
        return EXIT_BAD_INPUT;
    }
    if (o->hex_file) {
        text = read_file(o->hex_file);
        ok = text && parse_hex_words(o->hex_file, text, buf, &len);
    } else {
        ok = parse_hex_words("--hex", o->hex, buf, &len);
    }
    if (ok && len == 0) {
        fprintf(stderr, "linx-objdump: no instruction words given\n");
        ok = false;
    }
    if (ok) {
        LinxProfileVote vote;
        memset(&vote, 0, sizeof(vote));
        linx_profile_vote_code(&vote, buf, len);
        env.profile = input_profile(o, &vote, false);
        sweep(buf, len, o->start_address, &env, NULL, -1);
    }
    free(text);
    free(buf);
    return ok ? 0 : EXIT_BAD_INPUT;
}

/* ---- Command line ----------------------------------------------------------------- */

static bool parse_address(const char *s, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 0);
    return errno == 0 && end != s && *end == '\0';
}

/* The value of option @name given as "--name=V", "--name V" or "-XV". */
static const char *option_value(int argc, char **argv, int *i, const char *arg, size_t skip)
{
    if (arg[skip] == '=') {
        return arg + skip + 1;
    }
    if (arg[skip] != '\0') {
        return arg + skip;
    }
    if (*i + 1 >= argc) {
        return NULL;
    }
    return argv[++*i];
}

/* -M a,b,...: legacy and a profile name.  False with the unknown option
 * in @bad. */
static bool parse_disassembler_options(const char *v, Options *o, char *bad, size_t badlen)
{
    char buf[256];
    char *save = NULL;

    snprintf(buf, sizeof(buf), "%s", v);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "legacy")) {
            o->flags |= LINX_DISAS_F_LEGACY;
        } else if (!(o->profile = linx_profile_by_name(t))) {
            snprintf(bad, badlen, "%s", t);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    Options o = { 0 };
    const char *files[256];
    int nfiles = 0, rc = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-d") || !strcmp(a, "--disassemble")) {
            o.disassemble = true;
        } else if (!strncmp(a, "-M", 2) || !strncmp(a, "--disassembler-options", 22)) {
            char bad[256] = "";
            v = option_value(argc, argv, &i, a, a[1] == 'M' ? 2 : 22);
            if (!v || !parse_disassembler_options(v, &o, bad, sizeof(bad))) {
                fprintf(stderr, "linx-objdump: unknown disassembler option '%s' (known: "
                        "legacy, linx-toolchain, linx-v0.4)\n", bad);
                return EXIT_USAGE;
            }
        } else if (!strncmp(a, "--hex-file", 10)) {
            o.hex_file = option_value(argc, argv, &i, a, 10);
            if (!o.hex_file) {
                fprintf(stderr, "linx-objdump: --hex-file needs a file name\n");
                return EXIT_USAGE;
            }
        } else if (!strncmp(a, "--hex", 5)) {
            o.hex = option_value(argc, argv, &i, a, 5);
            if (!o.hex) {
                fprintf(stderr, "linx-objdump: --hex needs instruction words\n");
                return EXIT_USAGE;
            }
        } else if (!strncmp(a, "--start-address", 15)) {
            v = option_value(argc, argv, &i, a, 15);
            if (!v || !parse_address(v, &o.start_address)) {
                fprintf(stderr, "linx-objdump: bad --start-address '%s'\n", v ? v : "");
                return EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "linx-objdump: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        } else if (nfiles < (int)(sizeof(files) / sizeof(files[0]))) {
            files[nfiles++] = a;
        } else {
            fprintf(stderr, "linx-objdump: too many files\n");
            return EXIT_USAGE;
        }
    }
    if (o.hex || o.hex_file) {
        if (nfiles || (o.hex && o.hex_file)) {
            fprintf(stderr, "linx-objdump: --hex/--hex-file take no ELF files\n");
            return EXIT_USAGE;
        }
        return dump_hex(&o);
    }
    if (!nfiles) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!o.disassemble) {
        fprintf(stderr, "linx-objdump: nothing to do: give -d to disassemble\n");
        return EXIT_USAGE;
    }
    for (int i = 0; i < nfiles; i++) {
        if (dump_elf(files[i], &o)) {
            rc = EXIT_BAD_INPUT;
        }
    }
    return rc;
}
